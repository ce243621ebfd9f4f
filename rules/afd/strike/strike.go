// Package strike holds the air-to-ground and ground-to-air tables of seed 002 (written for Mustangs,
// whose altitude levels run 0 to 6 and whose dice are d10), as Sortie reads them for Air Force games
// (docs/rulings.md: air to ground): bombing of the three kinds and rockets on the standard bombing
// table, the house scatter rule, target damage from attack and defence values, strafing, light, heavy
// and naval flak, and torpedoes. The functions are pure: the dice are given, and the game module
// decides who rolls them and when.
package strike

import (
	"fmt"
	"math"
)

// Level is seed 002's altitude level of an Air Force altitude in feet (docs/rulings.md: 0 below 500 ft,
// 1 to 2,900, 2 to 6,900, 3 to 11,900, 4 to 17,900, 5 to 24,900, 6 from 25,000).
func Level(ft int) int {
	switch {
	case ft < 500:
		return 0
	case ft < 3000:
		return 1
	case ft < 7000:
		return 2
	case ft < 12000:
		return 3
	case ft < 18000:
		return 4
	case ft < 25000:
		return 5
	}
	return 6
}

// Result is a bombing or rocket attack's result on the standard bombing table.
type Result int

const (
	Scatter Result = iota
	NearMiss
	OnTarget
	DirectHit
)

var resultNames = [...]string{"scatter", "near miss", "on target", "direct hit"}

func (r Result) String() string { return resultNames[r] }

// bombingTable holds, per altitude level, the least modified d10 for a direct hit, on target and a
// near miss; anything lower scatters (seed 002, standard bombing table; the damaged signs read as
// "at least" and "at most", docs/rulings.md).
var bombingTable = [7][3]int{
	0: {10, 6, 3},
	1: {10, 5, 3},
	2: {11, 7, 3},
	3: {11, 8, 4},
	4: {12, 9, 4},
	5: {13, 10, 5},
	6: {13, 10, 6},
}

// Bomb reads the standard bombing table: the modified roll at the bomber's altitude level.
func Bomb(level, modified int) Result {
	row := bombingTable[max(0, min(level, 6))]
	switch {
	case modified >= row[0]:
		return DirectHit
	case modified >= row[1]:
		return OnTarget
	case modified >= row[2]:
		return NearMiss
	}
	return Scatter
}

// Crew is a crew's or pilot's quality as seed 002 names them; an Air Force game's green, regular,
// veteran and ace pilots map to Green, Regular, Experienced and Ace.
type Crew int

const (
	Green Crew = iota
	Regular
	Experienced
	Ace
)

// CrewOf maps an Air Force pilot quality to seed 002's.
func CrewOf(pilot string) Crew {
	switch pilot {
	case "green":
		return Green
	case "veteran":
		return Experienced
	case "ace":
		return Ace
	}
	return Regular
}

// Mod is one modifier applied to a roll, with the reason.
type Mod struct {
	What  string `json:"what"`
	Value int    `json:"value"`
}

// Mods is a list of modifiers.
type Mods []Mod

// Sum is the modifiers' total.
func (m Mods) Sum() int {
	n := 0
	for _, x := range m {
		n += x.Value
	}
	return n
}

func (m *Mods) add(cond bool, what string, v int) {
	if cond {
		*m = append(*m, Mod{What: what, Value: v})
	}
}

// Kind is how a plane attacks the ground.
type Kind string

const (
	LevelBombing Kind = "level"
	DiveBombing  Kind = "dive"
	GlideBombing Kind = "glide"
	Rockets      Kind = "rocket"
)

// Attack is what the modifiers of a bombing or rocket attack depend on.
type Attack struct {
	Kind Kind
	Crew Crew
	// LevelsDived is how many altitude levels the plane dived before releasing (dive and glide bombing).
	LevelsDived int
	// ChangePhase says a glide attack released at the end of its dive (the seed's change phase), which
	// alone earns the glide bomber its +1 for diving.
	ChangePhase bool
	// CrewHit: the crew, or the bombardier of a plane that has one, was hit.
	CrewHit bool
	// WingHit: at least one wing hit (a dive bomber's dive brakes).
	WingHit bool
	// WingOrFuselageHalf: more than half the wing or fuselage boxes filled.
	WingOrFuselageHalf bool
	// Crippled: more than half of one area's boxes filled (level bombing).
	Crippled bool
	// AdvancedBombsight: the card says so (level bombing).
	AdvancedBombsight bool
	// Range to the target in hexes (rockets: 1 to 3).
	Range int
}

// Modifiers are the attack's modifiers (seed 002: level, dive and glide bombing, rocket attacks).
func (a Attack) Modifiers() Mods {
	var m Mods
	green := a.Crew == Green
	switch a.Kind {
	case LevelBombing:
		m.add(a.Crew >= Experienced, "ace or experienced crew", 1)
		m.add(a.CrewHit, "bombardier (or crew) hit", -1)
		m.add(green, "green crew", -2)
		m.add(a.AdvancedBombsight, "advanced bombsight", 1)
		m.add(a.Crippled, "plane crippled", -1)
	case DiveBombing:
		m.add(a.Crew == Ace, "ace crew", 2)
		m.add(a.Crew == Experienced, "experienced crew", 1)
		m.add(green, "green crew", -2)
		m.add(a.LevelsDived >= 1 && a.LevelsDived <= 2, "dived 1-2 levels", 1)
		m.add(a.LevelsDived >= 3, "dived 3-4 levels", 2)
		m.add(a.CrewHit, "crew hit", -1)
		m.add(a.WingHit, "wing hit (dive brakes)", -1)
	case GlideBombing:
		m.add(a.Crew >= Experienced, "ace or experienced crew", 1)
		m.add(green, "green crew", -2)
		m.add(a.WingOrFuselageHalf, "over half the wing or fuselage hit", -1)
		m.add(a.ChangePhase && a.LevelsDived >= 1 && a.LevelsDived <= 2, "dived 1-2 levels", 1)
		m.add(a.CrewHit, "crew hit", -1)
	case Rockets:
		m.add(a.Crew >= Experienced, "ace or experienced crew", 1)
		m.add(a.Range == 1, "range 1", 1)
		m.add(green, "green crew", -2)
		m.add(a.WingOrFuselageHalf, "over half the wing or fuselage hit", -1)
		m.add(a.CrewHit, "crew hit", -1)
		m.add(a.Range == 3, "range 3", -2)
	}
	return m
}

// Check says what forbids the attack, "" if nothing: rockets fly 1 to 3 hexes from altitude level 1
// or lower; only dive bombers dive-bomb.
func (a Attack) Check(level int, diveBomber bool) string {
	switch a.Kind {
	case Rockets:
		if a.Range < 1 || a.Range > 3 {
			return fmt.Sprintf("rockets are fired 1 to 3 hexes from the target, not %d", a.Range)
		}
		if level > 1 {
			return fmt.Sprintf("rockets are fired from altitude level 1 or lower (under 3,000 ft), not level %d", level)
		}
	case DiveBombing:
		if !diveBomber {
			return "only dive bombers dive-bomb"
		}
	case LevelBombing, GlideBombing:
	default:
		return fmt.Sprintf("an attack is level, dive, glide or rocket, not %q", a.Kind)
	}
	return ""
}

// Rocket reads a rocket attack: a near miss or scatter does no damage (seed 002, rocket attacks).
func Rocket(level, modified int) (Result, bool) {
	r := Bomb(level, modified)
	return r, r >= OnTarget
}

// ScatterHex is the house scatter rule (docs/rulings.md: the seed's diagram was lost): a d10 of 1 to 6
// puts the bombs in the neighbouring hex that many hexsides clockwise from the bomber's heading hexside
// (1 the hexside ahead, as the bomber faces, or the first clockwise of it when it faces a corner); 7 to
// 10 (0) keeps them in the target hex at half effect. It returns the hexside (0, 2, ... 10, bearing in
// 30° steps) and whether they land there at all.
func ScatterHex(heading, d10 int) (side int, moved bool) {
	if d10 < 1 || d10 > 6 {
		return 0, false
	}
	first := heading
	if first%2 != 0 {
		first++ // facing a corner: the hexside clockwise of it
	}
	return (first + 2*(d10-1)) % 12, true
}

// Weapon attack values (seed 002, bomb attack values).
var attackValues = map[string]int{"1000lb": 9, "500lb": 6, "250lb": 4, "rocket": 3, "torpedo": 10}

// AttackValue is a weapon's attack value: "1000lb", "500lb", "250lb", "rocket" (a salvo) or "torpedo".
func AttackValue(weapon string) (int, bool) {
	v, ok := attackValues[weapon]
	return v, ok
}

// CountMultiplier is the multiplier for several bombs (or rocket salvos) hitting one target: 2 bombs
// 1.5, 3 or 4 bombs 2, 5 or more 3 (the seed's "> 5" read as "5 or more", docs/rulings.md).
func CountMultiplier(n int) float64 {
	switch {
	case n >= 5:
		return 3
	case n >= 3:
		return 2
	case n == 2:
		return 1.5
	}
	return 1
}

// AccuracyMultiplier is the multiplier of the bombing result: direct hit 2, on target 1, near miss 0.8,
// scatter 0.5.
func AccuracyMultiplier(r Result) float64 {
	return [...]float64{0.5, 0.8, 1, 2}[r]
}

// Round is the seed's "standard rounding": a half rounds up.
func Round(x float64) int { return int(math.Floor(x + 0.5)) }

// ModifiedAttack is the attack value of n weapons of value av landing with result r, rounded.
func ModifiedAttack(av, n int, r Result) int {
	return Round(float64(av) * CountMultiplier(n) * AccuracyMultiplier(r))
}

// Secondary is the attack value on the other targets in the hex: half the primary's, rounded.
func Secondary(attack int) int { return Round(float64(attack) / 2) }

// Damage is what an attack did to a target.
type Damage int

const (
	NoDamage Damage = iota
	Light
	Heavy
	Destroyed
)

var damageNames = [...]string{"no damage", "light damage", "heavy damage", "destroyed"}

func (d Damage) String() string { return damageNames[d] }

// Defence is a target's defence value after the damage it has taken: light damage ×0.8, heavy ×0.5,
// rounded (seed 002, checking for target damage).
func Defence(dv int, prior Damage) int {
	switch prior {
	case Light:
		return Round(float64(dv) * 0.8)
	case Heavy:
		return Round(float64(dv) * 0.5)
	}
	return dv
}

// DamageOf compares the attack and defence totals (value plus d10 each): at least the defence is light
// damage, at least twice heavy, at least three times destroyed (the damaged signs read as "at least").
func DamageOf(attackTotal, defenceTotal int) Damage {
	switch {
	case attackTotal >= 3*defenceTotal:
		return Destroyed
	case attackTotal >= 2*defenceTotal:
		return Heavy
	case attackTotal >= defenceTotal:
		return Light
	}
	return NoDamage
}

// Worse is the damage a target is left with after another result.
func Worse(a, b Damage) Damage { return max(a, b) }

// Sample defence values of seed 002, used when a scenario gives none.
// Strafable says strafing can hurt a kind of target: vehicles, guns, personnel, small buildings and
// ships, not large buildings or bridges (seed 002, strafing targets). The game and `sortie calc target`
// both ask it.
func Strafable(kind string) bool {
	return kind != "large-building" && kind != "bridge"
}

// SecondaryApplies says an attack with weapon also hits the other targets in the hex at half value: every
// weapon but the torpedo (seed 002, multiple targets in a hex).
func SecondaryApplies(weapon string) bool { return weapon != "torpedo" }

var SampleDefence = map[string]int{
	"tank": 3, "truck": 2, "vehicle": 2, "gun": 4, "infantry": 4, "small-building": 5,
	"large-building": 8, "bridge": 9, "destroyer": 7,
}
