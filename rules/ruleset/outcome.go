package ruleset

import (
	"fmt"
	"sort"
	"strings"

	"sortie/parser"
)

// Outcome is how a game ended: the side that won (or "draw"), each side's points, and why it ended.
type Outcome struct {
	Winner string         `json:"winner"` // a side, or "draw"
	Score  map[string]int `json:"score"`
	Reason string         `json:"reason"`
}

// Fate is how a unit left play, in its ruleset's words: {"RED1", "shot down"}, {"BLUE2", "left the map"}.
type Fate struct {
	Unit, How string
}

// EndReason says why a game ends after a turn, or "" if it goes on: the turn limit is passed (next is
// the turn to be played next), or no more than one side has units in play (inPlay). Every side reads the
// same reason, so it says what is true from each: it names each side with nothing left in play and how
// its units left it (gone, by side: its units out of play, in order), e.g. "Luftwaffe has nothing left
// in play (RED1 and RED2 shot down, RED3 left the map)". The game is over, so naming units is no news.
func EndReason(next, limit int, sides []string, inPlay map[string]bool, gone map[string][]Fate) string {
	if next > limit {
		return fmt.Sprintf("the turn limit (%d) was reached", limit)
	}
	n := 0
	for _, side := range sides {
		if inPlay[side] {
			n++
		}
	}
	if n > 1 {
		return ""
	}
	var out []string
	for _, side := range sides {
		if inPlay[side] {
			continue
		}
		if len(gone[side]) == 0 {
			out = append(out, side+" has nothing in play")
			continue
		}
		out = append(out, fmt.Sprintf("%s has nothing left in play (%s)", side, fatesText(gone[side])))
	}
	return strings.Join(out, ", and ")
}

// Ended is a game's outcome, unscored, when it ends after a round, or nil while it goes on (EndReason,
// next and limit as there): unit says a unit's side, whether it is in play, and how it left play when it
// is not.
func Ended[U any](next, limit int, sides []string, units []U, unit func(*U) (side string, inPlay bool, gone Fate)) *Outcome {
	inPlay := map[string]bool{}
	gone := map[string][]Fate{}
	for i := range units {
		side, in, f := unit(&units[i])
		if in {
			inPlay[side] = true
		} else {
			gone[side] = append(gone[side], f)
		}
	}
	reason := EndReason(next, limit, sides, inPlay, gone)
	if reason == "" {
		return nil
	}
	return NewOutcome(sides, reason)
}

// fatesText groups units by how they left, in the order each way first appears: "RED1 and RED3 shot
// down, RED2 left the map".
func fatesText(fates []Fate) string {
	var hows []string
	units := map[string][]string{}
	for _, f := range fates {
		if _, ok := units[f.How]; !ok {
			hows = append(hows, f.How)
		}
		units[f.How] = append(units[f.How], f.Unit)
	}
	parts := make([]string, len(hows))
	for i, how := range hows {
		parts[i] = andList(units[how]) + " " + how
	}
	return strings.Join(parts, ", ")
}

// andList joins names as prose: "A", "A and B", "A, B and C".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// NewOutcome starts the outcome of a game that ended for reason, every side at 0 points; the ruleset
// scores its victory conditions into Score, then calls Decide.
func NewOutcome(sides []string, reason string) *Outcome {
	o := &Outcome{Score: map[string]int{}, Reason: reason}
	for _, side := range sides {
		o.Score[side] = 0
	}
	return o
}

// Decide names the winner: the side with the most points, or "draw" when the most is shared.
func (o *Outcome) Decide(sides []string) {
	best, winner := -1, "draw"
	for _, side := range sides {
		switch s := o.Score[side]; {
		case s > best:
			best, winner = s, side
		case s == best:
			winner = "draw"
		}
	}
	o.Winner = winner
}

// Clone returns a deep copy (nil for nil).
func (o *Outcome) Clone() *Outcome {
	if o == nil {
		return nil
	}
	c := *o
	c.Score = make(map[string]int, len(o.Score))
	for k, v := range o.Score {
		c.Score[k] = v
	}
	return &c
}

// Text is the outcome as the players read it, sides in the scenario's order: "RAF wins (RAF 2,
// Luftwaffe 1): the turn limit (8) was reached" ("" for nil).
func (o *Outcome) Text(sides []string) string {
	if o == nil {
		return ""
	}
	var score []string
	for _, side := range sides {
		score = append(score, fmt.Sprintf("%s %d", side, o.Score[side]))
	}
	who := o.Winner + " wins"
	if o.Winner == "draw" {
		who = "a draw"
	}
	return fmt.Sprintf("%s (%s): %s", who, strings.Join(score, ", "), o.Reason)
}

// SideOf returns the side a player plays, or "" for someone not in the game.
func SideOf(players []Player, id string) string {
	for _, p := range players {
		if p.ID == id {
			return p.Side
		}
	}
	return ""
}

// Find returns the unit with a callsign from units sorted by callsign (callsign gives a unit's), or nil.
func Find[T any](units []T, callsign string, key func(*T) string) *T {
	i := sort.Search(len(units), func(i int) bool { return key(&units[i]) >= callsign })
	if i < len(units) && key(&units[i]) == callsign {
		return &units[i]
	}
	return nil
}

// Named is the unit with a callsign in units kept in any order, or nil: Find for a list not sorted by
// callsign.
func Named[T any](units []T, callsign string, key func(*T) string) *T {
	for i := range units {
		if key(&units[i]) == callsign {
			return &units[i]
		}
	}
	return nil
}

// CloneSight returns a deep copy of a state's sightings: for each side, what it knows of each enemy
// unit. Every side's map is a new one, empty where the original is nil or empty.
func CloneSight[V any](sight map[string]map[string]V) map[string]map[string]V {
	c := make(map[string]map[string]V, len(sight))
	for side, m := range sight {
		n := make(map[string]V, len(m))
		for k, v := range m {
			n[k] = v
		}
		c[side] = n
	}
	return c
}

// SightFor returns a saved state's sightings with a map for every side, ready to be written to: a game
// saved before a side had seen anything, or with no sightings at all, loads with empty maps.
func SightFor[V any](sight map[string]map[string]V, sides []string) map[string]map[string]V {
	if sight == nil {
		sight = map[string]map[string]V{}
	}
	for _, side := range sides {
		if sight[side] == nil {
			sight[side] = map[string]V{}
		}
	}
	return sight
}

// NotYours is the problem of an order for a unit the player does not command: it names the unit, and
// suggests the nearest of the player's own callsigns when one is a slip away ("HNAS" for "HANS"). The
// suggestion comes from own only: an enemy's callsign would tell the player that such a unit exists.
func NotYours(name, noun string, own []string) Problem {
	msg := fmt.Sprintf("%s is not one of your %s", name, noun)
	best, bestD := "", 3
	for _, cs := range own {
		if d := parser.EditDistance(name, cs); d < bestD || d == bestD && cs < best {
			best, bestD = cs, d
		}
	}
	if best != "" && best != name {
		msg += " (did you mean " + best + "?)"
	}
	return Problem{Code: "not-yours", Message: msg}
}
