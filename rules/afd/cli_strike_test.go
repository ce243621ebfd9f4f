package afd

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"sortie/rules/ruleset"
)

func runCalc(t *testing.T, fn func([]string, io2) error, args ...string) (map[string]any, error) {
	t.Helper()
	var out bytes.Buffer
	err := fn(append(args, "--json"), &out)
	var m map[string]any
	if out.Len() > 0 {
		if jerr := json.Unmarshal(out.Bytes(), &m); jerr != nil {
			t.Fatalf("%v: %v\n%s", args, jerr, out.String())
		}
	}
	return m, err
}

type io2 = *bytes.Buffer

// The air-to-ground calculators answer as seed 002 does: a dive bomber's direct hit, the seed's naval
// flak example, the damage ladder, a torpedo's drop and hit; attacks out of reach exit 1, mistakes 2.
func TestStrikeCalculators(t *testing.T) {
	bomb := func(a []string, w io2) error { return calcBomb(a, w) }
	m, err := runCalc(t, bomb, "--kind", "dive", "--alt", "2000", "--crew", "ace", "--die", "7", "--dived", "3")
	if err != nil || m["result"] != "direct hit" || m["modified"].(float64) != 11 || m["level"].(float64) != 1 {
		t.Errorf("calc bomb, dive: %v %v", m, err)
	}
	m, err = runCalc(t, bomb, "--kind", "level", "--alt", "20000", "--die", "2", "--scatter", "3", "--heading", "0")
	if err != nil || m["result"] != "scatter" || !strings.Contains(m["scatter"].(string), "120") {
		t.Errorf("calc bomb, a scatter: %v %v", m, err)
	}
	if _, err := runCalc(t, bomb, "--kind", "rocket", "--alt", "5000", "--die", "5", "--range", "2"); !errors.Is(err, ruleset.ErrIllegal) {
		t.Errorf("rockets from level 2 are not allowed: %v", err)
	}
	flak := func(a []string, w io2) error { return calcFlak(a, w) }
	m, err = runCalc(t, flak, "--kind", "naval", "--size", "destroyer", "--barrels", "8x20mm,6x40mm", "--mm", "127", "--guns", "5")
	if err != nil || m["light"].(float64) != 5 || m["heavy"].(float64) != 9 || m["heavy_splash"].(float64) != 4 {
		t.Errorf("calc flak, the seed's destroyer: %v %v", m, err)
	}
	m, err = runCalc(t, flak, "--barrels", "4x20mm", "--alt", "1000", "--range", "1")
	if err != nil || m["value"].(float64) != 4 {
		t.Errorf("calc flak, quad 20 mm: %v %v", m, err)
	}
	target := func(a []string, w io2) error { return calcTarget(a, w) }
	m, err = runCalc(t, target, "--weapon", "500lb", "--count", "2", "--result", "direct-hit", "--target", "bridge", "--prior", "light", "--attack-die", "5", "--defence-die", "3")
	if err != nil || m["attack"].(float64) != 18 || m["defence"].(float64) != 7 || m["damage"] != "heavy damage" {
		t.Errorf("calc target: %v %v", m, err)
	}
	torpedo := func(a []string, w io2) error { return calcTorpedo(a, w) }
	m, err = runCalc(t, torpedo, "--die", "4", "--hit-die", "6", "--size", "large", "--bow-stern")
	if err != nil || m["runs"] != true || m["hit"] != true || m["counts_as"] != "on target" {
		t.Errorf("calc torpedo: %v %v", m, err)
	}
	for _, bad := range [][]string{{"--die", "11"}, {"--die", "5", "--crew", "hero"}, {"--die", "5", "--size", "huge"}} {
		var u ruleset.UsageError
		if _, err := runCalc(t, torpedo, bad...); !errors.As(err, &u) {
			t.Errorf("%v: want a usage error, got %v", bad, err)
		}
	}
	var u ruleset.UsageError
	if _, err := runCalc(t, target, "--weapon", "2000lb", "--defence", "3", "--attack-die", "1", "--defence-die", "1"); !errors.As(err, &u) {
		t.Errorf("an unknown weapon: %v", err)
	}
}

// TestCalcFlakHit: the calculator reproduces a game's flak attack from its value and dice (the house
// reading of flak on aircraft): the report's "value 4 -2 ... +1: d10 6 against 6 + d10 1" is one hit.
func TestCalcFlakHit(t *testing.T) {
	hit := func(a []string, w io2) error { return calcFlakHit(a, w) }
	m, err := runCalc(t, hit, "--value", "3", "--die", "6", "--plane-die", "1")
	if err != nil || m["hits"].(float64) != 1 || m["attack_total"].(float64) != 9 || m["defence_total"].(float64) != 7 {
		t.Errorf("calc flak-hit: %v %v", m, err)
	}
	m, err = runCalc(t, hit, "--value", "5", "--die", "10", "--plane-die", "1", "--multi-engine")
	if err != nil || m["hits"].(float64) != 2 || m["defence"].(float64) != 7 {
		t.Errorf("calc flak-hit, multi-engine: %v %v", m, err)
	}
	if _, err := runCalc(t, hit, "--die", "3", "--plane-die", "3"); err == nil || errors.Is(err, ruleset.ErrIllegal) {
		t.Errorf("a missing value is a usage mistake: %v", err)
	}
}

// The calculators refuse what the game refuses, as the game does (seed 002): a torpedo hits only its
// ship, strafing cannot hurt a large building or a bridge, heavy flak reaches levels 2 to its ceiling
// and 4 hexes; and an attack that may not be made damages nothing.
func TestStrikeCalculatorsRefuseWhatTheGameRefuses(t *testing.T) {
	target := func(a []string, w io2) error { return calcTarget(a, w) }
	m, err := runCalc(t, target, "--weapon", "torpedo", "--result", "direct-hit", "--defence", "7", "--secondary", "--attack-die", "8", "--defence-die", "2")
	if !errors.Is(err, ruleset.ErrIllegal) || m["damage"] != "no damage" || !strings.Contains(m["problem"].(string), "torpedo") {
		t.Errorf("a torpedo's secondary attack (seed 002: not for torpedoes): %v %v", m, err)
	}
	for _, kind := range []string{"large-building", "bridge"} {
		m, err = runCalc(t, target, "--strafe", "6", "--target", kind, "--attack-die", "10", "--defence-die", "1")
		if !errors.Is(err, ruleset.ErrIllegal) || m["damage"] != "no damage" || !strings.Contains(m["problem"].(string), "strafing cannot hurt a "+kind) {
			t.Errorf("strafing a %s: %v %v", kind, m, err)
		}
	}
	if m, err = runCalc(t, target, "--strafe", "6", "--target", "truck", "--attack-die", "10", "--defence-die", "1"); err != nil || m["damage"] == "no damage" {
		t.Errorf("strafing a truck: %v %v", m, err)
	}
	flak := func(a []string, w io2) error { return calcFlak(a, w) }
	for _, c := range []struct {
		alt, rng string
		reach    bool
	}{{"10000", "2", true}, {"1000", "1", false}, {"20000", "1", true}, {"30000", "1", false}, {"10000", "5", false}} {
		m, err := runCalc(t, flak, "--kind", "heavy", "--mm", "88", "--guns", "2", "--alt", c.alt, "--range", c.rng)
		if reached := err == nil && m["problem"] == nil; reached != c.reach || (!c.reach && !errors.Is(err, ruleset.ErrIllegal)) {
			t.Errorf("heavy 88 mm flak at %s ft, %s hexes: %v %v, want reach %v", c.alt, c.rng, m, err, c.reach)
		}
	}
	bomb := func(a []string, w io2) error { return calcBomb(a, w) }
	m, err = runCalc(t, bomb, "--kind", "rocket", "--alt", "1000", "--die", "9", "--range", "4")
	if !errors.Is(err, ruleset.ErrIllegal) || m["damages"] != false {
		t.Errorf("a rocket attack at range 4 is refused and damages nothing: %v %v", m, err)
	}
}
