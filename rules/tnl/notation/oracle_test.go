package notation

import (
	"strings"
	"testing"
)

// The printers as they were written before they appended into a buffer: the oracles the present ones are
// compared with.

func oracleFireString(f Fire) string {
	switch f.Mode {
	case FireHold:
		return "HOLD"
	case FireLate:
		return "FIRE 2"
	case FireTarget:
		if f.Late {
			return "FIRE " + f.Target + " 2"
		}
		return "FIRE " + f.Target
	}
	return "FIRE ANY"
}

func oracleSegmentString(s Segment) string {
	var parts []string
	switch s.Alt {
	case Dive:
		parts = append(parts, "DIVE")
	case Climb:
		parts = append(parts, "CLIMB")
	}
	for i, ph := range s.Phases {
		if i == 1 {
			parts = append(parts, "/")
		}
		for _, st := range ph {
			parts = append(parts, st.Token())
		}
	}
	if s.Attack.Kind != "" {
		parts = append(parts, s.Attack.Kind, s.Attack.Target)
	}
	parts = append(parts, oracleFireString(s.Fire))
	return strings.Join(parts, " ")
}

func oracleOrderString(o Order) string {
	var parts []string
	for i, s := range o.Segments {
		if i == 0 {
			parts = append(parts, oracleSegmentString(s))
		} else {
			parts = append(parts, s.Callsign+" "+oracleSegmentString(s))
		}
	}
	return strings.Join(parts, "; ")
}

// FuzzPrintersMatchOracles prints orders read from any text, and an order made of any values (steps of
// unknown kinds, empty targets), and compares them with the oracles.
func FuzzPrintersMatchOracles(f *testing.F) {
	f.Add("2 TL 6 HL / 7", 1, 0, 3, "BOMB", "", 2, true)
	f.Add("DIVE 8 / 9 FIRE 2; B 1 / 1 HOLD", 2, 9, -1, "", "KAGA", 1, false)
	f.Add("5 / 3 TORPEDO K", 0, -4, 100, "TORPEDO", "É", 7, true)
	f.Fuzz(func(t *testing.T, in string, alt, kind, n int, attack, target string, fire int, late bool) {
		o, _ := Parse(in)
		seg := Segment{Callsign: target, Alt: Alt(alt), Attack: Attack{Kind: attack, Target: target},
			Fire: Fire{Mode: FireMode(fire), Target: target, Late: late}}
		seg.Phases[0] = []Step{{Kind: StepKind(kind), N: n}, {Kind: Straight, N: n}}
		seg.Phases[1] = []Step{{Kind: StepKind(kind + 1)}}
		made := Order{Segments: []Segment{seg, seg}}
		for _, x := range []Order{o, made} {
			if got, want := x.String(), oracleOrderString(x); got != want {
				t.Errorf("%q: String = %q, the oracle %q", in, got, want)
			}
			for _, s := range x.Segments {
				if got, want := s.Fire.String(), oracleFireString(s.Fire); got != want {
					t.Errorf("fire %+v: String = %q, the oracle %q", s.Fire, got, want)
				}
			}
		}
	})
}
