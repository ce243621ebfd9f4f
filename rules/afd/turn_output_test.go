package afd

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"sortie/internal/golden"
	"sortie/rules/afd/aircraft"
	"sortie/rules/afd/notation"
	"sortie/rules/dice"
)

// armed fills every plane's damage boxes and ammunition from its card, as a scenario does.
func armed(t testing.TB, env *Env, st *State) *State {
	t.Helper()
	for i := range st.Planes {
		c, ok := env.Cards.Get(st.Planes[i].Type)
		if !ok {
			t.Fatalf("no card %s", st.Planes[i].Type)
		}
		st.Planes[i].Damage = make([]int, len(c.Systems))
		st.Planes[i].Ammo = Ammo{}
		for _, g := range c.Guns {
			st.Planes[i].Ammo.Set(g.ID, g.Ammo)
		}
	}
	return st
}

// outputCase is a game the output test plays for a few turns.
type outputCase struct {
	name   string
	keyed  bool
	turns  int
	state  func(t testing.TB, env *Env) (*State, map[string]notation.Order)
	impuls func(t testing.TB, env *Env) (*State, map[string]notation.ImpulseOrder)
}

func outputCases() []outputCase {
	layout := func(f func(int) (*State, map[string]notation.Order), n int) func(testing.TB, *Env) (*State, map[string]notation.Order) {
		return func(t testing.TB, env *Env) (*State, map[string]notation.Order) {
			st, orders := f(n)
			return armed(t, env, st), orders
		}
	}
	strike := func(t testing.TB, env *Env) (*State, map[string]notation.Order) { return benchStrikeGame(t, true) }
	var cases []outputCase
	for _, n := range []int{10, 100} {
		for _, keyed := range []bool{false, true} {
			cases = append(cases,
				outputCase{name: fmt.Sprintf("lattice-%d", n), keyed: keyed, turns: 3, state: layout(benchGame, n)},
				outputCase{name: fmt.Sprintf("dense-%d", n), keyed: keyed, turns: 3, state: layout(benchDenseGame, n)})
		}
	}
	cases = append(cases,
		outputCase{name: "strike-40", turns: 2, state: strike},
		outputCase{name: "strike-40", keyed: true, turns: 2, state: strike},
		outputCase{name: "impulse-30", turns: 2, impuls: func(t testing.TB, env *Env) (*State, map[string]notation.ImpulseOrder) {
			return benchImpulseGame(t, 30)
		}})
	return cases
}

// play plays a case and returns one line a turn: the SHA-256 of the new state's JSON, of the events'
// JSON and of the turn's dice log, with how many events and rolls there were. each, if given, is shown
// every turn's events.
func (c outputCase) play(t testing.TB, env *Env, each func([]Event)) []string {
	t.Helper()
	digest := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Error(err)
		}
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:8])
	}
	var lines []string
	seed := dice.SeedFromUint64(1940)
	var st *State
	var plain map[string]notation.Order
	var imp map[string]notation.ImpulseOrder
	if c.impuls != nil {
		st, imp = c.impuls(t, env)
	} else {
		st, plain = c.state(t, env)
	}
	for turn := 1; turn <= c.turns && !st.Over; turn++ {
		var d dice.Source = dice.NewSeeded(seed.Stream(fmt.Sprint(turn)))
		if c.keyed {
			d = dice.NewKeyed(seed.Stream(fmt.Sprint(turn)))
		}
		var next *State
		var events []Event
		var err error
		if c.impuls != nil {
			// The orders are for the first stop; the planes asked later fly their default.
			next, events, err = ResolveImpulse(env, st, imp, d)
			imp = map[string]notation.ImpulseOrder{}
		} else {
			for cs := range plain {
				if p := st.Plane(cs); p == nil || !p.InPlay() {
					delete(plain, cs)
				}
			}
			next, events, err = Resolve(env, st, plain, d)
		}
		if err != nil {
			// Errorf, not Fatalf: cases are played from other goroutines too.
			t.Errorf("%s turn %d: %v", c.name, turn, err)
			return lines
		}
		if each != nil {
			each(events)
		}
		lines = append(lines, fmt.Sprintf("%s keyed=%v turn %d: state %s events %s (%d) dice %s (%d)", c.name, c.keyed, turn,
			digest(next), digest(events), len(events), digest(d.Log()), len(d.Log())))
		st = next
	}
	return lines
}

// TestTurnOutputUnchanged plays the benchmarks' games (the lattice and the dense fight at 10 and 100
// aircraft, the strike over flak sites and ships, an impulse turn) for a few turns with sequential and
// keyed dice, and compares the states, events and dice logs with the golden file by their SHA-256:
// the output archived games are re-run against must not change with how a turn is computed. The games
// are played twice, the second time all at once, so that turns reuse each other's pooled scratch of
// other sizes and kinds; both must give the golden bytes.
func TestTurnOutputUnchanged(t *testing.T) {
	env := testEnv(t)
	cases := outputCases()
	var want []string
	for _, c := range cases {
		want = append(want, c.play(t, env, nil)...)
	}
	golden.File(t, "testdata/turn-output.golden", []byte(strings.Join(want, "\n")+"\n"), *update, "go test ./rules/afd -run TurnOutput -update")

	got := make([][]string, len(cases))
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.play(t, env, nil)
		}()
	}
	wg.Wait()
	var all []string
	for _, g := range got {
		all = append(all, g...)
	}
	if a, b := strings.Join(want, "\n"), strings.Join(all, "\n"); a != b {
		t.Errorf("turns played at once differ from turns played one by one:\n%s\n---\n%s", a, b)
	}
}

// TestTurnsLeaveCardsAlone: resolving turns reads the registry's own cards (Env.Card) and must never
// change them.
func TestTurnsLeaveCardsAlone(t *testing.T) {
	env := testEnv(t)
	reg := env.Cards.(*aircraft.Registry)
	snapshot := func() string {
		var b strings.Builder
		for _, k := range reg.Keys() {
			c, _ := reg.Card(k)
			j, _ := json.Marshal(c)
			b.Write(j)
		}
		return b.String()
	}
	before := snapshot()
	for _, c := range outputCases() {
		c.play(t, env, nil)
	}
	if after := snapshot(); after != before {
		t.Error("resolving turns changed the registry's cards")
	}
	if c, _ := env.Card("bf-109e"); c == nil {
		t.Fatal("no bf-109e")
	} else if g, _ := env.Cards.Get("bf-109e"); g == c {
		t.Error("Env.Card should share the registry's card, Cards.Get copy it")
	}
}

// TestEventRoomHoldsTurns checks that the room a plain turn gives its events up front (eventRoom) holds
// every event of the benchmark games' turns, the first turn's sightings included, so their events
// slice is allocated once (docs/performance.md, Air Force turns).
func TestEventRoomHoldsTurns(t *testing.T) {
	env := testEnv(t)
	for _, n := range []int{10, 100} {
		for name, layout := range map[string]func(int) (*State, map[string]notation.Order){"lattice": benchGame, "dense": benchDenseGame} {
			st, orders := layout(n)
			armed(t, env, st)
			d := dice.NewSeeded(dice.SeedFromUint64(1))
			for turn := 1; turn <= 3 && !st.Over; turn++ {
				room := eventRoom(st)
				ns, events, err := Resolve(env, st, orders, d)
				if err != nil {
					t.Fatal(err)
				}
				if len(events) > room {
					t.Errorf("%s-%d turn %d: %d events, room made for %d", name, n, turn, len(events), room)
				}
				st = ns
				for key := range orders {
					if p := st.Plane(key); p == nil || !p.InPlay() {
						delete(orders, key)
					}
				}
			}
		}
	}
}
