package swarm

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	hexmap "sortie/rules/hex"
	"sortie/rules/ruleset/rulesettest"
)

// oraclePreview is Preview as it was written with fmt, before its lines were appended into one
// buffer: the oracle the present one is compared with.
func oraclePreview(turn int, start Position, moves []MoveResult) []string {
	var out []string
	pos := start
	for i, m := range moves {
		var steps []string
		for _, s := range m.Steps {
			if s.Token == "1" {
				steps = append(steps, s.Hex.String())
			} else {
				steps = append(steps, s.Token+"→"+s.Facing.String())
			}
		}
		out = append(out, fmt.Sprintf("turn %d: tack %s (%s) from %s facing %s: %s; ends in %s facing %s",
			turn+i, fmt.Sprintf("%d %s %s", m.Tack.Speed, m.Tack.Man, m.Tack.Band), bandName(m.Tack.Band),
			pos.Hex, pos.Facing, strings.Join(steps, " "), m.End.Hex, m.End.Facing))
		pos = m.End
	}
	return out
}

// TestForecastText pins an order check's canonical order and forecast, facing changes and all.
func TestForecastText(t *testing.T) {
	g := rulesettest.Bundled[*game](t, Ruleset{}, "kanalkampf-1940")
	for _, c := range []struct {
		player, unit, text, canonical string
		preview                       []string
	}{
		{"alice", "TIGER", "2 S M 2; 2 R M R 1 L 1; 3 L H L 1 1 FIRE ANY", "2 S M 2 FIRE ANY; 2 R M R 1 L 1 FIRE ANY; 3 L H L 2 FIRE ANY", []string{
			"turn 1: tack 2 S M (Medium) from (0,0) facing 150: (1,1) (2,2); ends in (2,2) facing 150",
			"turn 2: tack 2 R M (Medium) from (2,2) facing 150: R→210 (1,4) L→150 (2,5); ends in (2,5) facing 150",
			"turn 3: tack 3 L H (High) from (2,5) facing 150: L→090 (4,4) (6,3); ends in (6,3) facing 090",
		}},
		{"alice", "LION", "2 S M 2; 1 S L 1; 1 S L 1 HOLD", "2 S M 2 FIRE ANY; 1 S L 1 FIRE ANY; 1 S L 1 HOLD", []string{
			"turn 1: tack 2 S M (Medium) from (-2,2) facing 150: (-1,3) (0,4); ends in (0,4) facing 150",
			"turn 2: tack 1 S L (Low) from (0,4) facing 150: (1,5); ends in (1,5) facing 150",
			"turn 3: tack 1 S L (Low) from (1,5) facing 150: (2,6); ends in (2,6) facing 150",
		}},
	} {
		chk := g.CheckOrder(c.player, c.unit, c.text)
		if chk.Canonical != c.canonical || !slices.Equal(chk.Preview, c.preview) {
			t.Errorf("%s %q:\n got %q\n%s\nwant %q\n%s", c.unit, c.text, chk.Canonical, strings.Join(chk.Preview, "\n"),
				c.canonical, strings.Join(c.preview, "\n"))
		}
	}
}

// FuzzPreviewMatchesOracle writes the forecast of turns made of random values and compares it with the
// oracle's.
func FuzzPreviewMatchesOracle(f *testing.F) {
	f.Add(1, 0, 0, 5, 2, "S", "M", "1,1", -3, 4, 7)
	f.Add(-2, -40, 17, 13, 3, "R", "H", "L,1,R,R,1", 1<<40, -1<<40, -1)
	f.Add(99, 1, -1, 0, 0, "", "É", "", 0, 0, 12)
	f.Fuzz(func(t *testing.T, turn, q, r, facing, speed int, man, band, path string, hq, hr, hfacing int) {
		start := Position{Hex: hexmap.Hex{Q: q, R: r}, Facing: hexmap.Dir(facing)}
		var m MoveResult
		m.Tack = Tack{Speed: speed, Man: man, Band: band}
		for i, tok := range strings.Split(path, ",") {
			m.Steps = append(m.Steps, Step{Segment: i, Token: tok, Hex: hexmap.Hex{Q: hq + i, R: hr - i}, Facing: hexmap.Dir(hfacing + i)})
		}
		m.End = Position{Hex: hexmap.Hex{Q: hr, R: hq}, Facing: hexmap.Dir(hfacing)}
		moves := []MoveResult{m, m, {Tack: m.Tack, End: start}}
		if got, want := Preview(turn, start, moves), oraclePreview(turn, start, moves); !slices.Equal(got, want) {
			t.Errorf("Preview:\n%s\nthe oracle's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if got, want := m.Tack.String(), fmt.Sprintf("%d %s %s", m.Tack.Speed, m.Tack.Man, m.Tack.Band); got != want {
			t.Errorf("Tack.String = %q, the oracle's %q", got, want)
		}
	})
}
