package afd

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"sortie/rules/dice"
	"sortie/rules/ruleset"
)

const calcFireHelp = `sortie calc fire: one burst, read off the house tables, and what it does to a fresh target.

  --shooter KEY        the firing aircraft type
  --target KEY         the target aircraft type
  --range N            range in hexes (1-8)
  --clock C            the shooter's clock position seen from the target: 12 ahead of it, 6 dead astern
  --height-diff FT     height difference in feet (+1 range per full 500 ft)
  --guns POS[,POS]     gun positions that fire (default: every fixed forward position)
  --row R              flexible guns: the deflection row, 5-7, 4/8 or 9-3 (it depends on both planes'
                       headings, as the turn's report gives it); fixed guns read it off --clock
  --dice R,W[,D10...]  red D6, white D6, then the hit-location D10s (1 or 2, more for 10+ hits)
  --simple-criticals   the seed's older red-die rule
  --json               one JSON object
`

func calcFire(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc fire", flag.ContinueOnError)
	shooterKey := fs.String("shooter", "", "")
	targetKey := fs.String("target", "", "")
	rng := fs.Int("range", 0, "")
	clock := fs.Int("clock", 0, "")
	height := fs.Int("height-diff", 0, "")
	guns := fs.String("guns", "", "")
	row := fs.String("row", "", "")
	diceText := fs.String("dice", "", "")
	simple := fs.Bool("simple-criticals", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc fire", calcFireHelp, "", stdout); done || err != nil {
		return err
	}
	shooter, err := lookupFlag("--shooter", *shooterKey)
	if err != nil {
		return err
	}
	target, err := lookupFlag("--target", *targetKey)
	if err != nil {
		return err
	}
	if *rng < 1 || *rng > MaxFireRange {
		return ruleset.Usagef("--range is 1 to %d hexes, got %d", MaxFireRange, *rng)
	}
	if *clock < 1 || *clock > 12 {
		return ruleset.Usagef("--clock is the shooter's clock position seen from the target, 1 to 12; got %d", *clock)
	}
	values, err := parseDice(*diceText)
	if err != nil {
		return err
	}
	var gunList []string
	for _, g := range strings.Split(*guns, ",") {
		if g = strings.ToLower(strings.TrimSpace(g)); g != "" {
			gunList = append(gunList, g)
		}
	}
	env, err := DefaultEnv()
	if err != nil {
		return err
	}
	d := dice.NewScripted(values...)
	rep, err := CalcFireRow(env, shooter, target, gunList, *rng, *height, *clock, strings.TrimSpace(*row), d, *simple)
	if err != nil {
		return ruleset.Usagef("calc fire: %v", err)
	}
	if err := d.Err(); err != nil {
		return ruleset.Usagef("calc fire: %v (--dice gives red, white, then the hit-location D10s)", err)
	}
	if d.Remaining() > 0 {
		return ruleset.Usagef("calc fire: %d more dice given than the shot uses (it used %d)", d.Remaining(), len(values)-d.Remaining())
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "%s fires %s at a %s: range %d (column %s), deflection row %s, DRM %+d\n",
		shooter.Name, strings.Join(rep.Guns, "+"), target.Name, rep.Range, rep.Column, rep.Row, rep.DRM)
	fmt.Fprintf(stdout, "Chart %s: red %d + white %d %+d = row %d: %d hit%s\n", rep.Chart, rep.Red, rep.White, rep.DRM, rep.Modified, rep.Hits, ruleset.PluralS(rep.Hits))
	if len(rep.Locations) > 0 {
		fmt.Fprintf(stdout, "Hit location: %s", strings.Join(rep.Locations, " "))
		if rep.Critical > 0 {
			fmt.Fprintf(stdout, "   critical +%d (red %d)", rep.Critical, rep.Red)
		}
		fmt.Fprintf(stdout, "\nDamage: %s\n", strings.Join(rep.Damage, " "))
	}
	printEffects(stdout, rep.Effects, rep.ShotDown)
	return nil
}

func printEffects(w io.Writer, effects []string, down bool) {
	if len(effects) > 0 {
		fmt.Fprintf(w, "Effects: %s\n", strings.Join(effects, "; "))
	}
	if down {
		fmt.Fprintln(w, "The target is shot down.")
	}
}

func lookupFlag(flagName, key string) (*aircraftCard, error) {
	if key == "" {
		return nil, ruleset.Usagef("%s is required (see 'sortie aircraft list')", flagName)
	}
	return lookup(key)
}

func parseDice(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, ruleset.Usagef("--dice is required: red D6, white D6, then the hit-location D10s, e.g. --dice 5,3,5")
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 || n > 10 {
			return nil, ruleset.Usagef("--dice: %q is not a die value (1-6 for the D6s, 1-10 for the D10s; 10 for a 0)", part)
		}
		out = append(out, n)
	}
	if len(out) < 2 {
		return nil, ruleset.Usagef("--dice needs at least the red and white D6")
	}
	return out, nil
}

const calcDamageHelp = `sortie calc damage: apply a hit-location result to a fresh aircraft.

  --aircraft KEY      the aircraft hit
  --hits LETTERS      the hit string, e.g. WFEE* (F W E C L G; * after the system open to a critical)
  --red N             the red die (5 adds 1 hit to the starred system, 6 adds 2, on 2 or more hits)
  --side L|R          the side sided systems are hit on (an odd hit-location D10 is L, even R; default L)
  --simple-criticals  the seed's older red-die rule
  --json              one JSON object
`

func calcDamage(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("calc damage", flag.ContinueOnError)
	key := fs.String("aircraft", "", "")
	hits := fs.String("hits", "", "")
	red := fs.Int("red", 0, "")
	side := fs.String("side", "", "")
	simple := fs.Bool("simple-criticals", false, "")
	asJSON := fs.Bool("json", false, "")
	if done, err := ruleset.ParseCommandFlags(fs, args, "calc damage", calcDamageHelp, "", stdout); done || err != nil {
		return err
	}
	card, err := lookupFlag("--aircraft", *key)
	if err != nil {
		return err
	}
	if *hits == "" {
		return ruleset.Usagef("--hits is required, e.g. --hits WFEE*")
	}
	rep, err := CalcDamage(card, *hits, *red, *side, *simple)
	if err != nil {
		return ruleset.Usagef("calc damage: %v", err)
	}
	if *asJSON {
		return ruleset.WriteJSON(stdout, rep)
	}
	fmt.Fprintf(stdout, "%s hit %s", card.Name, strings.ToUpper(*hits))
	if rep.Critical > 0 {
		fmt.Fprintf(stdout, ", red %d: critical +%d", *red, rep.Critical)
	}
	fmt.Fprintf(stdout, "\nDamage: %s\n\n", strings.Join(rep.Damage, " "))
	for _, s := range rep.Systems {
		mark := ""
		if s.Destroyed {
			mark = "  destroyed"
		}
		fmt.Fprintf(stdout, "  %s %-22s %s%s%s\n", s.Letter, s.Name, strings.Repeat("■", s.Filled), strings.Repeat("□", s.Boxes-s.Filled), mark)
	}
	fmt.Fprintln(stdout)
	printEffects(stdout, rep.Effects, rep.ShotDown)
	return nil
}
