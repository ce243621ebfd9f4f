package templates

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"text/template"
)

// The fuzz target builds template text from a small grammar of what the compiled form handles and of
// what it leaves to text/template, and data of many shapes, both from the fuzzer's bytes; whenever the
// compiled form finishes a render, text/template must give the same bytes (and must not have failed).
// A render the compiled form hands back is text/template's, so needs no check.

type fzInner struct {
	Name string
	N    int
	On   bool
	List []string
}

type namedStr string

type fzData struct {
	S, T  string
	N     int
	U     uint8
	F     float64
	B     bool
	L, E  []string
	M     map[string]int
	MA    map[string]any
	P     *fzInner
	I     fzInner
	Items []fzInner
	Any   any
	St    stringer
	Err   error
	Bytes []byte
	Named namedStr
	Fn    func(int) string
	fzInner
}

func (d fzData) Method() string     { return "method:" + d.S }
func (d *fzData) PtrMethod() string { return "ptr:" + d.S }

// choices reads the fuzzer's bytes as a stream of choices; when they run out every choice is 0.
type choices struct{ b []byte }

func (c *choices) n(k int) int {
	if len(c.b) == 0 {
		return 0
	}
	v := int(c.b[0]) % k
	c.b = c.b[1:]
	return v
}

func oneOf[T any](c *choices, xs ...T) T { return xs[c.n(len(xs))] }

// gen writes a template.
type gen struct {
	c       *choices
	sb      strings.Builder
	vars    []string
	nvar    int
	inRange int
	inBody  bool // inside a define: no template calls (no recursion)
}

func (g *gen) w(s ...string) {
	for _, x := range s {
		g.sb.WriteString(x)
	}
}

func (g *gen) open() string  { return oneOf(g.c, "{{", "{{- ", "{{") }
func (g *gen) close() string { return oneOf(g.c, "}}", " -}}", "}}") }

func (g *gen) list(depth int) {
	for range g.c.n(4) + 1 {
		g.item(depth)
	}
}

func (g *gen) item(depth int) {
	k := g.c.n(14)
	if depth >= 3 && k >= 2 {
		k = k % 2
	}
	switch k {
	case 0:
		g.w(oneOf(g.c, "x", " ", "\n", "a b  ", "\t\n", "é", "%v"))
	case 1:
		g.w(g.open(), g.pipeline(depth), g.close())
	case 2, 3:
		mark := len(g.vars)
		g.w(g.open(), "if ", g.declared(depth), g.close())
		g.list(depth + 1)
		for range g.c.n(3) {
			g.w("{{else if ", g.pipeline(depth), "}}")
			g.list(depth + 1)
		}
		if g.c.n(2) == 1 {
			g.w("{{else}}")
			g.list(depth + 1)
		}
		g.w(g.open(), "end", g.close())
		g.vars = g.vars[:mark]
	case 4, 5:
		mark := len(g.vars)
		g.w(g.open(), "range ")
		switch g.c.n(4) {
		case 1:
			g.w(g.newVar(), " := ")
		case 2:
			g.w(g.newVar(), ", ", g.newVar(), " := ")
		case 3:
			if len(g.vars) > 0 {
				g.w(oneOf(g.c, g.vars...), " = ")
			}
		}
		g.w(g.rangeable(depth), g.close())
		g.inRange++
		g.list(depth + 1)
		if g.c.n(2) == 1 {
			g.w("{{else}}")
			g.list(depth + 1)
		}
		g.inRange--
		g.w("{{end}}")
		g.vars = g.vars[:mark]
	case 6:
		mark := len(g.vars)
		g.w("{{with ", g.declared(depth), "}}")
		g.list(depth + 1)
		switch g.c.n(3) {
		case 1:
			g.w("{{else with ", g.pipeline(depth), "}}")
			g.list(depth + 1)
		case 2:
			g.w("{{else}}")
			g.list(depth + 1)
		}
		g.w("{{end}}")
		g.vars = g.vars[:mark]
	case 7:
		p := g.pipeline(depth)
		g.w("{{", g.newVar(), " := ", p, "}}")
	case 8:
		if len(g.vars) > 0 {
			g.w("{{", oneOf(g.c, g.vars...), " = ", g.pipeline(depth), "}}")
		}
	case 9:
		if g.inRange > 0 {
			g.w(oneOf(g.c, "{{break}}", "{{continue}}"))
		}
	case 10:
		g.w("{{/* a comment */}}")
	case 11:
		if !g.inBody {
			g.w("{{template \"t1\" ", g.pipeline(depth), "}}")
		}
	case 12, 13:
		g.w(g.open(), g.pipeline(depth), g.close())
	}
}

func (g *gen) newVar() string {
	g.nvar++
	v := fmt.Sprintf("$v%d", g.nvar)
	g.vars = append(g.vars, v)
	return v
}

// declared is a pipeline, perhaps declaring a variable (as if and with may).
func (g *gen) declared(depth int) string {
	p := g.pipeline(depth)
	if g.c.n(4) == 1 {
		return g.newVar() + " := " + p
	}
	return p
}

func (g *gen) rangeable(depth int) string {
	switch g.c.n(4) {
	case 0:
		return oneOf(g.c, ".L", ".E", ".Items", ".M", ".MA", ".N", ".I.List", ".P.List", ".Any", ".Bytes", "3", ".Fn", ".F", ".S")
	case 1:
		return "(sorted .M)"
	}
	return g.pipeline(depth)
}

func (g *gen) operand(depth int) string {
	switch g.c.n(10) {
	case 0:
		return oneOf(g.c, ".S", ".N", ".L", ".I.Name", ".P.Name", ".M", ".MA.k", ".MA.s", ".Any", ".", ".T", ".B", ".U", ".F")
	case 1:
		return oneOf(g.c, "$", "$.S", "$.N", "$.Items", "$.MA", ".I", ".P", ".P.N", ".I.On", ".Name", ".List")
	case 2:
		if len(g.vars) > 0 {
			return oneOf(g.c, g.vars...) + oneOf(g.c, "", "", ".Name", ".k", ".S")
		}
		return ".S"
	case 3:
		return oneOf(g.c, `"a"`, `""`, `"100%"`, `"x y"`, "`raw`")
	case 4:
		return oneOf(g.c, "0", "1", "2", "-1", "3", "2.5", "1e3", `'\x02'`, "0x10", "1i", "0", "1", "2", "-1", "3", "1", "2", "18446744073709551615")
	case 5:
		return oneOf(g.c, "true", "false", "true", "false", "nil")
	case 6:
		return oneOf(g.c, ".Items", ".St", ".Err", ".Bytes", ".Named", ".E", ".Method", ".PtrMethod", ".MA.missing", ".Any.Name", ".Nope", ".fzInner.N")
	case 7:
		if depth < 3 {
			return "(" + g.pipeline(depth+1) + ")"
		}
		return ".S"
	case 8:
		if depth < 3 {
			return "(" + g.pipeline(depth+1) + ")" + oneOf(g.c, ".Name", ".k", ".N")
		}
		return ".N"
	}
	return oneOf(g.c, ".S", ".N", ".L", ".Any")
}

func (g *gen) pipeline(depth int) string {
	p := g.command(depth)
	for range g.c.n(3) {
		p += " | " + g.piped(depth)
	}
	return p
}

func (g *gen) command(depth int) string {
	a := func() string { return g.operand(depth) }
	// Constructs the compiled form does not compile at all (slice, call, a wrong count of arguments)
	// are rare, so that most templates are compiled and their values exercised.
	switch k := g.c.n(90); {
	case k < 10 || k >= 28 && k < 87:
		if op := a(); op != "nil" || g.c.n(8) == 0 { // nil is not a command
			return op
		}
		return ".N"
	case k < 14:
		return oneOf(g.c, "len ", "not ", "print ", "println ", "html ", "js ", "urlquery ", "upper ", "feet ", "tenths ", "bearing ", "sorted ") + a()
	case k < 18:
		return oneOf(g.c, "eq ", "ne ", "lt ", "le ", "gt ", "ge ", "and ", "or ", "index ", "print ", "join ", "pad ", "indent ") + a() + " " + a()
	case k < 20:
		return oneOf(g.c, "eq ", "and ", "or ", "index ", "printf ", "plural ", "print ") + a() + " " + a() + " " + a()
	case k < 22:
		return "printf " + oneOf(g.c, `"%v"`, `"%d|%s"`, `"%q"`, `"%5.1f"`, `"%x"`) + " " + a()
	case k < 25:
		return oneOf(g.c, "pad 6 ", "indent 2 ", "join .L ", "upper ", "plural .N \"one\" ") + a()
	case k == 87:
		return oneOf(g.c, "slice ", "call ") + a() + oneOf(g.c, "", " 1", " 1 2")
	case k == 88:
		return oneOf(g.c, "and", "or", "len", "eq")
	case k == 89:
		return oneOf(g.c, ".Fn 1", ".S 1", "$ 1", "true 1")
	}
	return a()
}

// piped is a command after a |, given the value before it as its last argument.
func (g *gen) piped(depth int) string {
	a := func() string { return g.operand(depth) }
	switch k := g.c.n(40); {
	case k < 5 || k >= 11 && k < 39:
		return oneOf(g.c, "len", "not", "print", "upper", "html", "urlquery", "println", "and", "or", "index", "sorted", "feet")
	case k < 9:
		return oneOf(g.c, "printf \"%v\"", "eq ", "ne ", "lt ", "and ", "or ", "print ", "index ", "join ", "pad ") + a()
	case k < 11:
		return oneOf(g.c, "printf \"%s-%v\" ", "plural ", "eq ") + a() + " " + a()
	}
	return oneOf(g.c, ".S", "$", "\"s\"", "1")
}

// template is the text of a template, a define of "t1" first when the choices say so.
func (c *choices) template() string {
	g := &gen{c: c}
	if c.n(3) == 1 {
		g.inBody = true
		g.w("{{define \"t1\"}}")
		g.list(1)
		g.w("{{end}}")
		g.inBody = false
	}
	g.list(0)
	return g.sb.String()
}

func (c *choices) data() any {
	strs := []string{"", "a", "Hello, world", "100%", " spaced  \t", "line\nbreak", "ünï", "\xff", "b"}
	ints := []int{0, 1, 2, -3, 7, 12}
	lists := [][]string{nil, {}, {"a"}, {"b", "a", "c"}}
	inner := func() fzInner {
		return fzInner{Name: oneOf(c, strs...), N: oneOf(c, ints...), On: c.n(2) == 1, List: oneOf(c, lists...)}
	}
	d := fzData{S: oneOf(c, strs...), T: oneOf(c, strs...), N: oneOf(c, ints...), U: uint8(c.n(256)), F: oneOf(c, 0, 2.5, -1e21, 3),
		B: c.n(2) == 1, L: oneOf(c, lists...), E: oneOf(c, lists...), I: inner(), St: stringer(oneOf(c, strs...)),
		Named: namedStr(oneOf(c, strs...)), fzInner: inner()}
	switch c.n(3) {
	case 1:
		d.M = map[string]int{}
	case 2:
		d.M = map[string]int{"b": 2, "a": 1, "c": -1}
	}
	switch c.n(3) {
	case 1:
		d.MA = map[string]any{}
	case 2:
		d.MA = map[string]any{"k": oneOf[any](c, "v", 3, nil, []string{"x"}, inner(), map[string]any{"Name": "n"}), "s": "str"}
	}
	if c.n(2) == 1 {
		p := inner()
		d.P = &p
	}
	for range c.n(4) {
		d.Items = append(d.Items, inner())
	}
	d.Any = oneOf[any](c, nil, "s", 3, []string{"x", "y"}, inner(), stringer("q"), errors.New("boom"), &fzInner{Name: "pointed"},
		map[string]int{"z": 1}, 2.5, true, []any{1, "a", nil}, namedStr("named"), uint(5), []byte("by"), (*fzInner)(nil))
	if c.n(2) == 1 {
		d.Err = errors.New("an error")
	}
	if c.n(2) == 1 {
		d.Bytes = []byte("hi")
	}
	if c.n(2) == 1 {
		d.Fn = func(i int) string { return fmt.Sprint("fn", i) }
	}
	switch c.n(4) {
	case 1:
		return &d
	case 2:
		return map[string]any{"S": d.S, "N": d.N, "L": d.L, "M": d.M, "MA": d.MA, "Any": d.Any, "Items": d.Items, "P": d.P, "I": d.I}
	}
	return d
}

// checkTemplate renders text with data through both paths; finished says the compiled form finished.
func checkTemplate(t *testing.T, text string, data any) (finished bool) {
	t.Helper()
	tt, err := template.New("fz").Funcs(funcs).Option("missingkey=error").Parse(text)
	if err != nil {
		return false
	}
	var want bytes.Buffer
	var wantErr error
	panicked := func() (p bool) {
		defer func() {
			if recover() != nil {
				p = true // text/template panics on a continue outside a range's iteration; Render does too
			}
		}()
		wantErr = tt.Execute(&want, data)
		return false
	}()
	if panicked {
		return false
	}
	p, err := compile(tt, funcs)
	if err != nil {
		return false
	}
	var got bytes.Buffer
	if err := p.execute(&got, data); err != nil {
		if err != errFallback {
			t.Fatalf("compiled render answered %v, not errFallback\ntemplate: %s", err, text)
		}
		return false
	}
	if wantErr != nil {
		t.Fatalf("the compiled form finished a render text/template fails: %v\ntemplate: %s\ndata: %#v\ncompiled: %q", wantErr, text, data, got.String())
	}
	if got.String() != want.String() {
		t.Fatalf("outputs differ\ntemplate: %s\ndata: %#v\ncompiled:      %q\ntext/template: %q", text, data, got.String(), want.String())
	}
	return true
}

func FuzzCompiledMatchesTextTemplate(f *testing.F) {
	f.Add([]byte("\x01\x00\x05\x02"), []byte{1, 2, 3})
	f.Add([]byte("\x04\x02\x00\x01\x01\x03\x00\x02"), []byte{0, 0, 2, 2, 1})
	f.Add([]byte("\x00\x02\x02\x00\x04\x03\x01\x05\x07\x00\x01\x03"), []byte{3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2})
	f.Add([]byte("\x01\x07\x0b\x03\x00\x09\x04\x02\x03\x06\x01\x01\x01"), []byte{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1})
	f.Fuzz(func(t *testing.T, shape, values []byte) {
		c := &choices{shape}
		text := c.template()
		checkTemplate(t, text, (&choices{values}).data())
	})
}

// TestRandomTemplates runs the fuzz target's grammar over many random templates and data, and checks
// that the grammar keeps the compiled form busy: the test is worth little if it hands most renders back.
func TestRandomTemplates(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 4000
	if testing.Short() {
		n = 500
	}
	parsed, finished := 0, 0
	for range n {
		shape := make([]byte, 8+r.IntN(120))
		values := make([]byte, 40)
		for i := range shape {
			shape[i] = byte(r.UintN(256))
		}
		for i := range values {
			values[i] = byte(r.UintN(256))
		}
		text := (&choices{shape}).template()
		if _, err := template.New("fz").Funcs(funcs).Parse(text); err == nil {
			parsed++
		}
		if checkTemplate(t, text, (&choices{values}).data()) {
			finished++
		}
	}
	t.Logf("%d templates, %d parsed, %d rendered by the compiled form", n, parsed, finished)
	if finished < n/4 {
		t.Errorf("only %d of %d renders finished by the compiled form", finished, n)
	}
}
