package afd

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Ammo holds the bursts left in each of a plane's gun positions, by the position's id, kept in the
// order of the ids. A plane has a handful of positions, so a short sorted list is quicker to read and to
// copy each turn than a map; it is saved as the same JSON object from id to bursts that a map gives.
type Ammo []GunAmmo

// GunAmmo is the bursts left in one gun position.
type GunAmmo struct {
	Gun    string
	Bursts int
}

// find is where position id is, or would go, and whether it is there.
func (a Ammo) find(id string) (int, bool) {
	return slices.BinarySearchFunc(a, id, func(g GunAmmo, id string) int { return strings.Compare(g.Gun, id) })
}

// Left is the bursts left in position id: 0 for a position it has none recorded for.
func (a Ammo) Left(id string) int {
	if i, ok := a.find(id); ok {
		return a[i].Bursts
	}
	return 0
}

// Set records n bursts left in position id.
func (a *Ammo) Set(id string, n int) {
	i, ok := a.find(id)
	if ok {
		(*a)[i].Bursts = n
		return
	}
	*a = slices.Insert(*a, i, GunAmmo{Gun: id, Bursts: n})
}

// Spend fires one burst from position id and returns the bursts left.
func (a *Ammo) Spend(id string) int {
	n := a.Left(id) - 1
	a.Set(id, n)
	return n
}

// MarshalJSON writes the object from id to bursts, keys in order, as encoding/json writes a map: an
// Ammo that was never made is null, an empty one {}. Keys are written without HTML escaping, which
// the encoder then applies as it does to a map's keys.
func (a Ammo) MarshalJSON() ([]byte, error) {
	if a == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+len(a)*16)
	b = append(b, '{')
	for i, g := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendKey(b, g.Gun)
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(g.Bursts), 10)
	}
	return append(b, '}'), nil
}

// appendKey appends s as a JSON string. Gun ids are lower-case letters, digits and dashes (the cards'
// validation), written as they are; anything else goes through encoding/json.
func appendKey(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// UnmarshalJSON reads the object MarshalJSON writes (or null).
func (a *Ammo) UnmarshalJSON(data []byte) error {
	var m map[string]int
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if m == nil {
		*a = nil
		return nil
	}
	out := make(Ammo, 0, len(m))
	for id, n := range m {
		out = append(out, GunAmmo{Gun: id, Bursts: n})
	}
	slices.SortFunc(out, func(x, y GunAmmo) int { return strings.Compare(x.Gun, y.Gun) })
	*a = out
	return nil
}
