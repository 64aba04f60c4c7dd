package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// TestEventBursteinForm, in kk and en at 1366 and 360 px: the event form
// offers the Burstein system in the page's language and fits the phone;
// an arbiter creates a Burstein Swiss and its page names the system.
func TestEventBursteinForm(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		u := newUser(t, browser, base, "burstein-"+lang)
		u.signup()
		u.do("language", setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			u.do("the form", chromedp.EmulateViewport(w, 800), chromedp.Navigate(base+"/events"), chromedp.WaitVisible(chromedp.CSS("#event-create")))
			label := eval[string](u, `(e => e ? e.textContent.trim() : '')(document.querySelector('#event-pairing option[value=burstein]'))`)
			if want := cat.T(lang, "events.burstein"); label != want {
				t.Errorf("%s %d px: the Burstein choice reads %q, want %q", lang, w, label, want)
			}
			type widths struct{ Doc, Win int }
			if got := eval[widths](u, `({Doc: document.documentElement.scrollWidth, Win: innerWidth})`); got.Doc > got.Win {
				t.Errorf("%s: the events page is %d px wide at %d px", lang, got.Doc, got.Win)
			}
			u.shot(artifacts, fmt.Sprintf("events-form-%s-%d.png", lang, w))
		}
		u.do("a Burstein Swiss",
			chromedp.EmulateViewport(1366, 800),
			chromedp.SendKeys(chromedp.CSS("#event-name"), "Burstein "+lang),
			chromedp.SetValue(chromedp.CSS("#event-kind"), "swiss"),
			chromedp.SetValue(chromedp.CSS("#event-pairing"), "burstein"),
			click(chromedp.CSS("#event-submit")),
		)
		// The address changes before the new page is read: wait for the page
		// itself to name the system.
		u.waitFor("the event page naming the system", fmt.Sprintf(`location.pathname.startsWith('/event/') && document.readyState === 'complete' && document.body.innerText.includes(%q)`,
			cat.T(lang, "event.burstein")), 10*time.Second)
		u.shot(artifacts, fmt.Sprintf("event-burstein-%s.png", lang))
	}
}
