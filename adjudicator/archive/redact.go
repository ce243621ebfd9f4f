package archive

import (
	"bytes"
	"net/url"
	"regexp"
	"sort"
	"sortie/adjudicator"
	"sortie/mailer/outmail"
	"sortie/rules/dice"
	"sortie/storage"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// redactor withholds the players' and the moderator's secrets, the reply tokens and the keys of the
// players' web links from mail.
type redactor struct {
	tokens  *strings.Replacer
	secrets []*regexp.Regexp
	links   *regexp.Regexp
}

func newRedactor(g *adjudicator.Game) *redactor {
	var pairs []string
	r := &redactor{}
	secrets := []string{g.ModSecret}
	seed, _ := dice.ParseSeed(g.Seed)
	for _, st := range g.Seats {
		if st.Token != "" {
			pairs = append(pairs, st.Token, "token-"+withheld)
		}
		// The key of the player's web link (in reports when the web archive is served): whoever holds
		// it reads that player's reports while the game runs.
		pairs = append(pairs, adjudicator.PlayerKey(seed, g.ID, st.Player, st.LinkNonce), "key-"+withheld)
		secrets = append(secrets, st.Secret)
	}
	// And any other key in a link of this game: a seat's keys before REPLACE or RENEW gave it a new one.
	r.links = regexp.MustCompile(`(` + regexp.QuoteMeta("p/"+url.PathEscape(g.ID)+"/") + `)[0-9a-f]{32}\b`)
	// Whatever word follows a SECRET keyword, known secret or not (a mistyped one is nearly right).
	r.secrets = append(r.secrets, regexp.MustCompile(`(\bSECRET:?[ \t]+)[\w-]+($|[^\w-])`))
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		// Every occurrence of a seat's secret as a word of its own, whatever its length and case: a
		// short secret may withhold an ordinary word too, which is the lesser harm.
		r.secrets = append(r.secrets, regexp.MustCompile(`(?i)(^|[^\w-])`+regexp.QuoteMeta(secret)+`($|[^\w-])`))
	}
	r.tokens = strings.NewReplacer(pairs...)
	return r
}

func (r *redactor) text(s string) string {
	s = r.tokens.Replace(s)
	s = r.links.ReplaceAllString(s, "${1}key-"+withheld)
	for _, re := range r.secrets {
		// Twice: two occurrences separated by one character share it between their matches.
		for i := 0; i < 2; i++ {
			s = re.ReplaceAllString(s, "${1}secret-"+withheld+"${2}")
		}
	}
	return s
}

// mail withholds secrets in a mail: its text (and so the HTML alternative, which Render makes from the
// text), its headers, the names of its parts and every text part. A picture is kept as it is: Sortie
// draws no secret into one.
func (r *redactor) mail(m *storage.Outgoing) {
	m.Subject, m.Body, m.ReplyTo = r.text(m.Subject), r.text(m.Body), r.text(m.ReplyTo)
	if len(m.Parts) > 0 {
		parts := make([]outmail.Part, len(m.Parts))
		for i, p := range m.Parts {
			p.Filename, p.ContentID = r.text(p.Filename), r.text(p.ContentID)
			if strings.HasPrefix(strings.ToLower(p.ContentType), "text/") {
				p.Data = []byte(r.text(string(p.Data)))
			}
			parts[i] = p
		}
		m.Parts = parts
	}
	if len(m.Headers) > 0 {
		h := make(map[string]string, len(m.Headers))
		for k, v := range m.Headers {
			h[k] = r.text(v)
		}
		m.Headers = h
	}
	m.LastError = r.text(m.LastError)
}

// redactScenario withholds the players' and the moderator's secrets in a scenario's service section, and
// with seed also a seed fixed there. The rest of the file stays as the moderator wrote it.
func redactScenario(text string, seed bool) (string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return "", err
	}
	var targets []*yaml.Node
	if len(doc.Content) == 1 {
		if svc := mapValue(doc.Content[0], "service"); svc != nil {
			if v := mapValue(svc, "seed"); v != nil && seed {
				targets = append(targets, v)
			}
			if v := mapValue(svc, "moderator_secret"); v != nil {
				targets = append(targets, v)
			}
			if players := mapValue(svc, "players"); players != nil && players.Kind == yaml.MappingNode {
				for i := 1; i < len(players.Content); i += 2 {
					if v := mapValue(players.Content[i], "secret"); v != nil {
						targets = append(targets, v)
					}
				}
			}
		}
	}
	if len(targets) == 0 {
		return text, nil
	}
	lines := strings.SplitAfter(text, "\n")
	// From the last target back, so earlier positions stay valid.
	sort.Slice(targets, func(i, j int) bool {
		if targets[i].Line != targets[j].Line {
			return targets[i].Line > targets[j].Line
		}
		return targets[i].Column > targets[j].Column
	})
	for _, t := range targets {
		if !replaceScalar(lines, t) {
			// Not a simple scalar where the parser says: write the whole document again.
			for _, t := range targets {
				t.Kind, t.Style, t.Tag, t.Value, t.Content = yaml.ScalarNode, 0, "!!str", withheld, nil
			}
			var b bytes.Buffer
			enc := yaml.NewEncoder(&b)
			enc.SetIndent(2)
			if err := enc.Encode(&doc); err != nil {
				return "", err
			}
			return b.String(), nil
		}
	}
	return strings.Join(lines, ""), nil
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// replaceScalar replaces a one-line scalar in place with "withheld", keeping its quotes.
func replaceScalar(lines []string, n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Line < 1 || n.Line > len(lines) || n.Column < 1 {
		return false
	}
	line := lines[n.Line-1]
	start := 0
	for col := 1; col < n.Column; col++ { // columns count characters
		if start >= len(line) {
			return false
		}
		_, size := utf8.DecodeRuneInString(line[start:])
		start += size
	}
	rest := line[start:]
	var end int
	switch n.Style {
	case 0:
		if !strings.HasPrefix(rest, n.Value) {
			return false
		}
		end = len(n.Value)
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		q := rest[:min(1, len(rest))]
		if q != `"` && q != `'` {
			return false
		}
		i := 1
		for ; i < len(rest); i++ {
			if q == `"` && rest[i] == '\\' {
				i++
				continue
			}
			if rest[i] == q[0] {
				if q == `'` && i+1 < len(rest) && rest[i+1] == '\'' {
					i++
					continue
				}
				break
			}
		}
		if i >= len(rest) {
			return false
		}
		end = i + 1
		lines[n.Line-1] = line[:start] + q + withheld + q + rest[end:]
		return true
	default:
		return false
	}
	lines[n.Line-1] = line[:start] + withheld + rest[end:]
	return true
}

// sortieBuild names the running build: module, version, VCS revision and Go version, as far as the
