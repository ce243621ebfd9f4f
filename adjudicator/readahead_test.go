package adjudicator

import (
	"strings"
	"testing"
	"time"
)

// TestReadAheadIsTheBlockOfTheText: a block read ahead gives the same receipt as one read by Submit, and
// a Text changed after ReadAhead is read again (the block read ahead is for that text only).
func TestReadAheadIsTheBlockOfTheText(t *testing.T) {
	f := newFixture(t, time.Hour)
	good := "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND\n"
	bad := "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6 XYZZY\nEND\n"

	plain := Envelope{From: "alice@players.test", To: []string{"sortie@sortie.test"}, MessageID: "a1@players.test", Text: good, Size: len(good)}
	if o, err := f.s.Submit(plain); err != nil || o != Accepted {
		t.Fatalf("%s %v", o, err)
	}
	want := f.last("alice@players.test").Body

	ahead := Envelope{From: "alice@players.test", To: []string{"sortie@sortie.test"}, MessageID: "a2@players.test", Text: good, Size: len(good)}
	ahead.ReadAhead()
	if o, err := f.s.SubmitBatch([]Envelope{ahead}); err != nil || o[0] != Accepted {
		t.Fatalf("%v %v", o, err)
	}
	if got := f.last("alice@players.test").Body; got != want {
		t.Errorf("receipt from a block read ahead:\n%s\nwant:\n%s", got, want)
	}

	changed := Envelope{From: "alice@players.test", To: []string{"sortie@sortie.test"}, MessageID: "a3@players.test", Text: good, Size: len(good)}
	changed.ReadAhead()
	changed.Text = bad
	if _, err := f.s.Submit(changed); err != nil {
		t.Fatal(err)
	}
	if got := f.last("alice@players.test").Body; !strings.Contains(got, "NOT STORED") {
		t.Errorf("a Text changed after ReadAhead was not read again:\n%s", got)
	}
}
