package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysisboard"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/metrics"
	"github.com/toguz/toguz/internal/moderation"
	"github.com/toguz/toguz/internal/notifications"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/sections"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/team"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/systems"
)

// Options configure Open: the whole server of `toguz serve`. Its settings
// are declared once, in the table of settings.go, with their flags, their
// defaults and their help: a zero setting takes its default (SetDefaults,
// which Open calls), and a negative one, where a setting can be off, is
// "none" ("never", "no bound").
type Options struct {
	// Settings are the Server's (Config's), handed over as they are.
	Settings
	// Command is read by `toguz serve` itself, not by Open.
	Command Command

	DB     string       // the SQLite file (created and migrated)
	Logger *slog.Logger // nil: discard
	// Engines is the number of engine searches at once for the games
	// against the engine (0: one per CPU but one, and at least one, so that
	// engine games at their bounds leave a CPU to the games between people).
	Engines int
	// AnalysisEngines is the number of engines of POST /api/analysis,
	// apart from the games' (0: one; negative: none, and the endpoint
	// answers 503).
	AnalysisEngines int
	// BackgroundEngines runs the engine's searches at the lowest priority
	// of the OS (enginepool.LiveOptions.Background); `toguz serve
	// -background-engines` sets it and raises GOMAXPROCS by the engines.
	// Off by default: measured beside the attacks, it lowered the other
	// games' p50 and p90 but raised their p99 (docs/architecture.md).
	BackgroundEngines bool
	// EnginesHoldCPU leaves the engine's searches (games, analyses,
	// reviews) to the runtime's 10 ms preemption instead of giving the
	// scheduler a turn every thousand nodes (enginepool.LiveOptions.Yield):
	// `toguz serve -engine-yield=false`, for measuring what the yield buys
	// (docs/architecture.md).
	EnginesHoldCPU bool
	// Grace and FirstMoveTimeout are live.Config's (0: the defaults;
	// a negative FirstMoveTimeout: never).
	Grace            time.Duration
	FirstMoveTimeout time.Duration
	// ReadTimeout, WriteTimeout and IdleTimeout are the http.Server's
	// (0: DefaultReadTimeout, DefaultWriteTimeout, DefaultIdleTimeout;
	// negative: none); websockets lift the first two.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxConnsPerAddr caps the connections open at once from one client
	// address, its /64 for IPv6 (0: DefaultMaxConnsPerAddr; negative:
	// no cap).
	MaxConnsPerAddr int
	// TrustedProxies are the load balancers in front (proxy.go): a
	// request from one of them is the client's that X-Forwarded-For names,
	// and their connections are not capped per address.
	TrustedProxies []netip.Prefix
	// MaxHashes and HashWait bound the password hashing: auth.Config's
	// (0: its defaults).
	MaxHashes int
	HashWait  time.Duration
	// MaxEngineGames and MaxEngineGamesPerAddr bound the games against the
	// engine played at once per person and per client address: live.Config's
	// (0: the defaults; negative: no bound).
	MaxEngineGames, MaxEngineGamesPerAddr int
	// Tablebase is Config's: the endgame tables POST /api/analysis probes,
	// which its engines and those of the games against the engine search
	// with too, each position in its own ruleset's table (nil: none).
	Tablebase analysisboard.Tablebase
	// GuestKeyFile keeps the key that signs guest tokens ("": the DB's
	// path with ".guestkey" added, created when missing; on PostgreSQL the
	// key kept in the database, shared by every node), so that guests
	// keep their identity across restarts and nodes.
	GuestKeyFile string
	// EventClock is the events' clock (nil: the time): a browser test
	// moves it on to the end of an arena.
	EventClock func() time.Time
	// PushAllowPrivate lets Web Push go to loopback and private addresses:
	// the tests' receiver in their own process (a server refuses them).
	PushAllowPrivate bool
	// Lobby bounds the seeks (live.LobbyConfig: seeks per address, expiry,
	// the grace after their creator leaves, the number listed; zero fields
	// take their defaults, a negative PerAddress: no bound).
	Lobby live.LobbyConfig
	// SpectatorsPerGame and SpectatorsPerAddress are live.Config's (0: its
	// defaults; negative: no bound).
	SpectatorsPerGame    int
	SpectatorsPerAddress int
	// NoChatPerAddress lifts the chat's rate limit per client address
	// (the limit per person stays): for the in-process load test, whose
	// thousands of players all come from 127.0.0.1.
	NoChatPerAddress bool
	// SyncFull makes every commit wait for the disk, so that acknowledged
	// moves survive a power loss too (store.Options.SyncFull).
	SyncFull bool
	// DBConns is the store's read pool (store.Options.Readers): on
	// PostgreSQL the node opens DBConns+3 connections; 0: the store's
	// default (on PostgreSQL 4 per CPU, at least 16).
	DBConns int
	// ReviewWorkers is the number of games reviewed at once (internal/review),
	// at most the CPUs (0: one; negative: no reviews, no job is queued and
	// the pages show none). ReviewDepth is the search of every ply (0:
	// review.DefaultDepth). ReviewForeground runs the reviews' searches at
	// the server's priority (BackgroundEngines' counterpart; the default
	// is the lowest).
	ReviewWorkers, ReviewDepth int
	ReviewForeground           bool
	// ReviewCommand, when set, runs each review worker's searches in a
	// child process of this command (`toguz review-worker`: review.Process)
	// rather than in the server's: `toguz serve` sets it, since a search
	// at the lowest priority inside the server's process delays its moves
	// on a loaded machine (docs/review.md).
	ReviewCommand []string
	// ReviewAnalyzer, when set, makes each review worker's analyzer
	// instead (review.Remote: the searches in `toguz worker` processes
	// over the bus); it takes precedence over ReviewCommand.
	ReviewAnalyzer func() (review.Analyzer, error)
	// Swiss pairs the Swiss events' rounds (nil: the FIDE Dutch system of
	// internal/tournament/dutch).
	Swiss tournament.Pairer
	// Federations is the federations' register the championships of
	// /championships take their players from and report to (nil: the
	// register kept in the site's own store, internal/federation).
	Federations federation.Register
	// Metrics, when set, is fed by the store, the hub, the engine and the
	// handler (internal/metrics; `toguz serve -metrics-addr` serves it).
	Metrics *metrics.Metrics
	// Bus, when set, makes this server one node of several sharing the
	// database (live.Config.Bus; the store's game leases). Node is its id
	// ("": random at start).
	Bus  live.Bus
	Node string
	// SMTP is the server of the accounts' mail (internal/mail; Host "":
	// no mail), its password read from SMTPPasswordFile when one is named
	// (toguz serve sets SMTP.Password from TOGUZ_SMTP_PASSWORD otherwise);
	// the links in mail start with SiteURL ("": http:// and the -addr).
	SMTP             mail.SMTPConfig
	SMTPPasswordFile string
	SiteURL          string
}

// App is the whole server wired together: the store, the accounts, the live
// hub with its engine player, the lobby and the HTTP handler. `toguz serve`
// and StartLocal both build it with Open, so that the load and browser
// tests measure exactly what is served.
type App struct {
	Store *store.Store
	Hub   *live.Hub
	// Reviews is the game review queue (nil: reviews are off).
	Reviews *review.Queue
	// Moderation is the reports, the marks and the moderator role
	// (internal/moderation).
	Moderation *moderation.Service

	log     *slog.Logger
	handler http.Handler
	stopHub context.CancelFunc
	hs      *http.Server
	srv     *Server
	authSvc *auth.Service
	perAddr int // the connection cap per address; 0: none
	proxies []netip.Prefix
	refused atomic.Int64 // connections closed by the cap
	// draining is set by Drain and Close: GET /readyz answers 503 from
	// then on, while the server still serves.
	draining atomic.Bool
	// storeReady caches the store's readiness for storeReadyFor, so that
	// however often /readyz is asked (by balancers, or by a stranger) the
	// store is asked at most once a second.
	// mailing is the mail queue's sender and the accounts' worker, which
	// stop before the store closes.
	mailing sync.WaitGroup
	// notices is the notifications' service (its queues stop before the
	// store closes).
	notices *notifications.Service

	storeReadyMu  sync.Mutex
	storeReadyAt  time.Time
	storeReadyErr error
	// bus is the nodes' bus when it tells its connection (internal/bus);
	// nil otherwise.
	bus connectedBus
	// noticing is what sends notices off the requests (the leaders'
	// messages to their teams): it stops before the notices' queue is
	// drained into the store.
	noticing sync.WaitGroup
}

// Open opens (creating and migrating) the database, resumes its live games
// and builds the handler. The hub lives until Close, not until ctx ends.
func Open(ctx context.Context, opts Options) (*App, error) {
	opts.SetDefaults()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sopts := store.Options{SyncFull: opts.SyncFull, Reviews: opts.ReviewWorkers > 0, Readers: opts.DBConns}
	m := opts.Metrics
	if m != nil {
		sopts.Observer = m
	}
	st, err := store.Open(ctx, opts.DB, sopts)
	if err != nil {
		return nil, err
	}
	player, analysis, err := openEngines(opts)
	if err != nil {
		st.Close()
		return nil, err
	}
	// The events are loaded before the hub resumes its games, so that the
	// endings of resumed games reach them.
	swiss := opts.Swiss
	if swiss == nil {
		swiss = systems.Swiss()
	}
	evs, err := events.New(ctx, events.Config{Store: st, Swiss: swiss, Logger: log, Now: opts.EventClock, Admit: team.Admitter(st)})
	if err != nil {
		st.Close()
		return nil, err
	}
	mod, err := moderation.New(ctx, moderation.Config{Store: st, Logger: log, Events: withdrawMarked(evs)})
	if err != nil {
		st.Close()
		return nil, err
	}
	opts.Lobby.Marked = mod.Marked
	mailQueue, err := openMail(opts, st, log)
	if err != nil {
		st.Close()
		return nil, err
	}
	notices, err := newNotifications(ctx, opts, st, mailQueue, log)
	if err != nil {
		st.Close()
		return nil, err
	}
	// The bot API's event streams hear of every game's end (gameFinish).
	botEvents := botapi.NewEvents()
	hubCtx, stopHub := context.WithCancel(context.WithoutCancel(ctx))
	chatPerID, chatPerAddr := ChatLimiters()
	if opts.NoChatPerAddress {
		chatPerAddr = nil
	}
	var hubStore live.Store = store.LiveStore{S: st}
	var hubEngine live.Engine = player
	if m != nil {
		hubStore, hubEngine = countedStore{hubStore, m}, timedEngine{hubEngine, m}
	}
	hub := live.NewHub(hubCtx, live.Config{Store: hubStore, Engine: hubEngine, Logger: log,
		ChatPerIdentity: chatPerID, ChatPerAddress: chatPerAddr, SeatRating: SeatRating(StoreArchive{S: st}),
		Grace: opts.Grace, FirstMoveTimeout: opts.FirstMoveTimeout,
		MaxEngineGames: opts.MaxEngineGames, MaxEngineGamesPerAddr: opts.MaxEngineGamesPerAddr,
		SpectatorsPerGame: opts.SpectatorsPerGame, SpectatorsPerAddress: opts.SpectatorsPerAddress,
		OnEnd: func(s game.Saved) { go evs.GameEnded(s); botEvents.GameEnded(s) }, Muted: mod.Muted,
		Bus: opts.Bus, Node: opts.Node, Leases: nodeLeases(opts.Bus, st), OnYourMove: yourMove(notices)})
	a := &App{Store: st, Hub: hub, Moderation: mod, log: log, stopHub: stopHub, notices: notices}
	a.bus, _ = opts.Bus.(connectedBus)
	fail := func(err error) (*App, error) {
		a.stop()
		return nil, err
	}
	n, err := hub.Resume(ctx)
	if err != nil {
		return fail(err)
	}
	log.Info("resumed live games", "games", n)
	if err := evs.SetGames(ctx, hub); err != nil {
		return fail(err)
	}
	go evs.Run(hubCtx)
	go mod.Run(hubCtx)
	go runEventSoon(hubCtx, evs, notices, st)
	accounts, err := auth.New(auth.Config{Store: st, Logger: log, MaxHashes: opts.MaxHashes, HashWait: opts.HashWait})
	if err != nil {
		return fail(err)
	}
	guestKey, err := guestKey(ctx, opts, st)
	if err != nil {
		return fail(err)
	}
	twoFactorKey, err := twoFactorKey(ctx, opts, st)
	if err != nil {
		return fail(err)
	}
	// After the hub's resume: the games it aborted are not reviewed.
	reviews, err := a.startReviews(ctx, opts)
	if err != nil {
		return fail(err)
	}
	// The passkeys' origin is -site-url where it names a host: passkeys
	// need a domain, so an address (StartLocal's 127.0.0.1) leaves each
	// request's own host, as http://localhost needs.
	settings := opts.Settings
	if u, err := url.Parse(opts.SiteURL); err == nil && u.Hostname() != "" && net.ParseIP(u.Hostname()) == nil {
		settings.PublicURL = strings.TrimRight(opts.SiteURL, "/")
	}
	srv, err := New(Config{Settings: settings, Hub: hub, Reviews: reviews, Lobby: live.NewLobbyWith(hub, opts.Lobby), LobbyChat: live.NewLobbyChat(hub), Reports: st, Progress: st, Studies: st, Teams: st, Broadcasts: st, Simuls: st, Puzzles: st, GuestKey: guestKey, Accounts: AuthAccounts{A: accounts}, Archive: StoreArchive{S: st},
		TwoFactor: st, TwoFactorKey: twoFactorKey,
		Logger: log, Analysis: analysis, Tablebase: opts.Tablebase,
		Bots: st, BotEvents: botEvents, OAuth: st,
		Events: evs, EventUser: func(ctx context.Context, name string) (int64, error) {
			u, err := st.UserByName(ctx, name)
			return u.ID, err
		},
		Metrics: m, Ready: a.ready, Moderation: mod, Championships: championships(st, opts.Federations, swiss, log),
		AccountStore: st, Passwords: accounts, Mail: mailQueue, SiteURL: siteURL(opts), Notifications: notices})
	if err != nil {
		return fail(err)
	}
	if opts.Bus != nil {
		// The bots' events and challenges reach every node.
		if err := srv.bots.JoinNodes(opts.Bus, hub.Node()); err != nil {
			return fail(err)
		}
	}
	go srv.bots.RunLadder(hubCtx)
	a.mailing.Go(func() { mailQueue.Run(hubCtx) })
	a.mailing.Go(func() { srv.RunAccounts(hubCtx) })
	if srv.teams != nil {
		a.noticing.Go(func() { srv.teams.Run(hubCtx) }) // the leaders' messages
	}
	a.handler = trustProxies(opts.TrustedProxies, srv.Handler())
	a.proxies = opts.TrustedProxies
	a.srv, a.authSvc = srv, accounts
	a.hs = &http.Server{Handler: a.handler, ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:  orDefault(opts.ReadTimeout, DefaultReadTimeout),
		WriteTimeout: orDefault(opts.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:  orDefault(opts.IdleTimeout, DefaultIdleTimeout),
		ErrorLog:     slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	a.perAddr = max(opts.MaxConnsPerAddr, 0) // negative: no cap
	a.registerMetrics(m, player)
	return a, nil
}

// openEngines starts the engines of the games against the engine and
// those of the analyses (nil when opts has none).
func openEngines(opts Options) (*enginepool.LivePlayer, *enginepool.AnalysisPool, error) {
	if opts.Engines <= 0 {
		opts.Engines = max(1, runtime.GOMAXPROCS(0)-1)
	}
	yield := runtime.Gosched
	if opts.EnginesHoldCPU {
		yield = nil
	}
	player, err := enginepool.NewLivePlayerWith(enginepool.LiveOptions{Searchers: opts.Engines, HashMB: 16, Background: opts.BackgroundEngines, Yield: yield, Tablebase: opts.Tablebase})
	if err != nil || opts.AnalysisEngines < 0 {
		return player, nil, err
	}
	analysis, err := enginepool.NewAnalysisPool(enginepool.AnalysisOptions{Searchers: opts.AnalysisEngines, HashMB: 16,
		Background: opts.BackgroundEngines, Yield: yield, Wait: analysisboard.AnalysisWait, Tablebase: opts.Tablebase})
	return player, analysis, err
}

// startReviews starts the game review queue into a.Reviews and returns the
// Server's Reviews, or nil when opts has no review workers.
func (a *App) startReviews(ctx context.Context, opts Options) (review.Reviews, error) {
	if opts.ReviewWorkers <= 0 {
		return nil, nil
	}
	st := a.Store
	rc := review.Config{Jobs: st, Games: store.LiveStore{S: st}, Workers: opts.ReviewWorkers,
		Depth: opts.ReviewDepth, Foreground: opts.ReviewForeground, Logger: a.log,
		FairPlay: st} // the fair-play evidence of the games accounts played (internal/fairplay)
	if cmd := opts.ReviewCommand; len(cmd) > 0 {
		rc.Analyzer = func() (review.Analyzer, error) { return review.NewProcess(cmd), nil }
	}
	if opts.ReviewAnalyzer != nil {
		rc.Analyzer = opts.ReviewAnalyzer
	}
	q, err := review.Start(ctx, rc)
	if err != nil {
		return nil, err
	}
	a.Reviews = q
	judge, err := review.NewJudge(1, q.Depth())
	if err != nil {
		return nil, err
	}
	return review.StoreReviews{S: st, Q: q, J: judge}, nil
}

// registerMetrics registers the gauges and counters read at each scrape:
// the live games, the engine's queue and the bounds' counters (Stats).
func (a *App) registerMetrics(m *metrics.Metrics, player *enginepool.LivePlayer) {
	if m == nil {
		return
	}
	m.GaugeFunc("toguz_live_games", "Games with a running actor on this node.", func() float64 { return float64(a.Hub.Live()) })
	m.GaugeFunc("toguz_engine_queue", "Searches of the live games waiting for an engine.", func() float64 { return float64(player.Waiting()) })
	a.registerClusterMetrics(m)
	for _, c := range []struct {
		name, help string
		v          func(BoundStats) int64
	}{
		{"toguz_bodies_too_large_total", "Request bodies refused with 413 for their route's limit.", func(s BoundStats) int64 { return s.TooLarge }},
		{"toguz_conns_refused_total", "Connections closed by the cap per client address.", func(s BoundStats) int64 { return s.ConnsRefused }},
		{"toguz_engine_games_refused_total", "Games against the engine refused for the bounds per person and per address.", func(s BoundStats) int64 { return s.EngineGamesRefused }},
		{"toguz_password_hashes_total", "Logins and sign-ups that got a password-hashing slot.", func(s BoundStats) int64 { return s.Hashing.Hashed }},
		{"toguz_password_busy_total", "Logins and sign-ups refused with 503 busy: the hashing slots were full.", func(s BoundStats) int64 { return s.Hashing.Busy }},
		{"toguz_login_locked_total", "Logins refused because their account and address were locked out.", func(s BoundStats) int64 { return s.Hashing.Locked }},
	} {
		m.CounterFunc(c.name, c.help, func() float64 { return float64(c.v(a.Stats())) })
	}
}

// ready is the readiness of GET /readyz: not while draining, the hub
// accepting games, the store reachable and at the latest schema.
func (a *App) ready(ctx context.Context) error {
	switch {
	case a.draining.Load():
		return errors.New("shutting down")
	case !a.Hub.Accepting():
		return errors.New("the live hub has stopped")
	case a.bus != nil && !a.bus.Connected():
		// Sockets relayed to other nodes would hang and moves reach
		// them late: the balancer sends new players elsewhere.
		return errors.New("the bus (NATS) is down")
	}
	a.storeReadyMu.Lock()
	defer a.storeReadyMu.Unlock()
	if now := time.Now(); now.Sub(a.storeReadyAt) >= storeReadyFor {
		a.storeReadyErr, a.storeReadyAt = a.Store.Ready(ctx), now
	}
	return a.storeReadyErr
}

// storeReadyFor is how long a store readiness check's answer is reused.
const storeReadyFor = time.Second

// Drain makes GET /readyz answer 503 from now on while everything else is
// served as before: a load balancer that checks it stops sending new
// connections here before Close ends the games' sockets.
func (a *App) Drain() { a.draining.Store(true) }

// countedStore counts the moves the hub stores (toguz_moves_total).
type countedStore struct {
	live.Store
	m *metrics.Metrics
}

func (c countedStore) AddMove(ctx context.Context, id string, ply int, mv game.PlayedMove) error {
	err := c.Store.AddMove(ctx, id, ply, mv)
	if err == nil {
		c.m.MovePlayed()
	}
	return err
}

// timedEngine times each search of the live games' engine from the moment
// it has an engine (EngineRequest.Started), not counting its wait in the
// queue, which toguz_engine_queue shows.
type timedEngine struct {
	live.Engine
	m *metrics.Metrics
}

func (t timedEngine) Move(ctx context.Context, r game.EngineRequest) (toguz.Move, error) {
	var started time.Time
	inner := r.Started
	r.Started = func(at time.Time) {
		started = at
		if inner != nil {
			inner(at)
		}
	}
	mv, err := t.Engine.Move(ctx, r)
	if !started.IsZero() {
		t.m.ObserveSearch(time.Since(started))
	}
	return mv, err
}

// Handler returns the routes of the API and the pages.
func (a *App) Handler() http.Handler { return a.handler }

// Serve serves ln until Close, at most MaxConnsPerAddr connections per
// client address; it returns nil after Close.
func (a *App) Serve(ln net.Listener) error {
	if a.perAddr > 0 {
		cc := newConnCap(ln, a.perAddr, a.log, &a.refused)
		cc.exempt = a.proxies
		ln = cc
	}
	if err := a.hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// Close stops serving (waiting up to 10 s for requests in progress), stops
// the live games (which closes their websockets) and closes the database.
func (a *App) Close() error {
	a.Drain()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := a.hs.Shutdown(ctx)
	return errors.Join(err, a.stop())
}

// Stats returns the counters of the bounds: bodies refused, connections
// refused, password hashing.
func (a *App) Stats() BoundStats {
	st := a.srv.Stats()
	st.ConnsRefused = a.refused.Load()
	st.Hashing = a.authSvc.Stats()
	st.EngineGamesRefused = a.Hub.EngineGamesRefused()
	return st
}

func (a *App) stop() error {
	// A clean stop records its instant: the clocks resume exactly as they
	// were (live.Hub.Stop).
	err := a.Hub.Stop(context.Background())
	a.stopHub()
	a.Hub.Wait()
	a.noticing.Wait()
	a.notices.Close() // what the games queued, before the store closes
	a.mailing.Wait()
	if a.Reviews != nil {
		// A review in progress stays running in the store: the next
		// start resumes it.
		a.Reviews.Stop()
	}
	return errors.Join(err, a.Store.Close())
}

// withdrawMarked returns the events' part of a moderator's mark: the
// account leaves every event it is entered in that has not finished
// (internal/events: a round robin scores its games left as forfeits).
func withdrawMarked(evs *events.Manager) moderation.Events {
	return func(ctx context.Context, userID int64) error {
		var errs []error
		for _, e := range evs.List() {
			if en := e.EntryOf(userID); en == nil || en.Withdrawn || e.Status == events.Finished {
				continue
			}
			if _, err := evs.Withdraw(ctx, e.ID, userID); err != nil {
				errs = append(errs, fmt.Errorf("withdraw from event %s: %w", e.ID, err))
			}
		}
		return errors.Join(errs...)
	}
}

// nodeLeases returns the store's game leases when the server is one node
// of several (a bus), nil otherwise.
func nodeLeases(b live.Bus, st *store.Store) live.Leases {
	if b == nil {
		return nil
	}
	return store.LiveStore{S: st}
}

// championships returns the desk of the events with sections, nil
// without a register to take their players from.
func championships(st *store.Store, reg federation.Register, swiss tournament.Pairer, log *slog.Logger) *sections.Desk {
	if reg == nil {
		reg = federation.New(st, nil)
	}
	// The norms earned come from the register's service; another
	// register prints none.
	norms, _ := reg.(sections.Norms)
	return sections.New(sections.Config{Store: st, Register: reg, Norms: norms, Swiss: swiss, Logger: log, User: func(ctx context.Context, name string) (int64, error) {
		u, err := st.UserByName(ctx, name)
		return u.ID, err
	}})
}
