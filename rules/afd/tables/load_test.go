package tables

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// docs/rulings.md, "Tables": a moderator's file replaces a section; the rest stay the house tables.
func TestLoadReplacesOneSection(t *testing.T) {
	p := writeFile(t, "drm.yaml", `# a moderator's own deflection DRMs
deflection:
  "5-7": {1E: 2, ME: 2}
  "4/8": {1E: 0, ME: 1}
  "9-3": {1E: -2, ME: -1}
`)
	tb, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if tb.DRM(6, false) != 2 || tb.DRM(4, true) != 1 || tb.DRM(12, false) != -2 {
		t.Errorf("the file's DRMs were not used: %+d %+d %+d", tb.DRM(6, false), tb.DRM(4, true), tb.DRM(12, false))
	}
	h := house(t)
	for _, k := range MixKeys() {
		a, _ := tb.Chart(k)
		b, _ := h.Chart(k)
		if a != b {
			t.Errorf("chart %s changed; only the deflection section was replaced", k)
		}
	}
	if l1, _ := tb.Location(true, 4, 5); l1.String() != "WFEE*" {
		t.Error("the hit-location tables must stay the house ones")
	}
	if n, _ := tb.SpotNeed(20, 0); n != 7 {
		t.Error("the spotting table must stay the house one")
	}
	if tb.Source(SectionDeflection) != p || tb.Source(SectionGunnery) != "house:data/gunnery.yaml" {
		t.Errorf("sources: deflection %q, gunnery %q", tb.Source(SectionDeflection), tb.Source(SectionGunnery))
	}
	if tb.Label != HouseLabel+", deflection from drm.yaml" {
		t.Errorf("label %q", tb.Label)
	}
	if h.DRM(6, false) != 1 {
		t.Error("loading a file changed the house tables")
	}
}

// gunneryText is a whole gunnery section: every chart gives 1 hit from row 7 at ranges 1-4, else 0, on
// rows 2 to 12, with fill(key, row) overriding cells.
func gunneryText(skip string, fill func(key string, row int) string) string {
	var b strings.Builder
	b.WriteString("gunnery:\n  columns: [\"1-2\", \"3\", \"4\", \"5-6\", \"7-8\"]\n  charts:\n")
	for _, k := range MixKeys() {
		if k == skip {
			continue
		}
		fmt.Fprintf(&b, "    %s:\n", k)
		for r := 2; r <= 12; r++ {
			cells := "[0, 0, 0, 0, 0]"
			if r >= 7 {
				cells = "[1, 1, 1, 0, 0]"
			}
			if fill != nil {
				if s := fill(k, r); s != "" {
					cells = s
				}
			}
			fmt.Fprintf(&b, "      %d: %s\n", r, cells)
		}
	}
	return b.String()
}

func TestParseGunneryWithLabel(t *testing.T) {
	text := "label: Moderator's charts\n" + gunneryText("", func(k string, r int) string {
		if k == "4x30C" && r == 12 {
			return "[16, 14, 12, 10, 8]"
		}
		return ""
	})
	tb, err := Parse(map[string][]byte{"charts.yaml": []byte(text)})
	if err != nil {
		t.Fatal(err)
	}
	if tb.Label != "Moderator's charts" {
		t.Errorf("label %q", tb.Label)
	}
	c, _ := tb.Chart("8x30M")
	if c.First() != 2 || c.Last() != 12 || c.Hits(Col3, -4) != 0 || c.Hits(Col3, 30) != 1 {
		t.Errorf("the file's rows 2..12 must be read and clamped: %d..%d", c.First(), c.Last())
	}
	if tb.MaxHits("4x30C") != 16 || tb.MaxHits("1x30M") != 1 {
		t.Errorf("MaxHits: %d, %d", tb.MaxHits("4x30C"), tb.MaxHits("1x30M"))
	}
	if d := tb.DRM(6, true); d != 1 {
		t.Error("the DRMs must stay the house ones")
	}
}

// wantProblems checks that err is an *Error holding a problem for each (line, text) pair.
func wantProblems(t *testing.T, err error, want map[int][]string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("want an *Error, got %v", err)
	}
	for line, texts := range want {
		for _, text := range texts {
			found := false
			for _, p := range e.Problems {
				if (line == 0 || p.Line == line) && strings.Contains(p.String(), text) {
					found = true
				}
			}
			if !found {
				t.Errorf("no problem on line %d mentions %q; got:\n%v", line, text, err)
			}
		}
	}
}

// Validation lists every problem of every section at once, with lines, and loads nothing.
func TestValidationListsEveryProblem(t *testing.T) {
	text := gunneryText("4x20C", func(k string, r int) string {
		switch {
		case k == "1x30M" && r == 9:
			return "[1, 1, 1, 0]" // four cells
		case k == "2x30M" && r == 9:
			return "[5, 1, 1, 0, 0]" // 5 is not a count the charts use
		case k == "8x30M" && r == 12:
			return "[0, 1, 1, 0, 0]" // fewer hits than row 11 at 1-2, more at 3 than at 1-2
		}
		return ""
	}) + `deflection:
  "5-7": {1E: 0, ME: 1}
  "4/8": {1E: -1, ME: -1}
  "9/3": {1E: -3, ME: -2}
hit_location:
  "1E":
    1: [F, W, F, W, E, F, W, G, C, L]
    2: [FW, WF, FF, WW, FE*, WG, FW, WE*, FC*, W*]
    3: [FWF, WFW, FWE*, WWF, FFW, WGF, FWL*, FFW, WFC*]
    4: [FWFW, WFWF, FFWE*, WWFG, FWFC*, WFWL*, FWWF, WFGF, FFWW, WWFX]
  ME:
    1: [W, F, E, W, E, F, W, G, C, L]
    2: [WE*, FW, WW, EF, WE, FG, WW, EW, FC*, WL*]
    3: [WEF, FWW, WEE*, FWG, WWE*, FFW, WEW, GWF, WFC*, EWL*]
spotting:
  heights:
    - {name: below, to_ft: -1001}
    - {name: level, from_ft: -900, to_ft: 1000}
    - {name: above, from_ft: 1001}
  ranges:
    - {from: 0, to: 5, need: [0, 0, 0]}
    - {from: 7, to: 20, need: [6, 5]}
identification:
  ranges:
    - {from: 0, to: 5, need: 4}
    - {from: 6, to: 20, need: 3}
bail_out:
  need: 7
  penalty_below_ft: 1000
  penalty: -1
  none_below_ft: 1500
`
	lines := strings.Split(text, "\n")
	lineOf := func(sub string) int {
		for i, l := range lines {
			if strings.Contains(l, sub) {
				return i + 1
			}
		}
		t.Fatalf("no line holds %q", sub)
		return 0
	}
	tb, err := Parse(map[string][]byte{"bad.yaml": []byte(text)})
	if tb != nil {
		t.Fatal("a file with problems must load nothing")
	}
	wantProblems(t, err, map[int][]string{
		lineOf("  charts:"):                       {"the 4x20C chart is missing"},
		lineOf("      9: [1, 1, 1, 0]"):           {"4 cells; want 5"},
		lineOf("      9: [5, 1, 1, 0, 0]"):        {"5 hits is not a count"},
		lineOf("      12: [0, 1, 1, 0, 0]"):       {"fewer than 1 hit on row 11", "a longer range never gives more hits"},
		lineOf(`"5-7": {1E: 0, ME: 1}`):           {"seed 000 makes the 5-7 row the same for both"},
		lineOf(`"4/8": {1E: -1, ME: -1}`):         {"not better than 1E"},
		lineOf(`"9/3"`):                           {`"9/3" is not a deflection row`},
		lineOf("2: [FW, WF, FF, WW, FE*, WG, FW"): {"D10 10", "only C, L or E may carry a *"},
		lineOf("3: [FWF, WFW, FWE*, WWF, FFW"):    {"9 cells; want 10"},
		lineOf("WWFX]"):                           {`"X" is not a system letter`},
		lineOf("  ME:"):                           {"the 4-hit table is missing"},
		lineOf("{name: level, from_ft: -900"):     {"does not follow the previous band's to_ft -1001"},
		lineOf("{from: 7, to: 20, need: [6, 5]}"): {"from 7 does not follow", "2 needs; want one per height band"},
		lineOf("{from: 6, to: 20, need: 3}"):      {"need 3 is easier than 4"},
		lineOf("need: 7"):                         {"not a 1D6 roll"},
		lineOf("none_below_ft: 1500"):             {"above penalty_below_ft"},
	})
	if n := len(err.(*Error).Problems); n < 18 {
		t.Errorf("%d problems; want every one listed:\n%v", n, err)
	}
}

// Decoding is strict: an unknown field is an error with its line, and so is a wrong type; the other
// sections are still checked.
func TestStrictDecoding(t *testing.T) {
	text := `label: test
gunnery:
  colums: ["1-2", "3", "4", "5-6", "7-8"]
bail_out:
  need: two
  penalty_below_ft: 1000
  penalty: -1
  none_below_ft: 500
deflection:
  "5-7": {1E: 1, ME: 2}
  "4/8": {1E: -1, ME: 0}
  "9-3": {1E: -3, ME: -2}
spoting:
  heights: []
`
	_, err := Parse(map[string][]byte{"typo.yaml": []byte(text)})
	wantProblems(t, err, map[int][]string{
		3:  {`unknown field "colums" in the gunnery section (want columns, charts)`},
		5:  {"cannot unmarshal"},
		10: {"the same for both"},
		13: {`unknown field "spoting" in a tables file (want label, gunnery, deflection, hit_location, spotting, identification, bail_out)`},
	})
	if strings.Contains(err.Error(), "chart is missing") {
		t.Errorf("a section that failed to decode must not bring follow-on complaints:\n%v", err)
	}
}

func TestFileFaults(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"empty", "", "the file is empty"},
		{"comment only", "# nothing\n", "the file is empty"},
		{"list", "- gunnery\n", "a mapping of sections"},
		{"no section", "label: only a label\n", ""}, // a label alone renames the house tables
		{"null section", "deflection:\n", "the section is empty"},
		{"two documents", "bail_out: {need: 2, penalty_below_ft: 1000, penalty: -1, none_below_ft: 500}\n---\nlabel: x\n", "one YAML document"},
		{"syntax", "deflection: [\n", "syntax.yaml:1:"},
		{"duplicate key", "bail_out: {need: 2, penalty_below_ft: 1000, penalty: -1, none_below_ft: 500}\nbail_out: {need: 3, penalty_below_ft: 1000, penalty: -1, none_below_ft: 500}\n", "already defined"},
		{"long label", "label: " + strings.Repeat("x", 81) + "\n", "at most 80"},
		{"unknown class", "hit_location:\n  2E: {}\n", `"2E" is not a target class`},
		{"bad chart key", gunneryText("", nil) + "    2x20C+2x30M:\n      7: [1, 1, 1, 0, 0]\n", "write the chart as 2x30M+2x20C"},
		{"unknown chart", gunneryText("", nil) + "    6x30M:\n      7: [1, 1, 1, 0, 0]\n", `"6x30M" is not one of the 20 charts`},
		{"columns", strings.Replace(gunneryText("", nil), `"5-6", "7-8"`, `"5", "6-8"`, 1), "want the columns"},
		{"row gap", strings.Replace(gunneryText("", nil), "      8: [1, 1, 1, 0, 0]\n", "", 1), "row 8 is missing"},
	} {
		tb, err := Parse(map[string][]byte{c.name + ".yaml": []byte(c.text)})
		if c.want == "" {
			if err != nil || tb.Label != "only a label" {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || tb != nil {
			t.Errorf("%s: got %v; want an error mentioning %q", c.name, err, c.want)
		}
	}
}

// Each section may come from one file only.
func TestSectionFromTwoFiles(t *testing.T) {
	bo := []byte("bail_out: {need: 3, penalty_below_ft: 1000, penalty: -1, none_below_ft: 500}\n")
	_, err := Parse(map[string][]byte{"a.yaml": bo, "b.yaml": bo})
	wantProblems(t, err, map[int][]string{1: {"b.yaml:1: bail_out: section also given in a.yaml"}})

	// Two files with different sections combine.
	drm := []byte("deflection:\n  \"5-7\": {1E: 2, ME: 2}\n  \"4/8\": {1E: 0, ME: 1}\n  \"9-3\": {1E: -2, ME: -1}\n")
	tb, err := Parse(map[string][]byte{"a.yaml": bo, "b.yaml": drm})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := tb.BailOutNeed(5000); n != 3 || tb.DRM(6, true) != 2 {
		t.Error("both files' sections must be used")
	}
	if tb.Label != HouseLabel+", bail_out from a.yaml; deflection from b.yaml" {
		t.Errorf("label %q", tb.Label)
	}
}

func TestDefaultIsShared(t *testing.T) {
	a := house(t)
	a.Label = "changed"
	if b := house(t); b.Label != HouseLabel {
		t.Errorf("Default's label was changed through a copy: %q", b.Label)
	}
	for _, s := range Sections() {
		if !strings.HasPrefix(a.Source(s), "house:data/") {
			t.Errorf("section %s comes from %q", s, a.Source(s))
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("Load of a missing file must fail")
	}
	same, err := a.With(nil)
	if err != nil || same.DRM(6, true) != 1 {
		t.Errorf("With(nil): %v", err)
	}
}

// The embedded files must each parse on their own, as a moderator's copy of them would.
func TestHouseFilesParseAlone(t *testing.T) {
	for _, name := range []string{"gunnery.yaml", "deflection.yaml", "hitlocation.yaml", "spotting.yaml", "bailout.yaml"} {
		data, err := dataFS.ReadFile("data/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(map[string][]byte{name: data}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(strings.ToUpper(string(data[:300])), "HOUSE") {
			t.Errorf("%s: the header must say these are house tables or rules", name)
		}
	}
}
