package swarm

import (
	"fmt"

	hexmap "sortie/rules/hex"
)

// sceneOf is a side's view as the data of its report's map picture (hexmap.Scene): its own squadrons
// with the hexes they flew this round, the enemy squadrons in sight, the ground targets of the briefing
// map, and the attacks and losses the side was told of. It reads only the View and the side's own
// events (EventsFor), so the picture shows nothing the report does not.
func sceneOf(v View, player string, events []Event) *hexmap.Scene {
	sc := &hexmap.Scene{Title: fmt.Sprintf("%s · %s · %s", v.Scenario, hexmap.After(v.Turn), v.Side)}
	where := map[string]hexmap.Hex{}
	tracks := map[string][]hexmap.Hex{}
	for _, e := range events {
		if (e.Kind == EvMove || e.Kind == EvCourse) && e.Move != nil && e.Side == v.Side {
			tracks[e.Unit] = hexmap.AppendTrack(hexmap.AppendTrack(tracks[e.Unit], e.Move.From.Hex), e.Move.Path...)
		}
	}
	for i := range v.Own {
		q := &v.Own[i]
		where[q.Callsign] = q.Pos.Hex
		u := hexmap.SceneUnit{Hex: q.Pos.Hex, Facing: q.Pos.Facing, Faced: true, Kind: hexmap.Squadron, Side: hexmap.OwnUnit(q.Player, player),
			Label: q.Callsign, Notes: []string{q.Tack.Band}, Out: !q.InPlay()}
		if t := tracks[q.Callsign]; len(t) > 1 && q.InPlay() {
			u.Track = hexmap.AppendTrack(t, q.Pos.Hex)
		}
		sc.Units = append(sc.Units, u)
	}
	for _, c := range v.Enemies {
		where[c.Callsign] = c.Pos.Hex
		sc.Units = append(sc.Units, hexmap.SceneUnit{Hex: c.Pos.Hex, Facing: c.Pos.Facing, Faced: true, Kind: hexmap.Squadron,
			Side: hexmap.Enemy, Label: c.Callsign, Notes: []string{c.Band}})
	}
	for _, t := range v.Targets {
		where[t.Name] = t.Hex
		u := hexmap.SceneUnit{Hex: t.Hex, Kind: hexmap.Target, Side: hexmap.Own, Label: t.Name,
			Notes: []string{fmt.Sprintf("damage %d/%d", t.Damage, t.Strength)}, Out: t.Destroyed()}
		if t.Side != v.Side {
			u.Side = hexmap.Enemy
		}
		sc.Units = append(sc.Units, u)
	}
	for _, e := range events {
		a, okA := where[e.Unit]
		b, okB := where[e.Target]
		switch e.Kind {
		case EvFire:
			if okA && okB {
				sc.Lines = append(sc.Lines, hexmap.SceneLine{From: a, To: b, Kind: hexmap.Fire, Hit: e.Fire != nil && e.Fire.Filled > 0})
			}
			if okB && e.Fire != nil && e.Fire.Filled > 0 {
				sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: b, Kind: hexmap.Damaged, Label: e.Target})
			}
		case EvBomb:
			hit := e.Bomb != nil && e.Bomb.Hits > 0
			if okA && okB {
				sc.Lines = append(sc.Lines, hexmap.SceneLine{From: a, To: b, Kind: hexmap.Bombing, Hit: hit})
			}
			if okB && hit {
				sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: b, Kind: hexmap.Burst, Label: e.Target})
			}
		case EvDestroyed:
			if okA {
				sc.Marks = append(sc.Marks, hexmap.SceneMark{Hex: a, Kind: hexmap.ShotDown, Label: e.Unit})
			}
		}
	}
	return sc
}
