// Package templates holds the text of every mail Sortie sends, as text/template files embedded in the
// binary: turn reports, receipts, refusals and errors, help, game start and game over, status. A
// moderator can override any of them by putting a file of the same name in a folder given to New, and
// may use everything text/template offers there.
//
// The package knows nothing of games: each template is executed with the data the adjudicator gives it,
// built from one player's view only (invariant 4, docs/architecture.md).
package templates

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/template"
	"unicode"
	"unicode/utf8"
)

//go:embed files/*.tmpl
var embedded embed.FS

// Names lists the templates Sortie uses.
func Names() []string {
	return []string{"report", "receipt", "refusal", "error", "help", "start", "over", "status", "announce"}
}

// Set is a parsed set of templates. It is safe for use by several goroutines at once.
type Set struct {
	t map[string]*entry
	// buffers are Render's output buffers, kept between calls (a receipt is rendered for every
	// order mail).
	buffers sync.Pool
}

// entry is one template: its subject line and body as text/template parsed them, and where it came
// from.
type entry struct {
	subject, body *template.Template // the first line of each template, "Subject: ...", on its own
	source        string             // "embedded" or a file path
}

// New parses the embedded templates and, if dir is not empty, replaces any of them found there as
// NAME.tmpl. A file in dir that is not one of Names is an error (a misspelt override must not be
// ignored silently).
func New(dir string) (*Set, error) {
	s := &Set{t: map[string]*entry{}}
	s.buffers.New = func() any { return new(bytes.Buffer) }
	names := Names()
	for _, name := range names {
		text, err := fs.ReadFile(embedded, "files/"+name+".tmpl")
		if err != nil {
			return nil, fmt.Errorf("templates: embedded %s: %w", name, err)
		}
		if err := s.add(name, string(text), "embedded"); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		return s, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tmpl") {
			continue
		}
		name := strings.TrimSuffix(e.Name(), ".tmpl")
		if _, ok := s.t[name]; !ok {
			return nil, fmt.Errorf("templates: %s is not a Sortie template (known: %s)", e.Name(), strings.Join(names, ", "))
		}
		path := filepath.Join(dir, e.Name())
		text, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		if err := s.add(name, string(text), path); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (s *Set) add(name, text, source string) error {
	first, rest, _ := strings.Cut(text, "\n")
	subj, ok := strings.CutPrefix(strings.TrimRight(first, "\r"), "Subject: ")
	if !ok {
		return fmt.Errorf("templates: %s (%s) must start with a Subject: line", name, source)
	}
	// The subject line is a template of its own, so that no value put into it (a game's name with a
	// line break, say) can end it early and spill into the body.
	st, err := template.New(name + "-subject").Funcs(funcs()).Option("missingkey=error").Parse(subj)
	if err != nil {
		return fmt.Errorf("templates: %s (%s), subject line: %w", name, source, err)
	}
	t, err := template.New(name).Funcs(funcs()).Option("missingkey=error").Parse(rest)
	if err != nil {
		return fmt.Errorf("templates: %s (%s): %w", name, source, err)
	}
	s.t[name] = &entry{subject: st, body: t, source: source}
	return nil
}

// Source says where a template came from.
func (s *Set) Source(name string) string {
	if e := s.t[name]; e != nil {
		return e.source
	}
	return ""
}

// Render executes a template. The first line of the result is the mail's subject ("Subject: ..."),
// made one line (OneLine); the rest, after one blank line, is the body, with leading and trailing
// blank lines and trailing spaces on every line trimmed.
func (s *Set) Render(name string, data any) (subject, body string, err error) {
	e, ok := s.t[name]
	if !ok {
		return "", "", fmt.Errorf("templates: no template %q", name)
	}
	b := s.buffers.Get().(*bytes.Buffer)
	defer func() {
		b.Reset()
		s.buffers.Put(b)
	}()
	if err := e.subject.Execute(b, data); err != nil {
		return "", "", fmt.Errorf("templates: %s: %w", name, err)
	}
	subject = oneLine(b.Bytes())
	b.Reset()
	if err := e.body.Execute(b, data); err != nil {
		return "", "", fmt.Errorf("templates: %s: %w", name, err)
	}
	return subject, trimBody(b.Bytes()), nil
}

// trimBody is the body as Render gives it: leading line breaks removed, trailing spaces and tabs trimmed
// from every line, trailing line breaks removed, and one line break at the end. One pass, one allocation.
func trimBody(text []byte) string {
	for len(text) > 0 && text[0] == '\n' {
		text = text[1:]
	}
	// What follows the last character that is not a space, tab or line break goes, and one line
	// break ends the body.
	end := len(text)
	for end > 0 && (text[end-1] == '\n' || text[end-1] == ' ' || text[end-1] == '\t') {
		end--
	}
	text = text[:end]
	var out strings.Builder
	out.Grow(len(text) + 1)
	for {
		line := text
		j := bytes.IndexByte(text, '\n')
		if j >= 0 {
			line = text[:j]
		}
		k := len(line)
		for k > 0 && (line[k-1] == ' ' || line[k-1] == '\t') {
			k--
		}
		out.Write(line[:k])
		out.WriteByte('\n')
		if j < 0 {
			return out.String()
		}
		text = text[j+1:]
	}
}

// OneLine makes text fit for a mail header: every control character (a line break, a tab, an escape)
// and every Unicode line or paragraph separator becomes a space, runs of spaces become one, and the
// ends are trimmed.
func OneLine(s string) string {
	return oneLine([]byte(s))
}

// oneLine is OneLine of a render's bytes, in one pass and one allocation: the words (runs of
// characters that are not separators, invalid UTF-8 kept as it is) joined by single spaces.
func oneLine(text []byte) string {
	var out strings.Builder
	out.Grow(len(text))
	word := -1 // where the word being read began
	for i := 0; i < len(text); {
		c := text[i]
		size := 1
		sep := c <= ' ' || c == 0x7f // the ASCII controls and space
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRune(text[i:])
			sep = separator(r)
		}
		switch {
		case sep && word >= 0:
			if out.Len() > 0 {
				out.WriteByte(' ')
			}
			out.Write(text[word:i])
			word = -1
		case !sep && word < 0:
			word = i
		}
		i += size
	}
	if word >= 0 {
		if out.Len() > 0 {
			out.WriteByte(' ')
		}
		out.Write(text[word:])
	}
	return out.String()
}

func separator(r rune) bool {
	return unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029'
}

// funcs are the functions every template may call besides text/template's own: a new map for each
// template, so that nothing is shared between Sets.
func funcs() template.FuncMap {
	return template.FuncMap{
		"feet": func(n int) string {
			neg := n < 0
			if neg {
				n = -n
			}
			s := fmt.Sprint(n)
			if n >= 1000 {
				s = fmt.Sprintf("%d,%03d", n/1000, n%1000)
			}
			if neg {
				s = "-" + s
			}
			return s
		},
		"tenths": func(t int) string { return fmt.Sprintf("%.1f", float64(t)/10) },
		"pad": func(n int, s string) string {
			if len([]rune(s)) >= n {
				return s
			}
			return s + strings.Repeat(" ", n-len([]rune(s)))
		},
		"join":  strings.Join,
		"upper": strings.ToUpper,
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
		"bearing": func(d int) string { return fmt.Sprintf("%03d", d*30) },
		"indent": func(n int, s string) string {
			pad := strings.Repeat(" ", n)
			lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
			for i := range lines {
				if lines[i] != "" {
					lines[i] = pad + lines[i]
				}
			}
			return strings.Join(lines, "\n")
		},
		"sorted": func(m map[string]int) []string {
			var out []string
			for k := range m {
				out = append(out, k)
			}
			sort.Strings(out)
			return out
		},
	}
}
