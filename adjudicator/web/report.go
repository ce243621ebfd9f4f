package web

import (
	"fmt"
	"sort"
	"strings"

	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

// reportView is one player's report as the pages show it: the same lines as their mail, the dice as a
// table, the map.
type reportView struct {
	Side     string
	Own      []ruleset.Unit
	Contacts []ruleset.Unit
	Ground   []ruleset.Unit
	Events   []string
	Dice     []diceRow
	Map      *mapView
	Over     bool
	Result   string
}

// diceRow is one die: what it was thrown for, the die, what it showed.
type diceRow struct{ What, Die, Value string }

// mapView is a map on a page: the picture (an SVG of its own, Src) when the ruleset draws one, and the
// ASCII map of the mail, which is also the picture's text alternative.
type mapView struct {
	ID      string // the id of the figure's caption, for aria-labelledby
	Caption string
	ASCII   string
	// Src is the picture's address, set by the page that shows it; scene is what it draws.
	Src   string
	scene *hex.Scene
	// Fold puts the ASCII map in a closed <details> (the board, where the plot fields matter more).
	Fold bool
}

func newReportView(rep ruleset.Report, id string) reportView {
	v := reportView{Side: rep.Side, Own: rep.Own, Contacts: rep.Contacts, Ground: rep.Ground, Events: rep.Events,
		Over: rep.Over, Result: rep.Result}
	for _, line := range rep.Dice {
		v.Dice = append(v.Dice, diceLine(line))
	}
	if rep.Map != "" || rep.Scene != nil {
		// The picture is the one the player's mail carried: the side's scene with the round's events.
		v.Map = &mapView{ID: id, Caption: "What " + rep.Side + " could see", ASCII: strings.TrimRight(rep.Map, "\n"), scene: rep.Picture()}
	}
	return v
}

// diceLine splits a report's dice line ("turn 2 RED1 spots KURT: D6: d6=4", dice.Roll.String) into the
// table's columns; a line of another form stays whole in the first.
func diceLine(line string) diceRow {
	i := strings.LastIndex(line, ": d")
	if i < 0 {
		return diceRow{What: line}
	}
	die, value, ok := strings.Cut(line[i+2:], "=")
	if !ok || die == "d" || value == "" {
		return diceRow{What: line}
	}
	return diceRow{What: line[:i], Die: die, Value: value}
}

// sideScene is one player's scene, with their side.
type sideScene struct {
	side  string
	scene *hex.Scene
}

// truthMap is the map of the whole truth: every player's own units (together every unit in play), the
// clouds, and the fire and events any side saw, merged from the players' scenes. The first side's units
// are drawn as own, every other side's as enemy. Nil when no scene shows a unit (a ruleset that draws
// no scenes).
func truthMap(scenes []sideScene, sides []string, id, caption, title string) *mapView {
	var merged hex.Scene
	seenUnit := map[string]bool{}
	seenHex := map[hex.Hex]bool{}
	seenLine := map[hex.SceneLine]bool{}
	seenMark := map[string]bool{}
	rank := map[string]int{}
	for i, s := range sides {
		rank[s] = i
	}
	for _, sc := range scenes {
		if sc.scene == nil {
			continue
		}
		if merged.Bounds == nil && sc.scene.Bounds != nil {
			b := *sc.scene.Bounds
			merged.Bounds = &b
		}
		for _, u := range sc.scene.Units {
			if u.Side != hex.Own || seenUnit[u.Label] {
				continue
			}
			seenUnit[u.Label] = true
			u.Side = hex.Own
			if rank[sc.side] > 0 {
				u.Side = hex.Enemy
			}
			merged.Units = append(merged.Units, u)
		}
		for _, c := range sc.scene.Clouds {
			if !seenHex[c] {
				seenHex[c] = true
				merged.Clouds = append(merged.Clouds, c)
			}
		}
		for _, l := range sc.scene.Lines {
			if !seenLine[l] {
				seenLine[l] = true
				merged.Lines = append(merged.Lines, l)
			}
		}
		for _, m := range sc.scene.Marks {
			k := fmt.Sprint(m.Hex, m.Kind, m.Label)
			if !seenMark[k] {
				seenMark[k] = true
				merged.Marks = append(merged.Marks, m)
			}
		}
	}
	if len(merged.Units) == 0 {
		return nil
	}
	// Own side first, then by label: the same scenes always give the same map.
	sort.SliceStable(merged.Units, func(i, j int) bool {
		a, b := merged.Units[i], merged.Units[j]
		if a.Side != b.Side {
			return a.Side < b.Side
		}
		return a.Label < b.Label
	})
	merged.Title = title
	return &mapView{ID: id, Caption: caption, ASCII: strings.TrimRight(merged.ASCII(), "\n"), scene: &merged}
}
