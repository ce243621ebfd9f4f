// Package aircraft holds the Air Force / Dauntless aircraft cards: the game numbers of each type by
// altitude band, its guns and its damage systems . Cards are data (docs/architecture.md
// invariant 7): the embedded files under data/ record each type's published historical performance with
// its sources, and the card's game numbers are derived from those figures by the formula of
// docs/aircraft.md. A moderator who owns the printed cards can load a file that gives the numbers
// directly instead.
package aircraft

import "fmt"

// SpeedRange is a range of speeds in whole speed points (hexes per turn), both ends included.
type SpeedRange struct {
	Min int `yaml:"min" json:"min"`
	Max int `yaml:"max" json:"max"`
}

// Contains reports whether the rounded speed s lies in the range.
func (r SpeedRange) Contains(s int) bool { return s >= r.Min && s <= r.Max }

// TurnModes are the printed manoeuvre distances at manoeuvre speed in one altitude band. Turn, Slip,
// HalfRoll and HalfLoop are turn modes (hexes flown since the previous manoeuvre); Bank is the printed
// bank mode, the distance for a 2-point roll such as RB to LB (seed 000 rule (2)).
type TurnModes struct {
	Turn     int `yaml:"turn" json:"turn"`
	Slip     int `yaml:"slip" json:"slip"`
	HalfRoll int `yaml:"half_roll" json:"half_roll"`
	HalfLoop int `yaml:"half_loop" json:"half_loop"`
	Bank     int `yaml:"bank" json:"bank"`
}

// Band is the card's column for one altitude band.
type Band struct {
	MinAlt   int         `yaml:"min_alt" json:"min_alt"` // feet, included
	MaxAlt   int         `yaml:"max_alt" json:"max_alt"` // feet, included (e.g. 4900)
	Maneuver *SpeedRange `yaml:"maneuver,omitempty" json:"maneuver,omitempty"`
	Level    SpeedRange  `yaml:"level" json:"level"` // Level.Max is the top level speed (rules (13), (14))
	Dive     SpeedRange  `yaml:"dive" json:"dive"`   // Dive.Max is the maximum dive speed
	Power    int         `yaml:"power" json:"power"` // power factors in the manoeuvre range (rule (14))
	Brake    int         `yaml:"brake" json:"brake"` // brake factors
	MaxClimb int         `yaml:"max_climb" json:"max_climb"`
	TM       TurnModes   `yaml:"turn_modes" json:"turn_modes"`
}

// LossClass is the speed-loss class of seed 000 rule (29): how much speed 1-4 manoeuvres cost in the
// manoeuvre speed range.
type LossClass string

const (
	LossLWL   LossClass = "LWL"   // light wing loading: Zero, Spitfire, Oscar
	LossMWL   LossClass = "MWL"   // medium wing loading: F4F, Hurricane, SBD
	LossP40   LossClass = "P40"   // P-39, P-40, F6F
	LossP51   LossClass = "P51"   // P-51, Me-109
	LossP47   LossClass = "P47"   // P-47
	LossFw190 LossClass = "FW190" // Fw-190
	LossHeavy LossClass = "HEAVY" // P-38, bombers, and any plane flying loaded
)

// Role says what kind of aircraft this is; rules (20) and (27) depend on it.
type Role string

const (
	RoleFighter       Role = "fighter"        // single-seat or two-seat fighter, fighter-bomber
	RoleDiveBomber    Role = "dive-bomber"    // rated dive bomber
	RoleTorpedoBomber Role = "torpedo-bomber" // carrier torpedo bomber
	RoleBomber        Role = "bomber"         // level bomber
)

// Engines describes the power plant.
type Engines struct {
	Count int    `yaml:"count" json:"count"`
	Kind  string `yaml:"kind" json:"kind"` // inline, radial or jet
	Name  string `yaml:"name" json:"name"`
}

// GunPosition is one firing position: fixed forward guns (FF), flexible guns (F) or fixed guns firing
// high or low (FH, FL). Mix is the weapon mix it adds, e.g. "4x30M" (four .30-class machine guns) or
// "1x20C" (one 20 mm cannon); the guns that fire together choose the gunnery chart by their combined mix.
type GunPosition struct {
	ID    string `yaml:"id" json:"id"`
	Kind  string `yaml:"kind" json:"kind"`                     // FF, F, FH or FL
	Side  string `yaml:"side" json:"side"`                     // L, R or C (for hit location by odd/even D10)
	Arcs  []int  `yaml:"arcs,omitempty" json:"arcs,omitempty"` // clock positions a flexible position covers
	Mix   string `yaml:"mix" json:"mix"`
	Range int    `yaml:"range" json:"range"` // maximum range in hexes: 8, or 6 for weapons rated range 3 in the original
	Ammo  int    `yaml:"ammo" json:"ammo"`   // bursts
}

// System is one damage system: a letter of the hit-location tables, its side for sided systems, how
// many boxes it has and what happens when they are all filled.
type System struct {
	Letter   string `yaml:"letter" json:"letter"` // F W E C L G
	Side     string `yaml:"side,omitempty" json:"side,omitempty"`
	Name     string `yaml:"name" json:"name"`
	Boxes    int    `yaml:"boxes" json:"boxes"`
	Critical bool   `yaml:"critical" json:"critical"` // open to red-die criticals (C, L, E)
	Effect   string `yaml:"effect" json:"effect"`     // shot-down, engine-out, guns-out
	Guns     string `yaml:"guns,omitempty" json:"guns,omitempty"`
}

// Effects of a destroyed system.
const (
	EffectShotDown  = "shot-down"
	EffectEngineOut = "engine-out"
	EffectGunsOut   = "guns-out"
)

// Loaded is how the card changes while the plane carries its bombs or torpedo (seed 000 rules (27),
// (29)): speeds fall, turn modes rise, and the plane loses speed in the HEAVY class.
type Loaded struct {
	Stores       string `yaml:"stores" json:"stores"`               // e.g. "1x1000 lb bomb"
	SpeedPenalty int    `yaml:"speed_penalty" json:"speed_penalty"` // points off every speed range's top
	TMPenalty    int    `yaml:"tm_penalty" json:"tm_penalty"`       // added to every printed turn mode
	ClimbPercent int    `yaml:"climb_percent" json:"climb_percent"` // max climb while loaded, % of clean
}

// Card is one aircraft type's game data.
type Card struct {
	Key        string    `yaml:"key" json:"key"`
	Name       string    `yaml:"name" json:"name"`
	Nation     string    `yaml:"nation" json:"nation"`
	Year       int       `yaml:"year" json:"year"`
	Role       Role      `yaml:"role" json:"role"`
	Engines    Engines   `yaml:"engines" json:"engines"`
	DiveBomber bool      `yaml:"dive_bomber" json:"dive_bomber"` // rated dive bomber (rule (20), (21))
	Crew       int       `yaml:"crew" json:"crew"`               // crew aboard, for bail-out
	LossClass  LossClass `yaml:"loss_class" json:"loss_class"`
	// TMLevelPenalty and TMDivePenalty are added to printed turn modes at level and dive speed before
	// the floors of rules (27) and (28) are applied.
	TMLevelPenalty int           `yaml:"tm_level_penalty" json:"tm_level_penalty"`
	TMDivePenalty  int           `yaml:"tm_dive_penalty" json:"tm_dive_penalty"`
	Ceiling        int           `yaml:"ceiling" json:"ceiling"`
	Bands          []Band        `yaml:"bands" json:"bands"`
	Loaded         *Loaded       `yaml:"loaded,omitempty" json:"loaded,omitempty"`
	Guns           []GunPosition `yaml:"guns" json:"guns"`
	Systems        []System      `yaml:"systems" json:"systems"`
}

// MultiEngine reports whether the plane uses the multi-engine (ME) columns of the deflection and
// hit-location tables.
func (c *Card) MultiEngine() bool { return c.Engines.Count > 1 }

// Bomber reports whether the plane is a bomber for the g-load floors of rule (27): every type that is
// not a fighter.
func (c *Card) Bomber() bool { return c.Role != RoleFighter }

// BandAt returns the band for an altitude in feet. Altitudes above the highest band (above the ceiling)
// use the highest band; a negative altitude is an error.
func (c *Card) BandAt(alt int) (*Band, error) {
	if alt < 0 {
		return nil, fmt.Errorf("%s: altitude %d ft is below the ground", c.Key, alt)
	}
	if len(c.Bands) == 0 {
		return nil, fmt.Errorf("%s: the card has no altitude bands", c.Key)
	}
	for i := range c.Bands {
		if alt >= c.Bands[i].MinAlt && alt <= c.Bands[i].MaxAlt {
			return &c.Bands[i], nil
		}
	}
	last := &c.Bands[len(c.Bands)-1]
	if alt > last.MaxAlt {
		return last, nil
	}
	return nil, fmt.Errorf("%s: no band covers %d ft", c.Key, alt)
}
