package adjudicator

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// longGameScenario is a ten-player Air Force game of turns turns: five fighters a side, each its own
// player's, the sides 60 hexes apart, so that every turn mails ten reports with a picture each.
func longGameScenario(turns int) []byte {
	var b strings.Builder
	b.WriteString("ruleset: afd\nname: Long sweep\noptions: {fog_of_war: true}\nsides: [North, South]\nplayers:\n")
	for i := range 10 {
		side := []string{"North", "South"}[i%2]
		fmt.Fprintf(&b, "  - {id: p%d, name: Pilot %d, side: %s}\n", i, i, side)
	}
	b.WriteString("aircraft:\n")
	for i := range 10 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "  - {callsign: N%d, type: spitfire-i, side: North, player: p%d, hex: [%d, 0], facing: 0, alt: 10000, speed: 3.0}\n", i, i, 2*i)
		} else {
			fmt.Fprintf(&b, "  - {callsign: S%d, type: bf-109e, side: South, player: p%d, hex: [%d, 60], facing: 6, alt: 10000, speed: 3.0}\n", i, i, 2*i)
		}
	}
	fmt.Fprintf(&b, "turns: %d\nservice:\n  moderator: mod@players.test\n  moderator_secret: mod-secret-0009\n  seed: %s\n  players:\n", turns, testSeed)
	for i := range 10 {
		fmt.Fprintf(&b, "    p%d: {email: p%d@players.test}\n", i, i)
	}
	return []byte(b.String())
}

// BenchmarkLongGameStorage plays a ten-player game of 100 turns (every turn resolved by the moderator's
// PROCESS TURN, the orders the rules give a unit without one) and reports the database's size: what a
// backup of it writes (db-MiB), and the outbox's mails (mails). Every report carries a map picture.
//
//	go test ./adjudicator -run '^$' -bench LongGameStorage -benchtime 1x
func BenchmarkLongGameStorage(b *testing.B) {
	const turns = 100
	for b.Loop() {
		f := newService(b, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour})
		if _, err := f.s.NewGame(longGameScenario(turns), "long.yaml", "g1"); err != nil {
			b.Fatal(err)
		}
		for range turns {
			f.now = f.now.Add(time.Hour)
			if _, err := f.s.ResolveGame("g1", true); err != nil {
				b.Fatal(err)
			}
			// What the daemon's sender does before each pass, where the service draws after the commit.
			if d, ok := any(f.s).(interface{ DrawPictures() (int, error) }); ok {
				if _, err := d.DrawPictures(); err != nil {
					b.Fatal(err)
				}
			}
			if st, _ := f.s.Status("g1"); st.Status == StatusOver {
				break
			}
		}
		st, err := f.s.Status("g1")
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(b.TempDir(), "copy.db")
		if err := f.db.BackupTo(path); err != nil {
			b.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		ob, err := f.db.OutboxStats()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(fi.Size())/(1<<20), "db-MiB")
		b.ReportMetric(float64(ob.Total), "mails")
		b.ReportMetric(float64(st.Round), "rounds")
	}
}
