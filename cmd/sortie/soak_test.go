package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sortie/cmd/sortie/internal/demo"
	"sortie/mailer/inmail"
	"sortie/rules/afd"
	"sortie/storage"
)

// TestSoakHostileMail (issue 10) runs the real daemon through a whole game while 10,000 mails of hostile
// shapes arrive among the players' orders: garbage bytes, oversize bodies and headers, broken MIME, deeply
// nested multiparts, NULs, bare CRs and LFs, invalid charsets, 40 KiB Message-IDs, duplicate Message-IDs,
// forged senders (players' addresses and token addresses among them), mail from Sortie's own address,
// auto-replies with and without RFC 3834 headers, bounces, and replies to Sortie's own refusals. The game
// clock runs ten days ahead each turn (SORTIE_CLOCK_FILE), so the pruning of the intake's bookkeeping is
// exercised too, and the daemon is stopped and restarted between turns to measure its database.
//
// It checks: every order the players sent (a refused plot sent again) is the order the archive shows for its
// turn; every report reached each player exactly once; the daemon logged no panic and never held the inbox;
// the inbox is empty after every turn and every hostile mail is in one of the intake's folders; answers to
// strangers stay within the hourly cap; and the records of handled mail stay bounded (what is older than
// the retention is pruned), as does the file.
//
// The shapes come from a seeded generator: the seed is logged, and SORTIE_SOAK_SEED replays a run
// (SORTIE_SOAK_MAILS sets the number). 10,000 mails take about 35 s, and about 70 s under the race detector,
// so a race build (soak_race_test.go) sends 3,000: the daemon is the same binary either way, only the
// test's own bookkeeping is slower. With -short it sends 500.
func TestSoakHostileMail(t *testing.T) {
	total := 10000
	if raceBuild {
		total = 3000
	}
	if testing.Short() {
		total = 500
	}
	if v := os.Getenv("SORTIE_SOAK_MAILS"); v != "" {
		total, _ = strconv.Atoi(v)
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("SORTIE_SOAK_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	t.Logf("soak: %d hostile mails, seed %d (SORTIE_SOAK_SEED=%d replays it)", total, seed, seed)
	start := time.Now()

	const strangerCap = 40           // answers to strangers per hour
	const step = 10 * 24 * time.Hour // the game clock moves this far ahead each turn
	w := newWorld(t)
	cfg, _ := os.ReadFile(w.cfg)
	cfg = []byte(strings.Replace(string(cfg), "max_mails_per_hour: 500", "max_mails_per_hour: 30", 1))
	cfg = append(cfg, []byte(fmt.Sprintf("max_mail_kib: 64\nmax_stranger_replies_per_hour: %d\n", strangerCap))...)
	os.WriteFile(w.cfg, cfg, 0o644)
	scn, _ := os.ReadFile(w.scenario)
	// Turns of 30 days: the clock's 10-day steps never reach a deadline, so no order is lost to one.
	os.WriteFile(w.scenario, append(scn, []byte("  turn_hours: 720\n  moderator: mod@players.test\n  moderator_secret: mod-secret-00001\n")...), 0o644)
	clockFile := filepath.Join(w.dir, "clock")
	os.WriteFile(clockFile, []byte("0s"), 0o644)
	t.Setenv("SORTIE_CLOCK_FILE", clockFile)
	base := time.Now()

	w.run("game", "new", "--config", w.cfg, "--id", "e2e", w.scenario)
	d := w.start("")
	sm := &sentMail{w: w}
	aWelcome := sm.wait(t, w, "alice@players.test", "welcome", 1)[0]
	bWelcome := sm.wait(t, w, "bob@players.test", "welcome", 1)[0]
	secrets := map[string]string{"alice@players.test": secretOf(t, aWelcome), "bob@players.test": secretOf(t, bWelcome)}

	g := &hostile{rng: rand.New(rand.NewPCG(seed, seed^0x50a4)), date: time.Now().Format(time.RFC1123Z)}
	// The hostile mail comes in ten phases of equal size; a phase is a turn of the game while it lasts.
	const phases = 10
	perRound := (total + phases - 1) / phases
	over := false
	last := 0 // the game's last turn
	delivered, refusedByServer := 0, 0
	sentOrders := map[int]map[string]string{} // round → unit → the order the player sent, as Sortie read it
	type measure struct {
		round           int
		size            int64
		seen, strangers int
		floods          int
	}
	var measures []measure
	deliveredAt := map[int]int{} // round → hostile mails delivered in that round
	for round := 1; !over || delivered+refusedByServer < total; round++ {
		if round > 30 {
			t.Fatalf("seed %d: the game did not end in 30 turns", seed)
		}
		// Move the game clock to the start of a fresh hour, step further ahead for each turn.
		fake := base.Add(time.Duration(round-1) * step).Truncate(time.Hour).Add(time.Hour + time.Minute)
		os.WriteFile(clockFile, []byte(time.Until(fake).Round(time.Second).String()), 0o644)
		time.Sleep(100 * time.Millisecond)
		answersBefore := sm.strangerAnswers()

		// The players' orders: the ready-made block of the welcome (turn 1) or the last report, each plot
		// turned toward the nearest enemy the report shows (as the demo's bots play), and now and then a
		// plot spoiled so that the receipt refuses it and the player sends that aircraft's order again.
		first := map[string]string{}               // player → her first order mail of the turn
		defaults := map[string]map[string]string{} // player → unit → the block's own line
		for addr, welcome := range map[string]mail{"alice@players.test": aWelcome, "bob@players.test": bWelcome} {
			if over {
				break
			}
			text := welcome.Text
			if round > 1 {
				reps := sm.to(addr, fmt.Sprintf("turn %d report", round-1))
				if len(reps) == 0 {
					t.Fatalf("%s has no report for turn %d", addr, round-1)
				}
				text = reps[0].Text
			}
			block := blockOf(text)
			if block == "" {
				t.Fatalf("no order block in %s's mail:\n%s", addr, text)
			}
			if !strings.Contains(block, "SECRET") {
				block = strings.Replace(block, "\n", " SECRET "+secrets[addr]+"\n", 1)
			}
			defaults[addr] = map[string]string{}
			lines := strings.Split(afd.Ruleset{}.DemoOrders(text, block), "\n")
			for k, line := range lines {
				if unit, _, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, "GAME") {
					for _, d := range strings.Split(block, "\n") {
						if strings.HasPrefix(d, unit+": ") {
							defaults[addr][unit] = d
						}
					}
					if g.rng.IntN(4) == 0 {
						lines[k] = unit + ": 2 ZZ 9"
					}
				}
			}
			first[addr] = strings.Join(lines, "\n")
		}
		// Hostile mail with the players' orders somewhere in its first half; then, once their receipts are
		// in, any aircraft's order that was refused is sent again in the second half.
		n := min(perRound, total-delivered-refusedByServer)
		hostileMails := func(k int, at map[int][]string, orders map[string]string, tag string) {
			for i := 0; i <= k; i++ {
				for _, addr := range at[i] {
					w.send(addr, "sortie@sortie.test", fmt.Sprintf("%s-r%d-%s", strings.Split(addr, "@")[0], round, tag), plainHeaders(), orders[addr])
				}
				if i == k {
					break
				}
				if err := w.imap.Deliver("sortie", g.mail()); err != nil {
					refusedByServer++
					continue
				}
				delivered++
				deliveredAt[round]++
			}
		}
		place := func(k int, players []string) map[int][]string {
			at := map[int][]string{} // position in the run → the players whose orders come there
			for _, addr := range players {
				p := g.rng.IntN(k + 1)
				at[p] = append(at[p], addr)
			}
			return at
		}
		g.refusals = sm.refusals()
		var players []string
		for _, addr := range []string{"alice@players.test", "bob@players.test"} {
			if first[addr] != "" {
				players = append(players, addr)
			}
		}
		receiptsBefore := map[string]int{}
		for _, addr := range players {
			receiptsBefore[addr] = len(sm.to(addr, "receipt"))
		}
		hostileMails(n/2, place(n/2, players), first, "a")
		again := map[string]string{}
		var resend []string
		if sentOrders[round] == nil {
			sentOrders[round] = map[string]string{}
		}
		for _, addr := range players {
			r := sm.wait(t, w, addr, "receipt", receiptsBefore[addr]+1)[receiptsBefore[addr]]
			var fix []string
			for unit, def := range defaults[addr] {
				if line, ok := storedLine(r.Text, unit); ok {
					sentOrders[round][unit] = line
				} else {
					fix = append(fix, def)
					_, order, _ := strings.Cut(def, ": ")
					sentOrders[round][unit] = strings.Join(strings.Fields(order), " ")
				}
			}
			if len(fix) > 0 {
				header, _, _ := strings.Cut(first[addr], "\n")
				again[addr] = header + "\n" + strings.Join(fix, "\n") + "\nEND\n"
				resend = append(resend, addr)
			}
		}
		hostileMails(n-n/2, place(n-n/2, resend), again, "b")
		// The turn is resolved, the inbox drained, and the sender done.
		deadline := time.Now().Add(3 * time.Minute)
		for {
			inbox, _ := w.imap.Messages("sortie", "INBOX")
			over = len(sm.to("alice@players.test", "game over")) > 0 && len(sm.to("bob@players.test", "game over")) > 0
			resolved := len(sm.to("alice@players.test", fmt.Sprintf("turn %d report", round))) > 0 && len(sm.to("bob@players.test", fmt.Sprintf("turn %d report", round))) > 0
			if len(inbox) == 0 && (resolved || over) && sm.quiet(500*time.Millisecond) {
				break
			}
			if time.Now().After(deadline) {
				logs, _ := os.ReadFile(filepath.Join(w.dir, "daemon.log"))
				t.Fatalf("seed %d: turn %d: not resolved or inbox not drained (%d left)\n%s", seed, round, len(inbox), tail(logs))
			}
			time.Sleep(50 * time.Millisecond)
		}
		if got := sm.strangerAnswers() - answersBefore; got > strangerCap {
			for _, m := range sm.all()[answersBefore:] {
				t.Logf("%s %q %s", m.To, m.Subject, m.MessageID)
			}
			t.Errorf("seed %d: turn %d: %d answers to strangers within one hour of the game clock; the strangerCap is %d", seed, round, got, strangerCap)
		}
		// Stop the daemon and measure its database once its clock has pruned at this turn's hour.
		waitHousekept(t, w, fake)
		w.stop(d)
		m := measure{round: round}
		if fi, err := os.Stat(w.db); err == nil {
			m.size = fi.Size()
		}
		bdb, err := bolt.Open(w.db, 0o600, &bolt.Options{ReadOnly: true, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		bdb.View(func(tx *bolt.Tx) error {
			m.seen = countKeys(tx, storage.BucketSeen)
			m.strangers = countKeys(tx, "strangers") + countKeys(tx, "autoreply")
			m.floods = countKeys(tx, "flood") + countKeys(tx, "flood-seat") + countKeys(tx, "flood-alert")
			return nil
		})
		bdb.Close()
		measures = append(measures, m)
		t.Logf("turn %2d: %5d hostile mails, db %7d bytes, %5d seen records, %3d stranger-cap records, %3d flood records, %3d stranger answers, %.1fs",
			round, deliveredAt[round], m.size, m.seen, m.strangers, m.floods, sm.strangerAnswers()-answersBefore, time.Since(start).Seconds())
		if over && last == 0 {
			last = round
		}
		if !over || delivered+refusedByServer < total {
			d = w.start("")
		}
	}

	// Every order the players sent is the order the archive shows.
	db, err := storage.Open(w.db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	archived := map[int]map[string]string{}
	db.View(func(tx *storage.Tx) error {
		return tx.ForEach([]string{"archive", "e2e"}, func(k string, v []byte) error {
			var rec struct {
				Round  int               `json:"round"`
				Orders map[string]string `json:"orders"`
			}
			if jsonUnmarshal(v, &rec) == nil && rec.Round > 0 {
				archived[rec.Round] = rec.Orders
			}
			return nil
		})
	})
	db.Close()
	for r := 1; r <= last; r++ {
		for unit, order := range sentOrders[r] {
			got := strings.Join(strings.Fields(archived[r][unit]), " ")
			if got != order {
				t.Errorf("seed %d: turn %d, %s: sent %q, the archive has %q", seed, r, unit, order, archived[r][unit])
			}
		}
	}
	// Every report reached each player once, and nothing was sent twice.
	for _, addr := range []string{"alice@players.test", "bob@players.test"} {
		for r := 1; r < last; r++ {
			if got := sm.to(addr, fmt.Sprintf("turn %d report", r)); len(got) != 1 {
				t.Errorf("seed %d: %s got %d reports for turn %d", seed, addr, len(got), r)
			}
		}
		if got := sm.to(addr, "game over"); len(got) != 1 {
			t.Errorf("seed %d: %s got %d game-over mails", seed, addr, len(got))
		}
	}
	// (An answer to a stranger may come again with the same Message-ID when the very same mail comes back
	// after the retention, when both records of it are pruned; a game's mail never does.)
	seen := map[string]int{}
	for _, m := range sm.all() {
		if strings.Contains(m.Subject, "[e2e]") {
			seen[m.MessageID+" "+m.To]++
		}
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("seed %d: mail %s was sent %d times", seed, id, n)
		}
	}
	// No panic; every mail is in a folder, none in the inbox.
	logs, _ := os.ReadFile(filepath.Join(w.dir, "daemon.log"))
	for _, bad := range []string{"panic", "goroutine ", "runtime error", "could not commit"} {
		if strings.Contains(string(logs), bad) {
			i := strings.Index(string(logs), bad)
			t.Errorf("seed %d: the daemon log shows %q:\n%.2000s", seed, bad, logs[max(0, i-500):])
		}
	}
	filed := 0
	folders := map[string]int{}
	for _, box := range []string{"Processed", "Rejected", "Sortie/Failed"} {
		list, _ := w.imap.List("sortie", box)
		filed += len(list)
		folders[box] = len(list)
	}
	t.Logf("filed: %v", folders)
	// Sortie/Failed is for mail Sortie could not handle (a bug, a template that cannot render it): none of
	// these shapes may end there.
	if n := folders["Sortie/Failed"]; n > 0 {
		t.Errorf("seed %d: %d mails were filed in Sortie/Failed", seed, n)
	}
	inbox, _ := w.imap.Messages("sortie", "INBOX")
	// The players' own mails are filed too; a mail's own copy of Sortie's outgoing mail never comes back here.
	if len(inbox) != 0 || filed < delivered {
		t.Errorf("seed %d: %d hostile mails delivered, %d filed, %d left in the inbox", seed, delivered, filed, len(inbox))
	}
	// The records of handled mail stay bounded: from the fourth turn on (30 days of game clock) the records of
	// the first turns are pruned, so the count never exceeds what four turns bring.
	bound := 2 * 4 * (perRound + 10) // two index entries per mail
	for _, m := range measures {
		if m.seen > bound {
			t.Errorf("seed %d: after turn %d the database holds %d records of handled mail; at most %d are within the retention", seed, m.round, m.seen, bound)
		}
		// Counters live for their hour (the auto-reply marks for their day): what is left is this hour's.
		if m.strangers > 100 || m.floods > 300 {
			t.Errorf("seed %d: after turn %d: %d stranger-cap and %d flood records are not being pruned", seed, m.round, m.strangers, m.floods)
		}
	}
	// The file's size (bbolt doubles it as it grows) stays within one doubling of its size after turn 4,
	// when the first records begin to be pruned; what grows after that is the game's own archive.
	if n := len(measures); n >= 8 {
		if grow, ref := measures[n-1].size, measures[3].size; grow > 2*ref {
			t.Errorf("seed %d: the database grew from %d bytes (turn 4) to %d (turn %d)", seed, ref, grow, measures[n-1].round)
		}
	}
	if t.Failed() {
		var errs []string
		for _, line := range strings.Split(string(logs), "\n") {
			if strings.Contains(line, `"level":"error"`) && len(errs) < 20 {
				errs = append(errs, line)
			}
		}
		t.Logf("errors in the daemon log:\n%s", strings.Join(errs, "\n"))
	}
	t.Logf("soak: the game ended in turn %d; %d hostile mails delivered (%d refused by the IMAP server), %d filed, %d answers to strangers, %.1fs",
		last, delivered, refusedByServer, filed, sm.strangerAnswers(), time.Since(start).Seconds())
}

// countKeys counts the values under the top-level bucket name, nested buckets included.
// waitHousekept waits until the daemon's log shows the housekeeping of the game clock's hour at.
func waitHousekept(t *testing.T, w *world, at time.Time) {
	t.Helper()
	want := fmt.Sprintf("%q", at.UTC().Format("2006-01-02T15"))
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(10 * time.Millisecond) {
		logs, _ := os.ReadFile(filepath.Join(w.dir, "daemon.log"))
		for _, line := range strings.Split(string(logs), "\n") {
			if strings.Contains(line, "housekeeping done") && strings.Contains(line, want) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not housekeep at the game clock's %s within %v\n%s", want, hangGuard, tail(logs))
		}
	}
}

func countKeys(tx *bolt.Tx, name string) int {
	var walk func(b *bolt.Bucket) int
	walk = func(b *bolt.Bucket) int {
		n := 0
		b.ForEach(func(k, v []byte) error {
			if v == nil {
				n += walk(b.Bucket(k))
			} else {
				n++
			}
			return nil
		})
		return n
	}
	if b := tx.Bucket([]byte(name)); b != nil {
		return walk(b)
	}
	return 0
}

// sentMail parses what the SMTP server received once, not on every look.
type sentMail struct {
	w      *world
	mu     sync.Mutex
	done   int
	mails  []mail
	raw    [][]byte
	count  int
	change time.Time
}

func (s *sentMail) all() []mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.w.smtp.Received()
	if len(rec) != s.count {
		s.count, s.change = len(rec), time.Now()
	}
	for _, e := range rec[s.done:] {
		m, err := inmail.Parse(e.Raw)
		if err != nil {
			s.w.t.Fatal(err)
		}
		for _, to := range e.To {
			s.mails = append(s.mails, mail{To: strings.ToLower(to), Subject: m.Subject, Text: m.Text, MessageID: m.MessageID, ReplyTo: demo.ReplyAddress(e.Raw, "")})
			s.raw = append(s.raw, e.Raw)
		}
	}
	s.done = len(rec)
	return s.mails
}

// quiet says whether nothing new was sent for d.
func (s *sentMail) quiet(d time.Duration) bool {
	s.all()
	s.mu.Lock()
	defer s.mu.Unlock()
	return time.Since(s.change) >= d
}

func (s *sentMail) to(addr, subject string) []mail {
	var out []mail
	for _, m := range s.all() {
		if m.To == addr && strings.Contains(m.Subject, subject) {
			out = append(out, m)
		}
	}
	return out
}

func (s *sentMail) wait(t *testing.T, w *world, addr, subject string, n int) []mail {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got := s.to(addr, subject); len(got) >= n {
			return got
		}
	}
	t.Fatalf("%s did not get %d mails about %q", addr, n, subject)
	return nil
}

// strangerAnswers counts the mails Sortie sent that belong to no game (refusals, help, notices of size and
// flood, failures): everything whose subject does not name the game.
func (s *sentMail) strangerAnswers() int {
	n := 0
	for _, m := range s.all() {
		if !strings.Contains(m.Subject, "[e2e]") && !strings.HasPrefix(m.Subject, "[digest]") {
			n++
		}
	}
	return n
}

// refusals are the answers to strangers so far, for the generator's replies to them.
func (s *sentMail) refusals() []mail {
	var out []mail
	for _, m := range s.all() {
		if !strings.Contains(m.Subject, "[e2e]") && len(out) < 200 {
			out = append(out, m)
		}
	}
	return out
}

// hostile makes mails of hostile shapes from a seeded generator.
type hostile struct {
	rng      *rand.Rand
	date     string
	n        int
	ids      []string
	refusals []mail
}

var soakStrangers = func() []string {
	var out []string
	for i := range 25 {
		out = append(out, fmt.Sprintf("stranger%d@evil.test", i))
	}
	return out
}()

func (g *hostile) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *hostile) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.rng.UintN(256))
	}
	return b
}

func (g *hostile) from() string {
	switch g.rng.IntN(10) {
	case 0, 1:
		return g.pick("alice@players.test", "bob@players.test", "Alice <alice@players.test>", "mod@players.test")
	case 2:
		return g.pick("sortie@sortie.test", "Sortie <sortie@sortie.test>", "MAILER-DAEMON@mx.evil.test", "postmaster@players.test")
	case 3:
		return fmt.Sprintf("x%d@%s.test", g.rng.IntN(100000), g.pick("evil", "spam", "players"))
	}
	return g.pick(soakStrangers...)
}

func (g *hostile) id() string {
	g.n++
	id := fmt.Sprintf("soak-%d-%d@evil.test", g.n, g.rng.IntN(1<<30))
	g.ids = append(g.ids, id)
	return id
}

func (g *hostile) block() string {
	return g.pick(
		"GAME e2e TURN 1 SECRET guess\nRED1: 0\nEND\n",
		"GAME e2e SECRET aaaa-bbbb-cccc-dddd\nHANS: 6 FIRE RED1\nKURT: 6\nEND\n",
		"GAME e2e TURN 3\nRESEND\nRESEND TURN 2\nEND\n",
		"GAME e2e\nPAUSE\nEND\n",
		"GAME nosuch TURN 1 SECRET x\nRED1: 6\nEND\n",
		"HELP\n",
		"GAME e2e TURN 1 SECRET mod-secret-00000\nROLLBACK TURN 1\nEND\n",
		"just saying hello\n",
		"",
	)
}

// mail returns one hostile mail.
func (g *hostile) mail() []byte {
	hdr := func(from, subject, id string, extra string) string {
		return fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n%s", from,
			g.pick("sortie@sortie.test", "sortie+"+strings.ToLower(fmt.Sprintf("%x", g.bytes(5)))+"@sortie.test", "Sortie <sortie@sortie.test>"), subject, id, g.date, extra)
	}
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	plain := "Content-Type: text/plain; charset=utf-8\r\n"
	switch g.rng.IntN(20) {
	case 0: // garbage bytes, with or without a header
		b := g.bytes(1 + g.rng.IntN(4096))
		if g.rng.IntN(2) == 0 {
			return append([]byte(hdr(g.from(), "x", g.id(), "")+"\r\n"), b...)
		}
		return b
	case 1: // an oversize body
		body := strings.Repeat(g.pick("A", "GAME e2e TURN 1\n", "\x00"), 70<<10)
		return []byte(hdr(g.from(), "big", g.id(), plain) + "\r\n" + body)
	case 2: // oversize headers: a long subject, many headers, a long From
		switch g.rng.IntN(3) {
		case 0:
			return []byte(hdr(g.from(), strings.Repeat("S", 50<<10), g.id(), plain) + "\r\n" + crlf(g.block()))
		case 1:
			return []byte(hdr(g.from(), "many", g.id(), strings.Repeat("X-Junk: 1\r\n", 3000)+plain) + "\r\n" + crlf(g.block()))
		default:
			return []byte(hdr(strings.Repeat("l", 40<<10)+"@evil.test", "long from", g.id(), plain) + "\r\n" + crlf(g.block()))
		}
	case 3: // broken MIME
		return []byte(hdr(g.from(), "mime", g.id(), g.pick(
			"Content-Type: multipart/mixed; boundary=\"zz\"\r\n",
			"Content-Type: multipart/mixed\r\n",
			"Content-Type: multipart/alternative; boundary=\"\"\r\n",
			"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n",
			"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n",
			"Content-Type: ;;;\r\nMIME-Version: 9.9\r\n",
		)) + "\r\n--zz\r\nContent-Type: text/plain\r\n\r\n" + crlf(g.block()) + "\r\n=Z=\r\n--z")
	case 4: // deeply nested multiparts
		depth := 50 + g.rng.IntN(400)
		var b strings.Builder
		b.WriteString(hdr(g.from(), "nested", g.id(), "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n") + "\r\n")
		for i := 1; i <= depth; i++ {
			fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n", i-1, i)
		}
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\n%s\r\n", depth, crlf(g.block()))
		for i := depth; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\r\n", i)
		}
		return []byte(b.String())
	case 5: // a 40 KiB Message-ID
		return []byte(hdr(g.from(), "long id", strings.Repeat("i", 40<<10)+"@evil.test", plain) + "\r\n" + crlf(g.block()))
	case 6: // bare CRs and LFs where they do not belong
		return []byte(fmt.Sprintf("From: %s\r\nTo: sortie@sortie.test\r\nSubject: c\rr\nMessage-ID: <%s\r%d>\r\nDate: %s\n%s\r\n%s", g.from(), g.id(), g.n, g.date, plain, strings.ReplaceAll(g.block(), "\n", "\r")))
	case 7: // NULs
		return []byte(hdr(g.from()+"\x00", "nul\x00", g.id()+"\x00", plain) + "\r\n" + strings.ReplaceAll(crlf(g.block()), "E", "\x00E"))
	case 8: // invalid charsets
		return []byte(hdr(g.from(), "=?x-unknown?B?////?=", g.id(), g.pick("Content-Type: text/plain; charset=x-no-such\r\n", "Content-Type: text/plain; charset=\"utf-8\x00\"\r\n", "Content-Type: text/html; charset=utf-7\r\n")) +
			"\r\n" + crlf(g.block()) + string(g.bytes(20)))
	case 9: // a duplicate Message-ID: an earlier hostile mail's, with other content
		id := g.id()
		if len(g.ids) > 1 {
			id = g.ids[g.rng.IntN(len(g.ids)-1)]
		}
		return []byte(hdr(g.from(), "again", id, plain) + "\r\n" + crlf(g.block()))
	case 10: // a reply to one of Sortie's own answers to a stranger
		if len(g.refusals) > 0 {
			r := g.refusals[g.rng.IntN(len(g.refusals))]
			quoted := "> " + strings.ReplaceAll(r.Text, "\n", "\n> ")
			return []byte(hdr(r.To, "Re: "+r.Subject, g.id(), plain+"In-Reply-To: "+r.MessageID+"\r\nReferences: "+r.MessageID+"\r\n") + "\r\n" + crlf(g.pick("what?\n", g.block())+"\n"+quoted))
		}
		return []byte(hdr(g.from(), "Re: your mail could not be matched to a game", g.id(), plain) + "\r\n> no\r\n")
	case 11: // auto-replies with RFC 3834 headers
		return []byte(hdr(g.from(), "Automatic reply: orders", g.id(), plain+g.pick("Auto-Submitted: auto-replied\r\n", "Precedence: bulk\r\n", "X-Autoreply: yes\r\n", "Auto-Submitted: auto-generated\r\n", "Precedence: list\r\nList-Id: <x.evil.test>\r\n")) + "\r\n" + crlf(g.block()))
	case 12: // auto-replies without them
		return []byte(hdr(g.from(), g.pick("I'm on vacation", "Out of office", "Re: no orders found", "Abwesenheitsnotiz", "Re: Re: your mail could not be matched to a game"), g.id(), plain) + "\r\nI am away until Monday.\r\n")
	case 13: // bounces
		return []byte(hdr(g.pick("MAILER-DAEMON@mx.evil.test", "Mail Delivery System <MAILER-DAEMON@players.test>", "postmaster@evil.test"), "Undelivered Mail Returned to Sender", g.id(),
			"Return-Path: <>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"bb\"\r\n") +
			"\r\n--bb\r\nContent-Type: text/plain\r\n\r\nThis is the mail system.\r\n--bb\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\nStatus: 5.1.1\r\n--bb--\r\n")
	case 14: // mail from Sortie's own address: a loop
		return []byte(hdr(g.pick("sortie@sortie.test", "Sortie <sortie@sortie.test>"), "[e2e] turn 1 report for Alice", g.id(), plain+g.pick("", "X-Sortie: e2e\r\n")) + "\r\n" + crlf(g.block()))
	case 15: // forged player mail: her address, a wrong or missing secret, a made-up token address
		from := g.pick("alice@players.test", "bob@players.test")
		return []byte(hdr(from, "orders", g.id(), plain) + "\r\n" + crlf(g.pick(
			"GAME e2e TURN 1\nRED1: 0\nEND\n",
			"GAME e2e TURN 2 SECRET wrong-wrong-wrong\nHANS: 0\nKURT: 0\nEND\n",
			"GAME e2e SECRET mod-secret-00002\nPAUSE\nEND\n",
			g.block())))
	case 16: // no header at all, or only a header
		return []byte(g.pick("", "\r\n", "From: a@b\r\n", "Subject: x\r\n\r\n", "GAME e2e TURN 1\r\nEND\r\n"))
	case 17: // HTML only, with hostile markup
		return []byte(hdr(g.from(), "html", g.id(), "Content-Type: text/html; charset=windows-1252\r\n") + "\r\n<html><script>" + strings.Repeat("<div>", 2000) + "GAME e2e TURN 1<br>RED1: 6<br>END</html>")
	}
	// An ordinary stranger's mail.
	return []byte(hdr(g.from(), g.pick("orders", "help", "", "hi"), g.id(), plain) + "\r\n" + crlf(g.block()))
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// storedLine finds unit's order in a receipt and says whether it was stored, with its text as Sortie read it.
func storedLine(receipt, unit string) (string, bool) {
	i := strings.Index(receipt, "\n"+unit+": ")
	if i < 0 {
		return "", false
	}
	rest := receipt[i+1:]
	end := strings.Index(rest, "\n\n")
	if end < 0 {
		end = len(rest)
	}
	entry := rest[:end]
	line, _, _ := strings.Cut(entry, "\n")
	_, order, _ := strings.Cut(line, ": ")
	if _, canon, ok := strings.Cut(entry, "\n  read as: "); ok {
		order, _, _ = strings.Cut(canon, "\n")
	}
	return strings.Join(strings.Fields(order), " "), strings.Contains(entry, "STORED.") && !strings.Contains(entry, "NOT STORED")
}
