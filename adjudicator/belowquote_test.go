package adjudicator

import (
	"strings"
	"testing"
)

// outlookReply is a reply as Outlook writes it: what the player wrote on top, then the report below a
// "-----Original Message-----" line without '>' marks, with the block filled in where it stood.
func outlookReply(top, block string) string {
	return top + "\n\n-----Original Message-----\nFrom: Sortie <sortie@sortie.test>\nSent: Monday, November 23, 2026 9:00 AM\n" +
		"To: Alice <alice@players.test>\nSubject: [g1] turn 1\n\nThe sky is clear.\n\n" + block + "\n\nSortie\n"
}

// TestOrdersFilledInBelowTheOriginalMessage: a player who fills in the block where it stands in the
// quoted report, below Outlook's separator, has the orders read, and the receipt says which block was
// used; a block there that is for another turn, or that does not identify the sender, is not used, and
// the answer says why. A block inside a '>' quote gets the answer that says so.
func TestOrdersFilledInBelowTheOriginalMessage(t *testing.T) {
	f := newFixture(t, 0)
	alice := f.s.replyTo(f.game().seat("alice"))
	send := func(id, to, text, full string) Outcome {
		t.Helper()
		o, err := f.s.Submit(Envelope{From: "alice@players.test", MessageID: id, Text: text, Full: full, Size: len(full), To: []string{to}})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}

	// For another turn: not used, and the answer names the block's line and the turn.
	full := outlookReply("Here you go.", "GAME g1 TURN 2\nRED1: 1 TL 4 HOLD\nRED2: 6\nEND")
	if o := send("b1@players.test", alice, "Here you go.\n", full); o != Refused {
		t.Fatalf("a block for the wrong turn below the quote: %s", o)
	}
	last := f.last("alice@players.test")
	if !strings.Contains(last.Body, "line 11 of your mail is for turn 2, and game g1 is at turn 1") {
		t.Errorf("the answer must say why the block below was not used:\n%s", last.Body)
	}

	// The current turn, sent to the reply address: used, and said.
	full = outlookReply("Here you go.", "GAME g1 TURN 1\nRED1: 1 TL 4 HOLD\nRED2: 6\nEND")
	if o := send("b2@players.test", alice, "Here you go.\n", full); o != Accepted {
		t.Fatalf("the block below the quote: %s\n%s", o, f.last("alice@players.test").Body)
	}
	last = f.last("alice@players.test")
	if !strings.Contains(last.Body, "read the one you filled in below it, at line 11") || !strings.Contains(last.Body, "1 TL 4 HOLD") {
		t.Errorf("the receipt must say which block was used:\n%s", last.Body)
	}
	if got := f.game().Round; got != 1 {
		t.Fatalf("round %d", got)
	}

	// From a stranger's address to the service's: the block does not identify the sender.
	o, err := f.s.Submit(Envelope{From: "eve@elsewhere.test", MessageID: "b3@elsewhere.test", Text: "hi\n",
		Full: outlookReply("hi", "GAME g1 TURN 1\nRED1: 6\nEND"), To: []string{"sortie@sortie.test"}})
	if err != nil || o != Refused {
		t.Fatalf("a stranger's block below the quote: %s %v", o, err)
	}
	if body := f.last("eve@elsewhere.test").Body; !strings.Contains(body, "does not identify you") || strings.Contains(body, "turn 1") {
		t.Errorf("the stranger is told the block does not identify them, and nothing of the game:\n%s", body)
	}

	// Filled in inside a '>' quote: the answer says the only GAME line is quoted.
	quoted := "Orders below.\n\nOn Mon, Sortie wrote:\n> The sky is clear.\n> GAME g1 TURN 1\n> RED1: 6\n> END\n"
	if o := send("b4@players.test", alice, "Orders below.\n", quoted); o != Refused {
		t.Fatalf("a quoted block: %s", o)
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "the only GAME line Sortie found is quoted") {
		t.Errorf("the answer must say the block is quoted:\n%s", body)
	}
}
