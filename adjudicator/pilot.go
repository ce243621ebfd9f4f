package adjudicator

import (
	"fmt"
	"time"

	"sortie/rules/ruleset"
	"sortie/storage"
)

// PilotOrders is what the game's computer pilot would order for a player's units this round (the
// ruleset's ruleset.Piloted, from that player's side's view only), as canonical order texts by unit. A
// ruleset without a pilot gives none.
func (s *Service) PilotOrders(gameID, player string) (map[string]string, error) {
	var out map[string]string
	err := s.db.View(func(tx *storage.Tx) error {
		g, err := getGame(tx, gameID)
		if err != nil {
			return err
		}
		if g.seat(player) == nil {
			return fmt.Errorf("game %s has no player %q", gameID, player)
		}
		rg, err := s.loadRules(tx, g)
		if err != nil {
			return err
		}
		if p, ok := rg.(ruleset.Piloted); ok {
			out = p.PilotOrders(player)
		}
		return nil
	})
	return out, err
}

// autopilotFlies says what flies a seat's units on autopilot: the ruleset's computer pilot, or the
// default orders when the ruleset has none.
func autopilotFlies(rg ruleset.Game) string {
	if _, ok := rg.(ruleset.Piloted); ok {
		return "the computer pilot flies their units"
	}
	return "their units fly on by default"
}

// pilotMissing gives the computer pilot's orders (ruleset.Piloted: from each player's side's view
// only) to the units that have none this round: every unit of a seat the computer plays, and under the
// autopilot NMR policy the units of any player who sent no order for them, on autopilot or not. Each
// order passes the same check a player's would. A unit the pilot leaves alone (a plane with bombs, a
// torpedo or rockets aboard: the attack is its player's) or whose order fails the check gets its
// default order here, so every unit of such a seat has an order and the ruleset announces none of them
// as missed. It returns the notes telling everyone which players' units the pilot flew: by player only
// (naming units would count an enemy's), and the same whatever the pilot made of them. Fog of war
// (invariant 4, docs/architecture.md): whether the pilot would fly a unit depends on what it carries,
// which the other side may never have seen; a notice that said "flew on by default" for some and "the
// computer pilot flew them" for others would tell it (docs/operations.md, Security).
func (s *Service) pilotMissing(g *Game, rg ruleset.Game, orders map[string]string, now time.Time) []string {
	p, ok := rg.(ruleset.Piloted)
	if !ok {
		return nil
	}
	var notes []string
	_, units := s.unitNouns(g)
	for i := range g.Seats {
		st := &g.Seats[i]
		if st.Dropped || !st.Bot && (g.Policy.Mode != PolicyAutopilot || st.away(now)) {
			continue
		}
		var missing []string
		for _, u := range rg.Units(st.Player) {
			if _, ok := orders[u]; !ok {
				missing = append(missing, u)
			}
		}
		if len(missing) == 0 {
			continue
		}
		pilot := p.PilotOrders(st.Player)
		for _, u := range missing {
			if text, ok := pilot[u]; ok && rg.CheckOrder(st.Player, u, text).OK() {
				orders[u] = text
			} else if text := rg.DefaultOrder(u); text != "" && rg.CheckOrder(st.Player, u, text).OK() {
				orders[u] = text
			}
		}
		if !st.Bot {
			name := st.Name
			if name == "" {
				name = st.Player
			}
			notes = append(notes, fmt.Sprintf("No orders came from %s for some of their %s: the computer pilot flew them this %s, on their default orders where it gave none of its own.", name, units, ruleset.RoundNoun(rg)))
		}
	}
	return notes
}
