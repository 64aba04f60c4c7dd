package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync/atomic"
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

// Limits are the login limits of a Service. LoginPerIP and LoginBurstIP
// are a rate per client address (its /64 for IPv6; sign-ups count as
// logins): events per second and burst, rate.Inf disables it. The lock-out
// is per account and address ([Lockout]): after LockoutAfter failures in a
// row, LockoutBase, doubling at each further failure up to LockoutMax;
// LockoutAfter ≤ 0 disables it.
type Limits struct {
	LoginPerIP   rate.Limit
	LoginBurstIP int

	LockoutAfter            int
	LockoutBase, LockoutMax time.Duration
}

// DefaultLimits: 10 logins per address (then one per 6 s); 5 failures in a
// row for one account from one address lock that pair out for 15 s, then
// 30 s, 1 min, … up to an hour.
func DefaultLimits() Limits {
	return Limits{
		LoginPerIP: rate.Every(6 * time.Second), LoginBurstIP: 10,
		LockoutAfter: 5, LockoutBase: 15 * time.Second, LockoutMax: time.Hour,
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
	Logger     *slog.Logger     // slog.Default when nil
	// MaxHashes bounds the password hashes (logins, sign-ups) that run at
	// once (0: DefaultMaxHashes(Params)); HashWait is how long one waits
	// for a slot before ErrBusy (0: DefaultHashWait).
	MaxHashes int
	HashWait  time.Duration
}

// Service signs users up and in and keeps their sessions.
type Service struct {
	store  *store.Store
	params Params
	ttl    time.Duration
	now    func() time.Time
	rand   io.Reader
	log    *slog.Logger

	loginIP   *Limiter
	lockout   *Lockout
	hashes    *hashBound
	locked    atomic.Int64
	dummyHash string // checked when the name is unknown, so that both cases cost the same
}

// New returns a Service.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("auth: no store")
	}
	s := &Service{store: cfg.Store, params: cfg.Params, ttl: cfg.SessionTTL, now: cfg.Now, rand: cfg.Rand,
		log: cfg.Logger}
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
	s.lockout = NewLockout(l.LockoutAfter, l.LockoutBase, l.LockoutMax, s.now)
	maxHashes, wait := cfg.MaxHashes, cfg.HashWait
	if maxHashes <= 0 {
		maxHashes = DefaultMaxHashes(s.params)
	}
	if wait <= 0 {
		wait = DefaultHashWait
	}
	s.hashes = newHashBound(maxHashes, wait, s.log)
	var err error
	if s.dummyHash, err = HashPassword("not a password", s.params, s.rand); err != nil {
		return nil, err
	}
	return s, nil
}

// SignUp validates name and password and creates the account. Errors: a
// *RuleError, ErrNameTaken, ErrRateLimited (per IP; ip may be ""), ErrBusy.
func (s *Service) SignUp(ctx context.Context, name, password, ip string) (store.User, error) {
	if err := ValidateName(name); err != nil {
		return store.User{}, err
	}
	if err := ValidatePassword(password, name); err != nil {
		return store.User{}, err
	}
	if !s.loginIP.Allow(AddrKey(ip)) {
		return store.User{}, ErrRateLimited
	}
	release, err := s.hashes.acquire(ctx)
	if err != nil {
		return store.User{}, err
	}
	hash, err := HashPassword(password, s.params, s.rand)
	release()
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
// name or the password was wrong is not told), ErrRateLimited (per address,
// and when this account is locked out at this address), ErrBusy.
func (s *Service) Login(ctx context.Context, name, password, ip string) (store.User, error) {
	key := LockoutKey(name, ip)
	if d, locked := s.lockout.Locked(key); locked {
		s.locked.Add(1)
		return store.User{}, fmt.Errorf("%w: locked out for %v after wrong passwords", ErrRateLimited, d.Round(time.Second))
	}
	if !s.loginIP.Allow(AddrKey(ip)) {
		return store.User{}, ErrRateLimited
	}
	release, err := s.hashes.acquire(ctx)
	if err != nil {
		return store.User{}, err
	}
	defer release()
	u, err := s.store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		CheckPassword(password, s.dummyHash)
		s.lockout.Fail(key)
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
		if d := s.lockout.Fail(key); d > 0 {
			s.log.Info("login locked out", "user", u.ID, "ip", ip, "for", d)
		}
		return store.User{}, ErrBadCredentials
	}
	// A closed account never logs in again; it is told apart from a
	// wrong password by nothing (internal/privacy).
	if _, err := s.store.ClosedAccount(ctx, u.ID); err == nil {
		return store.User{}, ErrBadCredentials
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.User{}, err
	}
	s.lockout.Succeed(key)
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
	if err != nil {
		return u, err
	}
	// Closing an account deletes its sessions; one made after by any
	// other way in (a reset link, a passkey) is no session either.
	if _, err := s.store.ClosedAccount(ctx, u.ID); err == nil {
		return store.User{}, ErrNoSession
	} else if !errors.Is(err, store.ErrNotFound) {
		return store.User{}, err
	}
	return u, nil
}

// DeleteSession ends the session of token (logout); an unknown token is no error.
func (s *Service) DeleteSession(ctx context.Context, token string) error {
	return s.store.DeleteSession(ctx, tokenHash(token))
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

// Stats returns the counters of the hashing bound and the lock-outs.
func (s *Service) Stats() HashStats {
	return HashStats{MaxHashes: s.hashes.max, Hashed: s.hashes.hashed.Load(), Busy: s.hashes.busy.Load(),
		Locked: s.locked.Load()}
}
