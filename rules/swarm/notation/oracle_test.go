package notation

import (
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
)

// The printers as they were written before they appended into a buffer: the oracles the present ones are
// compared with.

func oracleTackString(t SwarmTack) string {
	return strconv.Itoa(t.Speed) + " " + string(rune(t.Man)) + " " + string(rune(t.Band))
}

func oracleTurnString(t SwarmTurn) string {
	var b strings.Builder
	b.WriteString(oracleTackString(t.Tack))
	for _, s := range t.Path {
		b.WriteByte(' ')
		b.WriteString(s.Token())
	}
	if t.Bomb {
		b.WriteString(" BOMB")
	}
	b.WriteByte(' ')
	b.WriteString(t.Fire.String())
	return b.String()
}

func oracleOrderString(o SwarmOrder) string {
	parts := make([]string, len(o.Turns))
	for i, t := range o.Turns {
		parts[i] = oracleTurnString(t)
	}
	return strings.Join(parts, "; ")
}

// FuzzPrintersMatchOracles prints orders read from any text, and a turn made of any values, and compares
// them with the oracles.
func FuzzPrintersMatchOracles(f *testing.F) {
	for _, c := range swarmCases {
		f.Add(c.in, 2, byte('S'), byte('M'), "2", false)
	}
	f.Add("2 S M 2 FIRE ANY BOMB;1SH", -1, byte(0xe9), byte(0), "1,0,-1,12", true)
	f.Add("", 1<<40, byte('L'), byte('H'), "", false)
	f.Fuzz(func(t *testing.T, in string, speed int, man, band byte, path string, bomb bool) {
		o, _ := ParseSwarmOrder(in)
		turn := SwarmTurn{Tack: SwarmTack{Speed: speed, Man: SwarmManoeuvre(man), Band: SwarmBand(band)}, Bomb: bomb,
			Fire: parser.Fire{Mode: parser.FireTarget, Target: in}}
		for _, w := range strings.Split(path, ",") {
			switch n, _ := strconv.Atoi(w); {
			case n > 0:
				turn.Path = append(turn.Path, SwarmStep{N: n})
			case n < 0:
				turn.Path = append(turn.Path, SwarmStep{Turn: Left})
			default:
				turn.Path = append(turn.Path, SwarmStep{Turn: Right})
			}
		}
		made := SwarmOrder{Turns: []SwarmTurn{turn, turn}}
		for _, x := range []SwarmOrder{o, made} {
			if got, want := x.String(), oracleOrderString(x); got != want {
				t.Errorf("%q: String = %q, the oracle %q", in, got, want)
			}
			for _, tu := range x.Turns {
				if got, want := tu.Tack.String(), oracleTackString(tu.Tack); got != want {
					t.Errorf("tack %+v: String = %q, the oracle %q", tu.Tack, got, want)
				}
			}
		}
	})
}
