package afd

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Ammo is saved exactly as the map from gun position to bursts it replaced: the same bytes with or
// without HTML escaping, null for none, {} for an empty one, and read back to the same list.
func TestAmmoJSONIsTheMapsJSON(t *testing.T) {
	cases := []map[string]int{
		nil,
		{},
		{"wing-l": 10, "wing-r": 0, "nose": -1},
		{"b": 1, "a": 2, "c<d>&e": 3, "quote\"back\\slash": 4, "tab\tnl\n": 5, "é\u2028": 6, "bad\xff": 7},
	}
	encode := func(v any, html bool) string {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(html)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	for _, m := range cases {
		var a Ammo
		if m != nil {
			a = Ammo{}
			for id, n := range m {
				a.Set(id, n)
			}
		}
		for _, html := range []bool{true, false} {
			want := encode(struct {
				Ammo map[string]int `json:"ammo"`
			}{m}, html)
			got := encode(struct {
				Ammo Ammo `json:"ammo"`
			}{a}, html)
			if got != want {
				t.Errorf("html %v: got %s want %s", html, got, want)
			}
		}
		// Read back, it is what the map read back is (invalid UTF-8 has become U+FFFD in both).
		data, _ := json.Marshal(a)
		var back Ammo
		var backMap map[string]int
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(data, &backMap)
		again, _ := json.Marshal(back)
		againMap, _ := json.Marshal(backMap)
		if !bytes.Equal(again, againMap) || (back == nil) != (m == nil) {
			t.Errorf("%s read back as %s, the map as %s", data, again, againMap)
		}
	}
}

func TestAmmoSetSpendLeft(t *testing.T) {
	var a Ammo
	a.Set("wing-r", 2)
	a.Set("nose", 1)
	a.Set("wing-l", 3)
	if a.Spend("nose") != 0 || a.Left("nose") != 0 || a.Left("wing-l") != 3 || a.Left("tail") != 0 {
		t.Errorf("%v", a)
	}
	// Spending from a position with nothing recorded leaves it at -1, as the map did.
	if a.Spend("tail") != -1 || len(a) != 4 || a[0].Gun != "nose" || a[1].Gun != "tail" {
		t.Errorf("%v", a)
	}
}
