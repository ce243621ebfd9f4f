package afd

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"sortie/rules/afd/aircraft"
	"sortie/rules/ruleset"
)

func registry() (*aircraft.Registry, error) {
	r, err := aircraft.Default()
	if err != nil {
		return nil, fmt.Errorf("loading the aircraft cards: %w", err)
	}
	return r, nil
}

type aircraftCard = aircraft.Card

func lookup(key string) (*aircraft.Card, error) {
	r, err := registry()
	if err != nil {
		return nil, err
	}
	if key == "" {
		return nil, ruleset.Usagef("--aircraft is required (see 'sortie aircraft list')")
	}
	c, ok := r.Get(strings.ToLower(key))
	if !ok {
		return nil, ruleset.Usagef("unknown aircraft %q (see 'sortie aircraft list')", key)
	}
	return c, nil
}

func cmdAircraft(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return ruleset.Usagef("aircraft: say list or show KEY")
	}
	switch args[0] {
	case "list":
		if len(args) > 1 {
			return ruleset.Usagef("aircraft list takes no arguments")
		}
		r, err := registry()
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, "KEY\tNAME\tNATION\tROLE\tENGINES")
		for _, c := range r.All() {
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\n", c.Key, c.Name, c.Nation, c.Role, c.Engines.Count)
		}
		return w.Flush()
	case "show":
		fs := flag.NewFlagSet("aircraft show", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		asJSON := fs.Bool("json", false, "print the card as JSON")
		key, rest := splitPositional(args[1:])
		if err := fs.Parse(rest); err != nil {
			return ruleset.Usagef("aircraft show: %v", err)
		}
		if key == "" && fs.NArg() > 0 {
			key = fs.Arg(0)
		}
		if key == "" {
			return ruleset.Usagef("aircraft show: which aircraft? (see 'sortie aircraft list')")
		}
		c, err := lookup(key)
		if err != nil {
			return err
		}
		if *asJSON {
			return ruleset.WriteJSON(stdout, c)
		}
		return printCard(stdout, c)
	}
	return ruleset.Usagef("aircraft: unknown subcommand %q (list, show)", args[0])
}

// splitPositional takes a leading positional argument off so flags may follow it.
func splitPositional(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}

func rangeText(r *aircraft.SpeedRange) string {
	if r == nil {
		return "-"
	}
	return fmt.Sprintf("%d-%d", r.Min, r.Max)
}

func printCard(w io.Writer, c *aircraft.Card) error {
	fmt.Fprintf(w, "%s (%s), %s %d, %s\n", c.Name, c.Key, c.Nation, c.Year, c.Role)
	fmt.Fprintf(w, "Engines: %d × %s (%s)   speed-loss class: %s   ceiling: %d ft", c.Engines.Count, c.Engines.Name, c.Engines.Kind, c.LossClass, c.Ceiling)
	if c.DiveBomber {
		fmt.Fprint(w, "   rated dive bomber")
	}
	fmt.Fprintf(w, "\nTurn-mode penalties: +%d at level speed, +%d at dive speed\n\n", c.TMLevelPenalty, c.TMDivePenalty)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ALTITUDE\tMANOEUVRE\tLEVEL\tDIVE\tPOWER\tBRAKE\tCLIMB\tTURN\tSLIP\tH.ROLL\tH.LOOP\tBANK")
	for _, b := range c.Bands {
		fmt.Fprintf(tw, "%d-%d\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", b.MinAlt, b.MaxAlt,
			rangeText(b.Maneuver), rangeText(&b.Level), rangeText(&b.Dive), b.Power, b.Brake, b.MaxClimb,
			b.TM.Turn, b.TM.Slip, b.TM.HalfRoll, b.TM.HalfLoop, b.TM.Bank)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if c.Loaded != nil {
		fmt.Fprintf(w, "\nLoaded (%s): speeds -%d, turn modes +%d, climb %d%%, speed-loss class HEAVY\n",
			c.Loaded.Stores, c.Loaded.SpeedPenalty, c.Loaded.TMPenalty, c.Loaded.ClimbPercent)
	}
	fmt.Fprintln(w, "\nGuns:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  POSITION\tKIND\tSIDE\tMIX\tRANGE\tAMMO\tARCS")
	for _, g := range c.Guns {
		arcs := "-"
		if len(g.Arcs) > 0 {
			arcs = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(g.Arcs)), ","), "[]")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%d\t%d\t%s\n", g.ID, g.Kind, g.Side, g.Mix, g.Range, g.Ammo, arcs)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nDamage systems:")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  LETTER\tSIDE\tNAME\tBOXES\tCRITICAL\tWHEN FULL")
	for _, s := range c.Systems {
		crit := ""
		if s.Critical {
			crit = "*"
		}
		side := s.Side
		if side == "" {
			side = "-"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\t%s\t%s\n", s.Letter, side, s.Name, s.Boxes, crit, s.Effect)
	}
	return tw.Flush()
}
