// Package golden is the test helper behind Sortie's golden tests: it compares what a test produced with
// the expected text kept in a file and, when they differ, says where, as a line diff of the first
// differing lines with their context, so a failing golden test can be read without running diff by hand.
// For images, PNG does the same with pictures: a failing test leaves the image it made and a diff image
// highlighting the pixels that changed.
package golden

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Context is how many unchanged lines the diff shows around each change.
const Context = 3

// MaxLines bounds the diff's length: past it the rest is counted, not shown.
const MaxLines = 80

// maxCells bounds the work of the line matching (want lines times got lines in the part that differs);
// beyond it the differing part is shown as removed and added as a whole.
const maxCells = 4 << 20

// File compares got with the file at path. With update set it writes got to the file first (the tests'
// -update flag). A difference fails the test with a diff of the file against got; fix names the command
// that rewrites the file.
func File(t testing.TB, path string, got []byte, update bool, fix string) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s writes it)", err, fix)
	}
	if d := Diff(string(want), string(got)); d != "" {
		t.Errorf("the output differs from %s (%s rewrites it; review the diff first):\n--- %s\n+++ got\n%s", path, fix, path, d)
	}
}

// Diff is "" when want and got are the same text, and otherwise a line diff of the two: each shown line
// is marked "-" (only in want), "+" (only in got) or " " (in both), followed by its line number (in got
// for "+" lines, in want for the others), with Context unchanged lines around each change and a header "@@ want line N, got line M @@"
// before each group.
func Diff(want, got string) string {
	if want == got {
		return ""
	}
	a, b := lines(want), lines(got)
	ops := match(a, b)
	var out []string
	more := 0
	emit := func(s string) {
		if len(out) < MaxLines {
			out = append(out, s)
		} else {
			more++
		}
	}
	// Walk the edit script, opening a group at Context lines before a change and closing it once more
	// than 2*Context unchanged lines follow.
	for i := 0; i < len(ops); {
		if ops[i].kind == same {
			i++
			continue
		}
		start := max(i-Context, 0)
		for start < i && ops[start].kind != same {
			start++
		}
		end := i
		for end < len(ops) {
			if ops[end].kind != same {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == same {
				run++
			}
			if run == len(ops) || run-end > 2*Context {
				end = min(end+Context, run)
				break
			}
			end = run
		}
		emit(fmt.Sprintf("@@ want line %d, got line %d @@", ops[start].a+1, ops[start].b+1))
		for _, o := range ops[start:end] {
			switch o.kind {
			case same:
				emit(fmt.Sprintf(" %5d  %s", o.a+1, a[o.a]))
			case gone:
				emit(fmt.Sprintf("-%5d  %s", o.a+1, a[o.a]))
			case added:
				emit(fmt.Sprintf("+%5d  %s", o.b+1, b[o.b]))
			}
		}
		i = end
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("… and %d more diff lines", more))
	}
	return strings.Join(out, "\n")
}

// lines splits a text at newlines; a missing final newline shows as a line of its own.
func lines(s string) []string {
	ls := strings.SplitAfter(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		if strings.HasSuffix(l, "\n") {
			ls[i] = strings.TrimSuffix(l, "\n")
		} else {
			ls[i] = l + " (no newline at the end)"
		}
	}
	return ls
}

type kind int

const (
	same kind = iota
	gone
	added
)

// op is one line of the edit script: a and b are its line indexes in want and got (for gone, b is where
// got stands; for added, a is where want stands).
type op struct {
	kind kind
	a, b int
}

// match is the edit script from a to b: the common head and tail, and between them a longest common
// subsequence of lines (or, when that part is too large, all of it removed then added).
func match(a, b []string) []op {
	var ops []op
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		ops = append(ops, op{same, p, p})
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	ma, mb := a[p:len(a)-s], b[p:len(b)-s]
	if len(ma)*len(mb) > maxCells {
		for i := range ma {
			ops = append(ops, op{gone, p + i, p})
		}
		for j := range mb {
			ops = append(ops, op{added, p + len(ma), p + j})
		}
	} else {
		// lcs[i][j] is the length of the longest common subsequence of ma[i:] and mb[j:].
		n, m := len(ma), len(mb)
		lcs := make([][]int, n+1)
		for i := range lcs {
			lcs[i] = make([]int, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if ma[i] == mb[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && ma[i] == mb[j]:
				ops = append(ops, op{same, p + i, p + j})
				i++
				j++
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{gone, p + i, p + j})
				i++
			default:
				ops = append(ops, op{added, p + i, p + j})
				j++
			}
		}
	}
	for k := s; k > 0; k-- {
		ops = append(ops, op{same, len(a) - k, len(b) - k})
	}
	return ops
}
