package afd

import (
	"fmt"

	hexmap "sortie/rules/hex"
)

// sceneOf is a side's view as the data of its report's map picture (hexmap.Scene): its own planes with
// the track each flew this turn, the enemy planes it sees (and those it saw go down), the ground units it
// sees, the clouds near them, and the lines and marks of the events the side was told of. It reads only
// the View and the side's own events (EventsFor), so the picture shows nothing the report does not.
// when names the moment the picture shows; "" for the end of the view's turn (hexmap.After).
func sceneOf(v View, player string, events []Event, when string) *hexmap.Scene {
	if when == "" {
		when = hexmap.After(v.Turn)
	}
	sc := &hexmap.Scene{Title: fmt.Sprintf("%s · %s · %s", v.Scenario, when, v.Side)}
	where := map[string]hexmap.Hex{}
	for _, p := range v.Own {
		f := p.Flight
		where[p.Callsign] = f.Hex
		u := hexmap.SceneUnit{Hex: f.Hex, Facing: f.Facing, Faced: true, Kind: hexmap.Aircraft, Side: hexmap.OwnUnit(p.Player, player),
			Label: p.Callsign, Out: !p.InPlay()}
		if p.InPlay() {
			u.Notes = []string{feetText(f.Alt) + " ft", fmt.Sprintf("speed %.1f", f.Speed.Float())}
			u.Track = trackOf(p.Track, f.Hex)
		} else {
			u.Notes = []string{string(p.Status)}
		}
		sc.Units = append(sc.Units, u)
	}
	for _, c := range v.Enemies {
		where[c.Callsign] = c.Hex
		u := hexmap.SceneUnit{Hex: c.Hex, Facing: c.Facing, Faced: true, Kind: hexmap.Aircraft, Side: hexmap.Enemy,
			Label: c.Callsign, Notes: []string{feetText(c.Alt) + " ft"}}
		if c.Type != "" {
			u.Notes = append(u.Notes, c.Type)
		}
		sc.Units = append(sc.Units, u)
	}
	for _, c := range v.Downed {
		where[c.Callsign] = c.Hex
		sc.Units = append(sc.Units, hexmap.SceneUnit{Hex: c.Hex, Facing: c.Facing, Faced: true, Kind: hexmap.Aircraft,
			Side: hexmap.Enemy, Label: c.Callsign, Notes: []string{"last seen"}, Out: true})
	}
	for _, g := range v.Ground {
		where[g.Callsign] = g.Hex
		u := hexmap.SceneUnit{Hex: g.Hex, Facing: g.Facing, Faced: moves(g.Kind), Kind: groundKind(&g), Side: hexmap.Own,
			Label: g.Callsign, Notes: []string{g.Kind}}
		switch {
		case g.Side != v.Side:
			u.Side = hexmap.Enemy
		case g.Player != "" && g.Player != player:
			u.Side = hexmap.Friendly
		}
		sc.Units = append(sc.Units, u)
	}
	for _, e := range events {
		sceneEvent(sc, where, &e)
	}
	sc.Clouds = cloudHexes(v.Clouds, sc.Hexes())
	if m := v.Map; m != nil {
		sc.Bounds = &hexmap.SceneBounds{MinQ: m.MinQ, MaxQ: m.MaxQ, MinRow: m.MinRow, MaxRow: m.MaxRow}
	}
	return sc
}

// groundKind is the symbol of a ground unit: ships, vehicles, gun positions and fixed targets.
func groundKind(g *GroundUnit) hexmap.UnitKind {
	switch {
	case g.Kind == Ship:
		return hexmap.Ship
	case moves(g.Kind):
		return hexmap.Ground
	case g.Flak != nil:
		return hexmap.Flak
	}
	return hexmap.Target
}

// trackOf is a plane's track this turn without repeats (it stays in a hex for several sub-steps).
func trackOf(track []hexmap.Hex, end hexmap.Hex) []hexmap.Hex {
	if len(track) < 2 {
		return nil
	}
	out := hexmap.AppendTrack(hexmap.AppendTrack(nil, track...), end)
	if len(out) < 2 {
		return nil
	}
	return out
}

// sceneEvent draws one event the side was told of: fire, flak, bombs and torpedoes as lines between
// units whose hexes the side knows, losses and hits as marks. An event whose ends it does not know draws
// nothing.
func sceneEvent(sc *hexmap.Scene, where map[string]hexmap.Hex, e *Event) {
	line := func(from, to string, kind hexmap.LineKind, hit bool) {
		a, okA := where[from]
		b, okB := where[to]
		if okA && okB {
			sc.Lines = append(sc.Lines, hexmap.SceneLine{From: a, To: b, Kind: kind, Hit: hit})
		}
	}
	mark := func(who string, kind hexmap.MarkKind) {
		if h, ok := where[who]; ok {
			sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: h, Kind: kind, Label: who})
		}
	}
	x := e.Extras() // the detail few kinds carry (a nil Extra reads as zeros)
	switch e.Kind {
	case EvFire:
		line(e.Plane, e.Target, hexmap.Fire, e.Fire != nil && e.Fire.Hits > 0)
	case EvFlak:
		hit := x.Flak != nil && x.Flak.Hits > 0
		if _, ok := where[e.Plane]; ok {
			line(e.Plane, e.Target, hexmap.FlakFire, hit)
		} else if to, ok := where[e.Target]; ok && x.Flak != nil && x.Flak.From != to {
			sc.Lines = append(sc.Lines, hexmap.SceneLine{From: x.Flak.From, To: to, Kind: hexmap.FlakFire, Hit: hit})
		}
	case EvGroundDamage:
		// Plane is the ground unit hit, Target the attacker; a torpedo's hit is ground damage too.
		kind := hexmap.Bombing
		if x.Ground != nil && x.Ground.Weapon == "torpedo" {
			kind = hexmap.Torpedo
		}
		line(e.Target, e.Plane, kind, true)
		mark(e.Plane, hexmap.Burst)
	case EvTorpedo:
		if e.Target != "" {
			line(e.Plane, e.Target, hexmap.Torpedo, false)
		}
	case EvDamage:
		mark(e.Plane, hexmap.Damaged)
	case EvShotDown:
		mark(e.Plane, hexmap.ShotDown)
	case EvBailOut:
		if x.Saved > 0 || e.Side == "" {
			mark(e.Plane, hexmap.BailOut)
		}
	case EvCrash:
		mark(e.Plane, hexmap.Crash)
	case EvDisengaged:
		mark(e.Plane, hexmap.Exit)
	}
}

// cloudHexes are the hexes of the clouds near what the picture shows (within six hexes of it, a turn's
// flight at a fighter's cruising speed), so the clouds a pilot may reach or hide behind next are on the
// maps, and a wide cloud bank neither hides nor stretches them.
func cloudHexes(clouds []Cloud, shown []hexmap.Hex) []hexmap.Hex {
	if len(clouds) == 0 || len(shown) == 0 {
		return nil
	}
	minQ, maxQ, minRow, maxRow := shown[0].Q, shown[0].Q, hexmap.Row(shown[0]), hexmap.Row(shown[0])
	for _, h := range shown {
		minQ, maxQ = min(minQ, h.Q), max(maxQ, h.Q)
		minRow, maxRow = min(minRow, hexmap.Row(h)), max(maxRow, hexmap.Row(h))
	}
	const margin = 6
	seen := map[hexmap.Hex]bool{}
	var out []hexmap.Hex
	for _, c := range clouds {
		for q := max(minQ-margin, c.Center.Q-c.Radius); q <= min(maxQ+margin, c.Center.Q+c.Radius); q++ {
			for row := minRow - margin; row <= maxRow+margin; row++ {
				h := hexmap.Hex{Q: q, R: row - (q-(q&1))/2}
				if hexmap.Row(h) != row || seen[h] || hexmap.Distance(h, c.Center) > c.Radius {
					continue
				}
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	return out
}
