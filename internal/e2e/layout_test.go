package e2e

import (
	"fmt"
	"net/http"
	"net/url"
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

// crowdedKazan is a position whose kazans hold 70 and 40 stones, with
// White's tuzdik on Black's hole 3 and a capture for White to make.
func crowdedKazan(t *testing.T) (toguz.Position, toguz.Move) {
	t.Helper()
	p, err := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{{5, 5, 5, 5, 5, 0, 0, 0, 2}, {5, 5, 0, 5, 5, 5, 0, 0, 0}},
		Kazan: [2]int{70, 40}, Tuzdik: [2]int{3, 0}, Turn: toguz.White}.Position()
	if err != nil {
		t.Fatal(err)
	}
	for m := range p.LegalMoves().All() {
		if gain(p, m) > 0 {
			return p, m
		}
	}
	t.Fatalf("no capture in %s", p.FEN())
	return p, 0
}

// shot saves a screenshot of the whole page in dir.
func (u *user) shot(dir, file string) {
	u.t.Helper()
	png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		u.t.Fatalf("%s: screenshot: %v", u.name, err)
	}
	writeArtifact(u.t, dir, file, png)
}

// checkLegend: the board's legend is shown, its words in lang.
func checkLegend(t *testing.T, u *user, cat *i18n.Catalog, lang, where string) {
	t.Helper()
	legend := eval[string](u, `(e => e && e.offsetParent !== null ? e.textContent : '')(document.querySelector('.board-legend'))`)
	for _, k := range []string{"board.legend.tuzdik", "board.legend.from", "board.legend.to"} {
		if !strings.Contains(legend, cat.T(lang, k)) {
			t.Errorf("%s %s: the board's legend %q lacks %q", lang, where, legend, cat.T(lang, k))
		}
	}
}

// TestAnalysisBoardLayout, in kk and en at 1366 and 360 px: the
// evaluation bar is as tall as the board beside it; the capture's badge
// never covers a kazan's stones (70 of them); the board has a legend of
// its marks and a tuzdik names its owner in the page's language.
func TestAnalysisBoardLayout(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	p, capture := crowdedKazan(t)
	for _, lang := range pageLangs {
		u := newUser(t, browser, base, "layout-"+lang)
		u.setLang(lang)
		for _, w := range []int64{1366, 360} {
			what := fmt.Sprintf("%s %d px", lang, w)
			u.do("viewport", chromedp.EmulateViewport(w, 800))
			u.do("the analysis board", chromedp.Navigate(base+"/analysis?fen="+url.QueryEscape(p.FEN())))
			u.waitFor("a playable board", `document.querySelector('#board button.hole.playable')`, 15*time.Second)

			type box struct{ Top, Bottom, Left, Width float64 }
			rect := `(e => (r => ({Top: r.top, Bottom: r.bottom, Left: r.left, Width: r.width}))(e.getBoundingClientRect()))`
			bar := eval[box](u, rect+`(document.getElementById('evalbar'))`)
			board := eval[box](u, rect+`(document.getElementById('board'))`)
			if d := bar.Top - board.Top; d < -2 || d > 2 {
				t.Errorf("%s: the evaluation bar's top is at %.0f, the board's at %.0f", what, bar.Top, board.Top)
			}
			if d := bar.Bottom - board.Bottom; d < -2 || d > 2 {
				t.Errorf("%s: the evaluation bar is %.0f px tall beside a board of %.0f px", what, bar.Bottom-bar.Top, board.Bottom-board.Top)
			}
			if bar.Left < 0 || bar.Width < 8 {
				t.Errorf("%s: the evaluation bar is %.0f px wide at %.0f", what, bar.Width, bar.Left)
			}

			checkLegend(t, u, cat, lang, "analysis")
			owner := eval[string](u, `(e => e && e.offsetParent !== null ? e.textContent : '')(document.querySelector('#board .hole.tuzdik .owner'))`)
			if want := cat.T(lang, "game.white"); owner != want {
				t.Errorf("%s: the tuzdik's owner is shown as %q, want %q", what, owner, want)
			}

			u.click(toguz.White, capture)
			u.waitFor("the capture's badge", `document.querySelector('#board .kazan .captured')`, 10*time.Second)
			overlaps := eval[int](u, `(() => {
  const b = document.querySelector('#board .kazan .captured').getBoundingClientRect();
  let n = 0;
  for (const s of document.querySelector('#board .kazan .captured').closest('.kazan').querySelectorAll('.stone, .more')) {
    const r = s.getBoundingClientRect();
    if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) n++;
  }
  return n;
})()`)
			if overlaps > 0 {
				t.Errorf("%s: the capture's badge covers %d stones of the kazan", what, overlaps)
			}
			fits360(t, u, what+" analysis", w)
			u.shot(artifacts, fmt.Sprintf("layout-analysis-%s-%d.png", lang, w))
		}
	}
}

// fits360 is fits at a 360 px window.
func fits360(t *testing.T, u *user, what string, w int64) {
	t.Helper()
	if w == 360 {
		fits(t, u, what)
	}
}

// TestReviewPagesAndDiagrams, in kk and en at 1366 and 360 px: GET
// /game/{id}/review in a browser is the game page at its review section,
// whose engine is named in the page's language; the game page has the
// board's legend; the server's SVG boards are titled in the page's
// language.
func TestReviewPagesAndDiagrams(t *testing.T) {
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, ReviewWorkers: 1, ReviewDepth: 6})
	cat := i18n.New()
	alice := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "aigul", "password": "correct horse battery"})["token"].(string)
	done := finishedEngineGame(t, base, alice)
	waitReview(t, base, done)
	reviewed := importReviewed(t, base, alice)
	for _, lang := range pageLangs {
		u := newUser(t, browser, base, "reviewer-"+lang)
		u.do("cookies", setCookie(base, "toguz_session", alice), setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			what := fmt.Sprintf("%s %d px", lang, w)
			u.do("viewport", chromedp.EmulateViewport(w, 800))
			u.do("the review's address", chromedp.Navigate(base+"/game/"+done+"/review"))
			u.waitFor("the game page", `document.querySelector('#review[data-state="done"]') && document.querySelector('#board button.hole')`, 15*time.Second)
			if loc := eval[string](u, `location.pathname + location.hash`); loc != "/game/"+done+"#review" {
				t.Errorf("%s: /game/%s/review shows %s", what, done, loc)
			}
			if !eval[bool](u, `!!document.querySelector('header') && getComputedStyle(document.body).margin !== '8px'`) {
				t.Errorf("%s: the review is not a page of the site", what)
			}
			engine := eval[string](u, `document.querySelector('#review .review-black th').textContent`)
			if want := cat.T(lang, "game.engine", 1); !strings.Contains(engine, want) {
				t.Errorf("%s: the review names the engine %q, want %q", what, engine, want)
			}
			checkLegend(t, u, cat, lang, "game page")
			fits360(t, u, what+" review", w)
			u.shot(artifacts, fmt.Sprintf("layout-review-%s-%d.png", lang, w))

			// The diagrams' titles: the learn page's and the exercise's.
			title := regexp.MustCompile("^" + strings.NewReplacer("%d", `\d+`, "%s", ".+").Replace(regexp.QuoteMeta(cat.T(lang, "board.title"))) + "$")
			u.do("a learn diagram", chromedp.Navigate(base+"/learn/diagram/ex1.svg"))
			if got := eval[string](u, `document.querySelector('title').textContent`); !title.MatchString(got) {
				t.Errorf("%s: the learn diagram's title is %q, want %s", what, got, title)
			}
			u.do("the exercises", chromedp.Navigate(base+"/review/"+reviewed+"/learn?side=black"))
			u.waitFor("the exercise's board", `document.querySelector('.learn-form')`, 15*time.Second)
			if got := eval[string](u, `(e => e ? e.textContent : '')(document.querySelector('main svg title'))`); !title.MatchString(got) {
				t.Errorf("%s: the exercise's board is titled %q, want %s", what, got, title)
			}
			if lang != "en" {
				if words := eval[string](u, `[...document.querySelectorAll('main svg text')].map(e => e.textContent).filter(s => /^(White|Black|kazan|tuzdik|to move)/.test(s)).join(', ')`); words != "" {
					t.Errorf("%s: the exercise's board says %q", what, words)
				}
			}
			fits360(t, u, what+" exercise", w)
			u.shot(artifacts, fmt.Sprintf("layout-exercise-%s-%d.png", lang, w))
		}
	}
}

// TestArchiveResultOnPhone, in kk and en at 360 px: the archive's Result
// column is on the screen, or a visible hint says the table scrolls and
// scrolling it brings the column in.
func TestArchiveResultOnPhone(t *testing.T) {
	base, browser, artifacts := setup(t)
	// Players' full names, as a club's records write them.
	rec := strings.NewReplacer("Майра", "Майра Жақсылықова", "Бауыржан", "Бауыржан Әбілқайыров").Replace(archiveRecord)
	resp, err := http.PostForm(base+"/import", url.Values{"text": {rec}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// And a guest's game of the site's (his name a long hash): the
	// engine's name and a resignation.
	token := apiCall(t, "POST", base+"/api/guest", "", nil)["token"].(string)
	finishedEngineGame(t, base, token)
	for _, lang := range pageLangs {
		u := newUser(t, browser, base, "archive-"+lang)
		u.setLang(lang)
		u.do("the archive", chromedp.EmulateViewport(360, 800), chromedp.Navigate(base+"/archive"))
		u.waitFor("its rows", `document.querySelectorAll('#archive .game-row').length === 3`, 10*time.Second)
		const inView = `[...document.querySelectorAll('#archive .game-row td.result')].every(e => (r => r.left >= 0 && r.right <= innerWidth + 0.5)(e.getBoundingClientRect()))`
		if !eval[bool](u, inView) {
			hint := eval[bool](u, `(e => !!e && e.offsetParent !== null && e.getBoundingClientRect().right <= innerWidth && e.textContent.trim() !== '')(document.querySelector('.table-hint'))`)
			if !hint {
				t.Errorf("%s: the Result column is off the screen and nothing says the table scrolls", lang)
			}
			u.do("scrolling the table", chromedp.Evaluate[chromedp.Void](`(w => w.scrollLeft = w.scrollWidth)(document.querySelector('#archive').closest('.table-wrap'))`))
			if !eval[bool](u, inView) {
				t.Errorf("%s: scrolling the table does not bring the Result column in", lang)
			}
		}
		fits(t, u, lang+" archive")
		u.do("back", chromedp.Evaluate[chromedp.Void](`(w => w.scrollLeft = 0)(document.querySelector('#archive').closest('.table-wrap'))`))
		u.shot(artifacts, filepath.Base("layout-archive-"+lang+"-360.png"))
	}
}
