package server

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

var (
	secretRe   = regexp.MustCompile(`id="totp-secret">([A-Z2-7]+)<`)
	recoveryRe = regexp.MustCompile(`<li><code>([a-z2-7]{5}-[a-z2-7]{5})</code></li>`)
	ticketRe   = regexp.MustCompile(`name="ticket" value="([^"]+)"`)
)

// TestTwoFactorLogin: an account turns TOTP on through its page; then
// neither the login form nor POST /api/login starts a session after the
// password alone, and the second step (a TOTP or recovery code with the
// ticket) does, once.
func TestTwoFactorLogin(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	s.signup("Aigul")
	c := s.browser()
	if code, loc, _ := postForm(t, c, s.URL+"/login", url.Values{"name": {"Aigul"}, "password": {"correct horse"}}); code != 303 || loc != "/" {
		t.Fatalf("login without a second factor: %d %s", code, loc)
	}
	code, body := get(t, c, s.URL+"/account/twofactor")
	if code != 200 || !strings.Contains(body, `id="setup-form"`) {
		t.Fatalf("GET /account/twofactor: %d", code)
	}
	if code, _, body := postForm(t, c, s.URL+"/account/twofactor/setup", url.Values{"password": {"wrong one"}}); code != 401 || secretRe.MatchString(body) {
		t.Errorf("setup with a wrong password: %d", code)
	}
	_, _, body = postForm(t, c, s.URL+"/account/twofactor/setup", url.Values{"password": {"correct horse"}})
	m := secretRe.FindStringSubmatch(body)
	if m == nil || !strings.Contains(body, `src="data:image/png;base64,`) {
		t.Fatalf("the setup page shows no secret or no QR code:\n%s", body)
	}
	secret := m[1]
	now, _ := totp.GenerateCode(secret, time.Now())
	code, _, body = postForm(t, c, s.URL+"/account/twofactor/confirm", url.Values{"code": {now}})
	var recovery []string
	for _, m := range recoveryRe.FindAllStringSubmatch(body, -1) {
		recovery = append(recovery, m[1])
	}
	if code != 200 || len(recovery) != 10 || !strings.Contains(body, `id="twofactor-on"`) {
		t.Fatalf("confirm: %d, %d recovery codes", code, len(recovery))
	}
	if _, body := get(t, c, s.URL+"/account/twofactor"); recoveryRe.MatchString(body) {
		t.Error("the recovery codes are shown again")
	}

	// The API: the password gives a ticket, no token.
	code, a := s.do("POST", "/api/login", "", map[string]any{"name": "Aigul", "password": "correct horse"})
	ticket, _ := a["ticket"].(string)
	if code != 200 || a["second_factor"] != true || ticket == "" || a["token"] != nil {
		t.Fatalf("/api/login with a second factor: %d %v", code, a)
	}
	if code, a := s.do("POST", "/api/login/twofactor", "", map[string]any{"ticket": ticket, "code": "000000"}); code != 401 {
		t.Errorf("a wrong code: %d %v", code, a)
	}
	code, a = s.do("POST", "/api/login/twofactor", "", map[string]any{"ticket": ticket, "code": recovery[0]})
	token, _ := a["token"].(string)
	if code != 200 || token == "" || a["name"] != "Aigul" {
		t.Fatalf("a recovery code: %d %v", code, a)
	}
	if code, a := s.do("GET", "/api/me", token, nil); code != 200 || a["name"] != "Aigul" {
		t.Errorf("me after the second step: %d %v", code, a)
	}
	if code, a := s.do("GET", "/api/account/twofactor", token, nil); code != 200 || a["totp"] != true || a["recovery_codes_left"] != 9.0 {
		t.Errorf("the status after a recovery code: %d %v", code, a)
	}
	if code, _ := s.do("POST", "/api/login/twofactor", "", map[string]any{"ticket": ticket, "code": recovery[1]}); code != 401 {
		t.Errorf("the ticket twice: %d, want 401", code)
	}
	_, a = s.do("POST", "/api/login", "", map[string]any{"name": "Aigul", "password": "correct horse"})
	if code, _ := s.do("POST", "/api/login/twofactor", "", map[string]any{"ticket": a["ticket"], "code": recovery[0]}); code != 401 {
		t.Errorf("a recovery code twice: %d, want 401", code)
	}

	// The page: the password's answer is the second step, with no session.
	d := s.browser()
	code, _, body = postForm(t, d, s.URL+"/login", url.Values{"name": {"Aigul"}, "password": {"correct horse"}})
	tm := ticketRe.FindStringSubmatch(body)
	if code != 200 || tm == nil || !strings.Contains(body, `id="second-code"`) {
		t.Fatalf("the login form with a second factor: %d\n%s", code, body)
	}
	u, _ := url.Parse(s.URL)
	for _, ck := range d.Jar.Cookies(u) {
		if ck.Name == cookieName {
			t.Fatalf("a session cookie before the second step: %v", ck)
		}
	}
	code, _, body = postForm(t, d, s.URL+"/login/twofactor", url.Values{"ticket": {tm[1]}, "code": {"000000"}})
	if code != 401 || !strings.Contains(body, `id="form-error"`) || !strings.Contains(body, tm[1]) {
		t.Errorf("a wrong code on the page: %d, want 401 and the form again", code)
	}
	code, loc, _ := postForm(t, d, s.URL+"/login/twofactor", url.Values{"ticket": {tm[1]}, "code": {recovery[2]}})
	if code != 303 || loc != "/" {
		t.Fatalf("the right code on the page: %d %s", code, loc)
	}
	if code, body := get(t, d, s.URL+"/settings"); code != 200 || !strings.Contains(body, `href="/account/twofactor"`) {
		t.Errorf("logged in after the second step: /settings %d", code)
	}

	// Turning it off needs the password or a code.
	if code, _, _ := postForm(t, d, s.URL+"/account/twofactor/disable", url.Values{"password": {"wrong"}}); code == 200 {
		t.Error("disabled with a wrong password")
	}
	if code, _, body := postForm(t, d, s.URL+"/account/twofactor/disable", url.Values{"password": {"correct horse"}}); code != 200 || !strings.Contains(body, `id="setup-form"`) {
		t.Errorf("disable with the password: %d", code)
	}
	if code, a := s.do("POST", "/api/login", "", map[string]any{"name": "Aigul", "password": "correct horse"}); code != 200 || a["token"] == nil {
		t.Errorf("login after disabling: %d %v", code, a)
	}
}

// TestTwoFactorPagesNeedAccount: the security pages send a visitor to the
// login, and their API refuses him and guests.
func TestTwoFactorPagesNeedAccount(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	for _, p := range []string{"/account/twofactor", "/account/passkeys"} {
		resp, err := c.Get(s.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/login" {
			t.Errorf("GET %s as nobody: %d %s", p, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	for _, token := range []string{"", s.guest()} {
		if code, _ := s.do("POST", "/api/account/passkeys", token, map[string]any{"password": "x"}); code != 401 {
			t.Errorf("begin a passkey as %q: %d, want 401", token, code)
		}
		if code, _ := s.do("GET", "/api/account/twofactor", token, nil); code != 401 {
			t.Errorf("status as %q: %d, want 401", token, code)
		}
	}
	// Another user's passkey cannot be removed.
	owner := s.signup("Owner")
	if code, _ := s.do("DELETE", "/api/account/passkeys/1", owner, nil); code != 404 {
		t.Errorf("removing a passkey that is not his: %d, want 404", code)
	}
	if code, a := s.do("POST", "/api/account/passkeys", owner, map[string]any{"password": "wrong one"}); code != 401 {
		t.Errorf("a passkey begun with a wrong password: %d %v", code, a)
	}
	// The test server is reached at 127.0.0.1: WebAuthn needs a domain
	// (the browser tests use localhost).
	if code, a := s.do("POST", "/api/account/passkeys", owner, map[string]any{"password": "correct horse"}); code != 400 {
		t.Errorf("a passkey begun at an IP address: %d %v, want 400", code, a)
	}
}
