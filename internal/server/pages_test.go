package server

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/shareddata"
)

// browser is an HTTP client with a cookie jar that does not follow
// redirects, like a browser's form posts seen one at a time.
func (s *testServer) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, u string) (int, string) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func postForm(t *testing.T, c *http.Client, u string, v url.Values) (int, string, string) {
	t.Helper()
	resp, err := c.PostForm(u, v)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// TestPages renders every page, follows the form flows (sign-up, seek,
// challenge by link, engine game, position editor) and checks the security
// headers.
func TestPages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	alice, bob := s.browser(), s.browser()
	for _, p := range []string{"/", "/signup", "/login", "/editor", "/import", "/leaderboard", "/leaderboard?category=rapid"} {
		code, body := get(t, alice, s.URL+p)
		if code != 200 || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d", p, code)
		}
	}
	resp, _ := alice.Get(s.URL + "/")
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
	resp.Body.Close()
	if code, _ := get(t, alice, s.URL+"/nowhere"); code != 404 {
		t.Errorf("unknown page: %d", code)
	}
	if code, body := get(t, alice, s.URL+"/static/board.js"); code != 200 || !strings.Contains(body, "WebSocket") {
		t.Errorf("board.js: %d", code)
	}

	code, loc, _ := postForm(t, alice, s.URL+"/signup", url.Values{"name": {"alice"}, "password": {"alice password"}})
	if code != 303 || loc != "/" {
		t.Fatalf("signup form: %d %s", code, loc)
	}
	if _, body := get(t, alice, s.URL+"/"); !strings.Contains(body, `href="/@/alice"`) {
		t.Error("the lobby does not show alice logged in")
	}
	code, _, body := postForm(t, bob, s.URL+"/signup", url.Values{"name": {"1bob"}, "password": {"bob password"}})
	if code != 400 || !strings.Contains(body, "must start with a letter") {
		t.Errorf("bad signup form: %d", code)
	}

	// A challenge by link: alice creates it, bob (a guest) opens the link
	// and accepts; both land on the game.
	code, loc, _ = postForm(t, alice, s.URL+"/lobby/seek", url.Values{"tc": {"5+3"}, "color": {"white"}, "private": {"1"}})
	if code != 303 || !strings.HasPrefix(loc, "/challenge/") {
		t.Fatalf("seek form: %d %s", code, loc)
	}
	if _, body := get(t, alice, s.URL+loc); !strings.Contains(body, "challenge-url") {
		t.Error("the creator's challenge page has no link to share")
	}
	if _, body := get(t, bob, s.URL+loc); !strings.Contains(body, "challenge-accept") {
		t.Error("the challenge page has no accept button")
	}
	code, gameLoc, _ := postForm(t, bob, s.URL+loc, nil)
	if code != 303 || !strings.HasPrefix(gameLoc, "/game/") {
		t.Fatalf("accept: %d %s", code, gameLoc)
	}
	if code, loc2, _ := postForm(t, alice, s.URL+loc, nil); code == 303 {
		t.Errorf("a taken challenge was accepted again: %s", loc2)
	}
	if code, loc2 := func() (int, string) {
		r, _ := alice.Get(s.URL + loc)
		r.Body.Close()
		return r.StatusCode, r.Header.Get("Location")
	}(); code != 303 || loc2 != gameLoc {
		t.Errorf("the creator's link does not lead to the game: %d %s", code, loc2)
	}
	code, body = get(t, bob, s.URL+gameLoc)
	if code != 200 || !strings.Contains(body, `data-mode="live"`) || !strings.Contains(body, "qandyqaqpan") { // the hole names, in Latin script for English
		t.Errorf("game page: %d", code)
	}

	// The engine from the editor, and a bad position refused with the reason.
	editor := url.Values{"from": {"editor"}, "level": {"1"}, "color": {"white"}, "turn": {"white"}}
	for h := 1; h <= 9; h++ {
		editor.Set("w"+string(rune('0'+h)), "9")
		editor.Set("b"+string(rune('0'+h)), "9")
	}
	editor.Set("w1", "8")
	code, _, body = postForm(t, bob, s.URL+"/lobby/engine", editor)
	if code != 400 || !strings.Contains(body, "161 stones in all, want 162") {
		t.Errorf("161 stones: %d", code)
	}
	editor.Set("w1", "0")
	editor.Set("kw", "9")
	code, loc, _ = postForm(t, bob, s.URL+"/lobby/engine", editor)
	if code != 303 || !strings.HasPrefix(loc, "/game/") {
		t.Errorf("editor position: %d %s", code, loc)
	}

	// A cross-origin form post is refused.
	req, _ := http.NewRequest("POST", s.URL+"/lobby/seek", strings.NewReader("tc=5%2B3"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if resp, err := alice.Do(req); err != nil || resp.StatusCode != 403 {
		t.Errorf("cross-origin post: %v %v", err, resp.StatusCode)
	}
}

// TestImport: the import page reads every record format and shows a clear
// error naming the line for a bad file.
func TestImport(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	tgk := shareddata.Read(t, "master-app-sample.tgk")
	for _, tc := range []struct {
		name, text string
		code       int
		want       string
	}{
		{"tgk", string(tgk), 200, `id="import-ok"`},
		{"playstrategy", "f1e2 d2e1 i1a2 b2i1 b1g2 f2e1", 200, `id="import-ok"`},
		{"ours", "[Ruleset \"standard\"]\n[Result \"*\"]\n\n1. 76 98 *\n", 200, `id="import-ok"`},
		{"illegal move", "[Result \"*\"]\n\n1. 76 76 2. 77 *\n", 400, "import-error"},
		{"wrong landing digit", "1. 75 *\n", 400, "import-error"},
		{"garbage", "\x00\x01 hello", 400, "import-error"},
		{"empty", "   ", 400, "import-error"},
	} {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, _ := mw.CreateFormFile("file", tc.name+".txt")
		fw.Write([]byte(tc.text))
		mw.Close()
		req, _ := http.NewRequest("POST", s.URL+"/import", &buf)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d, want %d and %s", tc.name, resp.StatusCode, tc.code, tc.want)
		}
		if tc.code == 400 {
			i := strings.Index(string(b), `id="import-error"`)
			t.Logf("%s: %s", tc.name, strings.TrimSpace(string(b[i:min(len(b), i+200)])))
		}
	}
}

// TestCatalog: every key a template (by T or N) or the server uses exists
// in English.
func TestCatalog(t *testing.T) {
	cat := i18n.New()
	for _, c := range apierr.GameCodes() {
		if !cat.Has("err." + string(c)) {
			t.Errorf("error code %s has no text", c)
		}
	}
	// Keys the templates build with printf.
	for _, k := range []string{"result.1-0", "result.0-1", "result.1/2-1/2", "archive.source.play", "archive.source.import"} {
		if !cat.Has(k) {
			t.Errorf("key %q, which a template builds, is not in the catalog", k)
		}
	}
	for _, c := range rating.Categories {
		if !cat.Has("category." + c.String()) {
			t.Errorf("rating category %s has no name", c)
		}
	}
	for _, dir := range []string{"../web/templates"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, _ := os.ReadFile(dir + "/" + e.Name())
			for _, call := range []string{`.T "`, `.N "`} {
				for _, part := range strings.Split(string(b), call)[1:] {
					key := part[:strings.IndexByte(part, '"')]
					if !cat.Has(key) {
						t.Errorf("%s: key %q is not in the catalog", e.Name(), key)
					}
				}
			}
		}
	}
}
