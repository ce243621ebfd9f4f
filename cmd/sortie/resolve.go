package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sortie/adjudicator"
	"sortie/parser"
	"sortie/rules/dice"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
)

const resolveHelp = `sortie resolve: resolve one turn offline and print its events and the new state.

  --scenario FILE   the scenario (YAML); its turn 1 is resolved unless --state is given
  --state FILE      a state (JSON, as printed by --json) to resolve the next turn of instead
  --orders FILE     one order per line, CALLSIGN: ORDER in the game's notation; # starts a comment
  --seed N          the dice seed: a number, or 64 hex digits (default 1)
  --json            {"ruleset", "round", "events", "dice", "state", "hash"}; --state reads it back

Moderators use it to check a disputed turn: the service resolves turns with the same code. An order
the rules refuse is not flown (its unit flies as if it had none, as in a game by mail): the answer lists
it with why, and the exit status is 1; a line that is no order at all is a usage error (exit 2).
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
	var rs ruleset.Ruleset
	var g ruleset.Game
	if *scenarioPath != "" {
		data, err := os.ReadFile(*scenarioPath)
		if err != nil {
			return usagef("%v", err)
		}
		name, err := registry.Detect(data)
		if err != nil {
			return usagef("%s: %v", *scenarioPath, err)
		}
		if rs, err = registry.Get(name); err != nil {
			return usagef("%s: %v", *scenarioPath, err)
		}
		root, err := os.OpenRoot(filepath.Dir(*scenarioPath))
		if err != nil {
			return usagef("%v", err)
		}
		defer root.Close()
		part, err := adjudicator.GamePart(data)
		if err != nil {
			return usagef("%s: %v", *scenarioPath, err)
		}
		if g, err = rs.NewGame(part, root.FS(), *scenarioPath); err != nil {
			return usagef("%v", err)
		}
	} else if rs, g, err = loadState(*statePath); err != nil {
		return err
	}
	data, err := os.ReadFile(*ordersPath)
	if err != nil {
		return usagef("%v", err)
	}
	orders, refused, err := readOrders(data, *ordersPath, g)
	if err != nil {
		return err
	}
	next, log, err := g.Resolve(orders, dice.NewSeeded(seed))
	if err != nil {
		return usagef("resolve: %v", err)
	}
	state, err := next.Save()
	if err != nil {
		return err
	}
	// An order the rules refuse is not flown, as the service does not store it: its unit flies as if it
	// had no order, and the answer says why and exits 1.
	var illegal error
	if len(refused) > 0 {
		illegal = errIllegal
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(resolvedJSON{Ruleset: rs.Name(), Round: log.Round, Events: log.Events, Dice: log.Dice, State: state, Hash: next.Hash(), Refused: refused}); err != nil {
			return err
		}
		return illegal
	}
	fmt.Fprintf(stdout, "%s — %s %d resolved\n\n", next.Name(), ruleset.RoundNoun(next), log.Round)
	if len(refused) > 0 {
		fmt.Fprintln(stdout, "  REFUSED ORDERS (not flown: each unit flew as if it had none, as in a game by mail)")
		for _, r := range refused {
			fmt.Fprintf(stdout, "  %s:%d: %s: %s\n", r.File, r.Line, r.Unit, r.Order)
			for _, p := range r.Problems {
				fmt.Fprintf(stdout, "                  %s\n", p)
			}
		}
		fmt.Fprintln(stdout)
	}
	var events []struct {
		Kind     string `json:"kind"`
		Text     string `json:"text"`
		Problems []struct {
			Col     int    `json:"column"`
			Message string `json:"message"`
		} `json:"problems"`
	}
	if err := json.Unmarshal(log.Events, &events); err != nil {
		return fmt.Errorf("resolve: the %s ruleset's events are not a list of {kind, text}: %v", rs.Name(), err)
	}
	for _, e := range events {
		fmt.Fprintf(stdout, "  %-13s %s\n", e.Kind, e.Text)
		for _, p := range e.Problems {
			fmt.Fprintf(stdout, "                  column %d: %s\n", p.Col, p.Message)
		}
	}
	fmt.Fprintln(stdout)
	listed := map[string]bool{}
	for _, p := range next.Players() {
		for _, u := range next.Report(p.ID, log).Own {
			if !listed[u.Name] {
				listed[u.Name] = true
				fmt.Fprintf(stdout, "  %-8s %-12s %s\n", u.Name, u.Type, u.Summary)
			}
		}
	}
	fmt.Fprintf(stdout, "\nState hash %s\n", next.Hash())
	return illegal
}

// refusedOrder is an order of the orders file that the rules refuse, with why.
type refusedOrder struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Unit     string   `json:"unit"`
	Order    string   `json:"order"`
	Problems []string `json:"problems"`
}

// resolvedJSON is what resolve --json prints; --state reads it back.
type resolvedJSON struct {
	Ruleset string          `json:"ruleset"`
	Round   int             `json:"round"`
	Events  json.RawMessage `json:"events"`
	Dice    []dice.Roll     `json:"dice"`
	State   json.RawMessage `json:"state"`
	Hash    string          `json:"hash"`
	// Refused are the orders the rules refused (not flown).
	Refused []refusedOrder `json:"refused,omitempty"`
}

// loadState reads a state printed by resolve --json (or a bare saved state that names its ruleset).
func loadState(path string) (ruleset.Ruleset, ruleset.Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, usagef("%v", err)
	}
	var wrapped resolvedJSON
	if err := json.Unmarshal(data, &wrapped); err != nil {
		return nil, nil, usagef("%s is not a state printed by sortie resolve --json: %v", path, err)
	}
	state := []byte(wrapped.State)
	if len(state) == 0 {
		state = data
		var bare struct {
			Ruleset string `json:"ruleset"`
		}
		json.Unmarshal(data, &bare)
		wrapped.Ruleset = bare.Ruleset
	}
	if wrapped.Ruleset == "" {
		return nil, nil, usagef("%s does not say which ruleset its state is for", path)
	}
	rs, err := registry.Get(wrapped.Ruleset)
	if err != nil {
		return nil, nil, usagef("%s: %v", path, err)
	}
	g, err := rs.Load(state)
	if err != nil {
		return nil, nil, usagef("%s is not a %s state: %v", path, rs.Name(), err)
	}
	return rs, g, nil
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

// readOrders reads an orders file: one "CALLSIGN: order" per line, in the game's own notation. A line
// that is no order is a usage error with its line; an order the rules refuse (CheckOrder, as the
// service checks every order) is returned apart, with its problems, and not flown.
func readOrders(data []byte, name string, g ruleset.Game) (map[string]string, []refusedOrder, error) {
	owner := map[string]string{}
	for _, p := range g.Players() {
		for _, u := range g.Units(p.ID) {
			owner[u] = p.ID
		}
	}
	orders := map[string]string{}
	var refused []refusedOrder
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
		i := strings.IndexByte(line, ':')
		if i < 0 {
			problems = append(problems, fmt.Sprintf("%s:%d: an order line is the callsign, a colon, then the order", name, n))
			continue
		}
		cs := strings.ToUpper(strings.TrimSpace(line[:i]))
		text := line[i+1:]
		player, ok := owner[cs]
		_, twice := orders[cs]
		switch {
		case !parser.IsCallsign(cs):
			problems = append(problems, fmt.Sprintf("%s:%d: %q is not a callsign", name, n, strings.TrimSpace(line[:i])))
		case !ok:
			problems = append(problems, fmt.Sprintf("%s:%d: no unit %s in play in this game", name, n, cs))
		case twice:
			problems = append(problems, fmt.Sprintf("%s:%d: a second order for %s", name, n, cs))
		default:
			chk := g.CheckOrder(player, cs, text)
			if chk.OK() {
				orders[cs] = chk.Canonical
				continue
			}
			r := refusedOrder{File: name, Line: n, Unit: cs, Order: strings.TrimSpace(text)}
			offset := len(line[:i+1]) // columns counted in the whole line, as a receipt counts them
			for _, p := range chk.Errors {
				if p.Col > 0 {
					r.Problems = append(r.Problems, fmt.Sprintf("column %d: %s", p.Col+offset, p.Message))
				} else {
					r.Problems = append(r.Problems, p.Message)
				}
			}
			refused = append(refused, r)
			orders[cs] = "" // one order per unit: a second line for it is still a mistake
		}
	}
	if len(problems) > 0 {
		return nil, nil, usagef("%s", strings.Join(problems, "\n"))
	}
	for cs, o := range orders {
		if o == "" {
			delete(orders, cs)
		}
	}
	return orders, refused, nil
}
