package templates

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"text/template"
)

// renderBoth renders a template of s through the compiled form and through text/template; compiled
// is false when the compiled form handed the render back.
func renderBoth(t testing.TB, s *Set, name string, d any) (fastSubject, fastBody, subject, body string, compiled bool, err error) {
	t.Helper()
	e := s.t[name]
	fastSubject, fastBody, compiled = e.renderCompiled(d)
	subject, body, err = e.renderText(name, d)
	return
}

// Every embedded template compiles, and gives text/template's bytes for every variant of the data the
// adjudicator gives it, without handing a render back.
func TestCompiledMatchesTextTemplate(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names {
		e := s.t[name]
		if e.notCompiled != nil || e.fastBody == nil || e.fastSubject == nil {
			t.Errorf("%s is not compiled: %v", name, e.notCompiled)
			continue
		}
		bodies := map[string]bool{}
		for v := range 1 << 12 {
			d := data(name, v)
			fs, fb, subject, body, compiled, err := renderBoth(t, s, name, d)
			if err != nil {
				t.Fatalf("%s variant %d: text/template: %v", name, v, err)
			}
			if !compiled {
				t.Fatalf("%s variant %d: the compiled form handed the render back", name, v)
			}
			if fs != subject || fb != body {
				t.Fatalf("%s variant %d differs:\ncompiled subject %q\ntext/template    %q\ncompiled body:\n%s\ntext/template body:\n%s", name, v, fs, subject, fb, body)
			}
			bodies[subject+"\n"+body] = true
			// Render itself takes the compiled path and answers the same.
			if rs, rb, err := s.Render(name, d); err != nil || rs != subject || rb != body {
				t.Fatalf("%s variant %d: Render %q %v", name, v, rs, err)
			}
		}
		// The variants reach every branch that the data can choose: this test would not notice a
		// wrong else if every variant took the same path.
		t.Logf("%s: %d different mails", name, len(bodies))
		if len(bodies) < 2 && name != "status" {
			t.Errorf("%s: the variants gave only %d different mails", name, len(bodies))
		}
	}
}

// Errors are text/template's: a missing key, a nil map, data of the wrong shape.
func TestCompiledErrorsAreTextTemplates(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		data any
	}{
		{"announce", map[string]any{"Game": "g1"}},
		{"announce", nil},
		{"announce", map[string]any(nil)},
		{"help", map[string]int{"Name": 1}},
		{"receipt", map[string]any{"Game": "g1"}},
		{"receipt", &struct{ Game, GameName string }{}},
		{"receipt", (*tReceipt)(nil)},
		{"report", tReceipt{}},
		{"error", map[string]any{"Subject": "x", "Problems": 3.5}},
		{"error", map[string]any{"Subject": "x", "Problems": []any{1, func() {}}}},
		{"error", map[string]any{"Subject": "x", "Problems": func() {}}},
	}
	for _, c := range cases {
		_, _, wantErr := s.t[c.name].renderText(c.name, c.data)
		_, _, gotErr := s.Render(c.name, c.data)
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
			t.Errorf("%s with %#v: Render error %v, text/template's %v", c.name, c.data, gotErr, wantErr)
		}
		if _, _, ok := s.t[c.name].renderCompiled(c.data); ok {
			t.Errorf("%s with %#v: the compiled form finished a render text/template refuses", c.name, c.data)
		}
	}
	// A function of the set's that panics (strings.Repeat of a negative count), a builtin that fails,
	// a field of a nil pointer, in a moderator's templates.
	dir := t.TempDir()
	for name, text := range map[string]string{
		"help":     "Subject: help\n{{indent -1 .Name}}\n",
		"status":   "Subject: status\n{{index .Text 99}}\n",
		"announce": "Subject: x\n{{.P.Name}}\n",
		"error":    "Subject: {{.Subject}}\n{{range .Problems}}{{lt . 2}}{{end}}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name+".tmpl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data any
	}{
		{"help", mapData("help", 0)},
		{"status", mapData("status", 0)},
		{"announce", map[string]any{"P": (*tUnit)(nil)}},
		{"error", map[string]any{"Subject": "s", "Problems": []any{1, "x"}}},
	} {
		_, _, wantErr := o.t[c.name].renderText(c.name, c.data)
		_, _, gotErr := o.Render(c.name, c.data)
		if wantErr == nil || gotErr == nil || wantErr.Error() != gotErr.Error() {
			t.Errorf("override %s: Render error %v, text/template's %v", c.name, gotErr, wantErr)
		}
		if o.t[c.name].fastBody == nil {
			t.Errorf("override %s is not compiled: %v", c.name, o.t[c.name].notCompiled)
		}
	}
	// Data by pointer renders as by value.
	d := receiptData(0xfff)
	fs, fb, subject, body, compiled, err := renderBoth(t, s, "receipt", &d)
	if err != nil || !compiled || fs != subject || fb != body {
		t.Errorf("receipt by pointer: compiled %v, %v", compiled, err)
	}
}

// A moderator's template may use anything text/template offers: what the compiled form does not
// compile, or cannot finish for the data, text/template renders.
func TestOverridesNotCompiledStillRender(t *testing.T) {
	type withF struct {
		tReceipt
		F func(int) int
	}
	rec := withF{receiptData(1 << 3), func(i int) int { return i * 2 }}
	rec.Orders = append(rec.Orders, tOrderEcho{Unit: "RED2"}, tOrderEcho{Unit: "RED3", Stored: true})
	rep := struct {
		tReportData
		M map[string]int
	}{reportData("report", 0), map[string]int{"b": 2, "a": 1}}
	rep.Report.Scene = &tScene{}
	overrides := []struct {
		name, text string
		data       any
		want       string
		compiled   bool // whether the compiled form finishes the render
	}{
		// the slice and call builtins are not compiled; define and template, continue, variables are
		{"receipt", "Subject: {{slice .Game 0 1}} receipt\n{{define \"o\"}}[{{.Unit}}{{if .Stored}}*{{end}}]{{end}}" +
			"{{range $i, $o := .Orders}}{{if eq $i 1}}{{continue}}{{end}}{{template \"o\" $o}}{{end}} {{len .Orders}} {{call .F 2}}\n",
			rec, "g receipt|[RED1][RED3*] 3 4\n", false},
		// a method of the data's (.Report.Picture) is text/template's to call
		{"report", "Subject: {{.Report.Picture}}\n{{block \"b\" .Report}}{{.Side}}{{end}} {{range $k, $v := .M}}{{$k}}={{$v}};{{break}}{{end}}\n",
			&rep, "<scene>|RAF a=1;\n", false},
		{"report", "Subject: x\n{{block \"b\" .Report}}{{.Side}}{{end}} {{range $k, $v := .M}}{{$k}}={{$v}};{{break}}{{end}}\n",
			&rep, "x|RAF a=1;\n", true},
		{"help", "Subject: help\n{{with $x := .Name}}{{$x}}{{else}}none{{end}} {{printf \"%05.1f\" 3.14159}} {{.Name | printf \"%q\"}}\n",
			mapData("help", 0), "help|Sortie 003.1 \"Sortie\"\n", true},
		// an empty body
		{"status", "Subject: status\n", mapData("status", 0), "status|\n", true},
		{"error", "Subject: {{.Subject}}\n{{range .Problems}}{{.Error}};{{end}}\n",
			map[string]any{"Subject": "e", "Problems": []error{os.ErrNotExist, os.ErrExist}}, "e|file does not exist;file already exists;\n", false},
	}
	for i, o := range overrides {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, o.name+".tmpl"), []byte(o.text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := New(dir)
		if err != nil {
			t.Fatal(err)
		}
		if s.Source(o.name) == "embedded" {
			t.Fatalf("%s is not overridden", o.name)
		}
		subject, body, err := s.Render(o.name, o.data)
		if err != nil {
			t.Errorf("override %d (%s): %v", i, o.name, err)
			continue
		}
		if got := subject + "|" + body; got != o.want {
			t.Errorf("override %d (%s): got %q, want %q", i, o.name, got, o.want)
		}
		fs, fb, ts, tb, compiled, err := renderBoth(t, s, o.name, o.data)
		if err != nil || ts != subject || tb != body {
			t.Errorf("override %d (%s): text/template gives %q %q %v", i, o.name, ts, tb, err)
		}
		if compiled != o.compiled {
			t.Errorf("override %d (%s): compiled %v, want %v (%v)", i, o.name, compiled, o.compiled, s.t[o.name].notCompiled)
		}
		if compiled && (fs != ts || fb != tb) {
			t.Errorf("override %d (%s): compiled %q %q", i, o.name, fs, fb)
		}
	}
}

func (s *tScene) String() string { return "<scene>" }

// Renders of one Set from many goroutines, with data of different types through the same fields (the
// fields' caches change hands), give what text/template gives. Run with -race.
func TestCompiledConcurrent(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	type job struct {
		name string
		data any
	}
	var jobs []job
	for v := range 64 {
		rec := receiptData(v * 61)
		jobs = append(jobs, job{"receipt", rec}, job{"receipt", &rec}, job{"report", reportData("report", v*59)},
			job{"announce", mapData("announce", v)}, job{"announce", struct{ Game, GameName, Text string }{"g", "n", "t"}})
	}
	want := make([]string, len(jobs))
	for i, j := range jobs {
		subject, body, err := s.t[j.name].renderText(j.name, j.data)
		want[i] = fmt.Sprint(subject, body, err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 * len(jobs) {
				i := (k*7 + w*13) % len(jobs)
				subject, body, err := s.Render(jobs[i].name, jobs[i].data)
				if got := fmt.Sprint(subject, body, err); got != want[i] {
					t.Errorf("job %d: %q, want %q", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

type ptrStringer struct{ N int }

func (p *ptrStringer) String() string { return fmt.Sprint("ptr-", p.N) }

type durationLike int64

func (d durationLike) String() string { return fmt.Sprint(int64(d), "s") }

type myBool bool
type myInt int

// Every kind of value printed by the compiled form as text/template prints it: the ones written
// straight into the buffer (string, int, uint, bool) and the ones given to fmt (Stringers and errors,
// by value and by pointer, addressable or not, nil pointers and interfaces, slices of strings and of
// bytes, floats, named types).
func TestCompiledPrintsLikeTextTemplate(t *testing.T) {
	s := "str"
	values := []any{"", "a b", -5, int8(-8), int64(1 << 40), uint(7), uint8(200), uintptr(9), true, false, 2.5, 1e21, complex(1, 2),
		&s, (*string)(nil), nil, []string{"a", "b"}, []string(nil), []byte("by"), [2]int{1, 2}, map[string]int{"b": 1, "a": 2},
		stringer("x"), errors.New("e"), error(nil), ptrStringer{3}, &ptrStringer{4}, durationLike(3), myBool(true), myInt(4),
		namedStr("n"), struct{ A, b int }{1, 2}, 'r', []any{nil, 1}}
	type holder struct {
		V   any
		P   ptrStringer
		Err error
		St  fmt.Stringer
	}
	for _, text := range []string{"{{.V}}|{{.P}}|{{.Err}}|{{.St}}|{{with .V}}{{.}}{{end}}|{{print .V .P}}",
		"{{range $i, $e := .V}}{{$i}}={{$e}};{{else}}none{{end}}"} {
		tt, err := template.New("p").Option("missingkey=error").Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		p, err := compile(tt, funcs)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			for _, d := range []any{holder{V: v, P: ptrStringer{1}, St: stringer("s")}, &holder{V: v, P: ptrStringer{2}, Err: errors.New("x")}} {
				var want, got bytes.Buffer
				wantErr := tt.Execute(&want, d)
				if gotErr := p.execute(&got, d); gotErr != nil {
					if wantErr == nil {
						t.Errorf("%s with %#v: handed back, and text/template gives %q", text, v, want.String())
					}
					continue
				}
				if wantErr != nil || got.String() != want.String() {
					t.Errorf("%s with %#v: compiled %q, text/template %q %v", text, v, got.String(), want.String(), wantErr)
				}
			}
		}
	}
}
