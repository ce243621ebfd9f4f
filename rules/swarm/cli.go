package swarm

// The Swarm calculator (seed 004): calc move flies a squadron's plot from a tack position, calc fire
// reads one attack and its evasive saves. The JSON of calc move has the Air Force calculator's shape
// (legal, errors, warnings, canonical, steps, end with q, r and facing), with the tack in end.tack.

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sortie/parser"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
	swnotation "sortie/rules/swarm/notation"
)

const calcSwarmMoveHelp = `sortie calc move --ruleset swarm: fly one squadron's plot and show it segment by segment.

  --tack "2 S L"   where the tacks stand now: speed 1-3, manoeuvre L/S/R, altitude band H/M/L
  --facing D       the hex corner the base points to: 1, 3, 5, 7, 9 or 11 (030°, 090° … 330°; default 1)
  --type KEY       the squadron type, to cross off the speeds it cannot fly (default: all three speeds)
  --plot "PLOT"    the order: the new tack, then the path, e.g. "3 R M 1 R 2" (several turns: separate with ;)
  --contact        the squadron has the enemy in sight, so it plots one turn; --contact=false: it does not,
                   so it plots a course of 3 to 6 turns (default: in sight for a plot of one turn, not for more)
  --bombed         a bomber that has dropped its bombs already
  --json           one JSON object instead of the table

The start hex is q=0, r=0. Exit status 1 when the plot is illegal, 2 for a usage error.
`

type swarmStepJSON struct {
	Turn    int    `json:"turn"`
	Segment int    `json:"segment"`
	Token   string `json:"token"`
	Q       int    `json:"q"`
	R       int    `json:"r"`
	Facing  int    `json:"facing"`
	Band    string `json:"band"`
}

type swarmEndJSON struct {
	Q      int    `json:"q"`
	R      int    `json:"r"`
	Facing int    `json:"facing"`
	Tack   string `json:"tack"`
	Band   string `json:"band"`
}

type swarmMoveJSON struct {
	Legal     bool                  `json:"legal"`
	Errors    []ruleset.CalcProblem `json:"errors"`
	Warnings  []ruleset.CalcProblem `json:"warnings"`
	Canonical string                `json:"canonical"`
	Steps     []swarmStepJSON       `json:"steps"`
	Segments  int                   `json:"segments_moved"`
	Changes   int                   `json:"facing_changes"`
	End       *swarmEndJSON         `json:"end"`
}

// swarmType is the type a calculator flag names, or a type with every speed when none is named.
func swarmType(key string) (*Type, error) {
	d, err := DefaultData()
	if err != nil {
		return nil, err
	}
	if key == "" {
		return &Type{Key: "any", Name: "squadron", MPH: 3 * MPHPerSpeed, Steps: [3]int{2, 2, 2}}, nil
	}
	t, ok := d.Type(key)
	if !ok {
		return nil, ruleset.Usagef("--type: unknown squadron type %q (known: %s)", key, strings.Join(d.TypeKeys(), ", "))
	}
	return t, nil
}

func calcSwarmMove(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc move", flag.ContinueOnError)
	tackText := fs.String("tack", "", "")
	facing := fs.Int("facing", 1, "")
	typeKey := fs.String("type", "", "")
	plotText := fs.String("plot", "", "")
	contact := fs.Bool("contact", false, "")
	bombed := fs.Bool("bombed", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc move", calcSwarmMoveHelp, "(is the plot quoted? --plot \"3 R M 1 R 2\")", stdout); done || err != nil {
		return err
	}
	if strings.TrimSpace(*tackText) == "" {
		return ruleset.Usagef("--tack is required: where the tacks stand now, e.g. --tack \"2 S L\"")
	}
	pt, ds := swnotation.ParseSwarmTack(*tackText)
	if parser.HasErrors(ds) {
		return ruleset.Usagef("--tack %q: %s", *tackText, ds[0].Error())
	}
	if *facing < 1 || *facing > 11 || *facing%2 == 0 {
		return ruleset.Usagef("--facing is a hex corner: 1, 3, 5, 7, 9 or 11 (bearing 30° × D); got %d", *facing)
	}
	if strings.TrimSpace(*plotText) == "" {
		return ruleset.Usagef("--plot is required, e.g. --plot \"3 R M 1 R 2\"")
	}
	t, err := swarmType(*typeKey)
	if err != nil {
		return err
	}
	from := TackOf(pt)
	if from.Speed > t.MaxSpeed() {
		return ruleset.Usagef("--tack: the %s has speeds 1 to %d on its board; speed %d is crossed off", t.Name, t.MaxSpeed(), from.Speed)
	}
	start := Position{Facing: hex.Dir(*facing)}

	out := swarmMoveJSON{Errors: []ruleset.CalcProblem{}, Warnings: []ruleset.CalcProblem{}, Steps: []swarmStepJSON{}}
	o, diags := swnotation.ParseSwarmOrder(*plotText)
	if ruleset.CalcDiagnosed(&out.Errors, &out.Warnings, diags) {
		out.Canonical = o.String()
		contactSet := false
		fs.Visit(func(f *flag.Flag) { contactSet = contactSet || f.Name == "contact" })
		if !contactSet {
			*contact = len(o.Turns) == 1
		}
		// The order checked as the receipt and the turn check it (CheckOrderOf), for a squadron alone.
		q := &Squadron{Callsign: "the squadron", Type: t.Key, Tack: from, Pos: start, Contact: *contact, Bombed: *bombed, Status: Flying}
		c := CheckOrderOf(t, &State{}, q, o)
		for _, e := range c.Errors {
			out.Errors = append(out.Errors, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col, Suggestion: e.Suggestion})
		}
		for _, e := range c.Warnings {
			out.Warnings = append(out.Warnings, ruleset.CalcProblem{Code: e.Code, Message: e.Message, Column: e.Col, Suggestion: e.Suggestion})
		}
		tack, pos := from, start
		for i, m := range c.Moves {
			for _, s := range m.Steps {
				out.Steps = append(out.Steps, swarmStepJSON{Turn: i + 1, Segment: s.Segment, Token: s.Token, Q: s.Hex.Q, R: s.Hex.R, Facing: int(s.Facing), Band: m.Tack.Band})
			}
			out.Segments += o.Turns[i].Segments()
			out.Changes += m.Changes
			tack, pos = m.Tack, m.End
		}
		out.End = &swarmEndJSON{Q: pos.Hex.Q, R: pos.Hex.R, Facing: int(pos.Facing), Tack: tack.String(), Band: tack.Band}
	}
	out.Legal = len(out.Errors) == 0
	if *asJSON {
		if err := ruleset.WriteJSON(stdout, out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "%s, tack %s, facing %s\n", t.Name, from, start.Facing)
		fmt.Fprintf(stdout, "Plot:     %s\n", *plotText)
		if out.Canonical != "" {
			fmt.Fprintf(stdout, "Read as:  %s\n", out.Canonical)
		}
		ruleset.WriteTable(stdout, "  TURN\tSEG\tTOKEN\tHEX\tFACING\tBAND\t", len(out.Steps), func(tw io.Writer, i int) {
			s := out.Steps[i]
			fmt.Fprintf(tw, "  %d\t%d\t%s\t(%d,%d)\t%03d\t%s\t\n", s.Turn, s.Segment, s.Token, s.Q, s.R, s.Facing*30, s.Band)
		})
		if e := out.End; e != nil {
			fmt.Fprintf(stdout, "\nEnd:      hex (%d,%d), facing %03d, tack %s; %d segments, %d facing change%s\n",
				e.Q, e.R, e.Facing*30, e.Tack, out.Segments, out.Changes, ruleset.PluralS(out.Changes))
		}
		ruleset.WriteVerdict(stdout, out.Legal, out.Warnings, out.Errors)
	}
	return ruleset.Verdict(out.Legal)
}

const calcSwarmFireHelp = `sortie calc fire --ruleset swarm: one squadron's attack, and the target's evasive saves.

  --firepower 3D6    the attacker's firepower: 3D6, 2D6 or 1D6 (a rear gunner attacks with 1D6)
  --range N          hexes from the attacker to the target, 1 to 6 (the same hex is range 1)
  --dice D,D,...     the attack dice, one per die of firepower; each scores if it equals or beats the range
  --save S,S,...     the target's evasive-save dice, one per attack that scored (leave out to see the need)
  --durable          the target is a durable type: +1 to its saves
  --pilots Q         the target's pilots: green, regular, veteran or ace (house modifiers; default regular)
  --evasion LIST     another evasive-save chart, the need at range 1, 2, ... (default: the house chart)
  --json             one JSON object
`

type swarmAttackJSON struct {
	Die    int   `json:"die"`
	Scored bool  `json:"scored"`
	Save   *int  `json:"save,omitempty"`
	Evaded *bool `json:"evaded,omitempty"`
}

type swarmFireJSON struct {
	Firepower   int               `json:"firepower"`
	Range       int               `json:"range"`
	Attacks     []swarmAttackJSON `json:"attacks"`
	Scored      int               `json:"scored"`
	Chart       string            `json:"chart"`
	SaveNeed    int               `json:"save_need"`
	SaveMod     int               `json:"save_mod"`
	SavesRolled bool              `json:"saves_rolled"`
	Filled      int               `json:"filled"`
}

func dieList(flagName, s string, sides int) ([]int, error) {
	var out []int
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > sides {
			return nil, ruleset.Usagef("%s: %q is not a D%d", flagName, part, sides)
		}
		out = append(out, n)
	}
	return out, nil
}

func calcSwarmFire(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc fire", flag.ContinueOnError)
	fpText := fs.String("firepower", "", "")
	rng := fs.Int("range", 0, "")
	diceText := fs.String("dice", "", "")
	saveText := fs.String("save", "", "")
	durable := fs.Bool("durable", false, "")
	pilots := fs.String("pilots", "regular", "")
	evasion := fs.String("evasion", "", "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc fire", calcSwarmFireHelp, "", stdout); done || err != nil {
		return err
	}
	d, err := DefaultData()
	if err != nil {
		return err
	}
	fp := strings.ToUpper(strings.TrimSpace(*fpText))
	n := 0
	if len(fp) == 3 && strings.HasSuffix(fp, "D6") {
		n, _ = strconv.Atoi(fp[:1])
	}
	if n < 1 || n > 3 {
		return ruleset.Usagef("--firepower is 3D6, 2D6 or 1D6; got %q", *fpText)
	}
	if *rng < 1 || *rng > d.House.MaxRange {
		return ruleset.Usagef("--range is 1 to %d hexes (a D6 cannot score beyond); got %d", d.House.MaxRange, *rng)
	}
	attacks, err := dieList("--dice", *diceText, 6)
	if err != nil {
		return err
	}
	if len(attacks) != n {
		return ruleset.Usagef("--dice: %s is %d attack dice; %d given", fp, n, len(attacks))
	}
	saves, err := dieList("--save", *saveText, 6)
	if err != nil {
		return err
	}
	if _, ok := d.House.Pilots.Mods[*pilots]; !ok {
		return ruleset.Usagef("--pilots is green, regular, veteran or ace; got %q", *pilots)
	}
	chart, label := d.House.Evasion.Need, d.House.Evasion.Label
	if *evasion != "" {
		chart, err = dieList("--evasion", *evasion, 7)
		if err != nil {
			return err
		}
		label = "the chart given with --evasion"
	}
	out := swarmFireJSON{Firepower: n, Range: *rng, Chart: label, SaveNeed: SaveNeed(chart, *rng), Attacks: []swarmAttackJSON{}}
	out.SaveMod = d.SaveMod(&Type{Durable: *durable}, *pilots)
	for _, v := range attacks {
		a := swarmAttackJSON{Die: v, Scored: Scores(v, *rng)}
		if a.Scored {
			out.Scored++
		}
		out.Attacks = append(out.Attacks, a)
	}
	if len(saves) > 0 || *saveText != "" {
		if len(saves) != out.Scored {
			return ruleset.Usagef("--save: %d attack%s scored, so give %d evasive-save dice; %d given", out.Scored, ruleset.PluralS(out.Scored), out.Scored, len(saves))
		}
		out.SavesRolled = true
		k := 0
		for i := range out.Attacks {
			if !out.Attacks[i].Scored {
				continue
			}
			s := saves[k]
			k++
			ev := Evades(s, out.SaveMod, out.SaveNeed)
			out.Attacks[i].Save, out.Attacks[i].Evaded = &s, &ev
			if !ev {
				out.Filled++
			}
		}
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "%dD6 at range %d: dice %s; each scores on %d or more: %d scored\n", n, *rng, strings.Trim(fmt.Sprint(attacks), "[]"), *rng, out.Scored)
	fmt.Fprintf(stdout, "Evasive save (%s): need %d at range %d, modifier %+d\n", label, out.SaveNeed, *rng, out.SaveMod)
	switch {
	case out.Scored == 0:
		fmt.Fprintln(stdout, "Nothing to save: no pip filled.")
	case !out.SavesRolled:
		fmt.Fprintf(stdout, "Roll %d evasive save%s (--save): each below %d fills one pip.\n", out.Scored, ruleset.PluralS(out.Scored), out.SaveNeed-out.SaveMod)
	default:
		for _, a := range out.Attacks {
			if a.Scored {
				res := "evaded (shot up, no loss)"
				if !*a.Evaded {
					res = "failed: one pip filled"
				}
				fmt.Fprintf(stdout, "  attack %d: save %d%+d: %s\n", a.Die, *a.Save, out.SaveMod, res)
			}
		}
		fmt.Fprintf(stdout, "%d pip%s filled.\n", out.Filled, ruleset.PluralS(out.Filled))
	}
	return nil
}
