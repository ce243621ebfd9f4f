package swarm

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

//go:embed data/*.yaml
var dataFS embed.FS

// MPHPerSpeed is the plotting board's scale: one hex forward for every 150 mph (seed 004, "Air Speed").
const MPHPerSpeed = 150

// Type is one squadron type's control sheet (data/types.yaml).
type Type struct {
	Key        string `yaml:"key" json:"key"`
	Name       string `yaml:"name" json:"name"`
	MPH        int    `yaml:"mph" json:"mph"`
	Steps      [3]int `yaml:"steps" json:"steps"` // pips at 3D6, 2D6, 1D6
	Durable    bool   `yaml:"durable" json:"durable"`
	RearGunner bool   `yaml:"rear_gunner" json:"rear_gunner"`
	Bomber     bool   `yaml:"bomber" json:"bomber"`
	Source     string `yaml:"source" json:"source"`
}

// Pips is the number of hit points on the sheet.
func (t *Type) Pips() int { return t.Steps[0] + t.Steps[1] + t.Steps[2] }

// MaxSpeed is the fastest speed left on the plotting board: floor(mph / 150), at least 1, at most 3.
func (t *Type) MaxSpeed() int { return min(max(t.MPH/MPHPerSpeed, 1), 3) }

// Firepower is the number of D6 the squadron rolls with filled pips filled: 3, 2 or 1, and 0 once every
// pip is filled. A sheet without 3D6 pips starts at 2D6, and so on.
func (t *Type) Firepower(filled int) int {
	left := filled
	for i, n := range t.Steps {
		if left < n {
			return 3 - i
		}
		left -= n
	}
	return 0
}

// FirstPipAt is the number of pips filled when the firepower first drops to dice D6 (the scenario
// shortcut `firepower: 2D6`), or -1 when the sheet has no pip at that firepower.
func (t *Type) FirstPipAt(dice int) int {
	if dice < 1 || dice > 3 || t.Steps[3-dice] == 0 {
		return -1
	}
	n := 0
	for i := 0; i < 3-dice; i++ {
		n += t.Steps[i]
	}
	return n
}

// House is the house tables and the seed's own numbers (data/house.yaml).
type House struct {
	Evasion struct {
		Label string `yaml:"label" json:"label"`
		Need  []int  `yaml:"need" json:"need"`
	} `yaml:"evasion" json:"evasion"`
	Pilots struct {
		Label string         `yaml:"label" json:"label"`
		Mods  map[string]int `yaml:"mods" json:"mods"`
	} `yaml:"pilots" json:"pilots"`
	Durable  int            `yaml:"durable" json:"durable"`
	Bombing  map[string]int `yaml:"bombing" json:"bombing"`
	Strafe   int            `yaml:"strafe" json:"strafe"`
	MaxRange int            `yaml:"max_range" json:"max_range"`
}

// SaveNeed is the evasive save's need at a range on a chart (need[0] is range 1; beyond the end the last
// entry applies).
func SaveNeed(chart []int, rng int) int {
	if len(chart) == 0 {
		return 7
	}
	i := min(max(rng, 1), len(chart)) - 1
	return chart[i]
}

// Data is everything a Swarm game reads from files: the types and the house tables.
type Data struct {
	Types map[string]*Type
	House House
	keys  []string
	sum   string
}

// TypeKeys lists the types, sorted.
func (d *Data) TypeKeys() []string { return d.keys }

// Type returns a type by key.
func (d *Data) Type(key string) (*Type, bool) {
	t, ok := d.Types[strings.ToLower(key)]
	return t, ok
}

// DefaultData returns the shipped types and house tables, read once, the first time they are asked, and
// never changed after.
func DefaultData() (*Data, error) { return shippedData() }

var shippedData = sync.OnceValues(loadData)

func loadData() (*Data, error) {
	d := &Data{Types: map[string]*Type{}}
	h := sha256.New()
	for _, name := range []string{"data/house.yaml", "data/types.yaml"} {
		b, err := dataFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	var types struct {
		Types []Type `yaml:"types"`
	}
	if err := decodeStrict("data/types.yaml", &types); err != nil {
		return nil, err
	}
	if err := decodeStrict("data/house.yaml", &d.House); err != nil {
		return nil, err
	}
	var problems []string
	for i := range types.Types {
		t := types.Types[i]
		switch {
		case t.Key == "" || t.Key != strings.ToLower(t.Key) || d.Types[t.Key] != nil:
			problems = append(problems, fmt.Sprintf("type %d: key %q is empty, not lower case or given twice", i, t.Key))
		case t.MPH < 50 || t.MPH > 1000:
			problems = append(problems, fmt.Sprintf("%s: mph %d is not a top speed", t.Key, t.MPH))
		case t.Steps[0] < 0 || t.Steps[1] < 0 || t.Steps[2] < 0 || t.Pips() < 1:
			problems = append(problems, fmt.Sprintf("%s: steps %v must be three counts of pips, at least one pip in all", t.Key, t.Steps))
		case t.Name == "" || t.Source == "":
			problems = append(problems, fmt.Sprintf("%s: every type needs a name and the source of its speed", t.Key))
		}
		d.Types[t.Key] = &t
		d.keys = append(d.keys, t.Key)
	}
	if err := d.House.check(); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("swarm data: %s", strings.Join(problems, "; "))
	}
	sort.Strings(d.keys)
	d.sum = hex.EncodeToString(h.Sum(nil))
	return d, nil
}

func (h *House) check() error {
	if err := checkChart(h.Evasion.Need); err != nil {
		return fmt.Errorf("house.yaml: evasion: %w", err)
	}
	if h.Evasion.Label == "" || h.Pilots.Label == "" {
		return fmt.Errorf("house.yaml: house tables must be labelled")
	}
	for _, q := range PilotQualities {
		if _, ok := h.Pilots.Mods[q]; !ok {
			return fmt.Errorf("house.yaml: pilots: no modifier for %s", q)
		}
	}
	for _, b := range []string{"H", "M", "L"} {
		if n := h.Bombing[b]; n < 1 || n > 6 {
			return fmt.Errorf("house.yaml: bombing: %s needs 1 to 6", b)
		}
	}
	if h.Strafe < 1 || h.Strafe > 6 || h.MaxRange < 1 || h.MaxRange > 6 {
		return fmt.Errorf("house.yaml: strafe and max_range are 1 to 6")
	}
	return nil
}

// checkChart checks an evasive-save chart: 1 to 12 entries, each a need on a D6 (1 to 7; 7 never saves).
func checkChart(need []int) error {
	if len(need) < 1 || len(need) > 12 {
		return fmt.Errorf("the chart gives the need at range 1, 2, ...: 1 to 12 entries, got %d", len(need))
	}
	for i, n := range need {
		if n < 1 || n > 7 {
			return fmt.Errorf("range %d: a need on a D6 is 1 to 7 (7: no save), got %d", i+1, n)
		}
	}
	return nil
}

// PilotQualities are the pilot qualities a scenario may give a squadron.
var PilotQualities = []string{"green", "regular", "veteran", "ace"}

func decodeStrict(name string, v any) error {
	b, err := dataFS.ReadFile(name)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("swarm %s: %w", name, err)
	}
	return nil
}
