package aircraft

import "testing"

// The tests in this file check the shipped cards against the worked examples and the named types of
// seed 000 (the Air Force / Dauntless 30-degree rules): rule (29) and the combat section.

// mustCard returns a shipped card or stops the test.
func mustCard(t *testing.T, key string) *Card {
	t.Helper()
	r, err := Default()
	if err != nil {
		t.Fatalf("loading the embedded cards: %v", err)
	}
	c, ok := r.Get(key)
	if !ok {
		t.Fatalf("no card %q", key)
	}
	return c
}

// system returns the only system with this letter and side.
func system(t *testing.T, c *Card, letter, side string) System {
	t.Helper()
	var found []System
	for _, s := range c.Systems {
		if s.Letter == letter && s.Side == side {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: want one %s system on side %q, found %d", c.Key, letter, side, len(found))
	}
	return found[0]
}

// downs reports whether hits plus the red-die bonus fill the system's boxes (docs/rulings.md: damage).
func downs(s System, hits, redDie int) bool {
	bonus := 0
	switch {
	case !s.Critical:
	case redDie == 5:
		bonus = 1
	case redDie == 6:
		bonus = 2
	}
	return hits+bonus >= s.Boxes
}

// Seed 000, "Air combat procedure changes", example: an A6M2 Zero hit in C or L is shot down by a red
// 5 or 6; hit only in E, it takes a red 6. So C and L have 2 boxes and E has 3.
func TestSeed000ZeroCriticals(t *testing.T) {
	z := mustCard(t, "a6m2")
	for _, l := range []string{"C", "L"} {
		s := system(t, z, l, "")
		if s.Boxes != 2 || !s.Critical || s.Effect != EffectShotDown {
			t.Errorf("Zero %s: %d boxes, critical %v, %s; want 2, critical, shot-down", l, s.Boxes, s.Critical, s.Effect)
		}
		if !downs(s, 1, 5) || !downs(s, 1, 6) || downs(s, 1, 4) {
			t.Errorf("Zero %s: one hit must down it with a red 5 or 6 and not with a red 4", l)
		}
	}
	e := system(t, z, "E", "")
	if e.Boxes != 3 || !e.Critical || e.Effect != EffectShotDown {
		t.Errorf("Zero E: %d boxes, critical %v, %s; want 3, critical, shot-down", e.Boxes, e.Critical, e.Effect)
	}
	if !downs(e, 1, 6) || downs(e, 1, 5) {
		t.Errorf("Zero E: one hit must need the red 6 (+2) to down it")
	}
}

// Seed 000, same example: a P-40C is shot down by a red 6 on any hit to C, L or E, and a red 5 damages
// it badly without downing it. So each of C, L and E has 3 boxes.
func TestSeed000P40CCriticals(t *testing.T) {
	p := mustCard(t, "p-40c")
	for _, l := range []string{"C", "L", "E"} {
		s := system(t, p, l, "")
		if s.Boxes != 3 || !s.Critical {
			t.Errorf("P-40C %s: %d boxes, critical %v; want 3, critical", l, s.Boxes, s.Critical)
		}
		if !downs(s, 1, 6) || downs(s, 1, 5) {
			t.Errorf("P-40C %s: one hit must down it with a red 6 and not with a red 5", l)
		}
	}
}

// Seed 000, hit-location example: a Spitfire with 8x30M scores WFEE* on a He-111 with D10 5 (odd: the
// left engine) and red 5, so the left engine takes three hits and is destroyed; without the critical
// its two hits do not destroy it. The He-111 must then jettison its bombs and fly as loaded.
func TestSeed000He111LeftEngine(t *testing.T) {
	h := mustCard(t, "he-111h")
	if !h.MultiEngine() || h.Engines.Count != 2 {
		t.Fatalf("He-111: %d engines; want 2 (the ME tables)", h.Engines.Count)
	}
	for _, side := range []string{"L", "R"} {
		e := system(t, h, "E", side)
		if e.Boxes != 3 || !e.Critical || e.Effect != EffectEngineOut {
			t.Errorf("He-111 E%s: %d boxes, critical %v, %s; want 3, critical, engine-out", side, e.Boxes, e.Critical, e.Effect)
		}
	}
	left := system(t, h, "E", "L")
	if !downs(left, 2, 5) {
		t.Error("He-111: WFEE* with a red 5 must destroy the left engine")
	}
	if downs(left, 2, 3) {
		t.Error("He-111: WFEE without the critical must not destroy the left engine")
	}
	if h.Loaded == nil {
		t.Error("He-111: no loaded condition to fly in after the engine is lost")
	}
}

// Seed 000, the same example: the Spitfire fires on the 8x30M chart, so its fixed guns combine to it.
func TestSeed000SpitfireFires8x30M(t *testing.T) {
	s := mustCard(t, "spitfire-i")
	if got := s.FixedMix(); got != "8x30M" {
		t.Errorf("Spitfire I fixed guns combine to %q; want 8x30M", got)
	}
}

// Seed 000 rule (29) names the speed-loss class of these types; bombers and the P-38 are HEAVY.
func TestSeed000Rule29LossClasses(t *testing.T) {
	want := map[string]LossClass{
		"a6m2": LossLWL, "spitfire-i": LossLWL, "ki-43-i": LossLWL,
		"f4f-4": LossMWL, "hurricane-i": LossMWL, "sbd-3": LossMWL,
		"p-39d": LossP40, "p-40c": LossP40, "f6f-3": LossP40,
		"p-51d": LossP51, "bf-109e": LossP51,
		"p-47d":     LossP47,
		"fw-190a-3": LossFw190,
		"p-38j":     LossHeavy,
		"he-111h":   LossHeavy, "b-17g": LossHeavy, "b-25j": LossHeavy, "ju-88a": LossHeavy,
	}
	for key, class := range want {
		if got := mustCard(t, key).LossClass; got != class {
			t.Errorf("%s: loss class %s; seed 000 rule (29) gives %s", key, got, class)
		}
	}
	r, _ := Default()
	for _, c := range r.All() {
		if c.Role == RoleBomber && c.LossClass != LossHeavy {
			t.Errorf("%s: a bomber in class %s; rule (29) puts bombers in HEAVY", c.Key, c.LossClass)
		}
	}
}

// ): the Me-262 has no manoeuvre speed at 20,000 ft and up. It
// must have one low down.
func TestMe262ManeuverRange(t *testing.T) {
	m := mustCard(t, "me-262a")
	for _, b := range m.Bands {
		switch {
		case b.MinAlt >= 20000 && b.Maneuver != nil:
			t.Errorf("Me-262 band %d-%d: manoeuvre range %d-%d; want none at 20,000 ft and up", b.MinAlt, b.MaxAlt, b.Maneuver.Min, b.Maneuver.Max)
		case b.MinAlt == 0 && b.Maneuver == nil:
			t.Errorf("Me-262 band %d-%d: no manoeuvre range; want one low down", b.MinAlt, b.MaxAlt)
		}
	}
	if b, _ := m.BandAt(25000); b.Maneuver != nil {
		t.Error("Me-262 at 25,000 ft: has a manoeuvre range")
	}
}
