package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

func runServe(ctx context.Context, e env) error {
	fs := newFlags(e, "serve", "", "Serves the web interface and the HTTP + websocket API (docs/api.md), storing\neverything in an SQLite database. Stops gracefully on SIGTERM or SIGINT.")
	addr := fs.String("addr", "localhost:8080", "address to listen on (host:port; port 0 picks a free one)")
	db := fs.String("db", "toguz.db", "SQLite database file (created and migrated at start)")
	logFormat := fs.String("log", "text", "log format: text or json")
	verbose := fs.Bool("v", false, "log debug messages")
	grace := fs.Duration("grace", 30*time.Second, "how long a player may be gone before his opponent can claim the win")
	firstMove := fs.Duration("first-move", 60*time.Second, "abort a real-time game between people when a first move takes longer (0: never)")
	engines := fs.Int("engines", 0, "engines searching at once for the games against the engine (0: one per CPU)")
	secure := fs.Bool("secure-cookies", false, "mark cookies Secure (when served over HTTPS, e.g. behind a proxy)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
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

	st, err := store.Open(ctx, *db, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	player, err := server.NewEnginePlayer(*engines, 16)
	if err != nil {
		return err
	}
	if *firstMove == 0 {
		*firstMove = -1
	}
	hubCtx, stopHub := context.WithCancel(context.WithoutCancel(ctx))
	defer stopHub()
	gs := server.GameStore{S: st}
	hub := live.NewHub(hubCtx, live.Config{Store: gs, Engine: player, Logger: log, Grace: *grace, FirstMoveTimeout: *firstMove})
	n, err := hub.Resume(ctx)
	if err != nil {
		return err
	}
	log.Info("resumed live games", "games", n)
	accounts, err := auth.New(auth.Config{Store: st, Logger: log, SecureCookies: *secure})
	if err != nil {
		return err
	}
	srv, err := server.New(server.Config{Hub: hub, Lobby: live.NewLobby(hub), Accounts: server.AuthAccounts{A: accounts}, Archive: gs, Logger: log,
		SecureCookies: *secure})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(h, slog.LevelWarn)}
	fmt.Fprintf(e.stderr, "toguz serve: listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = hs.Shutdown(sctx)
	stopHub() // closes the websockets: their games stop
	hub.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
