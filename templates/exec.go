package templates

// The run-time half of the compiled templates (compile.go): the state a render carries, how a value is
// printed, what counts as true, how a field is found, and the builtins. Each follows what text/template
// (Go's exec.go and funcs.go) does, line for line where it matters; where text/template would stop with
// an error, or where a value is of a shape this code does not handle, the functions here answer
// errFallback and the render is done again by text/template, which then gives its own output or error.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// errFallback says the compiled form cannot finish this render as text/template would: text/template
// renders it instead.
var errFallback = errors.New("templates: the compiled form does not handle this render")

// errBreak and errContinue carry {{break}} and {{continue}} up to their range.
var (
	errBreak    = errors.New("break")
	errContinue = errors.New("continue")
)

// maxDepth bounds {{template}} calls within a compiled render; deeper, text/template takes over (it
// has its own, much higher, limit and error).
const maxDepth = 1000

type variable struct {
	name  string
	value reflect.Value
}

// state is one render's: the output, the variable stack ($ and those declared), the base of the
// current template call's variables, and the depth of template calls.
type state struct {
	buf   *bytes.Buffer
	vars  []variable
	base  int
	depth int
	args  []reflect.Value // scratch for function arguments, used as a stack
}

var states = sync.Pool{New: func() any { return &state{vars: make([]variable, 0, 16), args: make([]reflect.Value, 0, 16)} }}

func (s *state) push(name string, v reflect.Value) { s.vars = append(s.vars, variable{name, v}) }

// setVar overwrites the last declared variable with the name (an assignment, $x = ...).
func (s *state) setVar(name string, v reflect.Value) error {
	for i := len(s.vars) - 1; i >= s.base; i-- {
		if s.vars[i].name == name {
			s.vars[i].value = v
			return nil
		}
	}
	return errFallback
}

func (s *state) varValue(name string) (reflect.Value, error) {
	for i := len(s.vars) - 1; i >= s.base; i-- {
		if s.vars[i].name == name {
			return s.vars[i].value, nil
		}
	}
	return reflect.Value{}, errFallback
}

var (
	errorType        = reflect.TypeFor[error]()
	fmtStringerType  = reflect.TypeFor[fmt.Stringer]()
	reflectValueType = reflect.TypeFor[reflect.Value]()
	stringType       = reflect.TypeFor[string]()
	intType          = reflect.TypeFor[int]()
	boolType         = reflect.TypeFor[bool]()
)

// print writes a value as text/template's printValue does: fmt.Fprint of the printable value. Values
// of the predeclared string, integer and boolean types (which have no methods, nor have pointers to
// them) are written straight into the buffer: fmt would print them the same, with an allocation.
func (s *state) print(v reflect.Value) error {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == stringType {
			s.buf.WriteString(v.String())
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type().PkgPath() == "" && v.Type().Name() != "" { // int, int8, ..., not a defined type
			s.buf.Write(strconv.AppendInt(s.buf.AvailableBuffer(), v.Int(), 10))
			return nil
		}
	case reflect.Uint, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if v.Type().PkgPath() == "" && v.Type().Name() != "" {
			s.buf.Write(strconv.AppendUint(s.buf.AvailableBuffer(), v.Uint(), 10))
			return nil
		}
	case reflect.Bool:
		if v.Type() == boolType {
			s.buf.WriteString(strconv.FormatBool(v.Bool()))
			return nil
		}
	}
	iface, ok := printableValue(v)
	if !ok {
		return errFallback
	}
	fmt.Fprint(s.buf, iface)
	return nil
}

// printableValue is text/template's: the value, possibly indirected, best given to fmt.
func printableValue(v reflect.Value) (any, bool) {
	if v.Kind() == reflect.Pointer {
		v, _ = indirect(v) // fmt.Fprint handles nil.
	}
	if !v.IsValid() {
		return "<no value>", true
	}
	if !v.Type().Implements(errorType) && !v.Type().Implements(fmtStringerType) {
		if v.CanAddr() && (reflect.PointerTo(v.Type()).Implements(errorType) || reflect.PointerTo(v.Type()).Implements(fmtStringerType)) {
			v = v.Addr()
		} else {
			switch v.Kind() {
			case reflect.Chan, reflect.Func:
				return nil, false
			}
		}
	}
	return v.Interface(), true
}

// isTrue is text/template's truth: not the zero of its type; ok is false for a value with no truth.
func isTrue(val reflect.Value) (truth, ok bool) {
	if !val.IsValid() {
		return false, true
	}
	switch val.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		truth = val.Len() > 0
	case reflect.Bool:
		truth = val.Bool()
	case reflect.Complex64, reflect.Complex128:
		truth = val.Complex() != 0
	case reflect.Chan, reflect.Func, reflect.Pointer, reflect.UnsafePointer, reflect.Interface:
		truth = !val.IsNil()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		truth = val.Int() != 0
	case reflect.Float32, reflect.Float64:
		truth = val.Float() != 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		truth = val.Uint() != 0
	case reflect.Struct:
		truth = true
	default:
		return
	}
	return truth, true
}

func truth(v reflect.Value) bool {
	t, _ := isTrue(indirectInterface(v))
	return t
}

// indirect goes through pointers and interfaces to the value at the end; isNil when it stopped at a nil.
func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}

// indirectInterface is the concrete value in an interface value (invalid for a nil one), or v.
func indirectInterface(v reflect.Value) reflect.Value {
	if v.Kind() != reflect.Interface {
		return v
	}
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

func canBeNil(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
		return true
	case reflect.Struct:
		return typ == reflectValueType
	}
	return false
}

// validateType is text/template's: the value made fit for a parameter of type typ, or errFallback
// where text/template stops with an error.
func validateType(value reflect.Value, typ reflect.Type) (reflect.Value, error) {
	if !value.IsValid() {
		if typ == nil {
			return reflect.ValueOf(nil), nil
		}
		if canBeNil(typ) {
			return reflect.Zero(typ), nil
		}
		return reflect.Value{}, errFallback
	}
	if typ == reflectValueType && value.Type() != typ {
		return reflect.ValueOf(value), nil
	}
	if typ != nil && !value.Type().AssignableTo(typ) {
		if value.Kind() == reflect.Interface && !value.IsNil() {
			value = value.Elem()
			if value.Type().AssignableTo(typ) {
				return value, nil
			}
		}
		switch {
		case value.Kind() == reflect.Pointer && value.Type().Elem().AssignableTo(typ):
			value = value.Elem()
			if !value.IsValid() {
				return reflect.Value{}, errFallback
			}
		case reflect.PointerTo(value.Type()).AssignableTo(typ) && value.CanAddr():
			value = value.Addr()
		default:
			return reflect.Value{}, errFallback
		}
	}
	return value, nil
}

// asValueArg is what a parameter of type reflect.Value (the builtins') receives for v: v itself. A data
// value that is itself a reflect.Value is left to text/template.
func asValueArg(v reflect.Value) (reflect.Value, error) {
	if v.IsValid() && v.Type() == reflectValueType {
		return reflect.Value{}, errFallback
	}
	return v, nil
}

// field finds one field name (.Name) in the values it meets. It remembers the last type it met and how
// the name resolves there, so a template run with the same data type looks nothing up by name again;
// other types are resolved once and kept in a cache shared by every field.
type field struct {
	name    string
	nameVal reflect.Value // the name as a map key
	last    atomic.Pointer[resolved]
}

type resolution uint8

const (
	unhandled  resolution = iota // a method not called plainly, an unexported or missing field, a kind of value not handled
	structIdx                    // a field at index idx
	structPath                   // an embedded field, through path
	mapKey                       // a map with string keys
	methodIdx                    // a method of the value (not only of its pointer) at index idx, with no arguments and one result that is not an error
)

type resolved struct {
	typ  reflect.Type
	how  resolution
	idx  int
	path []int
}

type fieldKey struct {
	typ  reflect.Type
	name string
}

var fieldCache sync.Map // fieldKey → *resolved

func resolve(t reflect.Type, name string) *resolved {
	if r, ok := fieldCache.Load(fieldKey{t, name}); ok {
		return r.(*resolved)
	}
	r := &resolved{typ: t}
	// A method of the name, on the value or on its pointer, is text/template's to call, except one of
	// the value that takes nothing and gives one value (Report.Title): called here as text/template
	// would (a value's method set is in its pointer's, so which text/template picks does not matter).
	m, method := t.MethodByName(name)
	if method && t.Kind() != reflect.Interface && m.Type.NumIn() == 1 && m.Type.NumOut() == 1 && m.Type.Out(0) != errorType {
		r.how, r.idx = methodIdx, m.Index
		fieldCache.Store(fieldKey{t, name}, r)
		return r
	}
	if !method && t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer {
		_, method = reflect.PointerTo(t).MethodByName(name)
	}
	switch {
	case method:
	case t.Kind() == reflect.Struct:
		if sf, ok := t.FieldByName(name); ok && sf.IsExported() {
			if len(sf.Index) == 1 {
				r.how, r.idx = structIdx, sf.Index[0]
			} else {
				r.how, r.path = structPath, sf.Index
			}
		}
	case t.Kind() == reflect.Map:
		if stringType.AssignableTo(t.Key()) {
			r.how = mapKey
		}
	}
	fieldCache.Store(fieldKey{t, name}, r)
	return r
}

// eval is text/template's evalField for a field without arguments, under missingkey=error.
func (f *field) eval(receiver reflect.Value) (reflect.Value, error) {
	if !receiver.IsValid() {
		return reflect.Value{}, errFallback // nil data; no entry for key
	}
	receiver, isNil := indirect(receiver)
	if isNil {
		return reflect.Value{}, errFallback
	}
	t := receiver.Type()
	r := f.last.Load()
	if r == nil || r.typ != t {
		r = resolve(t, f.name)
		f.last.Store(r)
	}
	switch r.how {
	case structIdx:
		return receiver.Field(r.idx), nil
	case structPath:
		v, err := receiver.FieldByIndexErr(r.path)
		if err != nil {
			return reflect.Value{}, errFallback
		}
		return v, nil
	case methodIdx:
		return receiver.Method(r.idx).Call(nil)[0], nil
	case mapKey:
		v := receiver.MapIndex(f.nameVal)
		if !v.IsValid() {
			return reflect.Value{}, errFallback // map has no entry for key
		}
		return v, nil
	}
	return reflect.Value{}, errFallback
}

// rangeMap is a map's entries in text/template's order (internal/fmtsort), for the key kinds it
// orders plainly; ok is false for other keys.
func rangeMap(m reflect.Value) (keys, vals []reflect.Value, ok bool) {
	kt := m.Type().Key()
	var less func(a, b reflect.Value) int
	switch kt.Kind() {
	case reflect.String:
		less = func(a, b reflect.Value) int { return cmp.Compare(a.String(), b.String()) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		less = func(a, b reflect.Value) int { return cmp.Compare(a.Int(), b.Int()) }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		less = func(a, b reflect.Value) int { return cmp.Compare(a.Uint(), b.Uint()) }
	default:
		return nil, nil, false
	}
	type kv struct{ k, v reflect.Value }
	all := make([]kv, 0, m.Len())
	it := m.MapRange()
	for it.Next() {
		all = append(all, kv{it.Key(), it.Value()})
	}
	slices.SortStableFunc(all, func(a, b kv) int { return less(a.k, b.k) })
	keys, vals = make([]reflect.Value, len(all)), make([]reflect.Value, len(all))
	for i, e := range all {
		keys[i], vals[i] = e.k, e.v
	}
	return keys, vals, true
}

// The builtins, as text/template's funcs.go has them; an error there is errFallback here.

func bNot(v reflect.Value) reflect.Value { return reflect.ValueOf(!truth(v)) }

func bLen(item reflect.Value) (reflect.Value, error) {
	item, isNil := indirect(item)
	if isNil {
		return reflect.Value{}, errFallback
	}
	switch item.Kind() {
	case reflect.Array, reflect.Chan, reflect.Map, reflect.Slice, reflect.String:
		return reflect.ValueOf(item.Len()), nil
	}
	return reflect.Value{}, errFallback
}

func indexArg(index reflect.Value, cap int) (int, error) {
	var x int64
	switch index.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x = index.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x = int64(index.Uint())
	default:
		return 0, errFallback
	}
	if x < 0 || int(x) < 0 || int(x) > cap {
		return 0, errFallback
	}
	return int(x), nil
}

func prepareArg(value reflect.Value, argType reflect.Type) (reflect.Value, error) {
	if !value.IsValid() {
		if !canBeNil(argType) {
			return reflect.Value{}, errFallback
		}
		value = reflect.Zero(argType)
	}
	if value.Type().AssignableTo(argType) {
		return value, nil
	}
	if intLike(value.Kind()) && intLike(argType.Kind()) && value.Type().ConvertibleTo(argType) {
		return value.Convert(argType), nil
	}
	return reflect.Value{}, errFallback
}

func intLike(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

func bIndex(item reflect.Value, indexes []reflect.Value) (reflect.Value, error) {
	item = indirectInterface(item)
	if !item.IsValid() {
		return reflect.Value{}, errFallback
	}
	for _, index := range indexes {
		index = indirectInterface(index)
		var isNil bool
		if item, isNil = indirect(item); isNil {
			return reflect.Value{}, errFallback
		}
		switch item.Kind() {
		case reflect.Array, reflect.Slice, reflect.String:
			x, err := indexArg(index, item.Len())
			if err != nil {
				return reflect.Value{}, err
			}
			// index == len is text/template's check too, and Index panics on it: that panic
			// (an error there) falls back here.
			item = item.Index(x)
		case reflect.Map:
			index, err := prepareArg(index, item.Type().Key())
			if err != nil {
				return reflect.Value{}, err
			}
			if x := item.MapIndex(index); x.IsValid() {
				item = x
			} else {
				item = reflect.Zero(item.Type().Elem())
			}
		default:
			return reflect.Value{}, errFallback
		}
	}
	return item, nil
}

type basic int

const (
	invalidKind basic = iota
	boolKind
	complexKind
	intKind
	floatKind
	stringKind
	uintKind
)

func basicKind(v reflect.Value) basic {
	switch v.Kind() {
	case reflect.Bool:
		return boolKind
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intKind
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return uintKind
	case reflect.Float32, reflect.Float64:
		return floatKind
	case reflect.Complex64, reflect.Complex128:
		return complexKind
	case reflect.String:
		return stringKind
	}
	return invalidKind
}

func isNilValue(v reflect.Value) bool {
	if !v.IsValid() {
		return true
	}
	switch v.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
		return v.IsNil()
	}
	return false
}

func bEq(arg1 reflect.Value, arg2 []reflect.Value) (bool, error) {
	arg1 = indirectInterface(arg1)
	if len(arg2) == 0 {
		return false, errFallback
	}
	k1 := basicKind(arg1)
	for _, arg := range arg2 {
		arg = indirectInterface(arg)
		k2 := basicKind(arg)
		truth := false
		if k1 != k2 {
			switch {
			case k1 == intKind && k2 == uintKind:
				truth = arg1.Int() >= 0 && uint64(arg1.Int()) == arg.Uint()
			case k1 == uintKind && k2 == intKind:
				truth = arg.Int() >= 0 && arg1.Uint() == uint64(arg.Int())
			default:
				if arg1.IsValid() && arg.IsValid() {
					return false, errFallback
				}
			}
		} else {
			switch k1 {
			case boolKind:
				truth = arg1.Bool() == arg.Bool()
			case complexKind:
				truth = arg1.Complex() == arg.Complex()
			case floatKind:
				truth = arg1.Float() == arg.Float()
			case intKind:
				truth = arg1.Int() == arg.Int()
			case stringKind:
				truth = arg1.String() == arg.String()
			case uintKind:
				truth = arg1.Uint() == arg.Uint()
			default:
				if arg1.Kind() != arg.Kind() && arg1.IsValid() && arg.IsValid() {
					return false, errFallback
				}
				if isNilValue(arg1) || isNilValue(arg) {
					truth = isNilValue(arg) == isNilValue(arg1)
				} else {
					if !arg.Type().Comparable() {
						return false, errFallback
					}
					truth = arg1.Interface() == arg.Interface()
				}
			}
		}
		if truth {
			return true, nil
		}
	}
	return false, nil
}

func bLt(arg1, arg2 reflect.Value) (bool, error) {
	arg1 = indirectInterface(arg1)
	k1 := basicKind(arg1)
	if k1 == invalidKind {
		return false, errFallback
	}
	arg2 = indirectInterface(arg2)
	k2 := basicKind(arg2)
	if k2 == invalidKind {
		return false, errFallback
	}
	if k1 != k2 {
		switch {
		case k1 == intKind && k2 == uintKind:
			return arg1.Int() < 0 || uint64(arg1.Int()) < arg2.Uint(), nil
		case k1 == uintKind && k2 == intKind:
			return arg2.Int() >= 0 && arg1.Uint() < uint64(arg2.Int()), nil
		}
		return false, errFallback
	}
	switch k1 {
	case floatKind:
		return arg1.Float() < arg2.Float(), nil
	case intKind:
		return arg1.Int() < arg2.Int(), nil
	case stringKind:
		return arg1.String() < arg2.String(), nil
	case uintKind:
		return arg1.Uint() < arg2.Uint(), nil
	}
	return false, errFallback // bool, complex
}

// compare is one of the comparison builtins by name, on two values.
func compare(name string, a, b reflect.Value) (bool, error) {
	switch name {
	case "ne":
		eq, err := bEq(a, []reflect.Value{b})
		return !eq, err
	case "lt":
		return bLt(a, b)
	case "le":
		lt, err := bLt(a, b)
		if lt || err != nil {
			return lt, err
		}
		return bEq(a, []reflect.Value{b})
	case "gt":
		lt, err := bLt(a, b)
		if lt || err != nil {
			return false, err
		}
		eq, err := bEq(a, []reflect.Value{b})
		return !eq, err
	case "ge":
		lt, err := bLt(a, b)
		return !lt, err
	}
	return false, errFallback
}
