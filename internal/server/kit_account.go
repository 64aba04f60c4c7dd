package server

import (
	"context"
	"log/slog"
	"net/http"
	"strings"

	"github.com/toguz/toguz/internal/account"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// newAccount builds the accounts' feature (internal/account) when the
// Config has its store; nil otherwise (a server without one, in tests).
func newAccount(ctx context.Context, s *Server) (*account.Service, error) {
	if s.cfg.AccountStore == nil {
		return nil, nil
	}
	return account.New(ctx, account.Config{Kit: s, Store: s.cfg.AccountStore, Passwords: s.cfg.Passwords,
		Mail: s.cfg.Mail, SiteURL: s.cfg.SiteURL})
}

// RunAccounts works the accounts' reset requests and sweeps their links
// until ctx is done (nothing without the feature).
func (s *Server) RunAccounts(ctx context.Context) {
	if s.account != nil {
		s.account.Run(ctx)
	}
}

// signupEmail checks the optional address of a sign-up before the account
// is made ("" is none).
func signupEmail(address string) (string, error) {
	if address == "" {
		return "", nil
	}
	a, err := account.ValidateEmail(address)
	if err != nil {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "acct.err.email")
	}
	return a, nil
}

// signedUp and startedSession tell the accounts' feature of a new session.
func (s *Server) signedUp(r *http.Request, a site.Account, token, email string) {
	if s.account != nil {
		s.account.SignedUp(r, a.ID, token, email)
	}
}

func (s *Server) startedSession(r *http.Request, a site.Account, token string) {
	if s.account != nil {
		s.account.LoggedIn(r, a.ID, token)
	}
}

// hsts tells browsers to come back only over HTTPS, when the site is
// served over it: the request came by TLS, or -secure-cookies says a proxy
// in front serves HTTPS. A year, the subdomains not included (the
// operator's other sites are not ours to pin).
func (s *Server) hsts(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS != nil || s.cfg.SecureCookies {
			w.Header().Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

// openMail returns the mail queue of opts: with an SMTP server, or off
// (logged at start with what that means).
func openMail(opts Options, st *store.Store, log *slog.Logger) (*mail.Queue, error) {
	cfg := opts.SMTP
	if opts.SMTPPasswordFile != "" {
		pw, err := mail.ReadPasswordFile(opts.SMTPPasswordFile)
		if err != nil {
			return nil, err
		}
		cfg.Password = pw
	}
	var sender mail.Sender
	if cfg.Enabled() {
		s, err := mail.NewSMTP(cfg)
		if err != nil {
			return nil, err
		}
		sender = s
		log.Info("mail on", "smtp", cfg.String(), "links", siteURL(opts))
	} else {
		log.Warn("mail off: no -smtp-host, so no address is verified, no reset link or new-device notice is mailed; " +
			"make a reset link with: toguz account reset-link -db DB NAME")
	}
	return mail.NewQueue(mail.QueueConfig{Store: st, Sender: sender, Logger: log}), nil
}

// siteURL is the site's public URL: -site-url, else http:// and -addr.
func siteURL(opts Options) string {
	if opts.SiteURL != "" {
		return strings.TrimRight(opts.SiteURL, "/")
	}
	return "http://" + opts.Command.Addr
}
