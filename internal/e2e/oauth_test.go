package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/oauth2"

	"github.com/toguz/toguz/internal/i18n"
)

// oauthApp is a third-party web app on its own server: golang.org/x/oauth2
// is its client; its /callback (the redirect_uri) redeems the code with the
// PKCE verifier, calls GET /api/account with the token and shows who it
// is connected as.
type oauthApp struct {
	srv      *httptest.Server
	conf     *oauth2.Config
	verifier string
	tokens   chan string
}

func newOAuthApp(t *testing.T, base string) *oauthApp {
	app := &oauthApp{verifier: oauth2.GenerateVerifier(), tokens: make(chan string, 1)}
	app.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		if e := r.FormValue("error"); e != "" {
			fmt.Fprintf(w, "app: refused: %s", e)
			return
		}
		if r.FormValue("state") != "app-state" {
			http.Error(w, "app: wrong state", http.StatusBadRequest)
			return
		}
		tok, err := app.conf.Exchange(r.Context(), r.FormValue("code"), oauth2.VerifierOption(app.verifier))
		if err != nil {
			http.Error(w, "app: exchange: "+err.Error(), http.StatusBadGateway)
			return
		}
		resp, err := app.conf.Client(r.Context(), tok).Get(base + "/api/account")
		if err != nil {
			http.Error(w, "app: account: "+err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		var acct struct {
			Username string   `json:"username"`
			Scopes   []string `json:"scopes"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&acct); err != nil || resp.StatusCode != 200 {
			http.Error(w, fmt.Sprintf("app: account: %d %v", resp.StatusCode, err), http.StatusBadGateway)
			return
		}
		app.tokens <- tok.AccessToken
		fmt.Fprintf(w, "app: connected as %s with %s", acct.Username, strings.Join(acct.Scopes, " "))
	}))
	t.Cleanup(app.srv.Close)
	app.conf = &oauth2.Config{ClientID: "Kumalak Coach", RedirectURL: app.srv.URL + "/callback", Scopes: []string{"board:play", "challenge:read"},
		Endpoint: oauth2.Endpoint{AuthURL: base + "/oauth", TokenURL: base + "/api/token", AuthStyle: oauth2.AuthStyleInParams}}
	return app
}

// checkTexts fails the test when u's page shows a text that is not of
// lang's catalog.
func checkTexts(t *testing.T, u *user, m *textMatcher, lang, what string) {
	t.Helper()
	var bad []string
	for _, text := range eval[[]string](u, visibleTexts) {
		if !m.match(text) && !slices.Contains(bad, text) {
			bad = append(bad, text)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s in %s shows texts not of the catalog: %q", what, lang, bad)
	}
}

// TestOAuthApp, in kk and en: a third-party app sends the user to /oauth;
// logged out, he logs in and comes back to the consent page, which names
// the app, its redirect and its scopes in his language and fits 360 px;
// he approves, and the app (golang.org/x/oauth2 with PKCE) gets its token
// and calls the API with it; the settings list the app, he revokes it and
// the token stops working.
func TestOAuthApp(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		name := "oauth" + strings.ReplaceAll(lang, "-", "")
		first := newUser(t, browser, base, name)
		first.signup()

		app := newOAuthApp(t, base)
		u := newUser(t, browser, base, name)
		u.do("the language", setCookie(base, "lang", lang))
		u.do("the app's link", chromedp.Navigate(app.conf.AuthCodeURL("app-state", oauth2.S256ChallengeOption(app.verifier))))
		u.waitFor("the login form", `document.getElementById('auth-form')`, 10*time.Second)
		u.do("login form",
			chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
			chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
			click(chromedp.CSS("#auth-submit")),
		)
		u.waitFor("the consent page after the login", `document.getElementById('oauth-form')`, 10*time.Second)
		m := newTextMatcher(cat, lang)
		for _, w := range []int64{1366, 360} {
			u.do("viewport", chromedp.EmulateViewport(w, 800))
			u.shot(artifacts, fmt.Sprintf("oauth-consent-%s-%d.png", lang, w))
			fits360(t, u, "the consent page", w)
		}
		checkTexts(t, u, m, lang, "the consent page")
		shown := eval[string](u, `document.querySelector('main').innerText`)
		for _, want := range []string{"Kumalak Coach", app.conf.RedirectURL, cat.T(lang, "tokens.scope.board:play"), cat.T(lang, "tokens.scope.challenge:read")} {
			if !strings.Contains(shown, want) {
				t.Errorf("%s: the consent page does not show %q:\n%s", lang, want, shown)
			}
		}

		u.do("approve", click(chromedp.CSS("#oauth-approve")))
		u.waitFor("the app's page", `document.body && document.body.innerText.startsWith('app: ')`, 10*time.Second)
		if got := eval[string](u, `document.body.innerText`); got != "app: connected as "+name+" with board:play challenge:read" {
			t.Fatalf("%s: the app says %q", lang, got)
		}
		token := <-app.tokens

		u.do("the settings", chromedp.EmulateViewport(1366, 800), chromedp.Navigate(base+"/settings#apps"))
		u.waitFor("the apps' section", `document.getElementById('app-list')`, 10*time.Second)
		if got := eval[string](u, `document.getElementById('app-list').innerText`); !strings.Contains(got, "Kumalak Coach") {
			t.Errorf("%s: the apps listed: %q", lang, got)
		}
		checkTexts(t, u, m, lang, "the settings with an app")
		for _, w := range []int64{1366, 360} {
			u.do("viewport", chromedp.EmulateViewport(w, 800))
			u.do("scroll", chromedp.Evaluate[chromedp.Void](`document.getElementById('apps').scrollIntoView()`))
			u.shot(artifacts, fmt.Sprintf("oauth-settings-%s-%d.png", lang, w))
			fits360(t, u, "the settings with an app", w)
		}
		u.do("revoke", click(chromedp.CSS("#app-list .app-revoke")))
		u.waitFor("no app left", `document.getElementById('apps-none')`, 10*time.Second)

		req, _ := http.NewRequest("GET", base+"/api/account", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: the revoked token: %d, want 401", lang, resp.StatusCode)
		}
	}
}
