// Package localserver starts the whole toguz server (store, live hub,
// engine player, HTTP handler) inside the calling process, on a loopback
// port, as `toguz serve` wires it: for the load test and the browser test,
// which need the real server and its memory in their own process.
package localserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// Options configure Start.
type Options struct {
	DB     string       // the SQLite file (created and migrated)
	Logger *slog.Logger // nil: discard
	// Engines is the number of engine searches at once for games against
	// the engine (0: one per CPU).
	Engines int
	// WritesPerSecond and WriteBurst limit state-changing HTTP requests
	// per client address; 0: the server's defaults. A load test from one
	// address needs them high.
	WritesPerSecond float64
	WriteBurst      int
	// MessageRate and MessageBurst limit websocket messages per
	// connection; 0: the server's defaults.
	MessageRate  float64
	MessageBurst int
}

// Server is a running server.
type Server struct {
	URL string // http://127.0.0.1:PORT

	hs      *http.Server
	hub     *live.Hub
	st      *store.Store
	stopHub context.CancelFunc
	done    chan error
}

// Start opens the database, resumes its live games and serves on
// 127.0.0.1 at a free port until Close.
func Start(ctx context.Context, opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st, err := store.Open(ctx, opts.DB, store.Options{})
	if err != nil {
		return nil, err
	}
	player, err := server.NewEnginePlayer(opts.Engines, 16)
	if err != nil {
		st.Close()
		return nil, err
	}
	hubCtx, stopHub := context.WithCancel(context.WithoutCancel(ctx))
	gs := server.GameStore{S: st}
	hub := live.NewHub(hubCtx, live.Config{Store: gs, Engine: player, Logger: log})
	fail := func(err error) (*Server, error) {
		stopHub()
		hub.Wait()
		st.Close()
		return nil, err
	}
	if _, err := hub.Resume(ctx); err != nil {
		return fail(err)
	}
	srv, err := server.New(server.Config{
		Hub: hub, Lobby: live.NewLobby(hub), Accounts: server.NewAccounts(st), Archive: gs, Logger: log,
		WritesPerSecond: opts.WritesPerSecond, WriteBurst: opts.WriteBurst,
		MessageRate: opts.MessageRate, MessageBurst: opts.MessageBurst,
	})
	if err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		hs:  &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)},
		hub: hub, st: st, stopHub: stopHub, done: make(chan error, 1),
	}
	go func() { s.done <- s.hs.Serve(ln) }()
	return s, nil
}

// Close stops serving, stops the live games and closes the database.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := s.hs.Shutdown(ctx)
	s.stopHub()
	s.hub.Wait()
	if serr := <-s.done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, fmt.Errorf("serve: %w", serr))
	}
	return errors.Join(err, s.st.Close())
}

// LiveGames returns the number of games the hub holds.
func (s *Server) LiveGames() int { return s.hub.Live() }
