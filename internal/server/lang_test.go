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
