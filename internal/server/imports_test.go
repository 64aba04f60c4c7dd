package server

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/archive"
)

// tinyGame is the smallest game a record holds: the 2 MiB file of the import attack
// is 77,000 of them.
const tinyGame = "[Result \"*\"]\n\n1. 76 98 *\n\n"

// repeatTo repeats s up to n bytes.
func repeatTo(s string, n int) string { return strings.Repeat(s, n/len(s)) }

// importForm is a multipart body that uploads text as the file name.
func importForm(name, text string) (string, []byte) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write([]byte(text))
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// clientFrom is an HTTP client whose connections come from the loopback
// address ip, so that a test can be several clients.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

type importAnswer struct {
	status     int
	page       string
	retryAfter string
}

func postImport(t *testing.T, c *http.Client, url, contentType string, body []byte) importAnswer {
	t.Helper()
	resp, err := c.Post(url+"/import", contentType, bytes.NewReader(body))
	if err != nil {
		t.Error(err)
		return importAnswer{}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return importAnswer{resp.StatusCode, string(b), resp.Header.Get("Retry-After")}
}

// TestImportConcurrent: 8 imports of a 2 MiB file of tiny games at once,
// from one address and from eight, take a bounded heap (before the bounds: 1.49 GB
// before), and each gets a clear answer: refused for its games (413,
// naming the bound), for its address (429) or for the server (503), with
// a Retry-After when it may come back.
func TestImportConcurrent(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ct, body := importForm("tiny.pgn", repeatTo(tinyGame, archive.MaxImport))
	for _, tc := range []struct {
		name  string
		addrs []string
	}{
		{"one address", []string{"127.0.0.1"}},
		{"eight addresses", []string{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7", "127.0.0.8", "127.0.0.9"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GC()
			base := heapNow()
			stop := heapPeak()
			start := time.Now()
			answers := make([]importAnswer, 8)
			var wg sync.WaitGroup
			for i := range answers {
				c := clientFrom(tc.addrs[i%len(tc.addrs)])
				wg.Go(func() { answers[i] = postImport(t, c, s.URL, ct, body) })
			}
			wg.Wait()
			heap := stop()
			heap -= min(base, heap)
			statuses := map[int]int{}
			for _, a := range answers {
				statuses[a.status]++
				switch a.status {
				case http.StatusRequestEntityTooLarge:
					if !strings.Contains(a.page, "more than 1000 games") {
						t.Errorf("413 without naming the bound: %.300s", a.page[strings.Index(a.page, "<main"):])
					}
				case http.StatusTooManyRequests, http.StatusServiceUnavailable:
					if a.retryAfter == "" {
						t.Errorf("%d without a Retry-After", a.status)
					}
				default:
					t.Errorf("status %d: %.300s", a.status, a.page)
				}
				if len(a.page) > 16<<10 {
					t.Errorf("a page of %d bytes", len(a.page))
				}
			}
			t.Logf("8 imports of %d bytes from %d addresses in %v: statuses %v, heap peak %.1f MB",
				len(body), len(tc.addrs), time.Since(start).Round(time.Millisecond), statuses, float64(heap)/(1<<20))
			if heap > 96<<20 {
				t.Errorf("heap peak %d bytes, want under 96 MiB", heap)
			}
		})
	}
}

// TestImportBadFile: a 2 MB bad file gets a small page (before the bounds: 23 MB
// before) listing at most a few errors, each with a short excerpt.
func TestImportBadFile(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	for _, tc := range []struct {
		name, file, text string
		status           int
		want             []string
	}{
		{"one huge token", "[Result \"*\"]\n\n1. " + strings.Repeat("z", 2_000_000) + " *\n", "", 413,
			[]string{"more than 65536 bytes in one game", "zzzz…"}},
		{"a huge tag value", "[White \"" + strings.Repeat("<", 70_000) + "\"]\n[Result \"*\"]\n\n1. 76 98 *\n\n" + repeatTo(tinyGame, 1_900_000), "", 413,
			[]string{"more than 65536 bytes in one game, reading &#34;…&lt;&lt;&lt;"}},
		{"games that break the rules", repeatTo("[Result \"*\"]\n\n1. 75 *\n\n", 2_000_000), "", 400,
			[]string{"(game 1, line 3, column 4, ply 1): 75 lands on", "(game 5, line", "and more errors"}},
		{"pasted garbage", "", repeatTo("\"<&>' ", 2_000_000), 400,
			[]string{"want a ply"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			if tc.file != "" {
				fw, _ := mw.CreateFormFile("file", "bad.pgn")
				fw.Write([]byte(tc.file))
			}
			mw.WriteField("text", tc.text)
			mw.Close()
			a := postImport(t, c, s.URL, mw.FormDataContentType(), buf.Bytes())
			if a.status != tc.status || len(a.page) > 16<<10 || !strings.Contains(a.page, `id="import-error"`) {
				t.Errorf("status %d, a page of %d bytes; want %d, under 16 KiB, with the error", a.status, len(a.page), tc.status)
			}
			i := strings.Index(a.page, `id="import-error"`)
			for _, w := range tc.want {
				if !strings.Contains(a.page, w) {
					t.Errorf("the page lacks %q: %.600s", w, a.page[max(i, 0):])
				}
			}
			t.Logf("%d bytes sent: %d, a page of %d bytes", buf.Len(), a.status, len(a.page))
		})
	}
}

// TestImportGames: a record of at most archive.MaxImportGames games imports; one
// game more is refused, naming the bound.
func TestImportGames(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	for _, tc := range []struct {
		games  int
		status int
		want   string
	}{
		{archive.MaxImportGames, 200, fmt.Sprintf("%d games read", archive.MaxImportGames)},
		{archive.MaxImportGames + 1, 413, "The record holds more than 1000 games: import at most 1000 at a time"},
	} {
		ct, body := importForm("games.pgn", strings.Repeat(tinyGame, tc.games))
		a := postImport(t, c, s.URL, ct, body)
		if a.status != tc.status || !strings.Contains(a.page, tc.want) {
			t.Errorf("%d games: status %d, want %d and %q", tc.games, a.status, tc.status, tc.want)
		}
	}
	// Players' names are cut short on the page: 1,000 names of 2 KB each
	// make a page of at most 1,000 short rows.
	game := "[White \"" + strings.Repeat("<", 2000) + "\"]\n" + tinyGame
	ct, body := importForm("names.pgn", strings.Repeat(game, archive.MaxImportGames))
	a := postImport(t, c, s.URL, ct, body)
	if a.status != 200 || len(a.page) > 512<<10 || !strings.Contains(a.page, `<td translate="no">`+strings.Repeat("&lt;", archive.MaxImportName)+"…</td>") {
		t.Errorf("long names: status %d, a page of %d bytes; want 200, under 512 KiB, the names cut short", a.status, len(a.page))
	}
	t.Logf("%d games with long names, %d bytes: a page of %d bytes", archive.MaxImportGames, len(body), len(a.page))
}

// TestImportRefusedPages: an import refused by the gate gets the error
// page with its status and a Retry-After.
func TestImportRefusedPages(t *testing.T) {
	srv, err := New(Config{ImportsPerMinute: -1}) // TestImportsPerMinute tests that bound
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	log := slog.New(slog.DiscardHandler)
	post := func(addr string) *httptest.ResponseRecorder {
		ct, body := importForm("one.pgn", tinyGame)
		req := httptest.NewRequest("POST", "/import", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.RemoteAddr = addr + ":4000"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	if w := post("10.0.0.1"); w.Code != 200 {
		t.Fatalf("an import: %d %s", w.Code, w.Body)
	}
	var leaves []func()
	for i := range archive.MaxImportsRunning {
		leave, err := srv.archive.Imports().Enter(t.Context(), log, fmt.Sprintf("10.0.0.%d", 1+i/archive.MaxImportsPerAddr))
		if err != nil {
			t.Fatal(err)
		}
		leaves = append(leaves, leave)
	}
	for _, tc := range []struct {
		addr   string
		status int
		want   string
	}{
		{"10.0.0.1", 429, "Your address has imports running already (the most at once is 2)"},
		{"10.0.9.9", 503, "The server is checking as many imports as it can"},
	} {
		w := post(tc.addr)
		if w.Code != tc.status || w.Header().Get("Retry-After") != "1" || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("%s: %d, Retry-After %q; want %d, 1 and %q: %s", tc.addr, w.Code, w.Header().Get("Retry-After"), tc.status, tc.want, w.Body)
		}
	}
	for _, leave := range leaves {
		leave()
	}
	if w := post("10.0.0.1"); w.Code != 200 {
		t.Errorf("an import once the others ended: %d", w.Code)
	}
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestImportRefusedUnread: an import that its address's bound refuses is
// refused before its body is read, so that refused posts of 2 MiB, one
// after another, cost the server nothing to read or parse; one admitted is
// read whole.
func TestImportRefusedUnread(t *testing.T) {
	s := newTestServer(t, serverOpts{importsPerMinute: 1})
	h := s.server.Handler()
	ct, body := importForm("tiny.pgn", strings.Repeat(tinyGame, 100))
	post := func() (int, int64) {
		c := &countingReader{r: bytes.NewReader(body)}
		req := httptest.NewRequest(http.MethodPost, "/import", c)
		req.Header.Set("Content-Type", ct)
		req.RemoteAddr = "10.0.0.1:4000"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code, c.n
	}
	// The burst admits archive.ImportBurst; the next is refused.
	for i := range archive.ImportBurst {
		if code, n := post(); code != http.StatusOK || n != int64(len(body)) {
			t.Fatalf("import %d: status %d, %d of %d bytes read; want 200, all read", i+1, code, n, len(body))
		}
	}
	if code, n := post(); code != http.StatusTooManyRequests || n != 0 {
		t.Errorf("refused import: status %d, %d bytes read; want 429, none read", code, n)
	}
}
