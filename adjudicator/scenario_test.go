package adjudicator

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"sortie/rules/afd"
	"sortie/storage"
	"sortie/templates"
)

func newScenarioService(t *testing.T) *Service {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "s.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tmpl, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	return New(db, tmpl, Config{Address: "sortie@sortie.test", TurnLength: 48 * time.Hour}, zerolog.Nop())
}

// The scenario file has one owner per part: the service reads `service:` strictly, so a misspelt key
// there is named with its line; the ruleset gets the rest with the service lines blanked, so its own
// problems keep their lines in the moderator's file, even below a service section.
func TestScenarioPartsHaveOneOwnerEach(t *testing.T) {
	s := newScenarioService(t)
	head := `ruleset: afd
name: parts
service:
  moderator: mod@players.test
  players:
    alice: {emial: alice@players.test}
    bob: {email: bob@players.test}
`
	body := `sides: [A, B]
players: [{id: alice, side: A}, {id: bob, side: B}]
aircraft:
  - {callsign: RED1, type: spitfire-i, side: A, player: alice, hex: [0, 0], facing: 0, alt: 10000, speed: 5.0}
  - {callsign: BLUE1, type: bf-109e, side: B, player: bob, hex: [0, -9], facing: 6, alt: 10000, speed: 5.0}
turns: 3
`
	_, err := s.NewGame([]byte(head+body), "parts.yaml", "p1")
	if err == nil || !strings.Contains(err.Error(), "emial") || !strings.Contains(err.Error(), "line 6") {
		t.Fatalf("a misspelt service key must be named with its line, got %v", err)
	}
	// A ruleset problem below the service section keeps its line (12: the bogus aircraft type).
	fixed := strings.Replace(head, "emial", "email", 1)
	broken := strings.Replace(body, "type: bf-109e", "type: bf-999", 1)
	_, err = s.NewGame([]byte(fixed+broken), "parts.yaml", "p2")
	if err == nil || !strings.Contains(err.Error(), "12") || !strings.Contains(err.Error(), "bf-999") {
		t.Fatalf("the ruleset's problem must keep its line (12) in the file, got %v", err)
	}
	if _, err := s.NewGame([]byte(fixed+body), "parts.yaml", "p3"); err != nil {
		t.Fatalf("the good scenario: %v", err)
	}
}

func TestGamePartBlanksOnlyTheServiceSection(t *testing.T) {
	in := "ruleset: afd\nservice:\n  moderator: m@x.test\n  players: {}\nname: x\n"
	got, err := GamePart([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := "ruleset: afd\n\n\n\nname: x\n"; string(got) != want {
		t.Errorf("GamePart = %q, want %q", got, want)
	}
}

// TestScenarioProblemsInOneList: every problem of a scenario file comes in one answer, in line order:
// the game part's (an unknown top-level key), the service section's (a value of the wrong kind, an
// unknown time zone) and a misspelt key, named as such with the key meant, not as a missing address.
func TestScenarioProblemsInOneList(t *testing.T) {
	s := newScenarioService(t)
	scn, err := afd.BundledScenarioFile("channel-1940")
	if err != nil {
		t.Fatal(err)
	}
	n := bytes.Count(scn, []byte("\n")) + 1 // the first line after the game part, with "bogus" on top
	scn = append([]byte("bogus_top: 1\n"), scn...)
	scn = append(scn, []byte("\nservice:\n  turn_hours: abc\n  players:\n    alice: {email: alice@x.test, tz: Mars/Base}\n    bob:\n      emial: bob@x.test\n")...)
	_, err = s.NewGame(scn, "x.yaml", "g9")
	if err == nil {
		t.Fatal("the scenario must be refused")
	}
	want := []string{
		`line 1: unknown key "bogus_top"`,
		fmt.Sprintf(`line %d: "abc" is not a number`, n+3),
		fmt.Sprintf(`line %d: service.players.alice.tz: unknown time zone "Mars/Base"`, n+5),
		fmt.Sprintf(`line %d: unknown key "emial": did you mean "email"?`, n+7),
	}
	got := err.Error()
	last := -1
	for _, w := range want {
		i := strings.Index(got, w)
		if i < 0 || i < last {
			t.Errorf("the answer must say %q, in line order:\n%s", w, got)
		}
		last = i
	}
	if strings.Contains(got, "needs a mail address") || !strings.Contains(got, "4 problems") {
		t.Errorf("one problem each, the misspelt key not also a missing address:\n%s", got)
	}
	// A seat without any address is still told (once the game part names the players).
	scn = bytes.Replace(scn, []byte("      emial: bob@x.test\n"), []byte("      tz: UTC\n"), 1)
	scn = bytes.TrimPrefix(scn, []byte("bogus_top: 1\n"))
	if _, err := s.NewGame(scn, "x.yaml", "g9"); err == nil || !strings.Contains(err.Error(), "player bob needs a mail address") {
		t.Errorf("a seat without an address: %v", err)
	}
}
