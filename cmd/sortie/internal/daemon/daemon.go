package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"go.yaml.in/yaml/v3"

	"sortie/adjudicator"
	"sortie/mailer"
	"sortie/mailer/inmail"
	"sortie/mailer/senderauth"
	"sortie/storage"
	"sortie/templates"
)

// Config is the daemon's configuration file (docs/operations.md). Secrets may come from the
// environment: a field password_env names the variable.
type Config struct {
	Database     string  `yaml:"database"`
	Address      string  `yaml:"address"`
	Name         string  `yaml:"name"`
	TurnHours    float64 `yaml:"turn_hours"`
	ResolveDelay string  `yaml:"resolve_delay"`
	MaxMailKiB   int     `yaml:"max_mail_kib"`
	MaxPerHour   int     `yaml:"max_mails_per_hour"`            // per sender; default 60
	MaxStranger  int     `yaml:"max_stranger_replies_per_hour"` // answers to unidentified senders, all together; default 100
	Templates    string  `yaml:"templates"`
	LogLevel     string  `yaml:"log_level"`
	LogFormat    string  `yaml:"log_format"` // json (default) or console
	// DigestHour is the hour (UTC, 0-23) of the moderators' daily digest; -1 turns it off; default 6.
	DigestHour *int `yaml:"digest_hour"`
	// PlusAddressing says the mailbox delivers the address's plus-addresses (sortie+TOKEN@...), which
	// give every player a reply address that identifies them; default true. With false, mail goes out
	// with the bare address as Reply-To and players put their SECRET on the GAME line.
	PlusAddressing *bool `yaml:"plus_addressing"`
	// Reminders are how long before a deadline players still missing orders are reminded, e.g.
	// [24h, 2h] (the default); an empty list sends none.
	Reminders []string `yaml:"reminders"`
	IMAP      struct {
		Addr        string `yaml:"addr"`
		TLS         string `yaml:"tls"` // none, starttls, tls
		CAFile      string `yaml:"ca_file"`
		Username    string `yaml:"username"`
		Password    string `yaml:"password"`
		PasswordEnv string `yaml:"password_env"`
		// PasswordFile is a file holding the password, readable by its owner only (ReadSecretFile).
		PasswordFile string `yaml:"password_file"`
		Mailbox      string `yaml:"mailbox"`
		Processed    string `yaml:"processed"`
		Rejected     string `yaml:"rejected"`
		Failed       string `yaml:"failed"` // default Sortie/Failed (with the server's separator)
		Poll         string `yaml:"poll"`
		// HotPoll is how often the inbox is checked with a NOOP while a mail is expected soon (default
		// 10ms); HotFor is how long that lasts after a round is left waiting for one player (default 10m;
		// 0 turns it off: IDLE only).
		HotPoll string `yaml:"hot_poll"`
		HotFor  string `yaml:"hot_for"`
	} `yaml:"imap"`
	Backup struct {
		Dir   string `yaml:"dir"`   // where scheduled copies of the database go
		Every string `yaml:"every"` // how often, e.g. 6h (default 24h)
		Keep  int    `yaml:"keep"`  // how many copies to keep (default 7)
	} `yaml:"backup"`
	Control struct {
		// Group may also use the control socket (mode 0660, owned by this group); without it the
		// socket is 0600 and only the daemon's own user and root may.
		Group string `yaml:"group"`
	} `yaml:"control"`
	// InitEmpty (the --init flag, not a setting) lets sortie make a new database in an existing empty
	// file.
	InitEmpty bool `yaml:"-"`
	SMTP      struct {
		Host         string `yaml:"host"`
		Port         int    `yaml:"port"`
		TLS          string `yaml:"tls"`
		CAFile       string `yaml:"ca_file"`
		Username     string `yaml:"username"`
		Password     string `yaml:"password"`
		PasswordEnv  string `yaml:"password_env"`
		PasswordFile string `yaml:"password_file"` // as imap.password_file
		// KeepOpen is how long the connection stays open after the last mail (default 2m; 0: closed after
		// every batch).
		KeepOpen string `yaml:"keep_open"`
	} `yaml:"smtp"`
	Web WebConfig `yaml:"web"` // the web archive (web.go, docs/web.md)
	// DKIM signs every outgoing mail when set (docs/operations.md, "DKIM, SPF and DMARC"): the domain
	// the signature is made for, the selector its public key is published under
	// (selector._domainkey.domain) and the PEM file of the private key, readable by its owner only.
	DKIM struct {
		Domain   string `yaml:"domain"`
		Selector string `yaml:"selector"`
		KeyFile  string `yaml:"key_file"`
	} `yaml:"dkim"`
	// AuthservID names the receiving mail server whose Authentication-Results field Sortie believes
	// (docs/operations.md, "Sender authentication"); empty: none is read.
	AuthservID string `yaml:"authserv_id"`

	dkim *mailer.DKIM // the key of dkim.key_file, once read
}

// Defaults of the latency settings (docs/operations.md, "Turn latency").
const (
	DefaultHotFor   = 10 * time.Minute
	DefaultKeepOpen = 2 * time.Minute
)

// LoadConfig reads and checks a configuration file, listing every problem, and reads the mail
// passwords from the environment variables it names.
func LoadConfig(path string) (*Config, error) { return loadConfig(path, true) }

// LoadConfigNoMail is LoadConfig for the commands that never touch the mail servers (sortie game,
// export, backup): the password variables need not be set.
func LoadConfigNoMail(path string) (*Config, error) { return loadConfig(path, false) }

func loadConfig(path string, passwords bool) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Config
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var problems []string
	if c.Database == "" {
		problems = append(problems, "database: the path of the database file is required")
	}
	if !strings.Contains(c.Address, "@") {
		problems = append(problems, "address: the service's mail address is required, e.g. sortie@example.org")
	}
	for _, d := range []struct{ name, v string }{{"resolve_delay", c.ResolveDelay}, {"imap.poll", c.IMAP.Poll}, {"backup.every", c.Backup.Every},
		{"imap.hot_poll", c.IMAP.HotPoll}, {"imap.hot_for", c.IMAP.HotFor}, {"smtp.keep_open", c.SMTP.KeepOpen}} {
		if d.v != "" {
			if v, err := time.ParseDuration(d.v); err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", d.name, err))
			} else if v < 0 {
				problems = append(problems, fmt.Sprintf("%s: a duration such as 10ms or 2m, not a negative one", d.name))
			}
		}
	}
	if c.IMAP.HotPoll != "" {
		if v, err := time.ParseDuration(c.IMAP.HotPoll); err == nil && v == 0 {
			problems = append(problems, "imap.hot_poll: a duration such as 10ms (to turn polling off, set imap.hot_for: 0)")
		}
	}
	switch c.LogFormat {
	case "", "json", "console":
	default:
		problems = append(problems, fmt.Sprintf("log_format: json or console, not %q", c.LogFormat))
	}
	if c.DigestHour != nil && (*c.DigestHour < -1 || *c.DigestHour > 23) {
		problems = append(problems, fmt.Sprintf("digest_hour: an hour from 0 to 23 (UTC), or -1 for no digest, not %d", *c.DigestHour))
	}
	for i, r := range c.Reminders {
		if d, err := time.ParseDuration(r); err != nil || d <= 0 {
			problems = append(problems, fmt.Sprintf("reminders[%d]: a time before the deadline such as 24h or 90m, not %q", i, r))
		}
	}
	for _, t := range []struct{ name, v string }{{"imap.tls", c.IMAP.TLS}, {"smtp.tls", c.SMTP.TLS}} {
		switch t.v {
		case "", "none", "starttls", "tls":
		default:
			problems = append(problems, fmt.Sprintf("%s: none, starttls or tls, not %q", t.name, t.v))
		}
	}
	if c.IMAP.PasswordEnv != "" && passwords {
		if v, ok := os.LookupEnv(c.IMAP.PasswordEnv); ok {
			c.IMAP.Password = v
		} else {
			problems = append(problems, fmt.Sprintf("imap.password_env: the variable %s is not set", c.IMAP.PasswordEnv))
		}
	}
	if c.SMTP.PasswordEnv != "" && passwords {
		if v, ok := os.LookupEnv(c.SMTP.PasswordEnv); ok {
			c.SMTP.Password = v
		} else {
			problems = append(problems, fmt.Sprintf("smtp.password_env: the variable %s is not set", c.SMTP.PasswordEnv))
		}
	}
	for _, p := range []struct {
		name     string
		file     string
		env      string
		password *string
	}{{"imap", c.IMAP.PasswordFile, c.IMAP.PasswordEnv, &c.IMAP.Password}, {"smtp", c.SMTP.PasswordFile, c.SMTP.PasswordEnv, &c.SMTP.Password}} {
		switch {
		case p.file == "":
		case p.env != "" || *p.password != "":
			problems = append(problems, p.name+".password_file: give the password one way only (password, password_env or password_file)")
		case passwords:
			if v, err := ReadSecretFile(p.file); err != nil {
				problems = append(problems, fmt.Sprintf("%s.password_file: %v", p.name, err))
			} else {
				*p.password = v
			}
		}
	}
	problems = append(problems, c.dkimProblems(passwords)...)
	if strings.ContainsAny(c.AuthservID, " \t;()\"") {
		problems = append(problems, fmt.Sprintf("authserv_id: the name your receiving server writes first in its Authentication-Results fields, e.g. mail.example.org, not %q", c.AuthservID))
	}
	problems = append(problems, c.Web.problems()...)
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s:\n  %s", path, strings.Join(problems, "\n  "))
	}
	return &c, nil
}

// dkimProblems checks the dkim settings and, with readKey, reads the key.
func (c *Config) dkimProblems(readKey bool) []string {
	d := c.DKIM
	if d.Domain == "" && d.Selector == "" && d.KeyFile == "" {
		return nil
	}
	if d.Domain == "" || d.Selector == "" || d.KeyFile == "" {
		return []string{"dkim: give domain, selector and key_file together (or none of them to send mail unsigned)"}
	}
	if !readKey {
		return nil
	}
	pemKey, err := ReadKeyFile(d.KeyFile)
	if err == nil {
		c.dkim, err = mailer.NewDKIM(d.Domain, d.Selector, pemKey)
	}
	if err != nil {
		return []string{"dkim: " + err.Error()}
	}
	return nil
}

func (c *Config) AdjudicatorConfig() adjudicator.Config {
	ac := adjudicator.Config{Address: c.Address, Name: c.Name, MaxMailSize: c.MaxMailKiB << 10, MaxMailsPerHour: c.MaxPerHour, MaxStrangerReplies: c.MaxStranger}
	if c.TurnHours > 0 {
		ac.TurnLength = time.Duration(c.TurnHours * float64(time.Hour))
	}
	if c.ResolveDelay != "" {
		ac.ResolveDelay, _ = time.ParseDuration(c.ResolveDelay)
	}
	ac.NoPlusAddressing = c.PlusAddressing != nil && !*c.PlusAddressing
	ac.WebBase = c.Web.BaseURL
	ac.DigestHour = DefaultDigestHour
	if c.DigestHour != nil {
		ac.DigestHour = *c.DigestHour
	}
	if c.Reminders != nil {
		ac.Reminders = []time.Duration{}
		for _, r := range c.Reminders {
			if d, err := time.ParseDuration(r); err == nil && d > 0 {
				ac.Reminders = append(ac.Reminders, d)
			}
		}
	}
	return ac
}

// DefaultDigestHour is the hour (UTC) of the moderators' daily digest when the configuration names none.
const DefaultDigestHour = 6

// Logger is the daemon's logger, writing to standard error.
func (c *Config) Logger() zerolog.Logger { return c.LoggerTo(os.Stderr) }

// LoggerTo is the daemon's logger writing to w: JSON lines, or with log_format console lines for people,
// coloured only when w is a terminal and NO_COLOR is not set (a log file gets no escape codes).
func (c *Config) LoggerTo(w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(c.LogLevel)
	if err != nil || c.LogLevel == "" {
		level = zerolog.InfoLevel
	}
	var l zerolog.Logger
	if c.LogFormat == "console" {
		_, noColor := os.LookupEnv("NO_COLOR")
		l = zerolog.New(zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339, NoColor: noColor || !isTerminal(w)})
	} else {
		l = zerolog.New(w)
	}
	return l.Level(level).With().Timestamp().Logger()
}

// isTerminal says whether w is a character device such as a terminal (not a file or a pipe).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Daemon is the running service: database, adjudicator, IMAP intake, SMTP sender and the clock.
type Daemon struct {
	DB     *storage.DB
	Svc    *adjudicator.Service
	Intake *mailer.Intake
	Sender *mailer.Sender
	Log    zerolog.Logger
	Tick   time.Duration
	// Backups, when BackupDir is set: a consistent copy of the database every BackupEvery, the newest
	// BackupKeep kept.
	BackupDir   string
	BackupEvery time.Duration
	BackupKeep  int

	// Web serves the web archive when the configuration has web.listen (web.go).
	Web *WebServer

	// OnStage, if set before Run (benchmarks), is told as mail passes each stage: "fetched" (the intake
	// hands a message to the handler; id is its UID), "committed" (its effects are committed), "accepted"
	// (the SMTP server took an outgoing mail; id is its outbox ID). It must be quick.
	OnStage func(stage, id string)

	backingUp atomic.Bool // a scheduled backup is being written
	backups   sync.WaitGroup
	// backupHook replaces backup in tests (to hold one back and see that the clock carries on).
	backupHook func(time.Time) error
	// awaiting is told of a round waiting for one player (adjudicator.WithAwaiting); nil when imap.hot_for
	// is off.
	awaiting func(game string)
}

// backup writes a consistent copy of the database (bbolt's online copy) into the backup folder and
// removes the oldest copies beyond BackupKeep.
func (d *Daemon) backup(now time.Time) error {
	if err := os.MkdirAll(d.BackupDir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(d.BackupDir, "sortie-"+now.UTC().Format("20060102-150405")+".db")
	if err := d.DB.BackupTo(path); err != nil {
		return err
	}
	d.Log.Info().Str("path", path).Msg("database backed up")
	entries, err := filepath.Glob(filepath.Join(d.BackupDir, "sortie-*.db"))
	if err != nil {
		return err
	}
	sort.Strings(entries)
	for len(entries) > d.BackupKeep {
		if err := os.Remove(entries[0]); err != nil {
			return err
		}
		entries = entries[1:]
	}
	return nil
}

// Outbox adapts the database's outbox to the mail sender: the stored mail goes over whole, so the
// sender renders exactly what the archive renders. With Svc set, each pass first draws the map pictures
// that mails wait for (adjudicator.Service.DrawPictures), after the commit that queued them.
type Outbox struct {
	DB  *storage.DB
	Svc *adjudicator.Service
}

// Pending returns the mails due at now, oldest first (storage.DB.Pending), once the pictures they wait
// for are drawn.
func (o Outbox) Pending(now time.Time, limit int) ([]mailer.OutgoingMail, error) {
	if o.Svc != nil {
		if _, err := o.Svc.DrawPictures(); err != nil {
			return nil, err
		}
	}
	items, err := o.DB.Pending(now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]mailer.OutgoingMail, 0, len(items))
	for _, it := range items {
		out = append(out, mailer.OutgoingMail{ID: it.ID, Mail: it.Mail})
	}
	return out, nil
}

// MarkSent records that the server accepted a mail.
func (o Outbox) MarkSent(id string, at time.Time) error { return o.DB.MarkSent(id, at) }

// MarkSentMany records several sent mails in one commit (mailer.BatchMarker).
func (o Outbox) MarkSentMany(ids []string, at time.Time) error { return o.DB.MarkSentMany(ids, at) }

// MarkFailed records a failed attempt, except when the server could not be reached at all: an outage
// is not the mail's fault, so it stays due and the sender's own reconnect backoff decides when to try.
func (o Outbox) MarkFailed(id string, err error, at time.Time) error {
	if errors.Is(err, mailer.ErrSMTPUnavailable) {
		return nil
	}
	return o.DB.MarkFailed(id, err, at)
}

// handler turns fetched messages into envelopes for the adjudicator: parsed, filtered, committed — one
// at a time, or a whole fetched batch in one transaction.
type mailHandler struct {
	svc   *adjudicator.Service
	log   zerolog.Logger
	trace func(stage, id string) // nil: none
	kick  func()                 // wakes the sender after a commit; nil: none
	// authserv is the configuration's authserv_id: the receiving server whose Authentication-Results
	// field is read (mailer/senderauth); "" reads none.
	authserv string
}

// Handler is the intake's handler: each fetched mail through the adjudicator, its outcome as a disposition.
func Handler(svc *adjudicator.Service, log zerolog.Logger) mailer.Handler {
	return mailHandler{svc: svc, log: log}
}

func (h mailHandler) stage(stage string, ms ...mailer.Message) {
	if h.trace == nil {
		return
	}
	for _, m := range ms {
		h.trace(stage, fmt.Sprint(m.UID))
	}
}

// prepared is a message read by Prepare, ahead of its turn.
type prepared struct {
	env adjudicator.Envelope
	ok  bool
}

// Prepare reads a message as soon as the intake has fetched it (mailer.Preparer), while the handler is
// still committing the ones before it: parsing the MIME is a good part of a mail's cost and needs nothing
// of the database.
func (h mailHandler) Prepare(m mailer.Message) any {
	env, ok := h.read(m)
	if ok {
		env.ReadAhead() // the order block too: the handler's work is one goroutine, this one is another
	}
	return prepared{env, ok}
}

// envelope reads one message, or takes what Prepare read; ok is false for a message with no headers at
// all.
func (h mailHandler) envelope(m mailer.Message) (adjudicator.Envelope, bool) {
	p, done := m.Prepared.(prepared)
	if !done {
		p.env, p.ok = h.read(m)
	}
	env := p.env
	if m.HeaderOnly {
		env.Oversize, env.Size = true, int(m.Size)
	}
	return env, p.ok
}

// read parses a message into an envelope.
func (h mailHandler) read(m mailer.Message) (adjudicator.Envelope, bool) {
	env := adjudicator.Envelope{Mailbox: m.Mailbox, UIDValid: m.UIDValidity, UID: m.UID, Size: len(m.Raw), ReceivedAt: time.Now().UTC()}
	inc, err := inmail.Parse(m.Raw)
	if err != nil {
		h.log.Warn().Err(err).Uint32("uid", m.UID).Msg("unreadable message")
		return env, false
	}
	env.From, env.FromName, env.To, env.MessageID = inc.From, inc.FromName, inc.To, inc.MessageID
	env.InReplyTo, env.References, env.Subject, env.Text, env.FromHTML = inc.InReplyTo, inc.References, inc.Subject, inc.OrderText, inc.FromHTML
	env.Full = inc.Text
	if ignore, why := inc.ShouldIgnore(); ignore {
		env.IgnoreWhy = why
	}
	if v := senderauth.Check(m.Raw, h.authserv, inc.From); v.Outcome == senderauth.Fail {
		env.Unconfirmed = v.Why
	}
	return env, true
}

// disposition is where a mail goes after its handling: a duplicate (a mail fetched again after a crash
// between the commit and the filing, say) where its first handling said (adjudicator.DuplicateOf).
func disposition(o adjudicator.Outcome) mailer.Disposition {
	if first, dup := o.Duplicated(); dup {
		o = first
	}
	switch o {
	case adjudicator.Refused:
		return mailer.Rejected
	case adjudicator.Failed:
		return mailer.Failed // set aside for the moderator; the mails behind it go on
	}
	return mailer.Processed
}

func (h mailHandler) Handle(ctx context.Context, m mailer.Message) mailer.Disposition {
	h.stage("fetched", m)
	defer h.stage("committed", m)
	env, ok := h.envelope(m)
	if !ok {
		return mailer.Rejected
	}
	crashPoint("after-fetch")
	outcome, err := h.svc.Submit(env)
	if err != nil {
		// Submit returns an error only for a fault that may go away (a full disk, a locked database): a
		// permanent one is answered and filed as adjudicator.Failed.
		h.log.Error().Err(err).Uint32("uid", m.UID).Msg("could not commit a message; it stays in the inbox (or the intake's spool) and is tried again")
		return mailer.Retry
	}
	crashPoint("after-commit")
	if _, dup := outcome.Duplicated(); h.kick != nil && !dup && outcome != adjudicator.Ignored {
		h.kick()
	}
	return disposition(outcome)
}

func (h mailHandler) HandleBatch(ctx context.Context, ms []mailer.Message) []mailer.Disposition {
	h.stage("fetched", ms...)
	defer h.stage("committed", ms...)
	out := make([]mailer.Disposition, len(ms))
	var envs []adjudicator.Envelope
	var at []int
	for i, m := range ms {
		env, ok := h.envelope(m)
		if !ok {
			out[i] = mailer.Rejected
			continue
		}
		envs = append(envs, env)
		at = append(at, i)
	}
	crashPoint("after-fetch")
	outcomes, err := h.svc.SubmitBatch(envs)
	for k, o := range outcomes {
		out[at[k]] = disposition(o)
	}
	if err != nil {
		h.log.Error().Err(err).Msg("could not commit messages; they stay in the inbox (or the intake's spool) and are tried again")
		// Everything from the first message not committed on is retried.
		first := len(ms)
		if len(outcomes) < len(at) {
			first = at[len(outcomes)]
		}
		if first >= len(ms) {
			return out
		}
		out[first] = mailer.Retry
		return out[:first+1]
	}
	crashPoint("after-commit")
	if h.kick != nil {
		h.kick()
	}
	return out
}

// NewDaemon opens everything the daemon needs from a configuration. The service is made with the
// daemon's own hooks and then extra (benchmarks add adjudicator.WithTimed).
func NewDaemon(c *Config, extra ...adjudicator.Option) (*Daemon, error) {
	log := c.Logger()
	db, err := OpenDatabase(c, storage.Options{})
	if err != nil {
		return nil, err
	}
	tmpl, err := templates.New(c.Templates)
	if err != nil {
		db.Close()
		return nil, err
	}
	d := &Daemon{DB: db, Log: log, Tick: time.Second, BackupDir: c.Backup.Dir, BackupKeep: c.Backup.Keep, BackupEvery: 24 * time.Hour}
	if c.Backup.Every != "" {
		d.BackupEvery, _ = time.ParseDuration(c.Backup.Every)
	}
	if d.BackupKeep <= 0 {
		d.BackupKeep = 7
	}
	var outbox *Outbox
	if c.SMTP.Host != "" {
		opts := c.SenderOptions(log)
		opts.OnAccepted = func(id string) { d.trace("accepted", id) }
		outbox = &Outbox{DB: db} // its Svc, which draws the pictures a mail waits for, is set below
		d.Sender = mailer.NewSender(opts, outbox)
	}
	// A round left waiting for one player: its last mail may come any moment. Poll the inbox rather than
	// wait for IDLE (Dovecot tells an IDLE client half a second late), and keep an SMTP connection ready.
	if hotFor := c.HotFor(); hotFor > 0 {
		d.awaiting = func(string) {
			if d.Intake != nil {
				d.Intake.Hot(hotFor)
			}
			if d.Sender != nil {
				d.Sender.Warm(hotFor)
			}
		}
	}
	svc := adjudicator.New(db, tmpl, c.AdjudicatorConfig(), log, append(d.serviceOptions(), extra...)...)
	d.Svc = svc
	if outbox != nil {
		outbox.Svc = svc
	}
	if c.IMAP.Addr != "" {
		d.Intake = mailer.NewIntake(c.IntakeOptions(log), db, mailHandler{svc: svc, log: log, trace: d.trace, kick: d.kick(), authserv: c.AuthservID})
	}
	if c.Web.Listen != "" {
		if d.Web, err = NewWebServer(c.Web, c.Web.Listen, svc, log); err != nil {
			db.Close()
			return nil, err
		}
	}
	return d, nil
}

// serviceOptions are the daemon's hooks on its service: the clock (skewed for tests by SORTIE_CLOCK_FILE),
// the sender woken after a commit that queued mail, and the watch for a round's last order.
func (d *Daemon) serviceOptions() []adjudicator.Option {
	var opts []adjudicator.Option
	if now := clockFromEnv(); now != nil {
		opts = append(opts, adjudicator.WithClock(now))
	}
	if kick := d.kick(); kick != nil {
		opts = append(opts, adjudicator.WithNotify(kick))
	}
	if d.awaiting != nil {
		opts = append(opts, adjudicator.WithAwaiting(d.awaiting))
	}
	return opts
}

// kick wakes the sender, or is nil without one.
func (d *Daemon) kick() func() {
	if d.Sender == nil {
		return nil
	}
	return d.Sender.Kick
}

// HotFor is imap.hot_for: how long the intake polls, and the sender keeps its connection, once a round
// waits for one player; 0 is off.
func (c *Config) HotFor() time.Duration {
	if c.IMAP.HotFor == "" {
		return DefaultHotFor
	}
	d, _ := time.ParseDuration(c.IMAP.HotFor)
	return d
}

// trace tells OnStage, if set, that a mail has passed a stage.
func (d *Daemon) trace(stage, id string) {
	if f := d.OnStage; f != nil {
		f(stage, id)
	}
}

// SenderOptions is the SMTP part of the configuration for the mailer.
func (c *Config) SenderOptions(log zerolog.Logger) mailer.SenderOptions {
	keep := DefaultKeepOpen
	if c.SMTP.KeepOpen != "" {
		keep, _ = time.ParseDuration(c.SMTP.KeepOpen)
		if keep == 0 {
			keep = -1 // mailer: close after every pass
		}
	}
	return mailer.SenderOptions{Host: c.SMTP.Host, Port: c.SMTP.Port, TLS: mailer.TLSMode(orDefault(c.SMTP.TLS, "starttls")),
		CAFile: c.SMTP.CAFile, Username: c.SMTP.Username, Password: c.SMTP.Password, FromName: orDefault(c.Name, "Sortie"),
		KeepOpen: keep, DKIM: c.dkim, Logger: log}
}

// IntakeOptions is the IMAP part of the configuration for the mailer.
func (c *Config) IntakeOptions(log zerolog.Logger) mailer.IntakeOptions {
	poll, _ := time.ParseDuration(c.IMAP.Poll)
	hotPoll, _ := time.ParseDuration(c.IMAP.HotPoll) // 0: the mailer's default
	return mailer.IntakeOptions{Addr: c.IMAP.Addr, TLS: mailer.TLSMode(orDefault(c.IMAP.TLS, "tls")), CAFile: c.IMAP.CAFile,
		Username: c.IMAP.Username, Password: c.IMAP.Password, Mailbox: c.IMAP.Mailbox, Processed: c.IMAP.Processed,
		Rejected: c.IMAP.Rejected, Failed: c.IMAP.Failed, Poll: poll, HotPoll: hotPoll, MaxSize: int64(c.MaxMailKiB) << 10, Logger: log}
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// Run runs intake, sender and the deadline clock until ctx is cancelled, then stops them cleanly.
func (d *Daemon) Run(ctx context.Context) error {
	errs := make(chan error, 4)
	running := 0
	if d.Web != nil {
		running++
		go func() { errs <- d.Web.Run(ctx) }()
	}
	if d.Intake != nil {
		running++
		go func() { errs <- d.Intake.Run(ctx) }()
	}
	if d.Sender != nil {
		running++
		go func() { errs <- d.Sender.Run(ctx) }()
	}
	tick := time.NewTicker(d.Tick)
	defer tick.Stop()
	var nextBackup time.Time
	if d.BackupDir != "" {
		nextBackup = time.Now() // one copy at start, then on schedule
	}
	d.Log.Info().Msg("sortie is running")
	var firstErr error
	for {
		select {
		case <-ctx.Done():
			d.backups.Wait()
			for ; running > 0; running-- {
				if err := <-errs; err != nil && !errors.Is(err, context.Canceled) && firstErr == nil {
					firstErr = err
				}
			}
			d.Log.Info().Msg("sortie stopped")
			return firstErr
		case err := <-errs:
			running--
			if err != nil && !errors.Is(err, context.Canceled) {
				d.Log.Error().Err(err).Msg("a part of the daemon stopped")
				firstErr = err
			}
		case now := <-tick.C:
			d.tick()
			if !nextBackup.IsZero() && !now.Before(nextBackup) {
				// A backup runs beside the clock, never two at once: a copy still being written
				// when the next is due makes that one wait for the following schedule.
				if d.backingUp.CompareAndSwap(false, true) {
					run := d.backup
					if d.backupHook != nil {
						run = d.backupHook
					}
					d.backups.Add(1)
					go func() {
						defer d.backups.Done()
						defer d.backingUp.Store(false)
						if err := run(now); err != nil {
							d.Log.Error().Err(err).Msg("backup failed")
						}
					}()
				} else {
					d.Log.Warn().Msg("the previous backup is still being written; this one is skipped")
				}
				nextBackup = now.Add(d.BackupEvery)
			}
		}
	}
}

// tick runs the deadline clock once. Tick isolates each game itself; a panic outside any one game is
// logged here and the clock carries on at the next tick.
func (d *Daemon) tick() {
	defer func() {
		if r := recover(); r != nil {
			d.Log.Error().Str("panic", fmt.Sprint(r)).Str("stack", string(debug.Stack())).Msg("deadline check failed")
		}
	}()
	if _, err := d.Svc.Tick(); err != nil {
		d.Log.Error().Err(err).Msg("deadline check failed")
	}
}

// Close closes the database.
func (d *Daemon) Close() error { return d.DB.Close() }

// crashPoint ends the process at once, as a crash would (no deferred cleanup, no graceful shutdown),
// when SORTIE_CRASH names this point. The end-to-end tests use it to kill the daemon between fetching a
// message and committing it, and between the commit and sending the mail it caused.
func crashPoint(name string) {
	if v := os.Getenv("SORTIE_CRASH"); v != "" && v == name {
		fmt.Fprintf(os.Stderr, "sortie: crashing at %s (SORTIE_CRASH)\n", name)
		os.Exit(97)
	}
}
