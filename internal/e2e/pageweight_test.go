package e2e

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The bounds of what a browser downloads to show a page with an empty
// cache: the HTML, the style sheet, the scripts, the icons, the API
// answers the page fetches at its start, as transferred (compressed, with
// the headers), in bytes. The service worker's install, which fetches the
// site's shell after the page has loaded, is not the page's.
const (
	lobbyWeight = 30_000
	gameWeight  = 60_000
)

// transfers records what a tab downloads: the bytes each request took on
// the wire (Network.loadingFinished's encodedDataLength) and its answer's
// Content-Encoding.
type transfers struct {
	mu       sync.Mutex
	url      map[network.RequestID]string
	encoding map[network.RequestID]string
	bytes    map[network.RequestID]float64
}

// recordTransfers starts recording u's downloads, with the browser's
// cache and the service worker bypassed so that every page is fetched
// whole, as on a first visit.
func recordTransfers(u *user) *transfers {
	u.t.Helper()
	tr := &transfers{url: map[network.RequestID]string{}, encoding: map[network.RequestID]string{}, bytes: map[network.RequestID]float64{}}
	if err := chromedp.Listen(u.ctx, func(ev any) {
		tr.mu.Lock()
		defer tr.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventResponseReceived:
			tr.url[e.RequestID] = e.Response.URL
			for k, v := range e.Response.Headers {
				if strings.EqualFold(k, "Content-Encoding") {
					tr.encoding[e.RequestID] = fmt.Sprint(v)
				}
			}
		case *network.EventLoadingFinished:
			tr.bytes[e.RequestID] = e.EncodedDataLength
		}
	}); err != nil {
		u.t.Fatal(err)
	}
	_, err1 := chromedp.Call(u.ctx, network.Enable, network.EnableParams{})
	_, err2 := chromedp.Call(u.ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
	_, err3 := chromedp.Call(u.ctx, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true})
	if err := errors.Join(err1, err2, err3); err != nil {
		u.t.Fatal(err)
	}
	return tr
}

// total returns the bytes of the finished downloads and a line for each,
// the heaviest first.
func (tr *transfers) total() (float64, []string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var sum float64
	ids := slices.Collect(maps.Keys(tr.bytes))
	slices.SortFunc(ids, func(a, b network.RequestID) int { return int(tr.bytes[b] - tr.bytes[a]) })
	var lines []string
	for _, id := range ids {
		sum += tr.bytes[id]
		enc := tr.encoding[id]
		if enc == "" {
			enc = "identity"
		}
		u, _, _ := strings.Cut(tr.url[id], "?")
		lines = append(lines, fmt.Sprintf("%7.0f  %-8s %s", tr.bytes[id], enc, u))
	}
	return sum, lines
}

// settle waits until u's page has downloaded nothing new for quiet.
func (tr *transfers) settle(quiet time.Duration) {
	n, since := -1, time.Now()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		tr.mu.Lock()
		m := len(tr.bytes) + len(tr.url)
		tr.mu.Unlock()
		if m != n {
			n, since = m, time.Now()
		} else if time.Since(since) >= quiet {
			return
		}
	}
}

// TestPageWeight: the lobby, for a first-time visitor, downloads under
// 30 KB, and a game's page, for one of its players, under 60 KB, all
// compressed as the browser accepts it, and the engine's wasm comes in
// brotli. The log lists each download.
func TestPageWeight(t *testing.T) {
	base, browser, _ := setup(t)
	visitor := newUser(t, browser, base, "visitor")
	tr := recordTransfers(visitor)
	visitor.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	tr.settle(time.Second)
	check := func(page string, bound float64) {
		t.Helper()
		sum, lines := tr.total()
		t.Logf("%s: %.0f bytes in %d downloads\n%s", page, sum, len(lines), strings.Join(lines, "\n"))
		if sum > bound {
			t.Errorf("%s: %.0f bytes downloaded, over the bound of %.0f", page, sum, bound)
		}
		if len(lines) < 3 {
			t.Errorf("%s: %d downloads recorded, want the page, its style sheet and scripts", page, len(lines))
		}
	}
	check("the lobby", lobbyWeight)

	white, _, id := startPair(t, browser, base, "en", "5+0")
	tr = recordTransfers(white)
	white.do("the game page", chromedp.Navigate(base+"/game/"+id))
	white.waitFor("the board", onBoard, 15*time.Second)
	tr.settle(time.Second)
	check("the game page", gameWeight)

	// The engine's wasm, fetched by the analysis board's worker, comes
	// compressed with brotli (made at generate time), not at its 4 MB.
	visitor.do("the analysis board", chromedp.Navigate(base+"/analysis"), chromedp.WaitVisible(chromedp.CSS("#board")))
	wasm := eval[string](visitor, `document.getElementById('engine-assets').dataset.wasm`)
	tr = recordTransfers(visitor)
	n, err := chromedp.Run(visitor.ctx, chromedp.Evaluate[int](fmt.Sprintf(`fetch(%q).then((r) => r.arrayBuffer()).then((b) => b.byteLength)`, wasm), chromedp.EvalAwaitPromise))
	if err != nil || n < 1<<20 {
		t.Fatalf("engine.wasm: %d bytes decoded (%v)", n, err)
	}
	tr.settle(500 * time.Millisecond)
	_, lines := tr.total()
	var got string
	for _, l := range lines {
		if strings.Contains(l, "/static/engine.wasm") {
			got = l
		}
	}
	var sent float64
	var coding string
	if _, err := fmt.Sscanf(got, "%f %s", &sent, &coding); err != nil || coding != "br" || sent > 950_000 {
		t.Errorf("engine.wasm sent as %q (%v), want brotli under 950,000 bytes", got, err)
	}
	t.Logf("the engine: %s", got)
}
