package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/server"
)

// TestSeekTabs: the lobby's live list (lobby.js) as the creator of a seek
// and another player see it: the creator, in a second tab, is offered his
// seek to cancel and never to play, the other player to play; the
// creator's cancel takes it off the other's list; and a seek whose creator
// closes his last tab leaves the list after the grace period.
func TestSeekTabs(t *testing.T) {
	const grace = 3 * time.Second
	base, browser, _ := setupWith(t, server.Options{Engines: 1, Lobby: live.LobbyConfig{Grace: grace}})
	alice := newUser(t, browser, base, "aliya")
	bob := newUser(t, browser, base, "baurzhan")
	alice.signup()
	bob.signup()

	seek := func() string {
		alice.do("creating a seek",
			chromedp.Navigate(base+"/"),
			chromedp.WaitVisible(chromedp.CSS("#seek-form")),
			click(chromedp.CSS("#seek-submit")),
		)
		alice.waitFor("the challenge page", `document.getElementById('challenge')`, 10*time.Second)
		return eval[string](alice, `document.getElementById('challenge').dataset.seek`)
	}
	row := func(id string) string { return fmt.Sprintf(`document.querySelector('#seeks tr[data-seek=%q]')`, id) }
	id := seek()

	// Her second tab: the same cookies, a tab of its own.
	tab2 := &user{t: t, name: "aliya's second tab", base: base}
	ctx, cancel := chromedp.NewContext(alice.ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab (user.do)
		t.Fatal(err)
	}
	tab2.ctx = ctx
	tab2.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	bob.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	// The live list is drawn by lobby.js from the socket (data-total).
	tab2.waitFor("her seek to cancel, not to play", fmt.Sprintf(`document.getElementById('seeks').dataset.total === '1' && %s && %[1]s.querySelector('button.cancel-seek') && !%[1]s.querySelector('button.accept-seek')`, row(id)), 10*time.Second)
	bob.waitFor("her seek to play", fmt.Sprintf(`document.getElementById('seeks').dataset.total === '1' && %s && %[1]s.querySelector('button.accept-seek') && !%[1]s.querySelector('button.cancel-seek')`, row(id)), 10*time.Second)

	tab2.do("cancelling", click(chromedp.CSS(fmt.Sprintf(`#seeks tr[data-seek=%q] button.cancel-seek`, id))))
	bob.waitFor("the cancelled seek off his list", fmt.Sprintf(`document.getElementById('seeks').dataset.total === '0' && !%s`, row(id)), 10*time.Second)

	// A second seek; she closes both her tabs (the lobby and the challenge
	// page). It stays through the grace period, then goes.
	id = seek()
	bob.waitFor("the new seek", row(id), 10*time.Second)
	tab2.do("leaving", chromedp.Navigate("about:blank"))
	alice.do("leaving", chromedp.Navigate("about:blank"))
	left := time.Now()
	bob.waitFor("the seek of a creator who left gone", "!"+row(id), grace+10*time.Second)
	if d := time.Since(left); d < grace-time.Second {
		t.Errorf("the seek went %v after its creator left, within the %v grace", d, grace)
	}
}
