package strike

import (
	"strings"
	"testing"
)

// Altitude levels of an Air Force game (seed 002's levels 0-6, the mapping of docs/rulings.md).
func TestLevel(t *testing.T) {
	for ft, want := range map[int]int{0: 0, 499: 0, 500: 1, 2900: 1, 3000: 2, 6900: 2, 7000: 3, 11900: 3, 12000: 4, 17900: 4, 18000: 5, 24900: 5, 25000: 6, 40000: 6} {
		if got := Level(ft); got != want {
			t.Errorf("%d ft: level %d, want %d", ft, got, want)
		}
	}
}

// Seed 002, standard bombing table, every row at its edges: direct hit from the first figure, on
// target, near miss, and scatter at or below the last.
func TestStandardBombingTable(t *testing.T) {
	rows := []struct{ level, dh, ot, nm, sc int }{
		{0, 10, 6, 3, 2}, {1, 10, 5, 3, 2}, {2, 11, 7, 3, 2}, {3, 11, 8, 4, 3},
		{4, 12, 9, 4, 3}, {5, 13, 10, 5, 4}, {6, 13, 10, 6, 5},
	}
	for _, r := range rows {
		checks := map[int]Result{r.dh: DirectHit, r.dh + 5: DirectHit, r.dh - 1: OnTarget, r.ot: OnTarget, r.ot - 1: NearMiss, r.nm: NearMiss, r.nm - 1: Scatter, r.sc: Scatter, -3: Scatter}
		for roll, want := range checks {
			if got := Bomb(r.level, roll); got != want {
				t.Errorf("level %d, modified roll %d: %s, want %s", r.level, roll, got, want)
			}
		}
	}
}

func sum(a Attack) int { return a.Modifiers().Sum() }

// Seed 002's modifiers for level, dive and glide bombing and rocket attacks, each one alone.
func TestAttackModifiers(t *testing.T) {
	cases := []struct {
		a    Attack
		want int
	}{
		{Attack{Kind: LevelBombing, Crew: Ace}, 1}, {Attack{Kind: LevelBombing, Crew: Experienced}, 1},
		{Attack{Kind: LevelBombing, Crew: Green}, -2}, {Attack{Kind: LevelBombing, Crew: Regular, CrewHit: true}, -1},
		{Attack{Kind: LevelBombing, Crew: Regular, AdvancedBombsight: true}, 1}, {Attack{Kind: LevelBombing, Crew: Regular, Crippled: true}, -1},
		{Attack{Kind: DiveBombing, Crew: Ace}, 2}, {Attack{Kind: DiveBombing, Crew: Experienced}, 1}, {Attack{Kind: DiveBombing, Crew: Green}, -2},
		{Attack{Kind: DiveBombing, Crew: Regular, LevelsDived: 2}, 1}, {Attack{Kind: DiveBombing, Crew: Regular, LevelsDived: 3}, 2},
		{Attack{Kind: DiveBombing, Crew: Regular, CrewHit: true}, -1}, {Attack{Kind: DiveBombing, Crew: Regular, WingHit: true}, -1},
		{Attack{Kind: GlideBombing, Crew: Experienced}, 1}, {Attack{Kind: GlideBombing, Crew: Green}, -2},
		{Attack{Kind: GlideBombing, Crew: Regular, WingOrFuselageHalf: true}, -1},
		{Attack{Kind: GlideBombing, Crew: Regular, LevelsDived: 1}, 0}, {Attack{Kind: GlideBombing, Crew: Regular, LevelsDived: 1, ChangePhase: true}, 1},
		{Attack{Kind: GlideBombing, Crew: Regular, CrewHit: true}, -1},
		{Attack{Kind: Rockets, Crew: Ace, Range: 2}, 1}, {Attack{Kind: Rockets, Crew: Regular, Range: 1}, 1}, {Attack{Kind: Rockets, Crew: Regular, Range: 3}, -2},
		{Attack{Kind: Rockets, Crew: Green, Range: 2}, -2}, {Attack{Kind: Rockets, Crew: Regular, Range: 2, WingOrFuselageHalf: true, CrewHit: true}, -2},
	}
	for _, c := range cases {
		if got := sum(c.a); got != c.want {
			t.Errorf("%+v: %+d, want %+d (%v)", c.a, got, c.want, c.a.Modifiers())
		}
	}
}

// Rockets: 1 to 3 hexes from level 1 or lower; a near miss or scatter does no damage. Only dive
// bombers dive-bomb.
func TestAttackChecks(t *testing.T) {
	if p := (Attack{Kind: Rockets, Range: 4}).Check(1, false); !strings.Contains(p, "1 to 3") {
		t.Errorf("rockets at 4 hexes: %q", p)
	}
	if p := (Attack{Kind: Rockets, Range: 2}).Check(2, false); !strings.Contains(p, "level 1 or lower") {
		t.Errorf("rockets from level 2: %q", p)
	}
	if p := (Attack{Kind: DiveBombing}).Check(3, false); p == "" {
		t.Error("a plane that is no dive bomber dive-bombed")
	}
	if _, dmg := Rocket(0, 4); dmg {
		t.Error("a rocket near miss did damage")
	}
	if r, dmg := Rocket(0, 7); !dmg || r != OnTarget {
		t.Errorf("a rocket on target: %s %v", r, dmg)
	}
}

// The house scatter rule: 1-6 the neighbouring hexes clockwise from the heading, 7-10 the target hex at
// half effect.
func TestScatterHex(t *testing.T) {
	for d10, want := range map[int]int{1: 2, 2: 4, 6: 0} {
		if side, moved := ScatterHex(2, d10); !moved || side != want {
			t.Errorf("heading 2, d10 %d: hexside %d %v, want %d", d10, side, moved, want)
		}
	}
	if side, _ := ScatterHex(3, 1); side != 4 {
		t.Errorf("heading at a corner: the first hexside clockwise, got %d", side)
	}
	for _, d10 := range []int{7, 8, 9, 10} {
		if _, moved := ScatterHex(0, d10); moved {
			t.Errorf("d10 %d stays in the target hex", d10)
		}
	}
}

// Seed 002: attack values, the multiple-bomb and accuracy multipliers, standard rounding.
func TestAttackValues(t *testing.T) {
	for w, want := range map[string]int{"1000lb": 9, "500lb": 6, "250lb": 4, "rocket": 3, "torpedo": 10} {
		if v, ok := AttackValue(w); !ok || v != want {
			t.Errorf("%s: %d", w, v)
		}
	}
	for n, want := range map[int]float64{1: 1, 2: 1.5, 3: 2, 4: 2, 5: 3, 8: 3} {
		if got := CountMultiplier(n); got != want {
			t.Errorf("%d bombs: ×%v, want ×%v", n, got, want)
		}
	}
	// Two 500 lb bombs on target: 6 × 1.5 × 1 = 9; a direct hit 18; a near miss 7.2 → 7; scatter 4.5 → 5.
	for r, want := range map[Result]int{DirectHit: 18, OnTarget: 9, NearMiss: 7, Scatter: 5} {
		if got := ModifiedAttack(6, 2, r); got != want {
			t.Errorf("two 500 lb bombs, %s: %d, want %d", r, got, want)
		}
	}
	if Secondary(9) != 5 {
		t.Errorf("other targets in the hex take half, rounded: %d", Secondary(9))
	}
}

// Seed 002: the damage ladder (at least the defence: light; twice: heavy; three times: destroyed) and
// the defence of a target already damaged (light ×0.8, heavy ×0.5).
func TestDamageLadder(t *testing.T) {
	cases := []struct {
		a, d int
		want Damage
	}{{9, 10, NoDamage}, {10, 10, Light}, {19, 10, Light}, {20, 10, Heavy}, {29, 10, Heavy}, {30, 10, Destroyed}}
	for _, c := range cases {
		if got := DamageOf(c.a, c.d); got != c.want {
			t.Errorf("attack %d against defence %d: %s, want %s", c.a, c.d, got, c.want)
		}
	}
	if Defence(9, Light) != 7 || Defence(9, Heavy) != 5 || Defence(9, NoDamage) != 9 {
		t.Errorf("a bridge's defence after damage: %d %d", Defence(9, Light), Defence(9, Heavy))
	}
	if SampleDefence["bridge"] != 9 || SampleDefence["truck"] != 2 || SampleDefence["destroyer"] != 7 {
		t.Error("the seed's sample defence values")
	}
}
