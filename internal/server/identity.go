package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/site"
)

// Accounts is what the server needs from internal/auth. Its errors wrap
// the Err* values below, which the API turns into its error codes.
type Accounts interface {
	// SignUp creates an account and a session; it returns the session token.
	SignUp(ctx context.Context, name, password, ip string) (site.Account, string, error)
	// CheckPassword checks the password of the account named name and
	// starts no session (a second factor may be asked for first).
	CheckPassword(ctx context.Context, name, password, ip string) (site.Account, error)
	// StartSession starts a session of account id; it returns its token.
	StartSession(ctx context.Context, id int64) (string, error)
	// LogOut ends the session of token.
	LogOut(ctx context.Context, token string) error
	// Session returns the account of a session token, or an error.
	Session(ctx context.Context, token string) (site.Account, error)
}

// Errors an Accounts implementation wraps, so that the server can tell the
// client what went wrong.
var (
	ErrBadName        = errors.New("bad name")
	ErrBadPassword    = errors.New("bad password")
	ErrNameTaken      = errors.New("name taken")
	ErrBadCredentials = errors.New("wrong name or password")
	ErrRateLimited    = errors.New("too many attempts")
	ErrNoSession      = errors.New("no such session")
)

// cookieName is the session cookie.
const cookieName = "toguz_session"

// guestPrefix starts every guest token; account tokens never start with it.
const guestPrefix = "guest_"

func guestName(token string) string {
	sum := sha256.Sum256([]byte(token))
	return "Guest-" + hex.EncodeToString(sum[:8])
}

// newGuestToken returns a new guest token, signed by the server
// (guestkey.go). The guest's name is derived from it, so a guest keeps his
// games (and seat) across server restarts as long as he keeps the token
// and the server its key.
func (s *Server) newGuestToken() string { return s.guests.issue() }

// forgedGuest returns errForgedGuest when r carries a guest token that
// this server did not sign, and nil otherwise.
func (s *Server) forgedGuest(r *http.Request) error {
	if t := token(r); strings.HasPrefix(t, guestPrefix) && !s.guests.valid(t) {
		return errForgedGuest
	}
	return nil
}

// token returns the session token of r: the Bearer header, else the cookie.
func token(r *http.Request) string {
	if a := r.Header.Get("Authorization"); a != "" {
		if t, ok := strings.CutPrefix(a, "Bearer "); ok {
			return strings.TrimSpace(t)
		}
	}
	if c, err := r.Cookie(cookieName); err == nil {
		return c.Value
	}
	return ""
}

// identity returns who makes r; a bad or expired token is nobody.
func (s *Server) Identity(r *http.Request) site.Identity {
	t := token(r)
	if t == "" || len(t) > 200 {
		return site.Identity{}
	}
	if strings.HasPrefix(t, guestPrefix) {
		if !s.guests.valid(t) {
			return site.Identity{}
		}
		return site.Identity{Guest: guestName(t), Token: t}
	}
	if s.cfg.Accounts == nil {
		return site.Identity{}
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	a, err := s.cfg.Accounts.Session(ctx, t)
	if err != nil {
		if !errors.Is(err, ErrNoSession) {
			s.log.Warn("session lookup", "err", err)
		}
		return site.Identity{}
	}
	if s.cfg.Moderation.Closed(a.ID) {
		return site.Identity{} // a moderator closed the account
	}
	if s.account != nil {
		s.account.Seen(r, t)
	}
	return site.Identity{Account: a, Token: t}
}

// ensureIdentity returns who makes r, making him a guest (with a cookie)
// when he is nobody yet.
func (s *Server) EnsureIdentity(w http.ResponseWriter, r *http.Request) site.Identity {
	id := s.Identity(r)
	if id.Known() {
		return id
	}
	t := s.newGuestToken()
	s.setCookie(w, t, 30*24*time.Hour)
	return site.Identity{Guest: guestName(t), Token: t}
}

func (s *Server) setCookie(w http.ResponseWriter, value string, age time.Duration) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: value, Path: "/", HttpOnly: true,
		Secure: s.cfg.SecureCookies, SameSite: http.SameSiteLaxMode, MaxAge: int(age / time.Second)})
}

func (s *Server) clearCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", HttpOnly: true,
		Secure: s.cfg.SecureCookies, SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// sessionAge is how long an account's cookie lives (the session itself
// expires in internal/auth).
const sessionAge = 30 * 24 * time.Hour
