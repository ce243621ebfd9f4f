package mailer_test

import (
	"testing"
	"time"

	"sortie/mailer"
	"sortie/mailer/localmail"
)

// TestSenderKeepsItsConnection: passes after the first reuse its connection (one session on the server
// for three kicks), and once KeepOpen has passed without mail the connection is closed (QUIT) and the
// next pass opens a new one. Waits are for what the server saw, never for a while.
func TestSenderKeepsItsConnection(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	box := newSenderOutbox()
	opts := senderOptions(t, srv)
	opts.Poll = time.Minute
	opts.KeepOpen = time.Hour
	s := mailer.NewSender(opts, box)
	runSender(t, s)
	for n := 1; n <= 3; n++ {
		box.add(senderItem(n))
		s.Kick()
		senderWaitFor(t, "the mail", func() bool { return len(srv.Received()) == n })
	}
	if n := srv.Sessions(); n != 1 {
		t.Fatalf("%d connections for three passes, want one kept open", n)
	}

	srv2 := startSenderSMTP(t, localmail.SMTPOptions{})
	opts = senderOptions(t, srv2)
	opts.Poll = time.Minute
	opts.KeepOpen = time.Millisecond
	box2 := newSenderOutbox()
	s2 := mailer.NewSender(opts, box2)
	runSender(t, s2)
	box2.add(senderItem(1))
	s2.Kick()
	senderWaitFor(t, "the mail", func() bool { return len(srv2.Received()) == 1 })
	senderWaitFor(t, "the connection closed once KeepOpen passed", func() bool { return srv2.Quits() == 1 })
	box2.add(senderItem(2))
	s2.Kick()
	senderWaitFor(t, "the second mail", func() bool { return len(srv2.Received()) == 2 })
	if n := srv2.Sessions(); n != 2 {
		t.Fatalf("%d connections, want a new one after KeepOpen", n)
	}
	if ids := receivedIDs(srv); len(ids) != 3 {
		t.Fatalf("received %v", ids)
	}
}

// TestSenderReconnectsWhenTheKeptConnectionDies: the server drops the kept connection while it waits;
// the next mail still goes out at once, on a new connection, exactly once and not marked failed: found
// dead by the NOOP a pass sends on a connection idle for a while, and by the first MAIL FROM on one used
// moments ago.
func TestSenderReconnectsWhenTheKeptConnectionDies(t *testing.T) {
	t.Run("noop", func(t *testing.T) {
		testSenderReconnects(t, -1) // always asked

	})
	t.Run("mail-from", func(t *testing.T) {
		testSenderReconnects(t, time.Hour)
	})
}

func testSenderReconnects(t *testing.T, fresh time.Duration) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	box := newSenderOutbox()
	opts := senderOptions(t, srv)
	opts.Poll = time.Minute
	// A backoff of an hour: the mails after the drop arrive only if the dead connection is replaced at
	// once (counted, not timed).
	opts.Backoff = time.Hour
	opts.FreshConn = fresh
	s := mailer.NewSender(opts, box)
	runSender(t, s)
	box.add(senderItem(1))
	s.Kick()
	senderWaitFor(t, "the first mail recorded as sent", func() bool { sent, _, _ := box.snapshot(); return sent["out-1"] == 1 })
	srv.DropConnections()
	senderWaitFor(t, "the server to have closed the kept connection", func() bool { return srv.Quits() >= 1 })

	box.add(senderItem(2), senderItem(3))
	s.Kick()
	senderWaitFor(t, "the mails after the drop (a dead kept connection replaced at once, not after a backoff)", func() bool { return len(srv.Received()) == 3 })
	// The server has them; the sender records each as sent just after the server's answer.
	senderWaitFor(t, "the mails after the drop recorded", func() bool {
		sent, failed, _ := box.snapshot()
		return sent["out-2"]+sent["out-3"]+len(failed) >= 2
	})
	sent, failed, _ := box.snapshot()
	if sent["out-2"] != 1 || sent["out-3"] != 1 || len(failed) != 0 {
		t.Fatalf("sent %v, failed %v", sent, failed)
	}
	if ids := receivedIDs(srv); ids["<report-2@sortie.test>"] != 1 || ids["<report-3@sortie.test>"] != 1 {
		t.Fatalf("received %v", ids)
	}
	if n := srv.Sessions(); n != 2 {
		t.Errorf("%d connections, want the first and one new", n)
	}
}

// TestSenderWarmOpensAhead: Warm opens a connection before there is mail, so the mail that follows
// uses it; with KeepOpen negative the sender neither warms nor keeps (one connection per pass).
func TestSenderWarmOpensAhead(t *testing.T) {
	srv := startSenderSMTP(t, localmail.SMTPOptions{})
	box := newSenderOutbox()
	opts := senderOptions(t, srv)
	opts.Poll = time.Minute
	s := mailer.NewSender(opts, box)
	runSender(t, s)
	time.Sleep(20 * time.Millisecond)
	s.Warm(time.Minute)
	senderWaitFor(t, "a connection opened ahead", func() bool { return srv.Sessions() == 1 })
	box.add(senderItem(1))
	s.Kick()
	senderWaitFor(t, "the mail", func() bool { return len(srv.Received()) == 1 })
	if n := srv.Sessions(); n != 1 {
		t.Fatalf("%d connections, want the warm one used", n)
	}

	srv2 := startSenderSMTP(t, localmail.SMTPOptions{})
	opts = senderOptions(t, srv2)
	opts.Poll = time.Minute
	opts.KeepOpen = -1
	box2 := newSenderOutbox()
	s2 := mailer.NewSender(opts, box2)
	runSender(t, s2)
	s2.Warm(time.Minute)
	for n := 1; n <= 2; n++ {
		box2.add(senderItem(n))
		s2.Kick()
		senderWaitFor(t, "the mail", func() bool { return len(srv2.Received()) == n })
	}
	if n := srv2.Sessions(); n != 2 {
		t.Fatalf("KeepOpen -1: %d connections for two passes, want two", n)
	}
}
