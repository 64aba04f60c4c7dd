// Package localserver starts the whole toguz server (server.Open: store,
// live hub, engine player, HTTP handler) inside the calling process, on a
// loopback port: for the load test and the browser test, which need the
// real server and its memory in their own process.
package localserver

import (
	"context"
	"errors"
	"log/slog"
	"net"

	"github.com/toguz/toguz/internal/server"
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

	app  *server.App
	done chan error
}

// Start opens the database, resumes its live games and serves on
// 127.0.0.1 at a free port until Close.
func Start(ctx context.Context, opts Options) (*Server, error) {
	app, err := server.Open(ctx, server.Options{
		DB: opts.DB, Logger: opts.Logger, Engines: opts.Engines,
		WritesPerSecond: opts.WritesPerSecond, WriteBurst: opts.WriteBurst,
		MessageRate: opts.MessageRate, MessageBurst: opts.MessageBurst,
		MaxConnsPerAddr: -1, // its load tests open thousands of websockets from loopback
	})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, errors.Join(err, app.Close())
	}
	s := &Server{URL: "http://" + ln.Addr().String(), app: app, done: make(chan error, 1)}
	go func() { s.done <- app.Serve(ln) }()
	return s, nil
}

// Close stops serving, stops the live games and closes the database.
func (s *Server) Close() error {
	err := s.app.Close()
	return errors.Join(err, <-s.done)
}

// LiveGames returns the number of games the hub holds.
func (s *Server) LiveGames() int { return s.app.Hub.Live() }
