package parser

import (
	"strconv"
	"strings"
	"testing"
)

// oracleFireString is Fire.String as it was written before it appended into a buffer: the oracle the
// present printer is compared with.
func oracleFireString(f Fire) string {
	if f.Mode == FireHold {
		return "HOLD"
	}
	var b strings.Builder
	b.WriteString("FIRE ")
	if f.Mode == FireTarget {
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

// FuzzFireStringMatchesOracle prints fire orders read from any text, and fire orders made of any values,
// and compares them with the oracle.
func FuzzFireStringMatchesOracle(f *testing.F) {
	f.Add("FIRE RED-2 GUNS nose,tail MAX 4", 1, "RED2", "nose,,tail", 4)
	f.Add("HOLD", 2, "", "", 0)
	f.Add("fire any max 9", 0, "X", "a", -3)
	f.Add("FIRE", 7, "É", ",", 1<<40)
	f.Fuzz(func(t *testing.T, text string, mode int, target, guns string, maxRange int) {
		read, _ := ParseFire(text, 1)
		made := Fire{Mode: FireMode(mode), Target: target, MaxRange: maxRange}
		if guns != "" {
			made.Guns = strings.Split(guns, ",")
		}
		for _, x := range []Fire{read, made} {
			if got, want := x.String(), oracleFireString(x); got != want {
				t.Errorf("%+v: String = %q, the oracle %q", x, got, want)
			}
			if got, want := string(x.Append([]byte("x "))), "x "+oracleFireString(x); got != want {
				t.Errorf("%+v: Append = %q, the oracle %q", x, got, want)
			}
		}
	})
}
