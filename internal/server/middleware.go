package server

import (
	"cmp"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/metrics"
)

// statusWriter records the status and size of a response for the log.
type statusWriter struct {
	http.ResponseWriter
	status int
	size   int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.size += n
	return n, err
}

// Unwrap lets http.ResponseController (and the websocket upgrade) reach the
// underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs one line per request and counts it in m (nil: no
// metrics) under its route: the ServeMux pattern it matched, which the mux
// sets on this same request (no middleware between clones it), or
// routeNone for one refused before the mux (429, 413).
func logRequests(log *slog.Logger, m *metrics.Metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		took := time.Since(start)
		m.ObserveHTTP(cmp.Or(r.Pattern, routeNone), sw.status, took)
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int("bytes", sw.size),
			slog.Duration("took", took), slog.String("ip", auth.ClientIP(r)))
	})
}

// routeNone is the route label of the requests answered before routing.
const routeNone = "none"

// recoverPanics turns a panic in a handler into a 500 and a log line with
// the stack, so that one bad request never takes the server down.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				s.writeError(w, r, apierr.New(http.StatusInternalServerError, apierr.CodeInternal, "apierr.internal"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// securityHeaders sets the CSP and the other hardening headers: scripts only
// from this server (the embedded bundle), no framing, no sniffing.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// limitWrites refuses state-changing requests beyond the client's rate:
// an address's, where an IPv6 /64 counts as one (a user gets a whole /64).
func (s *Server) limitWrites(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !s.ips.Allow(auth.AddrKey(auth.ClientIP(r))) {
			// A token comes back within a second at any rate over 1/s: a
			// well-behaved client (toguz loadtest) waits that long and retries.
			w.Header().Set("Retry-After", "1")
			s.cfg.Metrics.RateLimited()
			s.writeError(w, r, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.rate_limited"))
			return
		}
		next.ServeHTTP(w, r)
	})
}
