// Package server is the HTTP side of `toguz serve`: the JSON API and the
// websockets of docs/api.md, and the HTML pages.
//
// # Index
//
//   - Open, Options and App (app.go): the whole server wired as `toguz serve`
//     and StartLocal both run it: the store, the auth accounts, the hub with
//     its engine player and its resumed games, the lobby and the handler;
//     Serve and Close. StartLocal (local.go) serves it on a loopback port
//     in the calling process, for the load and browser tests.
//   - Server and Config: built from the live hub and lobby, the accounts
//     (internal/auth), the archive (internal/store) and the pages
//     (internal/web); Handler returns the whole route table.
//   - routes (server.go): one stdlib ServeMux with Go 1.22 patterns, every
//     handler a func(w, r) error; errors become JSON or HTML error pages.
//   - Middleware (middleware.go): slog request logs, panic recovery, security
//     headers with a CSP of script-src 'self', http.CrossOriginProtection for
//     every state-changing request, a per-address rate limit on writes.
//   - Bounds (bounds.go): a body limit on every route (413 too_large), the
//     http.Server's timeouts (lifted for websockets), a connection cap per
//     address (IPv6: /64) at the listener, 503 busy with a Retry-After when
//     auth's password hashing is full; counters in App.Stats and slog.
//   - Identity (identity.go): a session token from the cookie or a Bearer
//     header names a user (internal/auth) or a guest (a token the server
//     signed, guestkey.go, whose hash is the guest's name); a guest token
//     it did not sign is refused.
//   - Websockets (ws.go): github.com/coder/websocket, a 4 KiB read limit,
//     JSON messages with a type field, a per-connection message rate. Two
//     goroutines per connection: the handler reads, one writer sends the
//     game's already-encoded messages; pings run from a timer.
//   - API (api.go), pages (pages.go), the archive's interface (archive.go).
//   - Adapters (adapters.go, accounts.go): StoreArchive puts internal/store
//     behind Archive; AuthAccounts puts internal/auth (argon2id, sessions,
//     login limits) behind Accounts. The hub's store and engine are
//     store.LiveStore and engine.LivePlayer, beside what they adapt.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/web"
	"golang.org/x/time/rate"
)

// Config is what a Server is built from.
type Config struct {
	Hub      *live.Hub
	Lobby    *live.Lobby
	Accounts Accounts
	Archive  Archive
	Logger   *slog.Logger
	// SecureCookies marks the session cookie Secure (behind HTTPS).
	SecureCookies bool
	// MessageRate and MessageBurst limit websocket messages per connection
	// (defaults 20/s and 40).
	MessageRate  float64
	MessageBurst int
	// WritesPerSecond and WriteBurst limit state-changing HTTP requests per
	// client address (defaults 20/s and 60).
	WritesPerSecond float64
	WriteBurst      int
	// ImportsPerMinute bounds the imports one client address starts a
	// minute (0: 10; negative: no bound).
	ImportsPerMinute int
	// GuestKey signs the guest tokens (at least 16 bytes; LoadGuestKey
	// keeps one in a file). Empty: a random key, so that guests lose their
	// identity when the server restarts.
	GuestKey []byte
}

// Server serves the API and the pages.
type Server struct {
	cfg    Config
	log    *slog.Logger
	cat    *i18n.Catalog
	pages  *web.Pages
	ips    *auth.Limiter
	bound  *boundCounters
	guests guestSigner
	// imports bounds the imports running at once (imports.go).
	imports importGate
}

// New returns a server.
func New(cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MessageRate == 0 {
		cfg.MessageRate, cfg.MessageBurst = 20, 40
	}
	if cfg.WritesPerSecond == 0 {
		cfg.WritesPerSecond, cfg.WriteBurst = 20, 60
	}
	guests, err := newGuestSigner(cfg.GuestKey)
	if err != nil {
		return nil, err
	}
	cat := i18n.New()
	pages, err := web.NewPages(cat)
	if err != nil {
		return nil, err
	}
	srv := &Server{cfg: cfg, log: cfg.Logger, cat: cat, pages: pages, guests: guests,
		ips: auth.NewLimiter(rate.Limit(cfg.WritesPerSecond), cfg.WriteBurst, time.Now), bound: newBoundCounters()}
	srv.imports.perMinute = cfg.ImportsPerMinute
	return srv, nil
}

// Handler returns the route table wrapped in the middleware.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h func(http.ResponseWriter, *http.Request) error) {
		mux.Handle(pattern, s.jsonHandler(h))
	}
	page := func(pattern string, h func(http.ResponseWriter, *http.Request) error) {
		mux.Handle(pattern, s.pageHandler(h))
	}

	api("POST /api/guest", s.apiGuest)
	api("POST /api/signup", s.apiSignup)
	api("POST /api/login", s.apiLogin)
	api("POST /api/logout", s.apiLogout)
	api("GET /api/me", s.apiMe)
	api("GET /api/seeks", s.apiSeeks)
	api("POST /api/seeks", s.apiCreateSeek)
	api("GET /api/seeks/{id}", s.apiSeek)
	api("DELETE /api/seeks/{id}", s.apiCancelSeek)
	api("POST /api/seeks/{id}/accept", s.apiAcceptSeek)
	api("POST /api/engine-games", s.apiEngineGame)
	api("POST /api/positions/check", s.apiCheckPosition)
	api("GET /api/games/{id}", s.apiGame)
	api("GET /api/games/{id}/export", s.apiExport)
	api("GET /api/users/{name}", s.apiUser)
	api("GET /api/users/{name}/games", s.apiUserGames)
	api("GET /api/leaderboard", s.apiLeaderboard)
	mux.HandleFunc("GET /api/games/{id}/ws", s.gameWS)
	mux.HandleFunc("GET /api/lobby/ws", s.lobbyWS)
	api("/api/", func(http.ResponseWriter, *http.Request) error {
		return &apiError{Status: http.StatusNotFound, Code: live.CodeNotFound, Message: "no such API endpoint"}
	})

	page("GET /{$}", s.pageLobby)
	page("POST /lobby/seek", s.pageCreateSeek)
	page("POST /lobby/engine", s.pageEngineGame)
	page("GET /signup", s.pageSignupForm)
	page("POST /signup", s.pageSignup)
	page("GET /login", s.pageLoginForm)
	page("POST /login", s.pageLogin)
	page("POST /logout", s.pageLogout)
	page("GET /game/{id}", s.pageGame)
	page("GET /challenge/{id}", s.pageChallenge)
	page("POST /challenge/{id}", s.pageAcceptChallenge)
	page("POST /challenge/{id}/cancel", s.pageCancelChallenge)
	page("GET /editor", s.pageEditor)
	page("GET /import", s.pageImportForm)
	page("POST /import", s.pageImport)
	page("GET /@/{name}", s.pageProfile)
	page("GET /leaderboard", s.pageLeaderboard)
	mux.Handle("GET /static/", s.pages.Static())
	page("/", func(http.ResponseWriter, *http.Request) error {
		return &apiError{Status: http.StatusNotFound, Code: live.CodeNotFound, Message: s.cat.T("en", "error.notfound")}
	})

	var h http.Handler = mux
	h = s.limitBodies(h)
	h = limitWrites(s.ips, h)
	h = http.NewCrossOriginProtection().Handler(h)
	h = securityHeaders(h)
	h = recoverPanics(s.log, h)
	h = logRequests(s.log, h)
	return h
}

// apiError is an error with an HTTP status and an API code.
type apiError struct {
	Status  int
	Code    live.Code
	Message string
}

func (e *apiError) Error() string { return string(e.Code) + ": " + e.Message }

// The API's codes beyond live's (docs/api.md, "Error codes").
const (
	codeBadName         live.Code = "bad_name"
	codeBadPassword     live.Code = "bad_password"
	codeNameTaken       live.Code = "name_taken"
	codeBadCredentials  live.Code = "bad_credentials"
	codeUnauthenticated live.Code = "unauthenticated"
	codeBadFormat       live.Code = "bad_format"
	codeBusy            live.Code = "busy"      // the password hashing is full
	codeTooLarge        live.Code = "too_large" // a body over its route's limit
	codeBadGuestToken   live.Code = "bad_guest_token"
	// codeCanceled answers a request whose client has gone: nobody reads
	// it, so it is not documented.
	codeCanceled live.Code = "canceled"
)

func badRequest(code live.Code, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: code, Message: fmt.Sprintf(format, args...)}
}

// codeStatus returns the HTTP status of a live.Error's code: 400 unless
// the code says otherwise.
func codeStatus(c live.Code) int {
	switch c {
	case live.CodeNotFound:
		return http.StatusNotFound
	case live.CodeForbidden, live.CodeGuestRated:
		return http.StatusForbidden
	case live.CodeOwnSeek:
		return http.StatusConflict
	case live.CodeSeekGone:
		return http.StatusGone
	case live.CodeRateLimited, live.CodeTooManyEngineGames, live.CodeTooManySeeks, live.CodeTooManySpectators:
		return http.StatusTooManyRequests
	case live.CodeInternal:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// asAPIError classifies any error for the client; unknown errors are
// logged and shown as "internal".
func (s *Server) asAPIError(r *http.Request, err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var le *live.Error
	if errors.As(err, &le) {
		return &apiError{Status: codeStatus(le.Code), Code: le.Code, Message: le.Message}
	}
	if errors.Is(err, context.Canceled) {
		return &apiError{Status: 499, Code: codeCanceled, Message: "request canceled"}
	}
	s.log.Error("handler", "path", r.URL.Path, "err", err)
	return &apiError{Status: http.StatusInternalServerError, Code: live.CodeInternal, Message: "internal error"}
}

func (s *Server) jsonHandler(h func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			writeJSONError(w, s.asAPIError(r, err))
		}
	})
}

func writeJSONError(w http.ResponseWriter, e *apiError) {
	setBoundHeaders(w, e)
	writeJSON(w, e.Status, map[string]any{"error": map[string]string{"code": string(e.Code), "message": e.Message}})
}

func writeJSON(w http.ResponseWriter, status int, v any) error {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	return json.NewEncoder(w).Encode(v)
}

// maxBody is the largest JSON body the API reads (an imported record is
// read by the page handler with its own limit).
const maxBody = 64 << 10

// readJSON decodes the request body into v, refusing unknown fields, bodies
// over maxBody and trailing data.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apiError{Status: http.StatusRequestEntityTooLarge, Code: codeTooLarge, Message: fmt.Sprintf("the body is over %d bytes", maxBody)}
		}
		if errors.Is(err, io.EOF) {
			return badRequest(live.CodeBadRequest, "the body is empty; want a JSON object")
		}
		return badRequest(live.CodeBadRequest, "the body is not the JSON expected: %v", err)
	}
	if dec.More() {
		return badRequest(live.CodeBadRequest, "the body has data after the JSON object")
	}
	return nil
}

// storeTimeout bounds the database work of one request.
const storeTimeout = 10 * time.Second
