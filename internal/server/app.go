package server

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
)

// Options configure Open: the whole server of `toguz serve`.
type Options struct {
	DB     string       // the SQLite file (created and migrated)
	Logger *slog.Logger // nil: discard
	// Engines is the number of engine searches at once for the games
	// against the engine (0: one per CPU but one, and at least one, so that
	// engine games at their bounds leave a CPU to the games between people).
	Engines int
	// Grace and FirstMoveTimeout are live.Config's (0: its defaults;
	// a negative FirstMoveTimeout: never).
	Grace            time.Duration
	FirstMoveTimeout time.Duration
	// SecureCookies, MessageRate, MessageBurst, WritesPerSecond and
	// WriteBurst are Config's (0: its defaults).
	SecureCookies   bool
	MessageRate     float64
	MessageBurst    int
	WritesPerSecond float64
	WriteBurst      int
	// ReadTimeout, WriteTimeout and IdleTimeout are the http.Server's
	// (0: DefaultReadTimeout, DefaultWriteTimeout, DefaultIdleTimeout;
	// negative: none); websockets lift the first two.
	ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// MaxConnsPerAddr caps the connections open at once from one client
	// address, its /64 for IPv6 (0: DefaultMaxConnsPerAddr; negative:
	// no cap).
	MaxConnsPerAddr int
	// MaxHashes and HashWait bound the password hashing: auth.Config's
	// (0: its defaults).
	MaxHashes int
	HashWait  time.Duration
	// MaxEngineGames and MaxEngineGamesPerAddr bound the games against the
	// engine played at once per person and per client address: live.Config's
	// (0: its defaults; negative: no bound).
	MaxEngineGames, MaxEngineGamesPerAddr int
	// GuestKeyFile keeps the key that signs guest tokens ("": the DB's
	// path with ".guestkey" added; created when missing), so that guests
	// keep their identity across restarts.
	GuestKeyFile string
	// Lobby bounds the seeks (live.LobbyConfig: seeks per address, expiry,
	// the grace after their creator leaves, the number listed; zero fields
	// take its defaults).
	Lobby live.LobbyConfig
	// SpectatorsPerGame and SpectatorsPerAddress are live.Config's (0: its
	// defaults; negative: no bound).
	SpectatorsPerGame    int
	SpectatorsPerAddress int
	// SyncFull makes every commit wait for the disk, so that acknowledged
	// moves survive a power loss too (store.Options.SyncFull).
	SyncFull bool
}

// App is the whole server wired together: the store, the accounts, the live
// hub with its engine player, the lobby and the HTTP handler. `toguz serve`
// and StartLocal both build it with Open, so that the load and browser
// tests measure exactly what is served.
type App struct {
	Store *store.Store
	Hub   *live.Hub

	log     *slog.Logger
	handler http.Handler
	stopHub context.CancelFunc
	hs      *http.Server
	srv     *Server
	authSvc *auth.Service
	perAddr int          // the connection cap per address; 0: none
	refused atomic.Int64 // connections closed by the cap
}

// Open opens (creating and migrating) the database, resumes its live games
// and builds the handler. The hub lives until Close, not until ctx ends.
func Open(ctx context.Context, opts Options) (*App, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st, err := store.Open(ctx, opts.DB, store.Options{SyncFull: opts.SyncFull})
	if err != nil {
		return nil, err
	}
	if opts.Engines <= 0 {
		opts.Engines = max(1, runtime.GOMAXPROCS(0)-1)
	}
	player, err := engine.NewLivePlayer(opts.Engines, 16)
	if err != nil {
		st.Close()
		return nil, err
	}
	hubCtx, stopHub := context.WithCancel(context.WithoutCancel(ctx))
	hub := live.NewHub(hubCtx, live.Config{Store: store.LiveStore{S: st}, Engine: player, Logger: log,
		Grace: opts.Grace, FirstMoveTimeout: opts.FirstMoveTimeout,
		MaxEngineGames: opts.MaxEngineGames, MaxEngineGamesPerAddr: opts.MaxEngineGamesPerAddr,
		SpectatorsPerGame: opts.SpectatorsPerGame, SpectatorsPerAddress: opts.SpectatorsPerAddress})
	a := &App{Store: st, Hub: hub, log: log, stopHub: stopHub}
	fail := func(err error) (*App, error) {
		a.stop()
		return nil, err
	}
	n, err := hub.Resume(ctx)
	if err != nil {
		return fail(err)
	}
	log.Info("resumed live games", "games", n)
	accounts, err := auth.New(auth.Config{Store: st, Logger: log, MaxHashes: opts.MaxHashes, HashWait: opts.HashWait})
	if err != nil {
		return fail(err)
	}
	guestKey, err := LoadGuestKey(cmp.Or(opts.GuestKeyFile, opts.DB+".guestkey"))
	if err != nil {
		return fail(err)
	}
	srv, err := New(Config{Hub: hub, Lobby: live.NewLobbyWith(hub, opts.Lobby), GuestKey: guestKey, Accounts: AuthAccounts{A: accounts}, Archive: StoreArchive{S: st},
		Logger: log, SecureCookies: opts.SecureCookies,
		MessageRate: opts.MessageRate, MessageBurst: opts.MessageBurst,
		WritesPerSecond: opts.WritesPerSecond, WriteBurst: opts.WriteBurst})
	if err != nil {
		return fail(err)
	}
	a.handler = srv.Handler()
	a.srv, a.authSvc = srv, accounts
	a.hs = &http.Server{Handler: a.handler, ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:  orDefault(opts.ReadTimeout, DefaultReadTimeout),
		WriteTimeout: orDefault(opts.WriteTimeout, DefaultWriteTimeout),
		IdleTimeout:  orDefault(opts.IdleTimeout, DefaultIdleTimeout),
		ErrorLog:     slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	switch a.perAddr = opts.MaxConnsPerAddr; {
	case a.perAddr == 0:
		a.perAddr = DefaultMaxConnsPerAddr
	case a.perAddr < 0:
		a.perAddr = 0
	}
	return a, nil
}

// Handler returns the routes of the API and the pages.
func (a *App) Handler() http.Handler { return a.handler }

// Serve serves ln until Close, at most MaxConnsPerAddr connections per
// client address; it returns nil after Close.
func (a *App) Serve(ln net.Listener) error {
	if a.perAddr > 0 {
		ln = newConnCap(ln, a.perAddr, a.log, &a.refused)
	}
	if err := a.hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// Close stops serving (waiting up to 10 s for requests in progress), stops
// the live games (which closes their websockets) and closes the database.
func (a *App) Close() error {
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
	return errors.Join(err, a.Store.Close())
}
