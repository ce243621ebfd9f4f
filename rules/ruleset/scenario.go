package ruleset

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"sortie/parser"
	"sortie/rules/yamlpath"
)

// ScenarioError lists every problem found in a scenario, each with its line where the file gives one.
type ScenarioError struct {
	File     string
	Problems []ScenarioProblem
}

// ScenarioProblem is one problem in a scenario file.
type ScenarioProblem struct {
	Line int
	Msg  string
}

func (e *ScenarioError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d problem", e.File, len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		if p.Line > 0 {
			fmt.Fprintf(&b, "line %d: ", p.Line)
		}
		b.WriteString(p.Msg)
	}
	return b.String()
}

// Err is nil when no problem was found, else the error with its problems in line order (problems on
// the same line in the order found).
func (e *ScenarioError) Err() error {
	if len(e.Problems) == 0 {
		return nil
	}
	sort.SliceStable(e.Problems, func(i, j int) bool { return e.Problems[i].Line < e.Problems[j].Line })
	return e
}

// Adder returns the function a ruleset's scenario checks report through: a problem at a YAML path
// (e.g. "aircraft[2].speed"), placed on that path's line in lines.
func (e *ScenarioError) Adder(lines yamlpath.Lines) func(path, format string, args ...any) {
	return func(path, format string, args ...any) {
		e.Problems = append(e.Problems, ScenarioProblem{Line: lines.At(path), Msg: fmt.Sprintf(format, args...)})
	}
}

// DecodeScenario decodes a scenario file (YAML) into v, unknown keys refused, and indexes the lines of
// its paths into lines. Any problem comes back as a *ScenarioError naming the file as name.
func DecodeScenario(data []byte, name string, v any, lines *yamlpath.Lines) error {
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
		return &ScenarioError{File: name, Problems: yamlProblems(err)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return &ScenarioError{File: name, Problems: YAMLProblems(err, v)}
	}
	*lines = yamlpath.Index(&root)
	return nil
}

var (
	notFoundRE  = regexp.MustCompile(`^field (\S+) not found in type (\S+)$`)
	unmarshalRE = regexp.MustCompile("^cannot unmarshal !!(\\w+) `(.*)` into (\\S+)$")
)

// yamlProblems turns a YAML decoding error into problems, one for each message, each on the line the
// message names.
func yamlProblems(err error) []ScenarioProblem { return YAMLProblems(err, nil) }

// YAMLProblems turns an error of decoding YAML into v into problems for people, one for each message,
// each on the line it names: an unknown key is named with the keys allowed there (v's yaml tags) and
// the nearest one suggested, a value of the wrong kind says what was expected.
func YAMLProblems(err error, v any) []ScenarioProblem {
	keys := map[string][]string{}
	if v != nil {
		collectKeys(reflect.TypeOf(v), keys)
	}
	var out []ScenarioProblem
	for _, msg := range yamlpath.Messages(err) {
		line, m := msg.Line, msg.Text
		if g := notFoundRE.FindStringSubmatch(m); g != nil {
			m = unknownKey(g[1], keys[g[2]])
		} else if g := unmarshalRE.FindStringSubmatch(m); g != nil {
			m = fmt.Sprintf("%q is not %s", g[2], kindName(g[3]))
		}
		out = append(out, ScenarioProblem{Line: line, Msg: m})
	}
	return out
}

// unknownKey says a key is not known, with the keys that are and the nearest of them.
func unknownKey(key string, known []string) string {
	if len(known) == 0 {
		return fmt.Sprintf("unknown key %q", key)
	}
	best, bestD := "", 3
	for _, k := range known {
		if d := parser.EditDistance(strings.ToLower(key), k); d < bestD {
			best, bestD = k, d
		}
	}
	m := fmt.Sprintf("unknown key %q (the keys here are %s)", key, strings.Join(known, ", "))
	if best != "" {
		m = fmt.Sprintf("unknown key %q: did you mean %q? (the keys here are %s)", key, best, strings.Join(known, ", "))
	}
	return m
}

// kindName names the Go type YAML could not decode into in a moderator's words.
func kindName(goType string) string {
	switch {
	case strings.HasPrefix(goType, "float"):
		return "a number"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"):
		return "a whole number"
	case goType == "bool":
		return "true or false"
	case goType == "string":
		return "text"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	case strings.HasPrefix(goType, "map["):
		return "a mapping of keys to values"
	}
	return "of the kind expected here (" + goType + ")"
}

// collectKeys gathers, for every struct type reachable from t, the yaml keys it allows, by the type's
// name as YAML's errors give it (e.g. "adjudicator.seatSection").
func collectKeys(t reflect.Type, out map[string][]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return
	}
	if _, done := out[t.String()]; done {
		return
	}
	out[t.String()] = nil
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		if strings.Contains(opts, "inline") || f.Anonymous && tag == "" {
			collectKeys(f.Type, out)
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			keys = append(keys, out[ft.String()]...)
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		keys = append(keys, name)
		collectKeys(f.Type, out)
	}
	sort.Strings(keys)
	out[t.String()] = keys
}

// CheckHead checks what every scenario starts with: the ruleset it is written for (want), a name, and
// a turn limit of 1 to 999.
func CheckHead(add func(path, format string, args ...any), ruleset, want, name string, turns int) {
	if ruleset != want {
		add("ruleset", "ruleset is %q; this scenario format is for %s", ruleset, want)
	}
	if strings.TrimSpace(name) == "" {
		add("name", "the scenario needs a name")
	}
	if turns < 1 || turns > 999 {
		add("turns", "turns (the turn limit) must be 1 to 999, got %d", turns)
	}
}

// CallsignRE is what a unit's callsign (upper-cased) must match: 1 to 24 letters, digits, - or _,
// starting with a letter or digit.
var CallsignRE = regexp.MustCompile(`^[A-Z0-9][A-Z0-9_-]{0,23}$`)

// Roster checks the units a scenario lists against its seats: callsigns well formed and not repeated,
// each unit on one of the sides and played by a player of that side.
type Roster struct {
	Sides   map[string]bool   // the scenario's sides
	Players map[string]string // each player's side
	Seen    map[string]bool   // the callsigns listed so far
	add     func(path, format string, args ...any)
}

// NewRoster checks the scenario's sides and players (CheckSeats) and returns the roster its units are
// checked against.
func NewRoster(sides []string, players []Player, add func(path, format string, args ...any)) *Roster {
	s, p := CheckSeats(sides, players, add)
	return &Roster{Sides: s, Players: p, Seen: map[string]bool{}, add: add}
}

// Callsign checks the callsign of the unit at path and returns it upper-cased.
func (r *Roster) Callsign(path, callsign string) string {
	cs := strings.ToUpper(callsign)
	if !CallsignRE.MatchString(cs) {
		r.add(path+".callsign", "callsign %q must be 1-24 letters, digits, - or _, starting with a letter or digit", callsign)
	} else if r.Seen[cs] {
		r.add(path+".callsign", "callsign %q is given twice", callsign)
	}
	r.Seen[cs] = true
	return cs
}

// Seat checks that the unit cs at path is on one of the sides and played by a player of its side.
func (r *Roster) Seat(path, cs, side, player string) {
	if !r.Sides[side] {
		r.add(path+".side", "%s: side %q is not one of the sides", cs, side)
	}
	if ps, ok := r.Players[player]; !ok {
		r.add(path+".player", "%s: player %q is not one of the players", cs, player)
	} else if ps != side {
		r.add(path+".player", "%s: player %q plays %s, not %s", cs, player, ps, side)
	}
}

// Condition checks the victory condition at path: its side is one of the sides, and every unit it names
// (under the key field, e.g. "aircraft"; unit says what one is, e.g. "an aircraft") is one the scenario
// lists. It returns the names upper-cased, and the points the condition is worth: 1 when none are given.
func (r *Roster) Condition(path, side string, points int, field, unit string, names []string) ([]string, int) {
	if !r.Sides[side] {
		r.add(path+".side", "victory condition for unknown side %q", side)
	}
	var out []string
	for _, n := range names {
		cs := strings.ToUpper(n)
		if !r.Seen[cs] {
			r.add(path+"."+field, "victory condition names %q, which is not %s of the scenario", n, unit)
		}
		out = append(out, cs)
	}
	if points == 0 {
		points = 1
	}
	return out, points
}
