package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sortie/rules/afd/notation"
	"strconv"
	"strings"

	"sortie/parser"
	"sortie/rules/afd"
	"sortie/rules/dice"
)

const resolveHelp = `sortie resolve: resolve one turn offline and print its events and the new state.

  --scenario FILE   the scenario (YAML); its turn 1 is resolved unless --state is given
  --state FILE      a state (JSON, as printed by --json) to resolve the next turn of instead
  --orders FILE     one order per line: CALLSIGN: PLOT [FIRE ...|HOLD]; # starts a comment
  --seed N          the dice seed: a number, or 64 hex digits (default 1)
  --json            {"events": [...], "state": {...}, "hash": "..."}

Moderators use it to check a disputed turn: the service resolves turns with the same code.
`

func cmdResolve(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("resolve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	scenarioPath := fs.String("scenario", "", "")
	statePath := fs.String("state", "", "")
	ordersPath := fs.String("orders", "", "")
	seedText := fs.String("seed", "1", "")
	asJSON := fs.Bool("json", false, "")
	help := fs.Bool("help", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("resolve: %v\n\n%s", err, resolveHelp)
	}
	if *help {
		fmt.Fprint(stdout, resolveHelp)
		return nil
	}
	if (*scenarioPath == "") == (*statePath == "") {
		return usagef("resolve: give --scenario or --state (one of them)")
	}
	if *ordersPath == "" {
		return usagef("resolve: --orders is required")
	}
	seed, err := parseSeed(*seedText)
	if err != nil {
		return err
	}
	env, err := afd.DefaultEnv()
	if err != nil {
		return err
	}
	var st *afd.State
	if *scenarioPath != "" {
		sc, err := afd.LoadScenario(*scenarioPath)
		if err != nil {
			return usagef("%v", err)
		}
		if env, err = sc.Env(env); err != nil {
			return usagef("%v", err)
		}
		st, err = afd.NewGame(sc, env.Cards)
		if err != nil {
			return usagef("%v", err)
		}
	} else {
		data, err := os.ReadFile(*statePath)
		if err != nil {
			return usagef("%v", err)
		}
		var wrapped struct {
			State *afd.State `json:"state"`
		}
		if err := json.Unmarshal(data, &wrapped); err != nil || wrapped.State == nil {
			st = &afd.State{}
			if err := json.Unmarshal(data, st); err != nil || st.Ruleset != "afd" {
				return usagef("%s is not an afd state", *statePath)
			}
		} else {
			st = wrapped.State
		}
	}
	data, err := os.ReadFile(*ordersPath)
	if err != nil {
		return usagef("%v", err)
	}
	orders, err := readOrders(data, *ordersPath, st)
	if err != nil {
		return err
	}
	next, events, err := afd.Resolve(env, st, orders, dice.NewSeeded(seed))
	if err != nil {
		return usagef("resolve: %v", err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Events []afd.Event `json:"events"`
			State  *afd.State  `json:"state"`
			Hash   string      `json:"hash"`
		}{events, next, next.Hash()})
	}
	fmt.Fprintf(stdout, "%s — turn %d resolved\n\n", next.Scenario, next.Turn-1)
	for _, e := range events {
		fmt.Fprintf(stdout, "  %-13s %s\n", e.Kind, e.Text)
		for _, p := range e.Problems {
			fmt.Fprintf(stdout, "                  column %d: %s\n", p.Col, p.Message)
		}
	}
	fmt.Fprintln(stdout)
	for _, p := range next.Planes {
		f := p.Flight
		fmt.Fprintf(stdout, "  %-8s %-12s %-10s hex (%d,%d) facing %s %6d ft speed %4.1f bank %-2s damage %v\n",
			p.Callsign, p.Type, p.Status, f.Hex.Q, f.Hex.R, f.Facing, f.Alt, f.Speed.Float(), f.Bank, p.Damage)
	}
	fmt.Fprintf(stdout, "\nState hash %s\n", next.Hash())
	return nil
}

func parseSeed(s string) (dice.Seed, error) {
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return dice.SeedFromUint64(n), nil
	}
	seed, err := dice.ParseSeed(s)
	if err != nil {
		return seed, usagef("--seed is a number or 64 hex digits, got %q", s)
	}
	return seed, nil
}

// readOrders reads an orders file: one "CALLSIGN: order" per line. Every problem is reported with its
// line and column; an order whose plot breaks the rules is left to the resolver, which flies the default
// and says why, as the service does.
func readOrders(data []byte, name string, st *afd.State) (map[string]notation.Order, error) {
	orders := map[string]notation.Order{}
	var problems []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		cs, o, ds := notation.ParseOrderLine(line)
		for _, d := range ds {
			if d.Severity == parser.SeverityError {
				problems = append(problems, fmt.Sprintf("%s:%d: %s", name, n, d.Error()))
			}
		}
		if parser.HasErrors(ds) {
			continue
		}
		p := st.Plane(cs)
		_, twice := orders[cs]
		switch {
		case p == nil:
			problems = append(problems, fmt.Sprintf("%s:%d: no aircraft %s in this game", name, n, cs))
		case !p.InPlay():
			problems = append(problems, fmt.Sprintf("%s:%d: %s is %s and takes no orders", name, n, cs, p.Status))
		case twice:
			problems = append(problems, fmt.Sprintf("%s:%d: a second order for %s", name, n, cs))
		default:
			orders[cs] = o
		}
	}
	if len(problems) > 0 {
		return nil, usagef("%s", strings.Join(problems, "\n"))
	}
	return orders, nil
}
