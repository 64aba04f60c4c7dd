package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/pquerna/otp/totp"

	"github.com/toguz/toguz/internal/i18n"
)

// localhost returns base on the host name localhost: WebAuthn needs a
// domain for its relying party (no IP address), and http://localhost is a
// secure context.
func localhost(base string) string { return strings.Replace(base, "127.0.0.1", "localhost", 1) }

// authenticator gives u's tab Chromium's virtual authenticator: a
// platform authenticator (CTAP2, internal) that keeps discoverable
// credentials and verifies its user at once.
func (u *user) authenticator() {
	u.t.Helper()
	if _, err := chromedp.Call(u.ctx, webauthn.Enable, webauthn.EnableParams{}); err != nil {
		u.t.Fatalf("WebAuthn.enable: %v", err)
	}
	if _, err := chromedp.Call(u.ctx, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
		Options: &webauthn.VirtualAuthenticatorOptions{Protocol: webauthn.AuthenticatorProtocolCtap2, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}}); err != nil {
		u.t.Fatalf("WebAuthn.addVirtualAuthenticator: %v", err)
	}
}

// logout ends u's session.
func (u *user) logout() {
	u.t.Helper()
	u.do("log out", chromedp.Navigate(u.base+"/"), chromedp.Evaluate[chromedp.Void](
		`fetch('/logout', {method: 'POST', body: new URLSearchParams({back: '/'})})`, chromedp.EvalAwaitPromise))
	u.do("the login page", chromedp.Navigate(u.base+"/login"), chromedp.WaitVisible(chromedp.CSS("#auth-form")))
}

// loggedIn waits for the lobby with u logged in.
func (u *user) loggedIn(what string) {
	u.t.Helper()
	u.waitFor(what, fmt.Sprintf(`location.pathname === '/' && (document.getElementById('me-name')||{}).textContent === %q`, u.name), 10*time.Second)
}

// passwordStep posts the login form; the second step's page follows.
func (u *user) passwordStep() {
	u.t.Helper()
	u.do("the login form",
		chromedp.Navigate(u.base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
		click(chromedp.CSS("#auth-submit")),
	)
	u.waitFor("the second step", `document.getElementById('second-ticket')`, 10*time.Second)
}

// enableTOTP turns TOTP on through /account/twofactor, reading the key on
// the page as an authenticator app would, and returns it with the
// recovery codes shown.
func (u *user) enableTOTP() (string, []string) {
	u.t.Helper()
	u.do("setting up TOTP", chromedp.Navigate(u.base+"/account/twofactor"), chromedp.WaitVisible(chromedp.CSS("#setup-submit")),
		chromedp.SendKeys(chromedp.CSS("#setup-password"), "correct horse battery"),
		click(chromedp.CSS("#setup-submit")), chromedp.WaitVisible(chromedp.CSS("#totp-secret")))
	secret := eval[string](u, `document.getElementById('totp-secret').textContent`)
	if !eval[bool](u, `document.getElementById('totp-qr').naturalWidth > 0`) {
		u.t.Error("the QR code is not shown")
	}
	code, err := totp.GenerateCode(secret, time.Now())
	if err != nil {
		u.t.Fatal(err)
	}
	u.do("the first code", chromedp.SendKeys(chromedp.CSS("#confirm-code"), code), click(chromedp.CSS("#confirm-submit")),
		chromedp.WaitVisible(chromedp.CSS("#recovery-codes")))
	return secret, eval[[]string](u, `[...document.querySelectorAll('#recovery-codes code')].map(e => e.textContent)`)
}

// TestTOTPLogin: an account turns TOTP on with the key read from its page;
// its next login asks for a code after the password, refuses a wrong one
// and lets it in with the app's code; another login with a recovery code.
func TestTOTPLogin(t *testing.T) {
	base, browser, _ := setup(t)
	base = localhost(base)
	u := newUser(t, browser, base, "Asel")
	u.signup()
	secret, codes := u.enableTOTP()
	if len(codes) != 10 {
		t.Fatalf("%d recovery codes shown, want 10", len(codes))
	}
	u.logout()
	u.passwordStep()
	if eval[bool](u, `!!document.getElementById('me-name') && document.getElementById('me-name').textContent !== ''`) {
		t.Fatal("logged in before the second step")
	}
	u.do("a wrong code", chromedp.SendKeys(chromedp.CSS("#second-code"), "000000"), click(chromedp.CSS("#second-submit")),
		chromedp.WaitVisible(chromedp.CSS("#form-error")))
	// The enrolment used the code of now: the next step's is fresh.
	code, _ := totp.GenerateCode(secret, time.Now().Add(30*time.Second))
	u.do("the app's code", chromedp.SendKeys(chromedp.CSS("#second-code"), code), click(chromedp.CSS("#second-submit")))
	u.loggedIn("the lobby after the TOTP code")

	u.logout()
	u.passwordStep()
	u.do("a recovery code", chromedp.SendKeys(chromedp.CSS("#second-code"), codes[3]), click(chromedp.CSS("#second-submit")))
	u.loggedIn("the lobby after a recovery code")
	u.do("the security page", chromedp.Navigate(base+"/account/twofactor"), chromedp.WaitVisible(chromedp.CSS("#recovery-left")))
	if got, want := eval[string](u, `document.getElementById('recovery-left').textContent`), i18n.New().N(u.pageLang(), "twofactor.codes_left", 9, 9); got != want {
		t.Errorf("recovery codes left: %q, want %q", got, want)
	}
}

// TestPasskeys: with Chromium's virtual authenticator, an account adds a
// passkey on /account/passkeys; it then signs in with it and no password
// ("Sign in with a passkey", a discoverable credential), and after its
// password the passkey is its second step.
func TestPasskeys(t *testing.T) {
	base, browser, _ := setup(t)
	base = localhost(base)
	u := newUser(t, browser, base, "Dana")
	u.authenticator()
	u.signup()
	u.do("adding a passkey with a wrong password", chromedp.Navigate(base+"/account/passkeys"), chromedp.WaitVisible(chromedp.CSS("#passkey-add")),
		chromedp.SendKeys(chromedp.CSS("#passkey-name"), "Laptop"), chromedp.SendKeys(chromedp.CSS("#passkey-password"), "not my password"),
		click(chromedp.CSS("#passkey-add-submit")), chromedp.WaitVisible(chromedp.CSS("#passkey-error")))
	u.do("adding a passkey", chromedp.SetValue(chromedp.CSS("#passkey-password"), "correct horse battery"), click(chromedp.CSS("#passkey-add-submit")),
		chromedp.WaitVisible(chromedp.CSS("#recovery-codes")))
	// The first second factor comes with the recovery codes, shown once.
	codes := eval[[]string](u, `[...document.querySelectorAll('#recovery-list code')].map(e => e.textContent)`)
	if len(codes) != 10 {
		t.Fatalf("%d recovery codes shown with the first passkey, want 10", len(codes))
	}
	u.do("the codes kept", click(chromedp.CSS("#recovery-saved")))
	u.waitFor("the passkey listed", `[...document.querySelectorAll('#passkey-list .passkey-name')].some(e => e.textContent === 'Laptop')`, 10*time.Second)
	if eval[bool](u, `!document.getElementById('recovery-codes').hidden`) {
		t.Error("the recovery codes are shown again")
	}

	u.logout()
	u.do("sign in with a passkey", chromedp.WaitVisible(chromedp.CSS("#passkey-login")), click(chromedp.CSS("#passkey-login")))
	u.loggedIn("the lobby after the password-less login")

	u.logout()
	u.passwordStep()
	u.do("the passkey as the second step", chromedp.WaitVisible(chromedp.CSS("#passkey-second")), click(chromedp.CSS("#passkey-second")))
	u.loggedIn("the lobby after the passkey as the second step")

	u.do("the passkeys page", chromedp.Navigate(base+"/account/passkeys"), chromedp.WaitVisible(chromedp.CSS("#passkey-list")))
	if !eval[bool](u, `document.querySelector('#passkey-list li').textContent.includes('·')`) {
		t.Error("the passkey's last use is not shown")
	}
	u.logout()
	u.passwordStep()
	u.do("a recovery code instead of the passkey", chromedp.SendKeys(chromedp.CSS("#second-code"), codes[0]), click(chromedp.CSS("#second-submit")))
	u.loggedIn("the lobby after a recovery code")

	u.do("removing the passkey", chromedp.Navigate(base+"/account/passkeys"), chromedp.WaitVisible(chromedp.CSS("#passkey-list button")),
		click(chromedp.CSS("#passkey-list button")), chromedp.WaitVisible(chromedp.CSS("#passkeys-none")))
	u.logout()
	u.do("the login form", chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"), click(chromedp.CSS("#auth-submit")))
	u.loggedIn("the lobby after the password alone, the passkey removed")
}

// TestTwoFactorPages: the security pages, the login with its passkey
// button and the second step fit 360 px and show only texts of their
// language's catalog, in kk and en; their screenshots at 1366 and 360 px
// are kept in the artifacts.
func TestTwoFactorPages(t *testing.T) {
	base, browser, dir := setup(t)
	base = localhost(base)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			u := newUser(t, browser, base, "Nurlan"+lang)
			u.authenticator()
			u.setLang(lang)
			u.signup()
			m := newTextMatcher(cat, lang)
			check := func(name string, ready string) {
				for _, w := range []int64{1366, 360} {
					u.do("viewport", chromedp.EmulateViewport(w, 800))
					u.waitFor(name, ready, 10*time.Second)
					fits360(t, u, name, w)
					u.shot(dir, fmt.Sprintf("twofactor-%s-%s-%d.png", name, lang, w))
				}
				var bad []string
				for _, text := range eval[[]string](u, visibleTexts) {
					if !m.match(text) && !slices.Contains(bad, text) {
						bad = append(bad, text)
					}
				}
				if len(bad) > 0 {
					t.Errorf("%s shows %d texts that are not %s: %q", name, len(bad), lang, bad)
				}
			}
			u.do("the TOTP page", chromedp.Navigate(base+"/account/twofactor"), chromedp.WaitVisible(chromedp.CSS("#setup-submit")))
			check("off", `document.getElementById('setup-form')`)
			u.do("the setup", chromedp.SendKeys(chromedp.CSS("#setup-password"), "correct horse battery"),
				click(chromedp.CSS("#setup-submit")), chromedp.WaitVisible(chromedp.CSS("#totp-secret")))
			check("setup", `document.getElementById('totp-qr').complete`)
			secret := eval[string](u, `document.getElementById('totp-secret').textContent`)
			code, _ := totp.GenerateCode(secret, time.Now())
			u.do("the first code", chromedp.SendKeys(chromedp.CSS("#confirm-code"), code), click(chromedp.CSS("#confirm-submit")),
				chromedp.WaitVisible(chromedp.CSS("#recovery-codes")))
			check("codes", `document.getElementById('recovery-codes')`)
			u.do("adding a passkey", chromedp.Navigate(base+"/account/passkeys"), chromedp.WaitVisible(chromedp.CSS("#passkey-add")),
				chromedp.SendKeys(chromedp.CSS("#passkey-name"), "Телефон"), chromedp.SendKeys(chromedp.CSS("#passkey-password"), "correct horse battery"),
				click(chromedp.CSS("#passkey-add-submit")))
			u.waitFor("the passkey listed", `document.getElementById('passkey-list')`, 10*time.Second)
			check("passkeys", `document.getElementById('passkey-list')`)
			u.do("settings", chromedp.Navigate(base+"/settings"))
			check("settings", `document.getElementById('settings-twofactor')`)
			u.logout()
			check("login", `!document.getElementById('passkey-login-box').hidden`)
			u.passwordStep()
			check("second-step", `!document.getElementById('passkey-second-box').hidden`)
		})
	}
}
