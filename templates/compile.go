package templates

// Compiled templates. text/template walks a template's parse tree on every execution, looks every field
// up by name and prints every value through fmt; a receipt, rendered for every order mail, spent most of
// its time there. compile turns a parsed template's tree (text/template/parse, the public API) into a
// tree of Go closures once, when the template is read: fields are resolved to indices once per concrete
// type (exec.go), functions are found once, constants are made once, and strings and integers are
// written straight into the buffer.
//
// The compiled form is an optimisation, never a dialect. A construct it does not compile (a method call
// on the data, the call and slice builtins, a wrong argument count) leaves the template to text/template
// for every render; a value it does not handle when it runs (a missing map key, a nil pointer, a method
// of the name on the data's type, a function that fails or panics, a map whose keys it does not order)
// stops the compiled render with errFallback, and text/template renders it again from the start, giving
// its own output or error. Render therefore always answers what text/template answers.

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"text/template"
	"text/template/parse"
	"unsafe"
)

// op runs one node of a template with dot.
type op func(s *state, dot reflect.Value) error

// expr evaluates to a value.
type expr func(s *state, dot reflect.Value) (reflect.Value, error)

// cmdFn evaluates one command of a pipeline; final is the value of the commands before it, if any.
type cmdFn func(s *state, dot, final reflect.Value) (reflect.Value, error)

// program is one compiled template.
type program struct {
	root op
}

// execute renders the program with data into buf, as template.Execute would, or answers errFallback.
func (p *program) execute(buf *bytes.Buffer, data any) (err error) {
	s := states.Get().(*state)
	defer func() {
		if r := recover(); r != nil {
			// A function of the template that panicked (an error in text/template), or a value
			// this code did not expect: text/template decides.
			err = errFallback
		}
		clear(s.vars[:cap(s.vars)])
		clear(s.args[:cap(s.args)])
		s.vars, s.args, s.buf = s.vars[:0], s.args[:0], nil
		states.Put(s)
	}()
	value, ok := data.(reflect.Value)
	if !ok {
		value = reflect.ValueOf(data)
	}
	s.buf, s.base, s.depth = buf, 0, 0
	s.vars = append(s.vars[:0], variable{"$", value})
	s.args = s.args[:0]
	if err := p.root(s, value); err != nil {
		return errFallback // break and continue outside a range are text/template's to report too
	}
	return nil
}

// compiler compiles the templates associated with one *template.Template.
type compiler struct {
	funcs map[string]reflect.Value // the template's own functions (funcs), which come before the builtins
	progs map[string]*program      // every associated template that compiled, for {{template}}
}

func unsupported(format string, args ...any) error {
	return fmt.Errorf("not compiled: "+format, args...)
}

// compile compiles t and the templates associated with it ({{define}}). It answers an error naming what
// it did not compile when t itself cannot be; an associated template that cannot be is left to
// text/template when it is called. t must have been parsed with Option("missingkey=error"), as every
// template of a Set is.
func compile(t *template.Template, fm template.FuncMap) (*program, error) {
	c := &compiler{funcs: map[string]reflect.Value{}, progs: map[string]*program{}}
	for name, fn := range fm {
		c.funcs[name] = reflect.ValueOf(fn)
	}
	if t.Tree == nil || t.Root == nil {
		return nil, unsupported("%s is empty", t.Name())
	}
	root, err := c.list(t.Root)
	if err != nil {
		return nil, err
	}
	c.progs[t.Name()] = &program{root: root}
	for _, a := range t.Templates() {
		if a.Name() == t.Name() || a.Tree == nil || a.Root == nil {
			continue
		}
		if r, err := c.list(a.Root); err == nil {
			c.progs[a.Name()] = &program{root: r}
		}
	}
	return c.progs[t.Name()], nil
}

func noop(*state, reflect.Value) error { return nil }

func (c *compiler) list(l *parse.ListNode) (op, error) {
	var ops []op
	for _, n := range l.Nodes {
		o, err := c.node(n)
		if err != nil {
			return nil, err
		}
		if o != nil {
			ops = append(ops, o)
		}
	}
	switch len(ops) {
	case 0:
		return noop, nil
	case 1:
		return ops[0], nil
	}
	return func(s *state, dot reflect.Value) error {
		for _, o := range ops {
			if err := o(s, dot); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

func (c *compiler) node(n parse.Node) (op, error) {
	switch n := n.(type) {
	case *parse.TextNode:
		text := n.Text
		return func(s *state, _ reflect.Value) error {
			s.buf.Write(text)
			return nil
		}, nil
	case *parse.CommentNode:
		return nil, nil
	case *parse.ActionNode:
		return c.action(n)
	case *parse.IfNode:
		return c.ifOrWith(&n.BranchNode, false)
	case *parse.WithNode:
		return c.ifOrWith(&n.BranchNode, true)
	case *parse.RangeNode:
		return c.rangeNode(n)
	case *parse.TemplateNode:
		return c.templateNode(n)
	case *parse.BreakNode:
		return func(*state, reflect.Value) error { return errBreak }, nil
	case *parse.ContinueNode:
		return func(*state, reflect.Value) error { return errContinue }, nil
	case *parse.ListNode:
		return c.list(n)
	}
	return nil, unsupported("node %s", n)
}

// action prints its pipeline's value, unless the pipeline declares variables.
func (c *compiler) action(n *parse.ActionNode) (op, error) {
	// The commonest actions, dot, a field, or a string function of fields, print without a detour.
	if len(n.Pipe.Decl) == 0 && len(n.Pipe.Cmds) == 1 {
		cmd := n.Pipe.Cmds[0]
		if o := c.printString(cmd); o != nil {
			return o, nil
		}
		if len(cmd.Args) == 1 {
			switch a := cmd.Args[0].(type) {
			case *parse.DotNode:
				return func(s *state, dot reflect.Value) error { return s.print(unwrapEmpty(dot)) }, nil
			case *parse.FieldNode:
				fields := c.fields(a.Ident)
				return func(s *state, dot reflect.Value) error {
					v := dot
					for _, f := range fields {
						var err error
						if v, err = f.eval(v); err != nil {
							return err
						}
					}
					return s.print(unwrapEmpty(v))
				}, nil
			}
		}
	}
	pipe, err := c.pipeline(n.Pipe)
	if err != nil {
		return nil, err
	}
	if len(n.Pipe.Decl) > 0 {
		return func(s *state, dot reflect.Value) error {
			_, err := pipe(s, dot)
			return err
		}, nil
	}
	return func(s *state, dot reflect.Value) error {
		v, err := pipe(s, dot)
		if err != nil {
			return err
		}
		return s.print(v)
	}, nil
}

// branch compiles what if, with and range share: the pipeline, the list, and the else list if any.
func (c *compiler) branch(p *parse.PipeNode, l, el *parse.ListNode) (pipe expr, list, elseList op, err error) {
	if pipe, err = c.pipeline(p); err != nil {
		return nil, nil, nil, err
	}
	if list, err = c.list(l); err != nil {
		return nil, nil, nil, err
	}
	if el != nil {
		if elseList, err = c.list(el); err != nil {
			return nil, nil, nil, err
		}
	}
	return pipe, list, elseList, nil
}

func (c *compiler) ifOrWith(b *parse.BranchNode, with bool) (op, error) {
	pipe, list, elseList, err := c.branch(b.Pipe, b.List, b.ElseList)
	if err != nil {
		return nil, err
	}
	return func(s *state, dot reflect.Value) error {
		mark := len(s.vars)
		v, err := pipe(s, dot)
		if err == nil {
			t, ok := isTrue(indirectInterface(v))
			switch {
			case !ok:
				err = errFallback // if/with can't use the value
			case t && with:
				err = list(s, v)
			case t:
				err = list(s, dot)
			case elseList != nil:
				err = elseList(s, dot)
			}
		}
		s.vars = s.vars[:mark]
		return err
	}, nil
}

func (c *compiler) rangeNode(r *parse.RangeNode) (op, error) {
	pipe, list, elseList, err := c.branch(r.Pipe, r.List, r.ElseList)
	if err != nil {
		return nil, err
	}
	ro := &rangeOp{pipe: pipe, list: list, elseList: elseList, nDecl: len(r.Pipe.Decl), assign: r.Pipe.IsAssign}
	if ro.nDecl > 0 {
		ro.decl0 = r.Pipe.Decl[0].Ident[0]
	}
	if ro.nDecl > 1 {
		ro.decl1 = r.Pipe.Decl[1].Ident[0]
	}
	return func(s *state, dot reflect.Value) error {
		mark := len(s.vars)
		err := ro.run(s, dot)
		s.vars = s.vars[:mark]
		if err == errBreak {
			return nil
		}
		return err
	}, nil
}

type rangeOp struct {
	pipe           expr
	list, elseList op
	nDecl          int
	assign         bool
	decl0, decl1   string
}

func (r *rangeOp) run(s *state, dot reflect.Value) error {
	v, err := r.pipe(s, dot)
	if err != nil {
		return err
	}
	val, _ := indirect(v)
	mark := len(s.vars)
	switch val.Kind() {
	case reflect.Array, reflect.Slice:
		if val.Len() == 0 {
			break
		}
		for i := 0; i < val.Len(); i++ {
			var index reflect.Value
			if r.nDecl > 1 {
				index = reflect.ValueOf(i)
			}
			if err := r.one(s, mark, index, val.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if val.Len() == 0 {
			break
		}
		keys, vals, ok := rangeMap(val)
		if !ok {
			return errFallback
		}
		for i := range keys {
			if err := r.one(s, mark, keys[i], vals[i]); err != nil {
				return err
			}
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if r.nDecl > 1 {
			return errFallback // can't iterate over more than one variable
		}
		if ran, err := r.count(s, mark, val); ran || err != nil {
			return err
		}
	case reflect.Invalid:
		// A nil map and the like: nothing to range over.
	default:
		return errFallback // channels and iterator functions are left to text/template, as are errors
	}
	if r.elseList != nil {
		return r.elseList(s, dot)
	}
	return nil
}

// count ranges over an integer (kept apart from run: iterating with Seq moves run's values to the heap).
func (r *rangeOp) count(s *state, mark int, val reflect.Value) (ran bool, err error) {
	for e := range val.Seq() {
		ran = true
		if err := r.one(s, mark, reflect.Value{}, e); err != nil {
			return true, err
		}
	}
	return ran, nil
}

// one is one iteration: the range's variables set, the body run, the variables it declared dropped.
func (r *rangeOp) one(s *state, mark int, index, elem reflect.Value) error {
	if r.nDecl > 0 {
		var err error
		switch {
		case r.assign && r.nDecl > 1:
			err = s.setVar(r.decl0, index)
		case r.assign:
			err = s.setVar(r.decl0, elem)
		default:
			s.vars[len(s.vars)-1].value = elem
		}
		if err != nil {
			return err
		}
	}
	if r.nDecl > 1 {
		if r.assign {
			if err := s.setVar(r.decl1, elem); err != nil {
				return err
			}
		} else {
			s.vars[len(s.vars)-2].value = index
		}
	}
	err := r.list(s, elem)
	s.vars = s.vars[:mark]
	if err == errContinue {
		return nil
	}
	return err
}

func (c *compiler) templateNode(n *parse.TemplateNode) (op, error) {
	pipe, err := c.pipeline(n.Pipe)
	if err != nil {
		return nil, err
	}
	name, progs := n.Name, c.progs // progs is complete before any render
	return func(s *state, dot reflect.Value) error {
		p := progs[name]
		if p == nil || s.depth >= maxDepth {
			return errFallback
		}
		v, err := pipe(s, dot) // variables it declares persist in the caller
		if err != nil {
			return err
		}
		base, mark := s.base, len(s.vars)
		s.base = mark
		s.push("$", v)
		s.depth++
		err = p.root(s, v)
		s.depth--
		s.vars, s.base = s.vars[:mark], base
		return err
	}, nil
}

// pipeline evaluates the commands in turn, each given the value of the one before, and declares or
// assigns its variables.
func (c *compiler) pipeline(p *parse.PipeNode) (expr, error) {
	if p == nil {
		return func(*state, reflect.Value) (reflect.Value, error) { return reflect.Value{}, nil }, nil
	}
	if len(p.Cmds) == 0 {
		return nil, unsupported("empty pipeline")
	}
	cmds := make([]cmdFn, len(p.Cmds))
	for i, cmd := range p.Cmds {
		var err error
		if cmds[i], err = c.command(cmd, i > 0); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(p.Decl))
	for i, d := range p.Decl {
		names[i] = d.Ident[0]
	}
	assign := p.IsAssign
	if len(cmds) == 1 && len(names) == 0 {
		cmd := cmds[0]
		return func(s *state, dot reflect.Value) (reflect.Value, error) {
			v, err := cmd(s, dot, reflect.Value{})
			if err != nil {
				return v, err
			}
			return unwrapEmpty(v), nil
		}, nil
	}
	return func(s *state, dot reflect.Value) (reflect.Value, error) {
		var v reflect.Value
		for _, cmd := range cmds {
			var err error
			if v, err = cmd(s, dot, v); err != nil {
				return v, err
			}
			v = unwrapEmpty(v)
		}
		for _, name := range names {
			if assign {
				if err := s.setVar(name, v); err != nil {
					return v, err
				}
			} else {
				s.push(name, v)
			}
		}
		return v, nil
	}, nil
}

// notAFunction: a command that is not a function or method takes no arguments, from the command or
// from the pipeline.
func notAFunction(args []parse.Node, hasFinal bool) error {
	if len(args) > 1 || hasFinal {
		return unsupported("arguments to non-function %s", args[0])
	}
	return nil
}

func (c *compiler) command(cmd *parse.CommandNode, hasFinal bool) (cmdFn, error) {
	switch n := cmd.Args[0].(type) {
	case *parse.FieldNode:
		return c.fieldChain(nil, n.Ident, cmd.Args, hasFinal)
	case *parse.ChainNode:
		if n.Node.Type() == parse.NodeNil {
			return nil, unsupported("indirection through nil")
		}
		recv, err := c.arg(n.Node, nil)
		if err != nil {
			return nil, err
		}
		return c.fieldChain(recv, n.Field, cmd.Args, hasFinal)
	case *parse.IdentifierNode:
		return c.function(n.Ident, cmd.Args, hasFinal)
	case *parse.PipeNode:
		if err := notAFunction(cmd.Args, hasFinal); err != nil {
			return nil, err
		}
		p, err := c.pipeline(n)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot, _ reflect.Value) (reflect.Value, error) { return p(s, dot) }, nil
	case *parse.VariableNode:
		name := n.Ident[0]
		varExpr := func(s *state, _ reflect.Value) (reflect.Value, error) { return s.varValue(name) }
		if len(n.Ident) == 1 {
			if err := notAFunction(cmd.Args, hasFinal); err != nil {
				return nil, err
			}
			return func(s *state, dot, _ reflect.Value) (reflect.Value, error) { return s.varValue(name) }, nil
		}
		return c.fieldChain(varExpr, n.Ident[1:], cmd.Args, hasFinal)
	}
	if err := notAFunction(cmd.Args, hasFinal); err != nil {
		return nil, err
	}
	switch n := cmd.Args[0].(type) {
	case *parse.DotNode:
		return func(_ *state, dot, _ reflect.Value) (reflect.Value, error) { return dot, nil }, nil
	case *parse.BoolNode, *parse.NumberNode, *parse.StringNode:
		v, err := emptyInterfaceConst(n)
		if err != nil {
			return nil, err
		}
		return func(*state, reflect.Value, reflect.Value) (reflect.Value, error) { return v, nil }, nil
	}
	return nil, unsupported("command %s", cmd)
}

// fieldChain evaluates .X.Y.Z from recv (dot when recv is nil). A chain given arguments must end in a
// method, which the compiled form does not call.
func (c *compiler) fieldChain(recv expr, idents []string, args []parse.Node, hasFinal bool) (cmdFn, error) {
	if len(args) > 1 || hasFinal {
		return nil, unsupported("method call .%s", strings.Join(idents, "."))
	}
	fields := c.fields(idents)
	if recv == nil && len(fields) == 1 {
		f := fields[0]
		return func(_ *state, dot, _ reflect.Value) (reflect.Value, error) { return f.eval(dot) }, nil
	}
	return func(s *state, dot, _ reflect.Value) (reflect.Value, error) {
		v := dot
		if recv != nil {
			var err error
			if v, err = recv(s, dot); err != nil {
				return v, err
			}
		}
		for _, f := range fields {
			var err error
			if v, err = f.eval(v); err != nil {
				return v, err
			}
		}
		return v, nil
	}, nil
}

func (c *compiler) fields(idents []string) []*field {
	fields := make([]*field, len(idents))
	for i, name := range idents {
		fields[i] = &field{name: name, nameVal: reflect.ValueOf(name)}
	}
	return fields
}

// unwrapEmpty is what a pipeline does to its value: one that is an interface{} holding something is
// the thing it holds.
func unwrapEmpty(v reflect.Value) reflect.Value {
	if v.Kind() == reflect.Interface && v.Type().NumMethod() == 0 {
		return v.Elem()
	}
	return v
}

// idealConstant is a number whose type is not known from context, typed by its syntax as text/template
// does.
func idealConstant(n *parse.NumberNode) (reflect.Value, error) {
	switch {
	case n.IsComplex:
		return reflect.ValueOf(n.Complex128), nil
	case n.IsFloat && !isHexInt(n.Text) && !isRuneInt(n.Text) && strings.ContainsAny(n.Text, ".eEpP"):
		return reflect.ValueOf(n.Float64), nil
	case n.IsInt:
		i := int(n.Int64)
		if int64(i) != n.Int64 {
			return reflect.Value{}, unsupported("%s overflows int", n.Text)
		}
		return reflect.ValueOf(i), nil
	case n.IsUint:
		return reflect.Value{}, unsupported("%s overflows int", n.Text)
	}
	return reflect.Value{}, nil
}

func isRuneInt(s string) bool { return len(s) > 0 && s[0] == '\'' }

func isHexInt(s string) bool {
	return len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !strings.ContainsAny(s, "pP")
}

// emptyInterfaceConst is a literal's value where any type would do.
func emptyInterfaceConst(n parse.Node) (reflect.Value, error) {
	switch n := n.(type) {
	case *parse.BoolNode:
		return reflect.ValueOf(n.True), nil
	case *parse.NumberNode:
		return idealConstant(n)
	case *parse.StringNode:
		return reflect.ValueOf(n.Text), nil
	}
	return reflect.Value{}, unsupported("literal %s", n)
}

func constExpr(v reflect.Value) expr {
	return func(*state, reflect.Value) (reflect.Value, error) { return v, nil }
}

// value evaluates a node that is not a literal as an argument would be, before its type is checked;
// nil for a literal.
func (c *compiler) value(n parse.Node) (expr, error) {
	switch n := n.(type) {
	case *parse.DotNode:
		return func(_ *state, dot reflect.Value) (reflect.Value, error) { return dot, nil }, nil
	case *parse.FieldNode:
		f, err := c.fieldChain(nil, n.Ident, []parse.Node{n}, false)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot reflect.Value) (reflect.Value, error) { return f(s, dot, reflect.Value{}) }, nil
	case *parse.VariableNode:
		name := n.Ident[0]
		varExpr := func(s *state, _ reflect.Value) (reflect.Value, error) { return s.varValue(name) }
		if len(n.Ident) == 1 {
			return varExpr, nil
		}
		f, err := c.fieldChain(varExpr, n.Ident[1:], nil, false)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot reflect.Value) (reflect.Value, error) { return f(s, dot, reflect.Value{}) }, nil
	case *parse.PipeNode:
		return c.pipeline(n)
	case *parse.IdentifierNode:
		f, err := c.function(n.Ident, nil, false)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot reflect.Value) (reflect.Value, error) { return f(s, dot, reflect.Value{}) }, nil
	case *parse.ChainNode:
		if n.Node.Type() == parse.NodeNil {
			return nil, unsupported("indirection through nil")
		}
		recv, err := c.arg(n.Node, nil)
		if err != nil {
			return nil, err
		}
		f, err := c.fieldChain(recv, n.Field, nil, false)
		if err != nil {
			return nil, err
		}
		return func(s *state, dot reflect.Value) (reflect.Value, error) { return f(s, dot, reflect.Value{}) }, nil
	}
	return nil, nil
}

// arg is text/template's evalArg: an argument for a parameter of type typ (nil: any value).
func (c *compiler) arg(n parse.Node, typ reflect.Type) (expr, error) {
	if _, ok := n.(*parse.NilNode); ok {
		if typ != nil && canBeNil(typ) {
			return constExpr(reflect.Zero(typ)), nil
		}
		return nil, unsupported("nil for %s", typ)
	}
	e, err := c.value(n)
	if err != nil {
		return nil, err
	}
	if e != nil {
		if typ == nil {
			return e, nil
		}
		return func(s *state, dot reflect.Value) (reflect.Value, error) {
			v, err := e(s, dot)
			if err != nil {
				return v, err
			}
			return validateType(v, typ)
		}, nil
	}
	if typ == nil {
		return nil, unsupported("literal %s", n)
	}
	num, _ := n.(*parse.NumberNode)
	v := reflect.New(typ).Elem()
	switch typ.Kind() {
	case reflect.Bool:
		if b, ok := n.(*parse.BoolNode); ok {
			v.SetBool(b.True)
			return constExpr(v), nil
		}
	case reflect.Complex64, reflect.Complex128:
		if num != nil && num.IsComplex {
			v.SetComplex(num.Complex128)
			return constExpr(v), nil
		}
	case reflect.Float32, reflect.Float64:
		if num != nil && num.IsFloat {
			v.SetFloat(num.Float64)
			return constExpr(v), nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if num != nil && num.IsInt {
			v.SetInt(num.Int64)
			return constExpr(v), nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if num != nil && num.IsUint {
			v.SetUint(num.Uint64)
			return constExpr(v), nil
		}
	case reflect.String:
		if s, ok := n.(*parse.StringNode); ok {
			v.SetString(s.Text)
			return constExpr(v), nil
		}
	case reflect.Interface:
		if typ.NumMethod() == 0 {
			k, err := emptyInterfaceConst(n)
			if err != nil {
				return nil, err
			}
			return constExpr(k), nil
		}
	case reflect.Struct:
		if typ == reflectValueType {
			k, err := emptyInterfaceConst(n)
			if err != nil {
				return nil, err
			}
			return constExpr(reflect.ValueOf(k)), nil
		}
	}
	return nil, unsupported("%s for an argument of type %s", n, typ)
}

// valueArg is an argument for a builtin's reflect.Value parameter, as the builtin receives it.
func (c *compiler) valueArg(n parse.Node) (expr, error) {
	if _, ok := n.(*parse.NilNode); ok {
		return constExpr(reflect.Value{}), nil
	}
	e, err := c.value(n)
	if err != nil {
		return nil, err
	}
	if e == nil {
		k, err := emptyInterfaceConst(n)
		if err != nil {
			return nil, err
		}
		return constExpr(k), nil
	}
	return func(s *state, dot reflect.Value) (reflect.Value, error) {
		v, err := e(s, dot)
		if err != nil {
			return v, err
		}
		return asValueArg(v)
	}, nil
}

// function compiles a call of a named function: the template's own first, then the builtins. args is
// the command's words, the function's name first (nil for a function named as an argument, which is
// called without arguments).
func (c *compiler) function(name string, args []parse.Node, hasFinal bool) (cmdFn, error) {
	if args != nil {
		args = args[1:]
	}
	if fn, ok := c.funcs[name]; ok {
		return c.call(fn, name, args, hasFinal)
	}
	numIn := len(args)
	if hasFinal {
		numIn++
	}
	switch name {
	case "and", "or":
		if numIn < 1 {
			return nil, unsupported("%s without arguments", name)
		}
		return c.andOr(name == "or", args, hasFinal)
	case "not", "len":
		if numIn != 1 {
			return nil, unsupported("%s with %d arguments", name, numIn)
		}
		if name == "len" {
			return c.builtin(args, hasFinal, func(v []reflect.Value) (reflect.Value, error) { return bLen(v[0]) })
		}
		return c.builtin(args, hasFinal, func(v []reflect.Value) (reflect.Value, error) { return bNot(v[0]), nil })
	case "index":
		if numIn < 1 {
			return nil, unsupported("index without arguments")
		}
		return c.builtin(args, hasFinal, func(v []reflect.Value) (reflect.Value, error) { return bIndex(v[0], v[1:]) })
	case "eq":
		if numIn < 1 {
			return nil, unsupported("eq without arguments")
		}
		return c.builtin(args, hasFinal, func(v []reflect.Value) (reflect.Value, error) {
			t, err := bEq(v[0], v[1:])
			return reflect.ValueOf(t), err
		})
	case "ne", "lt", "le", "gt", "ge":
		if numIn != 2 {
			return nil, unsupported("%s with %d arguments", name, numIn)
		}
		return c.builtin(args, hasFinal, func(v []reflect.Value) (reflect.Value, error) {
			t, err := compare(name, v[0], v[1])
			return reflect.ValueOf(t), err
		})
	case "print":
		return c.call(reflect.ValueOf(fmt.Sprint), name, args, hasFinal)
	case "printf":
		return c.call(reflect.ValueOf(fmt.Sprintf), name, args, hasFinal)
	case "println":
		return c.call(reflect.ValueOf(fmt.Sprintln), name, args, hasFinal)
	case "html":
		return c.call(reflect.ValueOf(template.HTMLEscaper), name, args, hasFinal)
	case "js":
		return c.call(reflect.ValueOf(template.JSEscaper), name, args, hasFinal)
	case "urlquery":
		return c.call(reflect.ValueOf(template.URLQueryEscaper), name, args, hasFinal)
	}
	return nil, unsupported("function %s", name)
}

// builtin compiles a call of a builtin whose parameters are reflect.Values.
func (c *compiler) builtin(args []parse.Node, hasFinal bool, f func([]reflect.Value) (reflect.Value, error)) (cmdFn, error) {
	exprs := make([]expr, len(args))
	for i, a := range args {
		var err error
		if exprs[i], err = c.valueArg(a); err != nil {
			return nil, err
		}
	}
	return func(s *state, dot, final reflect.Value) (reflect.Value, error) {
		base := len(s.args)
		defer func() { s.args = s.args[:base] }()
		for _, e := range exprs {
			v, err := e(s, dot)
			if err != nil {
				return v, err
			}
			s.args = append(s.args, v)
		}
		if hasFinal {
			v, err := asValueArg(final)
			if err != nil {
				return v, err
			}
			s.args = append(s.args, v)
		}
		return f(s.args[base:])
	}, nil
}

// andOr: and and or stop at the first argument that decides, and answer it.
func (c *compiler) andOr(or bool, args []parse.Node, hasFinal bool) (cmdFn, error) {
	exprs := make([]expr, len(args))
	for i, a := range args {
		var err error
		if exprs[i], err = c.valueArg(a); err != nil {
			return nil, err
		}
	}
	return func(s *state, dot, final reflect.Value) (reflect.Value, error) {
		var v reflect.Value
		for _, e := range exprs {
			var err error
			if v, err = e(s, dot); err != nil {
				return v, err
			}
			if truth(v) == or {
				return v, nil
			}
		}
		if hasFinal {
			return asValueArg(final)
		}
		return v, nil
	}, nil
}

// callOp is a compiled call of a function value.
type callOp struct {
	fn        reflect.Value
	exprs     []expr
	hasFinal  bool
	finalType reflect.Type
	str       func(a []reflect.Value) (string, bool) // the function called without reflection, or nil
}

// call compiles a call of a function value, as text/template's evalCall does.
func (c *compiler) call(fn reflect.Value, name string, args []parse.Node, hasFinal bool) (cmdFn, error) {
	co, err := c.callOp(fn, name, args, hasFinal)
	if err != nil {
		return nil, err
	}
	return func(s *state, dot, final reflect.Value) (reflect.Value, error) {
		base := len(s.args)
		defer func() { s.args = s.args[:base] }()
		if err := co.args(s, dot, final); err != nil {
			return reflect.Value{}, err
		}
		argv := s.args[base:]
		if co.str != nil {
			if out, ok := co.str(argv); ok {
				return reflect.ValueOf(out), nil
			}
		}
		return co.invoke(argv)
	}, nil
}

func (c *compiler) callOp(fn reflect.Value, name string, args []parse.Node, hasFinal bool) (*callOp, error) {
	typ := fn.Type()
	numIn := len(args)
	if hasFinal {
		numIn++
	}
	numFixed := len(args)
	if typ.IsVariadic() {
		numFixed = typ.NumIn() - 1
		if numIn < numFixed {
			return nil, unsupported("%s with %d arguments", name, numIn)
		}
	} else if numIn != typ.NumIn() {
		return nil, unsupported("%s with %d arguments", name, numIn)
	}
	if n := typ.NumOut(); n != 1 && (n != 2 || typ.Out(1) != errorType) {
		return nil, unsupported("%s's results", name)
	}
	co := &callOp{fn: fn, exprs: make([]expr, len(args)), hasFinal: hasFinal, str: direct(fn)}
	i := 0
	for ; i < numFixed && i < len(args); i++ {
		var err error
		if co.exprs[i], err = c.arg(args[i], typ.In(i)); err != nil {
			return nil, err
		}
	}
	if typ.IsVariadic() {
		elem := typ.In(typ.NumIn() - 1).Elem()
		for ; i < len(args); i++ {
			var err error
			if co.exprs[i], err = c.arg(args[i], elem); err != nil {
				return nil, err
			}
		}
	}
	if hasFinal {
		co.finalType = typ.In(typ.NumIn() - 1)
		if typ.IsVariadic() {
			if numIn-1 < numFixed {
				co.finalType = typ.In(numIn - 1)
			} else {
				co.finalType = co.finalType.Elem()
			}
		}
	}
	return co, nil
}

// args evaluates the call's arguments onto s.args, in text/template's order.
func (co *callOp) args(s *state, dot, final reflect.Value) error {
	for _, e := range co.exprs {
		v, err := e(s, dot)
		if err != nil {
			return err
		}
		s.args = append(s.args, v)
	}
	if co.hasFinal {
		v, err := validateType(final, co.finalType)
		if err != nil {
			return err
		}
		s.args = append(s.args, v)
	}
	return nil
}

// invoke calls the function through reflect.
func (co *callOp) invoke(argv []reflect.Value) (reflect.Value, error) {
	out := co.fn.Call(argv) // a panic here is caught by execute: text/template reports it as an error
	if len(out) == 2 && !out[1].IsNil() {
		return reflect.Value{}, errFallback
	}
	v := out[0]
	if v.Type() == reflectValueType {
		v = v.Interface().(reflect.Value)
	}
	return v, nil
}

// printString compiles an action that prints what one of the template's own functions gives (upper,
// join, pad...), to write the string without making a reflect.Value of it; nil when the action is of
// another shape.
func (c *compiler) printString(cmd *parse.CommandNode) op {
	id, ok := cmd.Args[0].(*parse.IdentifierNode)
	if !ok {
		return nil
	}
	fn, ok := c.funcs[id.Ident]
	if !ok {
		return nil
	}
	co, err := c.callOp(fn, id.Ident, cmd.Args[1:], false)
	if err != nil || co.str == nil {
		return nil
	}
	return func(s *state, dot reflect.Value) error {
		base := len(s.args)
		defer func() { s.args = s.args[:base] }()
		if err := co.args(s, dot, reflect.Value{}); err != nil {
			return err
		}
		argv := s.args[base:]
		if out, ok := co.str(argv); ok {
			s.buf.WriteString(out)
			return nil
		}
		v, err := co.invoke(argv)
		if err != nil {
			return err
		}
		return s.print(unwrapEmpty(v))
	}
}

var stringsType = reflect.TypeFor[[]string]()

// direct calls a function of a few common shapes that give a string without reflection, when the
// arguments are of exactly its parameters' types; ok is false otherwise, and the call goes through
// reflect.
func direct(fn reflect.Value) func(a []reflect.Value) (string, bool) {
	switch f := fn.Interface().(type) {
	case func(string) string:
		return func(a []reflect.Value) (string, bool) {
			if a[0].Type() != stringType {
				return "", false
			}
			return f(a[0].String()), true
		}
	case func(int) string:
		return func(a []reflect.Value) (string, bool) {
			if a[0].Type() != intType {
				return "", false
			}
			return f(int(a[0].Int())), true
		}
	case func(int, string) string:
		return func(a []reflect.Value) (string, bool) {
			if a[0].Type() != intType || a[1].Type() != stringType {
				return "", false
			}
			return f(int(a[0].Int()), a[1].String()), true
		}
	case func(int, string, string) string:
		return func(a []reflect.Value) (string, bool) {
			if a[0].Type() != intType || a[1].Type() != stringType || a[2].Type() != stringType {
				return "", false
			}
			return f(int(a[0].Int()), a[1].String(), a[2].String()), true
		}
	case func([]string, string) string:
		return func(a []reflect.Value) (string, bool) {
			if a[0].Type() != stringsType || a[1].Type() != stringType {
				return "", false
			}
			return f(stringSlice(a[0]), a[1].String()), true
		}
	case func(...any) string:
		return func(a []reflect.Value) (string, bool) {
			return f(anys(a)...), true
		}
	case func(string, ...any) string:
		return func(a []reflect.Value) (string, bool) {
			if a[0].Type() != stringType {
				return "", false
			}
			return f(a[0].String(), anys(a[1:])...), true
		}
	}
	return nil
}

// stringSlice is the []string v holds (v.Type() is []string), without the copy of its header to the
// heap that v.Interface() makes: the same elements, the same length, nil for nil.
func stringSlice(v reflect.Value) []string {
	return unsafe.Slice((*string)(v.UnsafePointer()), v.Len())
}

// anys is what a ...any parameter receives for the values (each of interface type, or nil).
func anys(a []reflect.Value) []any {
	out := make([]any, len(a))
	for i, v := range a {
		if v.IsValid() {
			out[i] = v.Interface()
		}
	}
	return out
}
