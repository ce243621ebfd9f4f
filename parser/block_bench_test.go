package parser

import (
	"strings"
	"testing"
)

// benchMails are order mails as the intake reads them: a greeting, the block, a signature.
var benchMails = []string{
	"Hello,\n\nGAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6 FIRE KURT\nRED2: 1 TL 4\nEND\n\nAlice\n",
	"Hello,\n\nGAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 3 TR 2 FIRE KURT\nRED2: 2 TL 3 HOLD\nEND\n\nAlice\n",
}

// BenchmarkParseBlock reads the order block of a typical mail. The "raw" figure beside it, in the same
// run, is the least any reader does with the same text: every line cut out, trimmed and its first byte
// looked at.
func BenchmarkParseBlock(b *testing.B) {
	b.Run("ParseBlock", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			blk, ds := ParseBlock(benchMails[n%len(benchMails)])
			n++
			if len(ds) > 0 || len(blk.Orders) != 2 {
				b.Fatal(dumpLine(ds))
			}
		}
	})
	b.Run("raw lines", func(b *testing.B) {
		b.ReportAllocs()
		n, colons := 0, 0
		for b.Loop() {
			rest := benchMails[n%len(benchMails)]
			n++
			for rest != "" {
				var line string
				line, rest, _ = strings.Cut(rest, "\n")
				if t := strings.TrimSpace(line); t != "" && strings.IndexByte(t, ':') > 0 {
					colons++
				}
			}
		}
		if colons == 0 {
			b.Fatal("no order lines")
		}
	})
}
