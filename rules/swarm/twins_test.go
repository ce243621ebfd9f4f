package swarm

import (
	"fmt"
	"strings"
	"testing"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset"
	"sortie/rules/ruleset/rulesettest"
)

// twinScenario is Tigers against a Messerschmitt Staffel under cloud cover for the kit's twins: ADLER, out of
// sight of the RAF when the game starts, starts at start on the given tack. extra is more squadron lines.
func twinScenario(start hexmap.Hex, facing hexmap.Dir, tack, extra string) []byte {
	return fmt.Appendf(nil, rafLuftwaffe+`name: twins
visibility: 3
turns: 8
squadrons:
  - {callsign: TIGER, name: Tigers, type: spitfire-i, side: RAF, player: ann, hex: [0, 0], facing: 150, tack: 2 S M}
  - {callsign: ADLER, name: Adler, type: bf-109e, side: Luftwaffe, player: ben, hex: [%d, %d], facing: %d, tack: %s}
%s`, start.Q, start.R, int(facing)*30, tack, extra)
}

// swarmTwins: ADLER ends a three-turn course where the RAF first sees it, having come two segments a
// turn or one out of sight (seed 004: a squadron's tack is not seen), in places near TIGER found
// below; and a Luftwaffe squadron far out of sight, or none.
func swarmTwins() []rulesettest.Twins {
	// Both hold their fire: fire in Swarm comes in the order of moves, so a shot would tell where
	// ADLER was in the middle of the turn, which the twins do not keep the same.
	course := func(n int) string {
		return strings.TrimSuffix(strings.Repeat(fmt.Sprintf("%d S M %d HOLD; ", n, n), MinCourse), "; ")
	}
	var tiger []hexmap.Hex // where TIGER ends each turn of its course
	h := hexmap.Hex{}
	for range MinCourse {
		h = Segment(Segment(h, 5), 5)
		tiger = append(tiger, h)
	}
	end := tiger[len(tiger)-1]
	// ADLER's place at the end of turn t of its course at a speed, coming to x on facing.
	at := func(x hexmap.Hex, facing hexmap.Dir, speed, t int) hexmap.Hex {
		for range (MinCourse - t) * speed {
			x = Segment(x, facing.Turn(6))
		}
		return x
	}
	var out []rulesettest.Twins
	for _, facing := range []hexmap.Dir{11, 9, 7, 1, 3} {
		var x hexmap.Hex
		found := false
		for d := 0; d < 12 && !found; d += 2 {
			x = end.Neighbor(hexmap.Dir(d)).Neighbor(hexmap.Dir(d))
			found = true
			for _, speed := range []int{1, 2} {
				for t := 0; t < MinCourse; t++ {
					from := hexmap.Hex{}
					if t > 0 {
						from = tiger[t-1]
					}
					if hexmap.Distance(at(x, facing, speed, t), from) <= 3+2 {
						found = false
					}
				}
			}
		}
		if !found {
			continue
		}
		play := func(speed int) rulesettest.Play {
			return rulesettest.Play{Scenario: twinScenario(at(x, facing, speed, 0), facing, fmt.Sprintf("%d S M", speed), ""),
				Rounds: []map[string]string{{"TIGER": course(2), "ADLER": course(speed)}}}
		}
		out = append(out, rulesettest.Twins{Name: fmt.Sprintf("ADLER came at speed 2 or 1 unseen to %s facing %s", x, facing),
			Side: "RAF", A: play(2), B: play(1)})
	}
	far := strings.Replace(cloudGame, "  - {callsign: FALKE", "  - {callsign: FALKE2, name: Falken 2, type: bf-109e, side: Luftwaffe, player: ben, hex: [-30, -30], facing: 150, tack: 2 S M}\n  - {callsign: FALKE", 1)
	out = append(out, rulesettest.Twins{Name: "a Luftwaffe squadron far out of sight or none", Side: "RAF",
		A: rulesettest.Play{Scenario: []byte(cloudGame), Rounds: []map[string]string{{"TIGER": course(2), "ADLER": course(1)}}},
		B: rulesettest.Play{Scenario: []byte(far), Rounds: []map[string]string{{"TIGER": course(2), "ADLER": course(1), "FALKE2": course(2)}}}})
	return out
}

func swarmView(g ruleset.Game, side string) any { return ViewOf(g.(*game).st, side) }

// TestContactIsWhatTheReportShows: every field of an enemy Contact is something the side's report
// shows (issue "Fog and faults", defect 1: a view must be a function of the report). Each field's change
// in the game must change the report; a new field needs a line here, and so a line in the report.
func TestContactIsWhatTheReportShows(t *testing.T) {
	g := newGame(t, string(twinScenario(hexmap.Hex{Q: 1, R: 1}, 11, "2 S M", "")))
	if !g.st.Sight["RAF"]["ADLER"] {
		t.Fatal("the RAF does not see ADLER")
	}
	report := func(st *State) string { return rulesettest.ReportText(t, (&game{d: g.d, st: st}).Report("ann", nil)) }
	base := report(g.st)
	adler := func(st *State) *Squadron {
		for i := range st.Squadrons {
			if st.Squadrons[i].Callsign == "ADLER" {
				return &st.Squadrons[i]
			}
		}
		t.Fatal("no ADLER")
		return nil
	}
	change := map[string]func(st *State){
		"Callsign": func(st *State) {
			adler(st).Callsign = "ADLER9"
			st.Sight["RAF"]["ADLER9"] = true
		},
		"Pos": func(st *State) {
			adler(st).Pos.Hex.Q++
			adler(st).Pos.Facing = adler(st).Pos.Facing.Turn(2)
		},
		"Band": func(st *State) { adler(st).Tack.Band = "H" },
	}
	rulesettest.ContactTold[Contact](t, "", g.st, (*State).Clone, change, func(st *State) bool { return report(st) != base }, nil)
	// Each part of a position on its own.
	for what, fn := range map[string]func(st *State){
		"hex":    func(st *State) { adler(st).Pos.Hex.Q++ },
		"facing": func(st *State) { adler(st).Pos.Facing = adler(st).Pos.Facing.Turn(2) },
	} {
		st := g.st.Clone()
		fn(st)
		if report(st) == base {
			t.Errorf("Contact.Pos: its %s changed and the report did not", what)
		}
	}
}
