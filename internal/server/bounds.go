package server

import (
	"errors"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/archive"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/broadcast"
	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/site"
)

// The bounds of the server against abusive clients (docs/api.md, Bounds):
// request bodies, the http.Server's timeouts and the connections per client
// address. The password-hashing bound and the login lock-outs are
// internal/auth's.

// ErrBusy is what an Accounts implementation wraps when it cannot check a
// password now (every hashing slot taken): 503 busy, with a Retry-After.
var ErrBusy = errors.New("the server is busy checking passwords; try again in a moment")

// busyRetryAfter is the Retry-After of a 503 busy.
const busyRetryAfter = time.Second

// maxImportBody is the body limit of the import route, the one route that
// takes more than site.MaxBody: a record file and the form around it.
const maxImportBody = archive.MaxImport + 64<<10

// bodyLimit is the largest body the route of r reads.
func bodyLimit(r *http.Request) int64 {
	if r.URL.Path == "/import" || broadcast.IsUpload(r.URL.Path) {
		return maxImportBody
	}
	if federation.IsUpload(r.URL.Path) {
		return federation.MaxImportBytes
	}
	return site.MaxBody
}

// formType is the media type of the HTML form r carries, which the
// handlers read with r.FormValue (which hides errors); "" when none.
func formType(r *http.Request) string {
	if r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch {
		return ""
	}
	switch mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt {
	case "application/x-www-form-urlencoded", "multipart/form-data":
		return mt
	}
	return ""
}

// limitBodies reads every request body through http.MaxBytesReader at its
// route's limit, refusing a larger one with 413 too_large: at once when its
// Content-Length says so, else as soon as the limit is passed. It parses
// forms here (parseForm), except on the routes that admit a request before
// they read its body (admitsFirst).
func (s *Server) limitBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := bodyLimit(r)
		if r.ContentLength > limit {
			s.tooLarge(w, r, limit)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		if !admitsFirst(r) && !s.parseForm(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// admitsFirst says whether the route of r parses its form itself, once its
// bounds have admitted the request: POST /import, whose bounds per address
// (internal/archive) refuse most of what one client posts, and which would
// otherwise read and parse up to 2 MiB for each refusal (an attacker's
// refused imports were then the server's largest allocation, some 33 MB a
// second, and its garbage collections the load's slowest moves). The body
// of a refused request is left unread; net/http closes its connection.
func admitsFirst(r *http.Request) bool {
	return r.Method == http.MethodPost && r.URL.Path == "/import"
}

// parseForm parses the HTML form of r within its route's limit, with all of
// the limit in memory, so that a multipart upload is never spooled to a
// temporary file and an oversized form is a 413, not a form read as empty.
// It answers the error itself and reports false when the form is refused.
func (s *Server) parseForm(w http.ResponseWriter, r *http.Request) bool {
	mt := formType(r)
	if mt == "" {
		return true
	}
	// ParseMultipartForm would hide ParseForm's error on a urlencoded body.
	err := r.ParseForm()
	if err == nil && mt == "multipart/form-data" {
		err = r.ParseMultipartForm(bodyLimit(r))
	}
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			s.tooLarge(w, r, bodyLimit(r))
			return false
		}
		s.writeError(w, r, apierr.BadRequest("bad_request", "apierr.form_unreadable").WithDetail(err))
		return false
	}
	return true
}

func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request, limit int64) {
	s.bound.tooLarge.Add(1)
	s.bound.logTooLarge.Do(func() {
		s.log.Warn("request body too large", "path", r.URL.Path, "limit", limit, "ip", auth.ClientIP(r),
			"refused_total", s.bound.tooLarge.Load())
	})
	s.writeError(w, r, apierr.New(http.StatusRequestEntityTooLarge, apierr.CodeTooLarge, "apierr.too_large", limit>>10))
}

// writeError answers e as JSON under /api/ and as the error page elsewhere.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, e *apierr.Error) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		s.writeJSONError(w, r, e)
		return
	}
	s.pageHandler(func(http.ResponseWriter, *http.Request) error { return e }).ServeHTTP(w, r)
}

// setBoundHeaders tells the client when to come back from a 503 busy, and
// ends the connection after a 413 rather than read the rest of its body.
func setBoundHeaders(w http.ResponseWriter, e *apierr.Error) {
	switch e.Status {
	case http.StatusServiceUnavailable:
		if e.Code == apierr.CodeBusy || e.Code == apierr.CodeGameMoving || e.Code == apierr.CodeStoreUnavailable {
			w.Header().Set("Retry-After", strconv.Itoa(int(busyRetryAfter/time.Second)))
		}
	case http.StatusRequestEntityTooLarge:
		w.Header().Set("Connection", "close")
	}
}

// boundCounters are the counters of the bounds the Server applies.
type boundCounters struct {
	tooLarge    atomic.Int64
	logTooLarge rate.Sometimes
}

func newBoundCounters() *boundCounters {
	return &boundCounters{logTooLarge: rate.Sometimes{Interval: 10 * time.Second}}
}

// BoundStats are the counters of the bounds, for logs and tests.
type BoundStats struct {
	TooLarge     int64 // bodies refused with 413
	ConnsRefused int64 // connections closed by the per-address cap
	Hashing      auth.HashStats

	// EngineGamesRefused counts the engine games refused for the bounds
	// per person and per address (live.Hub.EngineGamesRefused).
	EngineGamesRefused int64
}

// Stats returns the counters of the bounds the Server applies (the App
// adds the others).
func (s *Server) Stats() BoundStats { return BoundStats{TooLarge: s.bound.tooLarge.Load()} }

// Defaults of the http.Server's timeouts and of the connection cap
// (Options; the flags of `toguz serve`).
const (
	DefaultReadTimeout     = 30 * time.Second // the whole request, body included
	DefaultWriteTimeout    = 60 * time.Second // from the end of the headers to the end of the answer
	DefaultIdleTimeout     = 60 * time.Second // a keep-alive connection between requests
	DefaultMaxConnsPerAddr = 256
	readHeaderTimeout      = 10 * time.Second
)

// orDefault is d when v is 0, none when v is negative, else v.
func orDefault(v, d time.Duration) time.Duration {
	switch {
	case v == 0:
		return d
	case v < 0:
		return 0
	}
	return v
}

// connCap is a net.Listener that keeps at most max connections open at once
// per client address (auth.AddrKey: the IPv4 address, the IPv6 /64): a
// connection beyond it is closed as soon as it is accepted.
type connCap struct {
	net.Listener
	max     int
	log     *slog.Logger
	refused *atomic.Int64
	logRef  rate.Sometimes
	exempt  []netip.Prefix // trusted proxies: many clients' connections

	mu   sync.Mutex
	open map[string]int
}

func newConnCap(ln net.Listener, max int, log *slog.Logger, refused *atomic.Int64) *connCap {
	return &connCap{Listener: ln, max: max, log: log, refused: refused, open: make(map[string]int),
		logRef: rate.Sometimes{Interval: 10 * time.Second}}
}

// Accept returns the next connection within the cap.
func (l *connCap) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if len(l.exempt) > 0 {
			if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil && trusted(l.exempt, ap.Addr()) {
				return c, nil
			}
		}
		key := connKey(c.RemoteAddr())
		l.mu.Lock()
		ok := l.open[key] < l.max
		if ok {
			l.open[key]++
		}
		l.mu.Unlock()
		if ok {
			return &cappedConn{Conn: c, release: func() { l.release(key) }}, nil
		}
		c.Close()
		n := l.refused.Add(1)
		l.logRef.Do(func() {
			l.log.Warn("connection cap per address: refused", "addr", key, "max", l.max, "refused_total", n)
		})
	}
}

func (l *connCap) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// connKey is the cap's key of a remote address.
func connKey(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		return auth.AddrKey(ta.IP.String())
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return auth.AddrKey(host)
}

// cappedConn gives its slot back once, when closed (by the server, or by a
// websocket that hijacked it).
type cappedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
