package strike

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Strafe is what a strafing attack's value depends on (seed 002, strafing targets).
type Strafe struct {
	GunFactor    int // the plane's gun factor
	Crew         Crew
	Level        int // the plane's altitude level: 0 or 1
	Range        int // 1 or 2 (not the plane's own hex)
	GroundAttack bool
}

// Modifiers are a strafing attack's modifiers.
func (s Strafe) Modifiers() Mods {
	var m Mods
	m.add(s.Level == 1, "altitude 1", -1)
	m.add(s.Range == 2, "range 2", -2)
	m.add(s.Crew == Green, "green pilot", -2)
	m.add(s.Crew == Ace, "ace pilot", 2)
	m.add(s.Crew == Experienced, "experienced pilot", 1)
	m.add(s.GroundAttack, "ground-attack aircraft", 4)
	return m
}

// Check says what forbids the strafing attack, "" if nothing.
func (s Strafe) Check() string {
	switch {
	case s.Level > 1:
		return fmt.Sprintf("strafing is done from altitude level 0 or 1 (under 3,000 ft), not level %d", s.Level)
	case s.Range < 1 || s.Range > 2:
		return fmt.Sprintf("strafing reaches 1 or 2 hexes, not %d (and not the plane's own hex)", s.Range)
	}
	return ""
}

// Attack is the strafing attack value: gun factor plus modifiers.
func (s Strafe) Attack() int { return s.GunFactor + s.Modifiers().Sum() }

// StrafedShipDefence is a ship's defence against strafing of the whole ship: doubled; armoured ships
// (battleships) cannot be hurt by strafing at all (ok false).
func StrafedShipDefence(dv int, armoured bool) (int, bool) {
	if armoured {
		return 0, false
	}
	return 2 * dv, true
}

// Calibre values of light and medium flak, a barrel each (seed 002): small arms, .30 and .50 calibre,
// 20, 30 and 40 mm.
var calibreValues = map[string]float64{"small-arms": 0.1, ".30": 0.25, ".50": 0.5, "20mm": 1.0, "30mm": 1.5, "40mm": 2.0}

// CalibreValue is a light or medium flak weapon's value per barrel.
func CalibreValue(calibre string) (float64, bool) {
	v, ok := calibreValues[calibre]
	return v, ok
}

// Barrels is a group of flak barrels of one calibre.
type Barrels struct {
	Calibre string `json:"calibre" yaml:"calibre"`
	Count   int    `json:"count" yaml:"count"`
}

// LightFlakValue is the attack value of light and medium flak barrels: barrels times their calibre's
// value, summed (a German quad 20 mm: 4 × 1.0 = 4). It is kept to a tenth.
func LightFlakValue(bs []Barrels) (float64, error) {
	v := 0.0
	for _, b := range bs {
		c, ok := CalibreValue(b.Calibre)
		if !ok {
			return 0, fmt.Errorf("light flak calibre %q: small-arms, .30, .50, 20mm, 30mm or 40mm", b.Calibre)
		}
		v += float64(b.Count) * c
	}
	return math.Round(v*10) / 10, nil
}

// LightFlak is what a light or medium flak attack's modifiers depend on.
type LightFlak struct {
	Level      int  // the target plane's altitude level: 0 to 2
	Range      int  // 0 (same hex) to 2
	FrontRear  bool // firing straight at the plane's front or rear
	Damaged    bool // the flak unit has light damage
	ShipDamage bool // a ship's flak after the ship took light damage (the same modifier)
}

// Modifiers are a light or medium flak attack's modifiers (seed 002).
func (f LightFlak) Modifiers() Mods {
	var m Mods
	m.add(f.Level == 2, "firing at altitude 2", -2)
	m.add(f.Range == 2, "firing at range 2", -2)
	m.add(f.Level == 0, "firing at altitude 0", 1)
	m.add(f.FrontRear, "firing at the front or rear", 1)
	m.add(f.Damaged || f.ShipDamage, "flak lightly damaged", -3)
	return m
}

// Check says why light flak cannot fire, "" if it can: up to altitude 2 and 2 hexes.
func (f LightFlak) Check() string {
	switch {
	case f.Level > 2:
		return fmt.Sprintf("light and medium flak reaches altitude level 2 (6,900 ft), not level %d", f.Level)
	case f.Range > 2:
		return fmt.Sprintf("light and medium flak reaches 2 hexes, not %d", f.Range)
	}
	return ""
}

// HeavyFlakValues is a heavy gun's attack value in its aimed hex and at one hex or one level off
// (seed 002: 50-76 mm 3/1, 77-90 mm 4/2, over 90 mm 6/3), and the highest level it reaches (guns
// under 90 mm reach level 5, the rest 6).
func HeavyFlakValues(mm int) (aimed, splash, ceiling int, err error) {
	switch {
	case mm >= 50 && mm <= 76:
		return 3, 1, 5, nil
	case mm >= 77 && mm < 90:
		return 4, 2, 5, nil
	case mm == 90:
		return 4, 2, 6, nil
	case mm > 90:
		return 6, 3, 6, nil
	}
	return 0, 0, 0, fmt.Errorf("heavy flak is 50 mm or more, not %d mm", mm)
}

// HeavyFlak is the attack value of guns of one calibre in one hex: +50 % for every 5 guns, rounded
// down (seed 002; the naval example's 5 guns of 127 mm give 9/4).
func HeavyFlak(mm, guns int) (aimed, splash, ceiling int, err error) {
	a, s, c, err := HeavyFlakValues(mm)
	if err != nil {
		return 0, 0, 0, err
	}
	if guns < 1 {
		return 0, 0, 0, fmt.Errorf("heavy flak needs at least one gun")
	}
	m := 1 + 0.5*float64(guns/5)
	return int(float64(a) * m), int(float64(s) * m), c, nil
}

// HeavyFlakReaches says whether heavy flak reaches a plane: levels 2 up to the gun's ceiling, up to 4
// hexes, and only every other impulse (the even ones, Sortie's reading).
func HeavyFlakReaches(level, rangeHexes, ceiling, impulse int) bool {
	return HeavyFlakCheck(level, rangeHexes, ceiling) == "" && impulse%2 == 0
}

// HeavyFlakCheck says why heavy flak whose ceiling is ceiling cannot reach a plane at level, rangeHexes
// away, or "" when it can: it fires at levels 2 up to its ceiling and at most 4 hexes (seed 002, heavy
// flak). The game and `sortie calc flak` both ask it.
func HeavyFlakCheck(level, rangeHexes, ceiling int) string {
	switch {
	case level < 2:
		return fmt.Sprintf("heavy flak fires at level 2 and above; the plane is at level %d", level)
	case level > ceiling:
		return fmt.Sprintf("this heavy flak reaches up to level %d; the plane is at level %d", ceiling, level)
	case rangeHexes > 4:
		return fmt.Sprintf("heavy flak reaches 4 hexes; the plane is %d away", rangeHexes)
	}
	return ""
}

// HeavyAt is the heavy flak value a plane at (planeHex, planeLevel) takes from guns aimed at (aimHex,
// aimLevel): the aimed value in that hex and level; the splash value in a neighbouring hex at that
// level, or in that hex one level above or below; nothing elsewhere (seed 002, heavy flak). dist is
// the distance between the plane's hex and the aimed one.
func HeavyAt(aimed, splash, dist, aimLevel, planeLevel int) int {
	switch {
	case dist == 0 && planeLevel == aimLevel:
		return aimed
	case dist == 1 && planeLevel == aimLevel, dist == 0 && (planeLevel == aimLevel+1 || planeLevel == aimLevel-1):
		return splash
	}
	return 0
}

// ShipSize is a ship's size class for its flak (seed 002, naval flak).
type ShipSize string

const (
	Carrier    ShipSize = "carrier"
	Battleship ShipSize = "battleship"
	AAShip     ShipSize = "aa-ship"
	Cruiser    ShipSize = "cruiser"
	Destroyer  ShipSize = "destroyer"
	OtherShip  ShipSize = "other"
)

// NavalFlak is a ship's flak as seed 002 derives it: light and medium flak a quarter of the barrels'
// value (rounded down), with attacks on each side by size; heavy flak from its dual-purpose guns.
type NavalFlak struct {
	Light        int `json:"light"`
	LightPerSide int `json:"light_attacks_per_side"` // 0 for "other": one attack for the whole ship
	LightTotal   int `json:"light_attacks_total,omitempty"`
	HeavyAimed   int `json:"heavy"`
	HeavySplash  int `json:"heavy_splash"`
	HeavyAttacks int `json:"heavy_attacks"`
	HeavyCeiling int `json:"heavy_ceiling,omitempty"`
}

// Naval derives a ship's flak from its guns: light barrels, and heavy guns of one calibre (mm 0: none).
func Naval(size ShipSize, light []Barrels, heavyMM, heavyGuns int) (NavalFlak, error) {
	var n NavalFlak
	v, err := LightFlakValue(light)
	if err != nil {
		return n, err
	}
	n.Light = int(v / 4)
	switch size {
	case Carrier, Battleship:
		n.LightPerSide = 3
	case Cruiser:
		n.LightPerSide = 2
	case Destroyer:
		n.LightPerSide = 1
	case AAShip, OtherShip:
		n.LightTotal = 1
	default:
		return n, fmt.Errorf("ship size %q: carrier, battleship, aa-ship, cruiser, destroyer or other", size)
	}
	if heavyMM > 0 {
		if n.HeavyAimed, n.HeavySplash, n.HeavyCeiling, err = HeavyFlak(heavyMM, heavyGuns); err != nil {
			return n, err
		}
		n.HeavyAttacks = map[ShipSize]int{Carrier: 2, Battleship: 3, AAShip: 3, Cruiser: 2, Destroyer: 1, OtherShip: 1}[size]
	}
	return n, nil
}

// Damaged is a ship's flak after the ship took damage (seed 002, shipboard flak damage): light damage
// puts the light damage modifier on light flak and halves the heavy attacks (rounded up); heavy damage
// halves the light attacks and ends heavy flak; a sunk ship fires nothing. ok false: no flak at all.
func (n NavalFlak) Damaged(d Damage) (NavalFlak, bool, bool) {
	lightModifier := false
	switch d {
	case Light:
		lightModifier = true
		n.HeavyAttacks = (n.HeavyAttacks + 1) / 2
	case Heavy:
		n.LightPerSide, n.LightTotal = n.LightPerSide/2, n.LightTotal/2
		n.HeavyAttacks = 0
	case Destroyed:
		return NavalFlak{}, false, false
	}
	return n, lightModifier, true
}

// Torpedo is what a torpedo drop depends on (seed 002, torpedo attacks).
type Torpedo struct {
	Crew          Crew
	Crippled      bool
	USBefore1943  bool
	Level         int // the bomber's altitude level: must be 0
	Speed         int // the bomber's speed: 2 or less
	Range         int // hexes to the target ship: 1 to 4
	TorpedoBomber bool
}

// Check says what forbids the drop, "" if nothing.
func (t Torpedo) Check() string {
	switch {
	case !t.TorpedoBomber:
		return "only torpedo bombers drop torpedoes"
	case t.Level != 0:
		return fmt.Sprintf("a torpedo is dropped at altitude level 0 (under 500 ft), not level %d", t.Level)
	case t.Speed > 2:
		return fmt.Sprintf("a torpedo is dropped at speed 2 or less, not %d", t.Speed)
	case t.Range < 1 || t.Range > 4:
		return fmt.Sprintf("a torpedo is dropped 1 to 4 hexes from the ship, not %d", t.Range)
	}
	return ""
}

// Modifiers are the drop's modifiers.
func (t Torpedo) Modifiers() Mods {
	var m Mods
	m.add(t.Crew == Ace, "ace crew", 2)
	m.add(t.Crew == Experienced, "experienced crew", 1)
	m.add(t.Crew == Green, "green crew", -2)
	m.add(t.Crippled, "bomber crippled", -1)
	m.add(t.USBefore1943, "American torpedo before 1943", -2)
	return m
}

// Runs reads the torpedo launch table: a modified d10 of 4 or more runs straight and normal; 1 to 3 is
// a poor drop or a faulty torpedo, out of the game.
func Runs(modified int) bool { return modified >= 4 }

// TorpedoHit is what a running torpedo's hit depends on when it enters a ship's hex.
type TorpedoHit struct {
	Size        string // "large" (battleship, carrier ...), "small" (destroyer), "very-small" (escort, PT) or ""
	BowStern    bool   // attacking from the bow or stern
	BowAndSide  bool   // attacking from the bow or stern and the side
	SlowTorpedo bool   // under 30 knots, against a moving ship
}

// Modifiers are the hit's modifiers (seed 002, torpedo hit modifiers).
func (h TorpedoHit) Modifiers() Mods {
	var m Mods
	m.add(h.Size == "large", "large ship", 3)
	m.add(h.Size == "small", "small ship (destroyer)", -1)
	m.add(h.Size == "very-small", "very small ship", -3)
	m.add(h.BowStern && !h.BowAndSide, "from the bow or stern", -2)
	m.add(h.BowAndSide, "from the bow or stern and the side", 3)
	m.add(h.SlowTorpedo, "slow torpedo against a moving ship", -1)
	return m
}

// Hits reads the torpedo hit roll: a modified d10 of 7 or more hits (the damaged "> 7" read as "at
// least 7", docs/rulings.md). A hit on the side counts as a direct hit, on the bow or stern as on
// target.
func Hits(modified int) bool { return modified >= 7 }

// TorpedoResult is the bombing result a torpedo hit counts as for its attack value.
func TorpedoResult(bowStern bool) Result {
	if bowStern {
		return OnTarget
	}
	return DirectHit
}

// SideDefence is a ship's defence against a torpedo on one side: halved, rounded up, unless a torpedo
// bulge takes the first hit on that side (previousHits counts the earlier torpedo hits on it).
func SideDefence(dv int, bulge bool, previousHits int) int {
	if bulge && previousHits == 0 {
		return dv
	}
	return (dv + 1) / 2
}

// ParseBarrels reads barrels written as "4x20mm,2x40mm" (count, x, calibre; groups apart by commas,
// spaces or plus signs).
func ParseBarrels(s string) ([]Barrels, error) {
	var out []Barrels
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, item := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '+' }) {
		n, cal, ok := strings.Cut(strings.TrimSpace(item), "x")
		count, err := strconv.Atoi(n)
		if !ok || err != nil || count < 1 || count > 999 {
			return nil, fmt.Errorf("%q is not COUNTxCALIBRE, e.g. 4x20mm", strings.TrimSpace(item))
		}
		if _, ok := CalibreValue(cal); !ok {
			return nil, fmt.Errorf("calibre %q is small-arms, .30, .50, 20mm, 30mm or 40mm", cal)
		}
		out = append(out, Barrels{Calibre: cal, Count: count})
	}
	return out, nil
}

// LandLight is a land flak unit's light and medium flak attack value: the barrels' value, rounded half
// up (the seed's own example, a quad 20 mm, is 4 exactly), at least 1 when it has any barrel.
func LandLight(bs []Barrels) (int, error) {
	v, err := LightFlakValue(bs)
	if err != nil || len(bs) == 0 {
		return 0, err
	}
	return max(1, Round(v)), nil
}

// Flak against aircraft is the seed's "standard air-to-air combat": each side rolls a d10 and adds its
// value. Air Force planes have no defence value and count damage in hits on their card, so Sortie reads
// the comparison as a number of hits that then fall on the card through the Air Force hit-location
// tables, like a burst of gunfire (house rule, docs/rulings.md: flak on aircraft).
const (
	// PlaneDefenceSingle and PlaneDefenceMulti are a plane's flak defence value: a single-engine plane's
	// and a multi-engine plane's (house values, set so that a quad 20 mm two hexes off hits about one
	// time in seven, and heavy guns on their aim about one time in two).
	PlaneDefenceSingle = 6
	PlaneDefenceMulti  = 7
)

// PlaneDefence is a plane's defence value against flak.
func PlaneDefence(multiEngine bool) int {
	if multiEngine {
		return PlaneDefenceMulti
	}
	return PlaneDefenceSingle
}

// FlakHits reads a flak attack: nothing unless the attack total beats the defence total, then one hit
// for a margin of 1 to 4, two for 5 to 8, three for 9 to 12 and four for 13 or more (house table).
func FlakHits(attackTotal, defenceTotal int) int {
	m := attackTotal - defenceTotal
	if m <= 0 {
		return 0
	}
	return min(4, (m+3)/4)
}
