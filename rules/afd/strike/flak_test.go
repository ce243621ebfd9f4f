package strike

import "testing"

// Seed 002, strafing: the modifiers, the reach (altitude 0-1, range 1-2) and ships (whole-ship defence
// doubled, armoured ships out of reach).
func TestStrafing(t *testing.T) {
	cases := []struct {
		s    Strafe
		want int
	}{
		{Strafe{GunFactor: 5, Crew: Regular, Level: 0, Range: 1}, 5},
		{Strafe{GunFactor: 5, Crew: Regular, Level: 1, Range: 1}, 4},
		{Strafe{GunFactor: 5, Crew: Regular, Level: 0, Range: 2}, 3},
		{Strafe{GunFactor: 5, Crew: Green, Level: 0, Range: 1}, 3},
		{Strafe{GunFactor: 5, Crew: Ace, Level: 0, Range: 1}, 7},
		{Strafe{GunFactor: 5, Crew: Experienced, Level: 0, Range: 1}, 6},
		{Strafe{GunFactor: 5, Crew: Regular, Level: 0, Range: 1, GroundAttack: true}, 9},
	}
	for _, c := range cases {
		if got := c.s.Attack(); got != c.want {
			t.Errorf("%+v: %d, want %d", c.s, got, c.want)
		}
	}
	if (Strafe{Level: 2, Range: 1}).Check() == "" || (Strafe{Level: 0, Range: 3}).Check() == "" || (Strafe{Level: 0, Range: 0}).Check() == "" {
		t.Error("strafing out of reach must be refused")
	}
	if d, ok := StrafedShipDefence(7, false); !ok || d != 14 {
		t.Errorf("a strafed destroyer: %d", d)
	}
	if _, ok := StrafedShipDefence(20, true); ok {
		t.Error("strafing cannot hurt a battleship")
	}
}

// Seed 002, light and medium flak: the German quad 20 mm is 4 (its example), the modifiers and reach.
func TestLightFlak(t *testing.T) {
	v, err := LightFlakValue([]Barrels{{Calibre: "20mm", Count: 4}})
	if err != nil || v != 4 {
		t.Fatalf("quad 20 mm: %v %v", v, err)
	}
	if v, _ := LightFlakValue([]Barrels{{"small-arms", 3}, {".30", 2}, {".50", 2}, {"30mm", 1}, {"40mm", 1}}); v != 5.3 {
		t.Errorf("mixed barrels: %v, want 0.3 + 0.5 + 1 + 1.5 + 2 = 5.3", v)
	}
	if _, err := LightFlakValue([]Barrels{{"88mm", 1}}); err == nil {
		t.Error("88 mm is heavy flak")
	}
	for _, c := range []struct {
		f    LightFlak
		want int
	}{
		{LightFlak{Level: 2, Range: 1}, -2}, {LightFlak{Level: 1, Range: 2}, -2}, {LightFlak{Level: 0, Range: 1}, 1},
		{LightFlak{Level: 1, Range: 1, FrontRear: true}, 1}, {LightFlak{Level: 1, Range: 1, Damaged: true}, -3},
	} {
		if got := c.f.Modifiers().Sum(); got != c.want {
			t.Errorf("%+v: %+d, want %+d", c.f, got, c.want)
		}
	}
	if (LightFlak{Level: 3}).Check() == "" || (LightFlak{Level: 1, Range: 3}).Check() == "" {
		t.Error("light flak reaches level 2 and 2 hexes")
	}
}

// Seed 002, heavy flak: values by calibre, the ceiling of guns under 90 mm, +50 % for every 5 guns, the
// splash around the aimed hex and level, every other impulse, up to 4 hexes.
func TestHeavyFlak(t *testing.T) {
	for _, c := range []struct{ mm, aimed, splash, ceiling int }{{75, 3, 1, 5}, {88, 4, 2, 5}, {90, 4, 2, 6}, {105, 6, 3, 6}} {
		a, s, ceil, err := HeavyFlakValues(c.mm)
		if err != nil || a != c.aimed || s != c.splash || ceil != c.ceiling {
			t.Errorf("%d mm: %d/%d to level %d %v", c.mm, a, s, ceil, err)
		}
	}
	if a, s, _, _ := HeavyFlak(88, 5); a != 6 || s != 3 {
		t.Errorf("five 88 mm guns: %d/%d, want 6/3", a, s)
	}
	if a, s, _, _ := HeavyFlak(88, 10); a != 8 || s != 4 {
		t.Errorf("ten 88 mm guns: %d/%d, want 8/4", a, s)
	}
	if HeavyAt(6, 3, 0, 4, 4) != 6 || HeavyAt(6, 3, 1, 4, 4) != 3 || HeavyAt(6, 3, 0, 4, 5) != 3 || HeavyAt(6, 3, 1, 4, 5) != 0 || HeavyAt(6, 3, 2, 4, 4) != 0 {
		t.Error("heavy flak's aimed and splash values")
	}
	if !HeavyFlakReaches(5, 4, 5, 2) || HeavyFlakReaches(6, 1, 5, 2) || HeavyFlakReaches(1, 1, 6, 2) || HeavyFlakReaches(4, 5, 6, 2) || HeavyFlakReaches(4, 1, 6, 3) {
		t.Error("heavy flak reaches levels 2 to its ceiling, 4 hexes, every other impulse")
	}
}

// Seed 002, naval flak: its destroyer example (8 × 20 mm, 6 × 40 mm, five 127 mm dual-purpose guns) is
// light 5 with one attack a side, heavy 9/4 with one attack; damage cuts it down.
func TestNavalFlakExample(t *testing.T) {
	n, err := Naval(Destroyer, []Barrels{{"20mm", 8}, {"40mm", 6}}, 127, 5)
	if err != nil {
		t.Fatal(err)
	}
	if n.Light != 5 || n.LightPerSide != 1 || n.HeavyAimed != 9 || n.HeavySplash != 4 || n.HeavyAttacks != 1 {
		t.Errorf("the seed's destroyer: %+v", n)
	}
	bb, _ := Naval(Battleship, []Barrels{{"40mm", 40}}, 127, 10)
	if bb.LightPerSide != 3 || bb.HeavyAttacks != 3 || bb.Light != 20 {
		t.Errorf("a battleship: %+v", bb)
	}
	if other, _ := Naval(OtherShip, []Barrels{{".50", 4}}, 0, 0); other.LightTotal != 1 || other.HeavyAttacks != 0 || other.Light != 0 {
		t.Errorf("a small ship: %+v", other)
	}
	light, mod, ok := bb.Damaged(Light)
	if !ok || !mod || light.HeavyAttacks != 2 || light.LightPerSide != 3 {
		t.Errorf("light damage: %+v %v", light, mod)
	}
	heavy, _, _ := bb.Damaged(Heavy)
	if heavy.HeavyAttacks != 0 || heavy.LightPerSide != 1 {
		t.Errorf("heavy damage: %+v", heavy)
	}
	if _, _, ok := bb.Damaged(Destroyed); ok {
		t.Error("a sunk ship fires nothing")
	}
	if _, err := Naval("raft", nil, 0, 0); err == nil {
		t.Error("an unknown ship size")
	}
}

// Seed 002, torpedoes: the drop conditions, the launch table (4 or more runs), the hit roll (7 or more)
// with its modifiers, the side hit as a direct hit and the torpedo bulge.
func TestTorpedoes(t *testing.T) {
	ok := Torpedo{TorpedoBomber: true, Level: 0, Speed: 2, Range: 3}
	if p := ok.Check(); p != "" {
		t.Errorf("a good drop: %q", p)
	}
	for _, bad := range []Torpedo{{Level: 0, Speed: 2, Range: 3}, {TorpedoBomber: true, Level: 1, Speed: 2, Range: 3},
		{TorpedoBomber: true, Speed: 3, Range: 3}, {TorpedoBomber: true, Speed: 2, Range: 5}} {
		if bad.Check() == "" {
			t.Errorf("%+v must be refused", bad)
		}
	}
	if (Torpedo{Crew: Ace}).Modifiers().Sum() != 2 || (Torpedo{Crew: Green, Crippled: true, USBefore1943: true}).Modifiers().Sum() != -5 {
		t.Error("drop modifiers")
	}
	if Runs(3) || !Runs(4) {
		t.Error("the launch table: 1-3 fail, 4 and up run")
	}
	if Hits(6) || !Hits(7) {
		t.Error("a torpedo hits on 7 or more")
	}
	if (TorpedoHit{Size: "large", BowAndSide: true}).Modifiers().Sum() != 6 || (TorpedoHit{Size: "very-small", BowStern: true, SlowTorpedo: true}).Modifiers().Sum() != -6 ||
		(TorpedoHit{Size: "small"}).Modifiers().Sum() != -1 {
		t.Error("hit modifiers")
	}
	if TorpedoResult(false) != DirectHit || TorpedoResult(true) != OnTarget {
		t.Error("side hits are direct hits, bow and stern hits on target")
	}
	if SideDefence(7, false, 0) != 4 || SideDefence(7, true, 0) != 7 || SideDefence(7, true, 1) != 4 {
		t.Error("a side hit halves the defence (up), but not a bulged side's first")
	}
}

// TestFlakOnPlanes: flak's total against the plane's (house reading of seed 002's "standard air-to-air
// combat" for Air Force cards): no hit unless the attack beats the defence, then 1 to 4 hits by margin;
// a multi-engine plane defends with 7, a single-engine one with 6.
func TestFlakOnPlanes(t *testing.T) {
	for _, c := range []struct{ a, d, hits int }{{5, 5, 0}, {4, 5, 0}, {6, 5, 1}, {9, 5, 1}, {10, 5, 2}, {13, 5, 2}, {14, 5, 3}, {17, 5, 3}, {18, 5, 4}, {30, 5, 4}} {
		if got := FlakHits(c.a, c.d); got != c.hits {
			t.Errorf("attack %d against %d: %d hits, want %d", c.a, c.d, got, c.hits)
		}
	}
	if PlaneDefence(true) != 7 || PlaneDefence(false) != 6 {
		t.Error("plane defence values")
	}
}

// TestLandFlakValue (seed 002, light/medium flak): the seed's quad 20 mm is 4; barrels of several
// calibres add up, and the total rounds half up with at least 1 for any barrel.
func TestLandFlakValue(t *testing.T) {
	for text, want := range map[string]int{"4x20mm": 4, "2x40mm, 4x20mm": 8, "1x.30": 1, "6x.30": 2, "3x.50+1x30mm": 3} {
		bs, err := ParseBarrels(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if v, _ := LandLight(bs); v != want {
			t.Errorf("%q: %d, want %d", text, v, want)
		}
	}
	for _, bad := range []string{"4x21mm", "x20mm", "0x20mm", "4*20mm"} {
		if _, err := ParseBarrels(bad); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}
