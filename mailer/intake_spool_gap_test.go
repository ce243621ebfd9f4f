package mailer

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/rs/zerolog"

	"sortie/mailer/localmail"
)

// gapStore is a cursor store and spool in memory.
type gapStore struct {
	mu       sync.Mutex
	uv, last uint32
	held     []uint32
}

func (s *gapStore) LoadCursor(string) (uint32, uint32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.uv, s.last, nil
}

func (s *gapStore) SaveCursor(_ string, uv, last uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uv, s.last = uv, last
	return nil
}

func (s *gapStore) SpoolMessages(_ string, uv uint32, uids []uint32, _ [][]byte, last uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held = append(s.held, uids...)
	if last != 0 {
		s.uv, s.last = uv, last
	}
	return nil
}

func (s *gapStore) Spooled(string, func(uv, uid uint32, raw []byte) error) error { return nil }
func (s *gapStore) Unspool(string, uint32, []uint32) error                       { return nil }

// TestSpoolStreamAtAGap: a stream that lacks a message of its group holds the messages after it only if
// that message is gone from the mailbox (expunged meanwhile); if it is still there (the server did not
// send it), the held run and the cursor stop before it, so nothing is handed over ahead of it.
func TestSpoolStreamAtAGap(t *testing.T) {
	for _, c := range []struct {
		name   string
		gone   bool
		want   []uint32
		cursor uint32
	}{
		{"gone from the mailbox", true, []uint32{1, 2, 4, 5}, 5},
		{"there but not sent", false, []uint32{1, 2}, 2},
		{"gone at the end", true, []uint32{1, 2, 4, 5}, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, err := localmail.StartIMAP(localmail.IMAPOptions{Users: map[string]string{"gm": "pw"}})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			for n := 1; n <= 5; n++ {
				if err := srv.Deliver("gm", []byte(fmt.Sprintf("From: p@example.test\r\nMessage-ID: <m%d@example.test>\r\n\r\nGAME g1\r\n", n))); err != nil {
					t.Fatal(err)
				}
			}
			missing := imap.UID(3)
			if c.name == "gone at the end" {
				missing = 6 // listed, then expunged before the FETCH: the last of the group
			}
			if c.gone && missing == 3 {
				other, err := imapclient.DialInsecure(srv.Addr(), nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := other.Login("gm", "pw").Wait(); err != nil {
					t.Fatal(err)
				}
				if _, err := other.Select("INBOX", nil).Wait(); err != nil {
					t.Fatal(err)
				}
				if _, err := other.Move(imap.UIDSetNum(3), "Rejected").Wait(); err != nil {
					t.Fatal(err)
				}
				other.Close()
			}
			store := &gapStore{}
			in := NewIntake(IntakeOptions{Addr: srv.Addr(), TLS: TLSNone, Username: "gm", Password: "pw", Backoff: 20 * time.Millisecond,
				Logger: zerolog.New(zerolog.NewTestWriter(t))}, store, HandlerFunc(func(context.Context, Message) Disposition { return Processed }))
			ic, err := in.connect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer ic.close()
			group := []imap.UID{1, 2, 3, 4, 5}
			if missing == 6 {
				group = append(group, 6)
			}
			raw := make(chan fetched, len(group))
			for _, uid := range []imap.UID{1, 2, 4, 5} { // out of order too: 4 and 5 wait for what comes before
				raw <- fetched{uid: uid, raw: []byte("x")}
			}
			if missing == 6 {
				raw <- fetched{uid: 3, raw: []byte("x")}
			}
			close(raw)
			got, err := in.spoolStream(ic, store, ic.uidValidity, group, raw)
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "gone at the end" {
				c.want = []uint32{1, 2, 3, 4, 5}
				c.cursor = 6
			}
			gotU := make([]uint32, len(got))
			for k, uid := range got {
				gotU[k] = uint32(uid)
			}
			if !slices.Equal(gotU, c.want) || !slices.Equal(store.held, c.want) {
				t.Fatalf("held %v (spool %v), want %v", gotU, store.held, c.want)
			}
			if _, last, _ := store.LoadCursor("INBOX"); last != c.cursor {
				t.Fatalf("cursor at %d, want %d", last, c.cursor)
			}
		})
	}
}
