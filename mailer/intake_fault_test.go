package mailer_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"sortie/mailer"
	"sortie/mailer/localmail"
)

// TestIntakeServerRestartMidFetch drops the IMAP connection in the middle of a batch, after some messages
// were handled but before the batch could be moved: nothing is lost, the handled ones are handed over
// again after the reconnect (the daemon's handler recognises them by Message-ID and does nothing), and
// every message ends in Processed.
func TestIntakeServerRestartMidFetch(t *testing.T) {
	srv := startIntakeIMAP(t, localmail.IMAPOptions{})
	for i := 1; i <= 6; i++ {
		srv.Deliver("gm", intakeMail(i))
	}
	opts := intakeOptions(t, srv)
	opts.Poll = time.Minute
	opts.Batch = 10
	var mu sync.Mutex
	seen := map[uint32]int{}
	restarted := false
	h := mailer.HandlerFunc(func(ctx context.Context, m mailer.Message) mailer.Disposition {
		mu.Lock()
		defer mu.Unlock()
		seen[m.UID]++
		if m.UID == 3 && !restarted {
			restarted = true
			srv.RestartListener() // the server goes away in the middle of the batch
		}
		return mailer.Processed
	})
	stop := runIntake(t, mailer.NewIntake(opts, newIntakeCursor(), h))
	defer stop()
	intakeWaitFor(t, "all six moved", func() bool { return len(mustMessages(t, srv, "Processed")) == 6 })
	mu.Lock()
	defer mu.Unlock()
	for uid := uint32(1); uid <= 6; uid++ {
		if seen[uid] == 0 {
			t.Errorf("message %d was never handled", uid)
		}
	}
	for uid, n := range seen {
		if n > 2 {
			t.Errorf("message %d was handed over %d times", uid, n)
		}
	}
	if len(mustMessages(t, srv, "INBOX")) != 0 {
		t.Error("the inbox must be empty")
	}
}
