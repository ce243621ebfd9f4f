package aircraft

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestDefaultRegistry(t *testing.T) {
	r, err := Default()
	if err != nil {
		t.Fatalf("Default: %v", err)
	}
	keys := r.Keys()
	if len(keys) < 24 {
		t.Errorf("%d cards; want at least 24", len(keys))
	}
	if !slices.IsSorted(keys) {
		t.Errorf("keys not sorted: %v", keys)
	}
	for _, k := range []string{"a6m2", "spitfire-i", "ki-43-i", "f4f-4", "hurricane-i", "sbd-3", "p-39d", "p-40c", "f6f-3",
		"p-51d", "bf-109e", "p-47d", "fw-190a-3", "p-38j", "he-111h", "b-17g", "bf-110c", "tbf-1", "ju-87b", "me-262a"} {
		if _, ok := r.Get(k); !ok {
			t.Errorf("no card %q", k)
		}
	}
	if _, ok := r.Get("spitfire"); ok {
		t.Error("Get found a key that is not there")
	}
	all := r.All()
	if len(all) != len(keys) {
		t.Fatalf("All gave %d cards for %d keys", len(all), len(keys))
	}
	for i, c := range all {
		if c.Key != keys[i] {
			t.Errorf("All()[%d] is %s; want %s", i, c.Key, keys[i])
		}
		if err := c.Validate(); err != nil {
			t.Errorf("%v", err)
		}
		if f, ok := r.Source(c.Key); !ok || f.Performance == nil {
			t.Errorf("%s: no historical data behind the card", c.Key)
		}
	}
	r2, _ := Default()
	if r2 != r {
		t.Error("Default parsed the files twice")
	}
}

func TestGetHandsOutCopies(t *testing.T) {
	r, _ := Default()
	a, _ := r.Get("a6m2")
	a.Bands[0].Maneuver.Max = 99
	a.Guns[0].Mix = "junk"
	a.Systems[0].Boxes = 99
	b, _ := r.Get("a6m2")
	if b.Bands[0].Maneuver.Max == 99 || b.Guns[0].Mix == "junk" || b.Systems[0].Boxes == 99 {
		t.Error("changing a card from Get changed the registry")
	}
}

// TestCardIsSharedAndEqual: Card hands out the registry's own card, the same every call and equal to
// what Get copies, and nothing for an unknown key; a copy from Get is not it.
func TestCardIsSharedAndEqual(t *testing.T) {
	r, _ := Default()
	for _, k := range r.Keys() {
		a, ok := r.Card(k)
		b, _ := r.Card(k)
		c, _ := r.Get(k)
		if !ok || a != b || a == c || !reflect.DeepEqual(a, c) {
			t.Errorf("%s: Card gave %p and %p, Get %p (equal %v)", k, a, b, c, reflect.DeepEqual(a, c))
		}
	}
	if c, ok := r.Card("spitfire"); ok || c != nil {
		t.Error("an unknown key gave a card")
	}
	// With keeps the cards it is given as copies: the caller's card is not the registry's.
	mine, _ := r.Get("a6m2")
	mine.Name = "printed"
	r2, err := r.With(mine)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r2.Card("a6m2"); got == mine || got.Name != "printed" {
		t.Errorf("With: Card gave %p %q for the caller's %p", got, got.Name, mine)
	}
}

// Every published figure in a shipped file carries its source (docs/aircraft.md, sources policy).
func TestShippedFilesCiteSources(t *testing.T) {
	r, _ := Default()
	for _, key := range r.Keys() {
		f, _ := r.Source(key)
		p := f.Performance
		for _, fig := range []*Figure{p.CeilingFt, p.EmptyWeightLb, p.LoadedWeightLb, p.WingAreaSqFt, p.WingspanFt, p.DiveLimitMPH} {
			if fig == nil || strings.TrimSpace(fig.Source) == "" {
				t.Errorf("%s: a figure without a source", key)
			}
		}
		if len(f.Armament) == 0 {
			t.Errorf("%s: no armament", key)
		}
	}
}

const badFile = `key: Bad_Key
name: Test
nation: Nowhere
year: 1941
role: fighter
engines: {count: 1, kind: radial, name: Test engine}
crew: 1
colour: red
performance:
  top_speed:
    - {alt_ft: 20000, mph: 350, source: x}
    - {alt_ft: 10000, mph: 330}
  climb: {fpm: 3000, alt_ft: 0, source: x}
  ceiling_ft: {value: 30000, source: x}
  empty_weight_lb: {value: 6000, source: x}
  loaded_weight_lb: {value: 5000, source: x}
  wing_area_sqft: {value: 200, source: x}
  wingspan_ft: {value: 35, source: x}
  engine_hp: {value: 1000, source: x}
  dive_limit_mph: {value: 450, source: x}
armament:
  - id: wing-l
    kind: FF
    side: L
    weapons: [{count: 4, kind: 40M, name: gun, rounds: 300, rate_rpm: 1000}]
    source: x
`

func TestParseListsEveryProblem(t *testing.T) {
	c, err := Parse([]byte(badFile), "bad.yaml")
	if c != nil {
		t.Error("a bad file gave a card")
	}
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("want *Error, got %T %v", err, err)
	}
	want := []struct {
		line int
		text string
	}{
		{1, "key"},
		{8, "field colour not found"},
		{12, "top_speed[1].alt_ft"},
		{12, "top_speed[1].source"},
		{15, "empty_weight_lb"},
		{25, "weapons[0].kind"},
	}
	for _, w := range want {
		found := false
		for _, p := range e.Problems {
			if p.Line == w.line && strings.Contains(p.String(), w.text) {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem on line %d about %q in:\n%v", w.line, w.text, err)
		}
	}
	if len(e.Problems) != len(want) {
		t.Errorf("%d problems; want %d:\n%v", len(e.Problems), len(want), err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "bad.yaml: 6 problems:") || !strings.Contains(msg, "line 8: ") {
		t.Errorf("error text:\n%s", msg)
	}
}

func TestParseSyntaxError(t *testing.T) {
	_, err := Parse([]byte("key: a\n  name: [\n"), "broken.yaml")
	e, ok := err.(*Error)
	if !ok || len(e.Problems) != 1 || e.Problems[0].Line == 0 {
		t.Errorf("want one positioned problem, got %v", err)
	}
	if _, err := Parse(nil, "empty.yaml"); err == nil {
		t.Error("an empty file parsed")
	}
	if _, err := Parse([]byte(badFile+"---\nkey: two\n"), "two.yaml"); err == nil || !strings.Contains(err.Error(), "second YAML document") {
		t.Errorf("two documents: %v", err)
	}
}

// A moderator who owns the printed cards writes the numbers in a card block (docs/aircraft.md).
func TestPrintedCard(t *testing.T) {
	c, err := LoadFile("testdata/printed-zero.yaml")
	if err != nil {
		t.Fatalf("LoadFile: %v", err)
	}
	if c.Key != "a6m2" || c.Name != "Mitsubishi A6M2 Zero (printed card)" || c.Engines.Count != 1 || c.LossClass != LossLWL {
		t.Errorf("identity not taken from the file: %+v", c)
	}
	if c.Bands[0].TM.Turn != 1 || c.Bands[1].Maneuver != nil || c.FixedMix() != "2x30M+2x20C" {
		t.Errorf("printed numbers not used: %+v", c.Bands)
	}
	r, _ := Default()
	r2, err := r.With(c)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r2.Get("a6m2")
	orig, _ := r.Get("a6m2")
	if got.Name != c.Name || orig.Name == c.Name || len(r2.Keys()) != len(r.Keys()) {
		t.Error("With did not replace the card in a new registry only")
	}
	if _, ok := r2.Source("a6m2"); ok {
		t.Error("a printed card still points at the derived card's historical data")
	}

	data, _ := os.ReadFile("testdata/printed-zero.yaml")
	broken := strings.Replace(string(data), "level: {min: 6, max: 7}", "level: {min: 5, max: 7}", 1)
	broken = strings.Replace(broken, "guns: wings}", "guns: nose}", 1)
	_, err = Parse([]byte(broken), "printed.yaml")
	if err == nil || !strings.Contains(err.Error(), "card.bands[0].level.min") || !strings.Contains(err.Error(), "card.systems[6].guns") ||
		!strings.Contains(err.Error(), "line 20: ") {
		t.Errorf("a broken printed card: %v", err)
	}
}

func TestCardValidateListsEveryProblem(t *testing.T) {
	c := mustCard(t, "he-111h")
	c.Bands[1].MinAlt = 5100
	c.Bands[2].Dive.Min = 3
	c.Bands = c.Bands[:len(c.Bands)-1]
	c.Guns[0].Mix = "1x20mm"
	c.Systems = slices.DeleteFunc(c.Systems, func(s System) bool { return s.Letter == "L" })
	c.Systems[2].Critical = false
	err := c.Validate()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("want *Error, got %v", err)
	}
	for _, want := range []string{"bands[1].min_alt", "bands[2].dive.min", "below the ceiling", "guns[0].mix", "no L system", "systems[2].critical"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no problem about %q in:\n%v", want, err)
		}
	}
	if len(e.Problems) != 6 {
		t.Errorf("%d problems; want 6:\n%v", len(e.Problems), err)
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"data/a6m2.yaml", "data/b-17g.yaml", "testdata/printed-zero.yaml"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(badFile))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "fuzz.yaml")
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Errorf("Parse accepted a card that does not validate: %v", verr)
			}
		}
	})
}
