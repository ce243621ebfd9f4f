package mailer_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"sortie/mailer"
	"sortie/mailer/localmail"
)

// TestIntakeServerRestartMidFetch drops the IMAP connection in the middle of a batch, after a message
// was handled but before it could be moved: nothing is lost, the interrupted message is handed over
// again (the daemon's handler recognises it by Message-ID), and every message ends in Processed.
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
	if seen[1] != 1 || seen[2] != 1 {
		t.Errorf("messages moved before the restart must not come again: %v", seen)
	}
	if len(mustMessages(t, srv, "INBOX")) != 0 {
		t.Error("the inbox must be empty")
	}
}
