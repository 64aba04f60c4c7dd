package account

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Routes registers the pages on r.
func (s *Service) Routes(r site.Router) {
	r.Page("GET /password/reset", s.pageResetForm)
	r.Page("POST /password/reset", s.pageResetRequest)
	r.Page("GET /password/reset/{token}", s.pageResetToken)
	r.Page("POST /password/reset/{token}", s.pageResetSet)
	r.Page("GET /account/email", s.pageEmail)
	r.Page("POST /account/email", s.pageEmailChange)
	r.Page("POST /account/email/verify", s.pageEmailResend)
	r.Page("POST /account/email/remove", s.pageEmailRemove)
	r.Page("GET /account/email/confirm/{token}", s.pageConfirmForm)
	r.Page("POST /account/email/confirm/{token}", s.pageConfirm)
	r.Page("GET /account/passwd", s.pagePasswd)
	r.Page("POST /account/passwd", s.pagePasswdChange)
	r.Page("GET /account/security", s.pageSecurity)
	r.Page("POST /account/security/revoke", s.pageRevoke)
	r.Page("POST /account/security/revoke-all", s.pageRevokeAll)
	r.API("GET /api/account/sessions", s.apiSessions)
	r.API("DELETE /api/account/sessions/{id}", s.apiRevoke)
}

// data is what the account template shows: View names the part.
type data struct {
	View   string // reset, reset_sent, reset_new, reset_done, email, confirm, confirmed, passwd, passwd_done, security, link_bad
	Error  string
	Notice string // a key of a sentence saying what was done
	MailOn bool
	Token  string
	Login  string // the name or address typed

	Email    string
	Verified bool
	Pending  string // the address a change waits to move to
	Purpose  string // of a confirmation link

	Sessions []sessionView
}

type sessionView struct {
	ID       string // the first 16 hex digits of the token's hash
	Device   string
	Addr     string
	LastSeen string // 2006-01-02 15:04, UTC
	Created  string
	Current  bool
}

// SeenDate and SeenTime are LastSeen's date and time, as the page shows them.
func (v sessionView) SeenDate() string { d, _, _ := strings.Cut(v.LastSeen, " "); return d }
func (v sessionView) SeenTime() string { _, t, _ := strings.Cut(v.LastSeen, " "); return t }

func (s *Service) render(w http.ResponseWriter, r *http.Request, status int, title string, d data) error {
	d.MailOn = s.MailOn()
	return s.kit.Render(w, status, "account", s.kit.Page(r, title, d))
}

// formError renders d's view again with err's message.
func (s *Service) formError(w http.ResponseWriter, r *http.Request, title string, d data, err error) error {
	e := s.kit.AsError(r, err)
	if e.Code == apierr.CodeInternal {
		return err
	}
	d.Error = s.kit.Message(r, e)
	return s.render(w, r, e.Status, title, d)
}

// account returns the logged-in account of r, or 401.
func (s *Service) account(r *http.Request) (site.Identity, store.User, error) {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return id, store.User{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	u, err := s.st.UserByID(r.Context(), id.Account.ID)
	return id, u, err
}

var (
	errRateLimited = apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "account.rate_limited")
	errEmail       = apierr.BadRequest(apierr.CodeBadRequest, "acct.err.email")
	errLink        = apierr.New(http.StatusNotFound, apierr.CodeNotFound, "acct.err.link")
	errNoMail      = apierr.New(http.StatusServiceUnavailable, apierr.CodeInternal, "acct.err.mail_off")
	errTooMany     = apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "acct.err.too_many")
)

// passwordError turns auth's errors into the client's.
func passwordError(err error) error {
	var re *auth.RuleError
	switch {
	case errors.As(err, &re):
		key := map[auth.Rule]string{auth.RulePasswordShort: "account.password.short", auth.RulePasswordLong: "account.password.long",
			auth.RulePasswordIsName: "account.password.name"}[re.Kind]
		if key == "" {
			key = "account.bad_password"
		}
		return apierr.BadRequest(apierr.CodeBadPassword, key, re.Args...)
	case errors.Is(err, auth.ErrBadCredentials):
		return apierr.New(http.StatusUnauthorized, apierr.CodeBadCredentials, "acct.err.password")
	case errors.Is(err, auth.ErrRateLimited):
		return errRateLimited
	case errors.Is(err, auth.ErrBusy):
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "account.busy")
	}
	return err
}

// allow applies the bound per client address of the requests that mail.
func (s *Service) allow(r *http.Request) bool { return s.ips.Allow(auth.AddrKey(auth.ClientIP(r))) }

// ---- the reset ----

func (s *Service) pageResetForm(w http.ResponseWriter, r *http.Request) error {
	return s.render(w, r, http.StatusOK, "acct.reset.title", data{View: "reset"})
}

// pageResetRequest answers the same page at once for any name or address;
// the worker finds the account and mails the link after (Run).
func (s *Service) pageResetRequest(w http.ResponseWriter, r *http.Request) error {
	login := strings.TrimSpace(r.FormValue("login"))
	d := data{View: "reset", Login: login}
	if login == "" || len(login) > MaxEmailLen {
		return s.formError(w, r, "acct.reset.title", d, apierr.BadRequest(apierr.CodeBadRequest, "acct.err.login"))
	}
	if !s.allow(r) {
		return s.formError(w, r, "acct.reset.title", d, errRateLimited)
	}
	if s.MailOn() {
		select {
		case s.reset <- resetRequest{query: login, lang: s.kit.Lang(r)}:
		default:
			s.log.Warn("reset requests backlog full: a request dropped")
		}
	}
	return s.render(w, r, http.StatusOK, "acct.reset.title", data{View: "reset_sent"})
}

// doReset mails a reset link to the verified address of the account
// named, or of each account (up to maxPerAddress) of the address.
func (s *Service) doReset(ctx context.Context, req resetRequest) {
	ctx, cancel := context.WithTimeout(ctx, site.StoreTimeout)
	defer cancel()
	var targets []store.User
	if strings.Contains(req.query, "@") {
		us, err := s.st.AccountsByEmail(ctx, req.query, maxPerAddress)
		if err != nil {
			s.log.Warn("reset by address", "err", err)
			return
		}
		targets = us
	} else if u, err := s.st.UserByName(ctx, req.query); err == nil {
		targets = []store.User{u}
	}
	for _, u := range targets {
		e, err := s.st.EmailOf(ctx, u.ID)
		if err != nil || e.Verified.IsZero() {
			continue
		}
		link, err := s.makeLink(ctx, u, PurposeReset, e.Address, ResetTTL)
		if err != nil {
			if !errors.Is(err, errLimited) {
				s.log.Warn("reset link", "user", u.ID, "err", err)
			}
			continue
		}
		s.send(ctx, userLang(u, req.lang), e.Address, "reset", u.Name, link, int(ResetTTL/time.Minute))
	}
}

// liveLink returns the stored link of token for purpose, or errLink.
func (s *Service) liveLink(ctx context.Context, token, purpose string) (store.AccountLink, error) {
	if !s.signed(token, purpose) {
		return store.AccountLink{}, errLink
	}
	l, err := s.st.AccountLinkByHash(ctx, linkHash(token), purpose, s.cfg.Now())
	if errors.Is(err, store.ErrNotFound) {
		return l, errLink
	}
	return l, err
}

func (s *Service) pageResetToken(w http.ResponseWriter, r *http.Request) error {
	tok := r.PathValue("token")
	if _, err := s.liveLink(r.Context(), tok, PurposeReset); err != nil {
		return s.linkBad(w, r, err)
	}
	return s.render(w, r, http.StatusOK, "acct.reset.title", data{View: "reset_new", Token: tok})
}

// linkBad answers a link that is not (or no longer) one.
func (s *Service) linkBad(w http.ResponseWriter, r *http.Request, err error) error {
	if !errors.Is(err, errLink) {
		return err
	}
	return s.formError(w, r, "acct.link.title", data{View: "link_bad"}, err)
}

func (s *Service) pageResetSet(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	tok := r.PathValue("token")
	l, err := s.liveLink(ctx, tok, PurposeReset)
	if err != nil {
		return s.linkBad(w, r, err)
	}
	u, err := s.st.UserByID(ctx, l.UserID)
	if err != nil {
		return err
	}
	pw := r.FormValue("password")
	d := data{View: "reset_new", Token: tok}
	if err := auth.ValidatePassword(pw, u.Name); err != nil {
		return s.formError(w, r, "acct.reset.title", d, passwordError(err))
	}
	// The link is used before the password is set: of two requests with
	// one link, one sets it.
	if _, err := s.st.TakeAccountLink(ctx, linkHash(tok), PurposeReset, s.cfg.Now()); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return s.linkBad(w, r, errLink)
		}
		return err
	}
	if err := s.cfg.Passwords.SetPassword(ctx, u.ID, u.Name, pw); err != nil {
		return s.formError(w, r, "acct.reset.title", d, passwordError(err))
	}
	if _, err := s.st.DeleteOtherSessions(ctx, u.ID, ""); err != nil {
		return err
	}
	if err := s.st.DeleteAccountLinks(ctx, u.ID, PurposeReset); err != nil {
		return err
	}
	// A reset link from the operator has no address: the mailed one does.
	if e, err := s.st.EmailOf(ctx, u.ID); err == nil && !e.Verified.IsZero() {
		s.send(ctx, userLang(u, s.kit.Lang(r)), e.Address, "password_changed", u.Name, s.cfg.SiteURL+"/password/reset")
	}
	s.log.Info("password reset", "user", u.ID)
	return s.render(w, r, http.StatusOK, "acct.reset.title", data{View: "reset_done"})
}

// ---- the address ----

// emailPage returns r's account and its e-mail page's data.
func (s *Service) emailPage(r *http.Request) (store.User, data, error) {
	_, u, err := s.account(r)
	if err != nil {
		return u, data{}, err
	}
	d, err := s.emailData(r.Context(), u.ID)
	return u, d, err
}

// emailError answers the e-mail page d again with err's message.
func (s *Service) emailError(w http.ResponseWriter, r *http.Request, d data, err error) error {
	return s.formError(w, r, "acct.email.title", d, err)
}

func (s *Service) emailData(ctx context.Context, id int64) (data, error) {
	d := data{View: "email"}
	e, err := s.st.EmailOf(ctx, id)
	switch {
	case err == nil:
		d.Email, d.Verified = e.Address, !e.Verified.IsZero()
	case !errors.Is(err, store.ErrNotFound):
		return d, err
	}
	if c, err := s.st.EmailChangeOf(ctx, id, s.cfg.Now()); err == nil {
		d.Pending = c.NewEmail
	}
	return d, nil
}

func (s *Service) pageEmail(w http.ResponseWriter, r *http.Request) error {
	_, d, err := s.emailPage(r)
	if err != nil {
		return err
	}
	d.Notice = noticeKeys[r.URL.Query().Get("done")]
	return s.render(w, r, http.StatusOK, "acct.email.title", d)
}

// noticeKeys are the sentences a redirect after a POST may show (?done=).
var noticeKeys = map[string]string{
	"verify": "acct.email.verify_sent", "change": "acct.email.change_sent", "set": "acct.email.set", "removed": "acct.email.removed",
	"revoked": "acct.security.revoked", "revoked_all": "acct.security.revoked_all",
}

// pageEmailChange sets or changes the address: the password is asked;
// without a verified address the new one is set, unverified, and a link
// mailed to it; with one, the change waits for both addresses' links.
func (s *Service) pageEmailChange(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, d, err := s.emailPage(r)
	if err != nil {
		return err
	}
	if !s.MailOn() {
		return s.emailError(w, r, d, errNoMail)
	}
	address, err := ValidateEmail(r.FormValue("email"))
	if err != nil {
		return s.emailError(w, r, d, errEmail)
	}
	if !s.allow(r) {
		return s.emailError(w, r, d, errRateLimited)
	}
	if _, err := s.cfg.Passwords.Login(ctx, u.Name, r.FormValue("password"), auth.ClientIP(r)); err != nil {
		return s.emailError(w, r, d, passwordError(err))
	}
	now := s.cfg.Now()
	lang := userLang(u, s.kit.Lang(r))
	if !d.Verified {
		if err := s.st.SetEmail(ctx, u.ID, address, time.Time{}); err != nil {
			return err
		}
		s.st.DeleteEmailChange(ctx, u.ID)
		if err := s.sendVerify(ctx, u, address, lang); err != nil {
			return s.emailError(w, r, d, linkError(err))
		}
		return site.Redirect(w, r, "/account/email?done=verify")
	}
	if strings.EqualFold(address, d.Email) {
		return site.Redirect(w, r, "/account/email")
	}
	if err := s.st.PutEmailChange(ctx, store.EmailChange{UserID: u.ID, NewEmail: address, Expires: now.Add(VerifyTTL)}); err != nil {
		return err
	}
	s.st.DeleteAccountLinks(ctx, u.ID, PurposeEmailOld, PurposeEmailNew)
	newLink, err := s.makeLink(ctx, u, PurposeEmailNew, address, VerifyTTL)
	if err != nil {
		return s.emailError(w, r, d, linkError(err))
	}
	oldLink, err := s.makeLink(ctx, u, PurposeEmailOld, d.Email, VerifyTTL)
	if err != nil {
		return s.emailError(w, r, d, linkError(err))
	}
	s.send(ctx, lang, address, "email_new", u.Name, address, newLink)
	s.send(ctx, lang, d.Email, "email_old", u.Name, address, oldLink)
	return site.Redirect(w, r, "/account/email?done=change")
}

func linkError(err error) error {
	if errors.Is(err, errLimited) {
		return errTooMany
	}
	return err
}

// pageEmailResend mails the verification link again.
func (s *Service) pageEmailResend(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, d, err := s.emailPage(r)
	if err != nil {
		return err
	}
	switch {
	case !s.MailOn():
		return s.emailError(w, r, d, errNoMail)
	case d.Email == "" || d.Verified:
		return site.Redirect(w, r, "/account/email")
	case !s.allow(r):
		return s.emailError(w, r, d, errRateLimited)
	}
	if err := s.sendVerify(ctx, u, d.Email, s.kit.Lang(r)); err != nil {
		return s.emailError(w, r, d, linkError(err))
	}
	return site.Redirect(w, r, "/account/email?done=verify")
}

// pageEmailRemove removes the account's address (the password is asked),
// with its pending change and links: no mail goes to it any more, and no
// reset is possible but the operator's.
func (s *Service) pageEmailRemove(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	u, d, err := s.emailPage(r)
	if err != nil {
		return err
	}
	if _, err := s.cfg.Passwords.Login(ctx, u.Name, r.FormValue("password"), auth.ClientIP(r)); err != nil {
		return s.emailError(w, r, d, passwordError(err))
	}
	if err := s.st.SetEmail(ctx, u.ID, "", time.Time{}); err != nil {
		return err
	}
	if err := s.st.DeleteEmailChange(ctx, u.ID); err != nil {
		return err
	}
	if err := s.st.DeleteAccountLinks(ctx, u.ID, PurposeVerify, PurposeEmailOld, PurposeEmailNew); err != nil {
		return err
	}
	return site.Redirect(w, r, "/account/email?done=removed")
}

// confirmPurposes are the links /account/email/confirm/{token} takes.
var confirmPurposes = []string{PurposeVerify, PurposeEmailNew, PurposeEmailOld}

// confirmLink returns the live link of token among confirmPurposes.
func (s *Service) confirmLink(ctx context.Context, token string) (store.AccountLink, error) {
	for _, p := range confirmPurposes {
		if s.signed(token, p) {
			return s.liveLink(ctx, token, p)
		}
	}
	return store.AccountLink{}, errLink
}

// pageConfirmForm shows the link's button: opening a link changes nothing
// (mail scanners open links), the button's POST does.
func (s *Service) pageConfirmForm(w http.ResponseWriter, r *http.Request) error {
	tok := r.PathValue("token")
	l, err := s.confirmLink(r.Context(), tok)
	if err != nil {
		return s.linkBad(w, r, err)
	}
	d := data{View: "confirm", Token: tok, Purpose: l.Purpose, Email: l.Email}
	if l.Purpose == PurposeEmailOld {
		if c, err := s.st.EmailChangeOf(r.Context(), l.UserID, s.cfg.Now()); err == nil {
			d.Pending = c.NewEmail
		}
	}
	return s.render(w, r, http.StatusOK, "acct.confirm.title", d)
}

func (s *Service) pageConfirm(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	tok := r.PathValue("token")
	l, err := s.confirmLink(ctx, tok)
	if err != nil {
		return s.linkBad(w, r, err)
	}
	now := s.cfg.Now()
	if _, err := s.st.TakeAccountLink(ctx, l.TokenHash, l.Purpose, now); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return s.linkBad(w, r, errLink)
		}
		return err
	}
	d := data{View: "confirmed", Purpose: l.Purpose}
	switch l.Purpose {
	case PurposeVerify:
		if err := s.st.VerifyEmail(ctx, l.UserID, l.Email, now); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return s.linkBad(w, r, errLink) // the address changed since
			}
			return err
		}
		d.Notice = "acct.confirm.verified"
	default:
		c, err := s.st.EmailChangeOf(ctx, l.UserID, now)
		if err != nil {
			return s.linkBad(w, r, errLink)
		}
		done, err := s.st.ConfirmEmailChange(ctx, l.UserID, c.NewEmail, l.Purpose == PurposeEmailOld, now)
		if errors.Is(err, store.ErrNotFound) {
			return s.linkBad(w, r, errLink)
		}
		if err != nil {
			return err
		}
		d.Notice = "acct.confirm.half"
		if done {
			d.Notice = "acct.confirm.changed"
			s.log.Info("e-mail changed", "user", l.UserID)
		}
	}
	return s.render(w, r, http.StatusOK, "acct.confirm.title", d)
}

// ---- the password ----

func (s *Service) pagePasswd(w http.ResponseWriter, r *http.Request) error {
	if _, _, err := s.account(r); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "acct.passwd.title", data{View: "passwd"})
}

// pagePasswdChange changes the password and ends every other session.
func (s *Service) pagePasswdChange(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, u, err := s.account(r)
	if err != nil {
		return err
	}
	d := data{View: "passwd"}
	if _, err := s.cfg.Passwords.Login(ctx, u.Name, r.FormValue("current"), auth.ClientIP(r)); err != nil {
		return s.formError(w, r, "acct.passwd.title", d, passwordError(err))
	}
	if err := s.cfg.Passwords.SetPassword(ctx, u.ID, u.Name, r.FormValue("password")); err != nil {
		return s.formError(w, r, "acct.passwd.title", d, passwordError(err))
	}
	if _, err := s.st.DeleteOtherSessions(ctx, u.ID, auth.TokenHash(id.Token)); err != nil {
		return err
	}
	s.st.DeleteAccountLinks(ctx, u.ID, PurposeReset)
	if e, err := s.st.EmailOf(ctx, u.ID); err == nil && !e.Verified.IsZero() {
		s.send(ctx, userLang(u, s.kit.Lang(r)), e.Address, "password_changed", u.Name, s.cfg.SiteURL+"/password/reset")
	}
	s.log.Info("password changed", "user", u.ID)
	return s.render(w, r, http.StatusOK, "acct.passwd.title", data{View: "passwd_done"})
}

// ---- sessions ----

func (s *Service) sessions(ctx context.Context, id site.Identity) ([]sessionView, error) {
	list, err := s.st.UserSessions(ctx, id.Account.ID, s.cfg.Now())
	if err != nil {
		return nil, err
	}
	mine := auth.TokenHash(id.Token)
	out := make([]sessionView, 0, len(list))
	for _, si := range list {
		out = append(out, sessionView{ID: si.TokenHash[:16], Device: si.Device, Addr: si.Addr, Current: si.TokenHash == mine,
			LastSeen: si.LastSeen.UTC().Format("2006-01-02 15:04"), Created: si.Created.UTC().Format("2006-01-02 15:04")})
	}
	return out, nil
}

func (s *Service) pageSecurity(w http.ResponseWriter, r *http.Request) error {
	id, _, err := s.account(r)
	if err != nil {
		return err
	}
	list, err := s.sessions(r.Context(), id)
	if err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "acct.security.title", data{View: "security", Sessions: list,
		Notice: noticeKeys[r.URL.Query().Get("done")]})
}

// revoke ends the session sid (the ID the page shows) of r's account;
// another user's is not found.
func (s *Service) revoke(r *http.Request, sid string) (site.Identity, error) {
	id, _, err := s.account(r)
	if err != nil {
		return id, err
	}
	if len(sid) != 16 || strings.Trim(sid, "0123456789abcdef") != "" {
		return id, apierr.BadRequest(apierr.CodeBadRequest, "acct.err.session")
	}
	if err := s.st.DeleteUserSession(r.Context(), id.Account.ID, sid); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return id, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "acct.err.session")
		}
		return id, err
	}
	return id, nil
}

// apiRevoke is DELETE /api/account/sessions/{id}: 204.
func (s *Service) apiRevoke(w http.ResponseWriter, r *http.Request) error {
	if _, err := s.revoke(r, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// pageRevoke ends one of one's sessions (the form's "session").
func (s *Service) pageRevoke(w http.ResponseWriter, r *http.Request) error {
	sid := r.FormValue("session")
	id, err := s.revoke(r, sid)
	if err != nil {
		return err
	}
	if strings.HasPrefix(auth.TokenHash(id.Token), sid) {
		return site.Redirect(w, r, "/login")
	}
	return site.Redirect(w, r, "/account/security?done=revoked")
}

// pageRevokeAll ends every session but this one.
func (s *Service) pageRevokeAll(w http.ResponseWriter, r *http.Request) error {
	id, _, err := s.account(r)
	if err != nil {
		return err
	}
	if _, err := s.st.DeleteOtherSessions(r.Context(), id.Account.ID, auth.TokenHash(id.Token)); err != nil {
		return err
	}
	return site.Redirect(w, r, "/account/security?done=revoked_all")
}

type sessionJSON struct {
	ID       string `json:"id"`
	Device   string `json:"device"`
	Addr     string `json:"address"`
	LastSeen string `json:"last_seen"`
	Created  string `json:"created"`
	Current  bool   `json:"current"`
}

// apiSessions lists one's sessions as JSON.
func (s *Service) apiSessions(w http.ResponseWriter, r *http.Request) error {
	id, _, err := s.account(r)
	if err != nil {
		return err
	}
	list, err := s.sessions(r.Context(), id)
	if err != nil {
		return err
	}
	out := make([]sessionJSON, len(list))
	for i, v := range list {
		out[i] = sessionJSON(v)
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

// ErrorKeys are the catalog keys of the package's errors, for the test that
// every error's message exists (internal/server).
func ErrorKeys() []string {
	return []string{"acct.err.email", "acct.err.link", "acct.err.mail_off", "acct.err.too_many", "acct.err.password",
		"acct.err.login", "acct.err.session", "account.password.short", "account.password.long", "account.password.name"}
}
