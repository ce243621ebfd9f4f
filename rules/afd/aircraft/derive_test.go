package aircraft

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestDensityRatio(t *testing.T) {
	for _, c := range []struct{ ft, want float64 }{{0, 1}, {10000, 0.7384}, {20000, 0.5328}, {36089, 0.2971}, {40000, 0.2462}} {
		if got := DensityRatio(c.ft); math.Abs(got-c.want) > 0.001 {
			t.Errorf("σ(%.0f ft) = %.4f; want %.4f (standard atmosphere)", c.ft, got, c.want)
		}
	}
}

func TestEngineBoxes(t *testing.T) {
	for _, c := range []struct {
		hp   float64
		want int
	}{{100, 2}, {940, 3}, {1040, 3}, {1332, 3}, {1700, 4}, {2000, 4}, {5000, 6}} {
		if got := EngineBoxes(c.hp); got != c.want {
			t.Errorf("EngineBoxes(%.0f hp) = %d; want %d", c.hp, got, c.want)
		}
	}
}

// The worked example of docs/aircraft.md: the Spitfire I's lowest band.
func TestSpitfireWorkedExample(t *testing.T) {
	s := mustCard(t, "spitfire-i")
	b := s.Bands[0]
	want := Band{MinAlt: 0, MaxAlt: 4900, Maneuver: &SpeedRange{2, 6}, Level: SpeedRange{7, 8}, Dive: SpeedRange{9, 10},
		Power: 2, Brake: 1, MaxClimb: 400, TM: TurnModes{Turn: 2, Slip: 2, HalfRoll: 2, HalfLoop: 3, Bank: 2}}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("Spitfire I 0-4,900 ft:\n got %+v %+v\nwant %+v %+v", b, *b.Maneuver, want, *want.Maneuver)
	}
	if len(s.Bands) != 7 || s.Bands[6].MaxAlt != 34900 || s.Bands[6].Maneuver != nil {
		t.Errorf("Spitfire I: want 7 bands to 34,900 ft, the last without a manoeuvre range")
	}
	for _, c := range []struct{ letter, side string }{{"F", ""}, {"W", ""}, {"E", ""}, {"C", ""}, {"L", ""}} {
		if got := system(t, s, c.letter, c.side).Boxes; got != map[string]int{"F": 4, "W": 4, "E": 3, "C": 3, "L": 3}[c.letter] {
			t.Errorf("Spitfire I %s: %d boxes", c.letter, got)
		}
	}
	if g := s.Guns[0]; g.Ammo != 10 || g.Range != 8 || g.Mix != "4x30M" {
		t.Errorf("Spitfire I wing-l: %+v; want 4x30M, range 8, 10 bursts", g)
	}
}

// Derivation is deterministic: the same file gives the same card, every time.
func TestDeriveDeterministic(t *testing.T) {
	r, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range r.Keys() {
		data, err := dataFS.ReadFile("data/" + key + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		f1, c1, err := ParseFile(data, key)
		if err != nil {
			t.Fatal(err)
		}
		_, c2, _ := ParseFile(data, key)
		c3, err := Derive(f1)
		if err != nil {
			t.Fatal(err)
		}
		c4, _ := r.Get(key)
		if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(c1, c3) || !reflect.DeepEqual(c1, c4) {
			t.Errorf("%s: deriving twice gave different cards", key)
		}
	}
}

// A shipped file that states its loss class states the one the documented rule gives.
func TestStatedLossClassFollowsTheRule(t *testing.T) {
	r, _ := Default()
	for _, key := range r.Keys() {
		f, _ := r.Source(key)
		if f.LossClass == "" {
			continue
		}
		f2 := *f
		f2.LossClass = ""
		got, err := DeriveLossClass(&f2)
		if err != nil {
			t.Fatal(err)
		}
		if got != f.LossClass {
			t.Errorf("%s: states %s, the rule gives %s", key, f.LossClass, got)
		}
	}
}

func TestDerivedNumbersArePlausible(t *testing.T) {
	r, _ := Default()
	at := func(key string, alt int) *Band {
		b, err := mustCard(t, key).BandAt(alt)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if p, z := at("p-51d", 25000).Level.Max, at("a6m2", 25000).Level.Max; p <= z {
		t.Errorf("at 25,000 ft the P-51D (%d) is not faster than the A6M2 (%d)", p, z)
	}
	if s, h := at("spitfire-i", 17500).Level.Max, at("hurricane-i", 17500).Level.Max; s <= h {
		t.Errorf("at 17,500 ft the Spitfire I (%d) is not faster than the Hurricane I (%d)", s, h)
	}
	for alt := 0; alt <= 30000; alt += 5000 {
		if z, p := at("a6m2", alt).TM.Turn, at("p-47d", alt).TM.Turn; z > p {
			t.Errorf("at %d ft the A6M2 turns in %d, the P-47D in %d", alt, z, p)
		}
	}
	for _, key := range []string{"a6m2", "ki-43-i", "spitfire-i"} {
		if tm := at(key, 0).TM.Turn; tm > 2 {
			t.Errorf("%s: light wing loading but turn mode %d low down", key, tm)
		}
	}
	jet := at("me-262a", 0).Level.Max
	for _, c := range r.All() {
		for _, b := range c.Bands {
			if b.Dive.Max <= b.Level.Max {
				t.Errorf("%s %d ft: dive max %d is not above level max %d", c.Key, b.MinAlt, b.Dive.Max, b.Level.Max)
			}
			if b.MinAlt == 0 && c.Key != "me-262a" && b.Level.Max >= jet {
				t.Errorf("%s: as fast as the Me-262 low down", c.Key)
			}
			if b.TM.HalfLoop <= b.TM.Turn || b.TM.Slip != b.TM.Turn || b.TM.HalfRoll != b.TM.Turn {
				t.Errorf("%s %d ft: turn modes %+v out of shape", c.Key, b.MinAlt, b.TM)
			}
		}
		for i := 1; i < len(c.Bands); i++ {
			if c.Bands[i].TM.Turn < c.Bands[i-1].TM.Turn {
				t.Errorf("%s: turn mode falls with height at %d ft", c.Key, c.Bands[i].MinAlt)
			}
		}
		if c.Bomber() && c.Role != RoleDiveBomber && c.Bands[0].TM.Turn < at("a6m2", 0).TM.Turn {
			t.Errorf("%s: a bomber that out-turns the Zero", c.Key)
		}
		if c.Role == RoleFighter && c.FixedMix() == "" {
			t.Errorf("%s: a fighter without fixed forward guns", c.Key)
		}
		if (c.Role == RoleBomber || c.Role == RoleTorpedoBomber || c.Role == RoleDiveBomber) && c.Loaded == nil {
			t.Errorf("%s: a bomber with no loaded condition", c.Key)
		}
	}
}

func TestDeriveLossClassByWingLoading(t *testing.T) {
	f := func(wl float64) *File {
		return &File{Role: RoleFighter, Engines: Engines{Count: 1},
			Performance: &Performance{LoadedWeightLb: &Figure{Value: wl * 100}, WingAreaSqFt: &Figure{Value: 100}}}
	}
	for _, c := range []struct {
		wl   float64
		want LossClass
	}{{20, LossLWL}, {25, LossMWL}, {30.9, LossMWL}, {31, LossP40}, {37.9, LossP40}, {38, LossP51}, {43, LossP47}, {60, LossP47}} {
		if got, _ := DeriveLossClass(f(c.wl)); got != c.want {
			t.Errorf("fighter at %.1f lb/ft²: %s; want %s", c.wl, got, c.want)
		}
	}
	twin := f(20)
	twin.Engines.Count = 2
	if got, _ := DeriveLossClass(twin); got != LossHeavy {
		t.Errorf("twin: %s; want HEAVY", got)
	}
	db := f(20)
	db.Role = RoleDiveBomber
	if got, _ := DeriveLossClass(db); got != LossMWL {
		t.Errorf("dive bomber: %s; want MWL", got)
	}
	named := f(60)
	named.Family = "Zero"
	if got, _ := DeriveLossClass(named); got != LossLWL {
		t.Errorf("a type rule (29) names: %s; want its class", got)
	}
}

// A ceiling that is not a whole band edge lands in the band that holds it, and the top band is
// evaluated at the ceiling itself.
func TestCeilingInsideTopBand(t *testing.T) {
	data, err := dataFS.ReadFile("data/spitfire-i.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ceiling string
		bands   int
	}{{"34950", 7}, {"35000", 8}, {"30000", 7}, {"29900", 6}} {
		text := strings.Replace(string(data), "ceiling_ft: {value: 31900", "ceiling_ft: {value: "+c.ceiling, 1)
		card, err := Parse([]byte(text), "spitfire-i.yaml")
		if err != nil {
			t.Fatalf("ceiling %s: %v", c.ceiling, err)
		}
		if len(card.Bands) != c.bands {
			t.Errorf("ceiling %s: %d bands; want %d", c.ceiling, len(card.Bands), c.bands)
		}
	}
}

func TestExplain(t *testing.T) {
	r, _ := Default()
	f, _ := r.Source("spitfire-i")
	text, err := Explain(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CD0 = ", "Band 0-4900 ft", "Maneuver 2-6, Level 7-8.", "No manoeuvre range: too little thrust", "4x30M"} {
		if !strings.Contains(text, want) {
			t.Errorf("Explain lacks %q", want)
		}
	}
}
