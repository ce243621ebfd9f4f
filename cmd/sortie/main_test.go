package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sortie/cmd/sortie/internal/daemon"
	"sortie/mailer/inmail"
)

// The calculator is a contract other tools rely on, so these tests run the real binary.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "sortie-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "sortie")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		panic("building sortie: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func sortie(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return o.String(), e.String(), code
}

type moveOut struct {
	Legal  bool `json:"legal"`
	Errors []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Column  int    `json:"column"`
	} `json:"errors"`
	Warnings []struct {
		Code string `json:"code"`
	} `json:"warnings"`
	Canonical string `json:"canonical"`
	Steps     []struct {
		MP, Q, R, Facing, Alt int
		Token                 string
	} `json:"steps"`
	HexesMoved int `json:"hexes_moved"`
	Maneuvers  int `json:"maneuvers"`
	End        struct {
		Q, R, Facing, Alt int
		Speed             float64
		Bank              string
	} `json:"end"`
}

func calcJSON(t *testing.T, args ...string) (moveOut, int, string) {
	t.Helper()
	out, errOut, code := sortie(t, append([]string{"calc", "move", "--json"}, args...)...)
	var m moveOut
	if code != 2 {
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("calc move --json printed no JSON (exit %d): %v\n%s\n%s", code, err, out, errOut)
		}
	}
	return m, code, errOut
}

func TestCalcMoveJSONContract(t *testing.T) {
	m, code, _ := calcJSON(t, "--aircraft", "spitfire-i", "--speed", "5", "--alt", "8000", "--bank", "N", "--plot", "2R 1 TR STEEP P")
	if code != 0 || !m.Legal {
		t.Fatalf("exit %d, %+v", code, m)
	}
	if m.Canonical != "2 TR 1 TR STEEP P" || len(m.Steps) != 5 || m.HexesMoved != 4 || m.Maneuvers != 2 {
		t.Errorf("unexpected answer: %+v", m)
	}
	if m.Steps[2].Token != "TR" || m.Steps[0].MP != 1 || m.End.Alt != 7000 || m.End.Facing != 2 || m.End.Bank != "N" {
		t.Errorf("steps/end: %+v", m)
	}
	if m.End.Speed < 5.5 || m.End.Speed > 6.5 {
		t.Errorf("end speed %v is not a decimal speed in points", m.End.Speed)
	}
	codes := map[string]bool{}
	for _, w := range m.Warnings {
		codes[w.Code] = true
	}
	if !codes["steep-read-as-dive"] || !codes["alias"] {
		t.Errorf("warnings: %+v", m.Warnings)
	}
}

func TestCalcMoveIllegalPlotExitsOne(t *testing.T) {
	m, code, _ := calcJSON(t, "--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--plot", "1 TR 1 TR")
	if code != 1 || m.Legal || len(m.Errors) == 0 || m.Errors[0].Code != "plot-length" {
		t.Fatalf("exit %d %+v", code, m)
	}
	if !strings.Contains(m.Errors[0].Message, "exactly 5") {
		t.Errorf("the error must say how many points: %q", m.Errors[0].Message)
	}
	m, code, _ = calcJSON(t, "--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--plot", "1 TRTR 2")
	if code != 1 || m.Legal || m.Errors[0].Column != 3 {
		t.Fatalf("a notation error is an illegal plot with its column: exit %d %+v", code, m)
	}
}

func TestCalcMoveUsageErrorsExitTwo(t *testing.T) {
	cases := [][]string{
		{"--aircraft", "no-such-plane", "--speed", "5", "--alt", "10000", "--bank", "N", "--plot", "5"},
		{"--aircraft", "spitfire-i", "--speed", "five", "--alt", "10000", "--bank", "N", "--plot", "5"},
		{"--aircraft", "spitfire-i", "--speed", "5", "--alt", "10050", "--bank", "N", "--plot", "5"},
		{"--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "X", "--plot", "5"},
		{"--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--plot", "5", "--previous", "sideways"},
		{"--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--plot", "5", "--facing", "12"},
		{"--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N"},
		{"--bogus"},
	}
	for _, c := range cases {
		out, errOut, code := sortie(t, append([]string{"calc", "move"}, c...)...)
		if code != 2 || errOut == "" || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c, code, out, errOut)
		}
	}
}

func TestCalcMovePreviousAndStraight(t *testing.T) {
	// Rule (23) through the flags: after a steep dive the plane must dive.
	_, code, _ := calcJSON(t, "--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--previous", "steep-dive", "--plot", "5")
	if code != 1 {
		t.Errorf("level flight after a steep dive must be illegal, exit %d", code)
	}
	_, code, _ = calcJSON(t, "--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--previous", "steep-dive,dive=1000", "--plot", "5 -3")
	if code != 0 {
		t.Errorf("a 300 ft dive after a steep dive is legal, exit %d", code)
	}
	m, code, _ := calcJSON(t, "--aircraft", "spitfire-i", "--speed", "5", "--alt", "10000", "--bank", "N", "--straight", "0", "--plot", "TR 4")
	if code != 1 || m.Errors[0].Code != "turn-mode" {
		t.Errorf("--straight 0 makes an immediate turn illegal: exit %d %+v", code, m.Errors)
	}
}

func TestCalcMoveHumanOutput(t *testing.T) {
	out, _, code := sortie(t, "calc", "move", "--aircraft", "a6m2", "--speed", "4", "--alt", "5000", "--bank", "N", "--plot", "1 tr 1 TR")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{"Read as:  1 TR 1 TR", "MP", "End:", "Legal.", "Warning:"} {
		if !strings.Contains(out, want) {
			t.Errorf("human output lacks %q:\n%s", want, out)
		}
	}
}

func TestAircraftListAndShow(t *testing.T) {
	out, _, code := sortie(t, "aircraft", "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 25 { // header + at least 24 types
		t.Errorf("aircraft list shows %d lines", len(lines))
	}
	for _, key := range []string{"a6m2", "spitfire-i", "he-111h", "me-262a", "b-17g"} {
		if !strings.Contains(out, key) {
			t.Errorf("aircraft list lacks %s", key)
		}
	}
	out, _, code = sortie(t, "aircraft", "show", "spitfire-i")
	if code != 0 || !strings.Contains(out, "TURN") || !strings.Contains(out, "4x30M") {
		t.Errorf("aircraft show: exit %d\n%s", code, out)
	}
	out, _, code = sortie(t, "aircraft", "show", "he-111h", "--json")
	var card struct {
		Key   string
		Bands []json.RawMessage
	}
	if code != 0 || json.Unmarshal([]byte(out), &card) != nil || card.Key != "he-111h" || len(card.Bands) == 0 {
		t.Errorf("aircraft show --json: exit %d %q", code, out)
	}
	if _, errOut, code := sortie(t, "aircraft", "show", "zeppelin"); code != 2 || !strings.Contains(errOut, "unknown aircraft") {
		t.Errorf("unknown aircraft: exit %d %q", code, errOut)
	}
}

func TestExampleConfigLoads(t *testing.T) {
	t.Setenv("SORTIE_IMAP_PASSWORD", "x")
	t.Setenv("SORTIE_SMTP_PASSWORD", "y")
	c, err := daemon.LoadConfig("../../docs/sortie.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Password != "x" || c.SMTP.Password != "y" || c.AdjudicatorConfig().ResolveDelay.Minutes() != 10 {
		t.Errorf("example config: %+v", c)
	}
	os.Unsetenv("SORTIE_IMAP_PASSWORD")
	if _, err := daemon.LoadConfig("../../docs/sortie.example.yaml"); err == nil || !strings.Contains(err.Error(), "SORTIE_IMAP_PASSWORD") {
		t.Errorf("a missing password variable must be named: %v", err)
	}
}

func TestDemoPlaysAGameToTheEnd(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := sortie(t, "demo", "--out", filepath.Join(dir, "mails"))
	if code != 0 {
		t.Fatalf("demo exit %d: %s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Result:") || !strings.Contains(out, "mails were sent") {
		t.Errorf("demo output:\n%s", out)
	}
	for _, p := range []string{"alice", "bob", "to-sortie"} {
		entries, err := os.ReadDir(filepath.Join(dir, "mails", p))
		if err != nil || len(entries) < 3 {
			t.Errorf("%s: %d mails (%v)", p, len(entries), err)
		}
	}
	// Every report (and the welcome, the opening positions) has its map picture written beside it.
	reports := 0
	entries, _ := os.ReadDir(filepath.Join(dir, "mails", "alice"))
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".eml") || !strings.Contains(name, "report-for-Alice") && !strings.Contains(name, "welcome") {
			continue
		}
		reports++
		b, err := os.ReadFile(filepath.Join(dir, "mails", "alice", strings.TrimSuffix(name, ".eml")+".png"))
		if err != nil {
			t.Errorf("%s has no picture beside it: %v", name, err)
			continue
		}
		if img, err := png.Decode(bytes.NewReader(b)); err != nil || img.Bounds().Dx() < 400 {
			t.Errorf("%s's picture does not read as a map: %v", name, err)
		}
	}
	if reports < 3 {
		t.Errorf("alice got %d reports", reports)
	}
}

// TestDemoPlaysAnImpulseGame: the bundled Delta-T scenario (seed 001) is played to its end by mail by
// the real binary on its built-in servers: many rounds to a turn, each player asked only for the aircraft
// that finished a manoeuvre.
func TestDemoPlaysAnImpulseGame(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := sortie(t, "demo", "--scenario", "kent-impulse-1940", "--out", filepath.Join(dir, "mails"))
	if code != 0 {
		t.Fatalf("demo exit %d: %s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Result:") || !strings.Contains(out, "game over") {
		t.Errorf("demo output:\n%s", out)
	}
	reports := 0
	impulses := 0
	scramble := false
	entries, _ := os.ReadDir(filepath.Join(dir, "mails", "alice"))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, "mails", "alice", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		// The Hurricane on the airfield tries its engine in impulse 7 (seed 001 IV.2).
		scramble = scramble || strings.Contains(string(b), "impulse 7: SCRAMBLE's engine")
		if strings.Contains(string(b), "round ") && strings.Contains(string(b), "report for Alice") {
			reports++
		}
		if strings.Contains(string(b), " impulse ") {
			impulses++
		}
	}
	if !scramble {
		t.Error("Alice's mail never tells of SCRAMBLE's engine start attempt")
	}
	if reports < 9 || impulses == 0 {
		t.Errorf("an eight-turn impulse game gives Alice more reports than turns, each by impulse: %d reports, %d with impulses", reports, impulses)
	}
}

// TestDemoPlaysTheStrike: the bundled air-to-ground scenario (seed 002) is played by mail to its end:
// the attackers' bombs, torpedoes and rockets go in, flak fires from the ships and the bridge, the
// defender's standing order for his heavy battery is accepted with the rest, and neither side's mail
// shows the other's dice.
func TestDemoPlaysTheStrike(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := sortie(t, "demo", "--scenario", "strike", "--out", filepath.Join(dir, "mails"))
	if code != 0 {
		t.Fatalf("demo exit %d: %s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "Result:") {
		t.Errorf("demo output:\n%s", out)
	}
	read := func(who string) string {
		var all strings.Builder
		entries, _ := os.ReadDir(filepath.Join(dir, "mails", who))
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".eml") {
				continue // a report's picture, written beside it
			}
			b, err := os.ReadFile(filepath.Join(dir, "mails", who, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m, err := inmail.Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			all.WriteString(m.Text)
		}
		return all.String()
	}
	alice, kenji := read("alice"), read("kenji")
	for _, want := range []string{"rocket salvo", "came under heavy flak", "came under light flak", "dropped a torpedo", "BOMB"} {
		if !strings.Contains(alice, want) {
			t.Errorf("Alice's mail never says %q", want)
		}
	}
	for _, want := range []string{"'s heavy flak fired at", "HEAVY1: FIRE ANY", "standing order: FIRE ANY"} {
		if !strings.Contains(kenji, want) {
			t.Errorf("Kenji's mail never says %q", want)
		}
	}
	// The flak's dice are labelled with the flak unit, the plane's with the plane.
	if strings.Contains(alice, "flak at") || regexp.MustCompile(`(DAUNT|TORP|CAT)\d against flak`).MatchString(kenji) {
		t.Error("a side was shown the other side's flak dice")
	}
}

// TestGameCommandsNeedNoMailPasswords: sortie game, export and backup never touch the mail servers, so
// they run with the password variables of the configuration unset.
func TestGameCommandsNeedNoMailPasswords(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "sortie.yaml")
	if err := os.WriteFile(cfg, []byte("database: "+filepath.Join(dir, "s.db")+"\naddress: sortie@example.org\n"+
		"imap: {addr: \"127.0.0.1:1\", tls: none, username: sortie, password_env: SORTIE_TEST_NEVER_SET_1}\n"+
		"smtp: {host: 127.0.0.1, port: 1, tls: none, username: sortie, password_env: SORTIE_TEST_NEVER_SET_2}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := sortie(t, "game", "list", "--config", cfg); code != 0 || !strings.Contains(out, "GAME") {
		t.Errorf("game list without the mail passwords: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := sortie(t, "backup", "--config", cfg, "--out", filepath.Join(dir, "copy.db")); code != 0 {
		t.Errorf("backup without the mail passwords: exit %d %s", code, errOut)
	}
	if _, errOut, code := sortie(t, "serve", "--config", cfg); code == 0 || !strings.Contains(errOut, "SORTIE_TEST_NEVER_SET_1") {
		t.Errorf("serve needs them and names the variable: exit %d %s", code, errOut)
	}
}

// TestNoReferencesOutsideTheRepository: the project's code and docs name only files of the project:
// no document of the planning outside the repository is cited.
func TestNoReferencesOutsideTheRepository(t *testing.T) {
	outside := []string{"design" + ".md", "mail-stack" + ".md", "pbem-anchors" + ".md", "afd-reference" + ".md", "style" + ".md", "shared" + "/", "/rules" + ".md"}
	err := filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		ext := filepath.Ext(path)
		if d.IsDir() || (ext != ".go" && ext != ".md" && ext != ".yaml" && ext != ".tmpl" && d.Name() != "run" && d.Name() != "install-mailservers") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, o := range outside {
			if strings.Contains(string(b), o) {
				t.Errorf("%s names %q, a file outside the repository", path, o)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
