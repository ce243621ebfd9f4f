package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing/fstest"
	"text/tabwriter"
	"time"

	"github.com/rs/zerolog"

	"sortie/adjudicator"
	"sortie/cmd/sortie/internal/daemon"
	"sortie/parser"
	"sortie/rules/registry"
	"sortie/rules/ruleset"
	"sortie/storage"
	"sortie/templates"
)

const serveHelp = `sortie serve --config FILE [--init]: run the mail daemon (docs/operations.md).

It reads orders from the IMAP inbox, answers each mail, resolves rounds when every order is in or the
deadline passes, and sends reports over SMTP. SIGINT or SIGTERM stops it cleanly. While it runs,
''sortie game ...' commands with the same --config talk to it through a socket beside the database.
A damaged database is refused with the newest backup to restore; an existing empty database file is
used as a new database only with --init (a path that does not exist is always created).
`

func cmdServe(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "")
	help := fs.Bool("help", false, "")
	initEmpty := fs.Bool("init", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("serve: %v\n\n%s", err, serveHelp)
	}
	if *help {
		fmt.Fprint(stdout, serveHelp)
		return nil
	}
	if *configPath == "" {
		return usagef("serve: --config is required\n\n%s", serveHelp)
	}
	// A stop asked for while the daemon is still starting (systemd stopping it as it comes up) ends it
	// cleanly as soon as it has started, instead of killing it halfway through opening the database.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := daemon.LoadConfig(*configPath)
	if err != nil {
		return usagef("%v", err)
	}
	cfg.InitEmpty = *initEmpty
	d, err := daemon.NewDaemon(cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	access, err := controlAccessFor(cfg)
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := listenControl(cfg.Database, access)
	if err != nil {
		return err
	}
	go serveControl(ctx, ln, d.Svc, access, d.Log)
	defer ln.Close()
	return d.Run(ctx)
}

// The control socket lets 'sortie game ...' work while the daemon holds the database: the command runs
// inside the daemon, on the same database and service.
func socketPath(db string) string { return db + ".sock" }

func listenControl(db string, access controlAccess) (net.Listener, error) {
	path := socketPath(db)
	if c, err := net.DialTimeout("unix", path, 200*time.Millisecond); err == nil {
		c.Close()
		return nil, fmt.Errorf("another sortie daemon is already serving %s", db)
	}
	os.Remove(path)
	// The socket is made with no access for others whatever the umask, then given its mode.
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	if err != nil {
		return nil, err
	}
	mode := os.FileMode(0o600)
	if access.group >= 0 {
		if err := os.Chown(path, -1, access.group); err != nil {
			ln.Close()
			return nil, fmt.Errorf("control socket %s: group %s: %w", path, access.groupName, err)
		}
		mode = 0o660
	}
	if err := os.Chmod(path, mode); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

type controlRequest struct {
	Args  []string `json:"args"`
	Input []byte   `json:"input"` // a scenario file for game new
	Name  string   `json:"name"`  // its file name
	// Files are the files the scenario includes, read by the client from the scenario's folder: the
	// daemon reads none of its own disk for a scenario.
	Files map[string][]byte `json:"files,omitempty"`
}

type controlResponse struct {
	Output string `json:"output"`
	Error  string `json:"error"`
	Usage  bool   `json:"usage"`
}

func serveControl(ctx context.Context, ln net.Listener, svc *adjudicator.Service, access controlAccess, log zerolog.Logger) {
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			if uid, ok, why := access.allows(c); !ok {
				log.Warn().Int("uid", uid).Str("why", why).Msg("control socket: connection refused")
				// Read the request (and drop it) so the client gets the refusal, not a broken pipe.
				c.SetDeadline(time.Now().Add(5 * time.Second))
				json.NewDecoder(io.LimitReader(c, 1<<20)).Decode(&controlRequest{})
				json.NewEncoder(c).Encode(controlResponse{Error: "the sortie daemon refuses commands from this user: " + why})
				return
			}
			c.SetDeadline(time.Now().Add(30 * time.Minute)) // a backup of a large database takes a while
			var req controlRequest
			if err := json.NewDecoder(c).Decode(&req); err != nil {
				return
			}
			if len(req.Args) == 0 {
				return
			}
			var out bytes.Buffer
			// A scenario sent over the socket brings the files it includes; the daemon's own disk is never
			// read for it.
			var files fs.FS
			if len(req.Files) > 0 {
				m := fstest.MapFS{}
				for name, data := range req.Files {
					m[name] = &fstest.MapFile{Data: data, Mode: 0o400}
				}
				files = m
			}
			err := gameCommand(svc, req.Args, req.Input, ruleset.RemoteSource(req.Name), files, &out)
			resp := controlResponse{Output: out.String()}
			if err != nil {
				resp.Error = err.Error()
				var u usageError
				resp.Usage = errors.As(err, &u)
				if resp.Usage {
					resp.Error = u.msg
				}
			}
			json.NewEncoder(c).Encode(resp)
		}()
	}
}

const gameHelp = `sortie game: moderators' commands, on the daemon's database (safe while it runs).

  sortie game new --config FILE [--id ID] [--bot SIDE]... [--init] SCENARIO
                                                     start a game; players get their welcome mail
                                                     (--bot SIDE: the computer plays that side's seats
                                                     that have no address; --init: the database file
                                                     exists but is empty)
  sortie game list --config FILE                     every game, its round, deadline and who is missing
  sortie game status --config FILE ID                one game: seats, missing orders, waits, hashes
  sortie game resolve --config FILE ID               resolve the round now (missing orders fly the default)
  sortie game pause|resume --config FILE ID          stop or restart the clock (announced to players)
  sortie game extend --config FILE ID HOURS          move the deadline on
  sortie game process --config FILE ID TURN          resolve now, only if the game is on that turn
  sortie game rollback --config FILE ID TURN         back to the start of an earlier turn
  sortie game replace --config FILE ID PLAYER EMAIL  hand a seat to a new player
  sortie game renew --config FILE ID PLAYER          new secret, reply address and web link for a
                                                     player (mailed to them; the old ones stop working)
  sortie game away --config FILE ID PLAYER DATE      a player is away until DATE (YYYY-MM-DD)
  sortie game back --config FILE ID PLAYER           the absence ends
  sortie game digest --config FILE ID                mail the moderator the digest of their games now
`

func cmdGame(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return usagef("%s", gameHelp)
	}
	sub := args[0]
	fs := flag.NewFlagSet("game "+sub, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "")
	id := fs.String("id", "", "")
	initEmpty := fs.Bool("init", false, "")
	var bots sideList
	fs.Var(&bots, "bot", "")
	pos, rest := splitPositional(args[1:])
	if err := fs.Parse(rest); err != nil {
		return usagef("game %s: %v\n\n%s", sub, err, gameHelp)
	}
	extra := fs.Args()
	if pos == "" && fs.NArg() > 0 {
		pos, extra = fs.Arg(0), fs.Args()[1:]
	}
	if *configPath == "" {
		return usagef("game %s: --config is required (the daemon's configuration file)", sub)
	}
	cfg, err := daemon.LoadConfigNoMail(*configPath)
	if err != nil {
		return usagef("%v", err)
	}
	call := []string{sub}
	var folder *includes // the scenario's folder, for game new
	var input []byte
	name := ""
	switch sub {
	case "new":
		if pos == "" {
			return usagef("game new: which scenario file?")
		}
		if input, err = os.ReadFile(pos); err != nil {
			return usagef("%v", err)
		}
		name = pos
		root, err := os.OpenRoot(filepath.Dir(pos))
		if err != nil {
			return usagef("%v", err)
		}
		defer root.Close()
		folder = &includes{files: root.FS(), read: map[string][]byte{}}
		if *id != "" {
			call = append(call, "--id", *id)
		}
		for _, side := range bots {
			call = append(call, "--bot", side)
		}
	case "status", "resolve":
		if pos == "" {
			return usagef("game %s: which game? (sortie game list)", sub)
		}
		call = append(call, pos)
	case "pause", "resume", "extend", "process", "rollback", "replace", "renew", "away", "back", "digest":
		if pos == "" {
			return usagef("game %s: which game? (sortie game list)", sub)
		}
		want := map[string]int{"pause": 0, "resume": 0, "digest": 0, "extend": 1, "process": 1, "rollback": 1, "back": 1, "renew": 1, "replace": 2, "away": 2}[sub]
		if len(extra) != want {
			return usagef("game %s takes %d argument(s) after the game\n\n%s", sub, want, gameHelp)
		}
		call = append(call, pos)
		call = append(call, extra...)
	case "list":
	default:
		return usagef("game: unknown command %q\n\n%s", sub, gameHelp)
	}
	// A running daemon answers through its socket; otherwise open the database here.
	if c, err := net.DialTimeout("unix", socketPath(cfg.Database), 500*time.Millisecond); err == nil {
		defer c.Close()
		req := controlRequest{Args: call, Input: input, Name: name}
		if folder != nil {
			req.Files = folder.collect(input, name)
		}
		if err := json.NewEncoder(c).Encode(req); err != nil {
			return err
		}
		var resp controlResponse
		if err := json.NewDecoder(c).Decode(&resp); err != nil {
			return fmt.Errorf("the daemon did not answer: %w", err)
		}
		fmt.Fprint(stdout, resp.Output)
		if resp.Error != "" {
			if resp.Usage {
				return usagef("%s", resp.Error)
			}
			return errors.New(resp.Error)
		}
		return nil
	}
	cfg.InitEmpty = *initEmpty
	db, err := daemon.OpenDatabase(cfg, storage.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	tmpl, err := templates.New(cfg.Templates)
	if err != nil {
		return err
	}
	svc := adjudicator.New(db, tmpl, cfg.AdjudicatorConfig(), cfg.Logger())
	return gameCommand(svc, call, input, name, folder.folder(), stdout)
}

// includes is a scenario's folder that remembers the files read from it, so a client can send the
// running daemon exactly the files its scenario includes.
type includes struct {
	files fs.FS
	read  map[string][]byte
}

func (i *includes) Open(name string) (fs.File, error) { return i.files.Open(name) }

// folder is the scenario's folder itself, or nil when there is none.
func (i *includes) folder() fs.FS {
	if i == nil {
		return nil
	}
	return i.files
}

func (i *includes) ReadFile(name string) ([]byte, error) {
	data, err := fs.ReadFile(i.files, name)
	if err == nil {
		i.read[name] = data
	}
	return data, err
}

// collect reads the scenario the way its ruleset will, here, and returns the files it included. A
// scenario with problems includes what it could; the daemon reports the problems.
func (i *includes) collect(scenario []byte, name string) map[string][]byte {
	if rsName, err := registry.Detect(scenario); err == nil {
		if rs, err := registry.Get(rsName); err == nil {
			if part, err := adjudicator.GamePart(scenario); err == nil {
				rs.NewGame(part, i, name)
			}
		}
	}
	return i.read
}

// sideList is a flag given once per side: --bot RAF --bot Luftwaffe.
type sideList []string

func (l *sideList) String() string { return strings.Join(*l, ",") }

func (l *sideList) Set(v string) error {
	if strings.TrimSpace(v) == "" {
		return errors.New("--bot needs a side")
	}
	*l = append(*l, v)
	return nil
}

// gameCommand runs one moderator command on a service (in the daemon or in this process).
func gameCommand(svc *adjudicator.Service, args []string, input []byte, name string, files fs.FS, w io.Writer) error {
	if handled, err := archiveCommand(svc, args, w); handled {
		return err
	}
	switch args[0] {
	case "new":
		id := ""
		var bots []string
		for i := 1; i+1 < len(args); i += 2 {
			switch args[i] {
			case "--id":
				id = args[i+1]
			case "--bot":
				bots = append(bots, args[i+1])
			}
		}
		g, err := svc.NewGameBots(input, files, name, id, bots)
		if err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintf(w, "game %s started: %s, round %d, first deadline %s\n", g.ID, g.Name, g.Round, g.Deadline.Format(time.RFC1123))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PLAYER\tSIDE\tADDRESS\tSECRET\tREPLY TOKEN")
		for _, s := range g.Seats {
			if s.Bot {
				fmt.Fprintf(tw, "%s\t%s\t(the computer)\t-\t-\n", s.Player, s.Side)
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Player, s.Side, s.Email, s.Secret, s.Token)
		}
		tw.Flush()
		fmt.Fprintln(w, "Each player has been mailed their secret and reply address.")
		return nil
	case "list":
		games, err := svc.List()
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "GAME\tNAME\tRULES\tROUND\tSTATUS\tDEADLINE (UTC)\tMISSING")
		for _, g := range games {
			// A finished game has no round to play: it is over after its last turn, as its players were told.
			round := fmt.Sprint(g.Round)
			if g.Status == adjudicator.StatusOver {
				round = fmt.Sprintf("after turn %d", g.Turn)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\n", g.ID, g.Name, g.Ruleset, round, g.State(), g.DeadlineText(), g.Missing)
		}
		return tw.Flush()
	case "status":
		st, err := svc.Status(args[1])
		if err != nil {
			return usagef("%v", err)
		}
		if st.Status == adjudicator.StatusOver {
			fmt.Fprintf(w, "%s (%s), %s rules: over after turn %d\n", st.ID, st.Name, st.Ruleset, st.Turn)
		} else {
			fmt.Fprintf(w, "%s (%s), %s rules: round %d, %s\n", st.ID, st.Name, st.Ruleset, st.Round, st.State())
		}
		if st.Result != "" {
			fmt.Fprintf(w, "result: %s\n", st.Result)
		}
		deadline := "deadline " + st.Deadline.UTC().Format(time.RFC1123)
		switch st.State() {
		case "paused", "held":
			deadline += " (the clock stands still while the game is " + st.State() + ")"
		case adjudicator.StatusRunning:
		default:
			deadline = "no deadline (the game is " + st.State() + ")"
		}
		fmt.Fprintf(w, "%s; %d round(s) archived; state commitment %s\n", deadline, st.Archived, st.StateCommitment)
		if st.Paused {
			fmt.Fprintln(w, "PAUSED by the moderator")
		}
		if st.Held != "" {
			fmt.Fprintf(w, "HELD for the moderator: %s\n", st.Held)
		}
		for _, rb := range st.Rollbacks {
			fmt.Fprintf(w, "rolled back: %s\n", rb)
		}
		if st.Policy.Mode != "" && st.Policy.Mode != adjudicator.PolicyDefault {
			fmt.Fprintf(w, "NMR policy: %s after %d missed turns\n", st.Policy.Mode, st.Policy.After)
		}
		for _, s := range st.Seats {
			missing := "all orders in"
			if len(s.Missing) > 0 {
				missing = "missing " + strings.Join(s.Missing, ", ")
			}
			wait := ""
			if s.Waiting {
				wait = " (WAIT)"
			}
			if s.AwayUntil != "" {
				wait += " (away until " + s.AwayUntil + ")"
			}
			if s.Autopilot {
				wait += " (autopilot)"
			}
			if s.Bot {
				missing = "played by the computer"
			}
			if s.Dropped {
				wait += " (dropped out)"
			}
			if s.Misses > 0 {
				wait += fmt.Sprintf(" (%d missed)", s.Misses)
			}
			fmt.Fprintf(w, "  %-10s %-10s %-28s %s%s\n", s.Player, s.Side, s.Email, missing, wait)
			if s.WebLink != "" {
				fmt.Fprintf(w, "  %-10s web archive link (for this player only): %s\n", "", s.WebLink)
			}
		}
		return nil
	case "pause", "resume", "extend", "process", "rollback", "replace", "renew", "away", "back", "digest":
		cmd := parser.Command{Name: strings.ToUpper(args[0]), Args: args[2:]}
		switch cmd.Name {
		case "AWAY":
			cmd.Args = []string{args[3], args[2]} // date, player
		case "PROCESS", "ROLLBACK":
			cmd.Args = []string{strings.TrimPrefix(strings.ToUpper(args[2]), "TURN")}
		}
		if err := checkModeratorArgs(cmd); err != nil {
			return err
		}
		done, err := svc.Moderate(args[1], cmd)
		if err != nil {
			return usagef("%v", err)
		}
		fmt.Fprintln(w, done)
		return nil
	case "resolve":
		ok, err := svc.ResolveGame(args[1], true)
		if err != nil {
			return usagef("%v", err)
		}
		if ok {
			fmt.Fprintf(w, "game %s: round resolved; reports are queued\n", args[1])
		}
		return nil
	}
	return usagef("game: unknown command %q", args[0])
}

// checkModeratorArgs checks a moderator command from the command line the way the order-block parser
// checks one from a mail.
func checkModeratorArgs(c parser.Command) error {
	b, ds := parser.ParseBlock("GAME x\n" + c.String() + "\nEND")
	for _, d := range ds {
		if d.Severity == parser.SeverityError {
			return usagef("%s: %s", strings.ToLower(c.Name), d.Message)
		}
	}
	if len(b.Commands) != 1 {
		return usagef("%s: not understood", strings.ToLower(c.Name))
	}
	return nil
}
