package mailer_test

import (
	"sync"
	"testing"
	"time"

	"sortie/mailer"
	"sortie/mailer/localmail"
)

// TestIntakeSpoolMailDuringRefileIsNoticed: a mail delivered while a spooled backlog is handled (after
// its MOVE) is seen at once, also when rejected mail is moved on from Processed: that SELECTs
// Processed, then INBOX again, whose EXISTS is the SELECT's answer and not news.
func TestIntakeSpoolMailDuringRefileIsNoticed(t *testing.T) {
	for _, reject := range []bool{false, true} {
		name := "no reject"
		if reject {
			name = "a reject (refile)"
		}
		t.Run(name, func(t *testing.T) {
			srv := startIntakeIMAP(t, localmail.IMAPOptions{})
			deliverIntakeMails(t, srv, 20)
			var once sync.Once
			handled21 := make(chan time.Time, 1)
			var delivered time.Time
			rec := newIntakeRecorder(func(m mailer.Message, _ int) mailer.Disposition {
				switch m.UID {
				case 2:
					if reject {
						return mailer.Rejected
					}
				case 20:
					once.Do(func() {
						intakeWaitFor(t, "the MOVE of 1..20", func() bool { return len(mustMessages(t, srv, "Processed")) == 20 })
						delivered = time.Now()
						if err := srv.Deliver("gm", intakeMail(21)); err != nil {
							t.Error(err)
						}
					})
				case 21:
					select {
					case handled21 <- time.Now():
					default:
					}
				}
				return mailer.Processed
			})
			go func() {
				for range rec.got {
				}
			}()
			opts := intakeOptions(t, srv)
			opts.Poll = time.Hour // unnoticed, mail 21 would wait for this, far beyond the hang guard
			in := mailer.NewIntake(opts, newSpoolCursor(), rec)
			in.Hot(time.Minute) // a round waits on its last mail: NOOP every 10 ms (localmail's IDLE does not flush pending EXISTS)
			runIntake(t, in)
			select {
			case at := <-handled21:
				t.Logf("mail 21 handled %v after delivery", at.Sub(delivered))
			case <-time.After(hangGuard):
				t.Fatalf("mail 21, delivered while the backlog was handled, not handled within %v (Poll is %v): it was not noticed", hangGuard, opts.Poll)
			}
		})
	}
}
