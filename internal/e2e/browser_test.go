package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
)

// setup skips the test unless TOGUZ_E2E=1, and starts the server and a
// headless Chromium. It returns the server's URL, the browser's context and
// the directory for screenshots.
func setup(t *testing.T) (string, context.Context, string) {
	t.Helper()
	return setupWith(t, server.Options{Engines: 1})
}

// setupWith is setup with the server's options (its DB is the test's
// unless they name one).
func setupWith(t *testing.T, sopts server.Options) (string, context.Context, string) {
	t.Helper()
	if os.Getenv("TOGUZ_E2E") != "1" {
		t.Skip("browser test: set TOGUZ_E2E=1 to run it (needs Debian's chromium: apt-get install -y chromium)")
	}
	chromium := os.Getenv("TOGUZ_CHROMIUM")
	if chromium == "" {
		var err error
		if chromium, err = exec.LookPath("chromium"); err != nil {
			t.Fatalf("TOGUZ_E2E=1 but no chromium on PATH (apt-get install -y chromium, or set TOGUZ_CHROMIUM): %v", err)
		}
	}
	artifacts := os.Getenv("TOGUZ_E2E_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	} else if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	if sopts.DB == "" { // a test may fill a database first
		sopts.DB = filepath.Join(t.TempDir(), "toguz.db")
	}
	if sopts.ReviewWorkers == 0 {
		sopts.ReviewWorkers = -1 // no reviews unless the test asks
	}
	srv, err := server.StartLocal(ctx, sopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	})

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		// Chromium keeps its singleton socket in a directory of its own
		// under TMPDIR, which it removes only on a clean exit: the test
		// kills it, so that directory must be the test's.
		chromedp.Env("TMPDIR="+t.TempDir()),
		chromedp.WindowSize(1100, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return srv.URL, browser, artifacts
}

// user is one person at his own browser window, with his own cookies.
type user struct {
	t    *testing.T
	name string
	ctx  context.Context
	base string
}

func newUser(t *testing.T, browser context.Context, base, name string) *user {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// The tab opens on this context, so that do's timeouts, derived from
	// it, bound an action and not the tab's life.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("%s: opening a tab: %v", name, err)
	}
	return &user{t: t, name: name, ctx: ctx, base: base}
}

// do runs browser actions, failing the test with what it was doing. A
// minute bounds them: an action that waits for what never comes (a click
// on a button that the page has hidden) fails the test at once, not after
// the browser's four minutes.
func (u *user) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		u.t.Fatalf("%s: %s: %v", u.name, what, err)
	}
}

// press clicks the element sel with the mouse, as a user does.
func (u *user) press(what, sel string) {
	u.t.Helper()
	u.do(what, click(chromedp.CSS(sel)))
}

// click is chromedp.Click, tried again (three times at most) when the node
// it found is gone before it is pressed: a page that draws a part of
// itself again (a board on every state and clock, a list on every answer)
// replaces its buttons, and the click fails with "Could not find node"
// before any mouse event is sent.
func click[S chromedp.Selectable](sel S, opts ...chromedp.QueryOption) chromedp.Action[chromedp.Void] {
	act := chromedp.Click(sel, opts...)
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		for try := 1; ; try++ {
			v, err := act(ctx, t)
			if err == nil || try == 3 || !strings.Contains(err.Error(), "Could not find node") {
				return v, err
			}
		}
	}
}

// eval returns the value of a JavaScript expression in the page.
func eval[T any](u *user, expr string) T {
	u.t.Helper()
	v, err := chromedp.Run(u.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		u.t.Fatalf("%s: evaluating %s: %v", u.name, expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds.
func (u *user) waitFor(what, cond string, timeout time.Duration) {
	u.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ok, err := chromedp.Run(u.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			loc, _ := chromedp.Run(u.ctx, chromedp.Location())
			status, _ := chromedp.Run(u.ctx, chromedp.Evaluate[string](`(document.getElementById('status')||{}).textContent||''`))
			u.t.Fatalf("%s: waiting %v for %s (%s) at %s, status %q: %v", u.name, timeout, what, cond, loc, status, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// signup creates the account through the sign-up form.
func (u *user) signup() {
	u.t.Helper()
	u.do("sign-up form",
		chromedp.Navigate(u.base+"/signup"),
		chromedp.WaitVisible(chromedp.CSS("#auth-form")),
		chromedp.SendKeys(chromedp.CSS("#auth-name"), u.name),
		chromedp.SendKeys(chromedp.CSS("#auth-password"), "correct horse battery"),
		click(chromedp.CSS("#auth-submit")),
	)
	u.waitFor("the lobby after sign-up", fmt.Sprintf(`(document.getElementById('me-name')||{}).textContent === %q`, u.name), 10*time.Second)
}

// screenshot saves the board as PNG in dir.
func (u *user) screenshot(dir, file string) {
	u.t.Helper()
	png, err := chromedp.Run(u.ctx, chromedp.Screenshot(chromedp.CSS("#game")))
	if err != nil {
		u.t.Fatalf("%s: screenshot: %v", u.name, err)
	}
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		u.t.Fatal(err)
	}
	u.t.Logf("screenshot %s", path)
}

// gameID returns the id of the game the page shows.
func (u *user) gameID() string {
	u.t.Helper()
	return eval[string](u, `document.getElementById('game').dataset.id`)
}

// click plays hole h of side by clicking it on the board.
func (u *user) click(side toguz.Player, h toguz.Move) {
	u.t.Helper()
	sel := fmt.Sprintf(`#board button.hole.playable[data-side=%q][data-hole="%d"]`, side, h)
	u.waitFor("hole "+h.String()+" to be playable", fmt.Sprintf("document.querySelector(%q)", sel), 15*time.Second)
	u.press("clicking hole "+h.String(), sel)
}

// waitPly waits until the board shows ply n.
func (u *user) waitPly(n int) {
	u.t.Helper()
	u.waitFor(fmt.Sprintf("ply %d", n), fmt.Sprintf(`document.getElementById('game') && document.getElementById('game').dataset.ply === "%d"`, n), 15*time.Second)
}

// gain is the number of stones m puts into the mover's kazan.
func gain(p toguz.Position, m toguz.Move) int {
	me := p.Turn()
	q := p.After(m)
	return q.Kazan(me) - p.Kazan(me)
}

// shortLine chooses the moves of a quick game: White takes the biggest
// capture, and Black plays the move that leaves White the biggest capture
// next. From the start it ends in 53 plies, White winning by atsyrau.
func shortLine(p toguz.Position) toguz.Move {
	best, bestValue := toguz.NoMove, -1<<30
	for m := range p.LegalMoves().All() {
		v := gain(p, m)
		if p.Turn() == toguz.Black {
			q := p.After(m)
			next := 0
			for m2 := range q.LegalMoves().All() {
				next = max(next, gain(q, m2))
			}
			v = 100*next - v
		}
		if v > bestValue {
			best, bestValue = m, v
		}
	}
	return best
}

// profile is GET /api/users/{name}.
type profile struct {
	Name    string
	Ratings map[string]struct {
		Rating      float64
		RD          float64
		Provisional bool
		Games       int
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

func TestTwoPlayers(t *testing.T) {
	base, browser, artifacts := setup(t)
	white := newUser(t, browser, base, "aigul")
	black := newUser(t, browser, base, "bolat")
	white.signup()
	black.signup()

	// White opens a rated blitz seek and waits on its challenge page.
	white.do("creating a seek",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#seek-form")),
		chromedp.SetValue(chromedp.CSS("#seek-tc"), "5+3"),
		click(chromedp.CSS("#seek-rated")),
		chromedp.SetValue(chromedp.CSS(`#seek-form select[name="color"]`), "white"),
		click(chromedp.CSS("#seek-submit")),
	)
	white.waitFor("the challenge page", `document.getElementById('challenge')`, 10*time.Second)
	// In the lobby her own seek is hers to cancel, never to play; she waits
	// there (the lobby's socket keeps the seek open and brings her to the
	// game).
	white.do("back to the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	white.waitFor("her seek in the lobby's live list",
		`document.getElementById('seeks').dataset.total === '1' && !!document.querySelector('#seeks button.cancel-seek') && !document.querySelector('#seeks button.accept-seek')`,
		10*time.Second)

	// Black finds it in the lobby and accepts; both land on the game.
	black.do("accepting the seek",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#seeks button.accept-seek")),
		click(chromedp.CSS("#seeks button.accept-seek")),
	)
	const onBoard = `document.querySelector('#board button.hole') && document.getElementById('game').dataset.status === 'playing'`
	black.waitFor("the game page", onBoard, 15*time.Second)
	white.waitFor("the game page", onBoard, 15*time.Second)
	id := black.gameID()
	if got := white.gameID(); got != id {
		t.Fatalf("white is on game %q, black on %q", got, id)
	}

	// Every change of the page is checked against what the board shows: the
	// move list never lists a move before the board shows it, and the
	// result waits until the board has shown the last move.
	const watch = `(() => {
		const root = document.getElementById('game');
		window.__ahead = [];
		new MutationObserver(() => {
			const animating = root.dataset.animating === '1', shown = Number(root.dataset.ply);
			const listed = document.querySelectorAll('#moves button.ply').length;
			if (listed > shown + (animating ? 1 : 0)) window.__ahead.push('list: ' + listed + ' moves at ply ' + shown + (animating ? ' (animating)' : ''));
			if (root.dataset.status === 'ended' && animating && document.getElementById('status').textContent.indexOf(window.__result) === 0)
				window.__ahead.push('result while animating');
		}).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
		return true;
	})()`
	for _, u := range []*user{white, black} {
		eval[bool](u, watch)
	}
	p := toguz.StartPosition()
	players := [2]*user{white, black}
	for ply := 0; !p.IsOver(); ply++ {
		m := shortLine(p)
		if p.After(m).IsOver() {
			// The result's sentence, for the watch above.
			o := p.After(m).Outcome()
			for _, u := range players {
				eval[bool](u, fmt.Sprintf(`(window.__result = %q, true)`, u.outcome(o.Result.String(), o.Termination.String(), o.Score)))
			}
		}
		players[p.Turn()].click(p.Turn(), m)
		p = p.After(m)
		white.waitPly(ply + 1)
		black.waitPly(ply + 1)
		if ply == 9 {
			white.screenshot(artifacts, "two-players-white-ply10.png")
			black.screenshot(artifacts, "two-players-black-ply10.png")
		}
	}
	o := p.Outcome()
	for _, u := range players {
		u.waitFor("the end of the game", `document.getElementById('game').dataset.status === 'ended'`, 10*time.Second)
		// The result shows once the board has shown the last move.
		want := u.outcome(o.Result.String(), o.Termination.String(), o.Score)
		u.waitFor("the result", fmt.Sprintf(`document.getElementById('status').textContent.indexOf(%q) === 0`, want), 10*time.Second)
	}
	for _, u := range players {
		if ahead := eval[[]string](u, `window.__ahead || ['the watch is gone']`); len(ahead) > 0 {
			t.Errorf("%s's page ran ahead of its board: %q", u.name, ahead[:min(len(ahead), 5)])
		}
	}
	// Each player sees both ratings and what the game did to them, as it
	// ends and after a reload: the winner's up, the loser's down.
	names := `[...document.querySelectorAll('#player-top .name, #player-bottom .name')].map(e => e.textContent).join(' | ')`
	changed := regexp.MustCompile(`\(\d+ \+\d+\).*\(\d+ \x{2212}\d+\)|\(\d+ \x{2212}\d+\).*\(\d+ \+\d+\)`)
	for _, u := range players {
		for _, when := range []string{"at the end", "after a reload"} {
			if when == "after a reload" {
				// A finished game's page is its replay.
				u.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#player-top .name")))
				u.waitFor("the replay's names", `document.querySelector('#player-top .name').textContent !== ''`, 10*time.Second)
			}
			if got := eval[string](u, names); !changed.MatchString(got) {
				t.Errorf("%s %s sees the players %q, want each rating with its change", u.name, when, got)
			}
		}
	}
	white.screenshot(artifacts, "two-players-white-end.png")
	black.screenshot(artifacts, "two-players-black-end.png")
	// And on a phone's screen, where Black's own row is at the bottom too.
	black.do("phone viewport", chromedp.EmulateViewport(390, 844))
	black.screenshot(artifacts, "two-players-black-phone-end.png")

	// Both histories show the game with its result.
	for _, u := range players {
		u.do("profile", chromedp.Navigate(base+"/@/"+u.name), chromedp.WaitVisible(chromedp.CSS("#history")))
		row := eval[string](u, fmt.Sprintf(`(a => a ? a.closest('tr').textContent : '')(document.querySelector('#history tr.game-row a[href="/game/%s"]'))`, id))
		lang := eval[string](u, `document.documentElement.lang`)
		if want := i18n.New().Outcome(lang, o.Result.String(), o.Termination.String(), nil); !strings.Contains(row, want) {
			t.Errorf("%s's history: the row of game %s is %q, want the result %q", u.name, id, row, want)
		}
	}
	// Both ratings changed, the winner's up and the loser's down.
	for _, pl := range []toguz.Player{toguz.White, toguz.Black} {
		var pr profile
		getJSON(t, base+"/api/users/"+players[pl].name, &pr)
		r, ok := pr.Ratings["blitz"]
		if !ok || r.Games != 1 {
			t.Errorf("%s's blitz rating: %+v (present %v), want one game", pr.Name, r, ok)
			continue
		}
		won := o.Result == toguz.WinFor(pl)
		if won && r.Rating <= 1500 || !won && r.Rating >= 1500 {
			t.Errorf("%s (%s, won: %v) has blitz rating %.1f after the game", pr.Name, pl, won, r.Rating)
		}
		// The profile page shows the new rating.
		u := players[pl]
		u.do("profile", chromedp.Navigate(base+"/@/"+u.name), chromedp.WaitVisible(chromedp.CSS("#ratings")))
		shown := eval[string](u, `document.getElementById('ratings').textContent`)
		if want := fmt.Sprintf("%.0f", r.Rating); !strings.Contains(shown, want) {
			t.Errorf("%s's profile shows the ratings %q, want %s in them", u.name, shown, want)
		}
		t.Logf("%s: blitz %.1f ±%.1f", pr.Name, r.Rating, r.RD)
	}
}

func TestEngineGame(t *testing.T) {
	base, browser, artifacts := setup(t)
	u := newUser(t, browser, base, "ayan")
	u.signup()
	u.do("starting a game against the engine",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#engine-form")),
		chromedp.SetValue(chromedp.CSS("#engine-level"), "1"),
		chromedp.SetValue(chromedp.CSS(`#engine-form select[name="color"]`), "white"),
		click(chromedp.CSS("#engine-submit")),
	)
	u.waitFor("the game page", `document.querySelector('#board button.hole') && document.getElementById('game').dataset.status === 'playing'`, 15*time.Second)
	id := u.gameID()

	// The person plays White with the greedy capture; the engine answers
	// on the server. The position comes from the API after each reply.
	const maxPlies = 400
	for ply := 0; ; ply += 2 {
		u.waitFor("White's turn or the end", fmt.Sprintf(`(g => g.dataset.status !== 'playing' || (g.dataset.turn === 'white' && g.dataset.ply === "%d"))(document.getElementById('game'))`, ply), 30*time.Second)
		if eval[string](u, `document.getElementById('game').dataset.status`) != "playing" {
			break
		}
		var st struct{ FEN string }
		getJSON(t, base+"/api/games/"+id, &st)
		p, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
		if err != nil {
			t.Fatalf("the game's position %q: %v", st.FEN, err)
		}
		if ply >= maxPlies {
			t.Fatalf("no end after %d plies", ply)
		}
		best, bestGain := toguz.NoMove, -1
		for m := range p.LegalMoves().All() {
			if g := gain(p, m); g > bestGain {
				best, bestGain = m, g
			}
		}
		u.click(toguz.White, best)
		if ply == 10 {
			u.screenshot(artifacts, "engine-ply10.png")
		}
	}
	var st struct {
		Status, Result, Termination string
		FEN                         string
		Score                       [2]int
	}
	getJSON(t, base+"/api/games/"+id, &st)
	p, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	if o := p.Outcome(); st.Status != "ended" || st.Result != o.Result.String() || st.Termination != o.Termination.String() {
		t.Errorf("the server ends the game %s %s %s; its final position %s ends it %s by %s", st.Status, st.Result, st.Termination, st.FEN, o.Result, o.Termination)
	}
	// The result shows once the board has shown the last move.
	want := u.outcome(st.Result, st.Termination, st.Score)
	u.waitFor("the result", fmt.Sprintf(`document.getElementById('status').textContent.indexOf(%q) === 0`, want), 10*time.Second)
	u.screenshot(artifacts, "engine-end.png")
}

// outcome is the sentence that says how a game ended in the language of
// u's page.
func (u *user) outcome(result, termination string, score [2]int) string {
	u.t.Helper()
	return i18n.New().Outcome(eval[string](u, `document.documentElement.lang`), result, termination, &score)
}

// shownLanding returns the hole the board highlights as the last move's
// landing, "side hole", or "" when none is.
func (u *user) shownLanding() string {
	u.t.Helper()
	return eval[string](u, `(e => e ? e.dataset.side + ' ' + e.dataset.hole : '')(document.querySelector('#board .hole.to'))`)
}

// landingAfter is shownLanding once it is want, or what it still is after
// d: the replay may still be stepping to its last ply when it is first
// read (it was one ply behind at its first read, now and then, in CI).
func (u *user) landingAfter(want string, d time.Duration) string {
	u.t.Helper()
	got := u.shownLanding()
	for end := time.Now().Add(d); got != want && time.Now().Before(end); got = u.shownLanding() {
		time.Sleep(50 * time.Millisecond)
	}
	return got
}

// landingOf is the rules library's landing of the move from hole h of the
// position fen, written as shownLanding writes it.
func landingOf(t *testing.T, fen string, r toguz.Rules, h int) string {
	t.Helper()
	p, _, err := toguz.ParseFEN(fen, r)
	if err != nil {
		t.Fatalf("position %q: %v", fen, err)
	}
	side, hole := p.Landing(toguz.Move(h))
	return fmt.Sprintf("%s %d", side, hole)
}

// TestPre1949Landings plays an engine game under the pre1949 rules, where
// the first stone is not put back into the emptied hole, and checks that
// the board highlights the library's landing of every last move and offers
// the library's legal holes; then the same in the replay of its record.
// It also takes the game page's screenshots at 1366 and 360 px.
func TestPre1949Landings(t *testing.T) {
	base, browser, artifacts := setup(t)
	u := newUser(t, browser, base, "erlan")
	u.signup()
	u.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#engine-form")))
	id, err := chromedp.Run(u.ctx, chromedp.Evaluate[string](`fetch('/api/engine-games', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({level: 1, color: 'white', ruleset: 'pre1949'})}).then(r => r.json()).then(a => a.game_id || JSON.stringify(a))`, chromedp.EvalAwaitPromise))
	if err != nil || id == "" || strings.HasPrefix(id, "{") {
		t.Fatalf("creating a pre1949 engine game: %q %v", id, err)
	}
	u.do("the game page", chromedp.Navigate(base+"/game/"+id))
	type state struct {
		Ruleset, Status string
		Positions       []string
		Moves           []struct{ Hole int }
	}
	checked := 0
	whitesTurn := func(ply int) {
		u.waitFor("White's turn or the end", fmt.Sprintf(`(g => g && g.dataset.status && (g.dataset.status !== 'playing' || (g.dataset.turn === 'white' && g.dataset.ply === "%d")))(document.getElementById('game'))`, ply), 30*time.Second)
	}
	ply := 0
	for ; ply < 16; ply += 2 {
		whitesTurn(ply)
		var st state
		getJSON(t, base+"/api/games/"+id, &st)
		if st.Ruleset != "pre1949" {
			t.Fatalf("the game is played under %q", st.Ruleset)
		}
		if n := len(st.Moves); n > 0 {
			want := landingOf(t, st.Positions[n-1], toguz.Pre1949(), st.Moves[n-1].Hole)
			if got := u.shownLanding(); got != want {
				t.Errorf("after ply %d (hole %d) the board highlights %q, the library lands on %q", n, st.Moves[n-1].Hole, got, want)
			}
			checked++
		}
		if st.Status != "playing" {
			break
		}
		p, _, err := toguz.ParseFEN(st.Positions[len(st.Positions)-1], toguz.Pre1949())
		if err != nil {
			t.Fatal(err)
		}
		u.waitFor("the playable holes", `document.querySelector('#board button.hole.playable')`, 10*time.Second)
		got := eval[[]int](u, `Array.from(document.querySelectorAll('#board button.hole.playable')).map(e => +e.dataset.hole).sort((a, b) => a - b)`)
		var want []int
		for m := range p.LegalMoves().All() {
			want = append(want, int(m))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("at ply %d the board offers %v, the library's legal moves are %v", ply, got, want)
		}
		// The hole with the most stones: sown from the next hole, its last
		// stone falls one hole further on than under the federation rules.
		best, most := toguz.NoMove, 0
		for m := range p.LegalMoves().All() {
			if n := p.Stones(p.Turn(), int(m)); n > most {
				best, most = m, n
			}
		}
		u.click(toguz.White, best)
		if ply == 6 {
			for _, w := range []int64{1366, 360} {
				u.do("viewport", chromedp.EmulateViewport(w, 900))
				u.screenshot(artifacts, fmt.Sprintf("pre1949-game-%d.png", w))
			}
			u.do("viewport", chromedp.EmulateViewport(1100, 900))
		}
	}
	if checked < 3 {
		t.Fatalf("checked %d landings", checked)
	}
	// The engine's reply to the last click: without it the record exported
	// below can be a ply shorter than the state read after it.
	whitesTurn(ply)

	// The record, imported: the replay highlights each ply's landing.
	resp, err := http.Get(base + "/api/games/" + id + "/export?format=toguz")
	if err != nil {
		t.Fatal(err)
	}
	var record strings.Builder
	_, err = io.Copy(&record, resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	var st state
	getJSON(t, base+"/api/games/"+id, &st)
	u.do("importing the record",
		chromedp.Navigate(base+"/import"),
		chromedp.WaitVisible(chromedp.CSS("#import-text")),
		chromedp.SetValue(chromedp.CSS("#import-text"), record.String()),
		click(chromedp.CSS("#import-submit")),
	)
	u.waitFor("the replay", `document.querySelector('#game #board button.hole')`, 10*time.Second)
	for n := len(st.Moves); n >= 1 && n > len(st.Moves)-6; n-- {
		want := landingOf(t, st.Positions[n-1], toguz.Pre1949(), st.Moves[n-1].Hole)
		if got := u.landingAfter(want, 5*time.Second); got != want {
			t.Errorf("the replay at ply %d (hole %d) highlights %q, the library lands on %q", n, st.Moves[n-1].Hole, got, want)
		}
		u.do("one ply back", click(chromedp.CSS("#prev")))
	}
	// Every text of the replay is translated: the page gives board.js
	// each key it uses.
	if status := eval[string](u, `document.getElementById('status').textContent`); strings.Contains(status, "tomove") {
		t.Errorf("the replay's status shows an untranslated key: %q", status)
	}
	u.screenshot(artifacts, "pre1949-replay.png")
}

// TestEditorVerdict opens the editor of the 2×5 game: its stone total is
// the ruleset's, and a wrong position gets the server's reason on the page.
func TestEditorVerdict(t *testing.T) {
	base, browser, artifacts := setup(t)
	u := newUser(t, browser, base, "dana")
	u.do("the bestemshe editor", chromedp.Navigate(base+"/editor?ruleset=bestemshe"), chromedp.WaitVisible(chromedp.CSS("#editor")))
	if got := eval[string](u, `document.getElementById('editor-total').textContent`); got != "50" {
		t.Errorf("the bestemshe editor counts %q stones, want 50", got)
	}
	if n := eval[int](u, `document.querySelectorAll('#editor .hole-input').length`); n != 10 {
		t.Errorf("the bestemshe editor has %d holes, want 10", n)
	}
	// Typing one stone fewer: the count turns bad and the server says why.
	u.do("one stone fewer", chromedp.SetValue(chromedp.CSS(`#editor input[name="w1"]`), "4"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('editor').dispatchEvent(new Event('input', {bubbles: true}))`))
	u.waitFor("the server's verdict", `(e => !e.hidden && e.textContent.includes('49 stones in all, want 50'))(document.getElementById('editor-error'))`, 10*time.Second)
	if !eval[bool](u, `document.getElementById('editor-total').classList.contains('bad')`) {
		t.Error("49 of 50 stones is not marked bad")
	}
	png, err := chromedp.Run(u.ctx, chromedp.Screenshot(chromedp.CSS("main")))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(artifacts, "editor-bestemshe.png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
	// Put back, the verdict goes away.
	u.do("the stone back", chromedp.SetValue(chromedp.CSS(`#editor input[name="w1"]`), "5"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('editor').dispatchEvent(new Event('input', {bubbles: true}))`))
	u.waitFor("no verdict", `document.getElementById('editor-error').hidden && document.getElementById('editor').dataset.checked === 'ok'`, 10*time.Second)
}
