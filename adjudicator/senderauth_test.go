package adjudicator

import (
	"strings"
	"testing"

	"sortie/storage"
)

// TestUnconfirmedSender: when the moderator's receiving server could not confirm a mail's From
// (Envelope.Unconfirmed, docs/operations.md "Sender authentication"), the address counts for nothing by
// itself, but the secret and the reply token still identify the seat; the receipt, which goes to the
// seat's own address, says what the server found, and a refusal says why and how to get in. The refusal
// is the same whether the game exists and the address plays in it or not (fog: a stranger learns nothing).
func TestUnconfirmedSender(t *testing.T) {
	f := newFixture(t, 0)
	const why = "the check its domain asks receiving servers to make (DMARC) failed"
	submit := func(from, id string, to []string, text string) Outcome {
		t.Helper()
		o, err := f.s.Submit(Envelope{From: from, MessageID: id, To: to, Text: text, Unconfirmed: why})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	// The secret still works, and the player is told.
	if o := submit("alice@players.test", "u1", []string{"sortie@sortie.test"}, "GAME g1 TURN 1 SECRET lark-swift-0001\nRED1: 6\nEND"); o != Accepted {
		t.Fatalf("the secret: %s", o)
	}
	body := f.last("alice@players.test").Body
	if !strings.Contains(body, "could not confirm that this mail came from your address alice@players.test: "+why) || !strings.Contains(body, "because it carried your secret") {
		t.Errorf("receipt of a mail let in by its secret:\n%s", body)
	}
	// So does the reply token.
	var token string
	f.db.View(func(tx *storage.Tx) error { g, _ := getGame(tx, "g1"); token = g.seat("alice").Token; return nil })
	if o := submit("alice@players.test", "u2", []string{"sortie+" + token + "@sortie.test"}, "GAME g1 TURN 1\nRED2: 6\nEND"); o != Accepted {
		t.Fatalf("the reply token: %s", o)
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "because it was sent to your reply address") {
		t.Errorf("receipt of a mail let in by its reply address:\n%s", body)
	}
	// A confirmed mail gets no such note.
	f.mail("alice@players.test", "u3", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 6\nEND")
	if body := f.last("alice@players.test").Body; strings.Contains(body, "could not confirm") {
		t.Errorf("a mail the server did not doubt:\n%s", body)
	}
	// Neither secret nor token: refused with the reason, the same for a player of the game, an address
	// that plays in no game, and a game that does not exist.
	refusal := func(from, id, game string) string {
		t.Helper()
		if o := submit(from, id, []string{"sortie@sortie.test"}, "GAME "+game+" TURN 1\nRED1: 6\nEND"); o != Refused {
			t.Fatalf("no secret, no token: %s", o)
		}
		b := f.last(from).Body
		return strings.NewReplacer(from, "ADDRESS", game, "GAME").Replace(b)
	}
	player := refusal("alice@players.test", "u4", "g1")
	if !strings.Contains(player, "could not confirm that this mail came from\nADDRESS: "+why) || !strings.Contains(player, "still gets you in") {
		t.Errorf("the refusal:\n%s", player)
	}
	if stranger := refusal("mallory@evil.test", "u5", "g1"); stranger != player {
		t.Errorf("a stranger's refusal differs from a player's:\n%s\n----\n%s", stranger, player)
	}
	if nogame := refusal("mallory@evil.test", "u6", "nosuch"); nogame != player {
		t.Errorf("the refusal for a game that does not exist differs:\n%s\n----\n%s", nogame, player)
	}
}

// TestUnconfirmedModerator: the moderator secret still works from an address the server could not
// confirm, and the answer, which goes to the moderator's own address, says what the server found.
func TestUnconfirmedModerator(t *testing.T) {
	f := newFixture(t, 0)
	var mod, secret string
	f.db.View(func(tx *storage.Tx) error {
		g, _ := getGame(tx, "g1")
		mod, secret = g.Moderator, g.ModSecret
		return nil
	})
	if mod == "" {
		t.Skip("the fixture's game has no moderator")
	}
	o, err := f.s.Submit(Envelope{From: mod, MessageID: "m1", To: []string{"sortie@sortie.test"}, Text: "GAME g1 SECRET " + secret + "\nSTATUS\nEND",
		Unconfirmed: "the check its domain asks receiving servers to make (DMARC) failed"})
	if err != nil || o != Accepted {
		t.Fatalf("the moderator's mail: %s %v", o, err)
	}
	if body := f.last(mod).Body; !strings.Contains(body, "could not confirm that this mail came from your address "+mod) || !strings.Contains(body, "STATUS: game g1") {
		t.Errorf("the moderator's answer:\n%s", body)
	}
}
