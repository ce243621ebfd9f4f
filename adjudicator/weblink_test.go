package adjudicator

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"sortie/rules/dice"
	"sortie/storage"
)

// With the web archive's address configured, every report carries its player's own link, and only that
// player's: the links differ per player and are the ones PlayerLink gives.
func TestReportsCarryTheirPlayersWebLink(t *testing.T) {
	f := newFogGame(t, "afd", 1)
	base := "https://games.example.org/sortie/"
	f.s.cfg.WebBase = base
	play(f)
	links := map[string]string{}
	for _, p := range []string{"alice", "bob"} {
		path, err := f.s.PlayerLink("g1", p)
		if err != nil {
			t.Fatal(err)
		}
		links[p] = base + path
	}
	if links["alice"] == links["bob"] {
		t.Fatal("alice and bob have the same link")
	}
	// The moderator's status gives each player's link, to pass on to one who lost it.
	st, err := f.s.Status("g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, seat := range st.Seats {
		if seat.WebLink != links[seat.Player] {
			t.Errorf("status gives %s the link %q, want %q", seat.Player, seat.WebLink, links[seat.Player])
		}
	}
	for p, other := range map[string]string{"alice": "bob", "bob": "alice"} {
		reports := 0
		for _, m := range f.mails(p + "@players.test") {
			if m.Kind != "report" {
				continue
			}
			reports++
			if !strings.Contains(m.Body, links[p]) {
				t.Errorf("%s's report lacks their link %s:\n%s", p, links[p], m.Body)
			}
			if strings.Contains(m.Body, links[other]) {
				t.Errorf("%s's report carries %s's link", p, other)
			}
		}
		if reports == 0 {
			t.Fatalf("%s got no report", p)
		}
	}
	// Without the address, no link.
	g := newFogGame(t, "afd", 1)
	play(g)
	for _, m := range g.mails("alice@players.test") {
		if strings.Contains(m.Body, "/p/g1/") {
			t.Errorf("a %s mail carries a web link with no web archive configured", m.Kind)
		}
	}
}

// play has alice send her default orders and bob none, and lets the deadline pass: turn 1 resolves.
func play(f *fogGame) {
	f.t.Helper()
	lines := orderLines(f.mails("alice@players.test")[0].Body)
	f.mail("alice@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\n"+strings.Join(lines, "\n")+"\nEND")
	f.now = f.now.Add(49 * time.Hour)
	f.tick()
	if st, err := f.s.Status("g1"); err != nil || st.Round != 2 {
		f.t.Fatalf("turn 1 did not resolve: %+v %v", st, err)
	}
}

// A seat stored before seats carried a link nonce keeps the link it always had: the key of a seat without
// one is the seed's, the game's and the player's alone, exactly as before, so the links in mails already
// sent keep working after an upgrade. RENEW moves one seat's key and no other.
func TestSeatsWithoutANonceKeepTheirLinks(t *testing.T) {
	seed, err := dice.ParseSeed(testSeed)
	if err != nil {
		t.Fatal(err)
	}
	// The keys the derivation gave before seats had a nonce, for this seed, game and players.
	want := map[string]string{"alice": "e992bdc7d455747099890ecf79b8f5a2", "bob": "67eca0f184797b255233af3c406458d4"}
	for p, k := range want {
		if got := PlayerKey(seed, "g1", p, ""); got != k {
			t.Errorf("%s's key without a nonce is %s, was %s", p, got, k)
		}
	}
	f := newFixture(t, 0)
	var raw []byte
	f.db.View(func(tx *storage.Tx) error { raw, _ = tx.Get(bucketGames, "g1"); return nil })
	if len(raw) == 0 || bytes.Contains(raw, []byte("link_nonce")) {
		t.Fatalf("a game never handed on stores a link nonce (or nothing):\n%s", raw)
	}
	for p, k := range want {
		if path, err := f.s.PlayerLink("g1", p); err != nil || path != "p/g1/"+k+"/" || f.webKey(p) != k {
			t.Errorf("%s's link is %s (%v), the web archive's key %s; want the key %s", p, path, err, f.webKey(p), k)
		}
	}
	f.mod("RENEW", "bob")
	if f.webKey("alice") != want["alice"] || f.webKey("bob") == want["bob"] {
		t.Errorf("after RENEW bob: alice %s, bob %s", f.webKey("alice"), f.webKey("bob"))
	}
	if k := PlayerKey(seed, "g1", "bob", f.game().seat("bob").LinkNonce); k != f.webKey("bob") || k == PlayerKey(seed, "g1", "bob", "") {
		t.Errorf("bob's key after RENEW is not his nonce's: %s", k)
	}
}
