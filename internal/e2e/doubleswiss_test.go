package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/i18n"

	"github.com/chromedp/chromedp"
)

// TestEventDoubleSwiss, in Kazakh and in English: an arbiter creates a
// Double-Swiss of one match with the /events form (a Swiss, the
// Double-Swiss box ticked), two players join, the arbiter starts it; the
// first game is played (a resignation), then the second starts by itself
// with the colours swapped. The page says the system in the page's
// language and fits a phone.
func TestEventDoubleSwiss(t *testing.T) {
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			base, browser, artifacts := setup(t)
			cat := i18n.New()
			arb := newUser(t, browser, base, "arbds"+lang)
			p1 := newUser(t, browser, base, "asel"+lang)
			p2 := newUser(t, browser, base, "bolat"+lang)
			for _, u := range []*user{arb, p1, p2} {
				u.signup()
				u.do("language", setCookie(base, "lang", lang))
			}
			arb.do("the create form",
				chromedp.Navigate(base+"/events"),
				chromedp.WaitVisible(chromedp.CSS("#event-create")),
				chromedp.SendKeys(chromedp.CSS("#event-name"), "Double "+lang),
				chromedp.SetValue(chromedp.CSS("#event-kind"), "swiss"),
				chromedp.SetValue(chromedp.CSS("#event-rounds"), "1"),
				chromedp.SetValue(chromedp.CSS("#event-pairing"), "doubleswiss"),
				click(chromedp.CSS("#event-submit")),
			)
			arb.waitFor("the event page", `location.pathname.startsWith('/event/') && document.getElementById('event-start')`, 10*time.Second)
			if txt := eval[string](arb, `document.body.innerText`); !strings.Contains(txt, cat.T(lang, "event.doubleswiss")) {
				t.Fatalf("the event page does not say its system: %q", txt)
			}
			loc, err := chromedp.Run(arb.ctx, chromedp.Location())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []*user{p1, p2} {
				p.do("joining", chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("#event-join-button")))
				eval[bool](p, `window.before = true`)
				p.do("joining", click(chromedp.CSS("#event-join-button")))
				p.waitFor("the page after joining", `!window.before && document.readyState === 'complete'`, 10*time.Second)
			}
			arb.do("starting", chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("#event-start")),
				click(chromedp.CSS("#event-start")))
			arb.waitFor("the first game", `document.querySelector('#event-live .game-link')`, 10*time.Second)
			first := eval[string](arb, `document.querySelector('#event-live .game-link').getAttribute('href')`)
			p1.do("the first game", chromedp.Navigate(base+first))
			p1.waitFor("the resign button", `(() => { const b = document.getElementById('resign'); return b && !b.hidden && b.offsetParent; })()`, 15*time.Second)
			eval[bool](p1, `window.confirm = () => true; true`)
			p1.do("resigning", click(chromedp.CSS("#resign")))
			// The second game starts by itself once the first has ended.
			arb.do("the event page", chromedp.Navigate(loc))
			arb.waitFor("the second game", `Array.from(document.querySelectorAll('#event-live .game-link')).some(a => a.getAttribute('href') !== '`+first+`')`, 20*time.Second)
			// The rounds' boards, White – Black: the second is the first
			// with the colours swapped.
			boards := eval[[]string](arb, `Array.from(document.querySelectorAll('#event-live .event-round')).map(r => Array.from(r.querySelectorAll('.pairings li')).map(li => Array.from(li.querySelectorAll('span[translate=no]')).map(s => s.textContent).join('-')).join(' '))`)
			if len(boards) != 2 {
				t.Fatalf("%d rounds on the page, want 2: %q", len(boards), boards)
			}
			names := strings.Split(boards[0], "-")
			if len(names) != 2 || boards[1] != names[1]+"-"+names[0] {
				t.Errorf("the rounds' boards %q: the second is not the first with the colours swapped", boards)
			}
			arb.do("a phone", chromedp.EmulateViewport(360, 800), chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("#event-live")))
			fits(t, arb, lang+" double-swiss event")
			png, err := chromedp.Run(arb.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(artifacts, "doubleswiss-event-"+lang+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
			arb.do("the form on a phone", chromedp.Navigate(base+"/events"), chromedp.WaitVisible(chromedp.CSS("#event-create")))
			fits(t, arb, lang+" events form")
			png, err = chromedp.Run(arb.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(artifacts, "doubleswiss-form-"+lang+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
