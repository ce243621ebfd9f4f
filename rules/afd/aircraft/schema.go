package aircraft

// This file is the on-disk form of one aircraft type (docs/aircraft.md "The data file"): who the type is,
// its categorical facts, and its published historical performance with the source of every figure. The
// card's game numbers are derived from it by Derive; a file may instead carry a complete card of its own.

// File is one aircraft data file as written in YAML.
type File struct {
	Key     string  `yaml:"key"`
	Name    string  `yaml:"name"`
	Nation  string  `yaml:"nation"`
	Year    int     `yaml:"year"`
	Role    Role    `yaml:"role"`
	Engines Engines `yaml:"engines"`

	// Family is the name seed 000 rule (29) would use for the type ("Zero", "Spitfire", "P-40", "Me-109",
	// ...), if the rule names it; empty otherwise.
	Family string `yaml:"family,omitempty"`
	// LossClass states the type's speed-loss class (seed 000 rule (29)). When empty it is derived (see
	// DeriveLossClass); when the rule names the type's family, it must agree with the rule.
	LossClass LossClass `yaml:"loss_class,omitempty"`

	Crew             int  `yaml:"crew"`
	PilotArmour      bool `yaml:"pilot_armour"`
	SelfSealingTanks bool `yaml:"self_sealing_tanks"`
	DiveBomber       bool `yaml:"dive_bomber"` // rated dive bomber: may dive vertically and dive-bomb (rules (20), (21))
	DiveBrakes       bool `yaml:"dive_brakes"`

	Performance *Performance `yaml:"performance,omitempty"`
	Armament    []Armament   `yaml:"armament,omitempty"`
	Bombs       *Bombs       `yaml:"bombs,omitempty"`

	// Card, when present, is the complete card to use instead of the derived one: a moderator who owns
	// the printed cards copies the numbers here. Its identity fields default to the file's own.
	Card *Card `yaml:"card,omitempty"`

	Notes string `yaml:"notes,omitempty"`
}

// Figure is one published number with the reference it comes from.
type Figure struct {
	Value  float64 `yaml:"value"`
	Source string  `yaml:"source"`
}

// SpeedPoint is a published top level speed at an altitude.
type SpeedPoint struct {
	AltFt  float64 `yaml:"alt_ft"`
	MPH    float64 `yaml:"mph"`
	Source string  `yaml:"source"`
}

// Climb is a published rate of climb and the altitude it applies at (0 for an initial climb rate).
type Climb struct {
	FPM    float64 `yaml:"fpm"`
	AltFt  float64 `yaml:"alt_ft"`
	Source string  `yaml:"source"`
}

// Performance holds the published historical figures the card is derived from. Engine figures are per
// engine: piston engines give EngineHP, jets give EngineThrustLbf.
type Performance struct {
	TopSpeed        []SpeedPoint `yaml:"top_speed"`
	Climb           *Climb       `yaml:"climb"`
	CeilingFt       *Figure      `yaml:"ceiling_ft"`
	EmptyWeightLb   *Figure      `yaml:"empty_weight_lb"`
	LoadedWeightLb  *Figure      `yaml:"loaded_weight_lb"`
	WingAreaSqFt    *Figure      `yaml:"wing_area_sqft"`
	WingspanFt      *Figure      `yaml:"wingspan_ft"`
	EngineHP        *Figure      `yaml:"engine_hp,omitempty"`
	EngineThrustLbf *Figure      `yaml:"engine_thrust_lbf,omitempty"`
	DiveLimitMPH    *Figure      `yaml:"dive_limit_mph"`
}

// Armament is one gun position as published: where it is, which weapons it holds and how many rounds.
type Armament struct {
	ID      string   `yaml:"id"`
	Kind    string   `yaml:"kind"` // FF, F, FH or FL
	Side    string   `yaml:"side"` // L, R or C
	Arcs    []int    `yaml:"arcs,omitempty"`
	Weapons []Weapon `yaml:"weapons"`
	Source  string   `yaml:"source"`
}

// Weapon is one kind of gun in a position.
type Weapon struct {
	Count   int    `yaml:"count"`
	Kind    string `yaml:"kind"` // 30M, 50M, 20C, 30C or 37C
	Name    string `yaml:"name"`
	Rounds  int    `yaml:"rounds"`   // rounds per gun
	RateRPM int    `yaml:"rate_rpm"` // rate of fire, rounds per minute
}

// Bombs is the typical published war load; a type that carries one gets a Loaded block.
type Bombs struct {
	Stores string  `yaml:"stores"`
	Lb     float64 `yaml:"lb"`
	Source string  `yaml:"source"`
}
