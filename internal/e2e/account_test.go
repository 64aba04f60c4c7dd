package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/mail/smtptest"
	"github.com/toguz/toguz/internal/server"
)

// mailSetup is setup with an SMTP server in the test's process, which the
// site sends its mail to.
func mailSetup(t *testing.T) (string, *smtptest.Server, func(name string) *user) {
	t.Helper()
	smtp := smtptest.Start(t)
	base, browser, _ := setupWith(t, server.Options{Engines: 1, AnalysisEngines: -1,
		SMTP: mail.SMTPConfig{Host: smtp.Host, Port: smtp.Port, From: "Toguz <noreply@toguz.test>", TLS: mail.TLSNone}})
	return base, smtp, func(name string) *user { return newUser(t, browser, base, name) }
}

// signupWithEmail signs u up through the form with an address.
func (u *user) signupWithEmail(address string) {
	u.t.Helper()
	u.do("sign-up form with an address",
		chromedp.Navigate(u.base+"/signup"),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
		chromedp.SendKeys(chromedp.CSS("#auth-email"), address),
		click(chromedp.CSS("#auth-submit")),
	)
	u.waitFor("the lobby after sign-up", fmt.Sprintf(`(document.getElementById('me-name')||{}).textContent === %q`, u.name), 10*time.Second)
}

// openMailLink opens the link of m that starts with prefix and clicks
// the button of its page when it has one.
func (u *user) openMailLink(m smtptest.Mail, prefix string) {
	u.t.Helper()
	link := m.Link(u.base + prefix)
	if link == "" {
		u.t.Fatalf("no link %s… in the mail %q", prefix, m.Body)
	}
	u.do("opening the mail's link", chromedp.Navigate(link))
}

// hasSession reports whether u's browser is logged in to an account.
func (u *user) hasSession() bool {
	u.t.Helper()
	u.do("the sessions page", chromedp.Navigate(u.base+"/account/security"))
	return eval[bool](u, `!!document.getElementById('session-list')`)
}

// TestSignupEmailVerification: a person signs up with an address, reads
// the mail the site sent and verifies the address by its link.
func TestSignupEmailVerification(t *testing.T) {
	_, smtp, open := mailSetup(t)
	u := open("asel")
	u.signupWithEmail("asel@example.org")
	m := smtp.Take(t, "asel@example.org", 15*time.Second)
	if m.Subject != "Verify your e-mail address" || !strings.Contains(m.Body, "asel") {
		t.Errorf("the mail: %q %q", m.Subject, m.Body)
	}
	u.openMailLink(m, "/account/email/confirm/")
	u.do("confirming", chromedp.WaitVisible(chromedp.CSS("#confirm-submit")), click(chromedp.CSS("#confirm-submit")))
	u.waitFor("the notice", `document.getElementById('account-notice')`, 10*time.Second)
	u.do("the address page", chromedp.Navigate(u.base+"/account/email"))
	u.waitFor("the verified address", `document.getElementById('email-verified') && document.getElementById('email-current').textContent === 'asel@example.org'`, 10*time.Second)
}

// TestPasswordResetByMail: a person who forgot his password follows
// "Forgot your password?" from the login page, gets the link by mail and
// sets a new password; his other browser is logged out.
func TestPasswordResetByMail(t *testing.T) {
	_, smtp, open := mailSetup(t)
	home := open("berik")
	home.signupWithEmail("berik@example.org")
	home.openMailLink(smtp.Take(t, "berik@example.org", 15*time.Second), "/account/email/confirm/")
	home.do("verifying", chromedp.WaitVisible(chromedp.CSS("#confirm-submit")), click(chromedp.CSS("#confirm-submit")))
	home.waitFor("the notice", `document.getElementById('account-notice')`, 10*time.Second)

	away := open("berik")
	away.do("asking for a reset",
		chromedp.Navigate(away.base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#auth-forgot")),
		click(chromedp.CSS("#auth-forgot")),
		chromedp.WaitVisible(chromedp.CSS("#reset-login")),
		chromedp.SendKeys(chromedp.CSS("#reset-login"), "berik@example.org"),
		click(chromedp.CSS("#reset-submit")),
		chromedp.WaitVisible(chromedp.CSS("#reset-sent")),
	)
	m := smtp.Take(t, "berik@example.org", 15*time.Second)
	away.openMailLink(m, "/password/reset/")
	away.do("the new password",
		chromedp.WaitVisible(chromedp.CSS("#reset-password")),
		chromedp.SendKeys(chromedp.CSS("#reset-password"), "a brand new password"),
		click(chromedp.CSS("#reset-save")),
		chromedp.WaitVisible(chromedp.CSS("#reset-done")),
		click(chromedp.CSS("#reset-login-link")),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), "berik"),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "a brand new password"),
		click(chromedp.CSS("#auth-submit")),
	)
	away.waitFor("logged in with the new password", `(document.getElementById('me-name')||{}).textContent === 'berik'`, 10*time.Second)
	if home.hasSession() {
		t.Error("the other browser is still logged in after the reset")
	}
	// The link works once.
	away.openMailLink(m, "/password/reset/")
	away.waitFor("the used link refused", `document.getElementById('form-error')`, 10*time.Second)
}

// TestSessionRevoke: from the sessions page, a person ends the session of
// his other browser, which is logged out.
func TestSessionRevoke(t *testing.T) {
	_, _, open := mailSetup(t)
	a := open("dana")
	a.signup()
	b := open("dana")
	b.login()
	a.do("the sessions page", chromedp.Navigate(a.base+"/account/security"))
	a.waitFor("two sessions", `document.querySelectorAll('#session-list li').length === 2`, 10*time.Second)
	a.do("ending the other session", click(chromedp.CSS(`#session-list li:not(.current) .session-revoke`)))
	a.waitFor("one session left", `document.getElementById('account-notice') && document.querySelectorAll('#session-list li').length === 1`, 10*time.Second)
	if b.hasSession() {
		t.Error("the ended session still works")
	}
	if !a.hasSession() {
		t.Error("the page's own session ended")
	}
}
