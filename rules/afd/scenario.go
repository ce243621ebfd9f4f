package afd

import (
	"fmt"
	"io/fs"
	"math"
	"slices"
	"sort"
	"strings"

	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	"sortie/rules/afd/tables"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/yamlpath"
)

// Scenario is a game's starting point as a moderator writes it (docs/scenarios.md).
type Scenario struct {
	Ruleset     string          `yaml:"ruleset"`
	Name        string          `yaml:"name"`
	Description string          `yaml:"description"`
	Options     Options         `yaml:"options"`
	Map         *Edges          `yaml:"map"`
	Clouds      []scenarioCloud `yaml:"clouds"`
	Sides       []string        `yaml:"sides"`
	Players     []Player        `yaml:"players"`
	Aircraft    []ScenarioPlane `yaml:"aircraft"`
	// Ground holds trucks, tanks and ships with their routes; Roads the road hexes (seed 001 V).
	Ground  []ScenarioGround `yaml:"ground"`
	Roads   [][2]int         `yaml:"roads"`
	Turns   int              `yaml:"turns"`
	Victory []scenarioVictory

	lines yamlpath.Lines
}

type scenarioCloud struct {
	Center [2]int `yaml:"center"`
	Radius int    `yaml:"radius"`
	Base   int    `yaml:"base"`
	Top    int    `yaml:"top"`
}

type scenarioVictory struct {
	Side     string   `yaml:"side"`
	Kind     string   `yaml:"kind"`
	Aircraft []string `yaml:"aircraft"`
	Edge     string   `yaml:"edge"`
	Target   *[2]int  `yaml:"target"`
	Points   int      `yaml:"points"`
	// Ground names the ground units and targets a knock-out condition counts (seed 002 damage).
	Ground []string `yaml:"ground"`
}

// ScenarioPlane is one aircraft's starting state.
type ScenarioPlane struct {
	Callsign string  `yaml:"callsign"`
	Type     string  `yaml:"type"`
	Side     string  `yaml:"side"`
	Player   string  `yaml:"player"`
	Hex      [2]int  `yaml:"hex"`
	Facing   int     `yaml:"facing"`
	Alt      int     `yaml:"alt"`
	Speed    float64 `yaml:"speed"`
	Bank     string  `yaml:"bank"`
	Loaded   bool    `yaml:"loaded"`
	Pilot    string  `yaml:"pilot"`
	// Rockets is how many rocket salvos the plane carries (seed 002: rocket attacks); GroundAttack says
	// it is a purpose-built ground-attack aircraft (seed 002: +4 when strafing).
	Rockets      int  `yaml:"rockets"`
	GroundAttack bool `yaml:"ground_attack"`
	// OnGround puts the plane on the ground (an impulse game: seed 001 IV), its engine stopped unless
	// EngineRunning; Carrier names the ship whose deck it is on.
	OnGround      bool   `yaml:"on_ground"`
	EngineRunning bool   `yaml:"engine_running"`
	Carrier       string `yaml:"carrier"`
}

// ScenarioGround is a truck, tank or ship and the route it follows.
type ScenarioGround struct {
	Callsign string   `yaml:"callsign"`
	Kind     string   `yaml:"kind"`
	Side     string   `yaml:"side"`
	Hex      [2]int   `yaml:"hex"`
	Facing   int      `yaml:"facing"`
	Route    [][2]int `yaml:"route"`
	Speed    int      `yaml:"speed"`
	TurnRate int      `yaml:"turn_rate"`
	Defence  int      `yaml:"defence"`
	Size     string   `yaml:"size"`  // a ship's size for torpedo hits: large, small or very-small
	Bulge    bool     `yaml:"bulge"` // a ship with torpedo bulges
	// Armoured: strafing cannot hurt the ship (a battleship).
	Armoured bool `yaml:"armoured"`
	// EvenTurns: the ship moves only in even-numbered turns (seed 002).
	EvenTurns bool `yaml:"even_turns"`
	// Flak is the unit's flak guns; Player the seat that may give them orders (none: they fire on
	// their own).
	Flak   *ScenarioFlak `yaml:"flak"`
	Player string        `yaml:"player"`
}

// ScenarioFlak is a unit's flak as the scenario gives it (seed 002): light and medium barrels as
// "4x20mm,2x40mm", heavy guns by calibre in mm and number; a ship's class for its naval flak; and
// optionally the attacks its ammunition allows.
type ScenarioFlak struct {
	Light      string `yaml:"light"`
	HeavyMM    int    `yaml:"heavy_mm"`
	HeavyGuns  int    `yaml:"heavy_guns"`
	Class      string `yaml:"class"`
	Ammunition int    `yaml:"ammunition"`
}

// ScenarioError lists every problem found in a scenario, each with its line where the file gives one.
type ScenarioError = ruleset.ScenarioError

// ScenarioProblem is one problem in a scenario file.
type ScenarioProblem = ruleset.ScenarioProblem

// Pilot qualities. Seed 000 keeps gunnery free of any modifier but deflection, so pilot quality acts
// only on spotting (docs/tables.md).
var pilotQualities = map[string]int{"green": -1, "regular": 0, "veteran": 1, "ace": 1}

// ParseScenario reads a scenario and checks it against the cards: every problem is listed, with its
// line, and nothing is half-loaded.
func ParseScenario(data []byte, name string) (*Scenario, error) {
	var s Scenario
	if err := ruleset.DecodeScenario(data, name, &s, &s.lines); err != nil {
		return nil, err
	}
	return &s, nil
}

// NewGame checks the scenario against the aircraft cards and builds turn 1's state. Every problem is
// listed; a scenario with any problem gives no state.
func NewGame(s *Scenario, cards Cards) (*State, error) {
	fail := &ScenarioError{File: s.Name}
	add := fail.Adder(s.lines)
	ruleset.CheckHead(add, s.Ruleset, "afd", s.Name, s.Turns)
	roster := ruleset.NewRoster(s.Sides, s.Players, add)
	if m := s.Map; m != nil && (m.MinQ >= m.MaxQ || m.MinRow >= m.MaxRow) {
		add("map", "map edges must have min_q < max_q and min_row < max_row")
	}
	st := &State{
		Ruleset: "afd", Scenario: s.Name, Turn: 1, TurnLimit: s.Turns, Options: s.Options, Map: s.Map,
		Sides: append([]string(nil), s.Sides...), Players: append([]Player(nil), s.Players...),
		Sight: map[string]map[string]Sighting{},
	}
	for i, c := range s.Clouds {
		if c.Base >= c.Top || c.Base < 0 || c.Radius < 0 {
			add(fmt.Sprintf("clouds[%d]", i), "a cloud needs 0 <= base < top and a radius of 0 or more")
		}
		st.Clouds = append(st.Clouds, Cloud{Center: hexmap.Hex{Q: c.Center[0], R: c.Center[1]}, Radius: c.Radius, Base: c.Base, Top: c.Top})
	}
	for i, a := range s.Aircraft {
		path := fmt.Sprintf("aircraft[%d]", i)
		cs := roster.Callsign(path, a.Callsign)
		card, ok := cards.Get(a.Type)
		if !ok {
			add(path+".type", "%s: unknown aircraft type %q (sortie aircraft list)", cs, a.Type)
		}
		roster.Seat(path, cs, a.Side, a.Player)
		if a.Facing < 0 || a.Facing > 11 {
			add(path+".facing", "%s: facing is 0 to 11 (30° steps clockwise from north), got %d", cs, a.Facing)
		}
		if a.Alt < 0 || a.Alt%100 != 0 || a.Alt > 60000 {
			add(path+".alt", "%s: altitude must be 0 to 60,000 ft in steps of 100, got %d", cs, a.Alt)
		}
		tenths := Tenths(a.Speed*10 + 0.5)
		if a.Speed < 0 || a.Speed > 30 || math.Abs(a.Speed*10-float64(tenths)) > 1e-6 {
			add(path+".speed", "%s: speed is 0 to 30 to one decimal place, got %v", cs, a.Speed)
		}
		bank := notation.BankN
		if a.Bank != "" {
			b, ok := notation.ParseBank(strings.ToUpper(a.Bank))
			if !ok {
				add(path+".bank", "%s: bank must be N, RB, LB, I, IR or IL, got %q", cs, a.Bank)
			}
			bank = b
		}
		pilot := a.Pilot
		if pilot == "" {
			pilot = "regular"
		}
		if _, ok := pilotQualities[pilot]; !ok {
			add(path+".pilot", "%s: pilot is green, regular, veteran or ace, got %q", cs, a.Pilot)
		}
		h := hexmap.Hex{Q: a.Hex[0], R: a.Hex[1]}
		if edge := s.Map.Outside(h); edge != "" {
			add(path+".hex", "%s starts off the map, beyond the %s edge", cs, edge)
		}
		if !ok {
			continue
		}
		if a.Rockets < 0 || a.Rockets > 8 {
			add(path+".rockets", "%s: rockets are counted in salvos, 0 to 8, not %d", cs, a.Rockets)
		}
		if a.Loaded && card.Loaded == nil {
			add(path+".loaded", "%s: the %s carries no bombs or torpedo", cs, card.Name)
		}
		if tenths.Round() > 0 {
			if b, err := card.BandAt(a.Alt); err == nil && tenths.Round() > b.Dive.Max {
				add(path+".speed", "%s: speed %.1f is past the %s's maximum dive speed %d at %d ft", cs, a.Speed, card.Name, b.Dive.Max, a.Alt)
			}
		}
		p := Plane{
			Callsign: cs, Type: card.Key, Side: a.Side, Player: a.Player, Pilot: pilot, Status: Flying,
			Flight: Flight{Hex: h, Facing: hexmap.Dir(a.Facing), Speed: tenths, Alt: a.Alt, Bank: bank, Loaded: a.Loaded, Straight: Plenty},
			Damage: make([]int, len(card.Systems)), Ammo: Ammo{}, Crew: max(card.Crew, 1), Rockets: max(0, a.Rockets), GroundAttack: a.GroundAttack,
		}
		for _, g := range card.Guns {
			p.Ammo.Set(g.ID, g.Ammo)
		}
		if a.OnGround {
			// A plane on the ground (seed 001 IV): the impulse game only, at 0 ft, below its take-off speed.
			p.Ground = &OnGround{Engine: a.EngineRunning, Carrier: strings.ToUpper(a.Carrier)}
			p.Flight.Bank = notation.BankN
			if !s.Options.Impulse {
				add(path+".on_ground", "%s: planes on the ground are played in the impulse game (options: impulse: true)", cs)
			}
			if a.Alt != 0 {
				add(path+".alt", "%s: a plane on the ground is at 0 ft, not %d", cs, a.Alt)
			}
		} else if a.EngineRunning || a.Carrier != "" {
			add(path+".on_ground", "%s: engine_running and carrier are for a plane on the ground (on_ground: true)", cs)
		}
		st.Planes = append(st.Planes, p)
	}
	if len(s.Aircraft) == 0 {
		add("aircraft", "the scenario has no aircraft")
	}
	for _, r := range s.Roads {
		st.Roads = append(st.Roads, hexmap.Hex{Q: r[0], R: r[1]})
	}
	for i, g := range s.Ground {
		path := fmt.Sprintf("ground[%d]", i)
		cs := roster.Callsign(path, g.Callsign)
		if !slices.Contains(GroundKinds, g.Kind) {
			add(path+".kind", "%s: kind is %s, got %q", cs, strings.Join(GroundKinds, ", "), g.Kind)
		}
		if !slices.Contains(s.Sides, g.Side) {
			add(path+".side", "%s: side %q is not one of the scenario's sides", cs, g.Side)
		}
		if g.Facing < 0 || g.Facing > 10 || g.Facing%2 != 0 {
			add(path+".facing", "%s: a ground unit faces a hexside: 0, 2, 4, 6, 8 or 10, got %d", cs, g.Facing)
		}
		u := GroundUnit{Callsign: cs, Kind: g.Kind, Side: g.Side, Hex: hexmap.Hex{Q: g.Hex[0], R: g.Hex[1]}, Facing: hexmap.Dir(g.Facing)}
		prev := u.Hex
		for k, h := range g.Route {
			next := hexmap.Hex{Q: h[0], R: h[1]}
			if _, ok := sideToward(prev, next); !ok {
				add(fmt.Sprintf("%s.route[%d]", path, k), "%s: each hex of a route is next to the one before (the unit's own hex first); %v is not next to %v", cs, next, prev)
				break
			}
			u.Route = append(u.Route, next)
			prev = next
		}
		u.Defence = g.Defence
		if u.Defence == 0 {
			u.Defence = strike.SampleDefence[g.Kind]
		}
		if g.Defence < 0 || u.Defence == 0 && slices.Contains(GroundKinds, g.Kind) {
			add(path+".defence", "%s: a %s needs its defence value (seed 002: a destroyer 7, a bridge 9), 1 or more", cs, g.Kind)
		}
		if !moves(g.Kind) && len(g.Route) > 0 {
			add(path+".route", "%s: a %s does not move; only trucks, tanks and ships have a route", cs, g.Kind)
		}
		if g.Kind == Ship {
			if g.Speed < 1 || g.Speed > 6 {
				add(path+".speed", "%s: a ship's speed is 1 to 6 hexes a turn, got %d", cs, g.Speed)
			}
			if g.TurnRate < 0 || g.TurnRate > 3 {
				add(path+".turn_rate", "%s: a ship turns 0 to 3 hexsides a turn, got %d", cs, g.TurnRate)
			}
			u.Speed, u.TurnRate, u.Size, u.Bulge, u.EvenTurns = g.Speed, g.TurnRate, g.Size, g.Bulge, g.EvenTurns
			if g.Size != "" && g.Size != "large" && g.Size != "small" && g.Size != "very-small" {
				add(path+".size", "%s: a ship's size is large, small or very-small, not %q", cs, g.Size)
			}
		} else if g.EvenTurns {
			add(path+".even_turns", "%s: only a ship moves in even turns only", cs)
		} else if g.Speed != 0 || g.TurnRate != 0 {
			add(path+".speed", "%s: only ships are given a speed and a turn rate (trucks and tanks move as seed 001 V says)", cs)
		}
		u.Armoured = g.Armoured
		if g.Armoured && g.Kind != Ship {
			add(path+".armoured", "%s: only a ship is armoured against strafing", cs)
		}
		if g.Flak != nil {
			f, err := g.Flak.build(g.Kind == Ship)
			if err != "" {
				add(path+".flak", "%s: %s", cs, err)
			}
			u.Flak = f
		} else if g.Player != "" {
			add(path+".player", "%s: only a unit with flak takes orders from a player", cs)
		}
		if g.Player != "" {
			found := false
			for _, pl := range s.Players {
				if pl.ID == g.Player {
					found = true
					if pl.Side != g.Side {
						add(path+".player", "%s: player %s plays side %s, not the unit's side %s", cs, g.Player, pl.Side, g.Side)
					}
				}
			}
			if !found {
				add(path+".player", "%s: player %q is not one of the scenario's players", cs, g.Player)
			}
			u.Player = g.Player
		}
		st.Ground = append(st.Ground, u)
	}
	for i, v := range s.Victory {
		path := fmt.Sprintf("victory[%d]", i)
		c := Condition{Side: v.Side, Kind: v.Kind, Edge: v.Edge}
		if v.Kind == "knock-out" {
			c.Ground, c.Points = roster.Condition(path, v.Side, v.Points, "ground", "a ground unit", v.Ground)
			for _, cs := range c.Ground {
				if st.groundUnit(cs) == nil {
					add(path+".ground", "%s is not a ground unit or target of the scenario", cs)
				}
			}
			if len(c.Ground) == 0 || len(v.Aircraft) > 0 {
				add(path+".ground", "a knock-out condition names the ground units and targets it counts (ground: [...]), and no aircraft")
			}
			st.Victory = append(st.Victory, c)
			continue
		}
		if len(v.Ground) > 0 {
			add(path+".ground", "only a knock-out condition names ground units")
		}
		c.Aircraft, c.Points = roster.Condition(path, v.Side, v.Points, "aircraft", "an aircraft", v.Aircraft)
		switch v.Kind {
		case "destroy", "survive":
		case "exit":
			if v.Edge != "north" && v.Edge != "south" && v.Edge != "east" && v.Edge != "west" {
				add(path+".edge", "an exit condition needs edge: north, south, east or west")
			}
			if s.Map == nil {
				add(path, "an exit condition needs map edges")
			}
		case "bomb":
			if v.Target == nil {
				add(path+".target", "a bomb condition needs target: [q, r]")
			} else {
				c.Target = hexmap.Hex{Q: v.Target[0], R: v.Target[1]}
			}
		default:
			add(path+".kind", "victory kind is destroy, exit, survive, bomb or knock-out, got %q", v.Kind)
		}
		if len(c.Aircraft) == 0 {
			add(path+".aircraft", "a victory condition names the aircraft it counts")
		}
		st.Victory = append(st.Victory, c)
	}
	// A plane on a carrier's deck: its side's ship, in its hex; it faces down the deck.
	sort.Slice(st.Planes, func(i, j int) bool { return st.Planes[i].Callsign < st.Planes[j].Callsign })
	for i, a := range s.Aircraft {
		if !a.OnGround || a.Carrier == "" || i >= len(st.Planes) {
			continue
		}
		p := st.Plane(strings.ToUpper(a.Callsign))
		u := st.groundUnit(strings.ToUpper(a.Carrier))
		path := fmt.Sprintf("aircraft[%d].carrier", i)
		switch {
		case p == nil:
		case u == nil || u.Kind != Ship || u.Side != a.Side:
			add(path, "%s: %q is not a ship of side %s", p.Callsign, a.Carrier, a.Side)
		case u.Hex != p.Flight.Hex:
			add(path, "%s starts in hex %v, not on %s's deck in %v", p.Callsign, p.Flight.Hex, u.Callsign, u.Hex)
		default:
			p.Flight.Facing = u.Facing
			if card, ok := cards.Get(p.Type); ok && p.Flight.Speed.Round() >= takeoffSpeed(card, u.Speed) {
				add(fmt.Sprintf("aircraft[%d].speed", i), "%s: a plane on the ground starts below its take-off speed (%d here)", p.Callsign, takeoffSpeed(card, u.Speed))
			}
		}
	}
	for i, a := range s.Aircraft {
		if p := st.Plane(strings.ToUpper(a.Callsign)); a.OnGround && a.Carrier == "" && p != nil {
			if card, ok := cards.Get(p.Type); ok && p.Flight.Speed.Round() >= takeoffSpeed(card, 0) {
				add(fmt.Sprintf("aircraft[%d].speed", i), "%s: a plane on the ground starts below its take-off speed (%d)", p.Callsign, takeoffSpeed(card, 0))
			}
		}
	}
	if err := fail.Err(); err != nil {
		return nil, err
	}
	sort.Slice(st.Planes, func(i, j int) bool { return st.Planes[i].Callsign < st.Planes[j].Callsign })
	for _, side := range st.Sides {
		st.Sight[side] = map[string]Sighting{}
	}
	if st.Options.Impulse {
		impulseState(st)
	}
	return st, nil
}

// Env returns the environment a game of this scenario resolves in: base, with the tables replaced by
// the scenario's own tables file if it names one, read from files, the scenario's folder.
func (s *Scenario) Env(base *Env, files fs.FS) (*Env, error) {
	if s.Options.Tables == "" {
		return base, nil
	}
	data, err := ruleset.ReadInclude(files, s.Options.Tables)
	if err != nil {
		return nil, fmt.Errorf("scenario %s: tables: %w", s.Name, err)
	}
	t, err := tables.Parse(map[string][]byte{s.Options.Tables: data})
	if err != nil {
		return nil, fmt.Errorf("scenario %s: tables: %w", s.Name, err)
	}
	return &Env{Cards: base.Cards, Tables: t}, nil
}

// build works out a unit's flak from its guns; the message says what is wrong, "" if nothing.
func (sf *ScenarioFlak) build(ship bool) (*Flak, string) {
	light, err := strike.ParseBarrels(sf.Light)
	if err != nil {
		return nil, "flak light barrels: " + err.Error()
	}
	if sf.HeavyMM != 0 || sf.HeavyGuns != 0 {
		if _, _, _, err := strike.HeavyFlak(sf.HeavyMM, sf.HeavyGuns); err != nil {
			return nil, "flak heavy guns (heavy_mm and heavy_guns): " + err.Error()
		}
	}
	if len(light) == 0 && sf.HeavyMM == 0 {
		return nil, "flak needs light barrels (light: 4x20mm) or heavy guns (heavy_mm, heavy_guns)"
	}
	if sf.Ammunition < 0 {
		return nil, "flak ammunition is a number of attacks, 1 or more (leave it out for no limit)"
	}
	f := &Flak{Ship: ship, Ammo: sf.Ammunition, Limited: sf.Ammunition > 0}
	if ship {
		class := strike.ShipSize(sf.Class)
		if class == "" {
			return nil, "a ship's flak needs its class: carrier, battleship, aa-ship, cruiser, destroyer or other"
		}
		n, err := strike.Naval(class, light, sf.HeavyMM, sf.HeavyGuns)
		if err != nil {
			return nil, err.Error()
		}
		f.NavalFlak = n
		return f, ""
	}
	if sf.Class != "" {
		return nil, "only a ship's flak has a class"
	}
	v, _ := strike.LandLight(light)
	f.Light = v
	if v > 0 {
		f.LightTotal = 1
	}
	if sf.HeavyMM != 0 {
		f.HeavyAimed, f.HeavySplash, f.HeavyCeiling, _ = strike.HeavyFlak(sf.HeavyMM, sf.HeavyGuns)
		f.HeavyAttacks = 1
	}
	return f, ""
}
