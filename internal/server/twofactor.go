package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/twofactor"
)

// newTwoFactor builds the second factors' site (internal/twofactor) of
// Config.TwoFactor; nil when there is none.
func (s *Server) newTwoFactor() (*twofactor.Site, error) {
	if s.cfg.TwoFactor == nil || s.cfg.Accounts == nil {
		return nil, nil
	}
	key := s.cfg.TwoFactorKey
	if len(key) == 0 {
		key = make([]byte, twofactor.KeySize)
		rand.Read(key)
	}
	return twofactor.New(twofactor.Config{Store: s.cfg.TwoFactor, Kit: s, Key: key, Origin: s.cfg.PublicURL,
		Login: s.startSession, CheckPassword: s.checkPassword, ClientIP: auth.ClientIP})
}

// startSession starts a session of a on this browser after his second
// factor or passkey: its cookie and a login's language rule.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a site.Account) (string, error) {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	t, err := s.cfg.Accounts.StartSession(ctx, a.ID)
	if err != nil {
		return "", err
	}
	s.setCookie(w, t, sessionAge)
	s.startedSession(r, a, t)
	return t, s.loginLang(w, r, a)
}

// checkPassword checks a's password (the password's bounds apply).
func (s *Server) checkPassword(ctx context.Context, a site.Account, password, ip string) error {
	_, err := s.cfg.Accounts.CheckPassword(ctx, a.Name, password, ip)
	return accountError(err)
}

// twoFactorKey returns the key that seals the TOTP secrets: kept as the
// guest key is (guestKey), in a file of its own beside an SQLite
// database (opts.DB + ".twofactorkey"), and in the database's secrets on
// PostgreSQL, whose nodes must share it.
func twoFactorKey(ctx context.Context, opts Options, st *store.Store) ([]byte, error) {
	if store.IsPostgres(opts.DB) {
		return st.Secret(ctx, "twofactor_key", func() ([]byte, error) {
			key := make([]byte, twofactor.KeySize)
			_, err := rand.Read(key)
			return key, err
		})
	}
	path := opts.DB + ".twofactorkey"
	key, err := LoadGuestKey(path)
	if err != nil {
		return nil, err
	}
	if len(key) < twofactor.KeySize {
		return nil, fmt.Errorf("two-factor key %s: %d bytes, want %d", path, len(key), twofactor.KeySize)
	}
	return key[:twofactor.KeySize], nil
}
