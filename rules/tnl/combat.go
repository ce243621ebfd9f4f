package tnl

import (
	hexmap "sortie/rules/hex"
)

// Effect is an aircraft's state on its damage ladder (seed 003, "Effects of Hits" and "Multiple Hit
// Aircraft"): fly-straight rating +1, speed -2/-2, destroyed.
type Effect struct {
	FS        bool `json:"fs"`
	SP        bool `json:"sp"`
	Destroyed bool `json:"destroyed"`
}

// ladder lists, for aircraft destroyed by 2 to 5 hits, the hit that raises the fly-straight rating and
// the hit that cuts the speed; the last hit destroys.
var ladder = map[int][2]int{
	2: {1, 1}, // the first hit does both
	3: {1, 2},
	4: {2, 3}, // the first hit has no effect
	5: {3, 4}, // nor the first two
}

// Effects is the state of an aircraft that is destroyed by capacity hits and has suffered hits.
func Effects(capacity, hits int) Effect {
	l, ok := ladder[capacity]
	if !ok {
		l = ladder[2]
	}
	return Effect{FS: hits >= l[0], SP: hits >= l[1], Destroyed: hits >= capacity}
}

// HitText says what the n-th hit on an aircraft destroyed by capacity hits does.
func HitText(capacity, n int) string {
	before, after := Effects(capacity, n-1), Effects(capacity, n)
	switch {
	case after.Destroyed:
		return "destroyed"
	case after.FS && !before.FS && after.SP && !before.SP:
		return "fly-straight +1 and speed -2/-2"
	case after.FS && !before.FS:
		return "fly-straight +1"
	case after.SP && !before.SP:
		return "speed -2/-2"
	}
	return "no effect"
}

// ToHit is what changes the score an attacking die needs (seed 003, "Combat", "Training & Skill",
// "Automated Gun sights").
type ToHit struct {
	Range    int    // hexes; the same hex counts as 1
	Inverted bool   // the firer is inverted: -1 to the die
	Pivot    bool   // a single machine gun on a pivot mount: -1
	Training string // very-green and poor: -1
	Aim      bool   // the +1 to hit skill
	Gunsight string // gyro +1, radar +2
}

// Need is the score a die needs: the range plus one, each -1 to the die one more, each +1 one less.
// A 1 never hits (Sortie's reading: the seed's scores run from 2 up).
func (t ToHit) Need() int {
	need := max(t.Range, 1) + 1
	if t.Inverted {
		need++
	}
	if t.Pivot {
		need++
	}
	if t.Training == "very-green" || t.Training == "poor" {
		need++
	}
	if t.Aim {
		need--
	}
	switch t.Gunsight {
	case "gyro":
		need--
	case "radar":
		need -= 2
	}
	return max(need, 2)
}

// Hits reports whether a die scores a hit against need.
func Hits(die, need int) bool { return die >= need }

// Save is what a saving roll against one hit needs (seed 003, "Saving Roll"): the roll, with the hit's
// colour modifier (red -1, green -2, blue -3), +1 for the lucky skill of the pilot hit and -1 for the
// deadly skill of the pilot who hit, must reach the saving roll.
type Save struct {
	SR     int
	Colour Colour
	Lucky  bool
	Deadly bool
}

// Mod is the total modifier to the roll.
func (s Save) Mod() int {
	m := s.Colour.SaveMod()
	if s.Lucky {
		m++
	}
	if s.Deadly {
		m--
	}
	return m
}

// Saved reports whether a roll saves the hit.
func (s Save) Saved(die int) bool { return die+s.Mod() >= s.SR }

// InForwardArc reports whether hex b lies where an aircraft in hex a facing d can bring its fixed guns
// to bear: the same hex, or at 11, 12 or 1 o'clock (Sortie's reading; the seed puts a shooter "behind"
// its target without drawing an arc).
func InForwardArc(a hexmap.Hex, d hexmap.Dir, b hexmap.Hex) bool {
	switch hexmap.Clock(a, d, b) {
	case 0, 11, 12, 1:
		return true
	}
	return false
}

// AAClass is a class of anti-aircraft gun (seed 003, "Anti Aircraft Guns").
type AAClass struct {
	Name     string
	Range    int    // hexes; 0 is the whole table
	Ceiling  Level  // the highest level it reaches
	Colour   Colour // its dice
	PerDie   int    // guns to a die
	EachTurn bool   // fires once a turn (heavy) rather than in each combat phase
}

// AAClasses are the four classes, heaviest first.
var AAClasses = []AAClass{
	{Name: "heavy", Range: 0, Ceiling: Medium, Colour: Blue, PerDie: 1, EachTurn: true},
	{Name: "medium", Range: 20, Ceiling: Low, Colour: Green, PerDie: 2},
	{Name: "light", Range: 10, Ceiling: Low, Colour: Red, PerDie: 4},
	{Name: "very light", Range: 6, Ceiling: VeryLow, Colour: White, PerDie: 4},
}

// Guns is the number of guns of a class.
func (a AA) Guns(class string) int {
	switch class {
	case "heavy":
		return a.Heavy
	case "medium":
		return a.Medium
	case "light":
		return a.Light
	case "very light":
		return a.VeryLight
	}
	return 0
}

// Dice is the dice a number of guns of the class rolls: one per PerDie guns, a part counting as a whole
// (Sortie's reading: a lone 40 mm still fires).
func (c AAClass) Dice(guns int) int { return (guns + c.PerDie - 1) / c.PerDie }

// AANeed is the score an AA die needs: 6, or 5 for radar-controlled guns (seed 003).
func AANeed(radar bool) int {
	if radar {
		return 5
	}
	return 6
}

// ShipArc is the share of a ship's AA dice that bear on an aircraft at a clock position from it (seed
// 003's note on ships): all from directly above (the same hex), half on either beam (2 to 4 and 8 to 10
// o'clock), a quarter ahead (11 to 1) and astern (5 to 7). The share of n dice is rounded to the nearest
// die, a half up.
func ShipArc(clock, n int) (int, string) {
	switch clock {
	case 0:
		return n, "overhead"
	case 11, 12, 1:
		return (n + 2) / 4, "bow"
	case 5, 6, 7:
		return (n + 2) / 4, "stern"
	}
	return (n + 1) / 2, "beam"
}

// DiveBomb is a dive-bombing attack (seed 003, "Dive Bombing"): released at Low needs 5, at Very Low 4;
// -2 when the bomber attacks side on (across the ship's length), -1 when an enemy fighter chases it.
type DiveBomb struct {
	Level  Level
	SideOn bool
	Chased bool
}

// Need is the score the die needs before modifiers; Mod the modifiers.
func (b DiveBomb) Need() int {
	if b.Level == VeryLow {
		return 4
	}
	return 5
}

// Mod is the total modifier.
func (b DiveBomb) Mod() int {
	m := 0
	if b.SideOn {
		m -= 2
	}
	if b.Chased {
		m--
	}
	return m
}

// BombPoints is the damage a bomb does: 25 for 1000 lb, 15 for 500 lb (seed 003).
func BombPoints(load string) int {
	if load == "1000lb" {
		return 25
	}
	return 15
}

// TorpedoPoints is the damage a torpedo does (seed 003).
const TorpedoPoints = 30

// Torpedo is a torpedo attack (seed 003, "Torpedo Bombing").
type Torpedo struct {
	Range  int
	Clock  int  // where the aircraft is, seen from the ship: 12 is dead ahead of it
	Chased bool // an enemy fighter chases the aircraft
	Both   bool // the ship is attacked from both sides in the same phase
}

// Need is the score by range (5 to 20 hexes), or 0 outside the launch range.
func (t Torpedo) Need() int {
	switch {
	case t.Range < 5 || t.Range > 20:
		return 0
	case t.Range >= 17:
		return 6
	case t.Range >= 13:
		return 5
	case t.Range >= 9:
		return 4
	}
	return 3
}

// Aspect names the attack's angle on the ship and its modifier: bow or stern attack -3 (at 12 or 6
// o'clock from the ship), bow side on -1 (1, 2, 10, 11), stern side on -2 (4, 5, 7, 8), beam 0 (3, 9) —
// Sortie's reading of the seed's three angles on a twelve-point clock.
func (t Torpedo) Aspect() (string, int) {
	switch t.Clock {
	case 12, 6, 0:
		return "bow/stern attack", -3
	case 1, 2, 10, 11:
		return "bow side on", -1
	case 4, 5, 7, 8:
		return "stern side on", -2
	}
	return "beam", 0
}

// Mod is the total modifier.
func (t Torpedo) Mod() int {
	_, m := t.Aspect()
	if t.Chased {
		m--
	}
	if t.Both {
		m++
	}
	return m
}

// Side is the ship's side the aircraft attacks from: "port" (7 to 11 o'clock), "starboard" (1 to 5) or
// "" (dead ahead or astern).
func (t Torpedo) Side() string {
	switch {
	case t.Clock >= 1 && t.Clock <= 5:
		return "starboard"
	case t.Clock >= 7 && t.Clock <= 11:
		return "port"
	}
	return ""
}
