package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The seed's worked example through the calculator: Spitfire at a He-111 from astern at range 3, red 5
// white 3, hit location 5.
func TestCalcFireSeedExample(t *testing.T) {
	out, errOut, code := sortie(t, "calc", "fire", "--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "6", "--dice", "5,3,5", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Chart     string   `json:"chart"`
		Column    string   `json:"column"`
		DRM       int      `json:"drm"`
		Row       int      `json:"row"`
		Hits      int      `json:"hits"`
		Locations []string `json:"locations"`
		Critical  int      `json:"critical"`
		Damage    []string `json:"damage"`
		Effects   []string `json:"effects"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Chart != "8x30M" || r.Column != "3" || r.DRM != 1 || r.Row != 9 || r.Hits != 4 || strings.Join(r.Locations, ",") != "WFEE*" ||
		r.Critical != 1 || strings.Join(r.Damage, " ") != "W F E(L) E(L) E(L)" || len(r.Effects) == 0 || r.Effects[0] != "left engine destroyed" {
		t.Errorf("worked example: %+v", r)
	}
	human, _, _ := sortie(t, "calc", "fire", "--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "6", "--dice", "5,3,5")
	if !strings.Contains(human, "4 hits") || !strings.Contains(human, "WFEE*") {
		t.Errorf("human output:\n%s", human)
	}
}

func TestCalcFireUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "6", "--dice", "5,3"},     // the D10 is missing
		{"--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "6", "--dice", "5,3,5,5"}, // one too many
		{"--shooter", "spitfire-i", "--target", "he-111h", "--range", "9", "--clock", "6", "--dice", "5,3,5"},   // beyond 8
		{"--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "13", "--dice", "5,3,5"},  // no such clock
		{"--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "6", "--dice", "7,3,5"},   // a 7 on a D6
		{"--shooter", "spitfire-i", "--target", "blimp", "--range", "3", "--clock", "6", "--dice", "5,3,5"},     // unknown type
		{"--shooter", "spitfire-i", "--target", "he-111h", "--range", "3", "--clock", "6", "--dice", "5,3,5", "--guns", "tail"},
	} {
		if _, errOut, code := sortie(t, append([]string{"calc", "fire"}, args...)...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
}

func TestCalcDamage(t *testing.T) {
	out, _, code := sortie(t, "calc", "damage", "--aircraft", "a6m2", "--hits", "FC*", "--red", "5", "--json")
	var r struct {
		ShotDown bool     `json:"shot_down"`
		Effects  []string `json:"effects"`
		Systems  []struct {
			Letter    string `json:"letter"`
			Filled    int    `json:"filled"`
			Destroyed bool   `json:"destroyed"`
		} `json:"systems"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || !r.ShotDown || len(r.Systems) == 0 {
		t.Fatalf("Zero, C hit, red 5: exit %d %s", code, out)
	}
	out, _, _ = sortie(t, "calc", "damage", "--aircraft", "p-40c", "--hits", "FC*", "--red", "5", "--json")
	if json.Unmarshal([]byte(out), &r) != nil || r.ShotDown {
		t.Errorf("P-40C, C hit, red 5 is not downed: %s", out)
	}
	out, _, _ = sortie(t, "calc", "damage", "--aircraft", "he-111h", "--hits", "WFEE*", "--red", "5", "--side", "L")
	if !strings.Contains(out, "left engine destroyed") {
		t.Errorf("He-111 example in human form:\n%s", out)
	}
	for _, args := range [][]string{{"--aircraft", "a6m2", "--hits", "FX"}, {"--aircraft", "a6m2", "--hits", "F*C"}, {"--aircraft", "a6m2"}, {"--aircraft", "a6m2", "--hits", "FC", "--side", "Q"}} {
		if _, _, code := sortie(t, append([]string{"calc", "damage"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

func TestResolveCommand(t *testing.T) {
	dir := t.TempDir()
	orders := filepath.Join(dir, "orders.txt")
	os.WriteFile(orders, []byte("# turn 1\nRED1: 6 FIRE KURT\nRED2: 1 TL 4\nKURT: 5 HOLD\nHANS: 3 TR 2\n"), 0o644)
	scenario := "../../rules/afd/scenarios/channel-1940.yaml"
	out, errOut, code := sortie(t, "resolve", "--scenario", scenario, "--orders", orders, "--seed", "7", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Events []struct{ Kind, Plane string }
		State  json.RawMessage
		Hash   string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Hash) != 64 || len(r.Events) < 4 {
		t.Fatalf("resolve --json: %v %s", err, out)
	}
	again, _, _ := sortie(t, "resolve", "--scenario", scenario, "--orders", orders, "--seed", "7", "--json")
	if again != out {
		t.Error("the same turn with the same seed must print the same bytes")
	}
	// The next turn from the printed state.
	statePath := filepath.Join(dir, "state.json")
	os.WriteFile(statePath, []byte(out), 0o644)
	if _, errOut, code := sortie(t, "resolve", "--state", statePath, "--orders", orders, "--seed", "8"); code != 0 {
		t.Errorf("resolve --state: exit %d %s", code, errOut)
	}
	// Orders with mistakes are reported with their lines.
	os.WriteFile(orders, []byte("RED1: 6\nNOBODY: 5\nRED2 6\n"), 0o644)
	_, errOut, code = sortie(t, "resolve", "--scenario", scenario, "--orders", orders)
	if code != 2 || !strings.Contains(errOut, "orders.txt:2") || !strings.Contains(errOut, "orders.txt:3") {
		t.Errorf("bad orders: exit %d %s", code, errOut)
	}
}

// TestResolveSaysWhyAnOrderWasRefused: an illegal order (one the rules refuse) was flown as a missed
// order, "no order from alice", with exit 0 and no reason. It is refused as the service refuses it, with
// its positioned problems, the turn still resolved (the unit flies as if it had no order), and exit 1.
func TestResolveSaysWhyAnOrderWasRefused(t *testing.T) {
	dir := t.TempDir()
	orders := filepath.Join(dir, "orders.txt")
	os.WriteFile(orders, []byte("RED1: 3 TR\nRED2: 6\n"), 0o644)
	for _, scenario := range []string{"../../rules/afd/scenarios/channel-1940.yaml"} {
		out, _, code := sortie(t, "resolve", "--scenario", scenario, "--orders", orders)
		if code != 1 || !strings.Contains(out, "REFUSED ORDERS") || !strings.Contains(out, "orders.txt:1: RED1: 3 TR") ||
			!strings.Contains(out, "movement points") {
			t.Errorf("%s: exit %d\n%s", scenario, code, out)
		}
		js, _, code := sortie(t, "resolve", "--scenario", scenario, "--orders", orders, "--json")
		var r struct {
			Refused []struct {
				Line     int
				Unit     string
				Problems []string
			}
			Hash string
		}
		if code != 1 || json.Unmarshal([]byte(js), &r) != nil || len(r.Refused) != 1 || r.Refused[0].Unit != "RED1" || r.Refused[0].Line != 1 ||
			len(r.Refused[0].Problems) == 0 || len(r.Hash) != 64 {
			t.Errorf("%s --json: exit %d %s", scenario, code, js)
		}
	}
}

// sortie resolve knows no game: a Swarm scenario resolves through the same generic path, its orders
// read in Swarm's notation, and the printed state resolves the next turn.
func TestResolveCommandSwarm(t *testing.T) {
	dir := t.TempDir()
	orders := filepath.Join(dir, "orders.txt")
	os.WriteFile(orders, []byte("TIGER: 2 S M 2; 2 S M 2; 2 S M 2\nADLER: 1 S M 1; 1 S M 1; 1 S M 1\n"), 0o644)
	scenario := "../../rules/swarm/scenarios/kanalkampf-1940.yaml"
	out, errOut, code := sortie(t, "resolve", "--scenario", scenario, "--orders", orders, "--json")
	var r struct {
		Ruleset string
		Events  []struct{ Kind, Unit string }
		Hash    string
	}
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil || r.Ruleset != "swarm" || len(r.Hash) != 64 {
		t.Fatalf("resolve a Swarm turn: exit %d %s %s", code, errOut, out)
	}
	course := false
	for _, e := range r.Events {
		course = course || e.Kind == "course" && e.Unit == "TIGER"
	}
	if !course {
		t.Errorf("TIGER's course was not read in Swarm's notation: %s", out)
	}
	statePath := filepath.Join(dir, "state.json")
	os.WriteFile(statePath, []byte(out), 0o644)
	os.WriteFile(orders, []byte("LION: 2 S M 2; 2 S M 2; 2 S M 2\n"), 0o644)
	if text, errOut, code := sortie(t, "resolve", "--state", statePath, "--orders", orders); code != 0 || !strings.Contains(text, "turn 2 resolved") {
		t.Errorf("resolve --state for Swarm: exit %d %s %s", code, errOut, text)
	}
	os.WriteFile(orders, []byte("TIGER 2 S M 2\nNOBODY: 1 S M 1\n"), 0o644)
	if _, errOut, code := sortie(t, "resolve", "--scenario", scenario, "--orders", orders); code != 2 || !strings.Contains(errOut, "orders.txt:1") || !strings.Contains(errOut, "orders.txt:2") {
		t.Errorf("bad Swarm orders: exit %d %s", code, errOut)
	}
}

// sortie --help lists each registered ruleset's calculator and commands from the registry.
func TestHelpListsEveryRulesetsCalculator(t *testing.T) {
	out, _, code := sortie(t, "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Ruleset afd (the default)", "sortie calc move ...", "sortie calc damage ...", "sortie aircraft ...",
		"Ruleset swarm", "sortie calc move --ruleset swarm ...", "sortie calc fire --ruleset swarm ..."} {
		if !strings.Contains(out, want) {
			t.Errorf("sortie --help does not list %q:\n%s", want, out)
		}
	}
}
