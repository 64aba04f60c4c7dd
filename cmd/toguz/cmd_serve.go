package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/server"
)

func runServe(ctx context.Context, e env) error {
	fs := newFlags(e, "serve", "", "Serves the web interface and the HTTP + websocket API (docs/api.md), storing\neverything in an SQLite database. Stops gracefully on SIGTERM or SIGINT.")
	addr := fs.String("addr", "localhost:8080", "address to listen on (host:port; port 0 picks a free one)")
	db := fs.String("db", "toguz.db", "SQLite database file (created and migrated at start)")
	logFormat := fs.String("log", "text", "log format: text or json")
	verbose := fs.Bool("v", false, "log debug messages")
	grace := fs.Duration("grace", 30*time.Second, "how long a player may be gone before his opponent can claim the win")
	firstMove := fs.Duration("first-move", 60*time.Second, "abort a real-time game between people when a first move takes longer (0: never)")
	engines := fs.Int("engines", 0, "engines searching at once for the games against the engine (0: one per CPU but one, at least one)")
	seeksPerAddr := fs.Int("seeks-per-address", 20, "open seeks one client address may have (a load test from one address needs more; -1: no bound)")
	seekExpiry := fs.Duration("seek-expiry", 30*time.Minute, "how long a seek stays open")
	secure := fs.Bool("secure-cookies", false, "mark cookies Secure (when served over HTTPS, e.g. behind a proxy)")
	readTimeout := fs.Duration("read-timeout", server.DefaultReadTimeout, "longest time to read a request, body included (0: none; websockets are not bound)")
	writeTimeout := fs.Duration("write-timeout", server.DefaultWriteTimeout, "longest time to answer a request once read (0: none; websockets are not bound)")
	idleTimeout := fs.Duration("idle-timeout", server.DefaultIdleTimeout, "close a keep-alive connection idle this long (0: none)")
	maxConns := fs.Int("max-conns-per-addr", server.DefaultMaxConnsPerAddr, "connections open at once from one client address, one /64 for IPv6 (0: no cap)")
	maxHashes := fs.Int("max-hashes", 0, "password checks (argon2id, 19 MiB each) at once, for logins and sign-ups (0: one per CPU, within 256 MiB)")
	hashWait := fs.Duration("hash-wait", auth.DefaultHashWait, "how long a login waits for a password-check slot before 503 busy")
	maxEngineGames := fs.Int("max-engine-games", live.DefaultMaxEngineGames, "games against the engine one person may play at once (0: no bound)")
	maxEngineGamesPerAddr := fs.Int("max-engine-games-per-addr", live.DefaultMaxEngineGamesPerAddr, "games against the engine played at once from one client address, one /64 for IPv6 (0: no bound)")
	syncMode := fs.String("sync", "normal", "how durable a commit is: normal (survives the process being killed) or full\n(also a power loss: an fsync per commit, slower)")
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
	app, err := server.Open(ctx, server.Options{DB: *db, Logger: log, Engines: *engines, Grace: *grace,
		FirstMoveTimeout: *firstMove, SecureCookies: *secure,
		ReadTimeout: none(*readTimeout), WriteTimeout: none(*writeTimeout), IdleTimeout: none(*idleTimeout),
		MaxConnsPerAddr: *maxConns, MaxHashes: *maxHashes, HashWait: *hashWait,
		MaxEngineGames: *maxEngineGames, MaxEngineGamesPerAddr: *maxEngineGamesPerAddr,
		Lobby:    live.LobbyConfig{PerAddress: *seeksPerAddr, Expiry: *seekExpiry},
		SyncFull: syncFull})
	if err != nil {
		return err
	}
	// Say what the store really does, not what was asked.
	mode, err := app.Store.Synchronous(ctx)
	if err != nil {
		app.Close()
		return err
	}
	log.Info("store", "db", *db, "synchronous", map[int]string{0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[mode])
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		app.Close()
		return err
	}
	fmt.Fprintf(e.stderr, "toguz serve: listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- app.Serve(ln) }()
	select {
	case err := <-errc:
		return errors.Join(err, app.Close())
	case <-ctx.Done():
	}
	log.Info("shutting down")
	err = app.Close() // closes the websockets: their games stop
	return errors.Join(err, <-errc)
}
