package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// login logs u in through the login form.
func (u *user) login() {
	u.t.Helper()
	u.do("login form",
		chromedp.Navigate(u.base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
		click(chromedp.CSS("#auth-submit")),
	)
	u.waitFor("the lobby after the login", fmt.Sprintf(`(document.getElementById('me-name')||{}).textContent === %q`, u.name), 10*time.Second)
}

// pageLang returns the language of u's page.
func (u *user) pageLang() string {
	u.t.Helper()
	return eval[string](u, `document.documentElement.lang`)
}

// TestLoginKeepsLanguage: a visitor who chose a language on his browser
// keeps it when he logs in to an account that chose another elsewhere;
// a browser that chose none gets the account's.
func TestLoginKeepsLanguage(t *testing.T) {
	base, browser, _ := setup(t)
	for _, lang := range pageLangs {
		t.Run(lang, func(t *testing.T) {
			home := newUser(t, browser, base, "dana"+lang)
			home.signup()
			// The account chooses Russian with the switcher.
			home.do("the switcher", chromedp.Evaluate[chromedp.Void](
				`fetch('/lang', {method: 'POST', body: new URLSearchParams({lang: 'ru', back: '/'})})`, chromedp.EvalAwaitPromise))
			home.do("a page", chromedp.Navigate(base+"/leaderboard"))
			if got := home.pageLang(); got != "ru" {
				t.Fatalf("after choosing ru: page in %s", got)
			}
			// Another browser, where the visitor chose lang.
			away := newUser(t, browser, base, home.name)
			away.setLang(lang)
			away.login()
			if got := away.pageLang(); got != lang {
				t.Errorf("chose %s on this browser, logged in to an account that chose ru: page in %s", lang, got)
			}
			// A third browser, which chose nothing, gets the account's.
			fresh := newUser(t, browser, base, home.name)
			fresh.login()
			if got := fresh.pageLang(); got != "ru" {
				t.Errorf("no choice on this browser: page in %s, want the account's ru", got)
			}
		})
	}
}

// TestSignupWhileLoggedIn: the sign-up and login pages of someone logged
// in say who he is and offer to log out first, in the page's language; a
// form posted anyway leaves his session as it was.
func TestSignupWhileLoggedIn(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range pageLangs {
		t.Run(lang, func(t *testing.T) {
			u := newUser(t, browser, base, "erlan"+lang)
			u.setLang(lang)
			u.signup()
			for _, mode := range []string{"signup", "login"} {
				u.do("the "+mode+" page", chromedp.Navigate(base+"/"+mode), chromedp.WaitReady(chromedp.CSS("body")))
				if got, want := eval[string](u, `(document.getElementById('auth-current')||{}).textContent||''`), cat.T(lang, "auth.logged_in", u.name); got != want {
					t.Errorf("/%s logged in: %q, want %q", mode, got, want)
				}
				if got, want := eval[string](u, `(document.getElementById('auth-logout')||{}).textContent||''`), cat.T(lang, "auth.logout_first"); got != want {
					t.Errorf("/%s logged in: button %q, want %q", mode, got, want)
				}
				for _, w := range []int64{1366, 360} {
					u.do("the window", chromedp.EmulateViewport(w, 800))
					png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
					if err != nil {
						t.Fatal(err)
					}
					writeArtifact(t, artifacts, fmt.Sprintf("auth-%s-%s-%d.png", mode, lang, w), png)
				}
			}
			// A sign-up posted anyway (an old tab's form) is refused and
			// keeps the session.
			status, err := chromedp.Run(u.ctx, chromedp.Evaluate[int](`fetch('/signup', {method: 'POST', body: new URLSearchParams({name: 'other`+lang+`', password: 'correct horse battery'}), redirect: 'manual'}).then(r => r.status)`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if status != 409 {
				t.Errorf("sign-up posted while logged in: %d, want 409", status)
			}
			u.do("the lobby", chromedp.Navigate(base+"/"))
			u.waitFor("still logged in", fmt.Sprintf(`(document.getElementById('me-name')||{}).textContent === %q`, u.name), 10*time.Second)
			// Logging out from the page leads back to the form.
			u.do("log out first", chromedp.Navigate(base+"/signup"), click(chromedp.CSS("#auth-logout")))
			u.waitFor("the sign-up form", `location.pathname === '/signup' && document.getElementById('auth-form')`, 10*time.Second)
		})
	}
}
