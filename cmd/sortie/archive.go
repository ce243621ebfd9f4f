package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sortie/adjudicator"
	"sortie/adjudicator/archive"
	"sortie/cmd/sortie/internal/daemon"
	"sortie/storage"
	"sortie/templates"
)

// Archives and backups (docs/archives.md). export and backup work with or without the daemon: while it
// runs they go through its control socket (serve.go's gameCommand hands them to archiveCommand), since
// the daemon holds the database; verify needs nothing but the archive folder.

const exportHelp = `sortie export GAME --config FILE --out DIR: write a game's archive into a new folder (docs/archives.md).

The archive holds every turn's state, orders, events and dice, the current state, every mail the game
sent as it was sent (mail.mbox) and where each stands (mail.json), the dice log, the rules version, a manifest and SHA256SUMS. Player secrets and reply
tokens are withheld; the dice seed is included only once the game is over. Check it with sortie verify.
Works while the daemon runs (through its socket) and when it does not.
`

const verifyHelp = `sortie verify DIR [--json]: re-adjudicate an archive and confirm every turn byte for byte.

It checks every file against SHA256SUMS, re-runs every turn from its state and orders with this sortie's
rules (with the dice drawn again from the seed once the game is over, replayed as recorded before),
compares the events, the dice and the state hashes, and checks the seed against the commitment the first
report published. Once the seed is revealed it also recomputes every state commitment the players were
shown (HMAC-SHA256 of the state, keyed by the seed); while the game runs it says they cannot be checked yet. Exit status 0: everything verified; 1: something differs (listed per turn).
`

const backupHelp = `sortie backup --config FILE --out PATH: write a consistent copy of the whole database to PATH.

Safe while the daemon runs: the running daemon writes the copy (so PATH must be writable by it) while it
carries on. The copy is written to a temporary file and renamed, so PATH always holds a complete backup.
It holds player secrets: keep it as private as the database.
`

func cmdExport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "")
	out := fs.String("out", "", "")
	help := fs.Bool("help", false, "")
	pos, rest := splitPositional(args)
	if err := fs.Parse(rest); err != nil {
		return usagef("export: %v\n\n%s", err, exportHelp)
	}
	if *help {
		fmt.Fprint(stdout, exportHelp)
		return nil
	}
	more := fs.Args()
	if pos == "" && len(more) > 0 {
		pos, more = more[0], more[1:]
	}
	switch {
	case len(more) > 0:
		return usagef("export: one game at a time (got %s)\n\n%s", strings.Join(more, " "), exportHelp)
	case pos == "":
		return usagef("export: which game? (sortie game list)\n\n%s", exportHelp)
	case *configPath == "":
		return usagef("export: --config is required (the daemon's configuration file)")
	case *out == "":
		return usagef("export: --out DIR is required (a new or empty folder)")
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 {
		return usagef("export: %s is not empty; export into a new folder", *out)
	}
	cfg, err := daemon.LoadConfigNoMail(*configPath)
	if err != nil {
		return usagef("%v", err)
	}
	var a *archive.Archive
	output, running, err := askDaemon(cfg, []string{"export", pos})
	if running {
		if err != nil {
			return err
		}
		a = new(archive.Archive)
		if err := json.Unmarshal([]byte(output), a); err != nil {
			return fmt.Errorf("the daemon's archive could not be read: %w", err)
		}
	} else {
		svc, closeDB, err := openService(cfg)
		if err != nil {
			return err
		}
		a, err = archive.Export(svc, pos)
		closeDB()
		if err != nil {
			return usagef("export: %v", err)
		}
	}
	if err := a.WriteDir(*out); err != nil {
		return err
	}
	seed := "the seed is withheld until the game is over"
	if a.Manifest.Seed != "" {
		seed = "the seed is included"
	}
	fmt.Fprintf(stdout, "game %s exported to %s: %d turn(s), %d mail(s), %s; check it with: sortie verify %s\n",
		a.Manifest.Game, *out, len(a.Rounds), len(a.Mails), seed, *out)
	return nil
}

func cmdVerify(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	help := fs.Bool("help", false, "")
	pos, rest := splitPositional(args)
	if err := fs.Parse(rest); err != nil {
		return usagef("verify: %v\n\n%s", err, verifyHelp)
	}
	if *help {
		fmt.Fprint(stdout, verifyHelp)
		return nil
	}
	more := fs.Args()
	if pos == "" && len(more) > 0 {
		pos, more = more[0], more[1:]
	}
	if pos == "" || len(more) > 0 {
		return usagef("verify: give one archive folder\n\n%s", verifyHelp)
	}
	if st, err := os.Stat(pos); err != nil || !st.IsDir() {
		return usagef("verify: %s is not a folder", pos)
	}
	rep, err := archive.Verify(pos)
	if rep == nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if e := enc.Encode(rep); e != nil {
			return e
		}
	} else if e := rep.WriteText(stdout); e != nil {
		return e
	}
	return err
}

func cmdBackup(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "")
	out := fs.String("out", "", "")
	help := fs.Bool("help", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("backup: %v\n\n%s", err, backupHelp)
	}
	if *help {
		fmt.Fprint(stdout, backupHelp)
		return nil
	}
	switch {
	case fs.NArg() > 0:
		return usagef("backup: unexpected %s\n\n%s", strings.Join(fs.Args(), " "), backupHelp)
	case *configPath == "":
		return usagef("backup: --config is required (the daemon's configuration file)")
	case *out == "":
		return usagef("backup: --out PATH is required (the backup file)")
	}
	cfg, err := daemon.LoadConfigNoMail(*configPath)
	if err != nil {
		return usagef("%v", err)
	}
	// The daemon may run in another folder: give it an absolute path.
	path, err := filepath.Abs(*out)
	if err != nil {
		return usagef("backup: %v", err)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return usagef("backup: the folder %s does not exist", filepath.Dir(path))
	}
	_, running, err := askDaemon(cfg, []string{"backup", path})
	if !running {
		svc, closeDB, oerr := openService(cfg)
		if oerr != nil {
			return oerr
		}
		err = svc.Backup(path)
		closeDB()
	}
	if err != nil {
		return err
	}
	size := int64(0)
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	fmt.Fprintf(stdout, "backup of %s written to %s (%d bytes)\n", cfg.Database, path, size)
	return nil
}

// archiveCommand runs export or backup on a service, for the daemon's control socket: serve.go's
// gameCommand calls it first and returns its error when handled is true. export answers with the
// archive as JSON (the command writes the folder itself, with the user's permissions and working
// folder); backup writes the copy to the absolute path given.
func archiveCommand(svc *adjudicator.Service, args []string, w io.Writer) (handled bool, err error) {
	if len(args) == 0 {
		return false, nil
	}
	switch args[0] {
	case "export":
		if len(args) != 2 {
			return true, usagef("export: which game?")
		}
		a, err := archive.Export(svc, args[1])
		if err != nil {
			return true, usagef("export: %v", err)
		}
		return true, json.NewEncoder(w).Encode(a)
	case "backup":
		if len(args) != 2 || !filepath.IsAbs(args[1]) {
			return true, usagef("backup: give the absolute path of the backup file")
		}
		if err := svc.Backup(args[1]); err != nil {
			return true, err
		}
		fmt.Fprintf(w, "backup written to %s\n", args[1])
		return true, nil
	}
	return false, nil
}

// askDaemon sends a command to a running daemon's control socket. running is false when no daemon
// answers on the socket (the caller then opens the database itself).
func askDaemon(cfg *daemon.Config, args []string) (output string, running bool, err error) {
	c, err := net.DialTimeout("unix", socketPath(cfg.Database), 500*time.Millisecond)
	if err != nil {
		return "", false, nil
	}
	defer c.Close()
	if err := json.NewEncoder(c).Encode(controlRequest{Args: args}); err != nil {
		return "", true, err
	}
	var resp controlResponse
	if err := json.NewDecoder(c).Decode(&resp); err != nil {
		return "", true, fmt.Errorf("the daemon did not answer: %w", err)
	}
	if resp.Error != "" {
		if resp.Usage && strings.Contains(resp.Error, "unknown command") {
			return "", true, fmt.Errorf("the running daemon does not know %q (it runs an older sortie); "+
				"stop it and run the command again, or restart it with this sortie", args[0])
		}
		if resp.Usage {
			return resp.Output, true, usagef("%s", resp.Error)
		}
		return resp.Output, true, errors.New(resp.Error)
	}
	return resp.Output, true, nil
}

// openService opens the database for export or backup when no daemon holds it: read-only (a shared
// lock, no migration) when the schema allows, so the file is left exactly as it was.
func openService(cfg *daemon.Config) (*adjudicator.Service, func(), error) {
	db, err := daemon.OpenDatabase(cfg, storage.Options{ReadOnly: true})
	if errors.Is(err, storage.ErrNeedsMigration) {
		db, err = daemon.OpenDatabase(cfg, storage.Options{})
	}
	if err != nil {
		return nil, nil, err
	}
	tmpl, err := templates.New(cfg.Templates)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return adjudicator.New(db, tmpl, cfg.AdjudicatorConfig(), cfg.Logger()), func() { db.Close() }, nil
}
