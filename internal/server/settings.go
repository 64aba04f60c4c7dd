package server

import (
	"errors"
	"flag"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/review"
)

//go:generate go run ./settingsdoc ../../docs/deploy.md

// The settings of `toguz serve` are declared once, in the table below: each
// row binds a field of Options to its flag's name, its default and its
// help. Options.Register makes the flags of a flag.FlagSet from it,
// Options.SetDefaults (which Open calls) gives every setting left at zero
// its default, and SettingsMarkdown writes the table of docs/deploy.md.
//
// A number's or a duration's 0 is its default everywhere, as a flag and as
// a field; where a setting can be off ("none", "never", "no bound"), that
// is -1 (any negative value), and its help says so.

// Settings are the Server's settings that Options hands to Config as they
// are (Config embeds them too): zero fields take their defaults (the table).
type Settings struct {
	// SecureCookies marks the session cookie Secure (behind HTTPS).
	SecureCookies bool
	// MessageRate and MessageBurst limit websocket messages per connection.
	MessageRate  float64
	MessageBurst int
	// WritesPerSecond and WriteBurst limit state-changing HTTP requests per
	// client address.
	WritesPerSecond float64
	WriteBurst      int
	// AnalysesPerMinute bounds the analyses of POST /api/analysis per user
	// and per client address (0: 10; negative: no bound).
	AnalysesPerMinute int
	// DatabaseDir is the folder of the open database's monthly files
	// (toguz export-db), listed at /database (internal/archive; "": none).
	DatabaseDir string
	// BotLimits and Ladder are the bot API's bounds per token and the
	// computer ladder (botapi.Config's; zero fields take their defaults).
	BotLimits botapi.Limits
	Ladder    botapi.LadderConfig
	// PublicURL is the site's address as its users reach it
	// (scheme://host[:port]): the passkeys' origin and relying party
	// (internal/twofactor); "": each request's own, fit for localhost.
	// serve sets it from -site-url, the address of the mail's links.
	PublicURL string
}

// Command is what `toguz serve` itself reads of its settings, around Open
// (its listeners, its log, the Go runtime, the bus, the tables' files):
// Open does not read them.
type Command struct {
	Addr         string        // the site's listener
	Log          string        // the log's format: text or json
	Verbose      bool          // log debug messages
	Tablebase    string        // the tables' file or directory, opened into Options.Tablebase
	NATS         string        // the bus's URL, "embedded", or "": the only node
	ReviewRemote bool          // the reviews' searches in `toguz worker` processes
	Sync         string        // normal or full: Options.SyncFull
	MetricsAddr  string        // the metrics' listener ("": none)
	Procs        int           // GOMAXPROCS (0: twice the CPUs)
	GCPercent    int           // GOGC (-1: off)
	Drain        time.Duration // how long /readyz fails before the sockets close (-1: not at all)
	CPUProfile   string        // write a CPU profile of the whole run here, at the stop ("": none)
}

// DefaultGCPercent is serve's -gc-percent: four times Go's default. The
// server's allocations (requests, websocket frames, an attacker's password
// hashes) made the collector run every 1.3 s with 2,000 games and every
// attack at its bounds, and its mark assists hold up the moves: at 400 it
// runs a quarter as often and the load's p90 is a fifth lower (p99 within
// the runs' noise; docs/architecture.md). The price is memory: the heap
// may grow to five times what is live (1.1 GB at most in those runs, 210
// MB live).
const DefaultGCPercent = 400

// settingsTable are the rows of Settings: Config's defaults (New) and,
// through Options, the flags among them.
var settingsTable = []setting[Settings]{
	secureCookies,
	row("", 20.0, "websocket messages a second per connection", func(s *Settings) *float64 { return &s.MessageRate }),
	row("", 40, "their burst", func(s *Settings) *int { return &s.MessageBurst }),
	row("", 20.0, "state-changing requests a second per client address", func(s *Settings) *float64 { return &s.WritesPerSecond }),
	row("", 60, "their burst", func(s *Settings) *int { return &s.WriteBurst }),
	databaseDir,
}

// The flags among Settings' rows, which optionsTable lifts to Options.
var (
	secureCookies = boolRow("secure-cookies", "mark cookies Secure (when served over HTTPS, e.g. behind a proxy)",
		func(s *Settings) *bool { return &s.SecureCookies })
	databaseDir = row("database-dir", "", "folder of the open database's files (toguz export-db -o), listed at /database (\"\": none)",
		func(s *Settings) *string { return &s.DatabaseDir })
)

// optionsTable is the table of `toguz serve`, in the order of its -h.
var optionsTable = concat(
	[]setting[Options]{
		row("addr", "localhost:8080", "address to listen on (host:port; port 0 picks a free one)",
			func(o *Options) *string { return &o.Command.Addr }),
		row("db", "toguz.db", "SQLite database file, or a PostgreSQL URL postgres://user:password@host:5432/name (created or migrated at start)",
			func(o *Options) *string { return &o.DB }),
		row("log", "text", "log format: text or json", func(o *Options) *string { return &o.Command.Log }),
		boolRow("v", "log debug messages", func(o *Options) *bool { return &o.Command.Verbose }),
		row("grace", 30*time.Second, "the `duration` a player may be gone before his opponent can claim the win",
			func(o *Options) *time.Duration { return &o.Grace }),
		row("first-move", 60*time.Second, "abort a real-time game between people when a first move takes longer than this `duration` (-1: never)",
			func(o *Options) *time.Duration { return &o.FirstMoveTimeout }),
		row("engines", 0, "engines searching at once for the games against the engine (0: one per CPU but one, at least one)",
			func(o *Options) *int { return &o.Engines }),
		row("analysis-engines", 1, "engines of the analyses asked of the server, POST /api/analysis, apart from the games' (-1: none, the endpoint answers 503)",
			func(o *Options) *int { return &o.AnalysisEngines }),
		notRow("engine-yield", "the engine's searches give the Go scheduler a turn every thousand nodes, so that the other games' moves wait for no search (docs/architecture.md)",
			func(o *Options) *bool { return &o.EnginesHoldCPU }),
		boolRow("background-engines", "run the engine's searches at the lowest OS priority (Linux): p50 and p90 of the other games' moves drop, their p99 rises (docs/architecture.md)",
			func(o *Options) *bool { return &o.BackgroundEngines }),
		row("seeks-per-address", 20, "open seeks one client address may have (a load test from one address needs more; -1: no bound)",
			func(o *Options) *int { return &o.Lobby.PerAddress }),
		row("seek-expiry", 30*time.Minute, "the `duration` a seek stays open",
			func(o *Options) *time.Duration { return &o.Lobby.Expiry }),
	},
	lift(secureCookies),
	[]setting[Options]{
		row("read-timeout", DefaultReadTimeout, "longest `duration` to read a request, body included (-1: none; websockets are not bound)",
			func(o *Options) *time.Duration { return &o.ReadTimeout }),
		row("write-timeout", DefaultWriteTimeout, "longest `duration` to answer a request once read (-1: none; websockets are not bound)",
			func(o *Options) *time.Duration { return &o.WriteTimeout }),
		row("idle-timeout", DefaultIdleTimeout, "close a keep-alive connection idle for this `duration` (-1: none)",
			func(o *Options) *time.Duration { return &o.IdleTimeout }),
		proxiesRow("trusted-proxies", "load balancers in front, comma-separated `addresses` or CIDR prefixes: their requests' clients are read from X-Forwarded-For and their connections are not capped",
			func(o *Options) *[]netip.Prefix { return &o.TrustedProxies }),
		row("max-conns-per-addr", DefaultMaxConnsPerAddr, "connections open at once from one client address, one /64 for IPv6 (-1: no cap)",
			func(o *Options) *int { return &o.MaxConnsPerAddr }),
		row("max-hashes", 0, "password checks (argon2id, 19 MiB each) at once, for logins and sign-ups (0: one per two CPUs, at least 1, within 256 MiB)",
			func(o *Options) *int { return &o.MaxHashes }),
		row("hash-wait", auth.DefaultHashWait, "the `duration` a login waits for a password-check slot before 503 busy",
			func(o *Options) *time.Duration { return &o.HashWait }),
		row("max-engine-games", live.DefaultMaxEngineGames, "games against the engine one person may play at once (-1: no bound)",
			func(o *Options) *int { return &o.MaxEngineGames }),
		row("max-engine-games-per-addr", live.DefaultMaxEngineGamesPerAddr, "games against the engine played at once from one client address, one /64 for IPv6 (-1: no bound)",
			func(o *Options) *int { return &o.MaxEngineGamesPerAddr }),
		row("tablebase", "", "endgame tables that POST /api/analysis probes and the engines search with, in analyses and games at level 10:\na table file, or a directory where each ruleset's (standard, bestemshe, seven) of the most stones\nis loaded, RULESET-N.tgtb as toguz tablebase writes them; a ruleset without one is searched alone (\"\": none)",
			func(o *Options) *string { return &o.Command.Tablebase }),
		row("review-workers", 1, "games reviewed at once, each on one CPU at the lowest priority, at most the CPUs\n(-1: no game reviews)",
			func(o *Options) *int { return &o.ReviewWorkers }),
		row("review-depth", review.DefaultDepth, "the search depth of every ply of a game review, the same for every game",
			func(o *Options) *int { return &o.ReviewDepth }),
	},
	lift(databaseDir),
	[]setting[Options]{
		row("nats", "", "NATS server to share the live games with the other nodes on the same database\n(nats://host:port; \"embedded\": one started in this process on a free loopback port,\nfor trying alone; \"\": this is the only node)",
			func(o *Options) *string { return &o.Command.NATS }),
		boolRow("review-remote", "with -nats: the game reviews' searches run in toguz worker -nats processes on any machine,\nnot in child processes of this one (-review-workers is then the reviews asked at once)",
			func(o *Options) *bool { return &o.Command.ReviewRemote }),
		row("node", "", "this node's id among several (-nats; \"\": random at start)",
			func(o *Options) *string { return &o.Node }),
		row("sync", "normal", "how durable a commit is: normal (survives the process being killed) or full\n(also a power loss: an fsync per commit, slower)",
			func(o *Options) *string { return &o.Command.Sync }),
		row("db-conns", 0, "the database connections this node reads with: on PostgreSQL it opens this many and 3 more for\nwrites (0: 4 per CPU, at least 16; several nodes together must stay under the server's max_connections)",
			func(o *Options) *int { return &o.DBConns }),
		row("metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics, a listener of their own (e.g. 127.0.0.1:9090;\n\"\": no metrics)",
			func(o *Options) *string { return &o.Command.MetricsAddr }),
		row("procs", 0, "threads running Go code at once, Go's GOMAXPROCS (0: twice the CPUs, so that a game's move waits for the OS\nto share a CPU, not behind a search or a password hash; a GOMAXPROCS in the environment is kept unless this flag is given)",
			func(o *Options) *int { return &o.Command.Procs }),
		row("gc-percent", DefaultGCPercent, "collect garbage when the heap has grown this many percent over what was live, as Go's GOGC\n(a GOGC in the environment is kept unless this flag is given; -1: off, with GOMEMLIMIT to bound the memory)",
			func(o *Options) *int { return &o.Command.GCPercent }),
		row("cpuprofile", "", "write a CPU profile of the whole run to this `file` when the server stops, for 'go tool pprof'\n(\"\": none)",
			func(o *Options) *string { return &o.Command.CPUProfile }),
		row("drain", -1, "at a shutdown, answer GET /readyz with 503 for this `duration` before closing the games' sockets,\nso that a load balancer stops sending new players here first (-1: none)",
			func(o *Options) *time.Duration { return &o.Command.Drain }),
	},
	mailRows,
)

// mailRows are the settings of the accounts' mail (internal/mail, internal/account; docs/accounts.md).
var mailRows = []setting[Options]{
	row("smtp-host", "", "SMTP server of the accounts' mail: address verification, password reset, new-device notices\n(\"\": no mail is sent; toguz account reset-link then makes reset links)",
		func(o *Options) *string { return &o.SMTP.Host }),
	row("smtp-port", 0, "its port (0: 587, or 465 with -smtp-tls tls, 25 with -smtp-tls none)",
		func(o *Options) *int { return &o.SMTP.Port }),
	row("smtp-tls", mail.TLSStartTLS, "how the connection is encrypted: starttls (required), tls (from the first byte) or none\n(only for a relay on this machine or network)",
		func(o *Options) *string { return &o.SMTP.TLS }),
	row("smtp-user", "", "the SMTP login (\"\": none)", func(o *Options) *string { return &o.SMTP.User }),
	row("smtp-password-file", "", "`file` whose first line is the SMTP password (\"\": the variable TOGUZ_SMTP_PASSWORD)",
		func(o *Options) *string { return &o.SMTPPasswordFile }),
	row("smtp-from", "", "the mail's sender, e.g. \"Toguz <noreply@toguz.example.org>\" (required with -smtp-host)",
		func(o *Options) *string { return &o.SMTP.From }),
	row("site-url", "", "the site's public URL, which the links in mail start with and passkeys are bound to, e.g. https://toguz.example.org\n(\"\": http:// and -addr for the links, each request's own host for passkeys; never the request's Host in a link, which a stranger writes)",
		func(o *Options) *string { return &o.SiteURL }),
}

// Register makes a flag of fs for every setting of the table, bound to its
// field of o, which takes the flag's default.
func (o *Options) Register(fs *flag.FlagSet) {
	for _, r := range optionsTable {
		if r.flag != "" {
			r.bind(fs, o)
		}
	}
}

// SetDefaults gives every setting of the table that is zero its default.
func (o *Options) SetDefaults() {
	for _, r := range optionsTable {
		r.fill(o)
	}
	o.Settings.setDefaults()
}

// setDefaults gives every setting of s that is zero its default.
func (s *Settings) setDefaults() {
	for _, r := range settingsTable {
		r.fill(s)
	}
}

// Flag is one flag of `toguz serve` as the table declares it.
type Flag struct {
	Name, Default, Help string
}

// Flags returns the flags of `toguz serve`, in the table's order, the help
// as -h prints it (without the backquotes that name a flag's value).
func Flags() []Flag {
	var out []Flag
	for _, r := range optionsTable {
		if r.flag != "" {
			out = append(out, Flag{Name: r.flag, Default: r.def, Help: strings.ReplaceAll(r.help, "`", "")})
		}
	}
	return out
}

// setting is one row of a table over the struct S: the flag (""; not a
// flag, a default only), its default as -h shows it, its help, and the
// field it is bound to.
type setting[S any] struct {
	flag, def, help string
	bind            func(fs *flag.FlagSet, s *S) // registers the flag on the field
	fill            func(s *S)                   // the default into the field when zero
}

// row is the setting of a field of type T whose zero is its default def.
func row[S any, T int | float64 | string | time.Duration](name string, def T, help string, field func(*S) *T) setting[S] {
	var zero T
	r := setting[S]{flag: name, help: help,
		fill: func(s *S) {
			if p := field(s); *p == zero {
				*p = def
			}
		}}
	switch p := any(&def).(type) {
	case *time.Duration:
		r.def = (*durationValue)(p).String()
	case *string:
		r.def = *p
	default:
		r.def = fmt.Sprint(def)
	}
	r.bind = func(fs *flag.FlagSet, s *S) {
		switch p := any(field(s)).(type) {
		case *int:
			fs.IntVar(p, name, any(def).(int), help)
		case *float64:
			fs.Float64Var(p, name, any(def).(float64), help)
		case *string:
			fs.StringVar(p, name, any(def).(string), help)
		case *time.Duration:
			*p = any(def).(time.Duration)
			fs.Var((*durationValue)(p), name, help)
		}
	}
	return r
}

// boolRow is the setting of a bool, off by default.
func boolRow[S any](name, help string, field func(*S) *bool) setting[S] {
	return setting[S]{flag: name, def: "false", help: help,
		bind: func(fs *flag.FlagSet, s *S) { fs.BoolVar(field(s), name, false, help) },
		fill: func(*S) {}}
}

// notRow is the setting of a bool field that is the flag's opposite: the
// flag is on by default and its field, off.
func notRow[S any](name, help string, field func(*S) *bool) setting[S] {
	return setting[S]{flag: name, def: "true", help: help,
		bind: func(fs *flag.FlagSet, s *S) {
			p := field(s)
			*p = false
			fs.Var(notValue{p}, name, help)
		},
		fill: func(*S) {}}
}

// proxiesRow is the setting of the trusted proxies, none by default.
func proxiesRow[S any](name, help string, field func(*S) *[]netip.Prefix) setting[S] {
	return setting[S]{flag: name, help: help,
		bind: func(fs *flag.FlagSet, s *S) {
			p := field(s)
			*p = nil
			fs.Var((*proxiesValue)(p), name, help)
		},
		fill: func(*S) {}}
}

// lift makes rows of Settings rows of Options, which embeds them. Options'
// SetDefaults fills its Settings by their own table: a lifted row binds its
// flag only.
func lift(rows ...setting[Settings]) []setting[Options] {
	out := make([]setting[Options], len(rows))
	for i, r := range rows {
		out[i] = setting[Options]{flag: r.flag, def: r.def, help: r.help,
			bind: func(fs *flag.FlagSet, o *Options) { r.bind(fs, &o.Settings) },
			fill: func(*Options) {}}
	}
	return out
}

func concat[S any](parts ...[]setting[S]) []setting[S] {
	var out []setting[S]
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// durationValue is a flag's time.Duration that also reads -1 (none) without
// a unit, and shows any negative value as -1.
type durationValue time.Duration

func (d *durationValue) Set(s string) error {
	if s == "-1" {
		*d = -1
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("parse error") // flag's own word for it
	}
	*d = durationValue(v)
	return nil
}

func (d *durationValue) String() string {
	if *d < 0 {
		return "-1"
	}
	return time.Duration(*d).String()
}

// notValue is a bool flag that sets its field to the opposite. (A struct,
// not a pointer: the flag package's zero of it shows "false", so that -h
// shows the default true.)
type notValue struct{ p *bool }

func (b notValue) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err == nil {
		*b.p = !v
	}
	return err
}

func (b notValue) String() string   { return fmt.Sprint(b.p != nil && !*b.p) }
func (b notValue) IsBoolFlag() bool { return true }

// proxiesValue is the flag of Options.TrustedProxies (ParseTrustedProxies).
type proxiesValue []netip.Prefix

func (p *proxiesValue) Set(s string) error {
	v, err := ParseTrustedProxies(s)
	*p = v
	return err
}

func (p *proxiesValue) String() string {
	if p == nil {
		return ""
	}
	ss := make([]string, len(*p))
	for i, v := range *p {
		ss[i] = v.String()
	}
	return strings.Join(ss, ",")
}

// SettingsMarkdown is the table of the flags of `toguz serve` that
// docs/deploy.md shows between its settings markers.
func SettingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| Flag | Variable | Default | What |\n|---|---|---|---|\n")
	for _, f := range Flags() {
		def := "`" + f.Default + "`"
		if f.Default == "" {
			def = `""`
		}
		help := strings.NewReplacer("\n", " ", "|", `\|`).Replace(f.Help)
		fmt.Fprintf(&b, "| `-%s` | `%s` | %s | %s |\n", f.Name, EnvName(f.Name), def, help)
	}
	return b.String()
}

// EnvName is the environment variable of the flag name: TOGUZ_ and the
// name in capitals, - as _.
func EnvName(name string) string {
	return "TOGUZ_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// The markers around the generated table in docs/deploy.md.
const (
	settingsBegin = "<!-- begin settings: written by `go generate ./internal/server` from its settings table; do not edit -->\n"
	settingsEnd   = "<!-- end settings -->\n"
)

// SpliceSettings returns doc with the text between its settings markers
// replaced by SettingsMarkdown.
func SpliceSettings(doc string) (string, error) {
	before, rest, ok := strings.Cut(doc, settingsBegin)
	if !ok {
		return "", fmt.Errorf("no line %q", strings.TrimSpace(settingsBegin))
	}
	_, after, ok := strings.Cut(rest, settingsEnd)
	if !ok {
		return "", fmt.Errorf("no line %q", strings.TrimSpace(settingsEnd))
	}
	return before + settingsBegin + SettingsMarkdown() + settingsEnd + after, nil
}
