package storage_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"sortie/mailer/outmail"
	"sortie/storage"
)

// One order mail's whole effect in one transaction: the processed Message-ID, the order and the receipt.
// A replay of the same mail finds the Message-ID and does nothing.
func Example() {
	dir, err := os.MkdirTemp("", "sortie-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := storage.Open(filepath.Join(dir, "sortie.db"), storage.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	handle := func(msgID string, uid uint32) (string, error) {
		outcome := "duplicate"
		err := db.Update(func(tx *storage.Tx) error {
			if _, seen, err := tx.Seen("seat:dunkirk/alice", msgID); err != nil || seen {
				return err
			}
			if err := tx.Put([]string{"orders", "dunkirk", storage.SeqKey(3)}, "alice", []byte("3L2 C1")); err != nil {
				return err
			}
			if _, err := tx.Enqueue(storage.OutMail{Mail: outmail.Mail{
				From: "gm@sortie.test", To: "alice@example.test", Subject: "Dunkirk turn 3: orders received",
				Body: "3L2 C1\n", MessageID: "receipt." + msgID, InReplyTo: msgID,
			}, Game: "dunkirk", Kind: "receipt"}); err != nil {
				return err
			}
			outcome = "accepted"
			return tx.MarkSeen(msgID, storage.SeenRecord{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Outcome: outcome, Scope: "seat:dunkirk/alice"})
		})
		return outcome, err
	}
	fmt.Println(handle("<plot-1@example.test>", 41))
	fmt.Println(handle("<plot-1@example.test>", 41)) // after a crash, the same mail again

	due, _ := db.Pending(time.Now(), 10)
	for _, m := range due {
		fmt.Println(m.ID, m.To, m.Subject)
		_ = db.MarkSent(m.ID, time.Now())
	}
	st, _ := db.OutboxStats()
	fmt.Printf("pending %d, sent %d\n", st.Pending, st.Sent)
	// Output:
	// accepted <nil>
	// duplicate <nil>
	// 00000000000000000001 alice@example.test Dunkirk turn 3: orders received
	// pending 0, sent 1
}
