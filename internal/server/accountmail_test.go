package server

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/mail"
	"github.com/toguz/toguz/internal/mail/smtptest"
	"github.com/toguz/toguz/internal/store"
)

// mailSite is the whole server (StartLocal) with an SMTP server in the
// test's process, and its store opened beside it for the checks.
type mailSite struct {
	t    *testing.T
	l    *Local
	smtp *smtptest.Server
	st   *store.Store
}

func startMailSite(t *testing.T, mutate func(*Options)) *mailSite {
	t.Helper()
	srv := smtptest.Start(t)
	opts := Options{DB: filepath.Join(t.TempDir(), "toguz.db"), Engines: 1, AnalysisEngines: -1, ReviewWorkers: -1,
		SMTP: mail.SMTPConfig{Host: srv.Host, Port: srv.Port, From: "Toguz <noreply@toguz.test>", TLS: mail.TLSNone}}
	opts.WritesPerSecond, opts.WriteBurst = 1e6, 1e6
	if mutate != nil {
		mutate(&opts)
	}
	l, err := StartLocal(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return &mailSite{t: t, l: l, smtp: srv, st: l.app.Store}
}

// browser is a client with its own cookies and User-Agent.
type browser struct {
	s  *mailSite
	c  *http.Client
	ua string
}

func (s *mailSite) browser(ua string) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{s: s, ua: ua, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(method, path string, form url.Values) (int, string, http.Header) {
	b.s.t.Helper()
	u := path
	if !strings.HasPrefix(path, "http") {
		u = b.s.l.URL + path
	}
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, u, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("User-Agent", b.ua)
	req.Header.Set("Accept-Language", "en")
	resp, err := b.c.Do(req)
	if err != nil {
		b.s.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), resp.Header
}

func (b *browser) post(path string, kv ...string) (int, string, http.Header) {
	b.s.t.Helper()
	f := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		f.Add(kv[i], kv[i+1])
	}
	return b.do("POST", path, f)
}

func (b *browser) get(path string) (int, string) {
	b.s.t.Helper()
	code, body, _ := b.do("GET", path, nil)
	return code, body
}

// loggedIn reports whether the browser's session names an account.
func (b *browser) loggedIn() bool {
	code, _ := b.get("/account/security")
	return code == http.StatusOK
}

const (
	firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
	android = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
)

// signUp signs name up with address ("": none) and, with one, verifies it
// by the link mailed.
func (s *mailSite) signUp(b *browser, name, address string) {
	s.t.Helper()
	code, body, _ := b.post("/signup", "name", name, "password", "long enough", "email", address)
	if code != http.StatusSeeOther {
		s.t.Fatalf("sign-up of %s: %d %s", name, code, body)
	}
	if address == "" {
		return
	}
	m := s.smtp.Take(s.t, address, 10*time.Second)
	link := m.Link(s.l.URL + "/account/email/confirm/")
	if link == "" || !strings.Contains(m.Body, name) {
		s.t.Fatalf("verification mail without a link: %+v", m)
	}
	if code, body := b.get(link); code != http.StatusOK || !strings.Contains(body, `id="confirm-form"`) {
		s.t.Fatalf("the link's page: %d", code)
	}
	// Opening the link changed nothing: a mail scanner cannot verify.
	u, _ := s.st.UserByName(s.t.Context(), name)
	if e, _ := s.st.EmailOf(s.t.Context(), u.ID); !e.Verified.IsZero() {
		s.t.Fatal("opening the link verified the address")
	}
	if code, body, _ := b.post(strings.TrimPrefix(link, s.l.URL)); code != http.StatusOK || !strings.Contains(body, "verified") {
		s.t.Fatalf("confirming: %d %s", code, body)
	}
	if e, _ := s.st.EmailOf(s.t.Context(), u.ID); e.Verified.IsZero() {
		s.t.Fatal("the address is not verified")
	}
}

func TestResetByMail(t *testing.T) {
	s := startMailSite(t, nil)
	b := s.browser(firefox)
	s.signUp(b, "abai", "abai@example.org")
	other := s.browser(android)
	if code, _, _ := other.post("/login", "name", "abai", "password", "long enough"); code != http.StatusSeeOther {
		t.Fatalf("login: %d", code)
	}
	s.smtp.Take(t, "abai@example.org", 10*time.Second) // the new device's notice
	anon := s.browser(firefox)
	if code, body, _ := anon.post("/password/reset", "login", "ABAI@example.org"); code != http.StatusOK || !strings.Contains(body, `id="reset-sent"`) {
		t.Fatalf("reset request: %d", code)
	}
	m := s.smtp.Take(t, "abai@example.org", 10*time.Second)
	link := m.Link(s.l.URL + "/password/reset/")
	if link == "" || m.Subject != "Reset your password" {
		t.Fatalf("reset mail: %+v", m)
	}
	path := strings.TrimPrefix(link, s.l.URL)
	if code, body, _ := anon.post(path, "password", "short"); code != http.StatusBadRequest || !strings.Contains(body, "at least 8") {
		t.Errorf("a short new password: %d", code)
	}
	if code, body, _ := anon.post(path, "password", "a new password"); code != http.StatusOK || !strings.Contains(body, `id="reset-done"`) {
		t.Fatalf("reset: %d %s", code, body)
	}
	// Single use; every session ended; the new password works, the old not.
	if code, _, _ := anon.post(path, "password", "another password"); code != http.StatusNotFound {
		t.Errorf("the link used again: %d", code)
	}
	if b.loggedIn() || other.loggedIn() {
		t.Error("a session outlived the reset")
	}
	if code, _, _ := anon.post("/login", "name", "abai", "password", "long enough"); code != http.StatusUnauthorized {
		t.Errorf("the old password: %d", code)
	}
	if code, _, _ := anon.post("/login", "name", "abai", "password", "a new password"); code != http.StatusSeeOther {
		t.Errorf("the new password: %d", code)
	}
	s.smtp.Take(t, "abai@example.org", 10*time.Second) // the notice of the change
	// A forged link (no valid signature) and a made-up one are refused alike.
	for _, bad := range []string{"/password/reset/abc", "/password/reset/" + strings.Repeat("A", 32) + "." + strings.Repeat("B", 22)} {
		if code, _ := anon.get(bad); code != http.StatusNotFound {
			t.Errorf("GET %s: %d", bad, code)
		}
	}
}

// TestNoEnumeration: the reset form, the login and the sign-up's address
// answer alike whether a name or an address has an account.
func TestNoEnumeration(t *testing.T) {
	s := startMailSite(t, nil)
	b := s.browser(firefox)
	s.signUp(b, "abai", "abai@example.org")
	s.signUp(s.browser(firefox), "bolat", "")
	anon := s.browser(firefox)
	var first string
	for _, login := range []string{"abai", "bolat", "nobody", "abai@example.org", "nobody@example.org"} {
		code, body, _ := anon.post("/password/reset", "login", login)
		if code != http.StatusOK {
			t.Errorf("reset %q: %d", login, code)
		}
		if first == "" {
			first = body
		} else if body != first {
			t.Errorf("reset %q answered another page", login)
		}
	}
	var wrong string
	for _, name := range []string{"abai", "nobody"} {
		code, body, _ := anon.post("/login", "name", name, "password", "wrong password")
		if code != http.StatusUnauthorized {
			t.Errorf("login %q: %d", name, code)
		}
		body = strings.ReplaceAll(body, name, "NAME")
		if wrong == "" {
			wrong = body
		} else if body != wrong {
			t.Errorf("a wrong login of %q answered another page", name)
		}
	}
	// An address in use is no obstacle to a sign-up (nor a sign of it).
	if code, body, _ := s.browser(firefox).post("/signup", "name", "chingiz", "password", "long enough", "email", "abai@example.org"); code != http.StatusSeeOther {
		t.Errorf("sign-up with an address in use: %d %s", code, body)
	}
	if code, body, _ := s.browser(firefox).post("/signup", "name", "dauren", "password", "long enough", "email", "not an address"); code != http.StatusBadRequest || !strings.Contains(body, "not an e-mail address") {
		t.Errorf("sign-up with a bad address: %d", code)
	}
}

// TestLinkBounds: at most linksPerHour links an hour for one account, and
// for one address, however many requests.
func TestLinkBounds(t *testing.T) {
	s := startMailSite(t, nil)
	s.signUp(s.browser(firefox), "abai", "abai@example.org")
	s.signUp(s.browser(firefox), "sentinel", "sentinel@example.org")
	anon := s.browser(firefox)
	for range 5 {
		anon.post("/password/reset", "login", "abai")
	}
	// The worker takes the requests in order: the sentinel's mail comes
	// after every request before it was handled.
	anon.post("/password/reset", "login", "sentinel")
	s.smtp.Take(t, "sentinel@example.org", 10*time.Second)
	ctx := t.Context()
	u, _ := s.st.UserByName(ctx, "abai")
	// The verification link, used, is gone: three resets of five.
	if n, _ := s.st.CountAccountLinks(ctx, u.ID, "", time.Now().Add(-time.Hour)); n != 3 {
		t.Errorf("%d links for one account in an hour, want 3", n)
	}
	got := 0
	for _, m := range s.smtp.Mails() {
		if m.To[0] == "abai@example.org" && m.Subject == "Reset your password" {
			got++
		}
	}
	if got != 3 {
		t.Errorf("%d reset mails, want 3", got)
	}
	// Per client address: the 11th request in an hour is refused.
	ips := s.browser(firefox)
	var last int
	for range 11 {
		last, _, _ = ips.post("/password/reset", "login", "nobody")
	}
	if last != http.StatusOK && last != http.StatusTooManyRequests {
		t.Errorf("status %d", last)
	}
	if last != http.StatusTooManyRequests {
		t.Errorf("11 reset requests from one address: the last answered %d, want 429", last)
	}
}

func TestSessionsPage(t *testing.T) {
	s := startMailSite(t, nil)
	a := s.browser(firefox)
	s.signUp(a, "abai", "abai@example.org")
	b := s.browser(android)
	if code, _, _ := b.post("/login", "name", "abai", "password", "long enough"); code != http.StatusSeeOther {
		t.Fatal("login")
	}
	// A login from a device the account never used is mailed.
	m := s.smtp.Take(t, "abai@example.org", 10*time.Second)
	if m.Subject != "A login from a new device" || !strings.Contains(m.Body, "Chrome / Android") || !strings.Contains(m.Body, "/account/security") {
		t.Errorf("new-device mail: %+v", m)
	}
	code, body := a.get("/account/security")
	if code != http.StatusOK || !strings.Contains(body, "Firefox / Linux") || !strings.Contains(body, "Chrome / Android") || !strings.Contains(body, "127.0.0.1") {
		t.Fatalf("sessions page: %d %s", code, body)
	}
	ids := regexp.MustCompile(`id="session-([0-9a-f]{16})"( class="current")?`).FindAllStringSubmatch(body, -1)
	if len(ids) != 2 {
		t.Fatalf("sessions listed: %v", ids)
	}
	var theirs string
	for _, m := range ids {
		if m[2] == "" {
			theirs = m[1]
		}
	}
	// Another user cannot end abai's session.
	c := s.browser(firefox)
	s.signUp(c, "bolat", "")
	if code, _, _ := c.post("/account/security/revoke", "session", theirs); code != http.StatusNotFound {
		t.Errorf("another user's revoke: %d", code)
	}
	if !b.loggedIn() {
		t.Fatal("the session ended by another user")
	}
	if code, _, _ := a.post("/account/security/revoke", "session", theirs); code != http.StatusSeeOther {
		t.Errorf("revoke: %d", code)
	}
	if b.loggedIn() || !a.loggedIn() {
		t.Error("revoke ended the wrong session")
	}
	// End every other session; then a password change ends the others too.
	b.post("/login", "name", "abai", "password", "long enough")
	a.post("/account/security/revoke-all")
	if b.loggedIn() || !a.loggedIn() {
		t.Error("log out everywhere else")
	}
	b.post("/login", "name", "abai", "password", "long enough")
	if code, body, _ := a.post("/account/passwd", "current", "wrong password", "password", "a new password"); code != http.StatusUnauthorized || !strings.Contains(body, "current password is wrong") {
		t.Errorf("a change with a wrong password: %d", code)
	}
	if code, _, _ := a.post("/account/passwd", "current", "long enough", "password", "a new password"); code != http.StatusOK {
		t.Errorf("change: %d", code)
	}
	if b.loggedIn() || !a.loggedIn() {
		t.Error("a password change must end every other session and keep this one")
	}
	// The JSON list, and DELETE of one: another user's is not found.
	b.post("/login", "name", "abai", "password", "a new password")
	code, body = a.get("/api/account/sessions")
	if code != http.StatusOK || !strings.Contains(body, `"current":true`) || !strings.Contains(body, `"current":false`) {
		t.Fatalf("GET /api/account/sessions: %d %s", code, body)
	}
	other := regexp.MustCompile(`"id":"([0-9a-f]{16})","device":"[^"]*","address":"[^"]*","last_seen":"[^"]*","created":"[^"]*","current":false`).FindStringSubmatch(body)
	if other == nil {
		t.Fatalf("no other session in %s", body)
	}
	if code, _, _ := c.do("DELETE", "/api/account/sessions/"+other[1], nil); code != http.StatusNotFound {
		t.Errorf("another user's DELETE: %d", code)
	}
	if code, _, _ := a.do("DELETE", "/api/account/sessions/"+other[1], nil); code != http.StatusNoContent || b.loggedIn() {
		t.Errorf("DELETE: %d", code)
	}
}

func TestEmailChange(t *testing.T) {
	s := startMailSite(t, nil)
	a := s.browser(firefox)
	s.signUp(a, "abai", "old@example.org")
	if code, _, _ := a.post("/account/email", "email", "new@example.org", "password", "wrong password"); code != http.StatusUnauthorized {
		t.Errorf("a change without the password: %d", code)
	}
	if code, _, _ := a.post("/account/email", "email", "new@example.org", "password", "long enough"); code != http.StatusSeeOther {
		t.Fatalf("change: %d", code)
	}
	toNew := s.smtp.Take(t, "new@example.org", 10*time.Second)
	toOld := s.smtp.Take(t, "old@example.org", 10*time.Second)
	u, _ := s.st.UserByName(t.Context(), "abai")
	anon := s.browser(firefox) // a link works from any browser
	if code, _, _ := anon.post(strings.TrimPrefix(toNew.Link(s.l.URL), s.l.URL)); code != http.StatusOK {
		t.Fatalf("the new address's confirmation: %d", code)
	}
	if e, _ := s.st.EmailOf(t.Context(), u.ID); e.Address != "old@example.org" {
		t.Fatalf("changed on the new address's word alone: %+v", e)
	}
	if code, body, _ := anon.post(strings.TrimPrefix(toOld.Link(s.l.URL), s.l.URL)); code != http.StatusOK || !strings.Contains(body, "is changed") {
		t.Fatalf("the old address's confirmation: %d", code)
	}
	if e, _ := s.st.EmailOf(t.Context(), u.ID); e.Address != "new@example.org" || e.Verified.IsZero() {
		t.Errorf("after both: %+v", e)
	}
	// Removing it asks the password.
	if code, _, _ := a.post("/account/email/remove", "password", "wrong password"); code != http.StatusUnauthorized {
		t.Errorf("removal without the password: %d", code)
	}
	if code, _, _ := a.post("/account/email/remove", "password", "long enough"); code != http.StatusSeeOther {
		t.Errorf("removal: %d", code)
	}
	if _, err := s.st.EmailOf(t.Context(), u.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the removal: %v", err)
	}
}

func TestCookiesAndHSTS(t *testing.T) {
	for _, secure := range []bool{false, true} {
		s := startMailSite(t, func(o *Options) { o.SecureCookies = secure; o.SMTP = mail.SMTPConfig{} })
		b := s.browser(firefox)
		_, _, h := b.post("/signup", "name", "abai", "password", "long enough")
		first := h.Get("Set-Cookie")
		for _, want := range []string{"toguz_session=", "HttpOnly", "SameSite=Lax"} {
			if !strings.Contains(first, want) {
				t.Errorf("secure=%v: Set-Cookie %q lacks %s", secure, first, want)
			}
		}
		if strings.Contains(first, "Secure") != secure {
			t.Errorf("secure=%v: Set-Cookie %q", secure, first)
		}
		if (h.Get("Strict-Transport-Security") != "") != secure {
			t.Errorf("secure=%v: HSTS %q", secure, h.Get("Strict-Transport-Security"))
		}
		// A login starts a new session: the token is never the one before.
		b.post("/logout")
		_, _, h = b.post("/login", "name", "abai", "password", "long enough")
		if second := h.Get("Set-Cookie"); second == "" || second == first {
			t.Errorf("the session token was not rotated at login: %q", second)
		}
		// Without mail the reset page says what to do.
		if _, body := b.get("/password/reset"); !strings.Contains(body, `id="mail-off"`) {
			t.Error("the reset page does not say that mail is off")
		}
	}
}

// TestRedirectsStayLocal: every redirect parameter goes only to a path of this site.
func TestRedirectsStayLocal(t *testing.T) {
	tests := []struct{ back, want string }{
		{"/settings", "/settings"},
		{"/game/abc?x=1", "/game/abc?x=1"},
		{"", "/"},
		{"https://evil.example/", "/"},
		{"//evil.example/", "/"},
		{"/\\evil.example", "/"},
		{"\\\\evil.example", "/"},
		{"javascript:alert(1)", "/"},
		{"/%2F%2Fevil.example", "/%2F%2Fevil.example"},
		{"/\t/evil.example", "/"},
		{"evil.example", "/"},
	}
	for _, tt := range tests {
		if got := localPath(tt.back); got != tt.want {
			t.Errorf("localPath(%q) = %q, want %q", tt.back, got, tt.want)
		}
	}
}

// TestMailNeverBlocks: with an SMTP server that accepts connections and
// never answers, sign-up and the reset still answer at once; the mail
// waits in the queue.
func TestMailNeverBlocks(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent, until the test ends
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	s := startMailSite(t, func(o *Options) { o.SMTP.Host, o.SMTP.Port = "127.0.0.1", port })
	b := s.browser(firefox)
	b.c.Timeout = 10 * time.Second // far below the SMTP client's 30 s
	if code, body, _ := b.post("/signup", "name", "abai", "password", "long enough", "email", "abai@example.org"); code != http.StatusSeeOther {
		t.Fatalf("sign-up: %d %s", code, body)
	}
	if code, _, _ := b.post("/password/reset", "login", "abai"); code != http.StatusOK {
		t.Fatalf("reset: %d", code)
	}
	if n, err := s.st.MailQueueLen(t.Context()); err != nil || n != 1 {
		t.Errorf("MailQueueLen = %d, %v; want the verification mail queued", n, err)
	}
}
