// Package oauth is OAuth 2's authorization code flow with PKCE (RFC 6749,
// RFC 7636) for third-party apps, as lichess offers it and at its paths:
// the consent page GET /oauth (approve or deny, POST /oauth), the token
// endpoint POST /api/token (a form: code and code_verifier for an access
// token; internal/botapi hands such requests here), and the apps' section
// of /settings, where each token granted to an app is listed with its
// scopes and revoked. DELETE /api/token (a token revoking itself) is the
// bot API's and serves apps' tokens as well.
//
// Like lichess, the server keeps no register of apps: any client_id is
// taken and shown to the user as the app's name, with the redirect_uri
// the code will be sent to and the scopes in words, and the app proves
// it is the one that asked by its PKCE verifier (S256 only; "plain" is
// refused). There is no client secret.
//
// Threat model: a page of another site must not get a code or a token
// without the user's click (the consent form is same-origin only: the
// server's cross-origin protection and frame-ancestors 'none' stop
// forged posts and clickjacking); a code sent to the redirect_uri and
// intercepted there is useless without the verifier; a code is redeemed
// once (a second redemption revokes the token it made), within CodeTTL,
// by the same client_id and the exact redirect_uri it was issued for; a
// redirect_uri is never followed before it is checked (https, or http to
// the machine itself for native apps), and errors about the client_id or
// the redirect_uri are shown on the page, never sent to the redirect. The
// tokens are the bot API's (a row of the store's tokens, stored hashed),
// so every scope check of the bot and board API applies; they expire after
// TokenTTL and never act as a session of the site.
package oauth

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the apps' flow keeps: *store.Store.
type Store interface {
	AddOAuthCode(ctx context.Context, hash string, c store.OAuthCode) error
	RedeemOAuthCode(ctx context.Context, hash string, check func(store.OAuthCode) error, tok store.AppToken) (store.OAuthCode, int64, error)
	AppTokens(ctx context.Context, userID int64) ([]store.Token, error)
	RevokeToken(ctx context.Context, userID, id int64) error
}

// Config is what the apps' flow is made of.
type Config struct {
	// Store keeps the codes and tokens (nil: /oauth says apps are off).
	Store Store
	// CodeTTL is how long a code waits to be redeemed (default 2 minutes),
	// TokenTTL how long an app's token works (default a year, as lichess's).
	CodeTTL, TokenTTL time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Site is the apps' flow on the site.
type Site struct {
	kit site.Kit
	st  Store
	cfg Config
}

// New returns the apps' flow of kit.
func New(kit site.Kit, cfg Config) *Site {
	cfg.CodeTTL = cmp.Or(cfg.CodeTTL, 2*time.Minute)
	cfg.TokenTTL = cmp.Or(cfg.TokenTTL, 365*24*time.Hour)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Site{kit: kit, st: cfg.Store, cfg: cfg}
}

// Routes registers the consent page and the apps' part of /settings. The
// token endpoint is TokenEndpoint, which the bot API's POST /api/token
// calls for a form.
func (s *Site) Routes(rt site.Router) {
	rt.Page("GET /oauth", s.pageAuthorize)
	rt.Page("POST /oauth", s.pageDecide)
	rt.Page("POST /settings/apps/{id}/revoke", s.pageRevoke)
}

// Scopes an app may ask for: the bot API's, as lichess names them.
var Scopes = botapi.Scopes

// The bounds of what an app sends.
const (
	maxClientID = 100
	maxRedirect = 500
	maxState    = 1000
)

// request is an authorization request, as GET /oauth gets it and the
// consent form posts it back.
type request struct {
	ResponseType, ClientID, RedirectURI, Challenge, Method, State string
	Scopes                                                        []string
}

func readRequest(v url.Values) request {
	return request{ResponseType: v.Get("response_type"), ClientID: strings.TrimSpace(v.Get("client_id")), RedirectURI: v.Get("redirect_uri"),
		Challenge: v.Get("code_challenge"), Method: v.Get("code_challenge_method"), State: v.Get("state"),
		Scopes: strings.Fields(v.Get("scope"))}
}

// pageError is an error shown on the page rather than sent to the app:
// the client_id or the redirect_uri is not to be trusted.
func pageError(key string, args ...any) error {
	return apierr.BadRequest(apierr.CodeBadRequest, key, args...)
}

// redirectError is an error of RFC 6749, 4.1.2.1, sent to the app's
// redirect_uri with the state.
type redirectError struct{ code, description string }

func (e *redirectError) Error() string { return e.code + ": " + e.description }

// check validates q: a page error (apierr) when the client_id or the
// redirect_uri is bad, else a *redirectError for what the app asked
// wrong, else nil.
func (q request) check() error {
	if q.ClientID == "" || len(q.ClientID) > maxClientID || strings.ContainsFunc(q.ClientID, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return pageError("oauth.err.client_id", maxClientID)
	}
	if err := checkRedirect(q.RedirectURI); err != nil {
		return err
	}
	switch {
	case q.ResponseType != "code":
		return &redirectError{"unsupported_response_type", "response_type must be code"}
	case q.Method != "S256":
		return &redirectError{"invalid_request", "code_challenge_method must be S256"}
	case !validPKCE(q.Challenge):
		return &redirectError{"invalid_request", "code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]"}
	case len(q.State) > maxState:
		return &redirectError{"invalid_request", "state is too long"}
	}
	for _, sc := range q.Scopes {
		if !slices.Contains(Scopes, sc) {
			return &redirectError{"invalid_scope", "unknown scope " + strconv.Quote(site.Excerpt(sc)) + "; the scopes are " + strings.Join(Scopes, " ")}
		}
	}
	return nil
}

// checkRedirect accepts an absolute https URL, or http to the machine
// itself (a native app's loopback listener, RFC 8252), with no fragment.
func checkRedirect(raw string) error {
	u, err := url.Parse(raw)
	if raw == "" || len(raw) > maxRedirect || err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" || u.User != nil ||
		strings.ContainsFunc(u.Host, func(r rune) bool { return !plainHost(r) }) {
		return pageError("oauth.err.redirect_uri", site.Excerpt(raw))
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if h := u.Hostname(); h == "localhost" || net.ParseIP(h).IsLoopback() {
			return nil
		}
	}
	return pageError("oauth.err.redirect_uri", site.Excerpt(raw))
}

// plainHost reports whether r may be in a redirect_uri's host (a name, an
// IPv4 or bracketed IPv6 address, a port): the host goes into the consent
// page's Content-Security-Policy, where a ';' would start a directive.
func plainHost(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune(".-:[]", r)
}

// validPKCE reports whether s is a PKCE verifier or S256 challenge's
// alphabet and length (RFC 7636, 4.1 and 4.2).
func validPKCE(s string) bool {
	if len(s) < 43 || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

// s256 is the code_challenge of verifier v.
func s256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// redirectTo returns the redirect_uri with params added to its query.
func redirectTo(redirectURI string, params url.Values) string {
	u, _ := url.Parse(redirectURI) // checked by checkRedirect
	q := u.Query()
	for k, vs := range params {
		for _, v := range vs {
			if v != "" {
				q.Add(k, v)
			}
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// scopeView is a scope and its words.
type scopeView struct {
	Scope string
	Words string
}

// consent is the consent page's data.
type consent struct {
	Req          request
	Scope        string // the scopes as the form posts them back
	Scopes       []scopeView
	User         string
	RedirectHost string
	Off          bool
}

func (s *Site) scopeViews(r *http.Request, scopes []string) []scopeView {
	lang := s.kit.Lang(r)
	out := make([]scopeView, len(scopes))
	for i, sc := range scopes {
		out[i] = scopeView{Scope: sc, Words: s.kit.Catalog().T(lang, "tokens.scope."+sc)}
	}
	return out
}

// pageAuthorize is GET /oauth: the consent page. Someone not logged in to
// an account is sent to log in and back here.
func (s *Site) pageAuthorize(w http.ResponseWriter, r *http.Request) error {
	if s.st == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "oauth.err.off")
	}
	q := readRequest(r.URL.Query())
	if err := q.check(); err != nil {
		var re *redirectError
		if errors.As(err, &re) {
			return site.Redirect(w, r, redirectTo(q.RedirectURI, url.Values{"error": {re.code}, "error_description": {re.description}, "state": {q.State}}))
		}
		return err
	}
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login?referrer="+url.QueryEscape(r.URL.RequestURI()))
	}
	u, _ := url.Parse(q.RedirectURI)
	// The form's answer is a redirect to the app: the page's CSP lets
	// this form, and only it, go there (form-action applies to redirects).
	w.Header().Set("Content-Security-Policy", strings.Replace(w.Header().Get("Content-Security-Policy"),
		"form-action 'self'", "form-action 'self' "+u.Scheme+"://"+u.Host, 1))
	p := s.kit.Page(r, "oauth.title", consent{Req: q, Scope: strings.Join(q.Scopes, " "), Scopes: s.scopeViews(r, q.Scopes),
		User: id.Account.Name, RedirectHost: u.Host})
	return s.kit.Render(w, http.StatusOK, "oauth", p)
}

// pageDecide is POST /oauth: the user's answer. Approved, the app gets a
// code at its redirect_uri; denied, access_denied; either with its state.
func (s *Site) pageDecide(w http.ResponseWriter, r *http.Request) error {
	if s.st == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "oauth.err.off")
	}
	if err := r.ParseForm(); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.form_unreadable")
	}
	q := readRequest(r.PostForm)
	if err := q.check(); err != nil {
		var re *redirectError
		if errors.As(err, &re) {
			return site.Redirect(w, r, redirectTo(q.RedirectURI, url.Values{"error": {re.code}, "error_description": {re.description}, "state": {q.State}}))
		}
		return err
	}
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	if r.PostFormValue("decision") != "approve" {
		return site.Redirect(w, r, redirectTo(q.RedirectURI, url.Values{"error": {"access_denied"}, "error_description": {"the user denied the request"}, "state": {q.State}}))
	}
	code := rand.Text() + rand.Text()
	now := s.cfg.Now()
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	err := s.st.AddOAuthCode(ctx, botapi.HashToken(code), store.OAuthCode{UserID: id.Account.ID, ClientID: q.ClientID, RedirectURI: q.RedirectURI,
		Scopes: q.Scopes, Challenge: q.Challenge, Created: now, Expires: now.Add(s.cfg.CodeTTL)})
	if errors.Is(err, store.ErrTooMany) {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "oauth.err.too_many")
	}
	if err != nil {
		return err
	}
	return site.Redirect(w, r, redirectTo(q.RedirectURI, url.Values{"code": {code}, "state": {q.State}}))
}

// tokenError answers an error of the token endpoint as RFC 6749, 5.2 says.
func tokenError(w http.ResponseWriter, status int, code, description string) error {
	w.Header().Set("Pragma", "no-cache")
	return site.WriteJSON(w, status, map[string]string{"error": code, "error_description": description})
}

// TokenEndpoint is POST /api/token with a form (RFC 6749, 4.1.3): the
// code, its code_verifier, the redirect_uri and client_id it was issued
// for → {"token_type": "Bearer", "access_token", "expires_in"}, lichess's
// answer. The client_id may come as HTTP Basic's user name (an empty
// password: apps have no secret). It carries no session's authority, so
// the site's cross-origin protection lets other sites' apps call it.
func (s *Site) TokenEndpoint(w http.ResponseWriter, r *http.Request) error {
	if s.st == nil {
		return tokenError(w, http.StatusBadRequest, "invalid_request", "this server has no OAuth")
	}
	r.Body = http.MaxBytesReader(w, r.Body, site.MaxBody)
	if err := r.ParseForm(); err != nil {
		return tokenError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
	}
	f := r.PostForm
	clientID := f.Get("client_id")
	if u, _, ok := r.BasicAuth(); ok && clientID == "" {
		clientID, _ = url.QueryUnescape(u)
	}
	switch {
	case f.Get("grant_type") != "authorization_code":
		return tokenError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code")
	case f.Get("code") == "" || f.Get("redirect_uri") == "" || clientID == "":
		return tokenError(w, http.StatusBadRequest, "invalid_request", "code, redirect_uri and client_id are required")
	case !validPKCE(f.Get("code_verifier")):
		return tokenError(w, http.StatusBadRequest, "invalid_request", "code_verifier must be 43 to 128 characters of [A-Za-z0-9-._~]")
	}
	token, hash := botapi.NewToken()
	expires := s.cfg.Now().Add(s.cfg.TokenTTL)
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	_, _, err := s.st.RedeemOAuthCode(ctx, botapi.HashToken(f.Get("code")), func(c store.OAuthCode) error {
		switch {
		case c.ClientID != clientID:
			return &redirectError{"invalid_grant", "the code was issued to another client_id"}
		case c.RedirectURI != f.Get("redirect_uri"):
			return &redirectError{"invalid_grant", "redirect_uri differs from the authorization request's"}
		case subtle.ConstantTimeCompare([]byte(s256(f.Get("code_verifier"))), []byte(c.Challenge)) != 1:
			return &redirectError{"invalid_grant", "code_verifier does not match the code_challenge"}
		}
		return nil
	}, store.AppToken{Hash: hash, Expires: expires})
	var re *redirectError
	switch {
	case errors.As(err, &re):
		return tokenError(w, http.StatusBadRequest, re.code, re.description)
	case errors.Is(err, store.ErrCodeReused):
		return tokenError(w, http.StatusBadRequest, "invalid_grant", "the code was used before: its token is revoked")
	case errors.Is(err, store.ErrNotFound):
		return tokenError(w, http.StatusBadRequest, "invalid_grant", "unknown or expired code")
	case errors.Is(err, store.ErrTooMany):
		return tokenError(w, http.StatusBadRequest, "invalid_request", "the account has granted too many tokens to apps: revoke some in its settings")
	case err != nil:
		return err
	}
	w.Header().Set("Pragma", "no-cache")
	return site.WriteJSON(w, http.StatusOK, map[string]any{"token_type": "Bearer", "access_token": token, "expires_in": int64(s.cfg.TokenTTL / time.Second)})
}

// AppView is a token granted to an app, as /settings lists it.
type AppView struct {
	ID     int64
	App    string
	Scopes []scopeView
	// Created and Expires are days, as ISO 8601 writes them (every
	// language reads them).
	Created, Expires string
}

// Section is the apps' section of /settings.
type Section struct {
	On   bool
	Apps []AppView
}

// Section returns the apps' section of the settings page of account uid.
func (s *Site) Section(r *http.Request, uid int64) Section {
	if s.st == nil {
		return Section{}
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	ts, err := s.st.AppTokens(ctx, uid)
	if err != nil {
		s.kit.Logger().Warn("app tokens", "user", uid, "err", err)
	}
	sec := Section{On: true}
	for _, t := range ts {
		sec.Apps = append(sec.Apps, AppView{ID: t.ID, App: t.App, Scopes: s.scopeViews(r, t.Scopes), Created: t.Created.Format(time.DateOnly), Expires: t.Expires.Format(time.DateOnly)})
	}
	return sec
}

// pageRevoke is POST /settings/apps/{id}/revoke: the app's token stops
// working at once. Another account's token is not found.
func (s *Site) pageRevoke(w http.ResponseWriter, r *http.Request) error {
	id := s.kit.Identity(r)
	if id.Account.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	if s.st == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "oauth.err.off")
	}
	tid, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := s.st.RevokeToken(ctx, id.Account.ID, tid); errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "oauth.err.no_app", site.Excerpt(r.PathValue("id")))
	} else if err != nil {
		return err
	}
	return site.Redirect(w, r, "/settings#apps")
}

// ErrorKeys are the catalog keys of this package's errors (oauth.json).
func ErrorKeys() []string {
	return []string{"oauth.err.client_id", "oauth.err.redirect_uri", "oauth.err.off", "oauth.err.too_many", "oauth.err.no_app"}
}
