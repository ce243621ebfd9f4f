package templates

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestEmbeddedTemplatesParse(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range Names() {
		if s.Source(n) != "embedded" {
			t.Errorf("%s: source %q", n, s.Source(n))
		}
	}
	subject, body, err := s.Render("announce", map[string]any{"Game": "g1", "GameName": "Test", "Text": "hello  "})
	if err != nil || subject != "[g1] Test: notice" || body != "hello\n" {
		t.Errorf("render: %q %q %v", subject, body, err)
	}
	if _, _, err := s.Render("announce", map[string]any{"Game": "g1"}); err == nil {
		t.Error("a missing field must be an error, not an empty string")
	}
}

func TestOverridesFromAFolder(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte("Subject: our help\nAsk the moderator, {{.Name}}.\n"), 0o644)
	s, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	subject, body, err := s.Render("help", map[string]any{"Name": "Sortie", "Address": "x"})
	if err != nil || subject != "our help" || !strings.Contains(body, "Ask the moderator") {
		t.Errorf("override: %q %q %v", subject, body, err)
	}
	if s.Source("report") != "embedded" {
		t.Error("templates not overridden stay embedded")
	}
	os.WriteFile(filepath.Join(dir, "repot.tmpl"), []byte("Subject: x\n"), 0o644)
	if _, err := New(dir); err == nil || !strings.Contains(err.Error(), "repot.tmpl") {
		t.Errorf("a misspelt override must be refused: %v", err)
	}
	os.Remove(filepath.Join(dir, "repot.tmpl"))
	os.WriteFile(filepath.Join(dir, "error.tmpl"), []byte("no subject line {{.Subject}}\n"), 0o644)
	if _, err = New(dir); err == nil || !strings.Contains(err.Error(), "Subject: line") {
		t.Errorf("a template without a Subject line must be refused when it is read: %v", err)
	}
}

// A value with a line break put into the subject (a game's name, say) stays in the subject: it must
// not end the Subject line and push the rest into the body.
func TestSubjectStaysOneLine(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	name := "Evil\nBcc: victim@example.org\r\n\r\nInjected\u2028line\x1b[0m"
	subject, body, err := s.Render("announce", map[string]any{"Game": "g1", "GameName": name, "Text": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsFunc(subject, func(r rune) bool { return r < 32 || r == 127 || r == '\u2028' }) {
		t.Errorf("the subject holds a control character: %q", subject)
	}
	if !strings.Contains(subject, "Evil Bcc: victim@example.org Injected line") {
		t.Errorf("subject %q", subject)
	}
	if strings.Contains(body, "Injected") || strings.Contains(body, "victim") || !strings.HasPrefix(body, "hello") {
		t.Errorf("the name spilt into the body:\n%s", body)
	}
}

// trimBodyByLines is how Render trimmed a body before trimBody: split, trim each line, join.
func trimBodyByLines(s string) string {
	lines := strings.Split(strings.TrimLeft(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
}

// TestTrimBodyMatchesLineByLine: the one-pass trim gives what trimming line by line gives.
func TestTrimBodyMatchesLineByLine(t *testing.T) {
	for _, s := range []string{"", "\n", "\n\n\n", " ", "a", "a\n", "a  \n", "\n\na \t\n b\t\n\n", "x\r\n y \r\n", "a\n\n\nb  ", "\t\n  \n"} {
		if got, want := trimBody([]byte(s)), trimBodyByLines(s); got != want {
			t.Errorf("trimBody(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzTrimBody(f *testing.F) {
	f.Add("\n\na \t\n b\t\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := trimBody([]byte(s)), trimBodyByLines(s); got != want {
			t.Errorf("trimBody(%q) = %q, want %q", s, got, want)
		}
	})
}

// Every embedded template renders every variant of the data the adjudicator gives it, and the
// variants reach more than one path through each template (a wrong else would show in some mail).
func TestEmbeddedTemplatesRenderEveryVariant(t *testing.T) {
	s, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		mails := map[string]bool{}
		for v := range 1 << 12 {
			subject, body, err := s.Render(name, data(name, v))
			if err != nil {
				t.Fatalf("%s variant %d: %v", name, v, err)
			}
			if subject == "" || strings.ContainsAny(subject, "\r\n") || !strings.HasSuffix(body, "\n") || strings.HasSuffix(body, "\n\n") {
				t.Fatalf("%s variant %d: subject %q, body:\n%s", name, v, subject, body)
			}
			mails[subject+"\n"+body] = true
		}
		if len(mails) < 2 && name != "status" {
			t.Errorf("%s: the variants gave only %d different mails", name, len(mails))
		}
	}
	// Data by pointer renders as by value.
	d := receiptData(0xfff)
	vs, vb, verr := s.Render("receipt", d)
	ps, pb, perr := s.Render("receipt", &d)
	if verr != nil || perr != nil || vs != ps || vb != pb {
		t.Errorf("receipt by pointer: %q %v, by value %q %v", ps, perr, vs, verr)
	}
}

// A render that cannot finish is an error naming the template, never a panic nor a mail with a hole in
// it: a missing key, nil data, data of the wrong shape, a function that panics, a builtin that fails,
// a field of a nil pointer.
func TestRenderErrors(t *testing.T) {
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
		{"error", map[string]any{"Subject": "x", "Problems": func() {}}},
		{"nosuch", nil},
	}
	for _, c := range cases {
		if _, _, err := s.Render(c.name, c.data); err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s with %#v: error %v", c.name, c.data, err)
		}
	}
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
		if _, _, err := o.Render(c.name, c.data); err == nil || !strings.Contains(err.Error(), c.name) {
			t.Errorf("override %s: error %v", c.name, err)
		}
	}
}

func (s *tScene) String() string { return "<scene>" }

// A moderator's template may use anything text/template offers: define, template, block, break,
// continue, variables, slice, call, len, printf, methods of the data, errors that print themselves.
func TestOverridesUseAllOfTextTemplate(t *testing.T) {
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
	}{
		{"receipt", "Subject: {{slice .Game 0 1}} receipt\n{{define \"o\"}}[{{.Unit}}{{if .Stored}}*{{end}}]{{end}}" +
			"{{range $i, $o := .Orders}}{{if eq $i 1}}{{continue}}{{end}}{{template \"o\" $o}}{{end}} {{len .Orders}} {{call .F 2}}\n",
			rec, "g receipt|[RED1][RED3*] 3 4\n"},
		{"report", "Subject: {{.Report.Picture}}\n{{block \"b\" .Report}}{{.Side}}{{end}} {{range $k, $v := .M}}{{$k}}={{$v}};{{break}}{{end}}\n",
			&rep, "<scene>|RAF a=1;\n"},
		{"help", "Subject: help\n{{with $x := .Name}}{{$x}}{{else}}none{{end}} {{printf \"%05.1f\" 3.14159}} {{.Name | printf \"%q\"}}\n",
			mapData("help", 0), "help|Sortie 003.1 \"Sortie\"\n"},
		{"status", "Subject: status\n", mapData("status", 0), "status|\n"},
		{"error", "Subject: {{.Subject}}\n{{range .Problems}}{{.Error}};{{end}}\n",
			map[string]any{"Subject": "e", "Problems": []error{os.ErrNotExist, os.ErrExist}}, "e|file does not exist;file already exists;\n"},
		{"over", "Subject: {{plural 1 \"plane\" \"planes\"}} {{plural 2 \"plane\" \"planes\"}}\n{{feet 12500}} {{feet -999}} {{tenths 65}} {{bearing 3}} [{{pad 4 \"ab\"}}] {{upper \"x\"}} {{join .L \"+\"}} {{sorted .M}}\n{{indent 2 \"a\\n\\nb\\n\"}}\n",
			map[string]any{"L": []string{"a", "b"}, "M": map[string]int{"z": 1, "y": 2}}, "plane planes|12,500 -999 6.5 090 [ab  ] X a+b [y z]\n  a\n\n  b\n"},
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
	}
}

// Renders of one Set from many goroutines, with data of different types through the same template,
// give what one goroutine alone gives. Run with -race.
func TestRenderConcurrent(t *testing.T) {
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
		subject, body, err := s.Render(j.name, j.data)
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
