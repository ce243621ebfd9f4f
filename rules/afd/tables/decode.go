package tables

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"sortie/rules/yamlpath"
)

// fileDoc is a tables file as written (docs/tables.md, "Replacing the tables"). Every section is
// optional; which ones a file gives is read from its top-level keys.
type fileDoc struct {
	Label          string                      `yaml:"label"`
	Gunnery        gunneryDoc                  `yaml:"gunnery"`
	Deflection     map[string]drmDoc           `yaml:"deflection"`
	HitLocation    map[string]map[int][]string `yaml:"hit_location"`
	Spotting       spottingDoc                 `yaml:"spotting"`
	Identification identificationDoc           `yaml:"identification"`
	BailOut        bailOutDoc                  `yaml:"bail_out"`
}

type gunneryDoc struct {
	Columns []string                 `yaml:"columns"`
	Charts  map[string]map[int][]int `yaml:"charts"`
}

type drmDoc struct {
	OneE *int `yaml:"1E"`
	ME   *int `yaml:"ME"`
}

type spottingDoc struct {
	Heights []heightDoc    `yaml:"heights"`
	Ranges  []spotRangeDoc `yaml:"ranges"`
}

type heightDoc struct {
	Name   string `yaml:"name"`
	FromFt *int   `yaml:"from_ft"`
	ToFt   *int   `yaml:"to_ft"`
}

type spotRangeDoc struct {
	From *int  `yaml:"from"`
	To   *int  `yaml:"to"`
	Need []int `yaml:"need"`
}

type identificationDoc struct {
	Ranges []identRangeDoc `yaml:"ranges"`
}

type identRangeDoc struct {
	From *int `yaml:"from"`
	To   *int `yaml:"to"`
	Need *int `yaml:"need"`
}

type bailOutDoc struct {
	Need           *int `yaml:"need"`
	PenaltyBelowFt *int `yaml:"penalty_below_ft"`
	Penalty        *int `yaml:"penalty"`
	NoneBelowFt    *int `yaml:"none_below_ft"`
}

// decodedFile is one file after decoding: the document, the sections it gives (with their lines),
// the sections that failed to decode (their checks are skipped, so one typo does not bring a flood of
// follow-on complaints) and the line of every YAML path.
type decodedFile struct {
	name    string
	doc     fileDoc
	present map[string]int // section -> line of its key
	broken  map[string]bool
	lines   yamlpath.Lines
}

var unknownField = regexp.MustCompile(`^field (\S+) not found in type tables\.(\w+)$`)

// docTypes names the file's parts for messages about unknown fields, by Go type.
var docTypes = map[string]struct {
	what string
	t    reflect.Type
}{
	"fileDoc":           {"a tables file", reflect.TypeFor[fileDoc]()},
	"gunneryDoc":        {"the gunnery section", reflect.TypeFor[gunneryDoc]()},
	"drmDoc":            {"a deflection row", reflect.TypeFor[drmDoc]()},
	"spottingDoc":       {"the spotting section", reflect.TypeFor[spottingDoc]()},
	"heightDoc":         {"a height band", reflect.TypeFor[heightDoc]()},
	"spotRangeDoc":      {"a spotting range band", reflect.TypeFor[spotRangeDoc]()},
	"identificationDoc": {"the identification section", reflect.TypeFor[identificationDoc]()},
	"identRangeDoc":     {"an identification range band", reflect.TypeFor[identRangeDoc]()},
	"bailOutDoc":        {"the bail_out section", reflect.TypeFor[bailOutDoc]()},
}

// friendlyField rewrites yaml.v3's message about an unknown field in the file's own words, with the
// fields that are allowed there.
func friendlyField(msg string) string {
	sm := unknownField.FindStringSubmatch(msg)
	if sm == nil {
		return msg
	}
	d, ok := docTypes[sm[2]]
	if !ok {
		return msg
	}
	var fields []string
	for i := 0; i < d.t.NumField(); i++ {
		fields = append(fields, strings.Split(d.t.Field(i).Tag.Get("yaml"), ",")[0])
	}
	return fmt.Sprintf("unknown field %q in %s (want %s)", sm[1], d.what, strings.Join(fields, ", "))
}

// decodeFile decodes one file strictly. It returns nil when the file cannot be read as a tables file
// at all.
func decodeFile(name string, data []byte) (*decodedFile, []Problem) {
	at := func(line int, msg string) Problem { return Problem{File: name, Line: line, Msg: msg} }
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlProblems(name, err)
	}
	if len(root.Content) == 0 {
		return nil, []Problem{at(0, "the file is empty")}
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, []Problem{at(top.Line, "a tables file is a mapping of sections (gunnery:, deflection:, ...)")}
	}
	f := &decodedFile{name: name, present: map[string]int{}, broken: map[string]bool{}, lines: yamlpath.Index(&root)}
	type span struct {
		section    string
		start, end int
	}
	var spans []span
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if slices.Contains(sections, k.Value) {
			f.present[k.Value] = k.Line
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				f.broken[k.Value] = true
			}
		}
		end := int(^uint(0) >> 1)
		if i+2 < len(top.Content) {
			end = top.Content[i+2].Line - 1
		}
		spans = append(spans, span{k.Value, k.Line, end})
	}

	var problems []Problem
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f.doc); err != nil {
		ps := yamlProblems(name, err)
		for _, p := range ps {
			if p.Line == 0 {
				for _, s := range sections {
					f.broken[s] = true
				}
				continue
			}
			for _, sp := range spans {
				if p.Line >= sp.start && p.Line <= sp.end {
					f.broken[sp.section] = true
				}
			}
		}
		problems = append(problems, ps...)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		problems = append(problems, at(extra.Line, "a tables file holds one YAML document: found a second"))
	} else if !errors.Is(err, io.EOF) {
		problems = append(problems, yamlProblems(name, err)...)
	}
	for s := range f.present {
		if f.broken[s] && f.lines[s] != 0 && isNull(top, s) {
			problems = append(problems, at(f.present[s], s+": the section is empty"))
		}
	}
	if len(f.present) == 0 && f.doc.Label == "" && len(problems) == 0 {
		problems = append(problems, at(top.Line, "the file gives no section (want one or more of "+strings.Join(sections, ", ")+")"))
	}
	if l := f.doc.Label; l != "" && (len(l) > 80 || strings.ContainsAny(l, "\n\r")) {
		problems = append(problems, Problem{File: name, Line: f.lines.At("label"), Path: "label", Msg: "a label is one line of at most 80 characters"})
	}
	return f, problems
}

func isNull(top *yaml.Node, key string) bool {
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == key {
			v := top.Content[i+1]
			return v.Kind == yaml.ScalarNode && v.Tag == "!!null"
		}
	}
	return false
}

// yamlProblems turns a yaml.v3 error into problems, each on its line (yamlpath.Messages), with the
// file's own text kept out.
func yamlProblems(name string, err error) []Problem {
	var out []Problem
	for _, m := range yamlpath.Messages(err) {
		if m.Line > 0 {
			m.Text = friendlyField(m.Text)
		}
		out = append(out, Problem{File: name, Line: m.Line, Msg: redactText(m.Text)})
	}
	return out
}

var (
	quotedValue = regexp.MustCompile("`[^`]*`")
	quotedName  = regexp.MustCompile(`"[^"]*"`)
	plainName   = regexp.MustCompile(`^"[A-Za-z0-9_]{1,32}"$`)
)

// redactText keeps the file's own text out of a decoding message: a file named by mistake (or on
// purpose) may hold anything, and the message goes back to whoever asked. Values are never quoted;
// a field name only when it looks like one (so a misspelt section is still named).
func redactText(msg string) string {
	msg = quotedValue.ReplaceAllString(msg, "a value")
	return quotedName.ReplaceAllStringFunc(msg, func(q string) string {
		if plainName.MatchString(q) {
			return q
		}
		return "(not shown)"
	})
}

// checker collects the problems of one file's sections, by YAML path.
type checker struct {
	f    *decodedFile
	list []Problem
}

func (c *checker) add(path, format string, args ...any) {
	c.list = append(c.list, Problem{File: c.f.name, Line: c.f.lines.At(path), Path: path, Msg: fmt.Sprintf(format, args...)})
}

// build checks every section the file gives and, if they are all sound, puts them into t. It returns
// the problems; t is changed only in sections without any.
func (f *decodedFile) build(t *Tables) []Problem {
	ck := &checker{f: f}
	for _, s := range sections {
		if _, ok := f.present[s]; !ok || f.broken[s] {
			continue
		}
		before := len(ck.list)
		switch s {
		case SectionGunnery:
			if g := f.doc.Gunnery.build(ck); len(ck.list) == before {
				t.gunnery = g
			}
		case SectionDeflection:
			if d, ok := buildDeflection(f.doc.Deflection, ck); ok && len(ck.list) == before {
				t.deflection = d
			}
		case SectionHitLocation:
			if h, ok := buildHitLocation(f.doc.HitLocation, ck); ok && len(ck.list) == before {
				t.hitLocation = h
			}
		case SectionSpotting:
			if sp := f.doc.Spotting.build(ck); len(ck.list) == before {
				t.spotting = sp
			}
		case SectionIdentification:
			if id := f.doc.Identification.build(ck); len(ck.list) == before {
				t.identification = id
			}
		case SectionBailOut:
			if b := f.doc.BailOut.build(ck); len(ck.list) == before {
				t.bailOut = b
			}
		}
	}
	sort.SliceStable(ck.list, func(i, j int) bool {
		a, b := ck.list[i].Line, ck.list[j].Line
		return a != 0 && (b == 0 || a < b)
	})
	return ck.list
}

// The gunnery section: the five columns in order, and all 20 charts, each with its rows from the first
// to the last without a gap, five allowed hit counts a row, never fewer hits for a better roll and never
// more for a longer range.
func (d *gunneryDoc) build(ck *checker) map[string]*Chart {
	if !slices.Equal(d.Columns, columnNames[:]) {
		ck.add("gunnery.columns", "want the columns %s, in that order (found %s)", quoteList(columnNames[:]), quoteList(d.Columns))
	}
	for _, k := range mixKeys {
		if _, ok := d.Charts[k]; !ok {
			ck.add("gunnery.charts", "the %s chart is missing: a gunnery section gives all 20 charts", k)
		}
	}
	out := map[string]*Chart{}
	for _, k := range sortedKeys(d.Charts) {
		p := "gunnery.charts." + k
		if !isMixKey(k) {
			if canon, exact := ChartFor(k); exact {
				ck.add(p, "write the chart as %s (terms in print order)", canon)
			} else {
				ck.add(p, "%q is not one of the 20 charts (%s)", k, strings.Join(mixKeys, ", "))
			}
			continue
		}
		if c := buildChart(k, d.Charts[k], ck, p); c != nil {
			out[k] = c
		}
	}
	return out
}

func buildChart(key string, rows map[int][]int, ck *checker, p string) *Chart {
	if len(rows) == 0 {
		ck.add(p, "the chart has no rows")
		return nil
	}
	keys := sortedInts(rows)
	first, last := keys[0], keys[len(keys)-1]
	const lo, hi = -20, 40
	if first < lo || last > hi {
		ck.add(p, "rows run from %d to %d; keep them within %d to %d", first, last, lo, hi)
		return nil
	}
	ok := true
	for r := first; r <= last; r++ {
		if _, has := rows[r]; !has {
			ck.add(p, "row %d is missing: rows run from the first (%d) to the last (%d) without a gap", r, first, last)
			ok = false
		}
	}
	c := &Chart{key: key, first: first}
	for r := first; r <= last; r++ {
		cells := rows[r]
		rp := fmt.Sprintf("%s.%d", p, r)
		if len(cells) != int(numColumns) {
			if _, has := rows[r]; has {
				ck.add(rp, "%d cells; want 5, one per range column (1-2, 3, 4, 5-6, 7-8)", len(cells))
			}
			ok = false
			continue
		}
		var row [numColumns]int
		for i, h := range cells {
			if !isHitValue(h) {
				ck.add(fmt.Sprintf("%s[%d]", rp, i), "%d hits is not a count the charts use (want one of %s)", h, intList(hitValues))
				ok = false
			}
			row[i] = h
		}
		c.rows = append(c.rows, row)
	}
	if !ok {
		return nil
	}
	for i, row := range c.rows {
		r := first + i
		for col := Col12; col+1 < numColumns; col++ {
			if row[col+1] > row[col] {
				ck.add(fmt.Sprintf("%s.%d[%d]", p, r, col+1), "row %d: range %s gives %s, more than %s at range %s; a longer range never gives more hits",
					r, col+1, hitsWord(row[col+1]), hitsWord(row[col]), col)
			}
		}
		if i == 0 {
			continue
		}
		for col := Col12; col < numColumns; col++ {
			if prev := c.rows[i-1][col]; row[col] < prev {
				ck.add(fmt.Sprintf("%s.%d[%d]", p, r, col), "range %s: row %d gives %s, fewer than %s on row %d; a better roll never gives fewer hits",
					col, r, hitsWord(row[col]), hitsWord(prev), r-1)
			}
		}
	}
	return c
}

// The deflection section: the three rows, each with a DRM for 1E and ME targets. Seed 000 ("Main combat
// rule changes") says the 5-7 row is the same for both classes and that ME targets get better DRMs at
// deflection, so a file must keep both; and less deflection is never a worse shot.
func buildDeflection(d map[string]drmDoc, ck *checker) ([3][2]int, bool) {
	var out [3][2]int
	var have [3][2]bool
	ok := true
	for _, k := range sortedKeys(d) {
		if deflectionIndex(k) < 0 {
			ck.add("deflection."+k, "%q is not a deflection row (want %q, %q and %q)", k, RowNoDeflection, RowMedium, RowHigh)
			ok = false
		}
	}
	for i, row := range deflectionRows {
		v, has := d[row]
		p := "deflection." + row
		if !has {
			ck.add("deflection", "the %q row is missing", row)
			ok = false
			continue
		}
		for ci, val := range []*int{v.OneE, v.ME} {
			if val == nil {
				ck.add(p, "the %s value is missing", classes[ci])
				ok = false
				continue
			}
			if *val < -6 || *val > 6 {
				ck.add(p+"."+classes[ci], "a DRM of %+d is out of bounds (keep it within -6 to +6)", *val)
				ok = false
				continue
			}
			out[i][ci], have[i][ci] = *val, true
		}
	}
	// What seed 000 says of the table's shape, checked wherever both values are there.
	if have[0][0] && have[0][1] && out[0][0] != out[0][1] {
		ck.add("deflection."+RowNoDeflection, "1E %+d and ME %+d differ; seed 000 makes the 5-7 row the same for both", out[0][0], out[0][1])
	}
	for i := 1; i < 3; i++ {
		if have[i][0] && have[i][1] && out[i][1] <= out[i][0] {
			ck.add("deflection."+deflectionRows[i]+".ME", "ME %+d is not better than 1E %+d; seed 000 gives multi-engine targets better DRMs at deflection", out[i][1], out[i][0])
		}
		for ci := range classes {
			if have[i][ci] && have[i-1][ci] && out[i][ci] > out[i-1][ci] {
				ck.add("deflection."+deflectionRows[i]+"."+classes[ci], "%+d is better than %+d on the %s row; more deflection is never an easier shot", out[i][ci], out[i-1][ci], deflectionRows[i-1])
			}
		}
	}
	return out, ok
}

// The hit-location section: both classes, hits 1 to 4, ten cells each (D10 1 to 10, 10 for a rolled 0),
// each cell exactly as many system letters as hits with at most one * after a C, L or E.
func buildHitLocation(d map[string]map[int][]string, ck *checker) ([2][4][10]Location, bool) {
	var out [2][4][10]Location
	ok := true
	for _, k := range sortedKeys(d) {
		if !slices.Contains(classes, k) {
			ck.add("hit_location."+k, "%q is not a target class (want %q and %q)", k, Class1E, ClassME)
			ok = false
		}
	}
	for ci, class := range classes {
		byHits, has := d[class]
		p := "hit_location." + class
		if !has {
			ck.add("hit_location", "the %s tables are missing", class)
			ok = false
			continue
		}
		for _, h := range sortedInts(byHits) {
			if h < 1 || h > 4 {
				ck.add(fmt.Sprintf("%s.%d", p, h), "there are tables for 1 to 4 hits only, not %d", h)
				ok = false
			}
		}
		for h := 1; h <= 4; h++ {
			cells, has := byHits[h]
			hp := fmt.Sprintf("%s.%d", p, h)
			if !has {
				ck.add(p, "the %d-hit table is missing", h)
				ok = false
				continue
			}
			if len(cells) != 10 {
				ck.add(hp, "%d cells; want 10, for D10 1 to 10 (10 is a rolled 0)", len(cells))
				ok = false
				continue
			}
			for i, cell := range cells {
				loc, faults := parseLocation(cell, h)
				for _, f := range faults {
					ck.add(fmt.Sprintf("%s[%d]", hp, i), "D10 %d: %s", i+1, f)
				}
				if len(faults) > 0 {
					ok = false
				}
				out[ci][h-1][i] = loc
			}
		}
	}
	return out, ok
}

// The spotting section: height bands that cover every height difference without gap or overlap (the
// first open below, the last open above), range bands from 0 hexes up without a gap, one need per height
// band in each, and no need easier farther away.
func (d *spottingDoc) build(ck *checker) spotting {
	var s spotting
	if len(d.Heights) == 0 {
		ck.add("spotting", "no height bands (spotting.heights)")
	}
	for i, h := range d.Heights {
		p := fmt.Sprintf("spotting.heights[%d]", i)
		if strings.TrimSpace(h.Name) == "" {
			ck.add(p, "the band needs a name")
		}
		b := band{openLow, openHigh}
		if h.FromFt != nil {
			b.lo = *h.FromFt
		}
		if h.ToFt != nil {
			b.hi = *h.ToFt
		}
		switch {
		case i == 0 && h.FromFt != nil:
			ck.add(p, "the first height band has no from_ft: it takes in everything below its to_ft")
		case i > 0 && h.FromFt == nil:
			ck.add(p, "only the first height band may leave out from_ft")
		case i > 0 && h.FromFt != nil && d.Heights[i-1].ToFt != nil && *h.FromFt != *d.Heights[i-1].ToFt+1:
			ck.add(p, "from_ft %d does not follow the previous band's to_ft %d (want %d)", *h.FromFt, *d.Heights[i-1].ToFt, *d.Heights[i-1].ToFt+1)
		}
		switch {
		case i == len(d.Heights)-1 && h.ToFt != nil:
			ck.add(p, "the last height band has no to_ft: it takes in everything above its from_ft")
		case i < len(d.Heights)-1 && h.ToFt == nil:
			ck.add(p, "only the last height band may leave out to_ft")
		}
		if b.lo > b.hi {
			ck.add(p, "from_ft is above to_ft")
		}
		s.heights = append(s.heights, b)
		s.heightNames = append(s.heightNames, h.Name)
	}
	s.ranges, _ = checkRanges("spotting.ranges", len(d.Ranges), func(i int) (*int, *int) { return d.Ranges[i].From, d.Ranges[i].To }, ck)
	for i, r := range d.Ranges {
		p := fmt.Sprintf("spotting.ranges[%d].need", i)
		if len(r.Need) != len(d.Heights) {
			ck.add(p, "%d needs; want one per height band (%d)", len(r.Need), len(d.Heights))
			continue
		}
		for j, n := range r.Need {
			checkNeed(fmt.Sprintf("%s[%d]", p, j), n, ck)
			if i > 0 && len(d.Ranges[i-1].Need) == len(r.Need) && harder(d.Ranges[i-1].Need[j], n) {
				ck.add(fmt.Sprintf("%s[%d]", p, j), "%s: need %d is easier than %d at the shorter range before it", s.heightName(j), n, d.Ranges[i-1].Need[j])
			}
		}
		s.need = append(s.need, slices.Clone(r.Need))
	}
	return s
}

func (s *spotting) heightName(i int) string {
	if i < len(s.heightNames) {
		return s.heightNames[i]
	}
	return fmt.Sprintf("height band %d", i+1)
}

// The identification section: range bands from 0 hexes up without a gap, each with a need, no need
// easier farther away.
func (d *identificationDoc) build(ck *checker) identification {
	var id identification
	id.ranges, _ = checkRanges("identification.ranges", len(d.Ranges), func(i int) (*int, *int) { return d.Ranges[i].From, d.Ranges[i].To }, ck)
	for i, r := range d.Ranges {
		p := fmt.Sprintf("identification.ranges[%d]", i)
		if r.Need == nil {
			ck.add(p, "the need is missing")
			id.need = append(id.need, 0)
			continue
		}
		checkNeed(p+".need", *r.Need, ck)
		if i > 0 && d.Ranges[i-1].Need != nil && harder(*d.Ranges[i-1].Need, *r.Need) {
			ck.add(p+".need", "need %d is easier than %d at the shorter range before it", *r.Need, *d.Ranges[i-1].Need)
		}
		id.need = append(id.need, *r.Need)
	}
	return id
}

// harder reports whether need a is harder than b (0, automatic, is the easiest).
func harder(a, b int) bool {
	if a == 0 || b == 0 {
		return b == 0 && a != 0
	}
	return a > b
}

func checkNeed(p string, n int, ck *checker) {
	if n < 0 || n > 20 {
		ck.add(p, "need %d is out of bounds: 0 (automatic) or a 2D6 total up to 20 (above 12 only modifiers reach it)", n)
	}
}

// checkRanges checks range bands in hexes: the first from 0, each following the last without a gap,
// from no greater than to.
func checkRanges(p string, n int, get func(int) (*int, *int), ck *checker) ([]band, bool) {
	if n == 0 {
		ck.add(p, "no range bands")
		return nil, false
	}
	var out []band
	ok := true
	prev := -1
	for i := 0; i < n; i++ {
		rp := fmt.Sprintf("%s[%d]", p, i)
		from, to := get(i)
		if from == nil || to == nil {
			ck.add(rp, "a range band needs from and to (hexes, both included)")
			ok = false
			out = append(out, band{-1, -1})
			continue
		}
		if *from != prev+1 {
			if i == 0 {
				ck.add(rp+".from", "the first range band starts at 0 hexes, not %d", *from)
			} else {
				ck.add(rp+".from", "from %d does not follow the previous band's to %d (want %d)", *from, prev, prev+1)
			}
			ok = false
		}
		if *to < *from {
			ck.add(rp+".to", "to %d is below from %d", *to, *from)
			ok = false
		}
		out = append(out, band{*from, *to})
		prev = *to
	}
	return out, ok
}

// The bail-out section: all four numbers; a need of 1 to 6 on 1D6; a penalty of 0 to -5; altitudes not
// below 0 and the no-bail-out altitude at or below the penalty altitude.
func (d *bailOutDoc) build(ck *checker) bailOut {
	var b bailOut
	get := func(name string, v *int) int {
		if v == nil {
			ck.add("bail_out", "%s is missing", name)
			return 0
		}
		return *v
	}
	b.need = get("need", d.Need)
	b.penaltyBelowFt = get("penalty_below_ft", d.PenaltyBelowFt)
	b.penalty = get("penalty", d.Penalty)
	b.noneBelowFt = get("none_below_ft", d.NoneBelowFt)
	if d.Need != nil && (b.need < 1 || b.need > 6) {
		ck.add("bail_out.need", "need %d is not a 1D6 roll (1 to 6)", b.need)
	}
	if d.Penalty != nil && (b.penalty > 0 || b.penalty < -5) {
		ck.add("bail_out.penalty", "penalty %d: want 0 to -5 (it is subtracted from the roll)", b.penalty)
	}
	if d.NoneBelowFt != nil && b.noneBelowFt < 0 {
		ck.add("bail_out.none_below_ft", "an altitude below 0 ft")
	}
	if d.NoneBelowFt != nil && d.PenaltyBelowFt != nil && b.noneBelowFt > b.penaltyBelowFt {
		ck.add("bail_out.none_below_ft", "%d ft is above penalty_below_ft %d ft", b.noneBelowFt, b.penaltyBelowFt)
	}
	return b
}

func hitsWord(n int) string {
	if n == 1 {
		return "1 hit"
	}
	return strconv.Itoa(n) + " hits"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedInts[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func intList(s []int) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Itoa(v)
	}
	return strings.Join(q, ", ")
}
