package adjudicator

import (
	"strings"
	"testing"
	"time"

	"sortie/storage"
)

// TestReceiptSaysTheMailCameFromAnotherAddress: orders sent to a seat's reply address from an address
// that is not the seat's are taken, and the receipt (to the seat's own address) says so.
func TestReceiptSaysTheMailCameFromAnotherAddress(t *testing.T) {
	f := newFixture(t, 0)
	reply := f.s.replyTo(f.game().seat("alice"))
	o, err := f.s.Submit(Envelope{From: "alice.work@office.test", MessageID: "w1@office.test", Text: "GAME g1 TURN 1\nRED1: 6\nEND", To: []string{reply}})
	if err != nil || o != Accepted {
		t.Fatalf("%s %v", o, err)
	}
	body := f.last("alice@players.test").Body
	if !strings.Contains(body, "This mail came from alice.work@office.test, not from your address alice@players.test") {
		t.Errorf("the receipt must say the mail came from another address:\n%s", body)
	}
	if len(f.outbox("alice.work@office.test")) != 0 {
		t.Error("nothing goes to the other address")
	}
	f.mail("alice@players.test", "w2@players.test", "GAME g1 TURN 1 SECRET lark-swift-0001\nRED2: 6\nEND")
	if strings.Contains(f.last("alice@players.test").Body, "This mail came from") {
		t.Error("a mail from the seat's own address is not remarked on")
	}
}

// TestResendAfterTheGameIsOver: a finished game takes no orders, but RESEND still sends the final
// report, and the refusal of orders says so.
func TestResendAfterTheGameIsOver(t *testing.T) {
	f := newFixtureTurns(t, 0, "", 1)
	f.play(1)
	if f.game().Status != StatusOver {
		t.Fatal("the one-turn game is not over")
	}
	var final string
	for _, m := range f.outbox("alice@players.test") {
		if m.Kind == "over" {
			final = m.Body
		}
	}
	if final == "" {
		t.Fatal("no final report")
	}
	if o := f.submit("alice@players.test", "GAME g1 SECRET lark-swift-0001\nRESEND\nEND"); o != Accepted {
		t.Fatalf("RESEND after the end: %s", o)
	}
	if m := f.last("alice@players.test"); m.Kind != "resend" || m.Body != final {
		t.Errorf("RESEND after the end must send the final report again: %s\n%s", m.Kind, m.Body)
	}
	if o := f.submit("alice@players.test", "GAME g1 TURN 2 SECRET lark-swift-0001\nRED1: 6\nEND"); o != Refused {
		t.Fatalf("orders after the end: %s", o)
	}
	if body := f.last("alice@players.test").Body; !strings.Contains(body, "RESEND") {
		t.Errorf("the refusal must say RESEND still works:\n%s", body)
	}
}

// TestHelpNamesAwayAndBack: the guide lists every player command, AWAY and BACK included.
func TestHelpNamesAwayAndBack(t *testing.T) {
	f := newFixture(t, 0)
	f.mail("someone@players.test", "h1", "HELP")
	body := f.last("someone@players.test").Body
	for _, c := range []string{"STATUS", "RESEND", "CLEAR", "WAIT", "READY", "AWAY YYYY-MM-DD", "BACK", "HELP"} {
		if !strings.Contains(body, "\n  "+c+" ") {
			t.Errorf("HELP does not list %s:\n%s", c, body)
		}
	}
}

// TestExtendNoticeInThePlayersTimeZone: the notices that give a new deadline (EXTEND, RESUME, a
// reminder) give it in UTC and in the player's own time zone.
func TestExtendNoticeInThePlayersTimeZone(t *testing.T) {
	f := newFixture(t, 0) // alice plays from Europe/Paris
	f.mod("EXTEND", "12")
	var alice, bob, mod storage.Outgoing
	for _, m := range f.all() {
		if strings.Contains(m.Body, "extended the deadline") {
			switch m.To {
			case "alice@players.test":
				alice = m
			case "bob@players.test":
				bob = m
			case "mod@players.test":
				mod = m
			}
		}
	}
	deadline := f.game().Deadline
	paris, _ := time.LoadLocation("Europe/Paris")
	utc := deadline.Format("Mon 2 Jan 2006 15:04 UTC")
	local := deadline.In(paris).Format("Mon 15:04") + " Europe/Paris"
	if !strings.Contains(alice.Body, utc) || !strings.Contains(alice.Body, local) {
		t.Errorf("alice's notice must give %s and %s:\n%s", utc, local, alice.Body)
	}
	if !strings.Contains(bob.Body, utc) || strings.Contains(bob.Body, "Europe/Paris") || !strings.Contains(mod.Body, utc) {
		t.Errorf("bob and the moderator get UTC:\n%s\n%s", bob.Body, mod.Body)
	}
	if strings.Contains(alice.Body+bob.Body+mod.Body, "\x00") {
		t.Error("a deadline mark was left in a notice")
	}
}
