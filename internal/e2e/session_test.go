package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// login logs u in through the login form.
func (u *user) login() {
	u.t.Helper()
	u.do("login form",
		chromedp.Navigate(u.base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
		chromedp.Click(chromedp.CSS("#auth-submit")),
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
