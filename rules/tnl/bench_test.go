package tnl

import (
	"fmt"
	"strings"
	"testing"

	"sortie/rules/dice"
)

// sixty is a 60-aircraft game: ten units of three a side, head on at Medium, close enough to fight.
func sixty() string {
	var b strings.Builder
	b.WriteString("ruleset: tnl\nname: sixty\nturns: 8\nsides: [A, B]\nplayers: [{id: a, side: A}, {id: b, side: B}]\naircraft:\n")
	for u := 0; u < 10; u++ {
		for k := 0; k < 3; k++ {
			fmt.Fprintf(&b, "  - {callsign: A%d%d, type: spitfire-i, unit: UA%d, side: A, player: a, hex: [%d, %d], facing: 0, level: M, speed: 6}\n", u, k, u, 3*u+k, 6)
			fmt.Fprintf(&b, "  - {callsign: B%d%d, type: bf-109e, unit: UB%d, side: B, player: b, hex: [%d, %d], facing: 180, level: M, speed: 6}\n", u, k, u, 3*u+k, -6)
		}
	}
	return b.String()
}

// BenchmarkTurn60 resolves one turn of 60 aircraft on default orders; BenchmarkClone60 is the raw cost
// of the state copy and serialisation every turn makes, measured in the same run.
func BenchmarkTurn60(b *testing.B) {
	g, err := Ruleset{}.NewGame([]byte(sixty()), nil, "sixty.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, err := g.Resolve(nil, dice.NewKeyed(dice.SeedFromUint64(uint64(i)))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClone60(b *testing.B) {
	g, err := Ruleset{}.NewGame([]byte(sixty()), nil, "sixty.yaml")
	if err != nil {
		b.Fatal(err)
	}
	st := g.(*game).st
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.Clone().JSON(); err != nil {
			b.Fatal(err)
		}
	}
}
