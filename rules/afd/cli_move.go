package afd

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sortie/rules/afd/notation"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

const calcMoveHelp = `sortie calc move: fly one plot and show it hex by hex.

  --aircraft KEY     aircraft type (sortie aircraft list)
  --speed S          start-of-turn speed, to a tenth (e.g. 5.2)
  --alt FT           start-of-turn altitude in feet, a multiple of 100
  --bank B           start-of-turn bank: N, RB, LB, I, IR or IL
  --facing D         facing 0-11, bearing 30°×D clockwise from north (default 0)
  --grain R|L        facing across the grain (an odd D): whether the next hex entered across it is
                     the right-front (R, default) or the left-front (L) one, seed 000 rule (8)
  --loaded           the plane carries its bombs or torpedo
  --engine-out       a multi-engine plane that has lost an engine: no power factors
  --rockets N        rocket salvos the plane has left, for a ROCKET plot (default 0)
  --previous LIST    last turn's facts, comma separated: steep-climb, steep-dive, vert, power,
                     dive=FT (feet dived), speed=N (last turn's rounded speed)
  --straight N       hexes flown since the last manoeuvre (default: enough for any manoeuvre)
  --plot "PLOT"      the plot, e.g. "2R 1 TR STEEP P"
  --json             one JSON object instead of the table
  --impulse          the plot is an impulse order (Delta-T): manoeuvres flown impulse by impulse
  --from I           with --impulse: the impulse of the turn the first manoeuvre starts in (default 1)
  --slipped          with --impulse: the plane's last manoeuvre was a slip (the --straight hexes ago),
                     so a turn next loses no height at its minimum (seed 001 X.E.3.b)

The start hex is q=0, r=0. Exit status 1 when the plot is illegal, 2 for a usage error.
`

// moveJSON is the calculator's machine-readable answer (the contract of issue 2).
type moveJSON struct {
	Legal      bool                  `json:"legal"`
	Errors     []ruleset.CalcProblem `json:"errors"`
	Warnings   []ruleset.CalcProblem `json:"warnings"`
	Canonical  string                `json:"canonical"`
	Steps      []stepJSON            `json:"steps"`
	HexesMoved int                   `json:"hexes_moved"`
	Maneuvers  int                   `json:"maneuvers"`
	End        *endJSON              `json:"end"`
	SpeedLog   []speedJSON           `json:"speed_log"`
}

type stepJSON struct {
	MP     int    `json:"mp"`
	Q      int    `json:"q"`
	R      int    `json:"r"`
	Facing int    `json:"facing"`
	Alt    int    `json:"alt"`
	Token  string `json:"token"`
	Bank   string `json:"bank"`
}

type endJSON struct {
	Q      int     `json:"q"`
	R      int     `json:"r"`
	Facing int     `json:"facing"`
	Alt    int     `json:"alt"`
	Speed  float64 `json:"speed"`
	Bank   string  `json:"bank"`
}

type speedJSON struct {
	Rule   string  `json:"rule"`
	What   string  `json:"what"`
	Change float64 `json:"change"`
}

func calcMove(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc move", flag.ContinueOnError)
	key := fs.String("aircraft", "", "")
	speedText := fs.String("speed", "", "")
	altText := fs.String("alt", "", "")
	bankText := fs.String("bank", "", "")
	facing := fs.Int("facing", 0, "")
	grain := fs.String("grain", "R", "")
	loaded := fs.Bool("loaded", false, "")
	engineOut := fs.Bool("engine-out", false, "")
	rockets := fs.Int("rockets", 0, "")
	previous := fs.String("previous", "", "")
	straight := fs.Int("straight", Plenty, "")
	plotText := fs.String("plot", "", "")
	asJSON := fs.Bool("json", false, "")
	impulse := fs.Bool("impulse", false, "")
	from := fs.Int("from", 1, "")
	slipped := fs.Bool("slipped", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc move", calcMoveHelp, "(is the plot quoted? --plot \"2R 1 TR\")", stdout); done || err != nil {
		return err
	}
	card, err := lookup(*key)
	if err != nil {
		return err
	}
	speed, err := parseSpeed(*speedText)
	if err != nil {
		return err
	}
	alt, err := parseAlt(*altText)
	if err != nil {
		return err
	}
	bank, ok := notation.ParseBank(strings.ToUpper(strings.TrimSpace(*bankText)))
	if !ok {
		return ruleset.Usagef("--bank must be one of N, RB, LB, I, IR, IL; got %q", *bankText)
	}
	if *facing < 0 || *facing > 11 {
		return ruleset.Usagef("--facing is 0 to 11 (bearing 30° × D from north); got %d", *facing)
	}
	var phase hex.Phase
	switch strings.ToUpper(strings.TrimSpace(*grain)) {
	case "R":
	case "L":
		phase = hex.LeftFront
	default:
		return ruleset.Usagef("--grain is R or L (the next hex entered across the grain); got %q", *grain)
	}
	if *straight < 0 {
		return ruleset.Usagef("--straight cannot be negative; got %d", *straight)
	}
	last, err := parsePrevious(*previous)
	if err != nil {
		return err
	}
	if strings.TrimSpace(*plotText) == "" {
		return ruleset.Usagef("--plot is required, e.g. --plot \"2R 1 TR STEEP P\"")
	}
	start := Flight{Facing: hex.Dir(*facing), Phase: phase, Speed: speed, Alt: alt, Bank: bank, Loaded: *loaded, NoPower: *engineOut, Last: last, Straight: *straight}
	if *loaded && card.Loaded == nil {
		return ruleset.Usagef("--loaded: the %s carries no bombs or torpedo", card.Name)
	}
	if *rockets < 0 || *rockets > 8 {
		return ruleset.Usagef("--rockets is the salvos left, 0 to 8; got %d", *rockets)
	}
	if *engineOut && !card.MultiEngine() {
		return ruleset.Usagef("--engine-out: the %s has one engine", card.Name)
	}
	if *impulse {
		if *from < 1 || *from > 12 {
			return ruleset.Usagef("--from is an impulse, 1 to 12; got %d", *from)
		}
		return calcMoveImpulse(card, start, impulseStart{from: *from, slipped: *slipped}, *plotText, *asJSON, stdout)
	}
	if *slipped {
		return ruleset.Usagef("--slipped is for impulse orders (--impulse): the plain game takes no height for a turn at its minimum")
	}

	out := moveJSON{Errors: []ruleset.CalcProblem{}, Warnings: []ruleset.CalcProblem{}, Steps: []stepJSON{}, SpeedLog: []speedJSON{}}
	plot, diags := notation.ParsePlot(*plotText)
	var res Result
	if ruleset.CalcDiagnosed(&out.Errors, &out.Warnings, diags) {
		out.Canonical = plot.String()
		res = Move(card, start, plot)
		// The plot's ROCKET or STRAFE, checked as the receipt checks it (no target: the calculator
		// knows no ground units).
		res.Errors = append(res.Errors, orderAttackProblems(&State{}, &Plane{Callsign: "the plane", Rockets: *rockets}, card, notation.Order{Plot: plot})...)
		for _, e := range res.Errors {
			out.Errors = append(out.Errors, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col})
		}
		for _, e := range res.Warnings {
			out.Warnings = append(out.Warnings, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col})
		}
		for _, s := range res.Steps {
			out.Steps = append(out.Steps, stepJSON{MP: s.MP, Q: s.Hex.Q, R: s.Hex.R, Facing: int(s.Facing), Alt: s.Alt, Token: s.Token, Bank: s.Bank.String()})
		}
		out.HexesMoved, out.Maneuvers = res.HexesMoved, res.Maneuvers
		e := res.End
		out.End = &endJSON{Q: e.Hex.Q, R: e.Hex.R, Facing: int(e.Facing), Alt: e.Alt, Speed: e.Speed.Float(), Bank: e.Bank.String()}
		for _, t := range res.SpeedLog {
			out.SpeedLog = append(out.SpeedLog, speedJSON{Rule: t.Rule, What: t.What, Change: t.Tenths.Float()})
		}
	}
	out.Legal = len(out.Errors) == 0

	if *asJSON {
		if err := ruleset.WriteJSON(stdout, out); err != nil {
			return err
		}
	} else {
		printMove(stdout, card.Name, start, *plotText, out, res)
	}
	return ruleset.Verdict(out.Legal)
}

func parseSpeed(s string) (Tenths, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, ruleset.Usagef("--speed is required, e.g. --speed 5.2")
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	w, err := strconv.Atoi(whole)
	if err != nil || w < 0 || w > 99 || (hasFrac && len(frac) != 1) {
		return 0, ruleset.Usagef("--speed is a speed to one decimal place, 0 to 99.9 (e.g. 5.2); got %q", s)
	}
	t := w * 10
	if hasFrac {
		f, err := strconv.Atoi(frac)
		if err != nil || f < 0 {
			return 0, ruleset.Usagef("--speed is a speed to one decimal place (e.g. 5.2); got %q", s)
		}
		t += f
	}
	return Tenths(t), nil
}

func parseAlt(s string) (int, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
	if s == "" {
		return 0, ruleset.Usagef("--alt is required: the altitude in feet, e.g. --alt 12000")
	}
	a, err := strconv.Atoi(s)
	if err != nil || a < 0 || a > 60000 || a%100 != 0 {
		return 0, ruleset.Usagef("--alt is feet from 0 to 60000 in steps of 100; got %q", s)
	}
	return a, nil
}

func parsePrevious(s string) (LastTurn, error) {
	var l LastTurn
	if strings.TrimSpace(s) == "" {
		return l, nil
	}
	for _, item := range strings.Split(s, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		name, val, hasVal := strings.Cut(item, "=")
		switch {
		case name == "steep-climb" && !hasVal:
			l.SteepClimb = true
		case name == "steep-dive" && !hasVal:
			l.SteepDive = true
		case name == "vert" && !hasVal:
			l.Vert = true
		case name == "power" && !hasVal:
			l.Power = true
		case name == "dive" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n%100 != 0 {
				return l, ruleset.Usagef("--previous dive=FT takes the feet dived, a multiple of 100; got %q", item)
			}
			l.DiveFt = n
		case name == "speed" && hasVal:
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || n > 99 {
				return l, ruleset.Usagef("--previous speed=N takes last turn's rounded speed; got %q", item)
			}
			l.Speed = n
		default:
			return l, ruleset.Usagef("--previous: unknown item %q (steep-climb, steep-dive, vert, power, dive=FT, speed=N)", item)
		}
	}
	if l.SteepClimb && (l.SteepDive || l.Vert) {
		return l, ruleset.Usagef("--previous: a turn cannot be both a steep climb and a dive")
	}
	return l, nil
}

func feet(n int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.Itoa(n)
	if n >= 1000 {
		s = fmt.Sprintf("%d,%03d", n/1000, n%1000)
	}
	if neg {
		s = "-" + s
	}
	return s
}

func printMove(w io.Writer, name string, start Flight, text string, out moveJSON, res Result) {
	fmt.Fprintf(w, "%s at %s ft, speed %.1f, bank %s, facing %s\n", name, feet(start.Alt), start.Speed.Float(), start.Bank, start.Facing)
	fmt.Fprintf(w, "Plot:     %s\n", text)
	if out.Canonical != "" {
		fmt.Fprintf(w, "Read as:  %s   (%s range, %d power available)\n", out.Canonical, res.Range, res.PowerAvailable)
	}
	ruleset.WriteTable(w, "  MP\tTOKEN\tHEX\tFACING\tALT\tBANK\t", len(out.Steps), func(tw io.Writer, i int) {
		s, note := out.Steps[i], ""
		if rs := res.Steps[i]; rs.Skipped {
			note = "vertical (STEEP)"
		} else if !rs.Moved {
			note = "no hex"
		}
		fmt.Fprintf(tw, "  %d\t%s\t(%d,%d)\t%03d\t%s\t%s\t%s\n", s.MP, s.Token, s.Q, s.R, s.Facing*30, feet(s.Alt), s.Bank, note)
	})
	if out.End != nil {
		e := out.End
		fmt.Fprintf(w, "\nEnd:      hex (%d,%d), facing %03d, %s ft, speed %.1f, bank %s; %d hex%s moved, %d manoeuvre%s\n",
			e.Q, e.R, e.Facing*30, feet(e.Alt), e.Speed, e.Bank, out.HexesMoved, plural2(out.HexesMoved), out.Maneuvers, plural(out.Maneuvers))
		if len(out.SpeedLog) > 0 {
			fmt.Fprintf(w, "Speed:    %.1f", start.Speed.Float())
			for _, t := range out.SpeedLog {
				fmt.Fprintf(w, " %+.1f (%s, rule %s)", t.Change, t.What, t.Rule)
			}
			fmt.Fprintf(w, " = %.1f\n", e.Speed)
		}
	}
	ruleset.WriteVerdict(w, out.Legal, out.Warnings, out.Errors)
}
