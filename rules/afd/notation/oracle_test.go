package notation

// The printers and the AT reader as they were written before they appended into one buffer, kept as the
// oracles the fuzz targets compare the present ones with: a canonical order must read the same, byte
// for byte, whatever way it is made.

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
)

func oracleFireString(f parser.Fire) string {
	if f.Mode == parser.FireHold {
		return "HOLD"
	}
	var b strings.Builder
	b.WriteString("FIRE ")
	if f.Mode == parser.FireTarget {
		b.WriteString(f.Target)
	} else {
		b.WriteString("ANY")
	}
	if len(f.Guns) > 0 {
		b.WriteString(" GUNS ")
		b.WriteString(strings.Join(f.Guns, ","))
	}
	if f.MaxRange > 0 {
		b.WriteString(" MAX ")
		b.WriteString(strconv.Itoa(f.MaxRange))
	}
	return b.String()
}

func oracleOrderString(o Order) string {
	parts := []string{}
	for _, s := range []string{o.Plot.String(), o.At.String(), oracleFireString(o.Fire)} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

func oracleManoeuvreString(m Manoeuvre) string {
	var parts []string
	for _, b := range m.Boxes {
		if b.Cont {
			continue
		}
		var tok string
		switch {
		case b.Forwards:
			tok = "1"
		case b.Move.Kind == Straight:
			tok = "`"
		default:
			tok = b.Move.Token()
		}
		if b.AltSet {
			switch {
			case b.AltAbs:
				tok += " " + strconv.Itoa(b.Alt)
			case b.Alt >= 0:
				tok += " +" + strconv.Itoa(b.Alt/100)
			default:
				tok += " " + strconv.Itoa(b.Alt/100)
			}
		}
		if b.Power > 0 {
			tok += " " + repeatFactor("P", b.Power)
		}
		if b.Brake > 0 {
			tok += " " + repeatFactor("K", b.Brake)
		}
		if b.Bomb {
			tok += " BOMB"
		}
		if b.Rocket {
			tok += " ROCKET"
		}
		if b.Strafe {
			tok += " STRAFE"
		}
		parts = append(parts, tok)
	}
	return strings.Join(parts, " ")
}

func oracleImpulseOrderString(o ImpulseOrder) string {
	var parts []string
	for _, m := range o.Manoeuvres {
		parts = append(parts, oracleManoeuvreString(m))
	}
	s := strings.Join(parts, "; ")
	if s == "" {
		return oracleFireString(o.Fire)
	}
	return s + " " + oracleFireString(o.Fire)
}

// oracleCutTarget is cutTarget as it read every plot before it looked for the word AT by its bytes:
// rune by rune, whatever the plot.
func oracleCutTarget(text string, base int) (string, GroundTarget, []parser.Diagnostic) {
	if len(strings.Fields(text)) == 0 {
		return text, GroundTarget{}, nil
	}
	return readTarget(text, base)
}

// checkAgainstOracles fails when an order read from s prints, or its AT clause reads, otherwise than the
// oracles have it.
func checkAgainstOracles(t *testing.T, s string) {
	t.Helper()
	o, _ := ParseOrder(s)
	if got, want := o.String(), oracleOrderString(o); got != want {
		t.Errorf("%q: Order.String = %q, the oracle %q", s, got, want)
	}
	if got, want := o.Fire.String(), oracleFireString(o.Fire); got != want {
		t.Errorf("%q: Fire.String = %q, the oracle %q", s, got, want)
	}
	text, g, ds := cutTarget(s, 3)
	wtext, wg, wds := oracleCutTarget(s, 3)
	if text != wtext || g != wg || !slices.Equal(ds, wds) {
		t.Errorf("%q: cutTarget = %q %+v %v, the oracle %q %+v %v", s, text, g, ds, wtext, wg, wds)
	}
	io, _ := ParseImpulseOrder(s)
	if got, want := io.String(), oracleImpulseOrderString(io); got != want {
		t.Errorf("%q: ImpulseOrder.String = %q, the oracle %q", s, got, want)
	}
}

var oracleSeeds = []string{
	"2R 1 TR STEEP P FIRE ANY", "5 HOLD", "5 FIRE red-1 GUNS a,b MAX 3", "FIRE", "HOLD", "",
	"1 BOMB AT bridge", "2 STRAFE at DD1 flak FIRE ANY", "3 ROCKET AT", "AT AT AT", "2 at\tX heavy extra",
	"\xff AT \xfe", "1 TR at", "cat at bat", "` ` TR +2 P FIRE ANY", "1; ` TL -1 K2 BOMB; HR HOLD",
	"` 12950 TR; 1 ROCKET FIRE KURT GUNS nose MAX 2", "1 STRAFE;;", "PP KK VERT -20 FIRE ANY",
}

func TestPrintersMatchOracles(t *testing.T) {
	for _, s := range oracleSeeds {
		checkAgainstOracles(t, s)
	}
}

func FuzzPrintersMatchOracles(f *testing.F) {
	for _, s := range oracleSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAgainstOracles(t, s) })
}
