package aircraft

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"sortie/rules/yamlpath"
)

//go:embed data/*.yaml
var dataFS embed.FS

// Registry is a set of aircraft cards by key. It is read-only once built: Get and All hand out copies,
// so a caller may change what it gets without touching the registry; Card hands out the registry's own
// card, for callers that only read it.
type Registry struct {
	cards map[string]*Card
	files map[string]*File // the historical data behind each card, when it came from a file
	keys  []string
}

// Default returns the registry of the embedded data files (data/*.yaml), parsed once, the first time it
// is asked, and never changed after.
func Default() (*Registry, error) { return shipped() }

var shipped = sync.OnceValues(func() (*Registry, error) { return loadFS(dataFS, "data") })

// loadFS parses every *.yaml file of dir; it reports every bad file, and loads nothing if any is bad.
func loadFS(fsys fs.FS, dir string) (*Registry, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	r := &Registry{cards: map[string]*Card{}, files: map[string]*File{}}
	var errs []error
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, c, err := parse(data, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, dup := r.cards[c.Key]; dup {
			errs = append(errs, fmt.Errorf("%s: key %q is used by another file", name, c.Key))
			continue
		}
		if want := strings.TrimSuffix(path.Base(name), ".yaml"); want != c.Key {
			errs = append(errs, fmt.Errorf("%s: the file of key %q must be named %s.yaml", name, c.Key, c.Key))
			continue
		}
		r.cards[c.Key], r.files[c.Key] = c, f
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	r.sortKeys()
	return r, nil
}

func (r *Registry) sortKeys() {
	r.keys = r.keys[:0]
	for k := range r.cards {
		r.keys = append(r.keys, k)
	}
	sort.Strings(r.keys)
}

// Get returns a copy of the card with the given key.
func (r *Registry) Get(key string) (*Card, bool) {
	c, ok := r.cards[key]
	if !ok {
		return nil, false
	}
	return c.Clone(), true
}

// Card returns the registry's own card with the given key, without copying it: a card is some 4 KB of
// bands, guns and systems, and a turn or an order check that only reads it need not pay for a copy.
// The card is shared by every caller and must not be changed; use Get for a card to change.
func (r *Registry) Card(key string) (*Card, bool) {
	c, ok := r.cards[key]
	return c, ok
}

// Keys returns the keys in sorted order.
func (r *Registry) Keys() []string { return slices.Clone(r.keys) }

// All returns copies of every card, sorted by key.
func (r *Registry) All() []*Card {
	out := make([]*Card, 0, len(r.keys))
	for _, k := range r.keys {
		out = append(out, r.cards[k].Clone())
	}
	return out
}

// Source returns the historical data a card was derived from (or that came with a printed card), for
// showing the figures and their sources. The File is shared: do not change it.
func (r *Registry) Source(key string) (*File, bool) {
	f, ok := r.files[key]
	return f, ok
}

// With returns a new registry holding r's cards with the given cards added, replacing any of the same
// key: how a game uses a moderator's printed cards in place of the derived ones. Each card must
// validate.
func (r *Registry) With(cards ...*Card) (*Registry, error) {
	n := &Registry{cards: map[string]*Card{}, files: map[string]*File{}}
	for k, c := range r.cards {
		n.cards[k] = c
		if f, ok := r.files[k]; ok {
			n.files[k] = f
		}
	}
	var errs []error
	for _, c := range cards {
		if err := c.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		n.cards[c.Key] = c.Clone()
		delete(n.files, c.Key)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	n.sortKeys()
	return n, nil
}

// Clone returns a deep copy of the card.
func (c *Card) Clone() *Card {
	n := *c
	n.Bands = slices.Clone(c.Bands)
	for i := range n.Bands {
		if m := n.Bands[i].Maneuver; m != nil {
			mm := *m
			n.Bands[i].Maneuver = &mm
		}
	}
	if c.Loaded != nil {
		l := *c.Loaded
		n.Loaded = &l
	}
	n.Guns = slices.Clone(c.Guns)
	for i := range n.Guns {
		n.Guns[i].Arcs = slices.Clone(n.Guns[i].Arcs)
	}
	n.Systems = slices.Clone(c.Systems)
	return &n
}

// LoadFile reads one aircraft file from disk (a moderator's file, e.g. with a printed card).
func LoadFile(name string) (*Card, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return Parse(data, name)
}

// Parse reads one aircraft file. name is used in messages. Decoding is strict: unknown fields are
// errors. Every problem (decoding, data and the card itself) is listed in one *Error, with its line;
// a file with any problem yields no card.
func Parse(data []byte, name string) (*Card, error) {
	_, c, err := parse(data, name)
	return c, err
}

// ParseFile is Parse that also returns the file's historical data.
func ParseFile(data []byte, name string) (*File, *Card, error) { return parse(data, name) }

func parse(data []byte, name string) (*File, *Card, error) {
	fail := func(ps []Problem) (*File, *Card, error) {
		sort.SliceStable(ps, func(i, j int) bool {
			a, b := ps[i].Line, ps[j].Line
			return a != 0 && (b == 0 || a < b)
		})
		return nil, nil, &Error{Name: name, Problems: ps}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fail(yamlProblems(err))
	}
	if len(doc.Content) == 0 {
		return fail([]Problem{{Msg: "the file is empty"}})
	}
	lines := yamlpath.Index(&doc)

	var f File
	var problems []Problem
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		problems = append(problems, yamlProblems(err)...)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		problems = append(problems, Problem{Line: extra.Line, Msg: "a file holds one aircraft: found a second YAML document"})
	} else if !errors.Is(err, io.EOF) {
		problems = append(problems, yamlProblems(err)...)
	}

	var ck checker
	f.check(&ck)
	for _, p := range ck.list {
		p.Line = lines.At(p.Path)
		problems = append(problems, p)
	}
	if len(problems) > 0 {
		return fail(problems)
	}

	var card *Card
	if f.Card != nil {
		card = f.Card.Clone()
		f.fillIdentity(card)
		var ck checker
		card.check(&ck)
		for _, p := range ck.list {
			p.Path = joinPath("card", p.Path)
			p.Line = lines.At(p.Path)
			problems = append(problems, p)
		}
	} else {
		var err error
		if card, err = Derive(&f); err != nil {
			return fail([]Problem{{Msg: err.Error()}})
		}
		var ck checker
		card.check(&ck)
		for _, p := range ck.list {
			p.Path = "derived card: " + p.Path
			problems = append(problems, p)
		}
	}
	if len(problems) > 0 {
		return fail(problems)
	}
	return &f, card, nil
}

// fillIdentity gives a printed card the file's identity where the card block leaves it out.
func (f *File) fillIdentity(c *Card) {
	if c.Key == "" {
		c.Key = f.Key
	}
	if c.Name == "" {
		c.Name = f.Name
	}
	if c.Nation == "" {
		c.Nation = f.Nation
	}
	if c.Year == 0 {
		c.Year = f.Year
	}
	if c.Role == "" {
		c.Role = f.Role
	}
	if c.Engines.Count == 0 {
		c.Engines = f.Engines
	}
	c.DiveBomber = c.DiveBomber || f.DiveBomber
	if c.Crew == 0 {
		c.Crew = f.Crew
	}
	if c.LossClass == "" {
		c.LossClass = f.LossClass
	}
	if c.LossClass == "" {
		if lc, err := DeriveLossClass(f); err == nil {
			c.LossClass = lc
		}
	}
}

func joinPath(prefix, p string) string {
	if p == "" {
		return prefix
	}
	return prefix + "." + p
}

// yamlProblems turns a yaml.v3 error into problems, each on its line (yamlpath.Messages).
func yamlProblems(err error) []Problem {
	var out []Problem
	for _, m := range yamlpath.Messages(err) {
		out = append(out, Problem{Line: m.Line, Msg: m.Text})
	}
	return out
}
