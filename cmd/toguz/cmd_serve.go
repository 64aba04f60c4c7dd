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
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/metrics"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tablebase"
)

func runServe(ctx context.Context, e env) error {
	fs := newFlags(e, "serve", "", "Serves the web interface and the HTTP + websocket API (docs/api.md), storing\neverything in an SQLite database. Stops gracefully on SIGTERM or SIGINT.\n\nEvery flag can also be set in the environment: -addr as TOGUZ_ADDR, -first-move as\nTOGUZ_FIRST_MOVE and so on (a flag on the command line wins; docs/deploy.md).")
	addr := fs.String("addr", "localhost:8080", "address to listen on (host:port; port 0 picks a free one)")
	db := fs.String("db", "toguz.db", "SQLite database file, or a PostgreSQL URL postgres://user:password@host:5432/name (created or migrated at start)")
	logFormat := fs.String("log", "text", "log format: text or json")
	verbose := fs.Bool("v", false, "log debug messages")
	grace := fs.Duration("grace", 30*time.Second, "how long a player may be gone before his opponent can claim the win")
	firstMove := fs.Duration("first-move", 60*time.Second, "abort a real-time game between people when a first move takes longer (0: never)")
	engines := fs.Int("engines", 0, "engines searching at once for the games against the engine (0: one per CPU but one, at least one)")
	analysisEngines := fs.Int("analysis-engines", 1, "engines of the analyses asked of the server, POST /api/analysis, apart from the games' (0: none, the endpoint answers 503)")
	engineYield := fs.Bool("engine-yield", true, "the engine's searches give the Go scheduler a turn every thousand nodes, so that the other games' moves wait for no search (docs/architecture.md)")
	background := fs.Bool("background-engines", false, "run the engine's searches at the lowest OS priority (Linux): p50 and p90 of the other games' moves drop, their p99 rises (docs/architecture.md)")
	seeksPerAddr := fs.Int("seeks-per-address", 20, "open seeks one client address may have (a load test from one address needs more; -1: no bound)")
	seekExpiry := fs.Duration("seek-expiry", 30*time.Minute, "how long a seek stays open")
	secure := fs.Bool("secure-cookies", false, "mark cookies Secure (when served over HTTPS, e.g. behind a proxy)")
	readTimeout := fs.Duration("read-timeout", server.DefaultReadTimeout, "longest time to read a request, body included (0: none; websockets are not bound)")
	writeTimeout := fs.Duration("write-timeout", server.DefaultWriteTimeout, "longest time to answer a request once read (0: none; websockets are not bound)")
	idleTimeout := fs.Duration("idle-timeout", server.DefaultIdleTimeout, "close a keep-alive connection idle this long (0: none)")
	proxies := fs.String("trusted-proxies", "", "load balancers in front, comma-separated addresses or CIDR prefixes: their requests' clients are read from X-Forwarded-For and their connections are not capped")
	maxConns := fs.Int("max-conns-per-addr", server.DefaultMaxConnsPerAddr, "connections open at once from one client address, one /64 for IPv6 (0: no cap)")
	maxHashes := fs.Int("max-hashes", 0, "password checks (argon2id, 19 MiB each) at once, for logins and sign-ups (0: one per two CPUs, at least 1, within 256 MiB)")
	hashWait := fs.Duration("hash-wait", auth.DefaultHashWait, "how long a login waits for a password-check slot before 503 busy")
	maxEngineGames := fs.Int("max-engine-games", live.DefaultMaxEngineGames, "games against the engine one person may play at once (0: no bound)")
	maxEngineGamesPerAddr := fs.Int("max-engine-games-per-addr", live.DefaultMaxEngineGamesPerAddr, "games against the engine played at once from one client address, one /64 for IPv6 (0: no bound)")
	tbPath := fs.String("tablebase", "", "endgame tables that POST /api/analysis probes and the engines search with, in analyses and games at level 10:\na table file, or a directory where each ruleset's (standard, bestemshe, seven) of the most stones\nis loaded, RULESET-N.tgtb as toguz tablebase writes them; a ruleset without one is searched alone (none when empty)")
	reviewWorkers := fs.Int("review-workers", 1, "games reviewed at once, each on one CPU at the lowest priority, at most the CPUs\n(0: no game reviews)")
	reviewDepth := fs.Int("review-depth", review.DefaultDepth, "the search depth of every ply of a game review, the same for every game")
	databaseDir := fs.String("database-dir", "", "folder of the open database's files (toguz export-db -o), listed at /database (\"\": none)")
	natsURL := fs.String("nats", "", "NATS server to share the live games with the other nodes on the same database\n(nats://host:port; \"embedded\": one started in this process on a free loopback port,\nfor trying alone; \"\": this is the only node)")
	reviewRemote := fs.Bool("review-remote", false, "with -nats: the game reviews' searches run in `toguz worker -nats` processes on any machine,\nnot in child processes of this one (-review-workers is then the reviews asked at once)")
	node := fs.String("node", "", "this node's id among several (-nats; default: random at start)")
	syncMode := fs.String("sync", "normal", "how durable a commit is: normal (survives the process being killed) or full\n(also a power loss: an fsync per commit, slower)")
	metricsAddr := fs.String("metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics, a listener of their own (e.g. 127.0.0.1:9090;\n\"\": no metrics)")
	procs := fs.Int("procs", 0, "threads running Go code at once, Go's GOMAXPROCS (0: twice the CPUs, so that a game's move waits for the OS\nto share a CPU, not behind a search or a password hash; a GOMAXPROCS in the environment is kept unless this flag is given)")
	gcPercent := fs.Int("gc-percent", defaultGCPercent, "collect garbage when the heap has grown this many percent over what was live, as Go's GOGC\n(a GOGC in the environment is kept unless this flag is given; -1: off, with GOMEMLIMIT to bound the memory)")
	drain := fs.Duration("drain", 0, "at a shutdown, answer GET /readyz with 503 this long before closing the games' sockets,\nso that a load balancer stops sending new players here first")
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
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	var h slog.Handler
	switch *logFormat {
	case "text":
		h = slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level})
	case "json":
		h = slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: level})
	default:
		return fmt.Errorf("-log %q: want text or json", *logFormat)
	}
	log := slog.New(h)
	if envFlagApplies(fs, e, "gc-percent", "GOGC") {
		defer debug.SetGCPercent(debug.SetGCPercent(*gcPercent))
	}
	var syncFull bool
	switch *syncMode {
	case "normal":
	case "full":
		syncFull = true
	default:
		return fmt.Errorf("-sync %q: want normal or full", *syncMode)
	}

	if *firstMove == 0 {
		*firstMove = -1
	}
	// The flags' 0 is "none"; the Options' is "the default".
	none := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	if *maxConns == 0 {
		*maxConns = -1
	}
	for _, n := range []*int{maxEngineGames, maxEngineGamesPerAddr} {
		if *n == 0 {
			*n = -1
		}
	}
	// The CPUs' shares (engines, password hashes) come from the CPUs before
	// -procs raises GOMAXPROCS.
	cpus := runtime.GOMAXPROCS(0)
	if *engines <= 0 {
		*engines = max(1, cpus-1)
	}
	if *maxHashes == 0 {
		*maxHashes = auth.DefaultMaxHashes(auth.DefaultParams())
	}
	if *procs < 0 {
		return fmt.Errorf("-procs %d: want 0 (twice the CPUs) or more", *procs)
	}
	if *reviewWorkers < 0 || *reviewDepth < 1 {
		return fmt.Errorf("-review-workers %d, -review-depth %d: want at least 0 and 1", *reviewWorkers, *reviewDepth)
	}
	*reviewWorkers = min(*reviewWorkers, runtime.NumCPU())
	var reviewCmd []string
	if *reviewWorkers > 0 {
		// The reviews search in child processes (toguz review-worker),
		// not on low-priority threads of this one (docs/review.md).
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("-review-workers: finding this program for its review workers: %w", err)
		}
		reviewCmd = []string{self, "review-worker"}
	}
	// More Ps than CPUs: a searching engine or a password hash holds its P
	// for tens of milliseconds between preemptions, and a game's goroutine
	// that became ready behind it waited for it; with a P of its own, it
	// waits only for the OS, which favours a thread that slept. Given back
	// when serve returns (tests run it in-process).
	if n := serveProcs(*procs, cpus, *engines+max(*analysisEngines, 0), envFlagApplies(fs, e, "procs", "GOMAXPROCS"), *background); n > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
	}
	var tb server.Tablebase
	if *tbPath != "" {
		set, err := tablebase.OpenSet(*tbPath)
		if err != nil {
			return fmt.Errorf("-tablebase: %w", err)
		}
		// A ruleset without a table is played and analysed by search
		// alone: say which have one.
		for _, t := range set.All() {
			log.Info("tablebase", "ruleset", t.Rules().String(), "stones", t.MaxStones(), "distances", t.DistanceStones())
		}
		if len(set.All()) == 0 {
			log.Warn("tablebase: no table file (RULESET-N.tgtb) found", "path", *tbPath)
		}
		tb = set
	}
	if *analysisEngines <= 0 {
		*analysisEngines = -1
	}
	trustedProxies, err := server.ParseTrustedProxies(*proxies)
	if err != nil {
		return fmt.Errorf("-trusted-proxies: %w", err)
	}
	var m *metrics.Metrics
	if *metricsAddr != "" {
		m = metrics.New()
	}
	var nodeBus live.Bus
	var reviewAnalyzer func() (review.Analyzer, error)
	if *reviewRemote && *natsURL == "" {
		return errors.New("-review-remote needs -nats")
	}
	if *natsURL != "" {
		url := *natsURL
		if url == "embedded" {
			em, err := bus.StartEmbedded("127.0.0.1:0")
			if err != nil {
				return err
			}
			defer em.Close()
			url = em.URL()
		}
		b, err := bus.Connect(url, "toguz serve "+*node, log)
		if err != nil {
			return err
		}
		if m != nil {
			b.Observe(m)
		}
		defer b.Close()
		nodeBus = b
		if *reviewRemote {
			reviewAnalyzer = func() (review.Analyzer, error) {
				return &review.Remote{Bus: b, NoWorker: bus.NoResponders}, nil
			}
		}
	}
	app, err := server.Open(ctx, server.Options{Bus: nodeBus, Node: *node, DB: *db, Logger: log, Engines: *engines, AnalysisEngines: *analysisEngines, Tablebase: tb, BackgroundEngines: *background, EnginesHoldCPU: !*engineYield, Grace: *grace,
		FirstMoveTimeout: *firstMove, SecureCookies: *secure,
		ReadTimeout: none(*readTimeout), WriteTimeout: none(*writeTimeout), IdleTimeout: none(*idleTimeout),
		MaxConnsPerAddr: *maxConns, TrustedProxies: trustedProxies, MaxHashes: *maxHashes, HashWait: *hashWait,
		MaxEngineGames: *maxEngineGames, MaxEngineGamesPerAddr: *maxEngineGamesPerAddr,
		Lobby:    live.LobbyConfig{PerAddress: *seeksPerAddr, Expiry: *seekExpiry},
		SyncFull: syncFull, ReviewWorkers: *reviewWorkers, ReviewDepth: *reviewDepth, ReviewCommand: reviewCmd, ReviewAnalyzer: reviewAnalyzer, DatabaseDir: *databaseDir,
		Metrics: m})
	if err != nil {
		return err
	}
	// Say what the store really does, not what was asked.
	mode, err := app.Store.Synchronous(ctx)
	if err != nil {
		app.Close()
		return err
	}
	if nodeBus != nil {
		log.Info("node", "id", app.Hub.Node(), "nats", *natsURL)
	}
	log.Info("store", "db", store.Redact(*db), "synchronous", map[int]string{0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[mode])
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		app.Close()
		return err
	}
	var ms *metricsServer
	if m != nil {
		if ms, err = serveMetrics(*metricsAddr, m, log); err != nil {
			ln.Close()
			app.Close()
			return fmt.Errorf("-metrics-addr: %w", err)
		}
		defer ms.close()
		fmt.Fprintf(e.stderr, "toguz serve: metrics on http://%s/metrics\n", ms.addr)
	}
	fmt.Fprintf(e.stderr, "toguz serve: listening on http://%s\n", ln.Addr())
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
	if *drain > 0 {
		log.Info("draining", "for", *drain)
		select {
		case <-time.After(*drain):
		case err := <-errc:
			return errors.Join(err, app.Close())
		}
	}
	log.Info("shutting down")
	err = app.Close() // closes the websockets: their games stop
	return errors.Join(err, <-errc)
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

// defaultGCPercent is serve's -gc-percent: four times Go's default. The
// server's allocations (requests, websocket frames, an attacker's password
// hashes) made the collector run every 1.3 s with 2,000 games and every
// attack at its bounds, and its mark assists hold up the moves: at 400 it
// runs a quarter as often and the load's p90 is a fifth lower (p99 within
// the runs' noise; docs/architecture.md). The price is memory: the heap
// may grow to five times what is live (1.1 GB at most in those runs, 210
// MB live).
const defaultGCPercent = 400

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
