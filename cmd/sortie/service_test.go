package main

import (
	"bufio"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"sortie/cmd/sortie/internal/daemon"
)

// unitSettings reads a systemd unit file into its settings, each key's values in order.
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "[") {
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			t.Fatalf("%s: not a setting: %q", path, l)
		}
		out[k] = append(out[k], v)
	}
	return out
}

// TestServiceUnitAgreesWithInit: the Debian package's systemd unit (packaging/sortie.service) reads the
// configuration sudo sortie init writes, runs as the user init writes it for, keeps its state where
// init puts the database, reads the environment file init names, and is hardened as the package
// promises (docs/operations.md, "The Debian package"); the package's postinst makes that user.
func TestServiceUnitAgreesWithInit(t *testing.T) {
	unit := unitSettings(t, "../../packaging/sortie.service")
	svc := &service{ConfigDir: serviceConfigDir, StateDir: serviceStateDir, User: serviceUser}
	one := func(k string) string {
		if len(unit[k]) != 1 {
			t.Errorf("the unit has %d %s settings, want one", len(unit[k]), k)
			return ""
		}
		return unit[k][0]
	}
	for k, want := range map[string]string{
		"ExecStart":              "/usr/bin/sortie serve --config " + svc.config(),
		"User":                   serviceUser,
		"Group":                  serviceUser,
		"StateDirectory":         strings.TrimPrefix(serviceStateDir, "/var/lib/"),
		"ConfigurationDirectory": strings.TrimPrefix(serviceConfigDir, "/etc/"),
		"EnvironmentFile":        "-" + svc.envFile(),
		"Restart":                "on-failure",
		"NoNewPrivileges":        "yes",
		"ProtectSystem":          "strict",
		"ProtectHome":            "yes",
		"PrivateTmp":             "yes",
	} {
		if got := one(k); got != want {
			t.Errorf("the unit has %s=%s, want %s", k, got, want)
		}
	}
	if !strings.HasPrefix(serviceStateDir, "/var/lib/") || !strings.HasPrefix(serviceConfigDir, "/etc/") {
		t.Errorf("systemd puts StateDirectory under /var/lib and ConfigurationDirectory under /etc: %s, %s", serviceStateDir, serviceConfigDir)
	}
	var a initAnswers
	a.fill(nil)
	if filepath.Dir(a.Database) != serviceStateDir {
		t.Errorf("sortie init's default database %s is not in the service's state folder %s", a.Database, serviceStateDir)
	}
	a = initAnswers{}
	a.fill(svc)
	if !within(a.BackupDir, serviceStateDir) {
		t.Errorf("the backup folder init suggests to the service, %s, is not one it may write", a.BackupDir)
	}
	postinst, err := os.ReadFile("../../packaging/postinst")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(postinst), "adduser --system --group --home "+serviceStateDir+" --no-create-home --quiet "+serviceUser+"\n") {
		t.Errorf("packaging/postinst does not make the user %s with the home %s:\n%s", serviceUser, serviceStateDir, postinst)
	}
}

// testService is a service layout in temporary folders for the user nobody, whom sortie init as root
// writes files for.
func testService(t *testing.T) *service {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("sortie init writes the service's files for its user as root only; the tests run as uid " + strconv.Itoa(os.Geteuid()))
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody to write the files for")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &service{ConfigDir: t.TempDir(), StateDir: t.TempDir(), User: "nobody", uid: uid, gid: gid}
}

// TestInitForTheService: sudo sortie init where the Debian package is installed writes the configuration
// the unit reads (no --config needed), readable by the service's group and not by others, and the
// password typed for a password file not there yet into it, readable by the service's user only (what
// the daemon checks at every start); the database and backups go where the service may write; it
// checks the account with them and names systemctl as the next step.
func TestInitForTheService(t *testing.T) {
	svc := testService(t)
	s := startInitServers(t)
	answers := strings.Join([]string{
		"2",                      // own Dovecot and Postfix
		initAddress,              // the address
		strconv.Itoa(s.imapPort), // IMAP port
		strconv.Itoa(s.smtpPt),   // SMTP port
		"",                       // login: the address
		"",                       // the password: from a file, for the service
		"",                       // the service's password file, not there yet
		"",                       // an empty password: asked again
		initPassword,             // the password
		s.caFile,                 // the servers' CA
		"",                       // database: the service's
	}, "\n") + "\n"
	var out strings.Builder
	if err := initCommand([]string{"--wait", "20s"}, strings.NewReader(answers), &out, svc); err != nil {
		t.Fatalf("sortie init: %v\n%s", err, out.String())
	}
	for _, want := range []string{"Password file [" + svc.passwordFile() + "]", "wrote " + svc.passwordFile() + " (only nobody may read it)",
		"ok   probe", "Next: sudo systemctl enable --now sortie"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("sortie init does not say %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), initPassword) {
		t.Errorf("sortie init shows the password:\n%s", out.String())
	}
	owner := func(path string) (os.FileMode, uint32, uint32) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		return fi.Mode().Perm(), st.Uid, st.Gid
	}
	if mode, uid, gid := owner(svc.config()); mode != 0o640 || uid != 0 || int(gid) != svc.gid {
		t.Errorf("%s: mode %04o, owner %d:%d; want 0640, root and the service's group %d", svc.config(), mode, uid, gid, svc.gid)
	}
	if mode, uid, _ := owner(svc.passwordFile()); mode != 0o600 || int(uid) != svc.uid {
		t.Errorf("%s: mode %04o, owner %d; want 0600 and the service's user %d", svc.passwordFile(), mode, uid, svc.uid)
	}
	if b, _ := os.ReadFile(svc.passwordFile()); string(b) != initPassword+"\n" {
		t.Errorf("the password file holds %q", b)
	}
	c, err := daemon.LoadConfig(svc.config())
	if err != nil {
		t.Fatal(err)
	}
	if c.Database != svc.database() || c.IMAP.PasswordFile != svc.passwordFile() || c.SMTP.PasswordFile != svc.passwordFile() || c.IMAP.Password != initPassword {
		t.Errorf("the configuration read back: database %s, password files %s %s", c.Database, c.IMAP.PasswordFile, c.SMTP.PasswordFile)
	}
	if b, _ := os.ReadFile(svc.config()); !strings.Contains(string(b), "# dir: "+filepath.Join(svc.StateDir, "backups")) {
		t.Errorf("the configuration suggests a backup folder the service may not write:\n%s", b)
	}
}

// TestInitRefusesWhatTheServiceCannotRead: for the service, a password file its user does not own (it
// could not read it), one outside the service's folder (hidden from it), and a database outside its
// state folder (read-only to it) are each refused before anything is written, with what to do.
func TestInitRefusesWhatTheServiceCannotRead(t *testing.T) {
	svc := testService(t)
	rootOwned := filepath.Join(svc.ConfigDir, "mail-password")
	if err := os.WriteFile(rootOwned, []byte(initPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	elsewhere := passwordFile(t, 0o600)
	if err := os.Chown(elsewhere, svc.uid, svc.gid); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		wants string
	}{
		{"root's password file", []string{"--password-file", rootOwned}, "run chown nobody: " + rootOwned},
		{"a password file elsewhere", []string{"--password-file", elsewhere}, "put the password in " + svc.passwordFile()},
		{"a database elsewhere", []string{"--password-env", "X", "--database", "/srv/sortie.db"}, "the service may write only in " + svc.StateDir},
	} {
		var out strings.Builder
		args := append([]string{"--mailbox", "own-server", "--address", "sortie@example.org", "--no-check"}, c.args...)
		err := initCommand(args, strings.NewReader(""), &out, svc)
		if _, ok := err.(usageError); !ok || !strings.Contains(err.Error(), c.wants) {
			t.Errorf("%s: %v, want a usage error saying %q\n%s", c.name, err, c.wants, out.String())
		}
		if _, err := os.Stat(svc.config()); err == nil {
			t.Fatalf("%s: a configuration was written", c.name)
		}
	}
	// The same password file is fine once the service's user owns it.
	if err := os.Chown(rootOwned, svc.uid, svc.gid); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := initCommand([]string{"--mailbox", "own-server", "--address", "sortie@example.org", "--password-file", rootOwned, "--no-check"}, strings.NewReader(""), &out, svc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
}
