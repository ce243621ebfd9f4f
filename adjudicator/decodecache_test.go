package adjudicator

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"sortie/storage"
)

// TestCloneGameCoversEveryField: cloneGame copies every field of Game that holds a reference, so a game
// record handed out by the decode cache never shares memory with the cached one. A new slice, map or
// pointer field in Game (or in a struct it holds) fails here until cloneGame copies it.
func TestCloneGameCoversEveryField(t *testing.T) {
	shared := []string{"Waiting", "Seats", "Reminded", "Rollbacks"} // what cloneGame copies
	var bad []string
	var walk func(t reflect.Type, path string, top bool)
	walk = func(t reflect.Type, path string, top bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			name := path + f.Name
			if top && slices.Contains(shared, f.Name) {
				if el := f.Type.Elem(); el.Kind() == reflect.Struct {
					walk(el, name+"[].", false) // the elements are copied by value: they must share nothing
				} else if refKind(el) {
					bad = append(bad, name+"[]")
				}
				continue
			}
			switch {
			case f.Type == reflect.TypeOf(time.Time{}): // its location pointer is never written through
			case f.Type.Kind() == reflect.Struct:
				walk(f.Type, name+".", false)
			case refKind(f.Type):
				bad = append(bad, name)
			}
		}
	}
	walk(reflect.TypeOf(Game{}), "", true)
	if len(bad) > 0 {
		t.Fatalf("cloneGame would share %v with the cached game: copy them in cloneGame", bad)
	}

	g := &Game{Waiting: []string{"a"}, Seats: []Seat{{Player: "alice"}}, Reminded: []string{"24h"}}
	c := cloneGame(g)
	c.Waiting[0], c.Seats[0].Player, c.Reminded[0] = "x", "x", "x"
	if g.Waiting[0] != "a" || g.Seats[0].Player != "alice" || g.Reminded[0] != "24h" {
		t.Fatalf("the clone shares memory: %+v", g)
	}
}

func refKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	}
	return false
}

// checkDecodeCache: in a write transaction the cache gives what a decode of the stored bytes gives, and a
// change to the record it handed out does not reach the next caller.
func checkDecodeCache(t *testing.T, f *fixture, when string) {
	t.Helper()
	err := f.db.Update(func(tx *storage.Tx) error {
		want, err := getGame(tx, "g1")
		if err != nil {
			return err
		}
		got, err := f.s.cachedGameRecord(tx, "g1")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: cached game record differs from the stored one:\n got %+v\nwant %+v", when, got, want)
		}
		got.Round, got.Seats[0].Player, got.Waiting = 99, "mallory", append(got.Waiting, "mallory")
		if again, _ := f.s.cachedGameRecord(tx, "g1"); !reflect.DeepEqual(again, want) {
			t.Errorf("%s: a change to a handed-out record reached the cache", when)
		}
		rg, err := f.s.cachedRules(tx, want)
		if err != nil {
			return err
		}
		saved, err := rg.Save()
		if err != nil {
			return err
		}
		stored, err := tx.Get(bucketState, "g1")
		if err != nil {
			return err
		}
		if string(saved) != string(stored) {
			t.Errorf("%s: the cached ruleset game is not the stored state", when)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDecodeCacheFollowsEveryChange plays the same mails through SubmitBatch (one transaction, the cache
// warm from mail to mail, a round resolved in the middle) and through Submit on a service without the
// cache: every answer is the same, and the cache answers what the database holds after each step.
func TestDecodeCacheFollowsEveryChange(t *testing.T) {
	mails := []Envelope{
		{From: "alice@players.test", MessageID: "a1", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nWAIT\nEND"},
		{From: "bob@players.test", MessageID: "b1", Text: "GAME g1 TURN 1 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND"},
		{From: "alice@players.test", MessageID: "a2", Text: "GAME g1 TURN 1 SECRET wrong-secret-0000\nRED2: 6\nEND"},
		{From: "alice@players.test", MessageID: "a3", Text: "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 1 TL 4\nREADY\nEND"}, // completes the round
		{From: "bob@players.test", MessageID: "b2", Text: "GAME g1 TURN 2 SECRET kite-heron-0002\nKURT: 5 HOLD\nHANS: 6\nEND"},
		{From: "mod@players.test", MessageID: "m1", Text: "GAME g1 SECRET mod-secret-0009\nEXTEND 24\nEND"},
		{From: "alice@players.test", MessageID: "a4", Text: "GAME g1 TURN 2 SECRET lark-swift-0001\nRED1: 6\nEND"},
	}
	for i := range mails {
		mails[i].To = []string{"sortie@sortie.test"}
		mails[i].Size = len(mails[i].Text)
	}

	batch := newFixture(t, 0)
	checkDecodeCache(t, batch, "at the start")
	outcomes, err := batch.s.SubmitBatch(mails)
	if err != nil {
		t.Fatal(err)
	}
	checkDecodeCache(t, batch, "after the batch")

	plain := newFixture(t, 0)
	plain.s.decoded.off = true
	for i, env := range mails {
		o, err := plain.s.Submit(env)
		if err != nil {
			t.Fatal(err)
		}
		if o != outcomes[i] {
			t.Errorf("mail %s: %s in the batch, %s on its own without the cache", env.MessageID, outcomes[i], o)
		}
	}
	for _, addr := range []string{"alice@players.test", "bob@players.test", "mod@players.test"} {
		got, want := batch.outbox(addr), plain.outbox(addr)
		if len(got) != len(want) {
			t.Fatalf("%s: %d mails with the cache, %d without", addr, len(got), len(want))
		}
		for i := range got {
			if stable(got[i].Subject) != stable(want[i].Subject) || stable(got[i].Body) != stable(want[i].Body) {
				t.Errorf("%s, mail %d (%s): differs with the cache:\n%s\n--- without:\n%s", addr, i, got[i].Kind, stable(got[i].Body), stable(want[i].Body))
			}
		}
	}
	record := func(f *fixture) *Game {
		var g *Game
		f.db.View(func(tx *storage.Tx) (err error) { g, err = getGame(tx, "g1"); return err })
		return g
	}
	got, want := record(batch), record(plain)
	if got.Round != 2 || got.Round != want.Round || !got.Deadline.Equal(want.Deadline) || !got.AllInAt.Equal(want.AllInAt) ||
		!slices.Equal(got.Waiting, want.Waiting) || got.Notices != want.Notices {
		t.Errorf("game record with the cache %+v\nwithout %+v", got, want)
	}
}

// TestPutGameIfChanged: an order mail that changes nothing of the game record does not write it; one
// that does (WAIT) does.
func TestPutGameIfChanged(t *testing.T) {
	f := newFixture(t, 0)
	stored := func() string {
		var b []byte
		f.db.View(func(tx *storage.Tx) (err error) { b, err = tx.Get(bucketGames, "g1"); return err })
		return string(b)
	}
	f.mail("alice@players.test", "a1", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND")
	before := stored()
	f.mail("alice@players.test", "a2", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 1 TL 4\nEND")
	if stored() != before {
		t.Error("an order that changes nothing of the game rewrote its record")
	}
	f.mail("alice@players.test", "a3", "GAME g1 TURN 1 SECRET lark-swift-0001\nWAIT\nEND")
	var g *Game
	f.db.View(func(tx *storage.Tx) (err error) { g, err = getGame(tx, "g1"); return err })
	if !slices.Equal(g.Waiting, []string{"alice"}) {
		t.Errorf("WAIT was not stored: waiting %v", g.Waiting)
	}
}

// TestSameGameCoversEveryField: changing any one field of a game record (or of one of its seats) makes
// sameGame answer false, so a change is never skipped as "nothing to write". A field added to Game or
// Seat that sameGame does not compare fails here.
func TestSameGameCoversEveryField(t *testing.T) {
	base := Game{Seats: []Seat{{Player: "alice"}}, Waiting: []string{"a"}, Reminded: []string{"24h"}}
	if !sameGame(&base, cloneGame(&base)) {
		t.Fatal("a game and its clone differ")
	}
	changed := func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(time.Time{}) {
				v.Set(reflect.ValueOf(time.Unix(1e9, 0)))
				return
			}
			v.Field(0).SetString(v.Field(0).String() + "x") // NMRPolicy.Mode
		default:
			t.Fatalf("no way to change a %s", v.Type())
		}
	}
	gt := reflect.TypeOf(Game{})
	for i := range gt.NumField() {
		c := cloneGame(&base)
		changed(reflect.ValueOf(c).Elem().Field(i))
		if sameGame(&base, c) {
			t.Errorf("Game.%s changed, but sameGame says the records are the same", gt.Field(i).Name)
		}
	}
	st := reflect.TypeOf(Seat{})
	for i := range st.NumField() {
		c := cloneGame(&base)
		changed(reflect.ValueOf(&c.Seats[0]).Elem().Field(i))
		if sameGame(&base, c) {
			t.Errorf("Seat.%s changed, but sameGame says the records are the same", st.Field(i).Name)
		}
	}
	if sameGame(&Game{Seats: []Seat{}}, &Game{}) {
		t.Error("no seats and an empty list of seats are written differently, but sameGame says the same")
	}
}
