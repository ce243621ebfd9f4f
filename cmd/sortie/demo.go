package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"sortie/cmd/sortie/internal/demo"
	"sortie/rules/ruleset"
)

const demoHelp = `sortie demo: play a whole game by mail, on mail servers built into the binary.

It starts an IMAP and an SMTP server on loopback, creates a game from a bundled scenario, and lets two
bot players read their reports and mail their orders back through SMTP, while the real daemon reads the
inbox, answers and resolves each turn. Every mail sent is written to a folder.

  --out DIR        where to write the mails (default: a new folder sortie-demo-<time> here)
  --ruleset NAME   which ruleset's bundled scenario to play (sortie --help lists them; default: the first)
  --scenario NAME  one of that ruleset's bundled scenarios (default: the one it names)
  --timeout D      give up after this long (default 50s)
`

func cmdDemo(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "")
	scenario := fs.String("scenario", "", "")
	rules := fs.String("ruleset", "", "")
	timeout := fs.Duration("timeout", 50*time.Second, "")
	help := fs.Bool("help", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("demo: %v\n\n%s", err, demoHelp)
	}
	if *help {
		fmt.Fprint(stdout, demoHelp)
		return nil
	}
	if *out == "" {
		*out = "sortie-demo-" + time.Now().Format("20060102-150405")
	}
	rs, err := rulesetNamed(*rules)
	if err != nil {
		return err
	}
	b, bundled := rs.(ruleset.Bundled)
	if _, pilot := rs.(ruleset.DemoPilot); !bundled || !pilot {
		return usagef("demo: the %s ruleset has no bundled scenario and demo pilot", rs.Name())
	}
	*rules = rs.Name()
	if *scenario == "" {
		*scenario = b.DefaultScenario()
	}
	res, err := demo.Run(demo.Options{Out: *out, Ruleset: *rules, Scenario: *scenario, Timeout: *timeout, Progress: stdout})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\n%d mails were sent; every one is in %s\n", res.Result, res.Mails, res.Out)
	for _, p := range res.Players {
		fmt.Fprintf(stdout, "  %s: %s\n", p, filepath.Join(res.Out, p))
	}
	return nil
}
