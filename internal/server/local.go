package server

import (
	"context"
	"errors"
	"net"

	"github.com/toguz/toguz/internal/moderation"
)

// Local is the whole server (Open) serving on a loopback port inside the
// calling process: for the load and browser tests and `toguz loadtest`,
// which need the real server and its memory in their own process.
type Local struct {
	URL string // http://127.0.0.1:PORT

	app  *App
	done chan error
}

// StartLocal opens the database of opts.DB (created and migrated), resumes
// its live games and serves on 127.0.0.1 at a free port until Close.
func StartLocal(ctx context.Context, opts Options) (*Local, error) {
	// The port is known before Open, so that the links in mail name it.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	if opts.SiteURL == "" {
		opts.SiteURL = "http://" + ln.Addr().String()
	}
	app, err := Open(ctx, opts)
	if err != nil {
		return nil, errors.Join(err, ln.Close())
	}
	s := &Local{URL: "http://" + ln.Addr().String(), app: app, done: make(chan error, 1)}
	go func() { s.done <- app.Serve(ln) }()
	return s, nil
}

// Close stops serving, stops the live games and closes the database.
func (s *Local) Close() error {
	err := s.app.Close()
	return errors.Join(err, <-s.done)
}

// LiveGames returns the number of games the hub holds.
func (s *Local) LiveGames() int { return s.app.Hub.Live() }

// Stats returns the counters of the server's bounds (App.Stats).
func (s *Local) Stats() BoundStats { return s.app.Stats() }

// Moderation is the server's moderation (its snapshot of roles and marks
// a test reads again after writing the store itself).
func (s *Local) Moderation() *moderation.Service { return s.app.Moderation }
