package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
)

// followWithin is how soon a student's open page shows a coach's edit.
const followWithin = time.Second

// TestStudyFollow, in Kazakh and in English: a coach creates a private
// study through /study, invites a student by name, and with the student's
// page open plays a move, comments it and draws an arrow; the student's
// board follows each edit within a second, and his page has no control to
// edit with.
func TestStudyFollow(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	y, _ := toguz.StartPosition().Ply(7)
	for _, lang := range pageLangs {
		t.Run(lang, func(t *testing.T) {
			coach := newUser(t, browser, base, "coach"+lang)
			pupil := newUser(t, browser, base, "pupil"+lang)
			for _, u := range []*user{coach, pupil} {
				u.signup()
				u.setLang(lang)
			}
			const live = `document.getElementById('study') && document.getElementById('study').dataset.live === 'true' && document.querySelector('#board button.hole')`
			coach.do("a new study", chromedp.EmulateViewport(360, 900), chromedp.Navigate(base+"/study"),
				chromedp.WaitVisible(chromedp.CSS("#study-new")),
				chromedp.SendKeys(chromedp.CSS("#study-name"), "Ashyq "+lang),
				chromedp.SetValue(chromedp.CSS("#study-visibility"), "private"),
				click(chromedp.CSS("#study-create")))
			coach.waitFor("the study page", live, 15*time.Second)
			path := eval[string](coach, `location.pathname`)
			coach.do("invite the pupil",
				chromedp.SendKeys(chromedp.CSS("#member-name"), pupil.name),
				chromedp.SetValue(chromedp.CSS("#member-role"), "viewer"),
				click(chromedp.CSS("#member-add")))
			coach.waitFor("the pupil among the members", fmt.Sprintf(`document.querySelector('.study-members').textContent.includes(%q) && %s`, pupil.name, live), 15*time.Second)

			pupil.do("the study", chromedp.EmulateViewport(360, 900), chromedp.Navigate(base+path))
			pupil.waitFor("the pupil's study page", live, 15*time.Second)
			if got := eval[string](pupil, `document.getElementById('study-conn').textContent`); got != cat.T(lang, "study.connected") {
				t.Errorf("the pupil's connection line %q", got)
			}
			if eval[bool](pupil, `!!document.getElementById('comment') || !!document.getElementById('chapter-new')`) {
				t.Error("a viewer's page has the editing controls")
			}

			follow := func(what, cond string) {
				t.Helper()
				start := time.Now()
				pupil.waitFor(what, cond, followWithin)
				t.Logf("%s: %s on the pupil's page after %v", lang, what, time.Since(start).Round(time.Millisecond))
			}
			coach.waitFor("a playable hole 7", `document.querySelector('#board button.hole.playable[data-side="white"][data-hole="7"]')`, 10*time.Second)
			coach.press("the coach plays 7", `#board button.hole[data-side="white"][data-hole="7"]`)
			follow("the move", fmt.Sprintf(`document.getElementById('study').dataset.path === '7' && (document.querySelector('#tree .move.current')||{}).textContent === "1. %s"`, y))
			coach.waitFor("the coach's board after his move", `document.getElementById('study').dataset.path === '7' && !document.getElementById('comment').disabled`, 5*time.Second)
			comment := map[string]string{"kk": "Ең жақсы бастау", "en": "The best start"}[lang]
			coach.do("the coach comments",
				chromedp.SetValue(chromedp.CSS("#comment"), comment),
				chromedp.Evaluate[chromedp.Void](`document.getElementById('comment').dispatchEvent(new Event('change'))`))
			follow("the comment", fmt.Sprintf(`document.getElementById('study-comment-view').textContent === %q`, comment))
			coach.do("the coach draws an arrow",
				click(chromedp.CSS(`input[name="mode"][value="arrow"]`)),
				click(chromedp.CSS(`#board button.hole[data-side="white"][data-hole="3"]`)),
				click(chromedp.CSS(`#board button.hole[data-side="black"][data-hole="5"]`)))
			follow("the arrow", `document.querySelectorAll('#study-arrows line[data-arrow="w3b5"]').length === 1 && document.getElementById('study-shapes-view').textContent === 'w3→b5'`)
			coach.do("the coach goes back to the start", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent(kb.Home))
			follow("the coach's position", `document.getElementById('study').dataset.path === ''`)
			// With sync off the pupil stays where he is.
			pupil.do("sync off, to the move", click(chromedp.CSS("#study-sync")),
				chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent(kb.ArrowRight))
			pupil.waitFor("the pupil on the move", `document.getElementById('study').dataset.path === '7'`, 5*time.Second)
			coach.do("the coach plays 1", chromedp.KeyEvent("1"))
			coach.waitFor("the coach's second line", `document.querySelectorAll('#tree .variation').length === 1`, 5*time.Second)
			pupil.waitFor("the variation on the pupil's tree", `document.querySelectorAll('#tree .variation').length === 1`, 5*time.Second)
			if p := eval[string](pupil, `document.getElementById('study').dataset.path`); p != "7" {
				t.Errorf("with sync off the pupil's board moved to %q", p)
			}
			if strings.Contains(eval[string](pupil, `document.body.innerText`), "apierr.") {
				t.Error("a catalog key on the page")
			}
		})
	}
}
