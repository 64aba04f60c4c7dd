package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/i18n"

	"github.com/chromedp/chromedp"
)

// TestEventDubov, in Kazakh and in English, on a phone: an arbiter
// creates a Swiss paired by the Dubov system with the /events form (the
// system's box reads in the page's language); the event page names the
// system, and both pages fit 360 px.
func TestEventDubov(t *testing.T) {
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			base, browser, _ := setup(t)
			arb := newUser(t, browser, base, "dubovarb"+lang)
			arb.signup()
			arb.do("language", setCookie(base, "lang", lang))
			arb.do("the create form", chromedp.EmulateViewport(360, 800),
				chromedp.Navigate(base+"/events"),
				chromedp.WaitVisible(chromedp.CSS("#event-create")))
			fits(t, arb, "the events page")
			label := eval[string](arb, `document.querySelector('#event-pairing option[value=dubov]').textContent`)
			if want := cat.T(lang, "events.dubov"); !strings.Contains(label, want) {
				t.Fatalf("the Dubov system's box reads %q, want %q", label, want)
			}
			arb.do("creating",
				chromedp.SendKeys(chromedp.CSS("#event-name"), "Dubov "+lang),
				chromedp.SetValue(chromedp.CSS("#event-kind"), "swiss"),
				chromedp.SetValue(chromedp.CSS("#event-pairing"), "dubov"),
				click(chromedp.CSS("#event-submit")),
			)
			arb.waitFor("the event page", `location.pathname.startsWith('/event/')`, 10*time.Second)
			arb.waitFor("the page", `document.readyState === 'complete' && document.querySelector('.event-info')`, 10*time.Second)
			info := eval[string](arb, `document.querySelector('.event-info').textContent`)
			if want := cat.T(lang, "event.dubov"); !strings.Contains(info, want) {
				t.Errorf("the event's line %q lacks %q", info, want)
			}
			fits(t, arb, "the event page")
		})
	}
}
