package tables

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// HouseLabel names the tables Sortie ships. Reports print the label of the tables a game uses, so
// players know they are not playing on the original charts.
const HouseLabel = "Sortie house tables 1"

// The sections of a tables file. A file may hold any of them; a game's tables take each section from
// the moderator's file that gives it, and the rest from the house tables.
const (
	SectionGunnery        = "gunnery"        // the 20 weapon-mix charts
	SectionDeflection     = "deflection"     // the deflection DRMs
	SectionHitLocation    = "hit_location"   // the D10 hit-location tables
	SectionSpotting       = "spotting"       // the spotting table (house rule)
	SectionIdentification = "identification" // the identification table (house rule)
	SectionBailOut        = "bail_out"       // the bail-out roll (house rule)
)

var sections = []string{SectionGunnery, SectionDeflection, SectionHitLocation, SectionSpotting, SectionIdentification, SectionBailOut}

// Sections returns the section names in file order.
func Sections() []string { return append([]string(nil), sections...) }

// Tables is one complete set of combat tables: the house tables, or the house tables with some sections
// replaced from a moderator's file. A *Tables is read-only except for Label; the lookups are methods
// (Hits, Fire, MaxHits, DRM, DRMRow, Location, SpotNeed, IdentifyNeed, BailOutNeed).
type Tables struct {
	// Label names the set in reports, e.g. "Sortie house tables 1".
	Label string

	sources        map[string]string // section -> the file it came from
	gunnery        map[string]*Chart
	deflection     [3][2]int // [row][class]
	hitLocation    [2][4][10]Location
	spotting       spotting
	identification identification
	bailOut        bailOut
}

// Source names the file a section came from: "house:data/gunnery.yaml" for the embedded house tables,
// or the name of the moderator's file.
func (t *Tables) Source(section string) string { return t.sources[section] }

//go:embed data/*.yaml
var dataFS embed.FS

// Default returns the house tables, parsed from the embedded data files once. Each call returns its own
// copy, so a caller may change the Label without touching anyone else's.
func Default() (*Tables, error) {
	t, err := houseTables()
	if err != nil {
		return nil, err
	}
	c := *t
	return &c, nil
}

// houseTables is the house tables, assembled once, the first time they are asked, and never changed after
// (Default hands out copies).
var houseTables = sync.OnceValues(func() (*Tables, error) {
	files := map[string][]byte{}
	names, err := fs.Glob(dataFS, "data/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		b, err := fs.ReadFile(dataFS, n)
		if err != nil {
			return nil, err
		}
		files["house:"+n] = b
	}
	t, err := assemble(nil, files)
	if err != nil {
		return nil, err
	}
	t.Label = HouseLabel
	return t, nil
})

// Load reads a moderator's tables file (a scenario names it) and returns the house tables with the
// sections that file gives replaced. See Parse.
func Load(path string) (*Tables, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(map[string][]byte{path: data})
}

// Parse returns the house tables with sections replaced from the given files (name -> contents; the
// name is used in messages). A file may give any sections; a section it does not give keeps the house
// table. A section given by two files is an error. Decoding is strict (an unknown field is an error,
// with its line) and every section is validated; every problem of every file is listed in one *Error,
// and if there is any, nothing is loaded.
//
// The label is the files' own label if one gives it; otherwise the house label followed by what was
// replaced, e.g. "Sortie house tables 1, gunnery from charts.yaml".
func Parse(files map[string][]byte) (*Tables, error) {
	base, err := Default()
	if err != nil {
		return nil, err
	}
	return base.With(files)
}

// With is Parse on top of t rather than the house tables.
func (t *Tables) With(files map[string][]byte) (*Tables, error) {
	if len(files) == 0 {
		c := *t
		return &c, nil
	}
	return assemble(t, files)
}

// assemble builds tables from files over base; with base nil every section must be given.
func assemble(base *Tables, files map[string][]byte) (*Tables, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)

	t := &Tables{sources: map[string]string{}}
	if base != nil {
		*t = *base
		t.sources = map[string]string{}
		for k, v := range base.sources {
			t.sources[k] = v
		}
	}
	var problems []Problem
	givenBy := map[string]string{}
	var labels []string
	replaced := map[string][]string{} // file -> sections
	for _, name := range names {
		f, ps := decodeFile(name, files[name])
		problems = append(problems, ps...)
		if f == nil {
			continue
		}
		for _, s := range sections {
			if _, ok := f.present[s]; !ok {
				continue
			}
			if other, dup := givenBy[s]; dup {
				problems = append(problems, Problem{File: name, Line: f.present[s], Path: s,
					Msg: fmt.Sprintf("section also given in %s; each section may come from one file only", other)})
				continue
			}
			givenBy[s] = name
			replaced[name] = append(replaced[name], s)
		}
		if f.doc.Label != "" {
			labels = append(labels, f.doc.Label)
		}
		problems = append(problems, f.build(t)...)
	}
	if base == nil {
		for _, s := range sections {
			if _, ok := givenBy[s]; !ok {
				problems = append(problems, Problem{Msg: fmt.Sprintf("no file gives the %s section", s)})
			}
		}
	}
	if len(problems) > 0 {
		order := map[string]int{}
		for i, n := range names {
			order[n] = i
		}
		sort.SliceStable(problems, func(i, j int) bool {
			a, b := problems[i], problems[j]
			fa, fb := order[a.File], order[b.File]
			if a.File == "" {
				fa = len(names)
			}
			if b.File == "" {
				fb = len(names)
			}
			if fa != fb {
				return fa < fb
			}
			return a.Line != 0 && (b.Line == 0 || a.Line < b.Line)
		})
		return nil, &Error{Problems: problems}
	}
	for s, n := range givenBy {
		t.sources[s] = n
	}
	switch {
	case len(labels) > 0:
		t.Label = strings.Join(labels, " + ")
	case base != nil:
		var parts []string
		for _, name := range names {
			if len(replaced[name]) > 0 {
				parts = append(parts, strings.Join(replaced[name], ", ")+" from "+filepath.Base(name))
			}
		}
		t.Label = base.Label + ", " + strings.Join(parts, "; ")
	}
	return t, nil
}

// Problem is one thing wrong with a tables file: which file, where in it (the line, and the YAML path of
// the field) and what.
type Problem struct {
	File string // the file's name as given to Parse or Load
	Line int    // 1-based; 0 when unknown
	Path string // e.g. "gunnery.charts.8x30M.9[1]"
	Msg  string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
	}
	if p.Path != "" {
		b.WriteString(p.Path + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error lists every problem found in the tables files of one Parse or Load. Nothing is loaded when
// there is an Error.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	if len(e.Problems) == 1 {
		return "tables: " + e.Problems[0].String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tables: %d problems:", len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// Is makes errors.Is(err, ErrInvalid) true for any *Error.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// ErrInvalid is matched by every *Error.
var ErrInvalid = errors.New("invalid tables file")
