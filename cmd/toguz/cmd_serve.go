package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/metrics"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tablebase"
)

// serveSummary is the text of `toguz serve -h` above its flags.
const serveSummary = `Serves the web interface and the HTTP + websocket API (docs/api.md), storing
everything in an SQLite database file, or in PostgreSQL when -db is a postgres:// URL.
With -nats, any number of nodes share one database and one NATS server behind any
load balancer (docs/deploy.md, "Several nodes"). Stops gracefully on SIGTERM or
SIGINT: its games move to the other nodes at once.

Every flag can also be set in the environment: -addr as TOGUZ_ADDR, -first-move as
TOGUZ_FIRST_MOVE and so on (a flag on the command line wins; docs/deploy.md).
A number's or a duration's 0 is its default; -1 is none (never, no bound) where
a flag says so.`

// runServe is `toguz serve`: the flags of server.Options' settings, read
// from the command line and then the environment, and the server Open
// builds from them, served until ctx ends.
func runServe(ctx context.Context, e env) error {
	var opts server.Options
	fs := newFlags(e, "serve", "", serveSummary)
	opts.Register(fs)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	if err := flagsFromEnv(fs, e.lookupEnv); err != nil {
		return err
	}
	opts.SetDefaults()
	// The SMTP password is no flag (a flag shows in ps): a file, or this.
	if v, ok := lookupEnvOf(e, "TOGUZ_SMTP_PASSWORD"); ok && opts.SMTPPasswordFile == "" {
		opts.SMTP.Password = v
	}
	s := &serving{e: e, fs: fs, opts: opts}
	defer s.undo()
	for _, step := range []func() error{s.logger, s.validate, s.runtime, s.reviews, s.tablebase, s.metrics, s.nodes} {
		if err := step(); err != nil {
			return err
		}
	}
	app, err := server.Open(ctx, s.opts)
	if err != nil {
		return err
	}
	return s.serve(ctx, app)
}

// serving is a `toguz serve` on its way: its settings, and what it made
// before Open (the log, the metrics, the bus) with their undoing.
type serving struct {
	e     env
	fs    *flag.FlagSet
	opts  server.Options
	log   *slog.Logger
	undos []func() // run in reverse when serve returns
}

func (s *serving) later(f func()) { s.undos = append(s.undos, f) }

func (s *serving) undo() {
	for i := len(s.undos) - 1; i >= 0; i-- {
		s.undos[i]()
	}
}

// logger makes the log of -log and -v.
func (s *serving) logger() error {
	c := s.opts.Command
	level := slog.LevelInfo
	if c.Verbose {
		level = slog.LevelDebug
	}
	ho := &slog.HandlerOptions{Level: level}
	switch c.Log {
	case "text":
		s.log = slog.New(slog.NewTextHandler(s.e.stderr, ho))
	case "json":
		s.log = slog.New(slog.NewJSONHandler(s.e.stderr, ho))
	default:
		return fmt.Errorf("-log %q: want text or json", c.Log)
	}
	s.opts.Logger = s.log
	return nil
}

// validate refuses the settings that the flags' types let through.
func (s *serving) validate() error {
	o := &s.opts
	switch o.Command.Sync {
	case "normal":
	case "full":
		o.SyncFull = true
	default:
		return fmt.Errorf("-sync %q: want normal or full", o.Command.Sync)
	}
	switch {
	case o.Command.Procs < 0:
		return fmt.Errorf("-procs %d: want 0 (twice the CPUs) or more", o.Command.Procs)
	case o.ReviewDepth < 1:
		return fmt.Errorf("-review-depth %d: want at least 1 (0: the default)", o.ReviewDepth)
	case o.Command.ReviewRemote && o.Command.NATS == "":
		return errors.New("-review-remote needs -nats")
	}
	return nil
}

// runtime sets the Go runtime's -gc-percent and -procs, given back when
// serve returns (tests run it in-process).
func (s *serving) runtime() error {
	o, c := &s.opts, s.opts.Command
	if envFlagApplies(s.fs, s.e, "gc-percent", "GOGC") {
		old := debug.SetGCPercent(c.GCPercent)
		s.later(func() { debug.SetGCPercent(old) })
	}
	// The CPUs' shares (engines, password hashes) come from the CPUs before
	// -procs raises GOMAXPROCS.
	cpus := runtime.GOMAXPROCS(0)
	if o.Engines <= 0 {
		o.Engines = max(1, cpus-1)
	}
	if o.MaxHashes == 0 {
		o.MaxHashes = auth.DefaultMaxHashes(auth.DefaultParams())
	}
	// More Ps than CPUs: a searching engine or a password hash holds its P
	// for tens of milliseconds between preemptions, and a game's goroutine
	// that became ready behind it waited for it; with a P of its own, it
	// waits only for the OS, which favours a thread that slept.
	if n := serveProcs(c.Procs, cpus, o.Engines+max(o.AnalysisEngines, 0), envFlagApplies(s.fs, s.e, "procs", "GOMAXPROCS"), o.BackgroundEngines); n > 0 {
		old := runtime.GOMAXPROCS(n)
		s.later(func() { runtime.GOMAXPROCS(old) })
	}
	if c.CPUProfile != "" {
		stop, err := startCPUProfile(c.CPUProfile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		s.later(func() {
			var err error
			if stop(&err); err != nil {
				fmt.Fprintf(s.e.stderr, "toguz serve: -cpuprofile: %v\n", err)
			}
		})
	}
	return nil
}

// reviews bounds the review workers by the CPUs and runs their searches in
// child processes (toguz review-worker), not on low-priority threads of
// this one (docs/review.md).
func (s *serving) reviews() error {
	o := &s.opts
	o.ReviewWorkers = min(o.ReviewWorkers, runtime.NumCPU())
	if o.ReviewWorkers <= 0 {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("-review-workers: finding this program for its review workers: %w", err)
	}
	o.ReviewCommand = []string{self, "review-worker"}
	return nil
}

// tablebase opens the tables of -tablebase.
func (s *serving) tablebase() error {
	path := s.opts.Command.Tablebase
	if path == "" {
		return nil
	}
	set, err := tablebase.OpenSet(path)
	if err != nil {
		return fmt.Errorf("-tablebase: %w", err)
	}
	// A ruleset without a table is played and analysed by search alone:
	// say which have one.
	for _, t := range set.All() {
		s.log.Info("tablebase", "ruleset", t.Rules().String(), "stones", t.MaxStones(), "distances", t.DistanceStones())
	}
	if len(set.All()) == 0 {
		s.log.Warn("tablebase: no table file (RULESET-N.tgtb) found", "path", path)
	}
	s.opts.Tablebase = set
	return nil
}

// metrics makes the metrics of -metrics-addr, served once the site listens.
func (s *serving) metrics() error {
	if s.opts.Command.MetricsAddr != "" {
		s.opts.Metrics = metrics.New()
	}
	return nil
}

// nodes connects to the bus of -nats (starting it with "embedded"), and
// with -review-remote sends the reviews' searches over it.
func (s *serving) nodes() error {
	url := s.opts.Command.NATS
	if url == "" {
		return nil
	}
	if url == "embedded" {
		em, err := bus.StartEmbedded("127.0.0.1:0")
		if err != nil {
			return err
		}
		s.later(em.Close)
		url = em.URL()
	}
	b, err := bus.Connect(url, "toguz serve "+s.opts.Node, s.log)
	if err != nil {
		return err
	}
	if s.opts.Metrics != nil {
		b.Observe(s.opts.Metrics)
	}
	s.later(b.Close)
	s.opts.Bus = b
	if s.opts.Command.ReviewRemote {
		s.opts.ReviewAnalyzer = func() (review.Analyzer, error) {
			return &review.Remote{Bus: b, NoWorker: bus.NoResponders}, nil
		}
	}
	return nil
}

// serve serves app on -addr (and the metrics on -metrics-addr) until ctx
// ends, then drains for -drain and closes it.
func (s *serving) serve(ctx context.Context, app *server.App) error {
	ln, err := s.listen(ctx, app)
	if err != nil {
		return errors.Join(err, app.Close())
	}
	fmt.Fprintf(s.e.stderr, "toguz serve: listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- app.Serve(ln) }()
	select {
	case err := <-errc:
		return errors.Join(err, app.Close())
	case <-ctx.Done():
	}
	// Readiness fails first: the load balancer, checking /readyz, sends
	// the new players to the other nodes while this one still serves.
	app.Drain()
	if d := s.opts.Command.Drain; d > 0 {
		s.log.Info("draining", "for", d)
		select {
		case <-time.After(d):
		case err := <-errc:
			return errors.Join(err, app.Close())
		}
	}
	s.log.Info("shutting down")
	err = app.Close() // closes the websockets: their games stop
	return errors.Join(err, <-errc)
}

// listen logs what the store and the node really are and opens the
// site's listener and the metrics'.
func (s *serving) listen(ctx context.Context, app *server.App) (net.Listener, error) {
	// Say what the store really does, not what was asked.
	mode, err := app.Store.Synchronous(ctx)
	if err != nil {
		return nil, err
	}
	if s.opts.Bus != nil {
		s.log.Info("node", "id", app.Hub.Node(), "nats", s.opts.Command.NATS)
	}
	s.log.Info("store", "db", store.Redact(s.opts.DB), "synchronous", map[int]string{0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[mode])
	ln, err := net.Listen("tcp", s.opts.Command.Addr)
	if err != nil {
		return nil, err
	}
	if m := s.opts.Metrics; m != nil {
		ms, err := serveMetrics(s.opts.Command.MetricsAddr, m, s.log)
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("-metrics-addr: %w", err)
		}
		s.later(ms.close)
		fmt.Fprintf(s.e.stderr, "toguz serve: metrics on http://%s/metrics\n", ms.addr)
	}
	return ln, nil
}

// metricsServer is the listener of -metrics-addr: GET /metrics only, apart
// from the site's listener so that it can stay on a private address.
type metricsServer struct {
	addr net.Addr
	hs   *http.Server
	done chan struct{}
}

func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger) (*metricsServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	ms := &metricsServer{addr: ln.Addr(), done: make(chan struct{}),
		hs: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
			ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}}
	go func() {
		defer close(ms.done)
		if err := ms.hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener", "err", err)
		}
	}()
	return ms, nil
}

func (ms *metricsServer) close() {
	ms.hs.Close()
	<-ms.done
}

// serveProcs is the GOMAXPROCS that serve sets, or 0 to leave it: procs
// (-procs; 0: twice the cpus) when applies (the flag given, or no
// GOMAXPROCS in the environment), and with background (-background-engines)
// one P more for each of the searchers, whose low-priority threads hold
// their Ps while they wait for a CPU.
func serveProcs(procs, cpus, searchers int, applies, background bool) int {
	n := 0
	switch {
	case applies:
		n = cmp.Or(procs, 2*cpus)
	case background:
		n = cpus
	}
	if n > 0 && background {
		n += searchers
	}
	return n
}

// envFlagApplies says whether serve sets a runtime setting from its flag
// (-gc-percent, -procs): when the flag is given, or when the Go runtime's
// own variable for it (GOGC, GOMAXPROCS) is not in the environment (an
// operator's is kept).
func envFlagApplies(fs *flag.FlagSet, e env, name, goVar string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if given || e.lookupEnv == nil {
		return true
	}
	_, set := e.lookupEnv(goVar)
	return !set
}
