package adjudicator

import (
	"fmt"

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
		rg, err := loadRules(tx, g)
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
