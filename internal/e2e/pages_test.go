package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
)

// site is a server with something on every page: two accounts, open
// seeks, a game being played and a finished one.
type site struct {
	base       string
	alice, bob string // session tokens
	seek       string // bob's seek: alice's challenge page to accept
	live, done string // alice's games against the engine
	study      string // alice's public study
	class      string // alice's class, with bob invited
	reviewed   string // an imported game with its review done
	event      string // alice's round robin, alice and bob playing its first round
	browser    context.Context
	artifacts  string

	// broadcast is alice's broadcast, a game with plies on board 1; simul
	// her simul, bob's game in it started.
	broadcast, simul string
}

// apiCall sends a JSON request with a token and decodes the answer.
func apiCall(t *testing.T, method, url, token string, body any) map[string]any {
	t.Helper()
	var payload []byte
	if body != nil {
		payload, _ = json.Marshal(body)
	}
	// A client that writes in bulk (the arbiter's results, section after
	// section) meets the server's writes bound per address: it waits as the
	// 429's Retry-After says, as a well-behaved client does, a few times.
	for try := 0; ; try++ {
		req, _ := http.NewRequest(method, url, bytes.NewReader(payload))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests && try < 5 {
			wait, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			if err != nil || wait < 1 {
				wait = 1
			}
			time.Sleep(time.Duration(wait) * time.Second)
			continue
		}
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %s %v", method, url, resp.Status, m)
		}
		return m
	}
}

func newSite(t *testing.T) *site {
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, ReviewWorkers: 1, ReviewDepth: 6})
	s := &site{base: base, browser: browser, artifacts: artifacts}
	s.alice = apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "aigul", "password": "correct horse battery"})["token"].(string)
	s.bob = apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "bolat", "password": "correct horse battery"})["token"].(string)
	s.seek = apiCall(t, "POST", base+"/api/seeks", s.bob, map[string]any{"tc": "5+3", "ruleset": "seven"})["id"].(string)
	apiCall(t, "POST", base+"/api/seeks", s.alice, map[string]any{"tc": "10+0"})
	s.live = apiCall(t, "POST", base+"/api/engine-games", s.alice, map[string]any{"level": 1, "color": "white", "tc": "10+0"})["game_id"].(string)
	s.done = finishedEngineGame(t, base, s.alice)
	s.study = postForm(t, base+"/study", s.alice, url.Values{"name": {"Ashyq"}, "visibility": {"public"}, "ruleset": {"standard"}})
	s.class = postForm(t, base+"/classes", s.alice, url.Values{"name": {"Seisenbi"}})
	postForm(t, base+s.class+"/invite", s.alice, url.Values{"name": {"bolat"}})
	s.reviewed = importReviewed(t, base, s.alice)
	waitReview(t, base, s.done)
	s.broadcast, s.simul = broadcastAndSimul(t, base, s.alice, s.bob)
	s.event = newEvent(t, base, s.alice, s.alice, s.bob)
	// A bot on the ladder for /bots, and a token of alice's for the
	// settings page.
	botSession := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "qyran", "password": "correct horse battery"})["token"].(string)
	botToken := apiCall(t, "POST", base+"/api/token", botSession, map[string]any{"description": "engine", "scopes": []string{"bot:play"}})["token"].(string)
	apiCall(t, "POST", base+"/api/bot/account/upgrade", botToken, nil)
	apiCall(t, "POST", base+"/api/bot/account/ladder?on=true", botToken, nil)
	apiCall(t, "POST", base+"/api/token", s.alice, map[string]any{"description": "Board app", "scopes": []string{"board:play", "challenge:read"}})
	// A follow, a message and its notice for the community's pages.
	apiCall(t, "POST", base+"/api/rel/follow/bolat", s.alice, nil)
	apiCall(t, "POST", base+"/api/inbox/aigul", s.bob, map[string]any{"text": "Ертең сағат онда ойнаймыз ба?"})
	return s
}

// finishedEngineGame plays a game against the engine (level 1) as the
// account of token: a move, then a resignation. It returns the game's id.
func finishedEngineGame(t *testing.T, base, token string) string {
	t.Helper()
	done := apiCall(t, "POST", base+"/api/engine-games", token, map[string]any{"level": 1, "color": "white"})["game_id"].(string)
	// The finished game: a move, then alice resigns.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/api/games/"+done+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	send := func(v any) {
		b, _ := json.Marshal(v)
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	send(map[string]any{"type": "move", "ply": 0, "hole": 7})
	for resigned := false; ; {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("the finished game: %v", err)
		}
		var m struct{ Type, By string }
		json.Unmarshal(b, &m)
		if m.Type == "move" && m.By == "black" && !resigned {
			send(map[string]any{"type": "resign"})
			resigned = true
		}
		if m.Type == "end" {
			break
		}
	}
	return done
}

// postForm posts a form with a token and returns where it redirects.
func postForm(t *testing.T, u, token string, v url.Values) string {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(v.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST %s: %s", u, resp.Status)
	}
	return resp.Header.Get("Location")

}

// importReviewed imports the shortest decisive game (Black's blunders),
// asks for its review and waits until it is done.
func importReviewed(t *testing.T, base, token string) string {
	t.Helper()
	rec := "[White \"Abai\"]\n[Black \"Bolat\"]\n[Result \"1-0\"]\n\n1. 5 1 2. 3 5 3. 8 3 4. 7 4 5. 6 5 6. 4 1-0\n"
	resp, err := http.PostForm(base+"/import", url.Values{"text": {rec}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`href="/game/([A-Za-z0-9]+)"`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("import: %s\n%.500s", resp.Status, body)
	}
	id := string(m[1])
	apiCall(t, "POST", base+"/api/games/"+id+"/review", token, nil)
	waitReview(t, base, id)
	return id
}

// waitReview waits until game id's review is done.
func waitReview(t *testing.T, base, id string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var rv struct{ Status string }
		resp, err := http.Get(base + "/api/games/" + id + "/review")
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&rv)
			resp.Body.Close()
		}
		if rv.Status == "done" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the review of %s: %q after 2 minutes", id, rv.Status)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// newEvent creates a round robin with the /events form as creator, has
// the players join and starts it: its first round is in play.
func newEvent(t *testing.T, base, creator string, players ...string) string {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path, token string, form url.Values) string {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d", path, resp.StatusCode)
		}
		return resp.Header.Get("Location")
	}
	loc := post("/events", creator, url.Values{"name": {"Aqtobe open"}, "kind": {"roundrobin"}, "tc": {"10+5"}, "ruleset": {"standard"}})
	for _, p := range players {
		post(loc+"/join", p, url.Values{})
	}
	post(loc+"/arbiter/start", creator, url.Values{})
	return strings.TrimPrefix(loc, "/event/")
}

// page is one page of the site and the condition that it is drawn.
type page struct{ name, path, ready string }

func (s *site) pages() []page {
	const loaded = `document.readyState === 'complete'`
	ps := []page{
		{"lobby", "/", `document.getElementById('seeks').dataset.total !== undefined`},
	}
	for _, r := range toguz.RulesetNames() {
		ps = append(ps, page{"editor-" + r, "/editor?ruleset=" + r, loaded})
	}
	return append(ps,
		page{"import", "/import", loaded},
		page{"login", "/login", loaded},
		page{"signup", "/signup", loaded},
		page{"leaderboard", "/leaderboard", loaded},
		page{"explorer", "/explorer?moves=7", loaded},
		page{"explorer-site", "/explorer?db=site", loaded},
		page{"master-game", "/explorer/masters/1", loaded},
		page{"database", "/database", loaded},
		page{"api", "/api", loaded},
		page{"profile", "/@/aigul", loaded},
		page{"challenge", "/challenge/" + s.seek, loaded},
		page{"game-live", "/game/" + s.live, `document.querySelector('#board button.hole.playable')`},
		page{"game-finished", "/game/" + s.done, `document.querySelector('#board button.hole')`},
		page{"analysis", "/analysis", `document.querySelector('#board button.hole.playable')`},
		page{"analysis-game", "/analysis/game/" + s.done, `document.querySelector('#tree button.move.current')`},
		page{"rules", "/rules", loaded},
		page{"history", "/history", loaded},
		page{"key", "/key", `document.querySelector('#key-stepper.stepping')`},
		page{"key-division", "/key?base=10&a=9999999999&op=div&b=7", `document.querySelector('#key-stepper.stepping')`},
		page{"game-reviewed", "/game/" + s.reviewed, `document.querySelector('#moves .review-mark')`},
		page{"review-learn", "/review/" + s.reviewed + "/learn?side=black", `document.querySelector('.learn-form')`},
		page{"review-learn-choose", "/review/" + s.reviewed + "/learn", loaded},
		page{"error", "/nowhere", loaded},
		page{"learn", "/learn", `document.querySelector('.lesson-row.current, .lesson-row.done')`},
		page{"events", "/events", loaded},
		page{"bots", "/bots", loaded},
		page{"settings", "/settings", loaded},
		page{"privacy", "/account/preferences/privacy", loaded},
		page{"kid", "/account/kid", loaded},
		page{"close", "/account/close", loaded},
		page{"export", "/account/export", loaded},
		page{"profile-other", "/@/bolat", loaded},
		page{"password-reset", "/password/reset", loaded},
		page{"account-email", "/account/email", loaded},
		page{"account-passwd", "/account/passwd", loaded},
		page{"account-security", "/account/security", `document.querySelector('#session-list li.current')`},
		page{"oauth", "/oauth?response_type=code&client_id=Kumalak+Coach+for+federations+and+schools&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fan%2Fapp%2Freturns%2Fthe%2Fuser%2Fhere%2Fafter%2Fthe%2Fconsent%2Fcallback" +
			"&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&scope=board%3Aplay+challenge%3Aread&state=s", `document.getElementById('oauth-form')`},
		page{"event", "/event/" + s.event, `document.querySelector('#event-live .game-link')`},
		page{"lesson-board", "/learn/board", loaded},
		page{"lesson-notation", "/learn/notation", loaded},
		page{"studies", "/study", loaded},
		page{"study", s.study, `document.getElementById('study').dataset.live === 'true' && document.querySelector('#board button.hole.playable')`},
		page{"classes", "/classes", loaded},
		page{"class", s.class, loaded},
		page{"play-offline", "/play-offline", `document.querySelector('#board button.hole')`},
		page{"broadcasts", "/broadcasts", loaded},
		page{"broadcast", "/broadcast/" + s.broadcast, `document.querySelector('.bc-game img.bc-board')`},
		page{"broadcast-entry", "/broadcast/" + s.broadcast + "/enter", loaded},
		page{"simuls", "/simuls", loaded},
		page{"simul", "/simul/" + s.simul, loaded},
		page{"simul-host", "/simul/" + s.simul + "/host", `document.querySelector('#simul-grid .simul-board')`},
		page{"puzzles", "/puzzles", `document.querySelector('#puzzle button.hole.playable')`},
		page{"puzzles-streak", "/puzzles?streak=4", `document.querySelector('#puzzle-streak-count')`},
		page{"notifications", "/notifications", `document.querySelector('#notices .notice')`},
		page{"following", "/following", `document.querySelector('#following .friend')`},
		page{"inbox", "/inbox", `document.querySelector('#conversations .conversation')`},
		page{"inbox-thread", "/inbox/bolat", `document.querySelector('#messages .message')`},
	)
}

// setCookie sets a cookie of the site in the browser context.
func setCookie(base, name, value string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, network.SetCookie, network.SetCookieParams{Name: name, Value: value, URL: base})
		return chromedp.Void{}, err
	}
}

// visitor is alice at her browser, reading the site in lang.
func (s *site) visitor(t *testing.T, lang string) *user {
	u := newUser(t, s.browser, s.base, "aigul-"+lang)
	u.do("cookies", setCookie(s.base, "toguz_session", s.alice), setCookie(s.base, "lang", lang))
	return u
}

// open shows p at the width and waits until it is drawn.
func (u *user) open(p page, width int64) {
	u.t.Helper()
	u.do("viewport", chromedp.EmulateViewport(width, 800))
	u.do("opening "+p.name, chromedp.Navigate(u.base+p.path))
	u.waitFor(p.name+" drawn", p.ready, 15*time.Second)
}

// TestPagesFitPhone: no page is wider than a 360 px phone, for an account
// and for a guest (whose header names him by a long hash).
func TestPagesFitPhone(t *testing.T) {
	s := newSite(t)
	u := s.visitor(t, "kk") // Kazakh's words are long
	guest := newUser(t, s.browser, s.base, "guest")
	token := apiCall(t, "POST", s.base+"/api/guest", "", nil)["token"].(string)
	guest.do("cookies", setCookie(s.base, "toguz_session", token), setCookie(s.base, "lang", "ru"))
	type visit struct {
		u *user
		p page
	}
	var visits []visit
	for _, p := range s.pages() {
		visits = append(visits, visit{u, p})
	}
	for _, p := range s.pages()[:2] {
		visits = append(visits, visit{guest, p})
	}
	for _, v := range visits {
		u, p := v.u, v.p
		u.open(p, 360)
		type widths struct{ Doc, Win int }
		w := eval[widths](u, `({Doc: document.documentElement.scrollWidth, Win: innerWidth})`)
		if w.Doc > w.Win {
			wide := eval[string](u, `Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > innerWidth + 0.5).slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '')).join(', ')`)
			t.Errorf("%s: %s (%s) is %d px wide at %d px; too wide: %s", u.name, p.name, p.path, w.Doc, w.Win, wide)
		}
		// The event page's standings fit too, with no scrolling in their
		// own box (docs/tournaments.md).
		tw := eval[widths](u, `(() => { const w = document.querySelector('.event-standings')?.closest('.table-wrap'); return w ? {Doc: w.scrollWidth, Win: w.clientWidth} : {Doc: 0, Win: 0}; })()`)
		if tw.Doc > tw.Win {
			t.Errorf("%s: %s (%s): the standings are %d px wide in a box of %d px at 360 px; they scroll", u.name, p.name, p.path, tw.Doc, tw.Win)
		}
	}
}

// visibleTexts collects what a page shows in words: every visible text
// node, and the placeholder, aria-label and title of every element and the
// value of input buttons, outside elements marked translate="no" (names,
// notation, FEN: data, not interface).
const visibleTexts = `(() => {
  const out = [];
  const skip = (el) => !!el.closest('[translate="no"], script, style, noscript, template');
  const shown = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      if (e.hidden) return false;
      const cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden') return false;
    }
    return true;
  };
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode());) {
    const t = n.nodeValue.replace(/\s+/g, ' ').trim();
    const el = n.parentElement;
    if (!t || !el || skip(el)) continue;
    if (!shown(el.tagName === 'OPTION' ? (el.closest('select') || el) : el)) continue;
    out.push(t);
  }
  for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title], input[type=submit], input[type=button]')) {
    if (skip(el) || !shown(el)) continue;
    for (const a of ['placeholder', 'aria-label', 'title']) {
      const v = (el.getAttribute(a) || '').trim();
      if (v) out.push(v);
    }
    if (el.matches('input[type=submit], input[type=button]') && el.value.trim()) out.push(el.value.trim());
  }
  return out;
})()`

// TestPagesVisibleText: every text a page shows in a language is a text
// of that language's catalog (TOGUZ_E2E_TEXT_LANGS, default "en,kk").
func TestPagesVisibleText(t *testing.T) {
	s := newSite(t)
	cat := i18n.New()
	langs := strings.Split(os.Getenv("TOGUZ_E2E_TEXT_LANGS"), ",")
	if langs[0] == "" {
		langs = []string{"en", "kk"}
	}
	for _, lang := range langs {
		t.Run(lang, func(t *testing.T) {
			m := newTextMatcher(cat, lang)
			u := s.visitor(t, lang)
			for _, p := range s.pages() {
				u.open(p, 1366)
				var bad []string
				for _, text := range eval[[]string](u, visibleTexts) {
					if !m.match(text) && !slices.Contains(bad, text) {
						bad = append(bad, text)
					}
				}
				if len(bad) > 0 {
					t.Errorf("%s (%s) shows %d texts that are not %s: %q", p.name, p.path, len(bad), lang, bad)
				}
			}
		})
	}
}

// TestPageScreenshots keeps a screenshot of each page in kk, ky, ru and en
// at 1366 and 360 px in TOGUZ_E2E_ARTIFACTS. It checks nothing the tests
// above do not, and takes about three minutes: it runs where
// TOGUZ_SCREENSHOTS=1 (.ci/run's own step), not in every `go test ./...`.
func TestPageScreenshots(t *testing.T) {
	if os.Getenv("TOGUZ_SCREENSHOTS") != "1" {
		t.Skip("screenshots of every page: set TOGUZ_SCREENSHOTS=1 (and TOGUZ_E2E=1) to take them")
	}
	s := newSite(t)
	for _, lang := range []string{"kk", "ky", "ru", "en"} {
		u := s.visitor(t, lang)
		for _, p := range s.pages() {
			for _, w := range []int64{1366, 360} {
				u.open(p, w)
				png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100)) // 100: PNG
				if err != nil {
					t.Fatalf("%s %s %d: %v", lang, p.name, w, err)
				}
				if err := os.WriteFile(filepath.Join(s.artifacts, fmt.Sprintf("page-%s-%s-%d.png", p.name, lang, w)), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	// And the lobby as a guest sees it, his name in the header.
	guest := newUser(t, s.browser, s.base, "guest")
	token := apiCall(t, "POST", s.base+"/api/guest", "", nil)["token"].(string)
	guest.do("cookies", setCookie(s.base, "toguz_session", token), setCookie(s.base, "lang", "kk"))
	for _, w := range []int64{1366, 360} {
		guest.open(s.pages()[0], w)
		png, err := chromedp.Run(guest.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.artifacts, fmt.Sprintf("page-lobby-guest-kk-%d.png", w)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("screenshots in %s", s.artifacts)
}

// TestBoardReadyTime: from the start of the navigation to the board drawn
// and playable (board.js marks toguz:board-ready after its first board)
// takes under 300 ms on loopback, the median of five loads after a first
// (with TOGUZ_TIMING_TEST=1; otherwise the board must only get there).
func TestBoardReadyTime(t *testing.T) {
	s := newSite(t)
	u := s.visitor(t, "en")
	p := page{"game-live", "/game/" + s.live, `performance.getEntriesByName('toguz:board-ready').length && document.querySelector('#board button.hole.playable')`}
	var times []float64
	for i := range 6 {
		u.open(p, 1366)
		ms := eval[float64](u, `performance.getEntriesByName('toguz:board-ready')[0].startTime`)
		if i > 0 {
			times = append(times, ms)
		}
	}
	slices.Sort(times)
	median := times[len(times)/2]
	t.Logf("navigation start to a playable board: %.0f ms median, %v", median, times)
	// The bound holds only on CPUs the browser has to itself: beside
	// another package's tests on two cores a CI run measured 307 ms. It is
	// checked in a step of .ci/run of its own.
	if os.Getenv("TOGUZ_TIMING_TEST") == "" {
		t.Logf("the bound (a median under 300 ms) is checked alone: TOGUZ_TIMING_TEST=1")
		return
	}
	if median >= 300 {
		t.Errorf("the board is playable %.0f ms after the navigation starts, want under 300", median)
	}
}
