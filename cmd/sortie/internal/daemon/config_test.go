package daemon

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// hangGuard is how long a test waits for what must happen before it calls the daemon hung: minutes, since
// a loaded machine is slow, not wrong. No test here bounds how long anything takes.
const hangGuard = 5 * time.Minute

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "sortie.yaml")
	if err := os.WriteFile(p, []byte("database: "+filepath.Join(t.TempDir(), "s.db")+"\naddress: sortie@sortie.test\n"+text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDigestHourAndRemindersConfigured: digest_hour and reminders reach the adjudicator; without them the
// digest comes at 06:00 UTC and the reminders are the adjudicator's defaults; bad values are named.
func TestDigestHourAndRemindersConfigured(t *testing.T) {
	c, err := LoadConfig(writeConfig(t, "digest_hour: 18\nreminders: [12h, 90m]\n"))
	if err != nil {
		t.Fatal(err)
	}
	ac := c.AdjudicatorConfig()
	if ac.DigestHour != 18 || len(ac.Reminders) != 2 || ac.Reminders[0] != 12*time.Hour || ac.Reminders[1] != 90*time.Minute {
		t.Errorf("digest %d, reminders %v", ac.DigestHour, ac.Reminders)
	}
	c, err = LoadConfig(writeConfig(t, "digest_hour: 0\nreminders: []\n"))
	if err != nil {
		t.Fatal(err)
	}
	if ac := c.AdjudicatorConfig(); ac.DigestHour != 0 || ac.Reminders == nil || len(ac.Reminders) != 0 {
		t.Errorf("midnight and no reminders: digest %d, reminders %#v", ac.DigestHour, ac.Reminders)
	}
	c, err = LoadConfig(writeConfig(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	if ac := c.AdjudicatorConfig(); ac.DigestHour != DefaultDigestHour || ac.Reminders != nil {
		t.Errorf("defaults: digest %d, reminders %v", ac.DigestHour, ac.Reminders)
	}
	_, err = LoadConfig(writeConfig(t, "digest_hour: 24\nreminders: [1d, -2h]\nlog_format: pretty\n"))
	for _, want := range []string{"digest_hour: an hour from 0 to 23", `reminders[0]: a time before the deadline such as 24h or 90m, not "1d"`, `reminders[1]`, "log_format: json or console"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("the error must say %q: %v", want, err)
		}
	}
}

// TestConsoleLogToAFileHasNoColour: log_format console writes plain text into a file or a pipe (escape
// codes only on a terminal).
func TestConsoleLogToAFileHasNoColour(t *testing.T) {
	c := &Config{LogFormat: "console"}
	f, err := os.Create(filepath.Join(t.TempDir(), "sortie.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := c.LoggerTo(f)
	log.Info().Str("game", "g1").Msg("turn resolved")
	f.Close()
	b, _ := os.ReadFile(f.Name())
	if strings.Contains(string(b), "\x1b[") || !strings.Contains(string(b), "turn resolved") || !strings.Contains(string(b), "game=g1") {
		t.Errorf("console log in a file: %q", b)
	}
}

// TestExampleShowsEveryKey: docs/sortie.example.yaml shows every key of the configuration (a key left
// commented out, "# key: value", counts as shown) and no key Sortie does not read.
func TestExampleShowsEveryKey(t *testing.T) {
	b, err := os.ReadFile("../../../../docs/sortie.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	commented := regexp.MustCompile(`^(\s*)# ?([a-z_]+: \S+)(\s+#.*)?$`)
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if m := commented.FindStringSubmatch(l); m != nil {
			l = m[1] + m[2]
		}
		lines = append(lines, l)
	}
	var shown map[string]any
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "\n")), &shown); err != nil {
		t.Fatalf("the example with its commented keys is not YAML: %v", err)
	}
	have := map[string]bool{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			have[prefix+k] = true
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
			}
		}
	}
	walk("", shown)
	want := map[string]bool{}
	var keys func(prefix string, typ reflect.Type)
	keys = func(prefix string, typ reflect.Type) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || name == "" {
				continue
			}
			want[prefix+name] = true
			if f.Type.Kind() == reflect.Struct {
				keys(prefix+name+".", f.Type)
			}
		}
	}
	keys("", reflect.TypeOf(Config{}))
	for k := range want {
		if !have[k] {
			t.Errorf("the example does not show %s", k)
		}
	}
	for k := range have {
		if !want[k] {
			t.Errorf("the example shows %s, which Sortie does not read", k)
		}
	}
}
