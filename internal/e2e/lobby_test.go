package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// TestLobbyQuickStart: on a phone's first screen, the lobby says what the
// game is and offers a game in one click; the click starts a game against
// the engine, in Kazakh and in English.
func TestLobbyQuickStart(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		u := newUser(t, browser, base, "quick-"+lang)
		u.do("the lobby on a phone", setCookie(base, "lang", lang), chromedp.EmulateViewport(360, 640),
			chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#quick-engine")))
		png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(artifacts, "lobby-quick-"+lang+"-360.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		if intro := eval[string](u, `document.getElementById('quick-intro').textContent`); intro != cat.T(lang, "lobby.intro") {
			t.Errorf("%s: the lobby's introduction is %q", lang, intro)
		}
		for _, id := range []string{"quick-engine", "quick-seek", "quick-learn"} {
			if bottom := eval[float64](u, `document.getElementById('`+id+`').getBoundingClientRect().bottom`); bottom > 640 {
				t.Errorf("%s: #%s ends %.0f px down, below a phone's first screen (640 px)", lang, id, bottom)
			}
		}
		u.do("play the engine now", click(chromedp.CSS("#quick-engine")))
		u.waitFor("a game against the engine", `location.pathname.indexOf('/game/') === 0 && document.querySelector('#board button.hole.playable') && /\d/.test(document.querySelector('#player-top .name').textContent)`, 15*time.Second)
	}
}

// TestLevelLabels: the engine's levels can be told apart by their labels
// alone (not only by their numbers), in Kazakh and in English.
func TestLevelLabels(t *testing.T) {
	base, browser, _ := setup(t)
	for _, lang := range []string{"kk", "en"} {
		u := newUser(t, browser, base, "levels-"+lang)
		u.do("the lobby", setCookie(base, "lang", lang), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#engine-form")))
		labels := eval[[]string](u, `[...document.querySelectorAll('#engine-form select[name="level"] option')].map(o => o.textContent.replace(/^\d+/, ''))`)
		if len(labels) != 10 {
			t.Fatalf("%s: %d levels offered, want 10", lang, len(labels))
		}
		seen := map[string]int{}
		for i, l := range labels {
			if j, ok := seen[l]; ok {
				t.Errorf("%s: levels %d and %d read the same: %q", lang, j+1, i+1, l)
			}
			seen[l] = i
		}
	}
}
