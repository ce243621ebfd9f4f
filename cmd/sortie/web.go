package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"sortie/adjudicator"
	"sortie/cmd/sortie/internal/daemon"
	"sortie/storage"
	"sortie/templates"
)

const webHelp = `sortie web --config FILE [--listen ADDR]: serve the web archive of the games, read-only (docs/web.md).

Over HTTP: the list of games; every turn of a finished game (or one listed in web.public) with its map,
events, dice and each side's report, its verification and its archive to download; and each player's own
reports through their secret link, while the game runs. A running daemon serves the same pages itself
when its configuration has web.listen; this command is for when no daemon runs: it opens the database
read-only, so a daemon cannot start on it until this stops. SIGINT or SIGTERM stops it.

  --listen ADDR   where to listen (default: web.listen, or 127.0.0.1:8080)
`

// webOpenTimeout is how long sortie web waits for the database's lock (a command writing it).
const webOpenTimeout = 3 * time.Second

func cmdWeb(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "")
	listen := fs.String("listen", "", "")
	help := fs.Bool("help", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("web: %v\n\n%s", err, webHelp)
	}
	if *help {
		fmt.Fprint(stdout, webHelp)
		return nil
	}
	if fs.NArg() > 0 {
		return usagef("web: unexpected %q\n\n%s", fs.Arg(0), webHelp)
	}
	if *configPath == "" {
		return usagef("web: --config is required (the daemon's configuration file)\n\n%s", webHelp)
	}
	cfg, err := daemon.LoadConfigNoMail(*configPath)
	if err != nil {
		return usagef("%v", err)
	}
	addr := *listen
	if addr == "" {
		addr = cfg.Web.Listen
	}
	if addr == "" {
		addr = daemon.DefaultWebListen
	}
	if c, err := net.DialTimeout("unix", socketPath(cfg.Database), 500*time.Millisecond); err == nil {
		c.Close()
		return fmt.Errorf("the sortie daemon is running on %s and holds it: it serves the web archive itself when its "+
			"configuration has web.listen (docs/web.md); set it and restart the daemon, or stop the daemon to use sortie web", cfg.Database)
	}
	db, err := openReadOnly(cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	tmpl, err := templates.New(cfg.Templates)
	if err != nil {
		return err
	}
	log := cfg.Logger()
	svc := adjudicator.New(db, tmpl, cfg.AdjudicatorConfig(), log)
	cfg.Web.ReadOnly = true // the database is open read-only: the plotting board sends nothing
	ws, err := daemon.NewWebServer(cfg.Web, addr, svc, log)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "sortie web: serving the games of %s, read-only, at http://%s%s/\n", cfg.Database, ws.Addr(), cfg.Web.Prefix())
	return ws.Run(ctx)
}

// openReadOnly opens the database read-only for as long as sortie web runs, waiting a little for a
// command that is writing it. A database of an older schema is brought up to date first (a read-write
// open, closed at once), as the daemon would on its next start.
func openReadOnly(cfg *daemon.Config) (*storage.DB, error) {
	opts := storage.Options{ReadOnly: true, Timeout: webOpenTimeout}
	db, err := daemon.OpenDatabase(cfg, opts)
	if errors.Is(err, storage.ErrNeedsMigration) {
		var rw *storage.DB
		if rw, err = daemon.OpenDatabase(cfg, storage.Options{Timeout: webOpenTimeout}); err == nil {
			rw.Close()
			db, err = daemon.OpenDatabase(cfg, opts)
		}
	}
	if errors.Is(err, storage.ErrLocked) {
		return nil, fmt.Errorf("%w\nAnother sortie is writing %s (a daemon starting, or a command); sortie web waited %s for it. "+
			"If the daemon is meant to run, let it serve the web archive (web.listen, docs/web.md)", err, cfg.Database, webOpenTimeout)
	}
	return db, err
}
