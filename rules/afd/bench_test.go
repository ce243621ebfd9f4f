package afd

import (
	"testing"

	"sortie/parser"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
)

var benchPlots = []struct {
	plot  string
	speed Tenths
	bank  notation.Bank
}{
	{"2R 1 TR STEEP P", 50, notation.BankN},
	{"1 TR 1 TR 2 +2", 60, notation.BankN},
	{"2 SL 1 HR 1", 60, notation.BankN},
	{"1 1 VRR 2 STEEP +10", 50, notation.BankRB},
	{"3 BR 2 TL 1 -4 K", 70, notation.BankN},
	{"8", 80, notation.BankN},
}

// BenchmarkPlotParseValidateExecute measures the whole path a plot takes on arrival: notation parsed,
// rules checked, every point flown. The "raw" figure beside it is the cost of the same work without the
// rules (parsing alone), measured in the same run by BenchmarkPlotParseOnly.
func BenchmarkPlotParseValidateExecute(b *testing.B) {
	card := fighter()
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		p := benchPlots[n%len(benchPlots)]
		n++
		plot, ds := notation.ParsePlot(p.plot)
		if parser.HasErrors(ds) {
			b.Fatal(ds)
		}
		start := Flight{Speed: p.speed, Alt: 10000, Bank: p.bank, Straight: Plenty}
		r := Move(card, start, plot)
		if len(r.Steps) == 0 {
			b.Fatal("no steps")
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "plots/s")
}

func BenchmarkPlotParseOnly(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		p := benchPlots[n%len(benchPlots)]
		n++
		if _, ds := notation.ParsePlot(p.plot); parser.HasErrors(ds) {
			b.Fatal(ds)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "plots/s")
}

func BenchmarkMoveOnly(b *testing.B) {
	card := fighter()
	plots := make([]notation.Plot, len(benchPlots))
	for i, p := range benchPlots {
		plots[i], _ = notation.ParsePlot(p.plot)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		i := n % len(benchPlots)
		n++
		Move(card, Flight{Speed: benchPlots[i].speed, Alt: 10000, Bank: benchPlots[i].bank, Straight: Plenty}, plots[i])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "plots/s")
}

// BenchmarkOrderCheck is an order checked as the mail intake checks it: the order line parsed, the
// plane's card looked up, the plot flown and the guns checked (CheckOrder). "copied card" looks the card
// up with Cards.Get, which copies it, "shared card" with Env.Card, which reads the registry's own: the
// difference is what the copy costs each order.
func BenchmarkOrderCheck(b *testing.B) {
	env := testEnv(b)
	for _, lookup := range []struct {
		name string
		card func(string) (*aircraft.Card, bool)
	}{{"copied card", env.Cards.Get}, {"shared card", env.Card}} {
		b.Run(lookup.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				p := benchPlots[n%len(benchPlots)]
				n++
				o, ds := notation.ParseOrder(p.plot + " FIRE ANY")
				if parser.HasErrors(ds) {
					b.Fatal(ds)
				}
				card, ok := lookup.card("spitfire-i")
				if !ok {
					b.Fatal("no card")
				}
				r := CheckOrder(card, Flight{Speed: p.speed, Alt: 10000, Bank: p.bank, Straight: Plenty}, o)
				if len(r.Steps) == 0 {
					b.Fatal("no steps")
				}
			}
		})
	}
}
