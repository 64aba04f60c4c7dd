package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
)

// The game page's flows, each in Kazakh and in English: the page's texts
// must be the catalog's in the page's language.
var pageLangs = []string{"kk", "en"}

// setLang makes lang the language of u's pages (the switcher's cookie),
// and waits until a page comes in it. The cookie is set through the
// browser's network service: one written by document.cookie reaches it
// on a pipe of its own, and a navigation right after could leave without it.
func (u *user) setLang(lang string) {
	u.t.Helper()
	u.do("the language cookie", func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, network.SetCookie, network.SetCookieParams{Name: "lang", Value: lang, URL: u.base + "/", Path: "/"})
		return chromedp.Void{}, err
	}, chromedp.Navigate(u.base+"/"))
	u.waitFor("a page in "+lang, fmt.Sprintf(`document.readyState === 'complete' && document.documentElement.lang === %q`, lang), 10*time.Second)
}

// fetchJSON runs fetch(url, {method, body}) in u's page and returns the
// answer's field.
func (u *user) fetchJSON(method, url, body, field string) string {
	u.t.Helper()
	js := fmt.Sprintf(`fetch(%q, {method: %q, headers: {'Content-Type': 'application/json'}, body: %s}).then(r => r.json()).then(a => a[%q] || JSON.stringify(a))`,
		url, method, body, field)
	v, err := chromedp.Run(u.ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	if err != nil || v == "" || strings.HasPrefix(v, "{") {
		u.t.Fatalf("%s: %s %s: %q %v", u.name, method, url, v, err)
	}
	return v
}

const onBoard = `document.querySelector('#board button.hole') && document.getElementById('game').dataset.status === 'playing'`

// startPair signs up two players with pages in lang and starts a game
// between them at time control tc, White the first.
func startPair(t *testing.T, browser context.Context, base, lang, tc string) (white, black *user, id string) {
	white = newUser(t, browser, base, "aigul"+lang)
	black = newUser(t, browser, base, "bolat"+lang)
	for _, u := range []*user{white, black} {
		u.signup()
		u.setLang(lang)
	}
	white.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	seek := white.fetchJSON("POST", "/api/seeks", fmt.Sprintf(`JSON.stringify({tc: %q, color: 'white'})`, tc), "id")
	// Black accepts from a page without the lobby's socket, which would
	// take him to the game in the middle of the request; White's lobby
	// takes her there.
	black.do("a page", chromedp.Navigate(base+"/leaderboard"))
	id = black.fetchJSON("POST", "/api/seeks/"+seek+"/accept", "null", "game_id")
	black.do("the game page", chromedp.Navigate(base+"/game/"+id))
	for _, u := range []*user{white, black} {
		u.waitFor("the game page", fmt.Sprintf(`location.pathname === '/game/%s' && %s`, id, onBoard), 15*time.Second)
	}
	return white, black, id
}

// key presses k on u's page.
func (u *user) key(k string) {
	u.t.Helper()
	u.do("pressing "+k, chromedp.KeyEvent(k))
}

func (u *user) notice() string {
	u.t.Helper()
	return eval[string](u, `document.getElementById('notice').textContent`)
}

// waitNotice waits until the notice line says want.
func (u *user) waitNotice(want string) {
	u.t.Helper()
	u.waitFor(fmt.Sprintf("the notice %q", want), fmt.Sprintf(`document.getElementById('notice').textContent === %q`, want), 10*time.Second)
}

// TestClockFrozenAfterTimeLoss: after a loss on time both boards show the
// clocks the server stopped, the loser's at 0:00, and they stay so (the
// board used to jump back to the last move's value: 0:29 after a flag).
func TestClockFrozenAfterTimeLoss(t *testing.T) {
	base, browser, artifacts := setup(t)
	white, black, id := startPair(t, browser, base, "kk", "0.25+0") // 15 s: the shortest clock
	white.click(toguz.White, 1)
	black.waitPly(1)
	black.click(toguz.Black, 1)
	white.waitPly(2)
	// White lets her 15 s run out.
	for _, u := range []*user{white, black} {
		u.waitFor("the loss on time", `document.getElementById('game').dataset.status === 'ended'`, 25*time.Second)
	}
	var st struct {
		Termination string
		Clock       struct {
			WhiteMS int64 `json:"white_ms"`
			BlackMS int64 `json:"black_ms"`
		}
	}
	getJSON(t, base+"/api/games/"+id, &st)
	if st.Termination != "time" || st.Clock.WhiteMS != 0 {
		t.Fatalf("the server ends the game %q with the clocks %+v", st.Termination, st.Clock)
	}
	time.Sleep(1200 * time.Millisecond) // a running clock would have moved
	for _, u := range []*user{white, black} {
		for side, want := range map[string]int64{"white": st.Clock.WhiteMS, "black": st.Clock.BlackMS} {
			box := "#player-bottom"
			if (u == white) != (side == "white") {
				box = "#player-top"
			}
			got := eval[string](u, fmt.Sprintf(`document.querySelector('%s .clock').dataset.ms + ' ' + document.querySelector('%s .clock').textContent`, box, box))
			if wantText := fmt.Sprintf("%d %d:%02d", want, want/60000, want/1000%60); !strings.HasPrefix(got, wantText) {
				t.Errorf("%s sees %s's clock %q, the server stopped it at %d ms (%q)", u.name, side, got, want, wantText)
			}
		}
	}
	white.screenshot(artifacts, "clock-frozen-kk.png")
}

// TestKeysPremovesAndDrawOffers: White plays by keyboard, queues a premove
// while Black thinks (cancelled by Escape and by a second click, then
// queued again and played when her turn comes); a draw offer and its
// decline are said to both sides in the page's language.
func TestKeysPremovesAndDrawOffers(t *testing.T) {
	cat := i18n.New()
	for _, lang := range pageLangs {
		t.Run(lang, func(t *testing.T) {
			base, browser, artifacts := setup(t)
			white, black, _ := startPair(t, browser, base, lang, "5+0")
			// The first-move countdown is on White's board.
			prefix, _, _ := strings.Cut(cat.T(lang, "game.abortyou", "\x00"), "\x00")
			white.waitFor("the first-move countdown", fmt.Sprintf(`document.getElementById('notice').textContent.startsWith(%q)`, prefix), 5*time.Second)

			white.waitFor("White's turn", `document.querySelector('#board button.hole.playable')`, 10*time.Second)
			white.key("7")
			black.waitPly(1)
			white.waitPly(1)
			first := eval[string](white, `document.querySelector('#moves .ply').textContent`)
			if !strings.HasPrefix(first, "7") {
				t.Fatalf("key 7 played %q", first)
			}
			// The move is announced to screen readers, in the page's language.
			if got, want := eval[string](black, `document.getElementById('announce').textContent`), cat.T(lang, "game.plays", cat.T(lang, "game.white"), first); !strings.HasPrefix(got, want) {
				t.Errorf("Black's screen reader hears %q, want %q first", got, want)
			}
			// Premoves while Black is to move.
			white.key("3")
			white.waitFor("premove 3", `document.getElementById('game').dataset.premove === '3'`, 5*time.Second)
			if got, want := white.notice(), cat.T(lang, "game.premove", 3); got != want {
				t.Errorf("the premove's notice %q, want %q", got, want)
			}
			white.key(kb.Escape)
			white.waitFor("no premove", `document.getElementById('game').dataset.premove === ''`, 5*time.Second)
			white.press("premove by click", `#board .hole[data-side="white"][data-hole="2"]`)
			white.waitFor("premove 2", `document.getElementById('game').dataset.premove === '2'`, 5*time.Second)
			white.press("cancel by a second click", `#board .hole[data-side="white"][data-hole="2"]`)
			white.waitFor("no premove", `document.getElementById('game').dataset.premove === ''`, 5*time.Second)
			white.key("1")
			white.waitFor("premove 1", `document.getElementById('game').dataset.premove === '1'`, 5*time.Second)
			black.click(toguz.Black, 9)
			// The premove is sent as soon as Black's move arrives.
			for _, u := range []*user{white, black} {
				u.waitPly(3)
			}
			if got := eval[string](black, `document.querySelectorAll('#moves .ply')[2].textContent`); !strings.HasPrefix(got, "1") {
				t.Errorf("the premove played %q, want hole 1", got)
			}
			black.click(toguz.Black, 1)
			white.waitPly(4)

			// A draw offer, said to both sides, then declined.
			white.do("offering a draw", click(chromedp.CSS("#draw")))
			white.waitNotice(cat.T(lang, "game.drawyou"))
			black.waitNotice(cat.T(lang, "game.drawthem"))
			black.screenshot(artifacts, "draw-offer-"+lang+".png")
			black.do("declining", click(chromedp.CSS("#decline-draw")))
			white.waitNotice(cat.T(lang, "game.declinedthem"))
			black.waitNotice(cat.T(lang, "game.declinedyou"))
			// The holes are labelled in the page's language.
			label := eval[string](white, `document.querySelector('#board .hole[data-side="white"][data-hole="7"]').getAttribute('aria-label')`)
			stones := eval[int](white, `+document.querySelector('#board .hole[data-side="white"][data-hole="7"] .count').textContent`)
			if want := cat.N(lang, "game.holelabel", stones, 7, i18n.HoleNames(lang)[6], stones); label != want {
				t.Errorf("hole 7 is labelled %q, want %q", label, want)
			}
			// The notation hidden stays hidden on the next visit.
			white.do("hiding the notation", click(chromedp.CSS("#show-notation")), chromedp.Reload())
			white.waitFor("the game page", onBoard, 15*time.Second)
			if eval[bool](white, `document.getElementById('show-notation').checked || document.getElementById('moves').offsetParent !== null`) {
				t.Error("the notation hidden is shown again after a reload")
			}
		})
	}
}

// TestOwnMoveShownFirst: against the engine, one's own move is sown stone
// by stone and shown before the engine's reply, which is animated after it;
// keys play the moves. Under prefers-reduced-motion nothing is animated.
// It takes the game page's screenshots at 1366 and 360 px.
func TestOwnMoveShownFirst(t *testing.T) {
	for _, lang := range pageLangs {
		t.Run(lang, func(t *testing.T) {
			base, browser, artifacts := setup(t)
			u := newUser(t, browser, base, "ayan"+lang)
			u.signup()
			u.setLang(lang)
			id := u.fetchJSON("POST", "/api/engine-games", `JSON.stringify({level: 1, color: 'white'})`, "game_id")
			u.do("the game page", chromedp.Navigate(base+"/game/"+id))
			u.waitFor("the game page", onBoard, 15*time.Second)
			// Log every change of the ply shown and of the animation.
			u.do("watching the board", chromedp.Evaluate[chromedp.Void](`(() => {
				const g = document.getElementById('game');
				window.shown = [];
				new MutationObserver(() => {
					const e = {ply: g.dataset.ply, anim: g.dataset.animating, at: performance.now()};
					const last = window.shown[window.shown.length - 1];
					if (!last || last.ply !== e.ply || last.anim !== e.anim) window.shown.push(e);
				}).observe(g, {attributes: true, attributeFilter: ['data-ply', 'data-animating']});
			})()`))
			type shownEntry struct {
				Ply  string  `json:"ply"`
				Anim string  `json:"anim"`
				At   float64 `json:"at"`
			}
			for ply := 0; ply < 4; ply += 2 {
				u.waitFor("White's turn", fmt.Sprintf(`(g => g.dataset.turn === 'white' && g.dataset.ply === "%d" && document.querySelector('#board button.hole.playable'))(document.getElementById('game'))`, ply), 15*time.Second)
				h := eval[int](u, `+document.querySelector('#board button.hole.playable[data-side="white"]').dataset.hole`)
				u.do("clear the log", chromedp.Evaluate[chromedp.Void](`(g => { window.shown = [{ply: g.dataset.ply, anim: g.dataset.animating, at: performance.now()}]; })(document.getElementById('game'))`))
				u.key(fmt.Sprint(h))
				u.waitFor("the engine's reply, shown", fmt.Sprintf(`(g => g.dataset.ply === "%d" && g.dataset.animating === '')(document.getElementById('game'))`, ply+2), 15*time.Second)
				log := eval[[]shownEntry](u, `window.shown`)
				// The log: the position before, own move animated, own
				// move shown, the reply animated, the reply shown.
				var seq []string
				var ownAt, replyAt float64
				for _, e := range log {
					seq = append(seq, e.Ply+":"+e.Anim)
					if e.Anim == "" && e.Ply == fmt.Sprint(ply+1) {
						ownAt = e.At
					}
					if e.Anim == "1" && e.Ply == fmt.Sprint(ply+1) && ownAt > 0 && replyAt == 0 {
						replyAt = e.At
					}
				}
				want := fmt.Sprintf("%d: %d:1 %d: %d:1 %d:", ply, ply, ply+1, ply+1, ply+2)
				if got := strings.Join(seq, " "); got != want {
					t.Errorf("ply %d: the board showed %q (ply:animating), want %q", ply+1, got, want)
				}
				if replyAt-ownAt < 250 {
					t.Errorf("ply %d: own move shown for %.0f ms before the reply's animation", ply+1, replyAt-ownAt)
				}
				if ply == 2 {
					u.do("the hole names", click(chromedp.CSS("#show-names")))
					for _, w := range []int64{1366, 360} {
						u.do("viewport", chromedp.EmulateViewport(w, 900))
						png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
						if err != nil {
							t.Fatal(err)
						}
						writeArtifact(t, artifacts, fmt.Sprintf("game-%s-%d.png", lang, w), png)
						if width := eval[int](u, `document.documentElement.scrollWidth`); width > int(w) {
							t.Errorf("at %d px the game page is %d px wide", w, width)
						}
					}
					u.do("viewport", chromedp.EmulateViewport(1100, 900))
				}
			}
			// With reduced motion the moves are shown at once.
			if _, err := chromedp.Call(u.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
				t.Fatalf("reduced motion: %v", err)
			}
			u.do("reload", chromedp.Reload())
			u.waitFor("White's turn", `(g => g.dataset.turn === 'white' && g.dataset.ply === "4" && document.querySelector('#board button.hole.playable'))(document.getElementById('game'))`, 15*time.Second)
			u.do("watching the animation", chromedp.Evaluate[chromedp.Void](`(() => {
				const g = document.getElementById('game');
				window.animated = false;
				new MutationObserver(() => { if (g.dataset.animating === '1') window.animated = true; }).observe(g, {attributes: true});
			})()`))
			h := eval[int](u, `+document.querySelector('#board button.hole.playable[data-side="white"]').dataset.hole`)
			u.key(fmt.Sprint(h))
			u.waitPly(6)
			if eval[bool](u, `window.animated`) {
				t.Error("moves animated under prefers-reduced-motion")
			}
		})
	}
}

// writeArtifact saves a screenshot in dir.
func writeArtifact(t *testing.T, dir, file string, png []byte) {
	t.Helper()
	path := filepath.Join(dir, file)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}
