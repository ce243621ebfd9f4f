package tables

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"sortie/internal/golden"
)

const docsPath = "../../../docs/tables.md"

// chartMarkdown prints a chart turned on its side: one line per range column, one column per row, the
// rows that all miss folded into the first.
func chartMarkdown(t *Tables, key string) string {
	c, _ := t.Chart(key)
	same := func(a, b int) bool {
		for col := Col12; col < numColumns; col++ {
			if c.Hits(col, a) != c.Hits(col, b) {
				return false
			}
		}
		return true
	}
	lo := c.First()
	for lo < c.Last() && same(lo+1, c.First()) {
		lo++
	}
	var b strings.Builder
	b.WriteString("| range \\ row (2D6 + DRM) | ≤" + fmt.Sprint(lo))
	for r := lo + 1; r < c.Last(); r++ {
		fmt.Fprintf(&b, " | %d", r)
	}
	fmt.Fprintf(&b, " | ≥%d |\n|---", c.Last())
	for r := lo; r <= c.Last(); r++ {
		b.WriteString("|---")
	}
	b.WriteString("|\n")
	for col := Col12; col < numColumns; col++ {
		fmt.Fprintf(&b, "| %s", col)
		for r := lo; r <= c.Last(); r++ {
			fmt.Fprintf(&b, " | %d", c.Hits(col, r))
		}
		b.WriteString(" |\n")
	}
	return b.String()
}

func drmMarkdown(t *Tables) string {
	what := map[string]string{
		RowNoDeflection: "5, 6, 7 o'clock: no deflection",
		RowMedium:       "4, 8 o'clock: medium deflection",
		RowHigh:         "9, 10, 11, 12, 1, 2, 3 o'clock: high deflection or head-on",
	}
	var b strings.Builder
	b.WriteString("| shooter's clock position (seen from the target) | vs 1E | vs ME |\n|---|---|---|\n")
	for _, row := range deflectionRows {
		e1, _ := t.DRMRow(row, false)
		me, _ := t.DRMRow(row, true)
		fmt.Fprintf(&b, "| %s (%s) | %s | %s |\n", row, what[row], signed(e1), signed(me))
	}
	return b.String()
}

// signed prints a modifier as the tables do: +1, 0, −2 (with a true minus sign).
func signed(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("−%d", -n)
	}
	return "0"
}

func hitLocationMarkdown(t *Tables) string {
	var b strings.Builder
	b.WriteString("| D10 | 1 vs 1E | 2 vs 1E | 3 vs 1E | 4 vs 1E | 1 vs ME | 2 vs ME | 3 vs ME | 4 vs ME |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for d := 1; d <= 10; d++ {
		label := fmt.Sprint(d)
		if d == 10 {
			label = "0"
		}
		b.WriteString("| " + label)
		for _, me := range []bool{false, true} {
			for h := 1; h <= 4; h++ {
				loc, _ := t.Location(me, h, d)
				b.WriteString(" | " + strings.ReplaceAll(loc.String(), "*", `\*`))
			}
		}
		b.WriteString(" |\n")
	}
	return b.String()
}

func needText(n int) string {
	if n == 0 {
		return "auto"
	}
	return fmt.Sprint(n)
}

func spottingMarkdown(t *Tables) string {
	s := &t.spotting
	var b strings.Builder
	b.WriteString("| range (hexes) \\ target is")
	for _, n := range s.heightNames {
		b.WriteString(" | " + n)
	}
	b.WriteString(" |\n|---")
	for range s.heightNames {
		b.WriteString("|---")
	}
	b.WriteString("|\n")
	for i, r := range s.ranges {
		fmt.Fprintf(&b, "| %d-%d", r.lo, r.hi)
		for _, n := range s.need[i] {
			b.WriteString(" | " + needText(n))
		}
		b.WriteString(" |\n")
	}
	last := s.ranges[len(s.ranges)-1].hi
	fmt.Fprintf(&b, "| over %d | cannot be seen |", last)
	for range s.heightNames[1:] {
		b.WriteString(" |")
	}
	b.WriteString("\n")
	return b.String()
}

func identificationMarkdown(t *Tables) string {
	id := &t.identification
	var b strings.Builder
	b.WriteString("| range (hexes) | need |\n|---|---|\n")
	for i, r := range id.ranges {
		fmt.Fprintf(&b, "| %d-%d | %s |\n", r.lo, r.hi, needText(id.need[i]))
	}
	fmt.Fprintf(&b, "| over %d | cannot be identified |\n", id.ranges[len(id.ranges)-1].hi)
	return b.String()
}

// The tables shown in docs/tables.md are generated from the house tables; -update rewrites them.
func TestDocsTables(t *testing.T) {
	tb := house(t)
	golden.Blocks(t, docsPath, []golden.Block{
		{Name: "chart-8x30M", Text: chartMarkdown(tb, "8x30M")},
		{Name: "drm-table", Text: drmMarkdown(tb)},
		{Name: "hit-location", Text: hitLocationMarkdown(tb)},
		{Name: "spotting-table", Text: spottingMarkdown(tb)},
		{Name: "identification-table", Text: identificationMarkdown(tb)},
	}, *update, "TestDocsTables", "go test ./rules/afd/tables -run TestDocsTables -update")
}

// The formula's constants as docs/tables.md states them.
func TestDocsFormulaConstants(t *testing.T) {
	doc, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, want := range []string{
		fmt.Sprintf("30M = %d, 50M = %d, 20C = %d, 30C = %d, 37C = %d", KindFirepower("30M"), KindFirepower("50M"), KindFirepower("20C"), KindFirepower("30C"), KindFirepower("37C")),
		fmt.Sprintf("max(0, row − %d) / 4", HouseRowZero),
		fmt.Sprintf("v = %d + (e − %d) / 3", HouseKnee, HouseKnee),
		fmt.Sprintf("caps per column: %d, %d, %d, %d, %d", HouseColumnCap[0], HouseColumnCap[1], HouseColumnCap[2], HouseColumnCap[3], HouseColumnCap[4]),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("%s does not state %q", docsPath, want)
		}
	}
	for i, k := range mixKinds {
		f := houseRangeFactor[i]
		row := fmt.Sprintf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f |", k, float64(f[0])/100, float64(f[1])/100, float64(f[2])/100, float64(f[3])/100, float64(f[4])/100)
		if !strings.Contains(text, row) {
			t.Errorf("%s lacks the range-factor row %q", docsPath, row)
		}
	}
}
