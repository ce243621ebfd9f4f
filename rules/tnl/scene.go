package tnl

import (
	"fmt"

	hexmap "sortie/rules/hex"
)

// sceneOf is a side's view as the data of its report's map picture (hexmap.Scene): its own aircraft with
// the hexes they flew in both phases of the turn, the enemy aircraft in sight, the ships and sites it
// knows, and the fire, AA, bombs and losses the side was told of. It reads only the View and the side's
// own events (EventsFor), so the picture shows nothing the report does not.
func sceneOf(v View, player string, events []Event) *hexmap.Scene {
	sc := &hexmap.Scene{Title: fmt.Sprintf("%s · %s · %s", v.Scenario, hexmap.After(v.Turn), v.Side)}
	where := map[string]hexmap.Hex{}
	tracks := map[string][]hexmap.Hex{}
	for _, e := range events {
		if e.Kind == EvMove && e.Move != nil && e.Side == v.Side {
			tracks[e.Unit] = hexmap.AppendTrack(hexmap.AppendTrack(tracks[e.Unit], e.Move.From.Hex), e.Move.Path...)
		}
	}
	for i := range v.Own {
		a := &v.Own[i]
		where[a.Callsign] = a.Hex
		u := hexmap.SceneUnit{Hex: a.Hex, Facing: a.Facing, Faced: true, Kind: hexmap.Aircraft, Side: hexmap.OwnUnit(a.Player, player),
			Label: a.Callsign, Out: !a.InPlay()}
		if a.InPlay() {
			u.Notes = []string{a.Level.String(), fmt.Sprintf("speed %d", a.Speed)}
			if t := tracks[a.Callsign]; len(t) > 1 {
				u.Track = hexmap.AppendTrack(t, a.Hex)
			}
		} else {
			u.Notes = []string{string(a.Status)}
		}
		sc.Units = append(sc.Units, u)
	}
	for _, c := range v.Enemies {
		where[c.Callsign] = c.Hex
		sc.Units = append(sc.Units, hexmap.SceneUnit{Hex: c.Hex, Facing: c.Facing, Faced: true, Kind: hexmap.Aircraft,
			Side: hexmap.Enemy, Label: c.Callsign, Notes: []string{c.Level.String(), c.Type}})
	}
	for _, gr := range v.Ground {
		where[gr.Callsign] = gr.Hex
		u := hexmap.SceneUnit{Hex: gr.Hex, Facing: gr.Facing, Kind: hexmap.Target, Side: hexmap.Own, Label: gr.Callsign,
			Notes: []string{gr.Kind}}
		if gr.Kind == "ship" {
			u.Kind, u.Faced, u.Out = hexmap.Ship, true, gr.Sunk()
		} else if !gr.AA.Empty() {
			u.Kind = hexmap.Flak
		}
		if gr.Side != v.Side {
			u.Side = hexmap.Enemy
		}
		sc.Units = append(sc.Units, u)
	}
	for _, e := range events {
		a, okA := where[e.Unit]
		b, okB := where[e.Target]
		kind := hexmap.LineKind(-1)
		switch e.Kind {
		case EvFire:
			kind = hexmap.Fire
		case EvAA:
			kind = hexmap.FlakFire
		case EvBomb:
			kind = hexmap.Bombing
		case EvTorpedo:
			kind = hexmap.Torpedo
		case EvDestroyed:
			if okA {
				sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: a, Kind: hexmap.ShotDown, Label: e.Unit})
			}
		case EvSunk:
			if okA {
				sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: a, Kind: hexmap.Burst, Label: e.Unit})
			}
		}
		if kind < 0 || !okA || !okB {
			continue
		}
		hit := e.Hit || e.Shot != nil && e.Shot.Suffered > 0
		sc.Lines = append(sc.Lines, hexmap.SceneLine{From: a, To: b, Kind: kind, Hit: hit})
		if hit && kind != hexmap.Bombing && kind != hexmap.Torpedo {
			sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: b, Kind: hexmap.Damaged, Label: e.Target})
		}
	}
	return sc
}
