package twofactor

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Pending tokens' kinds.
const (
	kindLogin    = "login"    // a password login waiting for its second step
	kindRegister = "register" // a passkey being registered
	kindAssert   = "assert"   // a passkey asked for as a second step
	kindDiscover = "discover" // a password-less login
)

// Needed is the error of a password login whose account has a second
// factor: no session was started; the client sends the second step with
// Ticket.
type Needed struct {
	Ticket   string
	Account  site.Account
	TOTP     bool // a TOTP code may be the second step
	Recovery bool // a recovery code may be
	Passkey  bool // a passkey may be
}

func (n *Needed) Error() string { return "twofactor: a second factor is needed" }

// NeededJSON is the answer of POST /api/login for such an account.
type NeededJSON struct {
	SecondFactor bool     `json:"second_factor"`
	Ticket       string   `json:"ticket"`
	Methods      []string `json:"methods"` // "totp", "recovery", "passkey"
}

// JSON returns n as POST /api/login answers it.
func (n *Needed) JSON() NeededJSON {
	j := NeededJSON{SecondFactor: true, Ticket: n.Ticket, Methods: []string{}}
	if n.TOTP {
		j.Methods = append(j.Methods, "totp")
	}
	if n.Recovery {
		j.Methods = append(j.Methods, "recovery")
	}
	if n.Passkey {
		j.Methods = append(j.Methods, "passkey")
	}
	return j
}

// Gate is asked after a's password was right: nil when a has no second
// factor (the caller starts the session), else a *Needed.
func (s *Site) Gate(ctx context.Context, a site.Account) error {
	st, err := s.StatusOf(ctx, a.ID)
	if err != nil {
		return err
	}
	if !st.On() {
		return nil
	}
	t, err := s.newToken(ctx, kindLogin, a.ID, nil)
	if err != nil {
		return err
	}
	return &Needed{Ticket: t, Account: a, TOTP: st.TOTP, Recovery: st.RecoveryLeft > 0, Passkey: len(st.Passkeys) > 0}
}

// newToken stores a pending token of kind for user with data and
// returns it.
func (s *Site) newToken(ctx context.Context, kind string, user int64, data []byte) (string, error) {
	t := rand.Text()
	err := s.cfg.Store.PutPending(ctx, store.Pending{TokenHash: tokenHash(t), Kind: kind, User: user, Data: data,
		Expires: s.cfg.Now().Add(TicketTTL)})
	return t, err
}

// pending returns the pending token t of kind (taking it when take).
func (s *Site) pending(ctx context.Context, t, kind string, take bool) (store.Pending, error) {
	if t == "" || len(t) > 64 {
		return store.Pending{}, errTicket
	}
	p, err := s.cfg.Store.PendingToken(ctx, tokenHash(t), kind, take)
	if errors.Is(err, store.ErrNotFound) {
		if kind == kindLogin {
			return store.Pending{}, errTicket
		}
		return store.Pending{}, errChallenge
	}
	return p, err
}

func tokenHash(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

// account returns the account of user.
func (s *Site) account(ctx context.Context, user int64) (site.Account, error) {
	u, err := s.cfg.Store.UserByID(ctx, user)
	if err != nil {
		return site.Account{}, err
	}
	return site.Account{ID: u.ID, Name: u.Name, Lang: u.Lang}, nil
}

// secondStep checks code against the login ticket's account and, when
// right, ends the ticket and returns the account; the caller starts the
// session.
func (s *Site) secondStep(ctx context.Context, ticket, code string) (site.Account, error) {
	p, err := s.pending(ctx, ticket, kindLogin, false)
	if err != nil {
		return site.Account{}, err
	}
	if err := s.Verify(ctx, p.User, code); err != nil {
		return site.Account{}, err
	}
	if _, err := s.pending(ctx, ticket, kindLogin, true); err != nil {
		return site.Account{}, err // used meanwhile by another request
	}
	return s.account(ctx, p.User)
}

// addrLimiter bounds the password-less logins begun per client address:
// each stores a challenge (a row) that a stranger could otherwise make
// without end.
type addrLimiter struct {
	mu    sync.Mutex
	now   func() time.Time
	start time.Time
	count map[string]int
}

// perAddrPerMinute ceremonies begun by one address.
const perAddrPerMinute = 30

func newAddrLimiter(now func() time.Time) *addrLimiter {
	return &addrLimiter{now: now, count: map[string]int{}}
}

func (l *addrLimiter) allow(addr string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now := l.now(); now.Sub(l.start) >= time.Minute {
		l.start, l.count = now, map[string]int{}
	}
	if l.count[addr] >= perAddrPerMinute {
		return false
	}
	l.count[addr]++
	return true
}

func (s *Site) allowAddr(r *http.Request) error {
	if !s.ips.allow(s.cfg.ClientIP(r)) {
		return errTooFast
	}
	return nil
}
