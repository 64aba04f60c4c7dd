package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// TestGuestNames: a guest is shown by a short number in the page's
// language, never by the long name that is his identity: in the header,
// on the board against the engine, and in the lobby's list of another
// guest's seek (drawn by the server and then by the script).
func TestGuestNames(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	long := regexp.MustCompile(`Guest-[0-9a-f]{16}`)
	for _, lang := range []string{"kk", "en"} {
		host := newUser(t, browser, base, "host-"+lang)
		host.do("a seek", setCookie(base, "lang", lang), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seek-form")),
			click(chromedp.CSS("#seek-submit")))
		host.waitFor("the challenge page", `document.getElementById('challenge')`, 10*time.Second)

		u := newUser(t, browser, base, "guest-"+lang)
		u.do("the lobby", setCookie(base, "lang", lang), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#quick-engine")))
		u.waitFor("the seek listed", `document.querySelector('#seeks tr[data-seek] td')`, 10*time.Second)
		guest := strings.Split(cat.T(lang, "game.guestname", 1), " ")[0]
		seekBy := eval[string](u, `document.querySelector('#seeks tr[data-seek] td').textContent`)
		if !strings.HasPrefix(seekBy, guest+" ") || long.MatchString(seekBy) {
			t.Errorf("%s: the lobby lists a guest's seek by %q, want %q and a number", lang, seekBy, guest)
		}
		u.do("play the engine now", click(chromedp.CSS("#quick-engine")))
		u.waitFor("the board", `document.querySelector('#board button.hole.playable')`, 15*time.Second)
		header := eval[string](u, `document.getElementById('me-name').textContent`)
		names := eval[string](u, `[...document.querySelectorAll('#player-top .name, #player-bottom .name')].map(e => e.textContent).join(' | ')`)
		for what, text := range map[string]string{"header": header, "board": names} {
			if long.MatchString(text) {
				t.Errorf("%s: the %s shows the guest's long name: %q", lang, what, text)
			}
		}
		if !strings.Contains(names, guest+" ") {
			t.Errorf("%s: the board names the guest %q, want %q and a number", lang, names, guest)
		}
	}
}
