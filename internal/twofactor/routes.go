package twofactor

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"html/template"
	"image/png"
	"net/http"
	"strconv"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Routes registers the security pages, the login's second step and the
// passkeys' API on r.
func (s *Site) Routes(r site.Router) {
	r.Page("GET /account/twofactor", s.pageTOTP)
	r.Page("POST /account/twofactor/setup", s.pageSetup)
	r.Page("POST /account/twofactor/confirm", s.pageConfirm)
	r.Page("POST /account/twofactor/disable", s.pageDisable)
	r.Page("POST /account/twofactor/recovery", s.pageRecovery)
	r.Page("GET /account/passkeys", s.pagePasskeys)
	r.Page("POST /account/passkeys/{id}/delete", s.pageDeletePasskey)
	r.Page("POST /login/twofactor", s.pageSecondStep)

	r.API("GET /api/account/twofactor", s.apiStatus)
	r.API("POST /api/account/passkeys", s.apiBeginRegister)
	r.API("POST /api/account/passkeys/finish", s.apiFinishRegister)
	r.API("DELETE /api/account/passkeys/{id}", s.apiDeletePasskey)
	r.API("POST /api/login/twofactor", s.apiSecondStep)
	r.API("POST /api/login/twofactor/passkey", s.apiBeginAssert)
	r.API("POST /api/login/twofactor/passkey/finish", s.apiFinishAssert)
	r.API("POST /api/login/passkey", s.apiBeginDiscover)
	r.API("POST /api/login/passkey/finish", s.apiFinishDiscover)
}

func timeout(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

// accountOf returns the account logged in on r, or a 401 (a guest has
// no second factor).
func (s *Site) accountOf(r *http.Request) (site.Account, error) {
	id, err := s.cfg.Kit.MustIdentity(r)
	if err != nil {
		return site.Account{}, err
	}
	if id.Account.ID == 0 {
		return site.Account{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.unauthenticated")
	}
	return id.Account, nil
}

// ---- the TOTP page ----

// totpPage is the data of /account/twofactor.
type totpPage struct {
	Status Status
	// Enrolment is the secret waiting for its first code (nil: none),
	// QR its otpauth:// URL as a PNG data URL.
	Enrolment *Enrolment
	QR        template.URL
	// Codes are new recovery codes, shown once.
	Codes []string
	Error string
	// Done is the key of what was just done ("": nothing).
	Done string
}

func (s *Site) renderTOTP(w http.ResponseWriter, r *http.Request, a site.Account, d totpPage, fail error) error {
	ctx, cancel := timeout(r)
	defer cancel()
	st, err := s.StatusOf(ctx, a.ID)
	if err != nil {
		return err
	}
	d.Status = st
	status := http.StatusOK
	if fail != nil {
		e := s.cfg.Kit.AsError(r, fail)
		status, d.Error = e.Status, s.cfg.Kit.Message(r, e)
	}
	if !st.TOTP && d.Enrolment == nil {
		if e, ok, err := s.Pending(ctx, a); err != nil {
			return err
		} else if ok {
			d.Enrolment = &e
		}
	}
	if d.Enrolment != nil {
		if d.QR, err = s.qr(a.Name, d.Enrolment.Secret); err != nil {
			return err
		}
	}
	return s.cfg.Kit.Render(w, status, "twofactor", s.cfg.Kit.Page(r, "twofactor.title", d))
}

// qr returns the secret's otpauth:// URL as a QR code, a PNG data URL.
func (s *Site) qr(name, secret string) (template.URL, error) {
	key, err := s.keyOf(name, secret)
	if err != nil {
		return "", err
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return "", err
	}
	// The URL is ours (base64 of our PNG), safe in an img's src.
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())), nil
}

// page runs f for the account logged in, and sends anyone else to the
// login page.
func (s *Site) page(w http.ResponseWriter, r *http.Request, f func(site.Account) error) error {
	id := s.cfg.Kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	return f(id.Account)
}

func (s *Site) pageTOTP(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error { return s.renderTOTP(w, r, a, totpPage{}, nil) })
}

func (s *Site) pageSetup(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error {
		ctx, cancel := timeout(r)
		defer cancel()
		e, err := s.Setup(ctx, a, r.FormValue("password"), s.cfg.ClientIP(r))
		if err != nil {
			return s.renderTOTP(w, r, a, totpPage{}, err)
		}
		return s.renderTOTP(w, r, a, totpPage{Enrolment: &e}, nil)
	})
}

func (s *Site) pageConfirm(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error {
		ctx, cancel := timeout(r)
		defer cancel()
		codes, err := s.Confirm(ctx, a, r.FormValue("code"))
		if err != nil {
			return s.renderTOTP(w, r, a, totpPage{}, err)
		}
		return s.renderTOTP(w, r, a, totpPage{Codes: codes, Done: "twofactor.enabled"}, nil)
	})
}

func (s *Site) pageDisable(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error {
		ctx, cancel := timeout(r)
		defer cancel()
		if err := s.Disable(ctx, a, r.FormValue("code"), r.FormValue("password"), s.cfg.ClientIP(r)); err != nil {
			return s.renderTOTP(w, r, a, totpPage{}, err)
		}
		return s.renderTOTP(w, r, a, totpPage{Done: "twofactor.disabled"}, nil)
	})
}

func (s *Site) pageRecovery(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error {
		ctx, cancel := timeout(r)
		defer cancel()
		codes, err := s.RenewRecovery(ctx, a, r.FormValue("code"), r.FormValue("password"), s.cfg.ClientIP(r))
		if err != nil {
			return s.renderTOTP(w, r, a, totpPage{}, err)
		}
		return s.renderTOTP(w, r, a, totpPage{Codes: codes, Done: "twofactor.recovery.renewed"}, nil)
	})
}

// ---- the passkeys' page ----

// passkeyView is a passkey as the page and the API show it.
type passkeyView struct {
	ID      int64      `json:"id"`
	Name    string     `json:"name"`
	Created time.Time  `json:"created"`
	Used    *time.Time `json:"used,omitempty"`
}

func viewOf(p store.Passkey) passkeyView {
	v := passkeyView{ID: p.ID, Name: p.Name, Created: p.Created.UTC()}
	if !p.Used.IsZero() {
		u := p.Used.UTC()
		v.Used = &u
	}
	return v
}

func (s *Site) renderPasskeys(w http.ResponseWriter, r *http.Request, a site.Account, fail error) error {
	ctx, cancel := timeout(r)
	defer cancel()
	keys, err := s.cfg.Store.Passkeys(ctx, a.ID)
	if err != nil {
		return err
	}
	d := struct {
		Passkeys []passkeyView
		Max      int
		Error    string
	}{Max: MaxNameLen}
	for _, k := range keys {
		d.Passkeys = append(d.Passkeys, viewOf(k))
	}
	status := http.StatusOK
	if fail != nil {
		e := s.cfg.Kit.AsError(r, fail)
		status, d.Error = e.Status, s.cfg.Kit.Message(r, e)
	}
	return s.cfg.Kit.Render(w, status, "passkeys", s.cfg.Kit.Page(r, "passkeys.title", d))
}

func (s *Site) pagePasskeys(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error { return s.renderPasskeys(w, r, a, nil) })
}

func passkeyID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return 0, errNoPasskey
	}
	return id, nil
}

func (s *Site) pageDeletePasskey(w http.ResponseWriter, r *http.Request) error {
	return s.page(w, r, func(a site.Account) error {
		id, err := passkeyID(r)
		if err == nil {
			ctx, cancel := timeout(r)
			defer cancel()
			err = s.RemovePasskey(ctx, a, id)
		}
		if err != nil {
			return s.renderPasskeys(w, r, a, err)
		}
		return site.Redirect(w, r, "/account/passkeys")
	})
}

// ---- the login's second step ----

// stepPage is the data of the second step's page.
type stepPage struct {
	Ticket string
	// Codes shows the code's form: TOTP (a TOTP code or a recovery code)
	// or Recovery (recovery codes only, an account with passkeys).
	Codes, TOTP, Passkey bool
	Error                string
}

func stepOf(ticket string, st Status) stepPage {
	return stepPage{Ticket: ticket, Codes: st.TOTP || st.RecoveryLeft > 0, TOTP: st.TOTP, Passkey: len(st.Passkeys) > 0}
}

// SecondStep answers a password login that needs n's second step with
// its page.
func (s *Site) SecondStep(w http.ResponseWriter, r *http.Request, n *Needed) error {
	return s.cfg.Kit.Render(w, http.StatusOK, "twofactor_login", s.cfg.Kit.Page(r, "twofactor.login.title",
		stepPage{Ticket: n.Ticket, Codes: n.TOTP || n.Recovery, TOTP: n.TOTP, Passkey: n.Passkey}))
}

func (s *Site) pageSecondStep(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := timeout(r)
	defer cancel()
	ticket := r.FormValue("ticket")
	a, err := s.secondStep(ctx, ticket, r.FormValue("code"))
	if err != nil {
		e := s.cfg.Kit.AsError(r, err)
		if e == errTicket {
			return err // expired or used: the error page links to the login
		}
		p, perr := s.pending(ctx, ticket, kindLogin, false)
		if perr != nil {
			return err
		}
		st, serr := s.StatusOf(ctx, p.User)
		if serr != nil {
			return serr
		}
		d := stepOf(ticket, st)
		d.Error = s.cfg.Kit.Message(r, e)
		return s.cfg.Kit.Render(w, e.Status, "twofactor_login", s.cfg.Kit.Page(r, "twofactor.login.title", d))
	}
	if _, err := s.cfg.Login(w, r, a); err != nil {
		return err
	}
	return site.Redirect(w, r, "/")
}

// ---- the API ----

// loggedIn is the answer of a login that started a session.
type loggedIn struct {
	Name  string `json:"name"`
	Guest bool   `json:"guest"`
	Token string `json:"token"`
}

func (s *Site) logIn(w http.ResponseWriter, r *http.Request, a site.Account) error {
	t, err := s.cfg.Login(w, r, a)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, loggedIn{Name: a.Name, Token: t})
}

type statusJSON struct {
	TOTP         bool          `json:"totp"`
	RecoveryLeft int           `json:"recovery_codes_left"`
	Passkeys     []passkeyView `json:"passkeys"`
}

func (s *Site) apiStatus(w http.ResponseWriter, r *http.Request) error {
	a, err := s.accountOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	st, err := s.StatusOf(ctx, a.ID)
	if err != nil {
		return err
	}
	j := statusJSON{TOTP: st.TOTP, RecoveryLeft: st.RecoveryLeft, Passkeys: []passkeyView{}}
	for _, k := range st.Passkeys {
		j.Passkeys = append(j.Passkeys, viewOf(k))
	}
	return site.WriteJSON(w, http.StatusOK, j)
}

// readOptional reads a JSON body into v; an empty body is none.
func readOptional(w http.ResponseWriter, r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	return site.ReadJSON(w, r, v)
}

func (s *Site) apiBeginRegister(w http.ResponseWriter, r *http.Request) error {
	a, err := s.accountOf(r)
	if err != nil {
		return err
	}
	var b struct {
		Password string `json:"password"`
	}
	if err := site.ReadJSON(w, r, &b); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	c, err := s.BeginRegister(ctx, r, a, b.Password)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, c)
}

type finishBody struct {
	Ticket     string          `json:"ticket,omitempty"`
	Challenge  string          `json:"challenge"`
	Name       string          `json:"name,omitempty"`
	Credential json.RawMessage `json:"credential"`
}

func (s *Site) apiFinishRegister(w http.ResponseWriter, r *http.Request) error {
	a, err := s.accountOf(r)
	if err != nil {
		return err
	}
	var b finishBody
	if err := site.ReadJSON(w, r, &b); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	p, codes, err := s.FinishRegister(ctx, r, a, b.Challenge, b.Name, b.Credential)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, struct {
		passkeyView
		RecoveryCodes []string `json:"recovery_codes,omitempty"`
	}{viewOf(p), codes})
}

func (s *Site) apiDeletePasskey(w http.ResponseWriter, r *http.Request) error {
	a, err := s.accountOf(r)
	if err != nil {
		return err
	}
	id, err := passkeyID(r)
	if err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	if err := s.RemovePasskey(ctx, a, id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Site) apiSecondStep(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Ticket string `json:"ticket"`
		Code   string `json:"code"`
	}
	if err := site.ReadJSON(w, r, &b); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	a, err := s.secondStep(ctx, b.Ticket, b.Code)
	if err != nil {
		return err
	}
	return s.logIn(w, r, a)
}

func (s *Site) apiBeginAssert(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		Ticket string `json:"ticket"`
	}
	if err := site.ReadJSON(w, r, &b); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	c, err := s.BeginAssert(ctx, r, b.Ticket)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, c)
}

func (s *Site) apiFinishAssert(w http.ResponseWriter, r *http.Request) error {
	var b finishBody
	if err := site.ReadJSON(w, r, &b); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	a, err := s.FinishAssert(ctx, r, b.Ticket, b.Challenge, b.Credential)
	if err != nil {
		return err
	}
	return s.logIn(w, r, a)
}

func (s *Site) apiBeginDiscover(w http.ResponseWriter, r *http.Request) error {
	if err := readOptional(w, r, &struct{}{}); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	c, err := s.BeginDiscover(ctx, r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, c)
}

func (s *Site) apiFinishDiscover(w http.ResponseWriter, r *http.Request) error {
	var b finishBody
	if err := site.ReadJSON(w, r, &b); err != nil {
		return err
	}
	ctx, cancel := timeout(r)
	defer cancel()
	a, err := s.FinishDiscover(ctx, r, b.Challenge, b.Credential)
	if err != nil {
		return err
	}
	return s.logIn(w, r, a)
}

// IsNeeded returns the *Needed in err's chain.
func IsNeeded(err error) (*Needed, bool) {
	var n *Needed
	ok := errors.As(err, &n)
	return n, ok
}
