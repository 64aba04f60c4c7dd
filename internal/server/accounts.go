package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/toguz/toguz/internal/auth"
)

// AuthAccounts adapts internal/auth to Accounts: auth checks names and
// passwords (argon2id), rate-limits logins and keeps the sessions; the token
// it sets as a cookie is also returned, for programs that send it as a
// Bearer header.
type AuthAccounts struct{ A *auth.Service }

var _ Accounts = AuthAccounts{}

// headerWriter is the http.ResponseWriter auth writes its cookie to.
type headerWriter struct{ h http.Header }

func (w headerWriter) Header() http.Header         { return w.h }
func (w headerWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w headerWriter) WriteHeader(int)             {}

func authError(err error) error {
	var re *auth.RuleError
	switch {
	case errors.As(err, &re) && re.Field == "name":
		return fmt.Errorf("%w: %v", ErrBadName, err)
	case errors.As(err, &re):
		return fmt.Errorf("%w: %v", ErrBadPassword, err)
	case errors.Is(err, auth.ErrNameTaken):
		return fmt.Errorf("%w: %v", ErrNameTaken, err)
	case errors.Is(err, auth.ErrBadCredentials):
		return fmt.Errorf("%w", ErrBadCredentials)
	case errors.Is(err, auth.ErrRateLimited):
		return fmt.Errorf("%w", ErrRateLimited)
	}
	return err
}

// session starts a session for user id and returns its token.
func (a AuthAccounts) session(ctx context.Context, id int64) (string, error) {
	w := headerWriter{http.Header{}}
	if err := a.A.StartSession(ctx, w, &http.Request{}, id); err != nil {
		return "", err
	}
	for _, line := range w.h.Values("Set-Cookie") {
		if c, err := http.ParseSetCookie(line); err == nil && c.Name == auth.SessionCookie {
			return c.Value, nil
		}
	}
	return "", errors.New("auth set no session cookie")
}

func sessionRequest(token string) *http.Request {
	r := &http.Request{Header: http.Header{}}
	r.AddCookie(&http.Cookie{Name: auth.SessionCookie, Value: token})
	return r
}

// SignUp creates the account and its first session.
func (a AuthAccounts) SignUp(ctx context.Context, name, password, ip string) (Account, string, error) {
	u, err := a.A.SignUp(ctx, name, password, ip)
	if err != nil {
		return Account{}, "", authError(err)
	}
	t, err := a.session(ctx, u.ID)
	return Account{ID: u.ID, Name: u.Name}, t, err
}

// LogIn checks the password and starts a session.
func (a AuthAccounts) LogIn(ctx context.Context, name, password, ip string) (Account, string, error) {
	u, err := a.A.Login(ctx, name, password, ip)
	if err != nil {
		return Account{}, "", authError(err)
	}
	t, err := a.session(ctx, u.ID)
	return Account{ID: u.ID, Name: u.Name}, t, err
}

// LogOut ends the session.
func (a AuthAccounts) LogOut(ctx context.Context, token string) error {
	return a.A.EndSession(ctx, headerWriter{http.Header{}}, sessionRequest(token))
}

// Session returns the account of a live session.
func (a AuthAccounts) Session(ctx context.Context, token string) (Account, error) {
	id, err := a.A.Identify(ctx, sessionRequest(token))
	if err != nil {
		return Account{}, err
	}
	if !id.IsUser() {
		return Account{}, ErrNoSession
	}
	return Account{ID: id.UserID, Name: id.Name}, nil
}
