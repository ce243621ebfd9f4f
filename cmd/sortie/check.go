package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"sortie/cmd/sortie/internal/daemon"
	"sortie/mailer"
)

const checkHelp = `sortie check --config FILE [--wait 60s]: try the mail account the daemon will use.

Connects to the IMAP server with the configured TLS and credentials, looks for MOVE or UIDPLUS, makes
the folders Sortie files mail in, connects to the SMTP server (STARTTLS or TLS, AUTH), sends a probe to
the service's +probe address and waits for it in the inbox (every reply to a report goes to such an
address), then deletes it. With dkim configured it first reads the signing key, prints the DNS record to
publish, and fails until DNS holds that very key (the probe goes out signed). One line per step; a
failed step says what to fix. Run it before the first sortie serve, and after any change to the mail
account or the key.

Exit status: 0 every step passed (warnings allowed), 1 a step failed, 2 usage error.
`

func cmdCheck(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "")
	wait := fs.Duration("wait", 60*time.Second, "")
	help := fs.Bool("help", false, "")
	if err := fs.Parse(args); err != nil {
		return usagef("check: %v\n\n%s", err, checkHelp)
	}
	switch {
	case *help:
		fmt.Fprint(stdout, checkHelp)
		return nil
	case fs.NArg() > 0:
		return usagef("check: unexpected %s\n\n%s", strings.Join(fs.Args(), " "), checkHelp)
	case *configPath == "":
		return usagef("check: --config is required (the daemon's configuration file)\n\n%s", checkHelp)
	case *wait <= 0:
		return usagef("check: --wait must be positive")
	}
	cfg, err := daemon.LoadConfig(*configPath)
	if err != nil {
		return usagef("%v", err)
	}
	opts := mailer.CheckOptions{IMAP: cfg.IntakeOptions(zerolog.Nop()), SMTP: cfg.SenderOptions(zerolog.Nop()), Address: cfg.Address, Wait: *wait,
		NoPlusAddressing: cfg.PlusAddressing != nil && !*cfg.PlusAddressing}
	ctx, cancel := context.WithTimeout(context.Background(), *wait+2*time.Minute)
	defer cancel()
	ok := mailer.Check(ctx, opts, func(s mailer.CheckStep) {
		fmt.Fprintf(stdout, "%-4s %s: %s\n", s.Status, s.Name, s.Detail)
		if s.Fix != "" {
			fmt.Fprintf(stdout, "     fix: %s\n", s.Fix)
		}
	})
	if !ok {
		fmt.Fprintln(stdout, "the mail account is not ready: fix the steps marked FAIL and run sortie check again")
		return errIllegal
	}
	fmt.Fprintln(stdout, "the mail account is ready for sortie serve")
	return nil
}
