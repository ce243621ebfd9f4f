package yamlpath

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Message is one message of a YAML decoding error and the line it names (0 for none).
type Message struct {
	Line int
	Text string
}

var messageLine = regexp.MustCompile(`(?s)^(?:yaml: )?line (\d+): (.*)$`) // a message may run over lines

// Messages are the messages of a YAML decoding error, each with its line and without the decoder's
// "yaml: ": a *yaml.TypeError holds one for every field it could not decode, any other error one.
func Messages(err error) []Message {
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if sm := messageLine.FindStringSubmatch(m); sm != nil {
			n, _ := strconv.Atoi(sm[1])
			out = append(out, Message{Line: n, Text: sm[2]})
			continue
		}
		out = append(out, Message{Text: strings.TrimPrefix(m, "yaml: ")})
	}
	return out
}
