package server

import (
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/live"
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

// logRequests logs one line per request.
func logRequests(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int("bytes", sw.size),
			slog.Duration("took", time.Since(start)), slog.String("ip", auth.ClientIP(r)))
	})
}

// recoverPanics turns a panic in a handler into a 500 and a log line with
// the stack, so that one bad request never takes the server down.
func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Error("panic", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeJSONError(w, &apiError{Status: http.StatusInternalServerError, Code: live.CodeInternal, Message: "internal error"})
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
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// limitWrites refuses state-changing requests beyond the client's rate.
func limitWrites(l *auth.Limiter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !l.Allow(auth.ClientIP(r)) {
			// A token comes back within a second at any rate over 1/s: a
			// well-behaved client (toguz loadtest) waits that long and retries.
			w.Header().Set("Retry-After", "1")
			writeJSONError(w, &apiError{Status: http.StatusTooManyRequests, Code: live.CodeRateLimited, Message: "too many requests; slow down"})
			return
		}
		next.ServeHTTP(w, r)
	})
}
