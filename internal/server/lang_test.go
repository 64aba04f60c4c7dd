package server

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestLocalPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/game/abc?x=1", "/game/abc?x=1"},
		{"", "/"},
		{"https://evil.example/", "/"},
		{"//evil.example/", "/"},
		{`/\evil.example`, "/"},
		{"game", "/"},
		{"/@/ali", "/@/ali"},
	} {
		if got := localPath(tc.in); got != tc.want {
			t.Errorf("localPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestLanguageChoice: Accept-Language chooses the first default; the
// switcher's cookie wins over it afterwards.
func TestLanguageChoice(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(cookie, accept string) string {
		req, _ := http.NewRequest("GET", s.URL+"/leaderboard", nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: langCookie, Value: cookie})
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body := string(b)
		i := strings.Index(body, `<html lang="`)
		return body[i+12 : i+12+strings.Index(body[i+12:], `"`)]
	}
	if got := get("", "ru-RU,ru;q=0.9"); got != "ru" {
		t.Errorf("Accept-Language ru: page in %s", got)
	}
	if got := get("kk-Latn", "ru-RU"); got != "kk-Latn" {
		t.Errorf("cookie kk-Latn, Accept-Language ru: page in %s", got)
	}
	if got := get("xx", "ky"); got != "ky" {
		t.Errorf("bad cookie, Accept-Language ky: page in %s", got)
	}

	resp, err := client.PostForm(s.URL+"/lang", url.Values{"lang": {"kk"}, "back": {"/leaderboard"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/leaderboard" {
		t.Fatalf("POST /lang: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if c := resp.Cookies(); len(c) != 1 || c[0].Name != langCookie || c[0].Value != "kk" {
		t.Errorf("POST /lang set cookies %v", c)
	}

	resp, err = client.PostForm(s.URL+"/lang", url.Values{"lang": {"de"}, "back": {"/"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `&#34;de&#34;`) {
		t.Errorf("POST /lang de: %d %s", resp.StatusCode, b)
	}
}

// TestLoginKeepsBrowserLanguage: a login keeps the language chosen on the
// browser (no new cookie), stores it on an account that has none, and
// leaves an account's own choice alone; a browser without a choice takes
// the account's.
func TestLoginKeepsBrowserLanguage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	for _, name := range []string{"aigul", "bolat"} {
		if code, m := s.do("POST", "/api/signup", "", map[string]any{"name": name, "password": "correct horse"}); code != http.StatusCreated {
			t.Fatalf("signup %s: %d %v", name, code, m)
		}
	}
	aigul, err := s.st.UserByName(t.Context(), "aigul")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.SetLang(t.Context(), aigul.ID, "ky"); err != nil {
		t.Fatal(err)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	login := func(name, cookie string) (set string) {
		t.Helper()
		req, _ := http.NewRequest("POST", s.URL+"/login", strings.NewReader(url.Values{"name": {name}, "password": {"correct horse"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: langCookie, Value: cookie})
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("login %s: %d", name, resp.StatusCode)
		}
		for _, c := range resp.Cookies() {
			if c.Name == langCookie {
				set = c.Value
			}
		}
		return set
	}
	accountLang := func(name string) string {
		u, err := s.st.UserByName(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		return u.Lang
	}
	if set := login("aigul", "kk"); set != "" {
		t.Errorf("login with the cookie kk, account's ky: the cookie set to %q, want it kept", set)
	}
	if got := accountLang("aigul"); got != "ky" {
		t.Errorf("the account's own choice became %q, want ky kept", got)
	}
	if set := login("aigul", ""); set != "ky" {
		t.Errorf("login without a cookie: set %q, want the account's ky", set)
	}
	if got := accountLang("bolat"); got != "" {
		t.Fatalf("bolat chose %q before any choice", got)
	}
	if set := login("bolat", "ru"); set != "" {
		t.Errorf("login with the cookie ru, account without a choice: the cookie set to %q", set)
	}
	if got := accountLang("bolat"); got != "ru" {
		t.Errorf("account without a choice logged in with ru: its language %q, want ru", got)
	}
}

// TestAuthFormsWhileLoggedIn: someone logged in sees who he is on the
// sign-up and login pages, and a form posted anyway (409) leaves his
// session: no new session cookie, no new account.
func TestAuthFormsWhileLoggedIn(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	code, m := s.do("POST", "/api/signup", "", map[string]any{"name": "aigul", "password": "correct horse"})
	if code != http.StatusCreated {
		t.Fatalf("signup: %d %v", code, m)
	}
	tok := m["token"].(string)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, mode := range []string{"signup", "login"} {
		req, _ := http.NewRequest("GET", s.URL+"/"+mode, nil)
		req.AddCookie(&http.Cookie{Name: cookieName, Value: tok})
		req.AddCookie(&http.Cookie{Name: langCookie, Value: "en"})
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), "You are logged in as aigul.") || strings.Contains(string(b), `id="auth-form"`) {
			t.Errorf("GET /%s logged in: %d, no notice or the form shown", mode, resp.StatusCode)
		}
		req, _ = http.NewRequest("POST", s.URL+"/"+mode, strings.NewReader(url.Values{"name": {"bolat"}, "password": {"correct horse"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(&http.Cookie{Name: cookieName, Value: tok})
		if resp, err = client.Do(req); err != nil {
			t.Fatal(err)
		}
		b, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusConflict || !strings.Contains(string(b), `id="auth-current"`) {
			t.Errorf("POST /%s logged in: %d, want 409 and the notice", mode, resp.StatusCode)
		}
		for _, c := range resp.Cookies() {
			if c.Name == cookieName {
				t.Errorf("POST /%s logged in set the session cookie", mode)
			}
		}
	}
	if _, err := s.st.UserByName(t.Context(), "bolat"); err == nil {
		t.Error("the sign-up posted while logged in made an account")
	}
}
