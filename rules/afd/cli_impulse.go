package afd

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

const calcImpulsesHelp = `sortie calc impulses: the impulses a plane moves in (Delta-T impulse game, seed 001).

  --speed S    initial speed (a tenth rounds as in the plain game: 5.4 is 5, 5.5 is 5, 5.6 is 6), 0 to 24
  --json       one JSON object instead of the line

Above 12 a plane moves in every impulse and twice in the impulses of speed S-12.
`

// calcImpulses prints the impulse chart's row for a speed.
func calcImpulses(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc impulses", flag.ContinueOnError)
	speedText := fs.String("speed", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc impulses", calcImpulsesHelp, "", stdout); done || err != nil {
		return err
	}
	t, err := parseSpeed(*speedText)
	if err != nil {
		return err
	}
	s := t.Round()
	if s > 24 {
		return ruleset.Usagef("--speed: the impulse chart goes up to 24; got %s", *speedText)
	}
	imps := Impulses(s)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(struct {
			Speed    int   `json:"speed"`
			Impulses []int `json:"impulses"`
		}{s, append([]int{}, imps...)})
	}
	words := make([]string, len(imps))
	for i, x := range imps {
		words[i] = fmt.Sprint(x)
	}
	switch {
	case s == 0:
		fmt.Fprintln(stdout, "speed 0: moves in no impulse")
	case s > 12:
		var twice []string
		for _, x := range Impulses(s - 12) {
			twice = append(twice, fmt.Sprint(x))
		}
		fmt.Fprintf(stdout, "speed %d: moves in every impulse, twice in impulses %s (%d hexes)\n", s, strings.Join(twice, " "), s)
	default:
		fmt.Fprintf(stdout, "speed %d: active in impulses %s (%d of 12)\n", s, strings.Join(words, " "), len(imps))
	}
	return nil
}

// impulseRowJSON is one impulse flown by the calculator.
type impulseRowJSON struct {
	Turn    int    `json:"turn"`
	Impulse int    `json:"impulse"`
	Token   string `json:"token"`
	Q       int    `json:"q"`
	R       int    `json:"r"`
	Facing  int    `json:"facing"`
	Alt     int    `json:"alt"`
	Bank    string `json:"bank"`
	Done    string `json:"done,omitempty"` // the manoeuvre completed in this impulse
}

// impulseStart is where an impulse game's turn stands for the calculator: the impulse the first
// manoeuvre starts in, and whether the plane's last manoeuvre was a slip (PlaneImpulse.SlipLast).
type impulseStart struct {
	from    int
	slipped bool
}

// calcMoveImpulse flies an impulse order from a start for the calculator.
func calcMoveImpulse(card *aircraft.Card, start Flight, at impulseStart, text string, asJSON bool, stdout io.Writer) error {
	out := struct {
		Legal     bool                  `json:"legal"`
		Errors    []ruleset.CalcProblem `json:"errors"`
		Warnings  []ruleset.CalcProblem `json:"warnings"`
		Canonical string                `json:"canonical"`
		Impulses  []impulseRowJSON      `json:"impulses"`
	}{Errors: []ruleset.CalcProblem{}, Warnings: []ruleset.CalcProblem{}, Impulses: []impulseRowJSON{}}
	o, ds := notation.ParseImpulseOrder(text)
	if ruleset.CalcDiagnosed(&out.Errors, &out.Warnings, ds) {
		out.Canonical = o.String()
		rows, errs, warns := flyImpulses(card, start, at, o.Manoeuvres)
		out.Impulses = rows
		// This turn's problems are the receipt's, every one of them (flying stops at the first); a
		// later turn's, which the receipt leaves to that turn, come from flying on.
		if c := checkAlone(card, start, at, text); len(c.Errors) > 0 {
			errs = errs[:0]
			for _, e := range c.Errors {
				errs = append(errs, Problem{Code: e.Code, Message: e.Message, Col: e.Col})
			}
		}
		for _, e := range errs {
			out.Errors = append(out.Errors, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col})
		}
		for _, e := range warns {
			out.Warnings = append(out.Warnings, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col})
		}
	}
	out.Legal = len(out.Errors) == 0
	if asJSON {
		if err := ruleset.WriteJSON(stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s at %s ft, speed %.1f, bank %s, facing %s, from impulse %d\n", card.Name, feet(start.Alt), start.Speed.Float(), start.Bank, start.Facing, at.from)
		fmt.Fprintf(stdout, "Orders:   %s\n", text)
		if out.Canonical != "" {
			fmt.Fprintf(stdout, "Read as:  %s\n", out.Canonical)
		}
		ruleset.WriteTable(stdout, "  TURN\tIMPULSE\tTOKEN\tHEX\tFACING\tALT\tBANK\t", len(out.Impulses), func(tw io.Writer, i int) {
			r := out.Impulses[i]
			fmt.Fprintf(tw, "  %d\t%d\t%s\t(%d,%d)\t%03d\t%s\t%s\t%s\n", r.Turn, r.Impulse, r.Token, r.Q, r.R, r.Facing*30, feet(r.Alt), r.Bank, r.Done)
		})
		ruleset.WriteVerdict(stdout, out.Legal, out.Warnings, out.Errors)
	}
	return ruleset.Verdict(out.Legal)
}

// flyImpulses flies manoeuvres for one plane alone, from impulse from of turn 1, through as many turns
// as they take, with the engine's own rules: the rows it flew, and the faults that stopped it.
func flyImpulses(card *aircraft.Card, start Flight, at impulseStart, ms []notation.Manoeuvre) ([]impulseRowJSON, []Problem, []Problem) {
	st := aloneState(card, start, at)
	p := &st.Planes[0]
	p.Imp.Queue = append([]notation.Manoeuvre(nil), ms...)
	env := &Env{Cards: singleCard{card}}
	r := &impulseRun{resolution: resolution{env: env, ns: st, d: dice.NewScripted(), turn: 1, cards: map[string]*aircraft.Card{},
		climbs: map[string]int{}, hits: map[string][]int{}}, stopped: map[string]bool{}}
	fc := tryManoeuvre(r.planeTurn(p, card), ms[0], 0)
	if len(fc.errors) > 0 {
		return nil, fc.errors, fc.warnings
	}
	warnings := fc.warnings
	warn := func(ws []Problem) {
		for _, w := range ws {
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
	}
	var rows []impulseRowJSON
	completed := 0
	illegal := func(from int) []Problem {
		for _, e := range r.events[from:] {
			if e.Kind == EvIllegalOrder {
				return e.Extras().Problems
			}
		}
		return nil
	}
	// The rows are the engine's own moves (impulseRun.movePlane), heard as they are flown; none after a
	// move that broke the rules, where the calculator stops.
	stop := false
	r.flew = func(q *Plane, f flownBox) {
		if stop {
			return
		}
		warn(f.check.warnings)
		row := impulseRowJSON{Turn: st.Turn, Impulse: st.Clock.Impulse, Token: boxToken(f.box), Q: q.Flight.Hex.Q, R: q.Flight.Hex.R,
			Facing: int(q.Flight.Facing), Alt: q.Flight.Alt, Bank: q.Flight.Bank.String()}
		switch {
		case f.unplotted:
			row.Done = "forwards manoeuvre: nothing was queued for this move"
		case f.completed:
			completed++
			row.Done = fmt.Sprintf("manoeuvre %d done", completed)
		}
		rows = append(rows, row)
		stop = illegal(0) != nil
	}
	// Impulse by impulse until the impulse in which the plane has nothing left queued is over, as a round
	// of the engine runs.
	for guard := 0; guard < 12*40 && len(p.Imp.Queue) > 0 && p.InPlay(); guard++ {
		imp := st.Clock.Impulse
		events := len(r.events)
		if err := r.movePlane(p, imp, map[string]bool{}); err != nil {
			return rows, []Problem{{Code: "impulse", Message: err.Error()}}, warnings
		}
		if probs := illegal(events); probs != nil {
			return rows, probs, warnings
		}
		if imp == 12 {
			events := len(r.events)
			if err := r.endImpulseTurn(); err != nil {
				return rows, []Problem{{Code: "impulse", Message: err.Error()}}, warnings
			}
			if probs := illegal(events); probs != nil {
				return rows, probs, warnings
			}
			st.Over = false
		} else {
			st.Clock.Impulse = imp + 1
		}
	}
	return rows, nil, warnings
}

// aloneState is an impulse game of one plane, CALC, in flight start at impulse from of turn 1.
func aloneState(card *aircraft.Card, start Flight, at impulseStart) *State {
	st := &State{Ruleset: "afd", Turn: 1, Options: Options{Impulse: true}, Sides: []string{"calc"},
		Players: []Player{{ID: "calc", Side: "calc"}}, Sight: map[string]map[string]Sighting{"calc": {}},
		Planes: []Plane{{Callsign: "CALC", Type: card.Key, Side: "calc", Player: "calc", Flight: start, Status: Flying}}}
	impulseState(st)
	st.Clock.Impulse = at.from
	st.Planes[0].Imp.SlipLast = at.slipped
	return st
}

// checkAlone is the receipt's check of an impulse order (impulseCheck) for a plane alone: every problem
// of the manoeuvres flown this turn, as a receipt lists them.
func checkAlone(card *aircraft.Card, start Flight, at impulseStart, text string) ruleset.OrderCheck {
	st := aloneState(card, start, at)
	g := &game{env: &Env{Cards: singleCard{card}}, st: st}
	return g.impulseCheck(&st.Planes[0], text, ruleset.NewOrderCheck(), nil)
}

// singleCard is a Cards of one card.
type singleCard struct{ c *aircraft.Card }

func (s singleCard) Get(key string) (*aircraft.Card, bool) {
	if key == s.c.Key {
		return s.c, true
	}
	return nil, false
}
