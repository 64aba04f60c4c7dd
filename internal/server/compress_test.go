package server

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// fetchGzip GETs u asking for gzip, and returns the status, the
// Content-Encoding, the bytes as sent and the body decoded.
func fetchGzip(t *testing.T, u string) (int, string, int, string) {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	body := string(raw)
	enc := resp.Header.Get("Content-Encoding")
	if enc == "gzip" {
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		body = string(b)
	}
	return resp.StatusCode, enc, len(raw), body
}

var assetRef = regexp.MustCompile(`(?:src|href)="(/static/[^"?]+\.(?:js|css)(?:\?[^"]*)?)"`)

// TestCompressed: pages and static assets come back gzip-encoded to a
// client that asks for it (gzhttp), and the websockets still work for such
// a client; the favicon is served at /favicon.ico and linked by every page.
func TestCompressed(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	_, _, id := s.game(s.guest(), s.guest(), "5+3", false)
	for _, p := range []string{"/", "/editor", "/import", "/login", "/leaderboard", "/game/" + id, "/nowhere"} {
		code, enc, n, body := fetchGzip(t, s.URL+p)
		if enc != "gzip" || !strings.Contains(body, "</html>") || n >= len(body) {
			t.Errorf("GET %s: %d, Content-Encoding %q, %d bytes sent for %d", p, code, enc, n, len(body))
		}
		if !strings.Contains(body, `rel="icon" href="/static/favicon.svg?v=`) {
			t.Errorf("GET %s: no favicon link", p)
		}
		for _, m := range assetRef.FindAllStringSubmatch(body, -1) {
			if _, enc, _, _ := fetchGzip(t, s.URL+m[1]); enc != "gzip" {
				t.Errorf("GET %s (from %s): Content-Encoding %q", m[1], p, enc)
			}
		}
	}
	resp, err := http.Get(s.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(b), "<svg") {
		t.Errorf("/favicon.ico: %d %s %.20q", resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	for _, path := range []string{"/api/lobby/ws", "/api/games/" + id + "/ws"} {
		c, _, err := websocket.Dial(context.Background(), strings.Replace(s.URL, "http", "ws", 1)+path,
			&websocket.DialOptions{HTTPHeader: http.Header{"Accept-Encoding": {"gzip, deflate, br"}}})
		if err != nil {
			t.Errorf("%s with Accept-Encoding gzip: %v", path, err)
			continue
		}
		if _, msg, err := c.Read(context.Background()); err != nil || !strings.HasPrefix(string(msg), "{") {
			t.Errorf("%s: first message %.40q %v", path, msg, err)
		}
		c.Close(websocket.StatusNormalClosure, "")
	}
}

// pageWeight returns the compressed bytes of the page at path and of the
// style sheets and scripts it loads (WebAssembly is fetched by board.js,
// not named in the page, and not counted).
func pageWeight(t *testing.T, s *testServer, path string) (page, assets int) {
	t.Helper()
	code, _, n, body := fetchGzip(t, s.URL+path)
	if code != 200 {
		t.Fatalf("GET %s: %d", path, code)
	}
	page = n
	for _, m := range assetRef.FindAllStringSubmatch(body, -1) {
		_, _, n, _ := fetchGzip(t, s.URL+m[1])
		assets += n
	}
	return page, assets
}

// TestPageWeight is the pages' weight budget: the lobby under 30 KB and the game
// page under 60 KB, gzip-compressed, with the CSS and JavaScript they load.
func TestPageWeight(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	_, _, id := s.game(s.guest(), s.guest(), "5+3", false)
	for _, tc := range []struct {
		name, path string
		budget     int
	}{
		{"lobby", "/", 30 << 10},
		{"game", "/game/" + id, 60 << 10},
	} {
		page, assets := pageWeight(t, s, tc.path)
		t.Logf("%s: %d bytes compressed (page %d, CSS and JS %d), budget %d", tc.name, page+assets, page, assets, tc.budget)
		if page+assets >= tc.budget {
			t.Errorf("%s weighs %d bytes compressed, over its budget of %d", tc.name, page+assets, tc.budget)
		}
	}
}
