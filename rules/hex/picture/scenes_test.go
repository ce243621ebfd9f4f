package picture

import (
	"fmt"

	"sortie/rules/hex"
)

// everything is a scene with every unit kind for every allegiance, every line kind hit and missed, every
// mark kind, clouds, the map's bounds and units out of play.
func everything() hex.Scene {
	s := hex.Scene{
		Title: "Channel 1940 · turn 4 · RAF",
		Caption: []string{"Red 1 fired at Hans 1: 2 hits (engine, fuselage)", "Hans 9 was shot down",
			"Blue 2 fired at Hans 2 from 4 hexes and missed; the long line of this event wraps onto a second line when the picture is narrow enough to need it, and onto a third in a narrow one"},
		Bounds: &hex.SceneBounds{MinQ: -1, MaxQ: 16, MinRow: -1, MaxRow: 11},
	}
	names := map[hex.Allegiance]string{hex.Own: "Red", hex.Friendly: "Blue", hex.Enemy: "Hans"}
	for ai, a := range []hex.Allegiance{hex.Own, hex.Friendly, hex.Enemy} {
		for ki, k := range hex.UnitKinds {
			h := hex.Hex{Q: 1 + 2*ki + ai%2, R: 1 + 3*ai - ki}
			u := hex.SceneUnit{
				Hex: h, Facing: hex.Dir((ki*2 + ai*3) % 12), Faced: k != hex.Target, Kind: k, Side: a,
				Label: fmt.Sprintf("%s %d", names[a], ki+1),
				Notes: []string{fmt.Sprintf("alt %d", 2+ki), fmt.Sprintf("spd %d", 3+ai)},
			}
			if a == hex.Own && (k == hex.Aircraft || k == hex.Squadron) {
				u.Track = []hex.Hex{h.Add(hex.Hex{Q: -2, R: 2}), h.Add(hex.Hex{Q: -1, R: 1}), h.Add(hex.Hex{Q: -1, R: 0})}
			}
			if a == hex.Enemy && k == hex.Aircraft {
				u.Track = []hex.Hex{h.Add(hex.Hex{Q: 2, R: 0}), h.Add(hex.Hex{Q: 1, R: 0})}
			}
			s.Units = append(s.Units, u)
		}
	}
	// An unfaced plane, two sharing a hex, units out of play.
	s.Units = append(s.Units,
		hex.SceneUnit{Hex: hex.Hex{Q: 13, R: 1}, Kind: hex.Aircraft, Side: hex.Enemy, Label: "Bogey", Notes: []string{"alt ?"}},
		hex.SceneUnit{Hex: hex.Hex{Q: 3, R: 8}, Kind: hex.Ship, Side: hex.Enemy, Label: "Convoy", Notes: []string{"course unknown"}},
		hex.SceneUnit{Hex: hex.Hex{Q: 5, R: 8}, Kind: hex.Squadron, Side: hex.Friendly, Label: "Yellow Sqn"},
		hex.SceneUnit{Hex: hex.Hex{Q: 13, R: 3}, Facing: 8, Faced: true, Kind: hex.Aircraft, Side: hex.Own, Label: "Red 7", Notes: []string{"alt 6"}},
		hex.SceneUnit{Hex: hex.Hex{Q: 13, R: 3}, Facing: 9, Faced: true, Kind: hex.Aircraft, Side: hex.Enemy, Label: "Hans 7", Notes: []string{"alt 6"}},
		hex.SceneUnit{Hex: hex.Hex{Q: 15, R: -2}, Facing: 2, Faced: true, Kind: hex.Aircraft, Side: hex.Enemy, Label: "Hans 9", Notes: []string{"shot down"}, Out: true},
		hex.SceneUnit{Hex: hex.Hex{Q: 15, R: 0}, Facing: 4, Faced: true, Kind: hex.Squadron, Side: hex.Friendly, Label: "Blue Sqn", Out: true},
	)
	for i, k := range hex.LineKinds {
		from, to := hex.Hex{Q: 1 + 2*i, R: 0 - i}, hex.Hex{Q: 2 + 2*i, R: 5 - i}
		s.Lines = append(s.Lines,
			hex.SceneLine{From: from, To: to, Kind: k, Hit: true},
			hex.SceneLine{From: to, To: from.Add(hex.Hex{Q: 1, R: 0}), Kind: k, Hit: false})
	}
	s.Lines = append(s.Lines, hex.SceneLine{From: hex.Hex{Q: 13, R: 3}, To: hex.Hex{Q: 13, R: 3}, Kind: hex.Fire, Hit: true})
	for i, k := range hex.MarkKinds {
		s.Marks = append(s.Marks, hex.SceneMark{Hex: hex.Hex{Q: 10 + i%3, R: 6 + i/3}, Kind: k, Label: []string{"Hans 9", "", "Red 3", "", "Blue 2", "Bogey"}[i]})
	}
	s.Marks = append(s.Marks, hex.SceneMark{Hex: hex.Hex{Q: 10, R: 6}, Kind: hex.Damaged})
	s.Clouds = []hex.Hex{{Q: 7, R: 1}, {Q: 8, R: 1}, {Q: 7, R: 2}, {Q: 8, R: 0}, {Q: 9, R: 0}}
	return s
}

// rng is a small deterministic generator for test scenes.
type rng uint64

func (r *rng) intn(n int) int {
	*r = *r*6364136223846793005 + 1442695040888963407
	return int(uint64(*r>>33) % uint64(n))
}

// crowd is a busy scene the way a big raid looks: n units in formations spread over a 36×24 hex area,
// each with the track it flew, lines between units in range of each other and marks where things
// happened.
func crowd(n, lines, marks int) hex.Scene {
	r := rng(42)
	s := hex.Scene{Title: fmt.Sprintf("Big raid · turn 7 · %d units", n)}
	type formation struct {
		at     hex.Hex
		facing hex.Dir
		side   hex.Allegiance
		ground bool
	}
	var fs []formation
	for i := 0; i < 7; i++ {
		// Spread over a 4×2 grid of 9×12-hex areas, one formation an area.
		q := 4 + 9*(i%4) + r.intn(3)
		fs = append(fs, formation{
			at: hex.Hex{Q: q, R: -q/2 - 8 + 12*(i/4) + r.intn(4)}, facing: hex.Dir(r.intn(12)),
			side: []hex.Allegiance{hex.Own, hex.Friendly, hex.Enemy}[i%3], ground: i == 6,
		})
	}
	for i := 0; i < n; i++ {
		f := fs[i%len(fs)]
		h := f.at.Add(hex.Hex{Q: r.intn(7) - 3, R: r.intn(7) - 3})
		k := hex.Aircraft
		if f.ground {
			k = []hex.UnitKind{hex.Ground, hex.Ship, hex.Target, hex.Flak}[r.intn(4)]
		} else if r.intn(8) == 0 {
			k = hex.Squadron
		}
		u := hex.SceneUnit{
			Hex: h, Facing: f.facing.Turn(r.intn(3) - 1), Faced: k != hex.Target, Kind: k, Side: f.side,
			Label: fmt.Sprintf("%c%d", 'A'+rune(i%26), i), Notes: []string{fmt.Sprintf("a%d s%d", r.intn(30), r.intn(9))},
			Out: r.intn(12) == 0,
		}
		if !f.ground {
			// Flown straight on, so back along the reverse heading.
			at, ph := h, hex.RightFront
			for j := 0; j < 4+r.intn(3); j++ {
				at, ph = hex.Forward(at, u.Facing.Turn(6), ph)
				u.Track = append([]hex.Hex{at}, u.Track...)
			}
		}
		s.Units = append(s.Units, u)
	}
	for len(s.Lines) < lines {
		a, b := s.Units[r.intn(n)], s.Units[r.intn(n)]
		if a.Side == b.Side || hex.Distance(a.Hex, b.Hex) > 5 {
			continue
		}
		k := hex.Fire
		switch a.Kind {
		case hex.Flak, hex.Ship:
			k = hex.FlakFire
		case hex.Ground, hex.Target:
			continue
		}
		if b.Kind == hex.Ship && r.intn(2) == 0 {
			k = hex.Torpedo
		} else if b.Kind == hex.Target || b.Kind == hex.Ground {
			k = hex.Bombing
		}
		s.Lines = append(s.Lines, hex.SceneLine{From: a.Hex, To: b.Hex, Kind: k, Hit: r.intn(2) == 0})
	}
	for i := 0; i < marks; i++ {
		s.Marks = append(s.Marks, hex.SceneMark{Hex: s.Units[r.intn(n)].Hex, Kind: hex.MarkKinds[r.intn(6)]})
	}
	for i := 0; i < 30; i++ {
		c := fs[r.intn(len(fs))].at
		s.Clouds = append(s.Clouds, c.Add(hex.Hex{Q: r.intn(9) - 4, R: r.intn(9) - 4}))
	}
	return s
}

// dogfight is a typical turn of the Air Force game as the RAF player sees it: a section of Spitfires with
// its tracks, a friendly section, a Schwarm of Bf 109s, fire, a kill and a bail-out, clouds.
func dogfight() hex.Scene {
	plane := func(q, r int, f hex.Dir, a hex.Allegiance, label string, notes []string, track ...hex.Hex) hex.SceneUnit {
		return hex.SceneUnit{Hex: hex.Hex{Q: q, R: r}, Facing: f, Faced: true, Kind: hex.Aircraft, Side: a, Label: label, Notes: notes, Track: track}
	}
	return hex.Scene{
		Title: "Kent 1940 · turn 3 · RAF, Red section",
		Units: []hex.SceneUnit{
			plane(6, 3, 1, hex.Own, "Red 1", []string{"8000 ft", "speed 5"}, hex.Hex{Q: 3, R: 5}, hex.Hex{Q: 4, R: 4}, hex.Hex{Q: 5, R: 4}, hex.Hex{Q: 5, R: 3}),
			plane(5, 5, 2, hex.Own, "Red 2", []string{"8000 ft", "speed 5"}, hex.Hex{Q: 2, R: 7}, hex.Hex{Q: 3, R: 6}, hex.Hex{Q: 4, R: 6}, hex.Hex{Q: 4, R: 5}),
			plane(3, 7, 0, hex.Own, "Red 3", []string{"7000 ft", "speed 4"}, hex.Hex{Q: 3, R: 10}, hex.Hex{Q: 3, R: 9}, hex.Hex{Q: 3, R: 8}),
			plane(9, 5, 10, hex.Friendly, "Blue 1", []string{"9000 ft"}),
			plane(10, 5, 10, hex.Friendly, "Blue 2", []string{"9000 ft"}),
			plane(8, 1, 7, hex.Enemy, "Bf 109 E", []string{"9000 ft"}),
			plane(9, 1, 7, hex.Enemy, "Bf 109 E", []string{"9000 ft"}),
			plane(6, 0, 8, hex.Enemy, "Bf 109 E", []string{"10000 ft"}),
			{Hex: hex.Hex{Q: 7, R: 3}, Facing: 6, Faced: true, Kind: hex.Aircraft, Side: hex.Enemy, Label: "Bf 109 E", Notes: []string{"shot down"}, Out: true},
		},
		Lines: []hex.SceneLine{
			{From: hex.Hex{Q: 6, R: 3}, To: hex.Hex{Q: 7, R: 3}, Kind: hex.Fire, Hit: true},
			{From: hex.Hex{Q: 5, R: 5}, To: hex.Hex{Q: 7, R: 3}, Kind: hex.Fire, Hit: false},
			{From: hex.Hex{Q: 8, R: 1}, To: hex.Hex{Q: 6, R: 3}, Kind: hex.Fire, Hit: false},
		},
		Marks: []hex.SceneMark{
			{Hex: hex.Hex{Q: 7, R: 3}, Kind: hex.ShotDown},
			{Hex: hex.Hex{Q: 7, R: 3}, Kind: hex.BailOut, Label: "pilot baled out"},
		},
		Clouds: []hex.Hex{{Q: 1, R: 3}, {Q: 2, R: 3}, {Q: 1, R: 4}, {Q: 2, R: 2}, {Q: 0, R: 4}},
	}
}

// board is the dogfight as the RAF player tries plots on the plotting board: Red 1's plot climbs away
// through a Bf 109's hex and ends faced; Red 2's has errors and is drawn as far as it reads; Red 3's
// stays in its hex, its facing not given.
func board() hex.Scene {
	s := dogfight()
	s.Title = "Kent 1940 · turn 4 · RAF, Red section · plots tried"
	s.Caption = nil
	s.Plans = []hex.ScenePlan{
		{Label: "Red 1", Path: []hex.Hex{{Q: 6, R: 3}, {Q: 7, R: 2}, {Q: 8, R: 1}, {Q: 8, R: 1}, {Q: 9, R: 0}, {Q: 10, R: -1}}, Facing: 2, Faced: true, Legal: true},
		{Label: "Red 2", Path: []hex.Hex{{Q: 5, R: 5}, {Q: 6, R: 5}, {Q: 7, R: 4}}, Facing: 3, Faced: true},
		{Label: "Red 3", Path: []hex.Hex{{Q: 3, R: 7}}, Legal: true},
	}
	return s
}

// side20 is a report's picture of a side of 20 aircraft in four flights, each with the track it flew,
// ten enemy aircraft, some fire and clouds; with plans, each of the 20 has a plot of 6 to 12 hexes
// being tried, one in five with errors.
func side20(plans bool) hex.Scene {
	r := rng(20)
	s := hex.Scene{Title: "Channel 1940 · turn 6 · 20 aircraft"}
	for i := range 30 {
		flight := i / 5
		side := hex.Own
		if i >= 20 {
			side = hex.Enemy
		}
		q := 3 + 7*(flight%3) + r.intn(4)
		h := hex.Hex{Q: q, R: -q/2 + 2 + 8*(flight/3) + r.intn(4)}
		f := hex.Dir(2 * r.intn(6))
		u := hex.SceneUnit{Hex: h, Facing: f, Faced: true, Kind: hex.Aircraft, Side: side,
			Label: fmt.Sprintf("%c%d", 'A'+rune(flight), i%5+1), Notes: []string{fmt.Sprintf("alt %d", 10+r.intn(20))}}
		at := h
		for range 3 + r.intn(3) {
			at = at.Neighbor(f.Turn(6))
			u.Track = append([]hex.Hex{at}, u.Track...)
		}
		s.Units = append(s.Units, u)
		if plans && side == hex.Own {
			p := hex.ScenePlan{Label: u.Label, Path: []hex.Hex{h}, Faced: true, Legal: r.intn(5) != 0}
			d, at := f, h
			for range 6 + r.intn(7) {
				if r.intn(3) == 0 {
					d = d.Turn(2 * (2*r.intn(2) - 1))
				}
				at = at.Neighbor(d)
				p.Path = append(p.Path, at)
			}
			p.Facing = d
			s.Plans = append(s.Plans, p)
		}
	}
	for range 6 {
		a, b := s.Units[r.intn(20)], s.Units[20+r.intn(10)]
		s.Lines = append(s.Lines, hex.SceneLine{From: a.Hex, To: b.Hex, Kind: hex.Fire, Hit: r.intn(2) == 0})
	}
	s.Marks = []hex.SceneMark{{Hex: s.Units[22].Hex, Kind: hex.Damaged}, {Hex: s.Units[25].Hex, Kind: hex.ShotDown}}
	for range 8 {
		s.Clouds = append(s.Clouds, s.Units[r.intn(30)].Hex.Add(hex.Hex{Q: r.intn(5) - 2, R: r.intn(5) - 2}))
	}
	return s
}
