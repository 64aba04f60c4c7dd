package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/store"
)

// Errors callers test with errors.Is.
var (
	ErrBadCredentials = errors.New("auth: wrong name or password")
	ErrRateLimited    = errors.New("auth: too many attempts; try again later")
	ErrNameTaken      = errors.New("auth: name already taken")
	ErrNoSession      = errors.New("auth: no such session, or it expired")
)

// Cookie names.
const (
	SessionCookie = "toguz_session"
	GuestCookie   = "toguz_guest"
	guestPrefix   = "Guest-"
)

// Limits are the rate limits of a Service: events per second and burst.
// rate.Inf disables one (a load test from loopback disables the per-IP move limit).
type Limits struct {
	LoginPerIP, LoginPerAccount    rate.Limit // logins and sign-ups
	LoginBurstIP, LoginBurstAcc    int
	MovesPerIdentity, MovesPerIP   rate.Limit
	MoveBurstIdentity, MoveBurstIP int
}

// DefaultLimits: 10 logins per IP (then one per 6 s), 5 per account (then
// one per 12 s); 10 moves per second per player (burst 20) and 100 per IP
// (burst 200).
func DefaultLimits() Limits {
	return Limits{
		LoginPerIP: rate.Every(6 * time.Second), LoginBurstIP: 10,
		LoginPerAccount: rate.Every(12 * time.Second), LoginBurstAcc: 5,
		MovesPerIdentity: 10, MoveBurstIdentity: 20,
		MovesPerIP: 100, MoveBurstIP: 200,
	}
}

// Config configures a Service. Store is required; the rest have defaults.
type Config struct {
	Store      *store.Store
	Params     Params           // DefaultParams when zero
	SessionTTL time.Duration    // 30 days when zero
	Now        func() time.Time // time.Now when nil
	Rand       io.Reader        // crypto/rand when nil
	Limits     *Limits          // DefaultLimits when nil
	// SecureCookies marks cookies Secure even on plain HTTP requests (TLS
	// ended by a proxy). Under TLS they always are.
	SecureCookies bool
	// TrustedOrigins are other origins allowed to send unsafe requests
	// ("https://example.org").
	TrustedOrigins []string
	Logger         *slog.Logger // slog.Default when nil
}

// Service signs users up and in, and knows who sends each request.
type Service struct {
	store  *store.Store
	params Params
	ttl    time.Duration
	now    func() time.Time
	rand   io.Reader
	secure bool
	log    *slog.Logger
	cop    *http.CrossOriginProtection

	loginIP, loginAcc, moveID, moveIP *Limiter
	dummyHash                         string // checked when the name is unknown, so that both cases cost the same
}

// New returns a Service.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("auth: no store")
	}
	s := &Service{store: cfg.Store, params: cfg.Params, ttl: cfg.SessionTTL, now: cfg.Now, rand: cfg.Rand,
		secure: cfg.SecureCookies, log: cfg.Logger, cop: http.NewCrossOriginProtection()}
	if s.params == (Params{}) {
		s.params = DefaultParams()
	}
	s.params = s.params.withDefaults()
	if s.ttl == 0 {
		s.ttl = 30 * 24 * time.Hour
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.Reader
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	l := DefaultLimits()
	if cfg.Limits != nil {
		l = *cfg.Limits
	}
	s.loginIP = NewLimiter(l.LoginPerIP, l.LoginBurstIP, s.now)
	s.loginAcc = NewLimiter(l.LoginPerAccount, l.LoginBurstAcc, s.now)
	s.moveID = NewLimiter(l.MovesPerIdentity, l.MoveBurstIdentity, s.now)
	s.moveIP = NewLimiter(l.MovesPerIP, l.MoveBurstIP, s.now)
	for _, o := range cfg.TrustedOrigins {
		if err := s.cop.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("auth: trusted origin: %w", err)
		}
	}
	var err error
	if s.dummyHash, err = HashPassword("not a password", s.params, s.rand); err != nil {
		return nil, err
	}
	return s, nil
}

// SignUp validates name and password and creates the account. Errors: a
// *RuleError, ErrNameTaken, ErrRateLimited (per IP; ip may be "").
func (s *Service) SignUp(ctx context.Context, name, password, ip string) (store.User, error) {
	if err := ValidateName(name); err != nil {
		return store.User{}, err
	}
	if err := ValidatePassword(password, name); err != nil {
		return store.User{}, err
	}
	if !s.loginIP.Allow(ip) {
		return store.User{}, ErrRateLimited
	}
	hash, err := HashPassword(password, s.params, s.rand)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.store.CreateUser(ctx, name, hash)
	if errors.Is(err, store.ErrDuplicateName) {
		return store.User{}, fmt.Errorf("%w: %q", ErrNameTaken, name)
	}
	return u, err
}

// Login checks a name and password. Errors: ErrBadCredentials (whether the
// name or the password was wrong is not told), ErrRateLimited (per IP and per
// account).
func (s *Service) Login(ctx context.Context, name, password, ip string) (store.User, error) {
	if !s.loginIP.Allow(ip) || !s.loginAcc.Allow(strings.ToLower(name)) {
		return store.User{}, ErrRateLimited
	}
	u, err := s.store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		CheckPassword(password, s.dummyHash)
		return store.User{}, ErrBadCredentials
	}
	if err != nil {
		return store.User{}, err
	}
	ok, err := CheckPassword(password, u.PasswordHash)
	if err != nil {
		return store.User{}, fmt.Errorf("auth: user %d: %w", u.ID, err)
	}
	if !ok {
		return store.User{}, ErrBadCredentials
	}
	if NeedsRehash(u.PasswordHash, s.params) {
		if h, err := HashPassword(password, s.params, s.rand); err == nil {
			if err := s.store.SetPasswordHash(ctx, u.ID, h); err != nil {
				s.log.Warn("rehash password", "user", u.ID, "err", err)
			}
		}
	}
	return u, nil
}

// tokenHash is what the database keeps of a session token.
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func (s *Service) randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("auth: random: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func (s *Service) cookie(r *http.Request, name, value string, expires time.Time) *http.Cookie {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secure || r.TLS != nil}
	if !expires.IsZero() {
		c.Expires = expires
		c.MaxAge = max(int(expires.Sub(s.now()).Seconds()), 1)
	}
	return c
}

// NewSession creates a session for the user and returns its token (the
// cookie's value, or a Bearer token for programs) and expiry. Only the
// token's SHA-256 is stored.
func (s *Service) NewSession(ctx context.Context, userID int64) (token string, expires time.Time, err error) {
	if token, err = s.randomHex(32); err != nil {
		return "", time.Time{}, err
	}
	now := s.now()
	expires = now.Add(s.ttl)
	if err := s.store.CreateSession(ctx, store.Session{TokenHash: tokenHash(token), UserID: userID, Created: now, Expires: expires}); err != nil {
		return "", time.Time{}, err
	}
	return token, expires, nil
}

// SessionUser returns the user of a live session token; ErrNoSession when
// the token is unknown or expired (an expired session is deleted).
func (s *Service) SessionUser(ctx context.Context, token string) (store.User, error) {
	if token == "" || len(token) > 128 {
		return store.User{}, ErrNoSession
	}
	h := tokenHash(token)
	sess, err := s.store.SessionByTokenHash(ctx, h)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return store.User{}, ErrNoSession
	case err != nil:
		return store.User{}, err
	case !s.now().Before(sess.Expires):
		if err := s.store.DeleteSession(ctx, h); err != nil {
			return store.User{}, err
		}
		return store.User{}, ErrNoSession
	}
	u, err := s.store.UserByID(ctx, sess.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, ErrNoSession
	}
	return u, err
}

// DeleteSession ends the session of token (logout); an unknown token is no error.
func (s *Service) DeleteSession(ctx context.Context, token string) error {
	return s.store.DeleteSession(ctx, tokenHash(token))
}

// SessionCookie returns the cookie that carries a session token to a
// browser: HttpOnly, SameSite=Lax, Secure under TLS (or Config.SecureCookies).
func (s *Service) SessionCookie(r *http.Request, token string, expires time.Time) *http.Cookie {
	return s.cookie(r, SessionCookie, token, expires)
}

// StartSession creates a session for the user and sets its cookie on w.
func (s *Service) StartSession(ctx context.Context, w http.ResponseWriter, r *http.Request, userID int64) error {
	token, exp, err := s.NewSession(ctx, userID)
	if err != nil {
		return err
	}
	http.SetCookie(w, s.SessionCookie(r, token, exp))
	return nil
}

// EndSession deletes the request's session, if any, and clears its cookie.
func (s *Service) EndSession(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		if err := s.DeleteSession(ctx, c.Value); err != nil {
			return err
		}
	}
	del := s.cookie(r, SessionCookie, "", time.Time{})
	del.MaxAge = -1
	http.SetCookie(w, del)
	return nil
}

// Identity is who sends a request: an account, a guest, or nobody yet.
type Identity struct {
	UserID  int64  // 0 for a guest or nobody
	GuestID string // a guest's random id (32 hex digits); "" otherwise
	Name    string // the account's name, or the guest's label "Guest-xxxxxx"
	secret  string // the cookie's value, to derive the CSRF token
}

// IsUser reports whether the identity is an account.
func (id Identity) IsUser() bool { return id.UserID != 0 }

// IsGuest reports whether the identity is a guest.
func (id Identity) IsGuest() bool { return id.UserID == 0 && id.GuestID != "" }

// Key is a stable key for per-identity limits and ownership: "u:<id>",
// "g:<guest id>", or "" for nobody.
func (id Identity) Key() string {
	switch {
	case id.IsUser():
		return fmt.Sprintf("u:%d", id.UserID)
	case id.IsGuest():
		return "g:" + id.GuestID
	}
	return ""
}

type ctxKey struct{}

// IdentityFrom returns the identity Middleware put in ctx (the zero Identity when none).
func IdentityFrom(ctx context.Context) Identity {
	id, _ := ctx.Value(ctxKey{}).(Identity)
	return id
}

// WithIdentity returns ctx carrying id.
func WithIdentity(ctx context.Context, id Identity) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

func validGuestID(v string) bool {
	if len(v) != 32 {
		return false
	}
	_, err := hex.DecodeString(v)
	return err == nil
}

// Identify returns the identity of the request's cookies: a live session's
// user, else a guest, else nobody. An expired session is deleted.
func (s *Service) Identify(ctx context.Context, r *http.Request) (Identity, error) {
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		u, err := s.SessionUser(ctx, c.Value)
		switch {
		case err == nil:
			return Identity{UserID: u.ID, Name: u.Name, secret: c.Value}, nil
		case !errors.Is(err, ErrNoSession):
			return Identity{}, err
		}
	}
	if c, err := r.Cookie(GuestCookie); err == nil && validGuestID(c.Value) {
		return guestIdentity(c.Value), nil
	}
	return Identity{}, nil
}

func guestIdentity(id string) Identity {
	return Identity{GuestID: id, Name: guestPrefix + id[:6], secret: id}
}

// Middleware puts the request's Identity in its context.
func (s *Service) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := s.Identify(r.Context(), r)
		if err != nil {
			s.log.Error("identify request", "err", err)
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		next.ServeHTTP(w, r.WithContext(WithIdentity(r.Context(), id)))
	})
}

// EnsureGuest returns the request's identity from its context, first making
// a guest (with a cookie on w, kept a year) when it has none.
func (s *Service) EnsureGuest(w http.ResponseWriter, r *http.Request) (Identity, error) {
	if id := IdentityFrom(r.Context()); id.Key() != "" {
		return id, nil
	}
	gid, err := s.randomHex(16)
	if err != nil {
		return Identity{}, err
	}
	http.SetCookie(w, s.cookie(r, GuestCookie, gid, s.now().Add(365*24*time.Hour)))
	return guestIdentity(gid), nil
}

// ClientIP returns the request's remote IP (no port). Proxies' headers are
// not trusted.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// AllowMove reports whether identity key (Identity.Key) may send one more
// move from ip, counting it.
func (s *Service) AllowMove(key, ip string) bool {
	return s.moveID.Allow(key) && s.moveIP.Allow(ip)
}

// CSRFFormField is the form field (and CSRFHeader the header) carrying the CSRF token.
const (
	CSRFFormField = "csrf_token"
	CSRFHeader    = "X-CSRF-Token"
)

// CSRFToken returns the token forms of this identity carry in CSRFFormField
// ("" for nobody). It is derived from the session or guest cookie, which a
// cross-site page cannot read.
func CSRFToken(id Identity) string {
	if id.secret == "" {
		return ""
	}
	h := sha256.Sum256([]byte("toguz csrf\x00" + id.secret))
	return hex.EncodeToString(h[:16])
}

// CSRF rejects cross-origin unsafe requests (http.CrossOriginProtection,
// which reads Sec-Fetch-Site and Origin) with 403. An unsafe request that
// carries neither header but does carry a session or guest cookie must also
// carry the CSRF token in CSRFHeader or CSRFFormField: that covers old
// browsers. Place it inside Middleware.
func (s *Service) CSRF(next http.Handler) http.Handler {
	return s.cop.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		id := IdentityFrom(r.Context())
		if r.Header.Get("Sec-Fetch-Site") == "" && r.Header.Get("Origin") == "" && id.secret != "" {
			got := r.Header.Get(CSRFHeader)
			if got == "" {
				got = r.PostFormValue(CSRFFormField)
			}
			if subtle.ConstantTimeCompare([]byte(got), []byte(CSRFToken(id))) != 1 {
				http.Error(w, "missing or wrong CSRF token", http.StatusForbidden)
				return
			}
		}
		next.ServeHTTP(w, r)
	}))
}
