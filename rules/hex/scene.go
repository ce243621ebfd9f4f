package hex

import (
	"fmt"
)

// Scene is what a map picture of one side's view shows, as plain data: the units the side knows of, the
// tracks its own units flew, the clouds, the fire it saw and the marks left by what happened. A ruleset
// builds it from the same View its report is written from (invariant 4, docs/architecture.md), so a
// picture can never show more than the report; package picture draws it. The zero Scene is empty.
//
// A Scene is deterministic data: the same view gives the same Scene, and the renderer gives the same
// bytes for the same Scene.
type Scene struct {
	// Title is the picture's heading, e.g. "Kent 1940 · turn 3 · RAF".
	Title string `json:"title"`
	// Units are drawn in order, later ones on top.
	Units []SceneUnit `json:"units"`
	// Clouds are hexes drawn shaded.
	Clouds []Hex `json:"clouds,omitempty"`
	// Lines are fire, flak, bombs and torpedoes this side saw: from the shooter to the target.
	Lines []SceneLine `json:"lines,omitempty"`
	// Marks are what happened in one hex: a plane shot down, a bail-out, a bomb burst.
	Marks []SceneMark `json:"marks,omitempty"`
	// Caption is what happened this round as the side was told it, a line each, printed under the map
	// so the picture can be followed on its own.
	Caption []string `json:"caption,omitempty"`
	// Bounds, when set, are the map's playing area (hexes outside it are drawn as off the map).
	Bounds *SceneBounds `json:"bounds,omitempty"`
	// Plans are plots being tried on the plotting board, drawn over the map: where each would take its
	// unit. A picture in a report has none.
	Plans []ScenePlan `json:"plans,omitempty"`
}

// ScenePlan is one unit's plot as tried on the board: the hexes it would pass through, from the unit's
// hex to the end, and the facing it would end with.
type ScenePlan struct {
	Label  string `json:"label"`
	Path   []Hex  `json:"path"`
	Facing Dir    `json:"facing"`
	Faced  bool   `json:"faced"`
	// Legal is false for a plot with errors: drawn as far as it reads, in the warning colour.
	Legal bool `json:"legal"`
}

// SceneBounds is a map's playing area in columns (q) and rows (Row).
type SceneBounds struct {
	MinQ, MaxQ, MinRow, MaxRow int
}

// Allegiance is whose a unit is, as the viewing side sees it.
type Allegiance int

// The allegiances, in drawing order of importance.
const (
	Own      Allegiance = iota // the viewing player's units
	Friendly                   // the side's other players' units
	Enemy                      // spotted enemy units
)

// OwnUnit is the allegiance of a unit of the viewing side that player flies, as viewer sees it: Own
// when it is viewer's, Friendly when another player of the side flies it.
func OwnUnit(player, viewer string) Allegiance {
	if player == viewer {
		return Own
	}
	return Friendly
}

// UnitKind is the kind of symbol a unit is drawn with.
type UnitKind int

// The unit kinds a picture distinguishes.
const (
	Aircraft UnitKind = iota // one plane, drawn as an arrow along its facing
	Squadron                 // a formation drawn as one counter (Swarm)
	Ground                   // a truck, tank or column on the ground
	Ship                     // a ship
	Target                   // a fixed target: a bridge, a factory, an airfield
	Flak                     // a gun position
)

// UnitKinds lists every unit kind, for tests that draw them all.
var UnitKinds = []UnitKind{Aircraft, Squadron, Ground, Ship, Target, Flak}

// SceneUnit is one unit on the picture.
type SceneUnit struct {
	Hex    Hex        `json:"hex"`
	Facing Dir        `json:"facing"`
	Faced  bool       `json:"faced"` // whether Facing is known and drawn
	Kind   UnitKind   `json:"kind"`
	Side   Allegiance `json:"side"`
	// Label is the unit's name on the map, usually its callsign.
	Label string `json:"label"`
	// Notes are short lines under the label: altitude, speed, type.
	Notes []string `json:"notes,omitempty"`
	// Track is the hexes the unit passed through this round, in order, ending at Hex; empty when unknown.
	Track []Hex `json:"track,omitempty"`
	// Out marks a unit out of play (shot down, crashed, left the map): drawn faded.
	Out bool `json:"out,omitempty"`
}

// LineKind is what a SceneLine stands for.
type LineKind int

// The line kinds.
const (
	Fire     LineKind = iota // guns from one aircraft at another
	FlakFire                 // flak at an aircraft
	Bombing                  // bombs from an aircraft at a target below
	Torpedo                  // a torpedo's run
)

// LineKinds lists every line kind, for tests that draw them all.
var LineKinds = []LineKind{Fire, FlakFire, Bombing, Torpedo}

// SceneLine is an attack the side saw, from one hex to another.
type SceneLine struct {
	From Hex      `json:"from"`
	To   Hex      `json:"to"`
	Kind LineKind `json:"kind"`
	Hit  bool     `json:"hit"` // drawn solid when it hit, dashed when it missed
}

// MarkKind is what a SceneMark stands for.
type MarkKind int

// The mark kinds.
const (
	ShotDown MarkKind = iota // a plane destroyed in the air
	BailOut                  // a parachute
	Crash                    // a plane that hit the ground or the sea
	Burst                    // a bomb, rocket or torpedo hit
	Damaged                  // a unit hit but still flying or moving
	Exit                     // a unit left the map
)

// MarkKinds lists every mark kind, for tests that draw them all.
var MarkKinds = []MarkKind{ShotDown, BailOut, Crash, Burst, Damaged, Exit}

// SceneMark is something that happened in one hex.
type SceneMark struct {
	Hex   Hex      `json:"hex"`
	Kind  MarkKind `json:"kind"`
	Label string   `json:"label,omitempty"`
}

// After names the moment a picture shows in its title, from the turn to be played next: "opening
// positions" before the first, else "after turn n".
func After(next int) string {
	if next <= 1 {
		return "opening positions"
	}
	return fmt.Sprintf("after turn %d", next-1)
}

// AppendTrack adds hexes to a track, leaving out each that repeats the one before it (a unit stays in
// a hex for several steps), so a track is the hexes entered, in order.
func AppendTrack(track []Hex, hexes ...Hex) []Hex {
	for _, h := range hexes {
		if len(track) == 0 || track[len(track)-1] != h {
			track = append(track, h)
		}
	}
	return track
}

// Hexes are every hex the scene draws something in: units, their tracks, line ends, marks, clouds and
// the plans' paths. A picture frames at least these.
func (s *Scene) Hexes() []Hex {
	var out []Hex
	for _, u := range s.Units {
		out = append(out, u.Hex)
		out = append(out, u.Track...)
	}
	for _, l := range s.Lines {
		out = append(out, l.From, l.To)
	}
	for _, m := range s.Marks {
		out = append(out, m.Hex)
	}
	out = append(out, s.Clouds...)
	for _, p := range s.Plans {
		out = append(out, p.Path...)
	}
	return out
}
