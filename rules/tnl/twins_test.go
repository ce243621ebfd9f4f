package tnl

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"sortie/rules/dice"
	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// twinScenario is a one-on-one under limited visibility for the kit's twins: the RAF's RED1 flies six
// hexes a phase north; the Luftwaffe's JAGD1, out of sight when the game starts, starts at start with
// the given speed. extra is more aircraft lines.
func twinScenario(start hexmap.Hex, facing hexmap.Dir, speed int, extra string) []byte {
	return fmt.Appendf(nil, rafLuftwaffe+`name: twins
turns: 4
visibility: 8
aircraft:
  - {callsign: RED1, type: spitfire-i, unit: RED, side: RAF, player: ann, hex: [0, 6], facing: 0, level: M, speed: 6}
  - {callsign: JAGD1, type: bf-109e, unit: JAGD, side: Luftwaffe, player: ben, hex: [%d, %d], facing: %d, level: M, speed: %d}
%svictory:
  - {side: RAF, kind: destroy, aircraft: [JAGD1], points: 1}
`, start.Q, start.R, int(facing)*30, speed, extra)
}

// tnlTwins: JAGD1 ends the turn where the RAF first sees it, having come twelve hexes in two phases of
// six or eight in two of four, out of sight (seed 003 has no sighting rule: docs/tnl.md, Fog of war). The
// RAF's report used to say how fast it was "seen flying", and its pilot reckoned with it (issue "Fog and
// faults", defect 1). In six places around RED1, and with a second Luftwaffe aircraft far out of sight
// or not there at all.
func tnlTwins() []rulesettest.Twins {
	start, mid, end := hexmap.Hex{Q: 0, R: 6}, hexmap.Hex{Q: 0, R: 0}, hexmap.Hex{Q: 0, R: -6} // RED1's turn
	back := func(h hexmap.Hex, facing hexmap.Dir, n int) hexmap.Hex {
		for range n {
			h = h.Neighbor(facing.Turn(6))
		}
		return h
	}
	var out []rulesettest.Twins
	for _, facing := range []hexmap.Dir{6, 0, 2, 4, 8, 10} {
		// The first place five hexes from where RED1 ends from which JAGD1 came out of sight of RED1
		// all the way (and out of its guns' reach after the first phase) at either speed.
		var x hexmap.Hex
		found := false
		for d := 0; d < 12 && !found; d += 2 {
			x = end
			for range 5 {
				x = x.Neighbor(hexmap.Dir(d))
			}
			found = true
			for _, speed := range []int{4, 6} {
				if hexmap.Distance(back(x, facing, 2*speed), start) <= 8 || hexmap.Distance(back(x, facing, speed), mid) <= 8 {
					found = false
				}
			}
		}
		if !found {
			continue
		}
		play := func(speed int, extra string, orders map[string]string) rulesettest.Play {
			round := map[string]string{"RED": "6 / 6 FIRE ANY", "JAGD": fmt.Sprintf("%d / %d HOLD", speed, speed)}
			for u, o := range orders {
				round[u] = o
			}
			return rulesettest.Play{Scenario: twinScenario(back(x, facing, 2*speed), facing, speed, extra), Rounds: []map[string]string{round}}
		}
		out = append(out, rulesettest.Twins{Name: fmt.Sprintf("JAGD1 came 12 or 8 hexes unseen to %s facing %s", x, facing),
			Side: "RAF", A: play(6, "", nil), B: play(4, "", nil)})
		if facing == 6 {
			far := "  - {callsign: FAR, type: bf-109e, side: Luftwaffe, player: ben, hex: [60, 60], facing: 0, level: H, speed: 6}\n"
			out = append(out, rulesettest.Twins{Name: "a Luftwaffe aircraft far out of sight or none", Side: "RAF",
				A: play(6, "", nil), B: play(6, far, map[string]string{"FAR": "6 / 6 HOLD"})})
		}
	}
	return out
}

func tnlView(g ruleset.Game, side string) any { return ViewOf(g.(*game).st, side) }

// TestContactIsWhatTheReportShows: every field of an enemy Contact is something the side's report
// shows (issue "Fog and faults", defect 1). Each field's change in the game must change the report; a
// new field needs a line here, and so a line in the report.
func TestContactIsWhatTheReportShows(t *testing.T) {
	for _, whole := range []bool{false, true} {
		scn := twinScenario(hexmap.Hex{Q: 0, R: -20}, 6, 6, "")
		if whole {
			scn = []byte(strings.Replace(string(scn), "visibility: 8", "visibility: 0", 1))
		}
		g0, err := Ruleset{}.NewGame(scn, nil, "twins.yaml")
		if err != nil {
			t.Fatal(err)
		}
		next, _, err := g0.Resolve(map[string]string{"RED": "6 / 6 HOLD", "JAGD": "6 / 6 HOLD"}, dice.NewKeyed(dice.SeedFromUint64(1)))
		if err != nil {
			t.Fatal(err)
		}
		g := next.(*game)
		if !g.st.Sight["RAF"]["JAGD1"] {
			t.Fatalf("the RAF does not see JAGD1")
		}
		report := func(st *State) string { return rulesettest.ReportText(t, (&game{d: g.d, st: st}).Report("ann", nil)) }
		base := report(g.st)
		jagd := func(st *State) *Aircraft {
			for i := range st.Aircraft {
				if st.Aircraft[i].Callsign == "JAGD1" {
					return &st.Aircraft[i]
				}
			}
			t.Fatal("no JAGD1")
			return nil
		}
		change := map[string]func(st *State){
			"Callsign": func(st *State) {
				jagd(st).Callsign = "JAGD9"
				st.Sight["RAF"]["JAGD9"] = true
			},
			"Type":     func(st *State) { jagd(st).Type = "spitfire-i" },
			"Hex":      func(st *State) { jagd(st).Hex.Q++ },
			"Facing":   func(st *State) { jagd(st).Facing = jagd(st).Facing.Turn(2) },
			"Level":    func(st *State) { jagd(st).Level = High },
			"Inverted": func(st *State) { jagd(st).Inverted = !jagd(st).Inverted },
			"Hits":     func(st *State) { jagd(st).Hits++ },
			"Speed":    func(st *State) { jagd(st).Speed-- },
		}
		// A field not in the view in this game (Speed, unless the whole table is seen) is passed over.
		rulesettest.ContactTold[Contact](t, fmt.Sprintf("whole table %v: ", whole), g.st, (*State).Clone, change,
			func(st *State) bool { return report(st) != base },
			func(st *State) bool { return !reflect.DeepEqual(ViewOf(st, "RAF"), ViewOf(g.st, "RAF")) })
	}
}
