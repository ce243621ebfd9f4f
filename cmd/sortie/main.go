// Command sortie is Sortie's one binary: the play-by-email daemon and the rules calculator for players
// and moderators.
//
//	sortie aircraft list
//	sortie aircraft show KEY [--json]
//	sortie calc move --aircraft KEY --speed S --alt FT --bank B [--facing D] [--loaded]
//	                 [--previous LIST] [--straight N] --plot "PLOT" [--json]
//	sortie calc fire --shooter KEY --target KEY --range N --clock C [--height-diff FT] [--guns POS]
//	                 --dice RED,WHITE[,D10...] [--json]
//	sortie calc damage --aircraft KEY --hits LETTERS [--red N] [--side L|R] [--json]
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

const usage = `Sortie: play-by-email adjudication for Air Force / Dauntless.

Usage:
  sortie demo                          play a whole game by mail on built-in mail servers
  sortie serve --config FILE           run the mail daemon
  sortie game new|list|status|resolve  moderators' commands (sortie game)
  sortie aircraft list                 the aircraft types Sortie knows
  sortie aircraft show KEY [--json]    one type's card: bands, speeds, turn modes, guns, systems
  sortie calc move ...                 fly a plot and show it hex by hex (sortie calc move --help)
  sortie calc fire ...                 one burst read off the tables, and its damage (--help)
  sortie calc damage ...               a hit-location result applied to a fresh aircraft (--help)
  sortie resolve ...                   resolve one turn offline from a scenario or state (--help)
  sortie export GAME --out DIR ...     a game's archive: turns, dice, mail, hashes (--help)
  sortie verify DIR                    re-adjudicate an archive, every turn byte for byte
  sortie backup --out PATH ...         a consistent copy of the database, safe while it runs

Exit status: 0 ok, 1 illegal plot, 2 usage error.
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "aircraft":
		err = cmdAircraft(args[1:], stdout)
	case "calc":
		err = cmdCalc(args[1:], stdout)
	case "resolve":
		err = cmdResolve(args[1:], stdout)
	case "serve":
		err = cmdServe(args[1:], stdout)
	case "game":
		err = cmdGame(args[1:], stdout)
	case "demo":
		err = cmdDemo(args[1:], stdout)
	case "export":
		err = cmdExport(args[1:], stdout)
	case "verify":
		err = cmdVerify(args[1:], stdout)
	case "backup":
		err = cmdBackup(args[1:], stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = usagef("unknown command %q\n\n%s", args[0], usage)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errIllegal):
		return 1
	default:
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintln(stderr, "sortie:", u.msg)
			return 2
		}
		fmt.Fprintln(stderr, "sortie:", err)
		return 1
	}
}
