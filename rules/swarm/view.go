package swarm

import (
	"fmt"
	"strings"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

// View is what one side may know (invariant 4, docs/architecture.md): its own squadrons in full, enemy squadrons only
// while in sight, and of those only where they are, which corner they face and their altitude band —
// never their type, tack, pips, firepower or plotted course. Reports are rendered from a View, never
// from the State.
type View struct {
	Side       string     `json:"side"`
	Scenario   string     `json:"scenario"`
	Turn       int        `json:"turn"` // the turn to be plotted next
	TurnLimit  int        `json:"turn_limit"`
	Visibility int        `json:"visibility"`
	Own        []Squadron `json:"own"`
	Enemies    []Contact  `json:"enemies"`
	Targets    []Target   `json:"targets"` // ground targets are on the briefing map: known to all
	Over       bool       `json:"over"`
	Outcome    *Outcome   `json:"outcome,omitempty"`
}

// Contact is an enemy squadron as a side sees it: exactly what its report shows of it (where it is,
// its corner and its band), so whatever is built from a View — the report, the picture, the computer
// pilot's orders — is a function of what the side was told (docs/operations.md, Security).
// TestContactIsWhatTheReportShows holds every field here to a line of the report.
type Contact struct {
	Callsign string   `json:"callsign"`
	Pos      Position `json:"pos"`
	Band     string   `json:"band"`
}

// ViewOf builds a side's view of the state.
func ViewOf(st *State, side string) View {
	v := View{Side: side, Scenario: st.Scenario, Turn: st.Turn, TurnLimit: st.TurnLimit, Visibility: st.Visibility,
		Targets: append([]Target{}, st.Targets...), Over: st.Over, Outcome: st.Outcome,
		Own: []Squadron{}, Enemies: []Contact{}}
	for _, q := range st.Squadrons {
		if q.Side == side {
			v.Own = append(v.Own, q)
			continue
		}
		if q.InPlay() && st.Sight[side][q.Callsign] {
			v.Enemies = append(v.Enemies, Contact{Callsign: q.Callsign, Pos: q.Pos, Band: q.Tack.Band})
		}
	}
	return v
}

// saw reports whether a side had an enemy squadron in sight when the turn ended (a squadron destroyed
// this turn stays in sight where it fell until the next turn).
func saw(st *State, side, callsign string) bool { return st.Sight[side][callsign] }

// EventsFor filters a round's events for one side, given the state after the round. Each kind has its
// rule: a side's own squadrons' events in full; sightings for the side that saw; of an attack on one of
// its squadrons, the side learns the range, how many attacks scored and its own evasive saves, and who
// attacked if it has the attacker in sight, but not the attacker's dice or firepower (they tell its
// strength); of an enemy squadron's loss, only if it was in sight or the side caused the loss; of an
// enemy's place in the move order, only if it is in sight at the end of that turn (earlier turns of a
// round flown on plotted courses saw no enemy); of bombs on its ground target, the hits. A missed order is announced to
// everyone, by player only, once a player and turn (ruleset.NMRNotices). A kind without a rule here is shown to nobody.
func EventsFor(st *State, side string, events []Event) []Event {
	var out []Event
	var nmr ruleset.NMRNotices
	ownRolls := map[[2]int]int{} // the side's own initiative rolls: turn and roll, how many squadrons
	for _, e := range events {
		if e.Kind == EvInitiative && e.Side == side && e.Initiative != nil {
			ownRolls[[2]int{e.Turn, e.Initiative.Roll}]++
		}
	}
	for _, e := range events {
		own := e.Side == side
		switch e.Kind {
		case EvNoFire:
			// Why an attack was not made: the ordering side's own news.
			if own {
				out = append(out, e)
			}
		case EvMove, EvCourse, EvIllegalOrder, EvContact, EvSpotted, EvLostSight:
			if own {
				out = append(out, e)
			}
		case EvNMR:
			if own {
				out = append(out, e)
			} else if text, ok := nmr.Notice(e.Turn, e.Player); ok {
				out = append(out, Event{Turn: e.Turn, Kind: EvNMR, Player: e.Player, Text: text})
			}
		case EvInitiative:
			// Only a side's own rolls, and not the place in the whole initiative order: under fog that
			// place would tell how many squadrons, seen or not, moved first. The order of the side's own
			// moves shows in its move events.
			// Nor a tie-break that only a tie with an enemy squadron caused: it would tell that an enemy,
			// perhaps unseen, rolled the same (and more hidden enemies make more ties). Ties among the
			// side's own squadrons it sees anyway, so their tie-breaks are shown.
			if own && e.Initiative != nil {
				r := e
				r.Initiative = &InitiativeDetail{Roll: e.Initiative.Roll, Tie: e.Initiative.Tie}
				if e.Initiative.Tie != 0 && ownRolls[[2]int{e.Turn, e.Initiative.Roll}] < 2 {
					r.Initiative.Tie = 0
					r.Dice = e.Dice[:min(1, len(e.Dice))]
					r.Text = fmt.Sprintf("%s rolled initiative %d", e.Unit, e.Initiative.Roll)
				}
				out = append(out, r)
			}
		case EvFire:
			if own {
				out = append(out, e)
				continue
			}
			if e.TargetSide != side || e.Fire == nil {
				continue
			}
			f := e.Fire
			shooter := "an unseen enemy"
			r := Event{Turn: e.Turn, Kind: EvFire, Target: e.Target, TargetSide: e.TargetSide,
				Fire: &FireDetail{Rear: f.Rear, Range: f.Range, Scored: f.Scored, SaveNeed: f.SaveNeed, SaveMod: f.SaveMod,
					Saves: f.Saves, Filled: f.Filled, Attacks: []int{}}}
			if saw(st, side, e.Unit) {
				shooter, r.Unit = e.Unit, e.Unit
			}
			if f.Rear {
				shooter += "'s rear gunner"
			}
			r.Text = fmt.Sprintf("%s attacked %s at range %d: %d attack%s scored", shooter, e.Target, f.Range, f.Scored, plural(f.Scored))
			if f.Scored > 0 {
				r.Text += fmt.Sprintf("; evasive saves %s (need %d, %+d): %d pip%s filled", ints(f.Saves), f.SaveNeed, f.SaveMod, f.Filled, plural(f.Filled))
			}
			for _, d := range e.Dice {
				if strings.HasPrefix(d.Label, fmt.Sprintf("turn %d %s evasive save", e.Turn, e.Target)) {
					r.Dice = append(r.Dice, d)
				}
			}
			out = append(out, r)
		case EvBomb:
			if own {
				out = append(out, e)
			} else if e.TargetSide == side && e.Bomb != nil {
				who := "unseen aircraft"
				r := Event{Turn: e.Turn, Kind: EvBomb, Target: e.Target, TargetSide: e.TargetSide,
					Bomb: &BombDetail{Band: e.Bomb.Band, Hits: e.Bomb.Hits, Damage: e.Bomb.Damage, Gone: e.Bomb.Gone, Rolls: []int{}}}
				if saw(st, side, e.Unit) {
					who, r.Unit = e.Unit, e.Unit
				}
				r.Text = fmt.Sprintf("%s attacked %s: %d hit%s", who, e.Target, e.Bomb.Hits, plural(e.Bomb.Hits))
				if e.Bomb.Gone {
					r.Text += ": it is destroyed"
				}
				out = append(out, r)
			}
		case EvDestroyed:
			if own || e.TargetSide == side || saw(st, side, e.Unit) {
				out = append(out, Event{Turn: e.Turn, Kind: EvDestroyed, Unit: e.Unit, Side: e.Side, Text: e.Text})
			}
		case EvGameOver:
			out = append(out, Event{Turn: e.Turn, Kind: EvGameOver, Outcome: e.Outcome, Text: e.Text})
		}
	}
	return out
}

// diceOf lists the rolls of the events a side may see.
func diceOf(events []Event) []dice.Roll {
	return ruleset.Rolls(events, func(e *Event) []dice.Roll { return e.Dice })
}
