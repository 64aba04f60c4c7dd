package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// asBrowser sends method path with the session cookie of sess (none when
// "") and form as the body, and never follows a redirect: it returns the
// status, the Location and the body.
func (s *testServer) asBrowser(method, path, sess string, form url.Values) (int, string, string) {
	s.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, s.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if sess != "" {
		req.AddCookie(&http.Cookie{Name: cookieName, Value: sess})
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// oauthApp is a third-party app: golang.org/x/oauth2 as its client and
// an httptest server as its redirect_uri.
type oauthApp struct {
	conf     *oauth2.Config
	verifier string
	srv      *httptest.Server
}

func newOAuthApp(t *testing.T, s *testServer, clientID string, scopes ...string) *oauthApp {
	app := &oauthApp{verifier: oauth2.GenerateVerifier()}
	app.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(app.srv.Close)
	app.conf = &oauth2.Config{ClientID: clientID, RedirectURL: app.srv.URL + "/callback", Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: s.URL + "/oauth", TokenURL: s.URL + "/api/token", AuthStyle: oauth2.AuthStyleInParams}}
	return app
}

// consent opens the app's authorization URL as sess and answers decision
// on the consent page's form; it returns the redirect's query.
func (app *oauthApp) consent(t *testing.T, s *testServer, sess, state, decision string) url.Values {
	t.Helper()
	auth, _ := url.Parse(app.conf.AuthCodeURL(state, oauth2.S256ChallengeOption(app.verifier)))
	code, _, body := s.asBrowser("GET", auth.RequestURI(), sess, nil)
	if code != 200 {
		t.Fatalf("GET %s: %d %s", auth.RequestURI(), code, body)
	}
	form := url.Values{"decision": {decision}}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([a-z_]+)" value="([^"]*)">`).FindAllStringSubmatch(body, -1) {
		form.Set(m[1], htmlUnescape(m[2]))
	}
	code, loc, body := s.asBrowser("POST", "/oauth", sess, form)
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, app.conf.RedirectURL+"?") {
		t.Fatalf("POST /oauth: %d %q %s", code, loc, body)
	}
	u, _ := url.Parse(loc)
	return u.Query()
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&#43;", "+", "&#39;", "'", "&#34;", `"`, "&lt;", "<", "&gt;", ">").Replace(s)
}

// TestOAuthFlow runs an app's whole flow against a real OAuth 2 client
// library: the consent page shows the app, the redirect and the scopes in
// words; approving sends a code with the state; the code and the PKCE
// verifier make a token that works on the API within its scopes and
// nowhere as a session; a code works once (its second use revokes the
// token); the settings list the app, and revoking it ends the token.
func TestOAuthFlow(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	alice, bob := s.signup("alice"), s.signup("bob")
	app := newOAuthApp(t, s, "board-app.example", "challenge:read", "board:play")
	ctx := context.Background()

	auth, _ := url.Parse(app.conf.AuthCodeURL("st8", oauth2.S256ChallengeOption(app.verifier)))
	code, loc, _ := s.asBrowser("GET", auth.RequestURI(), "", nil)
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/login?referrer=%2Foauth%3F") {
		t.Fatalf("GET /oauth logged out: %d %q, want a redirect to the login and back", code, loc)
	}
	req, _ := http.NewRequest("GET", s.URL+auth.RequestURI(), nil)
	req.Header.Set("Accept-Language", "en")
	req.AddCookie(&http.Cookie{Name: cookieName, Value: alice})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"board-app.example", app.conf.RedirectURL, "read the challenges you get", "play your games from another program", "alice"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the consent page lacks %q", want)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' "+app.srv.URL) {
		t.Errorf("CSP %q: the form may not go to the app", csp)
	}

	q := app.consent(t, s, alice, "st8", "approve")
	if q.Get("state") != "st8" || q.Get("code") == "" {
		t.Fatalf("redirect query %v: want the code and state st8", q)
	}
	tok, err := app.conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(app.verifier))
	if err != nil {
		t.Fatal(err)
	}
	if tok.TokenType != "Bearer" || tok.AccessToken == "" || time.Until(tok.Expiry) < 300*24*time.Hour {
		t.Fatalf("token %+v: want a Bearer token for about a year", tok)
	}
	if code, m := s.do("GET", "/api/account", tok.AccessToken, nil); code != 200 || m["username"] != "alice" {
		t.Fatalf("GET /api/account with the app's token: %d %v", code, m)
	}
	// Its scopes, and nothing more.
	reader := newOAuthApp(t, s, "reader.example", "challenge:read")
	rtok, err := reader.conf.Exchange(ctx, reader.consent(t, s, alice, "r", "approve").Get("code"), oauth2.VerifierOption(reader.verifier))
	if err != nil {
		t.Fatal(err)
	}
	if code, m := s.do("POST", "/api/challenge/bob", rtok.AccessToken, map[string]any{}); code != http.StatusForbidden || m["code"] != "missing_scope" {
		t.Errorf("a challenge with challenge:read only: %d %v, want 403 missing_scope", code, m)
	}
	if code, m := s.do("POST", "/api/bot/account/upgrade", tok.AccessToken, nil); code != http.StatusForbidden {
		t.Errorf("upgrade without bot:play: %d %v, want 403", code, m)
	}
	// An app's token is never a session of the site.
	if code, m := s.do("GET", "/api/me", tok.AccessToken, nil); code == 200 && m["name"] == "alice" {
		t.Errorf("GET /api/me with the app's token answered alice: %v", m)
	}
	if code, _ := s.do("GET", "/api/token", tok.AccessToken, nil); code != http.StatusUnauthorized {
		t.Errorf("listing tokens with the app's token: %d, want 401", code)
	}

	// The settings list the app; bob cannot revoke it.
	_, _, settings := s.asBrowser("GET", "/settings", alice, nil)
	m := regexp.MustCompile(`id="app-(\d+)">board-app.example<`).FindStringSubmatch(settings)
	if m == nil || !strings.Contains(settings, "board-app.example") {
		t.Fatalf("the settings do not list the app:\n%s", settings)
	}
	if code, _, _ := s.asBrowser("POST", "/settings/apps/"+m[1]+"/revoke", bob, url.Values{}); code != http.StatusNotFound {
		t.Errorf("bob revoking alice's app: %d, want 404", code)
	}
	if code, _ := s.do("GET", "/api/account", tok.AccessToken, nil); code != 200 {
		t.Fatalf("the token after bob's try: %d", code)
	}
	if _, _, settings := s.asBrowser("GET", "/settings", bob, nil); strings.Contains(settings, "board-app.example") {
		t.Error("bob's settings list alice's app")
	}
	if code, loc, _ := s.asBrowser("POST", "/settings/apps/"+m[1]+"/revoke", alice, url.Values{}); code != http.StatusSeeOther || loc != "/settings#apps" {
		t.Fatalf("revoke: %d %q", code, loc)
	}
	if code, _ := s.do("GET", "/api/account", tok.AccessToken, nil); code != http.StatusUnauthorized {
		t.Fatalf("the revoked token: %d, want 401", code)
	}

	// A code works once: its second use revokes the token it made.
	q = app.consent(t, s, alice, "again", "approve")
	tok, err = app.conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(app.verifier))
	if err != nil {
		t.Fatal(err)
	}
	_, err = app.conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(app.verifier))
	if re := (*oauth2.RetrieveError)(nil); !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("second exchange: %v, want invalid_grant", err)
	}
	if code, _ := s.do("GET", "/api/account", tok.AccessToken, nil); code != http.StatusUnauthorized {
		t.Fatalf("the token of a code used twice: %d, want 401", code)
	}

	// The app revokes its own token (DELETE /api/token, lichess's).
	q = app.consent(t, s, alice, "third", "approve")
	tok, err = app.conf.Exchange(ctx, q.Get("code"), oauth2.VerifierOption(app.verifier))
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := s.do("DELETE", "/api/token", tok.AccessToken, nil); code != http.StatusNoContent {
		t.Fatalf("DELETE /api/token: %d", code)
	}
	if code, _ := s.do("GET", "/api/account", tok.AccessToken, nil); code != http.StatusUnauthorized {
		t.Fatalf("the token after DELETE /api/token: %d, want 401", code)
	}

	// An app in a browser: the preflight of its API calls, and its token
	// request from its own site, answered for any origin.
	req, _ = http.NewRequest("OPTIONS", s.URL+"/api/account", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "authorization")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") || resp.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	q = app.consent(t, s, alice, "spa", "approve")
	req, _ = http.NewRequest("POST", s.URL+"/api/token", strings.NewReader(url.Values{"grant_type": {"authorization_code"}, "code": {q.Get("code")},
		"code_verifier": {app.verifier}, "redirect_uri": {app.conf.RedirectURL}, "client_id": {app.conf.ClientID}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Cache-Control") != "no-store" ||
		!strings.Contains(string(body), `"token_type":"Bearer"`) {
		t.Errorf("the token request from the app's site: %d %v %s", resp.StatusCode, resp.Header, body)
	}

	// Denied: access_denied with the state.
	if q := app.consent(t, s, alice, "no", "deny"); q.Get("error") != "access_denied" || q.Get("state") != "no" || q.Get("code") != "" {
		t.Errorf("deny: %v", q)
	}
}

// TestOAuthTokenErrors: what the token endpoint refuses, as RFC 6749 names
// it: another verifier, redirect_uri or client_id than the code's, an
// unknown code, another grant type.
func TestOAuthTokenErrors(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	alice := s.signup("alice")
	app := newOAuthApp(t, s, "app", "board:play")
	ctx := context.Background()
	code := func() string { return app.consent(t, s, alice, "s", "approve").Get("code") }
	other := oauth2.GenerateVerifier()
	for _, c := range []struct {
		name string
		form url.Values
		want string
	}{
		{"wrong verifier", url.Values{"code_verifier": {other}}, "invalid_grant"},
		{"wrong redirect_uri", url.Values{"redirect_uri": {app.conf.RedirectURL + "/x"}}, "invalid_grant"},
		{"wrong client_id", url.Values{"client_id": {"other-app"}}, "invalid_grant"},
		{"unknown code", url.Values{"code": {"nonsense"}}, "invalid_grant"},
		{"no verifier", url.Values{"code_verifier": {""}}, "invalid_request"},
		{"grant type", url.Values{"grant_type": {"password"}}, "unsupported_grant_type"},
	} {
		form := url.Values{"grant_type": {"authorization_code"}, "code": {code()}, "code_verifier": {app.verifier},
			"redirect_uri": {app.conf.RedirectURL}, "client_id": {app.conf.ClientID}}
		for k, v := range c.form {
			form[k] = v
		}
		st, m := s.botForm("POST", "/api/token", "", form)
		if st != http.StatusBadRequest || m["error"] != c.want || m["error_description"] == "" {
			t.Errorf("%s: %d %v, want 400 %s", c.name, st, m, c.want)
		}
	}
	// A code refused for a wrong verifier is still good for the right one:
	// a guess does not burn it, and the right verifier is unguessable.
	c := code()
	if st, _ := s.botForm("POST", "/api/token", "", url.Values{"grant_type": {"authorization_code"}, "code": {c}, "code_verifier": {other},
		"redirect_uri": {app.conf.RedirectURL}, "client_id": {app.conf.ClientID}}); st != 400 {
		t.Fatalf("wrong verifier: %d", st)
	}
	if _, err := app.conf.Exchange(ctx, c, oauth2.VerifierOption(app.verifier)); err != nil {
		t.Fatalf("the right verifier after a wrong one: %v", err)
	}
}

// TestOAuthAuthorizeErrors: a bad client_id or redirect_uri is shown on the
// page and never followed; what else the app asks wrong goes back to it
// as RFC 6749, 4.1.2.1 says, with its state.
func TestOAuthAuthorizeErrors(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	alice := s.signup("alice")
	challenge := oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())
	good := url.Values{"response_type": {"code"}, "client_id": {"app"}, "redirect_uri": {"https://app.example/cb?x=1"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"s1"}, "scope": {"board:play"}}
	for _, c := range []struct {
		name  string
		set   url.Values
		page  bool   // answered on the page, 400
		error string // else the error sent to the redirect_uri
	}{
		{"no client_id", url.Values{"client_id": {""}}, true, ""},
		{"http elsewhere", url.Values{"redirect_uri": {"http://app.example/cb"}}, true, ""},
		{"relative", url.Values{"redirect_uri": {"/cb"}}, true, ""},
		{"fragment", url.Values{"redirect_uri": {"https://app.example/cb#x"}}, true, ""},
		{"javascript", url.Values{"redirect_uri": {"javascript:alert(1)"}}, true, ""},
		{"token flow", url.Values{"response_type": {"token"}}, false, "unsupported_response_type"},
		{"plain PKCE", url.Values{"code_challenge_method": {"plain"}}, false, "invalid_request"},
		{"no PKCE", url.Values{"code_challenge": {""}}, false, "invalid_request"},
		{"unknown scope", url.Values{"scope": {"board:play email:read"}}, false, "invalid_scope"},
	} {
		q := url.Values{}
		for k, v := range good {
			q[k] = v
		}
		for k, v := range c.set {
			q[k] = v
		}
		for _, method := range []string{"GET", "POST"} {
			var code int
			var loc string
			if method == "GET" {
				code, loc, _ = s.asBrowser("GET", "/oauth?"+q.Encode(), alice, nil)
			} else {
				f := url.Values{"decision": {"approve"}}
				for k, v := range q {
					f[k] = v
				}
				code, loc, _ = s.asBrowser("POST", "/oauth", alice, f)
			}
			if c.page {
				if code != http.StatusBadRequest || loc != "" {
					t.Errorf("%s %s: %d %q, want 400 on the page", c.name, method, code, loc)
				}
				continue
			}
			u, _ := url.Parse(loc)
			if code != http.StatusSeeOther || u.Host != "app.example" || u.Query().Get("error") != c.error || u.Query().Get("state") != "s1" ||
				u.Query().Get("x") != "1" || u.Query().Get("code") != "" {
				t.Errorf("%s %s: %d %q, want %s sent back with the state", c.name, method, code, loc, c.error)
			}
		}
	}
	if code, _, _ := s.asBrowser("GET", "/oauth?"+good.Encode(), alice, nil); code != 200 {
		t.Errorf("the good request: %d", code)
	}
}
