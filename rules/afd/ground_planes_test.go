package afd

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"sortie/parser"
	"sortie/rules/afd/notation"
	"sortie/rules/afd/strike"
	"sortie/rules/hex"
	"sortie/rules/ruleset"
)

// airfieldGame: an impulse game with a Wildcat on the ground at (0,0) facing north, engine stopped,
// and an enemy far away.
const airfieldGame = annBen + `name: airfield
options: {fog_of_war: false, impulse: true}
ground:
  - {callsign: CV1, kind: ship, side: A, hex: [10, 0], facing: 0, speed: 2, turn_rate: 0, defence: 20, route: [[10, -1], [10, -2], [10, -3], [10, -4], [10, -5], [10, -6], [10, -7], [10, -8]]}
aircraft:
  - {callsign: WILD, type: f4f-4, side: A, player: ann, hex: [0, 0], facing: 0, alt: 0, speed: 0, on_ground: true}
  - {callsign: BLUE1, type: bf-109e, side: B, player: ben, hex: [30, 30], facing: 0, alt: 6000, speed: 3.0}
turns: 20
`

func airfield(t *testing.T, scn string) *game {
	t.Helper()
	g, err := Ruleset{Env: testEnv(t)}.NewGame([]byte(scn), nil, "airfield.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g.(*game)
}

// groundTurn plays impulse-game rounds until the turn ends, WILD ordered as given each time it is
// asked, BLUE1 flying forwards.
func groundTurn(t *testing.T, g *game, wild string, d *labelDice) (*game, []Event) {
	t.Helper()
	turn := g.st.Turn
	var all []Event
	for guard := 0; g.st.Turn == turn && guard < 50; guard++ {
		orders := map[string]string{}
		for _, u := range g.Units("ann") {
			if u == "WILD" {
				chk := g.CheckOrder("ann", "WILD", wild)
				if !chk.OK() {
					t.Fatalf("WILD %q: %v", wild, chk.Errors)
				}
				orders["WILD"] = chk.Canonical
			}
		}
		for _, u := range g.Units("ben") {
			orders[u] = "1"
		}
		next, log, err := g.Resolve(orders, d)
		if err != nil {
			t.Fatal(err)
		}
		var evs []Event
		if err := jsonEvents(log, &evs); err != nil {
			t.Fatal(err)
		}
		all = append(all, evs...)
		g = next.(*game)
	}
	return g, all
}

// TestEngineStart (seed 001 IV.2, IV.3): a plane on the ground tries to start its engine once a turn, in
// impulse 7 (house table: a D6 of 4 or more); once it starts, one power factor at once: speed 1 next turn.
func TestEngineStart(t *testing.T) {
	g := airfield(t, airfieldGame)
	if u := g.Units("ann"); len(u) != 1 || u[0] != "WILD" {
		t.Fatalf("ann is asked for %v", u)
	}
	d := &labelDice{want: map[string]int{"turn 1 impulse 7 WILD engine start: D6": 3, "turn 2 impulse 7 WILD engine start: D6": 4}}
	g, evs := groundTurn(t, g, "IDLE", d)
	text := kindTexts(evs, EvEngineStart)
	if !strings.Contains(text, "WILD's engine did not start (D6 3, 4 needed)") || g.st.Plane("WILD").Ground.Engine {
		t.Errorf("turn 1:\n%s", text)
	}
	for _, e := range evs {
		if e.Kind == EvEngineStart && e.Impulse != 7 {
			t.Errorf("an engine start in impulse %d", e.Impulse)
		}
	}
	g, evs = groundTurn(t, g, "IDLE", d)
	p := g.st.Plane("WILD")
	if !strings.Contains(kindTexts(evs, EvEngineStart), "WILD's engine started (D6 4)") || !p.Ground.Engine || p.Flight.Speed.Round() != 1 {
		t.Errorf("turn 2: engine %v, speed %v:\n%s", p.Ground.Engine, p.Flight.Speed, kindTexts(evs, EvEngineStart))
	}
	// Power may be used from the turn after the engine started.
	if chk := g.CheckOrder("ann", "WILD", "P"); !chk.OK() {
		t.Errorf("power the turn after the engine started: %v", chk.Errors)
	}
}

// TestGroundPowerRollAndTurns (seed 001 IV.4-7): with its engine running a plane on the ground takes one
// power or brake factor a turn (one whole speed point, house reading), rolls one hex ahead in each active
// impulse of its speed, turns up to three hexsides a turn, free, only at speed 0 or 1, and stays in
// level bank.
func TestGroundPowerRollAndTurns(t *testing.T) {
	// A Thunderbolt: it takes off at speed 3, so it is still rolling at speed 2.
	scn := strings.Replace(airfieldGame, "on_ground: true}", "on_ground: true, engine_running: true, bank: RB}", 1)
	g := airfield(t, strings.Replace(scn, "type: f4f-4", "type: p-47d", 1))
	if g.st.Plane("WILD").Flight.Bank != notation.BankN {
		t.Errorf("a plane on the ground is in level bank: %s", g.st.Plane("WILD").Flight.Bank)
	}
	d := &labelDice{}
	g, _ = groundTurn(t, g, "R3 P", d)
	p := g.st.Plane("WILD")
	if p.Flight.Facing != 6 || p.Flight.Speed.Round() != 1 || p.Flight.Hex != (hex.Hex{}) {
		t.Fatalf("after R3 P at speed 0: facing %v, speed %v, hex %v", p.Flight.Facing, p.Flight.Speed, p.Flight.Hex)
	}
	g, _ = groundTurn(t, g, "P", d)
	p = g.st.Plane("WILD")
	if p.Flight.Hex != (hex.Hex{}).Neighbor(6) || p.Flight.Speed.Round() != 2 {
		t.Fatalf("speed 1 rolls one hex (impulse 8): %v, speed %v", p.Flight.Hex, p.Flight.Speed)
	}
	for text, code := range map[string]string{"R1": "ground-turn", "P K": CodeGroundTwice, "R4": CodeGroundWord, "P P": CodeGroundTwice, "K": ""} {
		chk := g.CheckOrder("ann", "WILD", text)
		switch {
		case code == "" && !chk.OK():
			t.Errorf("%q: %v", text, chk.Errors)
		case code != "" && (chk.OK() || chk.Errors[0].Code != code):
			t.Errorf("%q: %v, want %s", text, chk.Errors, code)
		}
	}
	if chk := g.CheckOrder("ann", "WILD", "R1"); chk.OK() || chk.Errors[0].Code != "ground-turn" || chk.Errors[0].Col != 1 {
		t.Errorf("a turn at speed 2: %v", chk.Errors)
	}
	if _, ds := ParseGroundOrder("P K"); len(ds) == 0 || ds[0].Code != CodeGroundTwice || ds[0].Col != 3 {
		t.Errorf("power and brake together: %v", ds)
	}
}

// TestTakeOff: a plane whose speed reaches its lowest flying speed at sea level leaves the ground at the
// end of the turn and is asked for manoeuvres like any other plane from the next.
func TestTakeOff(t *testing.T) {
	need := takeoffSpeed(card(t, "f4f-4"), 0)
	scn := strings.Replace(airfieldGame, "speed: 0, on_ground: true}", "speed: "+itoa(need-1)+", on_ground: true, engine_running: true}", 1)
	g := airfield(t, scn)
	g, evs := groundTurn(t, g, "P", &labelDice{})
	p := g.st.Plane("WILD")
	if p.Ground != nil || !strings.Contains(kindTexts(evs, EvMove), "WILD left the ground at speed "+itoa(need)) {
		t.Fatalf("no take-off at speed %d:\n%s", need, kindTexts(evs, EvMove))
	}
	if chk := g.CheckOrder("ann", "WILD", "` +2 ` +2 TR"); !chk.OK() {
		t.Errorf("the first manoeuvre in the air: %v", chk.Errors)
	}
	if g.DefaultOrder("WILD") == "IDLE" {
		t.Error("an airborne plane's default is a manoeuvre")
	}
}

// TestCarrierDeck (seed 001 IV.8, house reading): a plane on a carrier's deck moves with the ship and
// faces down its deck; the ship's speed counts towards its take-off; a plane not in the ship's hex, or
// a carrier that is not its side's ship, is refused by the scenario check.
func TestCarrierDeck(t *testing.T) {
	scn := strings.Replace(airfieldGame, "hex: [0, 0], facing: 0, alt: 0, speed: 0, on_ground: true}", "hex: [10, 0], facing: 4, alt: 0, speed: 0, on_ground: true, engine_running: true, carrier: CV1}", 1)
	g := airfield(t, scn)
	p := g.st.Plane("WILD")
	// The Wildcat takes off at speed 2 from the ground, at 1 from a deck steaming at 2.
	if p.Flight.Facing != 0 || takeoffSpeed(card(t, "f4f-4"), 2) != 1 || takeoffSpeed(card(t, "f4f-4"), 0) != 2 {
		t.Errorf("on deck: facing %v", p.Flight.Facing)
	}
	g, _ = groundTurn(t, g, "IDLE", &labelDice{})
	if p := g.st.Plane("WILD"); p.Flight.Hex != (hex.Hex{Q: 10, R: -2}) || p.Ground == nil || p.Ground.Carrier != "CV1" {
		t.Errorf("the plane moves with its carrier: %v", p.Flight.Hex)
	}
	if chk := g.CheckOrder("ann", "WILD", "R1"); chk.OK() {
		t.Error("a plane on a deck does not turn")
	}
	g, evs := groundTurn(t, g, "P", &labelDice{})
	if p := g.st.Plane("WILD"); p.Ground != nil || !strings.Contains(kindTexts(evs, EvMove), "WILD left CV1's deck at speed 1") {
		t.Errorf("a carrier take-off:\n%s", kindTexts(evs, EvMove))
	}
	for _, bad := range []string{
		strings.Replace(scn, "hex: [10, 0], facing: 4, alt: 0", "hex: [9, 0], facing: 4, alt: 0", 1),
		strings.Replace(scn, "carrier: CV1", "carrier: BLUE1", 1),
		strings.Replace(scn, "impulse: true", "impulse: false", 1),
	} {
		if _, err := (Ruleset{Env: testEnv(t)}).NewGame([]byte(bad), nil, "x.yaml"); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
	_ = strike.Heavy
}

// FuzzParseGroundOrder: any text gives an order or positioned errors, never a panic, and a good order
// prints to text that reads back the same.
func FuzzParseGroundOrder(f *testing.F) {
	for _, s := range []string{"IDLE", "R3 P", "l2 k", "P K", "R4", "", "  P  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ds := ParseGroundOrder(s)
		if parser.HasErrors(ds) {
			return
		}
		back, ds2 := ParseGroundOrder(o.String())
		if parser.HasErrors(ds2) || back.String() != o.String() {
			t.Fatalf("%q printed as %q read back as %q", s, o.String(), back.String())
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

func jsonEvents(log *ruleset.Log, out *[]Event) error {
	if log == nil || len(log.Events) == 0 {
		return nil
	}
	return json.Unmarshal(log.Events, out)
}
