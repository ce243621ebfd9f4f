package tnl

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed data/*.yaml
var dataFS embed.FS

// Level is an altitude level (seed 003, "Altitude"): combat only between aircraft at the same level.
type Level int

// The four levels, lowest first.
const (
	VeryLow Level = iota
	Low
	Medium
	High
)

// LevelNames are the levels as orders and reports write them.
var LevelNames = [4]string{"VL", "L", "M", "H"}

var levelWords = [4]string{"Very Low", "Low", "Medium", "High"}

func (l Level) String() string {
	if l < VeryLow || l > High {
		return fmt.Sprintf("level %d", int(l))
	}
	return levelWords[l]
}

// ParseLevel reads a level: VL, L, M, H (or the words), any case.
func ParseLevel(s string) (Level, bool) {
	switch strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", "")) {
	case "VL", "VERYLOW":
		return VeryLow, true
	case "L", "LOW":
		return Low, true
	case "M", "MED", "MEDIUM":
		return Medium, true
	case "H", "HIGH":
		return High, true
	}
	return 0, false
}

// Gun is a gun position of the historical record: the weapon kind (30M rifle-calibre MG, 50M heavy MG,
// 20C, 30C, 37C cannon) and how many guns share the mount.
type Gun struct {
	Kind  string `yaml:"kind" json:"kind"`
	Count int    `yaml:"count" json:"count"`
}

// Record is one type's historical figures as data/types.yaml gives them; the stat sheet is worked out
// from it (Derive).
type Record struct {
	Key          string         `yaml:"key"`
	Name         string         `yaml:"name"`
	Nation       string         `yaml:"nation"`
	Year         int            `yaml:"year"`
	Role         string         `yaml:"role"` // fighter, bomber, dive-bomber, torpedo-bomber
	Engines      int            `yaml:"engines"`
	Jet          bool           `yaml:"jet"`
	MPH          int            `yaml:"mph"`
	ClimbFPM     int            `yaml:"climb_fpm"`
	CeilingFt    int            `yaml:"ceiling_ft"`
	LoadedLb     int            `yaml:"loaded_lb"`
	WingSqft     float64        `yaml:"wing_sqft"`
	Armour       bool           `yaml:"armour"`
	SelfSealing  bool           `yaml:"self_sealing"`
	DiveLimitMPH int            `yaml:"dive_limit_mph"`
	Fixed        map[string]int `yaml:"fixed"`
	Flexible     []Gun          `yaml:"flexible"`
	BombLb       int            `yaml:"bomb_lb"`
	Torpedo      bool           `yaml:"torpedo"`
	Source       string         `yaml:"source"`
	Seed         *SeedFigures   `yaml:"seed"`
}

// SeedFigures are the figures seed 003 itself prints for a type; each one given wins over the formula.
type SeedFigures struct {
	SP    *[2]int `yaml:"sp"`
	FS    *int    `yaml:"fs"`
	White *int    `yaml:"white"`
	Red   *int    `yaml:"red"`
	Green *int    `yaml:"green"`
	SR    *int    `yaml:"sr"`
	Hits  *int    `yaml:"hits"`
	Dive  *[2]int `yaml:"dive"`
	Climb *[2]int `yaml:"climb"`
}

// Colour is a die colour (seed 003, "Combat"): white for machine guns, red for 20 mm cannon, green for
// 30 mm cannon, blue for heavy AA.
type Colour int

// The colours, in the order of their saving-roll modifier.
const (
	White Colour = iota
	Red
	Green
	Blue
)

var colourNames = [4]string{"white", "red", "green", "blue"}

func (c Colour) String() string {
	if c < White || c > Blue {
		return "?"
	}
	return colourNames[c]
}

// ParseColour reads a colour's name.
func ParseColour(s string) (Colour, bool) {
	for i, n := range colourNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Colour(i), true
		}
	}
	return 0, false
}

// SaveMod is the colour's modifier to a saving roll against its hit: white 0, red -1, green -2, blue -3
// (seed 003, "Saving Roll").
func (c Colour) SaveMod() int { return -int(c) }

// Dice counts dice by colour.
type Dice [4]int

// Total is the number of dice.
func (d Dice) Total() int { return d[0] + d[1] + d[2] + d[3] }

// String writes the dice as "2 red + 2 white".
func (d Dice) String() string {
	var parts []string
	for c := Blue; c >= White; c-- {
		if d[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", d[c], c))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " + ")
}

// Mount is a flexible gun position on the sheet: one die of its colour, at -1 to hit when it is a single
// machine gun on a pivot (seed 003, "Single Pivot Mount MG Firing -1").
type Mount struct {
	Colour Colour `json:"colour"`
	Pivot  bool   `json:"pivot"`
}

// Sheet is a type's stat sheet: what the rules read.
type Sheet struct {
	Key      string  `json:"key"`
	Name     string  `json:"name"`
	Role     string  `json:"role"`
	Nation   string  `json:"nation"`
	Engines  int     `json:"engines"`
	Jet      bool    `json:"jet"`
	SP       [2]int  `json:"sp"` // hexes in movement phase 1 and 2
	FS       int     `json:"fs"` // fly-straight rating
	Fixed    Dice    `json:"fixed"`
	Flexible []Mount `json:"flexible,omitempty"`
	SR       int     `json:"sr"`   // saving roll, D6 at or above
	Hits     int     `json:"hits"` // hits that destroy it: 2 to 5
	Dive     [2]int  `json:"dive"`
	Climb    [2]int  `json:"climb"` // negative
	MaxLevel Level   `json:"max_level"`
	BombLb   int     `json:"bomb_lb,omitempty"`
	Torpedo  bool    `json:"torpedo,omitempty"`
	// Seed lists the figures that come from seed 003 rather than the formula.
	Seed []string `json:"seed,omitempty"`
	// Source is where the historical figures come from.
	Source string `json:"source"`
}

// Bomber reports whether the type is a dedicated bomber (seed 003, "Loaded Modifiers": dedicated bombers
// against fighter-bombers).
func (s *Sheet) Bomber() bool { return s.Role != "fighter" }

// Fighter reports whether the type is a fighter (the "enemy fighter" that chases a bomber).
func (s *Sheet) Fighter() bool { return s.Role == "fighter" }

// MPHPerHex is the formula's scale: a turn's two phases together move one hex for every 24.5 mph of top
// speed (docs/tnl.md, "Stat sheets"). It is chosen so that the Spitfire I (362 mph) gets the 15 hexes of
// seed 003's 8/7 and the Bf 109 E (354 mph) the 14 of its 7/7.
const MPHPerHex = 24.5

// Derive works out a type's stat sheet from its historical figures by the formula of docs/tnl.md, then
// lets every figure seed 003 prints win.
func Derive(r Record) (Sheet, error) {
	s := Sheet{Key: r.Key, Name: r.Name, Role: r.Role, Nation: r.Nation, Engines: r.Engines, Jet: r.Jet, BombLb: r.BombLb, Torpedo: r.Torpedo, Source: r.Source}
	total := int(math.Round(float64(r.MPH) / MPHPerHex))
	s.SP = [2]int{(total + 1) / 2, total / 2}
	load := float64(r.LoadedLb) / r.WingSqft
	switch {
	case load < 23:
		s.FS = 1
	case load < 35:
		s.FS = 2
	case load < 50:
		s.FS = 3
	default:
		s.FS = 4
	}
	if r.Engines > 1 {
		s.FS++
	}
	s.FS = min(s.FS, 5)
	for kind, n := range r.Fixed {
		c, ok := gunColour(kind)
		if !ok {
			return s, fmt.Errorf("%s: unknown gun kind %q", r.Key, kind)
		}
		s.Fixed[c] += n
	}
	s.Fixed[White] = min(s.Fixed[White], 4)
	s.Fixed[Red] = min(s.Fixed[Red], 4)
	s.Fixed[Green] = min(s.Fixed[Green], 2)
	// Flexible mounts: one die each, the heaviest and the twin mounts first, at most four.
	var mounts []Mount
	for _, g := range r.Flexible {
		c, ok := gunColour(g.Kind)
		if !ok || g.Count < 1 {
			return s, fmt.Errorf("%s: flexible gun %+v: unknown kind or no guns", r.Key, g)
		}
		// Seed 003 takes 1 off a single machine gun on a pivot (a white die); a single cannon is not one.
		mounts = append(mounts, Mount{Colour: c, Pivot: g.Count == 1 && c == White})
	}
	sort.SliceStable(mounts, func(i, j int) bool {
		if mounts[i].Colour != mounts[j].Colour {
			return mounts[i].Colour > mounts[j].Colour
		}
		return !mounts[i].Pivot && mounts[j].Pivot
	})
	if len(mounts) > 4 {
		mounts = mounts[:4]
	}
	s.Flexible = mounts
	switch {
	case r.Armour && r.SelfSealing && r.LoadedLb >= 12000:
		s.SR = 4
	case r.Armour && r.SelfSealing:
		s.SR = 5
	default:
		s.SR = 6
	}
	switch {
	case r.Engines >= 3:
		s.Hits = 5
	case r.Engines == 2 && r.LoadedLb >= 20000:
		s.Hits = 4
	case r.Engines == 2, r.LoadedLb >= 10000:
		s.Hits = 3
	default:
		s.Hits = 2
	}
	dive := int(math.Round(float64(r.DiveLimitMPH-r.MPH) / 40))
	dive = min(max(dive, 0), 4)
	s.Dive = [2]int{dive / 2, dive - dive/2}
	climb := int(math.Ceil(float64(3500-r.ClimbFPM) / 700))
	climb = min(max(climb, 0), 4)
	s.Climb = [2]int{-(climb - climb/2), -(climb / 2)}
	switch {
	case r.CeilingFt >= 25000:
		s.MaxLevel = High
	case r.CeilingFt >= 15000:
		s.MaxLevel = Medium
	case r.CeilingFt >= 5000:
		s.MaxLevel = Low
	default:
		s.MaxLevel = VeryLow
	}
	if f := r.Seed; f != nil {
		set := func(name string, ok bool) {
			if ok {
				s.Seed = append(s.Seed, name)
			}
		}
		if f.SP != nil {
			s.SP = *f.SP
		}
		set("sp", f.SP != nil)
		if f.FS != nil {
			s.FS = *f.FS
		}
		set("fs", f.FS != nil)
		if f.White != nil || f.Red != nil || f.Green != nil {
			s.Fixed = Dice{}
			if f.White != nil {
				s.Fixed[White] = *f.White
			}
			if f.Red != nil {
				s.Fixed[Red] = *f.Red
			}
			if f.Green != nil {
				s.Fixed[Green] = *f.Green
			}
			set("firepower", true)
		}
		if f.SR != nil {
			s.SR = *f.SR
		}
		set("sr", f.SR != nil)
		if f.Hits != nil {
			s.Hits = *f.Hits
		}
		set("hits", f.Hits != nil)
		if f.Dive != nil {
			s.Dive = *f.Dive
		}
		set("dive", f.Dive != nil)
		if f.Climb != nil {
			s.Climb = *f.Climb
		}
		set("climb", f.Climb != nil)
	}
	switch {
	case s.SP[0] < 1 || s.SP[1] < 1:
		return s, fmt.Errorf("%s: speed %d/%d: each phase needs at least 1 hex", r.Key, s.SP[0], s.SP[1])
	case s.Hits < 2 || s.Hits > 5:
		return s, fmt.Errorf("%s: hits %d: the seed's ladders are for 2 to 5 hits", r.Key, s.Hits)
	case s.SR < 2 || s.SR > 6:
		return s, fmt.Errorf("%s: saving roll %d is not 2 to 6", r.Key, s.SR)
	}
	return s, nil
}

func gunColour(kind string) (Colour, bool) {
	switch kind {
	case "30M", "50M":
		return White, true
	case "20C":
		return Red, true
	case "30C", "37C":
		return Green, true
	}
	return 0, false
}

// Data is the shipped stat sheets.
type Data struct {
	sheets map[string]*Sheet
	keys   []string
	sum    string
}

// DefaultData is the stat sheets worked out from data/types.yaml, once, the first time they are asked,
// and never changed after.
func DefaultData() (*Data, error) { return shippedData() }

var shippedData = sync.OnceValues(func() (*Data, error) {
	b, err := dataFS.ReadFile("data/types.yaml")
	if err != nil {
		return nil, err
	}
	return LoadData(b)
})

// LoadData reads a types file (strict YAML) and derives every sheet.
func LoadData(b []byte) (*Data, error) {
	var recs []Record
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&recs); err != nil {
		return nil, fmt.Errorf("tnl: data/types.yaml: %w", err)
	}
	d := &Data{sheets: map[string]*Sheet{}}
	var errs []string
	for _, r := range recs {
		switch {
		case r.Key == "" || d.sheets[r.Key] != nil:
			errs = append(errs, fmt.Sprintf("type %q: empty or repeated key", r.Key))
			continue
		case r.MPH < 50 || r.WingSqft <= 0 || r.LoadedLb <= 0 || r.Engines < 1:
			errs = append(errs, fmt.Sprintf("%s: mph, wing_sqft, loaded_lb and engines are required", r.Key))
			continue
		}
		s, err := Derive(r)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		d.sheets[r.Key] = &s
		d.keys = append(d.keys, r.Key)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("tnl: data/types.yaml: %s", strings.Join(errs, "; "))
	}
	sort.Strings(d.keys)
	sum := sha256.Sum256(b)
	d.sum = hex.EncodeToString(sum[:])
	return d, nil
}

// Sheet returns a type's stat sheet.
func (d *Data) Sheet(key string) (*Sheet, bool) {
	s, ok := d.sheets[strings.ToLower(strings.TrimSpace(key))]
	return s, ok
}

// Keys lists the types, sorted.
func (d *Data) Keys() []string { return append([]string(nil), d.keys...) }
