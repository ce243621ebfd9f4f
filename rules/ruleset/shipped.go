package ruleset

import "fmt"

// Shipped is the plumbing of NewGame, Load and Version for a ruleset whose games depend on its shipped
// data alone: the data D (loaded once by the ruleset's own Data), scenarios read into C and started as
// states S, saved states read back and checked against the data. A ruleset's methods hand over to it.
type Shipped[D, C, S any] struct {
	Name  string                                          // the ruleset's name, as saved states name it
	Data  func() (D, error)                               // the shipped data
	Sum   func(D) string                                  // the data's SHA-256, in hex
	Parse func(scenario []byte, source string) (C, error) // a scenario checked
	Start func(C, D) (*S, error)                          // a checked scenario's first round
	Saved func(*S) *string                                // the ruleset a saved state names
	Check func(D, *S) error                               // a state read back, against the data
	Game  func(D, *S) Game                                // the ruleset's game of a state
}

// NewGame checks a scenario and builds its first round.
func (k Shipped[D, C, S]) NewGame(scenario []byte, source string) (Game, error) {
	d, err := k.Data()
	if err != nil {
		return nil, err
	}
	c, err := k.Parse(scenario, source)
	if err != nil {
		return nil, err
	}
	st, err := k.Start(c, d)
	if err != nil {
		return nil, err
	}
	return k.Game(d, st), nil
}

// Load reads a state saved by the game's Save.
func (k Shipped[D, C, S]) Load(data []byte) (Game, error) {
	d, err := k.Data()
	if err != nil {
		return nil, err
	}
	var st S
	if err := DecodeState(data, k.Name, &st, k.Saved(&st)); err != nil {
		return nil, err
	}
	if err := k.Check(d, &st); err != nil {
		return nil, fmt.Errorf("%s: the saved game %w", k.Name, err)
	}
	return k.Game(d, &st), nil
}

// Version names the rules data games depend on: "<name>@sha256:…" over the shipped data.
func (k Shipped[D, C, S]) Version() (string, error) {
	d, err := k.Data()
	if err != nil {
		return "", err
	}
	return k.Name + "@sha256:" + k.Sum(d), nil
}
