package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
)

// AuthAccounts adapts internal/auth to Accounts: auth checks names and
// passwords (argon2id), rate-limits logins and keeps the sessions, whose
// token the server carries in its own cookie or a Bearer header.
type AuthAccounts struct{ A *auth.Service }

var _ Accounts = AuthAccounts{}

func authError(err error) error {
	var re *auth.RuleError
	switch {
	case errors.As(err, &re) && re.Field == "name":
		return fmt.Errorf("%w: %w", ErrBadName, err)
	case errors.As(err, &re):
		return fmt.Errorf("%w: %w", ErrBadPassword, err)
	case errors.Is(err, auth.ErrNameTaken):
		return fmt.Errorf("%w: %v", ErrNameTaken, err)
	case errors.Is(err, auth.ErrBadCredentials):
		return fmt.Errorf("%w", ErrBadCredentials)
	case errors.Is(err, auth.ErrRateLimited):
		return fmt.Errorf("%w", ErrRateLimited)
	case errors.Is(err, auth.ErrBusy):
		return fmt.Errorf("%w", ErrBusy)
	}
	return err
}

// session starts a session for user id and returns its token.
func (a AuthAccounts) session(ctx context.Context, id int64) (string, error) {
	t, _, err := a.A.NewSession(ctx, id)
	return t, err
}

// SignUp creates the account and its first session.
func (a AuthAccounts) SignUp(ctx context.Context, name, password, ip string) (site.Account, string, error) {
	u, err := a.A.SignUp(ctx, name, password, ip)
	if err != nil {
		return site.Account{}, "", authError(err)
	}
	t, err := a.session(ctx, u.ID)
	return site.Account{ID: u.ID, Name: u.Name}, t, err
}

// CheckPassword checks the password (rate-limited, locked out after wrong
// ones) and starts no session.
func (a AuthAccounts) CheckPassword(ctx context.Context, name, password, ip string) (site.Account, error) {
	u, err := a.A.Login(ctx, name, password, ip)
	if err != nil {
		return site.Account{}, authError(err)
	}
	return site.Account{ID: u.ID, Name: u.Name, Lang: u.Lang}, nil
}

// StartSession starts a session of account id.
func (a AuthAccounts) StartSession(ctx context.Context, id int64) (string, error) {
	return a.session(ctx, id)
}

// LogOut ends the session.
func (a AuthAccounts) LogOut(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return a.A.DeleteSession(ctx, token)
}

// Session returns the account of a live session.
func (a AuthAccounts) Session(ctx context.Context, token string) (site.Account, error) {
	u, err := a.A.SessionUser(ctx, token)
	if errors.Is(err, auth.ErrNoSession) {
		return site.Account{}, ErrNoSession
	}
	if err != nil {
		return site.Account{}, err
	}
	return site.Account{ID: u.ID, Name: u.Name, Lang: u.Lang}, nil
}
