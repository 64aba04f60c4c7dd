package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/i18n"

	"github.com/chromedp/chromedp"
)

// TestEventRoundRobin, in Kazakh and in English: an arbiter creates a
// small round robin with the /events form, two players join it on its
// page, the arbiter starts it; the first round's game appears with a link,
// one player opens it and resigns, and the arbiter's page (polled by
// events.js) shows the result and the standings.
func TestEventRoundRobin(t *testing.T) {
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			base, browser, _ := setup(t)
			arb := newUser(t, browser, base, "arbiter"+lang)
			p1 := newUser(t, browser, base, "aigerim"+lang)
			p2 := newUser(t, browser, base, "daulet"+lang)
			for _, u := range []*user{arb, p1, p2} {
				u.signup()
				u.do("language", setCookie(base, "lang", lang))
			}
			arb.do("the create form",
				chromedp.Navigate(base+"/events"),
				chromedp.WaitVisible(chromedp.CSS("#event-create")),
				chromedp.SendKeys(chromedp.CSS("#event-name"), "Cup "+lang),
				chromedp.SetValue(chromedp.CSS("#event-kind"), "roundrobin"),
				click(chromedp.CSS("#event-submit")),
			)
			arb.waitFor("the event page", `location.pathname.startsWith('/event/') && document.getElementById('event-start')`, 10*time.Second)
			loc, err := chromedp.Run(arb.ctx, chromedp.Location())
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []*user{p1, p2} {
				p.do("joining", chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("#event-join-button")))
				eval[bool](p, `window.before = true`)
				p.do("joining", click(chromedp.CSS("#event-join-button")))
				p.waitFor("the page after joining", `!window.before && document.readyState === 'complete'`, 10*time.Second)
				if !eval[bool](p, `!!document.getElementById('event-withdraw')`) {
					t.Fatalf("%s: joining: %s", p.name, eval[string](p, `document.body.innerText`))
				}
			}
			arb.do("starting", chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("#event-start")),
				click(chromedp.CSS("#event-start")))
			arb.waitFor("the first round's game", `document.querySelector('#event-live .game-link')`, 10*time.Second)
			p1.do("the event page", chromedp.Navigate(loc))
			p1.waitFor("the game link", `document.querySelector('#event-live .game-link')`, 10*time.Second)
			href := eval[string](p1, `document.querySelector('#event-live .game-link').getAttribute('href')`)
			p1.do("the game", chromedp.Navigate(base+href))
			p1.waitFor("the resign button", `(() => { const b = document.getElementById('resign'); return b && !b.hidden && b.offsetParent; })()`, 15*time.Second)
			p1.waitFor("the link back", `document.getElementById('event-back')`, 5*time.Second)
			eval[bool](p1, `window.confirm = () => true; true`)
			p1.do("resigning", click(chromedp.CSS("#resign")))
			// The arbiter's page takes the result from its live part.
			arb.waitFor("the result in the pairings", `/1-0|0-1/.test(document.querySelector('#event-live .pairings').textContent)`, 20*time.Second)
			arb.waitFor("the standings", `Array.from(document.querySelectorAll('.event-standings tbody tr')).map(r => r.cells[4].textContent).join(' ') === '1 0'`, 5*time.Second)
			title := eval[string](arb, `document.querySelector('#ev-standings').textContent`)
			want := map[string]string{"kk": "Турнир кестесі", "en": "Standings"}[lang]
			if !strings.Contains(title, want) {
				t.Errorf("the standings' heading %q, want %q", title, want)
			}
			// On a phone, where no tooltip shows, the standings' codes are
			// explained in words; the arbiter's log reads in the language.
			cat := i18n.New()
			arb.do("a phone", chromedp.EmulateViewport(360, 800), chromedp.Navigate(loc), chromedp.WaitVisible(chromedp.CSS("#ev-legend summary")),
				click(chromedp.CSS("#ev-legend summary")))
			legend := eval[string](arb, `document.getElementById('ev-legend').innerText`)
			for _, want := range []string{cat.T(lang, "event.tb.SB"), cat.T(lang, "event.legend.history")} {
				if !strings.Contains(legend, want) {
					t.Errorf("the standings' legend lacks %q: %q", want, legend)
				}
			}
			if visible := eval[bool](arb, `document.querySelector('#ev-legend dd').getBoundingClientRect().width > 0`); !visible {
				t.Error("the legend's meanings are not shown on a phone")
			}
			log := eval[string](arb, `document.querySelector('.event-log').innerText`)
			if start := cat.T(lang, "event.log.start", "arbiter"+lang); !strings.Contains(log, start) {
				t.Errorf("the arbiter's log %q lacks %q", log, start)
			}
			_ = fmt.Sprint()
		})
	}
}
