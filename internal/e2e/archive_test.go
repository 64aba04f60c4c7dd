package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// archiveRecord is a file of two games; the second is Abai's.
const archiveRecord = `[Event "Кубок РК"]
[Date "2018.05.01"]
[White "Майра"]
[Black "Бауыржан"]
[Result "1-0"]

1. 76 98 1-0

[Event "Кубок РК"]
[Date "2018.05.02"]
[White "Abai"]
[Black "Майра"]
[Result "0-1"]

1. 76 98 2. 66 87 0-1
`

// TestArchive: in Kazakh and in English (the cookie lang, set by the
// language switcher), a two-game file
// is imported, its second game opened from the list and replayed, and the
// archive searched by a player finds it; the second import links to the
// first's games. Every page fits a 360 px phone.
func TestArchive(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	file := filepath.Join(t.TempDir(), "two-games.pgn")
	if err := os.WriteFile(file, []byte(archiveRecord), 0o644); err != nil {
		t.Fatal(err)
	}
	var firstIDs string
	for i, lang := range []string{"kk", "en"} {
		u := newUser(t, browser, base, "archivist-"+lang)
		// The language switcher sets the cookie lang, then the import page.
		u.do("a phone's window and the language switcher", chromedp.EmulateViewport(360, 900),
			chromedp.Navigate(base+"/import"), chromedp.WaitVisible(chromedp.CSS("#lang-select")),
			chromedp.Evaluate[chromedp.Void](`window.before = true`), // gone once the page after the switch loads
			// Choosing the language submits the switcher (site.js hides its
			// button); SetValue fires the change.
			chromedp.SetValue(chromedp.CSS("#lang-select"), lang))
		u.waitFor("the import page in "+lang, fmt.Sprintf(`!window.before && document.readyState === 'complete' && document.documentElement.lang === %q && document.getElementById('import-form')`, lang), 10*time.Second)
		if c := eval[string](u, `document.cookie`); !strings.Contains(c, "lang="+lang) {
			t.Errorf("%s: cookies %q, want lang=%s", lang, c, lang)
		}
		u.do("importing the file", chromedp.SetUploadFiles(chromedp.CSS(`#import-form input[name="file"]`), []string{file}),
			click(chromedp.CSS("#import-submit")))
		u.waitFor("the import's list", `document.querySelectorAll('#imported a[href^="/game/"]').length === 2`, 10*time.Second)
		ids := eval[string](u, `[...document.querySelectorAll('#imported a[href^="/game/"]')].map(a => a.getAttribute('href')).join(' ')`)
		dups := eval[int](u, `document.querySelectorAll('#imported .duplicate').length`)
		if i == 0 {
			firstIDs = ids
			if dups != 0 {
				t.Errorf("%s: %d games marked as already in the archive on the first import", lang, dups)
			}
		} else if ids != firstIDs || dups != 2 {
			t.Errorf("%s: the second import links %q (%d duplicates), want the first's %q, both duplicates", lang, ids, dups, firstIDs)
		}
		if !strings.Contains(eval[string](u, `document.getElementById('import-ok').textContent`), cat.T(lang, "archive.stored")) {
			t.Errorf("%s: the import does not say its games are stored", lang)
		}
		fits(t, u, lang+" import")

		u.press("opening the second game", `#imported tbody tr:nth-child(2) a[href^="/game/"]`)
		u.waitFor("the second game's replay", `document.querySelectorAll('#moves .ply').length === 4`, 10*time.Second)
		if names := eval[string](u, `[...document.querySelectorAll('.player .name')].map(e => e.textContent).join(' ')`); !strings.Contains(names, "Abai") {
			t.Errorf("%s: the second game's players are %q, want Abai", lang, names)
		}
		if eval[int](u, `document.querySelectorAll('.export a').length`) < 3 {
			t.Errorf("%s: the game has no export links", lang)
		}

		u.do("searching the archive by player", chromedp.Navigate(base+"/archive"), chromedp.WaitVisible(chromedp.CSS("#archive-form")),
			chromedp.SendKeys(chromedp.CSS("#a-player"), "ABAI"), click(chromedp.CSS("#a-submit")))
		u.waitFor("the player's game", `location.search.includes('player=ABAI') && document.querySelectorAll('#archive .game-row').length === 1`, 10*time.Second)
		row := eval[string](u, `document.querySelector('#archive .game-row').textContent`)
		for _, want := range []string{"2018-05-02", "Abai", cat.T(lang, "result.0-1"), cat.T(lang, "archive.source.import")} {
			if !strings.Contains(row, want) {
				t.Errorf("%s: the row %q lacks %q", lang, row, want)
			}
		}
		if h1 := eval[string](u, `document.querySelector('h1').textContent`); h1 != cat.T(lang, "archive.title") {
			t.Errorf("%s: the archive's title is %q", lang, h1)
		}
		fits(t, u, lang+" archive")
		png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(artifacts, "archive-"+lang+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		u.do("opening the game found", click(chromedp.CSS(`#archive .game-row a[href^="/game/"]`)))
		u.waitFor("its replay", `document.querySelectorAll('#moves .ply').length === 4`, 10*time.Second)
	}
}

// fits fails the test when the page is wider than its 360 px window.
func fits(t *testing.T, u *user, what string) {
	t.Helper()
	if w := eval[int](u, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("%s: the page is %d px wide in a 360 px window", what, w)
	}
}
