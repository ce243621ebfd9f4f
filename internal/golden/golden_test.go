package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func numbered(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if s, ok := change[i]; ok {
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	return b.String()
}

func TestDiffSameIsEmpty(t *testing.T) {
	if d := Diff("a\nb\n", "a\nb\n"); d != "" {
		t.Errorf("equal texts gave a diff:\n%s", d)
	}
}

// A changed line deep in a long text is named by its line number, with its context, and the identical
// lines far from it are not shown.
func TestDiffNamesTheDifferingLine(t *testing.T) {
	want := numbered(200, nil)
	got := numbered(200, map[int]string{120: "line one hundred and twenty\n"})
	d := Diff(want, got)
	for _, s := range []string{
		"@@ want line 117, got line 117 @@",
		"-  120  line 120",
		"+  120  line one hundred and twenty",
		"   119  line 119",
		"   123  line 123",
	} {
		if !strings.Contains(d, s) {
			t.Errorf("the diff lacks %q:\n%s", s, d)
		}
	}
	if strings.Contains(d, "line 116") || strings.Contains(d, "line 124") || strings.Contains(d, "line 1\n") {
		t.Errorf("the diff shows lines far from the change:\n%s", d)
	}
	if i, j := strings.Index(d, "-  120"), strings.Index(d, "+  120"); i > j {
		t.Errorf("the removed line should come before the added one:\n%s", d)
	}
}

// Inserted and removed lines shift the numbering of the two sides apart; each side keeps its own numbers.
func TestDiffInsertionAndRemoval(t *testing.T) {
	want := "a\nb\nc\nd\n"
	got := "a\nc\nd\ne\n"
	d := Diff(want, got)
	for _, s := range []string{"-    2  b", "+    4  e", "     3  c"} {
		if !strings.Contains(d, s) {
			t.Errorf("the diff lacks %q:\n%s", s, d)
		}
	}
	if d := Diff("a\nb\n", "a\nb"); !strings.Contains(d, "+    2  b (no newline at the end)") {
		t.Errorf("a lost final newline should show:\n%s", d)
	}
}

// Two changes far apart are two groups; a long diff is cut at MaxLines and says how much is left.
func TestDiffGroupsAndBound(t *testing.T) {
	d := Diff(numbered(100, nil), numbered(100, map[int]string{10: "x\n", 90: "y\n"}))
	if n := strings.Count(d, "@@ want line"); n != 2 {
		t.Errorf("%d groups, want 2:\n%s", n, d)
	}
	var a, b strings.Builder
	for i := range 500 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	d = Diff(a.String(), b.String())
	if n := strings.Count(d, "\n") + 1; n > MaxLines+1 || !strings.Contains(d, "more diff lines") {
		t.Errorf("an unbounded diff (%d lines):\n%s", n, d[:min(len(d), 400)])
	}
}

// File fails a test whose output differs from the file, and the failure carries the diff; -update writes
// the file.
func TestFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.golden")
	os.WriteFile(path, []byte("one\ntwo\nthree\n"), 0o644)
	rec := &recorder{TB: t}
	File(rec, path, []byte("one\n2\nthree\n"), false, "go test -update")
	if !rec.failed || !strings.Contains(rec.msg, "-    2  two") || !strings.Contains(rec.msg, "+    2  2") || !strings.Contains(rec.msg, path) {
		t.Errorf("failed %v, message:\n%s", rec.failed, rec.msg)
	}
	rec = &recorder{TB: t}
	File(rec, path, []byte("new\n"), true, "go test -update")
	if b, _ := os.ReadFile(path); rec.failed || string(b) != "new\n" {
		t.Errorf("update: failed %v, file %q", rec.failed, b)
	}
}

// recorder is a testing.TB that keeps the failure instead of failing the test that uses it.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, args ...any) {
	r.failed, r.msg = true, r.msg+fmt.Sprintf(f, args...)
}
func (r *recorder) Fatalf(f string, args ...any) { r.Errorf(f, args...) }
func (r *recorder) Fatal(args ...any)            { r.Errorf("%s", fmt.Sprint(args...)) }
