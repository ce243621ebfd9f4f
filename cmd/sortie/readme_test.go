package main

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestREADMEExamplesRunAsWritten runs every `go run ./cmd/sortie …` line of README.md's code blocks with
// the built binary, from the repository root as a reader would, and requires the exit status the README
// states: 0, or the one its "# exits N" comment names. A reader who copies an example gets what the
// README says, and an example file the README names must exist.
func TestREADMEExamplesRunAsWritten(t *testing.T) {
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const prefix = "go run ./cmd/sortie"
	in, ran := false, 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "```") {
			in = !in
			continue
		}
		if !in || !strings.HasPrefix(line, prefix) {
			continue
		}
		cmdline, want := line, 0
		if i := strings.Index(line, "#"); i >= 0 {
			cmdline = strings.TrimSpace(line[:i])
			comment := strings.TrimSpace(line[i+1:])
			code, ok := strings.CutPrefix(comment, "exits ")
			if !ok {
				t.Fatalf("README.md:%d: a comment on an example says how it exits (# exits N): %q", n, comment)
			}
			if want, err = strconv.Atoi(strings.Fields(code)[0]); err != nil {
				t.Fatalf("README.md:%d: %v", n, err)
			}
		}
		args, err := shellWords(strings.TrimSpace(strings.TrimPrefix(cmdline, prefix)))
		if err != nil {
			t.Fatalf("README.md:%d: %v", n, err)
		}
		if len(args) > 0 && args[0] == "demo" {
			continue // the demo tests play every bundled demo (TestDemo…)
		}
		if len(args) > 0 && args[0] == "sandbox" {
			continue // it runs until Ctrl-C: TestSandboxWithAMailProgram plays it through a mail client
		}
		ran++
		cmd := exec.Command(binary, args...)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Errorf("README.md:%d: %s exited %d, the README says %d:\n%s", n, line, code, want, out)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if ran < 10 {
		t.Fatalf("ran only %d README examples; is the code block still there?", ran)
	}
}

// shellWords splits a command line the way a POSIX shell splits these examples: on blanks, with double
// quotes grouping words. Anything else a shell would interpret is refused, so an example never depends on
// a shell feature this test does not model.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case strings.ContainsRune(`'\$|&;<>*?`+"`", r) && !quoted:
			return nil, &shellError{r}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, &shellError{'"'}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

type shellError struct{ r rune }

func (e *shellError) Error() string {
	return "the example uses " + strconv.QuoteRune(e.r) + ", which this test does not read as a shell would"
}
