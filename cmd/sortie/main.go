// Command sortie is Sortie's one binary: the play-by-email daemon and the rules calculator for players
// and moderators. It names no game: each ruleset's calculator and commands come from the registry
// (`sortie --help` lists them).
//
//	sortie calc NAME [--ruleset R] ...
//	sortie resolve --scenario FILE|--state FILE --orders FILE [--seed N] [--json]
//
// Exit status: 0 success, 1 an illegal plot (the answer is still printed), 2 a usage error (unknown
// aircraft, malformed flag), reported on stderr.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"sortie/rules/ruleset"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// errIllegal reports that the answer was printed but the plot broke a rule: exit status 1.
var errIllegal = errors.New("illegal")

const usage = `Sortie: play-by-email adjudication for plotted air combat games.

Usage:
  sortie demo                          play a whole game by mail on built-in mail servers
  sortie sandbox                       built-in mail servers with a game waiting: play it from your own mail program
  sortie init [--config FILE]          write a configuration from a few questions (or flags), then check it
  sortie serve --config FILE           run the mail daemon
  sortie check --config FILE           try the mail account: IMAP, folders, SMTP, +addresses
  sortie game new|list|status|resolve  moderators' commands (sortie game)
  sortie calc NAME [--ruleset R] ...   a ruleset's rules calculator (below)
  sortie resolve ...                   resolve one turn offline from a scenario or state (--help)
  sortie export GAME --out DIR ...     a game's archive: turns, dice, mail, hashes (--help)
  sortie verify DIR                    re-adjudicate an archive, every turn byte for byte
  sortie backup --out PATH ...         a consistent copy of the database, safe while it runs
  sortie web --config FILE             the games on the web, read-only: turns, maps, dice, players' links
  sortie --version                     the version, the commit it was built from and the Go version

Exit status: 0 ok, 1 illegal plot (or a failed check), 2 usage error.
`

// fullUsage is the usage with each registered ruleset's calculator and commands.
func fullUsage() string { return usage + rulesetHelp() }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, fullUsage())
		return 2
	}
	var err error
	switch args[0] {
	case "calc":
		err = cmdCalc(args[1:], stdout)
	case "resolve":
		err = cmdResolve(args[1:], stdout)
	case "serve":
		err = cmdServe(args[1:], stdout)
	case "check":
		err = cmdCheck(args[1:], stdout)
	case "game":
		err = cmdGame(args[1:], stdout)
	case "demo":
		err = cmdDemo(args[1:], stdout)
	case "sandbox":
		err = cmdSandbox(args[1:], stdout)
	case "init":
		err = cmdInit(args[1:], os.Stdin, stdout)
	case "export":
		err = cmdExport(args[1:], stdout)
	case "verify":
		err = cmdVerify(args[1:], stdout)
	case "backup":
		err = cmdBackup(args[1:], stdout)
	case "web":
		err = cmdWeb(args[1:], stdout)
	case "version", "--version", "-version":
		err = cmdVersion(stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, fullUsage())
		return 0
	default:
		if c, ok := toolCommand(args[0]); ok {
			err = c.Run(args[1:], stdout)
		} else {
			err = usagef("unknown command %q\n\n%s", args[0], fullUsage())
		}
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errIllegal) || errors.Is(err, ruleset.ErrIllegal):
		return 1
	default:
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(stderr, "sortie:", u.msg)
			return 2
		}
		var ru ruleset.UsageError
		if errors.As(err, &ru) {
			fmt.Fprintln(stderr, "sortie:", ru.Msg)
			return 2
		}
		fmt.Fprintln(stderr, "sortie:", err)
		return 1
	}
}
