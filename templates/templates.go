// Package templates holds the text of every mail Sortie sends, as text/template files embedded in the
// binary: turn reports, receipts, refusals and errors, help, game start and game over, status. A
// moderator can override any of them by putting a file of the same name in a folder given to New.
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
)

//go:embed files/*.tmpl
var embedded embed.FS

// Names lists the templates Sortie uses.
var Names = []string{"report", "receipt", "refusal", "error", "help", "start", "over", "status", "announce"}

// Set is a parsed set of templates.
type Set struct {
	t       map[string]*template.Template
	subject map[string]*template.Template // the first line of each template, "Subject: ...", on its own
	sources map[string]string             // where each template came from: "embedded" or a file path
}

// New parses the embedded templates and, if dir is not empty, replaces any of them found there as
// NAME.tmpl. A file in dir that is not one of Names is an error (a misspelt override must not be
// ignored silently).
func New(dir string) (*Set, error) {
	s := &Set{t: map[string]*template.Template{}, subject: map[string]*template.Template{}, sources: map[string]string{}}
	for _, name := range Names {
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
			return nil, fmt.Errorf("templates: %s is not a Sortie template (known: %s)", e.Name(), strings.Join(Names, ", "))
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
	st, err := template.New(name + "-subject").Funcs(funcs).Option("missingkey=error").Parse(subj)
	if err != nil {
		return fmt.Errorf("templates: %s (%s), subject line: %w", name, source, err)
	}
	t, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(rest)
	if err != nil {
		return fmt.Errorf("templates: %s (%s): %w", name, source, err)
	}
	s.subject[name] = st
	s.t[name] = t
	s.sources[name] = source
	return nil
}

// Source says where a template came from.
func (s *Set) Source(name string) string { return s.sources[name] }

// Render executes a template. The first line of the result is the mail's subject ("Subject: ..."); the
// rest, after one blank line, is the body. Trailing spaces are trimmed from every line.
func (s *Set) Render(name string, data any) (subject, body string, err error) {
	t, ok := s.t[name]
	if !ok {
		return "", "", fmt.Errorf("templates: no template %q", name)
	}
	b := buffers.Get().(*bytes.Buffer)
	defer func() {
		b.Reset()
		buffers.Put(b)
	}()
	if err := s.subject[name].Execute(b, data); err != nil {
		return "", "", fmt.Errorf("templates: %s: %w", name, err)
	}
	subject = OneLine(b.String())
	b.Reset()
	if err := t.Execute(b, data); err != nil {
		return "", "", fmt.Errorf("templates: %s: %w", name, err)
	}
	return subject, trimBody(b.Bytes()), nil
}

// buffers are Render's output buffers, kept between calls (a receipt is rendered for every order mail).
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// trimBody is the body as Render gives it: leading line breaks removed, trailing spaces and tabs trimmed
// from every line, trailing line breaks removed, and one line break at the end. One pass, one allocation.
func trimBody(text []byte) string {
	text = bytes.TrimLeft(text, "\n")
	var out strings.Builder
	out.Grow(len(text) + 1)
	for len(text) > 0 {
		line, rest, found := bytes.Cut(text, []byte{'\n'})
		out.Write(bytes.TrimRight(line, " \t"))
		if found {
			out.WriteByte('\n')
		}
		text = rest
	}
	body := out.String()
	if trimmed := strings.TrimRight(body, "\n"); len(trimmed) < len(body) {
		return body[:len(trimmed)+1] // the first of the line breaks trimmed
	}
	return body + "\n"
}

// OneLine makes text fit for a mail header: every control character (a line break, a tab, an escape)
// and every Unicode line or paragraph separator becomes a space, runs of spaces become one, and the
// ends are trimmed.
func OneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029'
	}), " ")
}

var funcs = template.FuncMap{
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
	"join":    strings.Join,
	"upper":   strings.ToUpper,
	"plural":  func(n int, one, many string) string { return map[bool]string{true: one, false: many}[n == 1] },
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
