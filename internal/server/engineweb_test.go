package server

import (
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysisboard"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/engineweb"
)

// TestPositionsLegalPlay: the server's rules answer the JSON of the
// browser's WebAssembly build, word for word, and refuse what is not a
// position or not a legal move.
func TestPositionsLegalPlay(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	same := func(what string, got map[string]any, want any) {
		t.Helper()
		b, _ := json.Marshal(want)
		var w map[string]any
		json.Unmarshal(b, &w)
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: the server says %v, engineweb %v", what, got, w)
		}
	}
	code, m := s.do("POST", "/api/positions/legal", "", map[string]any{})
	want, _ := engineweb.Legal(engineweb.Position{})
	if code != 200 {
		t.Fatalf("legal of the start: %d %v", code, m)
	}
	same("legal of the start", m, want)
	fen := toguz.StartPosition().After(9).FEN()
	code, m = s.do("POST", "/api/positions/play", "", map[string]any{"fen": fen, "move": 3})
	wantPlay, _ := engineweb.Play(engineweb.Position{FEN: fen}, 3)
	if code != 200 {
		t.Fatalf("play: %d %v", code, m)
	}
	same("play", m, wantPlay)

	tests := []struct {
		name, path string
		body       any
		code       string
	}{
		{"bad FEN", "/api/positions/legal", map[string]any{"fen": "9S/9S 0 0 S 1"}, "bad_position"},
		{"bad ruleset", "/api/positions/legal", map[string]any{"ruleset": "chess"}, "bad_request"},
		{"no such hole", "/api/positions/play", map[string]any{"move": 10}, "illegal_move"},
		{"no move", "/api/positions/play", map[string]any{}, "illegal_move"},
		{"bad FEN to play", "/api/positions/play", map[string]any{"fen": "x", "move": 1}, "bad_position"},
		{"unknown field", "/api/positions/play", map[string]any{"hole": 1}, "bad_request"},
	}
	for _, tc := range tests {
		code, m := s.do("POST", tc.path, "", tc.body)
		e, _ := m["error"].(map[string]any)
		if code != 400 || e == nil || e["code"] != tc.code || e["message"] == "" {
			t.Errorf("%s: %d %v, want 400 %s", tc.name, code, m, tc.code)
		}
	}
}

// TestAnalysisAPI: the server's analysis answers the browser's bestmove
// JSON within its bounds, refuses what it cannot search, and refuses a game
// in progress to its players until it ends.
func TestAnalysisAPI(t *testing.T) {
	s := newTestServer(t, serverOpts{analysesPerMinute: -1})
	code, m := s.do("POST", "/api/analysis", "", map[string]any{"multipv": 2, "depth": 3})
	info, _ := m["info"].(map[string]any)
	if code != 200 || m["type"] != "bestmove" || m["move"] == 0.0 || info == nil || info["depth"] != 3.0 {
		t.Fatalf("analysis of the start: %d %v", code, m)
	}
	if lines, _ := info["lines"].([]any); len(lines) != 2 {
		t.Errorf("lines %v, want 2", info["lines"])
	}
	// No limit asked: the server's bounds apply (the depth cap or the time).
	start := time.Now()
	if code, m := s.do("POST", "/api/analysis", "", map[string]any{"movetime": 60000}); code != 200 || time.Since(start) > analysisboard.MaxTime+2*time.Second {
		t.Errorf("a minute asked: %d %v after %v", code, m, time.Since(start))
	}
	for _, bad := range []map[string]any{{"multipv": 10}, {"depth": -1}, {"fen": "x"}, {"ruleset": "chess"}, {"game": "nosuchgame"}} {
		code, m := s.do("POST", "/api/analysis", "", bad)
		if code != 400 && code != 404 {
			t.Errorf("%v: %d %v", bad, code, m)
		}
	}

	a, b, spectator := s.guest(), s.guest(), s.guest()
	white, black, id := s.game(a, b, "5+0", false)
	for _, tok := range []string{white, black} {
		code, m := s.do("POST", "/api/analysis", tok, map[string]any{"game": id, "depth": 2})
		e, _ := m["error"].(map[string]any)
		if code != 403 || e == nil || e["code"] != string(apierr.CodeGameInProgress) ||
			e["message"] != "This game is still being played, and you play in it: its analysis opens when it ends." {
			t.Errorf("a player analyses his game in progress: %d %v", code, m)
		}
	}
	if code, m := s.do("POST", "/api/analysis", spectator, map[string]any{"game": id, "depth": 2}); code != 200 {
		t.Errorf("a spectator: %d %v", code, m)
	}
	w := s.dial(id, white)
	w.until("state")
	w.send(`{"type":"resign"}`)
	w.until("end")
	if code, m := s.do("POST", "/api/analysis", white, map[string]any{"game": id, "depth": 2}); code != 200 {
		t.Errorf("the game over, its player: %d %v", code, m)
	}
}

// TestAnalysisRateLimit: beyond its analyses a minute a user (or an
// address) gets 429 with a sentence and a Retry-After.
func TestAnalysisRateLimit(t *testing.T) {
	s := newTestServer(t, serverOpts{analysesPerMinute: 2})
	tok := s.guest()
	for i := range 2 {
		if code, m := s.do("POST", "/api/analysis", tok, map[string]any{"depth": 1}); code != 200 {
			t.Fatalf("analysis %d: %d %v", i+1, code, m)
		}
	}
	req, _ := http.NewRequest("POST", s.URL+"/api/analysis", strings.NewReader(`{"depth":1}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]string
	json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" || m["error"]["code"] != string(apierr.CodeAnalysisRate) ||
		!strings.Contains(m["error"]["message"], "2 analyses") {
		t.Errorf("third analysis: %d %v retry %q", resp.StatusCode, m, resp.Header.Get("Retry-After"))
	}
	// Another user from the same address is bounded by the address.
	if code, _ := s.do("POST", "/api/analysis", s.guest(), map[string]any{"depth": 1}); code != 429 {
		t.Errorf("another user, same address: %d", code)
	}
}

// TestOfflinePage: the offline engine game carries no user data (the
// service worker keeps it), refuses a game in progress to its players, and
// starts from a game's position for anyone else.
func TestOfflinePage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	code, m := s.do("POST", "/api/signup", "", map[string]string{"name": "offlinetester", "password": "long enough pass"})
	if code != 201 {
		t.Fatalf("sign-up: %d %v", code, m)
	}
	tok := m["token"].(string)
	get := func(path, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/play-offline", tok)
	if code != 200 || strings.Contains(body, "offlinetester") || !strings.Contains(body, `id="engine-assets"`) || !strings.Contains(body, "engine.wasm?v=") {
		t.Errorf("offline page: %d, name shown %v", code, strings.Contains(body, "offlinetester"))
	}
	if code, body := get("/analysis", tok); code != 200 || strings.Contains(body, "offlinetester") || !strings.Contains(body, `id="engine-assets"`) {
		t.Errorf("the bare analysis board (an offline page): %d, name shown %v", code, strings.Contains(body, "offlinetester"))
	}
	if code, body := get("/", tok); code != 200 || !strings.Contains(body, "offlinetester") || strings.Contains(body, "engine.wasm") {
		t.Errorf("the lobby names its user and does not load the engine: %d", code)
	}

	white, black := s.guest(), s.guest()
	_, _, id := s.game(white, black, "5+0", false)
	for _, p := range []string{white, black} {
		if code, body := get("/play-offline?game="+id, p); code != 403 || !strings.Contains(body, "This game is still being played, and you play in it") {
			t.Errorf("a player's offline page of his game in progress: %d", code)
		}
	}
	if code, body := get("/play-offline?game="+id, s.guest()); code != 200 || !strings.Contains(body, `data-fen="`+toguz.StartPosition().FEN()) {
		t.Errorf("a spectator: %d", code)
	}
	if code, _ := get("/play-offline?fen=nonsense", ""); code != 400 {
		t.Errorf("a bad FEN: %d", code)
	}
}

// TestWebApp: the manifest in the page's language with the favicon as its
// icon; the service worker, at the root, caching the hashed assets and the
// offline page, never the API; the wasm served as application/wasm, gzipped.
func TestWebApp(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	req, _ := http.NewRequest("GET", s.URL+"/manifest.webmanifest", nil)
	req.Header.Set("Accept-Language", "kk")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Name  string `json:"name"`
		Lang  string `json:"lang"`
		Icons []struct {
			Src, Sizes, Type string
		} `json:"icons"`
	}
	json.NewDecoder(resp.Body).Decode(&man)
	resp.Body.Close()
	if resp.Header.Get("Content-Type") != "application/manifest+json" || man.Name != "Тоғызқұмалақ" || man.Lang != "kk" ||
		len(man.Icons) != 1 || !strings.HasPrefix(man.Icons[0].Src, "/static/favicon.svg?v=") || man.Icons[0].Type != "image/svg+xml" {
		t.Errorf("manifest: %s %+v", resp.Header.Get("Content-Type"), man)
	}

	resp, err = http.Get(s.URL + "/sw.js")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sw := string(b)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") || resp.Header.Get("Cache-Control") != "no-cache" ||
		!regexp.MustCompile(`const CACHE = 'toguz-[0-9a-f]{16}'`).MatchString(sw) ||
		!strings.Contains(sw, `"/static/engine-worker.js?v=`) || !strings.Contains(sw, `const ENGINE = ["/static/engine.wasm?v=`) ||
		!strings.Contains(sw, `const PAGES = ["/play-offline","/analysis"]`) || !strings.Contains(sw, `url.pathname.startsWith('/api/')) return; // never cached`) {
		t.Errorf("sw.js:\n%s", sw)
	}
	wasm := regexp.MustCompile(`/static/engine\.wasm\?v=[0-9a-f]+`).FindString(sw)
	req, _ = http.NewRequest("GET", s.URL+wasm, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err = http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.Header.Get("Content-Type") != "application/wasm" || resp.Header.Get("Content-Encoding") != "gzip" ||
		!strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || n > 2<<20 {
		t.Errorf("engine.wasm: %v, %d bytes gzipped", resp.Header, n)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'wasm-unsafe-eval'") || strings.Contains(csp, "'unsafe-eval'") {
		t.Errorf("CSP %q: the engine's WebAssembly needs 'wasm-unsafe-eval', and nothing more", csp)
	}
}
