package aircraft

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Problem is one thing wrong with an aircraft file or card: where (the YAML path of the field, and its
// line when the card came from a file) and what.
type Problem struct {
	Line int    // 1-based line in the file; 0 when unknown (e.g. a derived card)
	Path string // e.g. "performance.top_speed[1].mph" or "bands[3].level"
	Msg  string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error lists every problem found in one aircraft file or card. Nothing of a file with problems is
// loaded.
type Error struct {
	Name     string // the file name, or the card key
	Problems []Problem
}

func (e *Error) Error() string {
	var b strings.Builder
	if len(e.Problems) == 1 {
		fmt.Fprintf(&b, "%s: %s", e.Name, e.Problems[0])
		return b.String()
	}
	fmt.Fprintf(&b, "%s: %d problems:", e.Name, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// checker collects problems.
type checker struct{ list []Problem }

func (c *checker) add(path, format string, args ...any) {
	c.list = append(c.list, Problem{Path: path, Msg: fmt.Sprintf(format, args...)})
}

var keyPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

var (
	validRoles    = []Role{RoleFighter, RoleDiveBomber, RoleTorpedoBomber, RoleBomber}
	validClasses  = []LossClass{LossLWL, LossMWL, LossP40, LossP51, LossP47, LossFw190, LossHeavy}
	validEngines  = []string{"inline", "radial", "jet"}
	validGunKinds = []string{"FF", "F", "FH", "FL"}
	validSides    = []string{"L", "R", "C"}
)

// Validate checks the card and returns an *Error listing every problem, or nil. It checks identity,
// bands (contiguous in 100 ft steps from 0 ft to at least the ceiling; speed ranges ordered manoeuvre <
// level < dive with no gaps; non-negative factors; turn modes of at least 1), gun positions (unique ids,
// well-formed mixes, arcs for flexible guns), damage systems (F, W, C and L present; one E per engine,
// sided L/R on multi-engine types; C, L and E critical and no others; a G system per gun position) and
// the loaded condition.
func (c *Card) Validate() error {
	var ck checker
	c.check(&ck)
	if len(ck.list) == 0 {
		return nil
	}
	return &Error{Name: c.Key, Problems: ck.list}
}

// checkIdentity checks who a type is, as a card and a data file both say it: its name, nation, year
// of service, role and engines.
func checkIdentity(ck *checker, name, nation string, year int, role Role, engines Engines) {
	if strings.TrimSpace(name) == "" {
		ck.add("name", "missing")
	}
	if strings.TrimSpace(nation) == "" {
		ck.add("nation", "missing")
	}
	if year < 1903 || year > 1960 {
		ck.add("year", "%d is not a plausible year of service", year)
	}
	if !slices.Contains(validRoles, role) {
		ck.add("role", "%q is not one of %v", role, validRoles)
	}
	if engines.Count < 1 || engines.Count > 6 {
		ck.add("engines.count", "want 1 to 6 engines, got %d", engines.Count)
	}
	if !slices.Contains(validEngines, engines.Kind) {
		ck.add("engines.kind", "%q is not one of %v", engines.Kind, validEngines)
	}
}

func (c *Card) check(ck *checker) {
	if !keyPattern.MatchString(c.Key) {
		ck.add("key", "want lower-case letters, digits and dashes, got %q", c.Key)
	}
	checkIdentity(ck, c.Name, c.Nation, c.Year, c.Role, c.Engines)
	if !slices.Contains(validClasses, c.LossClass) {
		ck.add("loss_class", "%q is not one of %v", c.LossClass, validClasses)
	}
	if c.TMLevelPenalty < 0 {
		ck.add("tm_level_penalty", "must not be negative")
	}
	if c.TMDivePenalty < 0 {
		ck.add("tm_dive_penalty", "must not be negative")
	}
	if c.Ceiling <= 0 {
		ck.add("ceiling", "must be positive")
	}
	c.checkBands(ck)
	c.checkGuns(ck)
	c.checkSystems(ck)
	if l := c.Loaded; l != nil {
		if strings.TrimSpace(l.Stores) == "" {
			ck.add("loaded.stores", "missing")
		}
		if l.SpeedPenalty < 0 {
			ck.add("loaded.speed_penalty", "must not be negative")
		}
		if l.TMPenalty < 0 {
			ck.add("loaded.tm_penalty", "must not be negative")
		}
		if l.ClimbPercent < 0 || l.ClimbPercent > 100 {
			ck.add("loaded.climb_percent", "want 0 to 100, got %d", l.ClimbPercent)
		}
	}
}

func (c *Card) checkBands(ck *checker) {
	if len(c.Bands) == 0 {
		ck.add("bands", "the card has no altitude bands")
		return
	}
	for i, b := range c.Bands {
		p := fmt.Sprintf("bands[%d]", i)
		switch {
		case i == 0 && b.MinAlt != 0:
			ck.add(p+".min_alt", "the first band must start at 0 ft, not %d", b.MinAlt)
		case i > 0 && b.MinAlt != c.Bands[i-1].MaxAlt+100:
			ck.add(p+".min_alt", "%d does not follow the previous band's top %d ft (want %d)", b.MinAlt, c.Bands[i-1].MaxAlt, c.Bands[i-1].MaxAlt+100)
		}
		if b.MinAlt%100 != 0 || b.MaxAlt%100 != 0 {
			ck.add(p, "band edges must be whole hundreds of feet (%d-%d)", b.MinAlt, b.MaxAlt)
		}
		if b.MaxAlt < b.MinAlt {
			ck.add(p+".max_alt", "%d is below min_alt %d", b.MaxAlt, b.MinAlt)
		}
		next := 1 // the lowest speed the next range may start at
		if m := b.Maneuver; m != nil {
			if m.Min < 1 || m.Max < m.Min {
				ck.add(p+".maneuver", "range %d-%d is not ordered from at least 1", m.Min, m.Max)
			}
			next = m.Max + 1
			if b.Level.Min != next {
				ck.add(p+".level.min", "%d does not follow the manoeuvre range's top %d (want %d)", b.Level.Min, m.Max, next)
			}
		}
		if b.Level.Min < 1 || b.Level.Max < b.Level.Min {
			ck.add(p+".level", "range %d-%d is not ordered from at least 1", b.Level.Min, b.Level.Max)
		}
		if b.Dive.Min != b.Level.Max+1 {
			ck.add(p+".dive.min", "%d does not follow the top level speed %d (want %d)", b.Dive.Min, b.Level.Max, b.Level.Max+1)
		}
		if b.Dive.Max < b.Dive.Min {
			ck.add(p+".dive", "range %d-%d is not ordered", b.Dive.Min, b.Dive.Max)
		}
		if b.Power < 0 {
			ck.add(p+".power", "must not be negative")
		}
		if b.Brake < 0 {
			ck.add(p+".brake", "must not be negative")
		}
		if b.MaxClimb < 0 || b.MaxClimb%100 != 0 {
			ck.add(p+".max_climb", "want a non-negative multiple of 100 ft, got %d", b.MaxClimb)
		}
		tm := b.TM
		for _, f := range []struct {
			name string
			v    int
		}{{"turn", tm.Turn}, {"slip", tm.Slip}, {"half_roll", tm.HalfRoll}, {"half_loop", tm.HalfLoop}, {"bank", tm.Bank}} {
			if f.v < 1 {
				ck.add(p+".turn_modes."+f.name, "must be at least 1, got %d", f.v)
			}
		}
	}
	// Altitudes go in 100 ft steps, so a band whose top is 34,900 ft holds a ceiling of 34,950 ft.
	if last := c.Bands[len(c.Bands)-1]; c.Ceiling > 0 && last.MaxAlt+100 <= c.Ceiling {
		ck.add(fmt.Sprintf("bands[%d].max_alt", len(c.Bands)-1), "the bands stop at %d ft, below the ceiling of %d ft", last.MaxAlt, c.Ceiling)
	}
}

func (c *Card) checkGuns(ck *checker) {
	seen := map[string]bool{}
	for i, g := range c.Guns {
		p := fmt.Sprintf("guns[%d]", i)
		checkPosition(ck, p, seen, g.ID, g.Kind, g.Side)
		if _, err := ParseMix(g.Mix); err != nil {
			ck.add(p+".mix", "%v", err)
		}
		if g.Range < 1 || g.Range > 8 {
			ck.add(p+".range", "want 1 to 8 hexes, got %d", g.Range)
		}
		if g.Ammo < 1 {
			ck.add(p+".ammo", "want at least 1 burst, got %d", g.Ammo)
		}
		checkArcs(ck, p+".arcs", g.Kind, g.Arcs)
	}
}

// checkPosition checks what a card's gun position and a data file's both say of it, at path p: its id
// (a key, not among those seen before it), its kind and its side.
func checkPosition(ck *checker, p string, seen map[string]bool, id, kind, side string) {
	if !keyPattern.MatchString(id) {
		ck.add(p+".id", "want lower-case letters, digits and dashes, got %q", id)
	} else if seen[id] {
		ck.add(p+".id", "%q is used twice", id)
	}
	seen[id] = true
	if !slices.Contains(validGunKinds, kind) {
		ck.add(p+".kind", "%q is not one of %v", kind, validGunKinds)
	}
	if !slices.Contains(validSides, side) {
		ck.add(p+".side", "%q is not one of %v", side, validSides)
	}
}

func checkArcs(ck *checker, path, kind string, arcs []int) {
	if kind == "F" && len(arcs) == 0 {
		ck.add(path, "a flexible position needs the clock positions it covers")
	}
	if kind == "FF" && len(arcs) > 0 {
		ck.add(path, "fixed forward guns fire dead ahead and take no arcs")
	}
	seen := map[int]bool{}
	for _, a := range arcs {
		if a < 1 || a > 12 {
			ck.add(path, "clock position %d is not 1 to 12", a)
		} else if seen[a] {
			ck.add(path, "clock position %d is listed twice", a)
		}
		seen[a] = true
	}
}

var validLetters = []string{"F", "W", "E", "C", "L", "G"}

func (c *Card) checkSystems(ck *checker) {
	count := map[string]int{}
	names := map[string]bool{}
	guns := map[string]bool{}
	sides := map[string]int{}
	for i, s := range c.Systems {
		p := fmt.Sprintf("systems[%d]", i)
		if !slices.Contains(validLetters, s.Letter) {
			ck.add(p+".letter", "%q is not one of %v", s.Letter, validLetters)
			continue
		}
		count[s.Letter]++
		if strings.TrimSpace(s.Name) == "" {
			ck.add(p+".name", "missing")
		} else if names[s.Name] {
			ck.add(p+".name", "%q is used twice", s.Name)
		}
		names[s.Name] = true
		if s.Boxes < 1 {
			ck.add(p+".boxes", "want at least 1 box, got %d", s.Boxes)
		}
		critical := s.Letter == "C" || s.Letter == "L" || s.Letter == "E"
		if s.Critical != critical {
			ck.add(p+".critical", "C, L and E systems are open to criticals and no others (seed 000, combat section)")
		}
		want := EffectShotDown
		switch s.Letter {
		case "E":
			if c.MultiEngine() {
				want = EffectEngineOut
				if s.Side != "L" && s.Side != "R" && s.Side != "C" {
					ck.add(p+".side", "an engine of a multi-engine type needs side L, R or C")
				}
				sides[s.Side]++
			} else if s.Side != "" {
				ck.add(p+".side", "the engine of a single-engine type has no side")
			}
		case "G":
			want = EffectGunsOut
			if !slices.Contains(validSides, s.Side) {
				ck.add(p+".side", "%q is not one of %v", s.Side, validSides)
			}
			if !c.HasGun(s.Guns) {
				ck.add(p+".guns", "%q names no gun position of the card", s.Guns)
			}
			guns[s.Guns] = true
		default:
			if s.Side != "" {
				ck.add(p+".side", "only engines and guns are sided")
			}
		}
		if s.Effect != want {
			ck.add(p+".effect", "want %q for this system, got %q", want, s.Effect)
		}
	}
	for _, l := range []string{"F", "W", "C", "L"} {
		if count[l] == 0 {
			ck.add("systems", "no %s system", l)
		}
	}
	if c.Engines.Count > 0 && count["E"] != c.Engines.Count {
		ck.add("systems", "%d E systems for %d engines", count["E"], c.Engines.Count)
	}
	if c.MultiEngine() && (sides["L"] != sides["R"] || sides["L"] == 0) {
		ck.add("systems", "the engines of a multi-engine type must be as many on the left as on the right")
	}
	for i, g := range c.Guns {
		if !guns[g.ID] {
			ck.add(fmt.Sprintf("guns[%d]", i), "gun position %q has no G system", g.ID)
		}
	}
}

// HasGun says whether the card has the gun position id.
func (c *Card) HasGun(id string) bool {
	return slices.ContainsFunc(c.Guns, func(g GunPosition) bool { return g.ID == id })
}

// GunList names the card's gun positions in its order, separated by commas: what a fire order that
// names another may name instead.
func (c *Card) GunList() string {
	ids := make([]string, len(c.Guns))
	for i, g := range c.Guns {
		ids[i] = g.ID
	}
	return strings.Join(ids, ", ")
}

// check checks the historical data of a file; the card itself is checked once built.
func (f *File) check(ck *checker) {
	if !keyPattern.MatchString(f.Key) {
		ck.add("key", "want lower-case letters, digits and dashes, got %q", f.Key)
	}
	if f.Card != nil {
		// A printed card: the card block is checked as a card once the file's identity is filled in;
		// historical figures, if the file gives any, must still be sound.
		if f.Card.Key != "" && f.Card.Key != f.Key {
			ck.add("card.key", "%q differs from the file's key %q", f.Card.Key, f.Key)
		}
		if f.Performance != nil {
			f.checkPerformance(ck)
		}
		f.checkArmament(ck)
		f.checkBombs(ck)
		return
	}
	checkIdentity(ck, f.Name, f.Nation, f.Year, f.Role, f.Engines)
	if strings.TrimSpace(f.Engines.Name) == "" {
		ck.add("engines.name", "missing")
	}
	if f.Family != "" {
		if _, ok := SeedFamilies[f.Family]; !ok {
			ck.add("family", "%q is not a type seed 000 rule (29) names (leave it out for other types)", f.Family)
		}
	}
	if f.LossClass != "" {
		if !slices.Contains(validClasses, f.LossClass) {
			ck.add("loss_class", "%q is not one of %v", f.LossClass, validClasses)
		} else if want, ok := SeedFamilies[f.Family]; ok && want != f.LossClass {
			ck.add("loss_class", "seed 000 rule (29) puts the %s in class %s, not %s", f.Family, want, f.LossClass)
		}
	}
	if f.Crew < 1 {
		ck.add("crew", "want at least 1, got %d", f.Crew)
	}
	if f.Performance == nil {
		ck.add("performance", "missing: a file needs the historical performance figures, or a complete card block")
	} else {
		f.checkPerformance(ck)
	}
	f.checkArmament(ck)
	f.checkBombs(ck)
}

func (f *File) checkBombs(ck *checker) {
	b := f.Bombs
	if b == nil {
		return
	}
	if strings.TrimSpace(b.Stores) == "" {
		ck.add("bombs.stores", "missing")
	}
	if b.Lb <= 0 {
		ck.add("bombs.lb", "must be positive")
	} else if p := f.Performance; p != nil && p.LoadedWeightLb != nil && b.Lb >= p.LoadedWeightLb.Value {
		ck.add("bombs.lb", "%.0f lb is not less than the loaded weight", b.Lb)
	}
	checkSource(ck, "bombs.source", b.Source)
}

func checkSource(ck *checker, path, s string) {
	if strings.TrimSpace(s) == "" {
		ck.add(path, "every figure needs its source")
	}
}

func checkFigure(ck *checker, path string, fig *Figure, lo, hi float64) {
	if fig == nil {
		ck.add(path, "missing")
		return
	}
	if fig.Value < lo || fig.Value > hi {
		ck.add(path+".value", "%g is outside the plausible range %g to %g", fig.Value, lo, hi)
	}
	checkSource(ck, path+".source", fig.Source)
}

func (f *File) checkPerformance(ck *checker) {
	p := f.Performance
	checkFigure(ck, "performance.ceiling_ft", p.CeilingFt, 5000, 60000)
	checkFigure(ck, "performance.empty_weight_lb", p.EmptyWeightLb, 500, 200000)
	checkFigure(ck, "performance.loaded_weight_lb", p.LoadedWeightLb, 500, 200000)
	checkFigure(ck, "performance.wing_area_sqft", p.WingAreaSqFt, 50, 5000)
	checkFigure(ck, "performance.wingspan_ft", p.WingspanFt, 10, 300)
	checkFigure(ck, "performance.dive_limit_mph", p.DiveLimitMPH, 100, 1000)
	if p.EmptyWeightLb != nil && p.LoadedWeightLb != nil && p.EmptyWeightLb.Value >= p.LoadedWeightLb.Value {
		ck.add("performance.empty_weight_lb", "the empty weight %.0f lb is not below the loaded weight %.0f lb", p.EmptyWeightLb.Value, p.LoadedWeightLb.Value)
	}
	if f.Engines.Kind == "jet" {
		checkFigure(ck, "performance.engine_thrust_lbf", p.EngineThrustLbf, 100, 50000)
		if p.EngineHP != nil {
			ck.add("performance.engine_hp", "a jet gives its thrust (engine_thrust_lbf), not horsepower")
		}
	} else {
		checkFigure(ck, "performance.engine_hp", p.EngineHP, 50, 5000)
		if p.EngineThrustLbf != nil {
			ck.add("performance.engine_thrust_lbf", "a piston engine gives its power (engine_hp), not thrust")
		}
	}
	ceiling := 0.0
	if p.CeilingFt != nil {
		ceiling = p.CeilingFt.Value
	}
	if len(p.TopSpeed) == 0 {
		ck.add("performance.top_speed", "at least one published top speed is needed")
	}
	for i, pt := range p.TopSpeed {
		path := fmt.Sprintf("performance.top_speed[%d]", i)
		if pt.MPH < 50 || pt.MPH > 1000 {
			ck.add(path+".mph", "%g mph is not a plausible top speed", pt.MPH)
		}
		if pt.AltFt < 0 || (ceiling > 0 && pt.AltFt >= ceiling) {
			ck.add(path+".alt_ft", "%g ft is not between 0 and the ceiling", pt.AltFt)
		}
		if i > 0 && pt.AltFt <= p.TopSpeed[i-1].AltFt {
			ck.add(path+".alt_ft", "the points must go up in altitude")
		}
		checkSource(ck, path+".source", pt.Source)
	}
	if p.DiveLimitMPH != nil && len(p.TopSpeed) > 0 {
		for i, pt := range p.TopSpeed {
			if pt.MPH >= p.DiveLimitMPH.Value {
				ck.add(fmt.Sprintf("performance.top_speed[%d].mph", i), "%g mph is not below the dive limit of %g mph", pt.MPH, p.DiveLimitMPH.Value)
			}
		}
	}
	if c := p.Climb; c == nil {
		ck.add("performance.climb", "missing")
	} else {
		if c.FPM <= ClimbAtCeilingFPM || c.FPM > 20000 {
			ck.add("performance.climb.fpm", "%g ft/min is not a plausible climb rate", c.FPM)
		}
		if c.AltFt < 0 || (ceiling > 0 && c.AltFt >= ceiling) {
			ck.add("performance.climb.alt_ft", "%g ft is not between 0 and the ceiling", c.AltFt)
		}
		checkSource(ck, "performance.climb.source", c.Source)
	}
}

func (f *File) checkArmament(ck *checker) {
	seen := map[string]bool{}
	for i, a := range f.Armament {
		p := fmt.Sprintf("armament[%d]", i)
		checkPosition(ck, p, seen, a.ID, a.Kind, a.Side)
		checkArcs(ck, p+".arcs", a.Kind, a.Arcs)
		if len(a.Weapons) == 0 {
			ck.add(p+".weapons", "a gun position needs at least one weapon")
		}
		for j, w := range a.Weapons {
			wp := fmt.Sprintf("%s.weapons[%d]", p, j)
			if w.Count < 1 {
				ck.add(wp+".count", "want at least 1, got %d", w.Count)
			}
			if kindIndex(w.Kind) < 0 {
				ck.add(wp+".kind", "%q is not one of %v", w.Kind, MixKinds)
			}
			if strings.TrimSpace(w.Name) == "" {
				ck.add(wp+".name", "missing")
			}
			if w.Rounds < 1 {
				ck.add(wp+".rounds", "want at least 1 round per gun, got %d", w.Rounds)
			}
			if w.RateRPM < 60 || w.RateRPM > 3000 {
				ck.add(wp+".rate_rpm", "%d rounds a minute is not a plausible rate of fire", w.RateRPM)
			}
		}
		checkSource(ck, p+".source", a.Source)
	}
}
