package ruleset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"sortie/rules/dice"
)

// What follows is shared by the rulesets, so each keeps only its own rules.

// NewLog builds a round's log: the ruleset's events as JSON, the dice thrown during the round (copied),
// and the players who missed orders, each once, sorted.
func NewLog(round int, events any, rolls []dice.Roll, missed []string) (*Log, error) {
	b, err := json.Marshal(events)
	if err != nil {
		return nil, err
	}
	l := &Log{Round: round, Events: b, Dice: append([]dice.Roll(nil), rolls...)}
	seen := map[string]bool{}
	for _, p := range missed {
		if !seen[p] {
			seen[p] = true
			l.Missed = append(l.Missed, p)
		}
	}
	sort.Strings(l.Missed)
	return l, nil
}

// HashJSON is the hex SHA-256 of a value's JSON: a state's fingerprint.
func HashJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "error: " + err.Error()
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// CheckSeats checks a scenario's sides and players, reporting each problem through add with its YAML
// path: at least two sides, none empty or repeated; every player with an id of its own on one of the
// sides. It returns the set of sides and each player's side.
func CheckSeats(sides []string, players []Player, add func(path, format string, args ...any)) (map[string]bool, map[string]string) {
	sideSet := map[string]bool{}
	for i, side := range sides {
		if strings.TrimSpace(side) == "" || sideSet[side] {
			add(fmt.Sprintf("sides[%d]", i), "side %q is empty or given twice", side)
		}
		sideSet[side] = true
	}
	if len(sides) < 2 {
		add("sides", "a game needs at least two sides")
	}
	playerSide := map[string]string{}
	for i, p := range players {
		path := fmt.Sprintf("players[%d]", i)
		if p.ID == "" {
			add(path, "a player needs an id")
		} else if _, dup := playerSide[p.ID]; dup {
			add(path, "player id %q is given twice", p.ID)
		}
		if !sideSet[p.Side] {
			add(path+".side", "player %q is on side %q, which is not one of the sides", p.ID, p.Side)
		}
		playerSide[p.ID] = p.Side
	}
	return sideSet, playerSide
}

// MissedBy lists the players named by a round's events of missed orders (for NewLog): player says
// whether an event is one and whose order it was.
func MissedBy[E any](events []E, player func(E) (string, bool)) []string {
	var out []string
	for _, e := range events {
		if p, ok := player(e); ok {
			out = append(out, p)
		}
	}
	return out
}

// NMRNotices is how a side learns of its enemies' missed orders: by player only, once a player and
// turn, never once a unit. A line per unit would count the enemy's units, seen or not. The zero value
// is ready; use one per report.
type NMRNotices struct{ said map[string]bool }

// Notice gives the line telling a side that player sent no order in turn, or false when the side was
// told already.
func (n *NMRNotices) Notice(turn int, player string) (string, bool) {
	key := fmt.Sprintf("%d/%s", turn, player)
	if n.said[key] {
		return "", false
	}
	if n.said == nil {
		n.said = map[string]bool{}
	}
	n.said[key] = true
	return fmt.Sprintf("no order came from %s this turn", player), true
}

// RoundLog is the log of a round a ruleset has just resolved: its events, the dice thrown since the
// source's log held before rolls, and the players named by the events that say an order was missed.
func RoundLog[E any](round int, events []E, d dice.Source, before int, missed func(E) (string, bool)) (*Log, error) {
	return NewLog(round, events, d.Log()[before:], MissedBy(events, missed))
}
