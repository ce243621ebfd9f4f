package afd

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/tables"
)

// Version names the rules data a game depends on: "afd@sha256:…" over every shipped aircraft card as
// the engine uses it and every cell of the house tables. It changes whenever a card or a table changes,
// so an archive can say which rules it was played under. (The engine's code is identified separately,
// by the binary's build information.)
func (Ruleset) Version() (string, error) { return version() }

// version is worked out once, the first time it is asked, and never changes after.
var version = sync.OnceValues(func() (string, error) {
	h := sha256.New()
	w := bufio.NewWriter(h)
	fmt.Fprintf(w, "sortie rules data 1\x00afd\x00")
	if err := rulesData(w); err != nil {
		return "", err
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	return "afd@sha256:" + hex.EncodeToString(h.Sum(nil)), nil
})

// rulesData writes everything of the shipped cards and tables that a game can depend on.
func rulesData(w io.Writer) error {
	cards, err := aircraft.Default()
	if err != nil {
		return err
	}

	for _, key := range cards.Keys() {
		c, _ := cards.Get(key)
		b, err := json.Marshal(c)
		if err != nil {
			return fmt.Errorf("card %s: %w", key, err)
		}
		fmt.Fprintf(w, "card %s %d\n%s\n", key, len(b), b)
	}
	t, err := tables.Default()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "tables %q\n", t.Label)
	for _, key := range tables.MixKeys() {
		c, ok := t.Chart(key)
		if !ok {
			fmt.Fprintf(w, "chart %s none\n", key)
			continue
		}
		fmt.Fprintf(w, "chart %s %d %d", key, c.First(), c.Last())
		for row := c.First(); row <= c.Last(); row++ {
			for col := tables.Col12; col <= tables.Col78; col++ {
				fmt.Fprintf(w, " %d", c.Hits(col, row))
			}
		}
		fmt.Fprintln(w)
	}
	for _, me := range []bool{false, true} {
		fmt.Fprintf(w, "drm %v", me)
		for clock := 0; clock <= 12; clock++ {
			fmt.Fprintf(w, " %d", t.DRM(clock, me))
		}
		for _, row := range tables.DeflectionRows() {
			d, err := t.DRMRow(row, me)
			fmt.Fprintf(w, " %s=%d/%v", row, d, err)
		}
		fmt.Fprintln(w)
		for hits := 1; hits <= 4; hits++ {
			fmt.Fprintf(w, "location %v %d", me, hits)
			for d10 := 1; d10 <= 10; d10++ {
				loc, err := t.Location(me, hits, d10)
				fmt.Fprintf(w, " %s/%v", loc, err)
			}
			fmt.Fprintln(w)
		}
	}
	for rng := -1; rng <= 40; rng++ {
		fmt.Fprintf(w, "spot %d", rng)
		for diff := -30000; diff <= 30000; diff += 100 {
			need, ok := t.SpotNeed(rng, diff)
			fmt.Fprintf(w, " %d/%v", need, ok)
		}
		need, ok := t.IdentifyNeed(rng)
		fmt.Fprintf(w, " identify %d/%v\n", need, ok)
	}
	for diff := -30000; diff <= 30000; diff += 100 {
		fmt.Fprintf(w, "band %d %s\n", diff, t.SpotHeightBand(diff))
	}
	for alt := 0; alt <= 45000; alt += 50 {
		need, ok := t.BailOutNeed(alt)
		fmt.Fprintf(w, "bail %d %d/%v\n", alt, need, ok)
	}
	return nil
}
