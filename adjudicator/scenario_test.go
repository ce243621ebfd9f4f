package adjudicator

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

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
