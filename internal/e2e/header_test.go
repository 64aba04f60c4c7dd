package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// prefersDark emulates the system's colour scheme.
func prefersDark(dark bool) chromedp.Action[chromedp.Void] {
	v := "light"
	if dark {
		v = "dark"
	}
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
		return chromedp.Void{}, err
	}
}

// TestHeaderControls: the colours follow the system's scheme until the
// header's switch overrides it, which is remembered across pages and set
// on <html> before the body is parsed (no flash of the other scheme); the
// language switcher changes the language as soon as one is chosen.
func TestHeaderControls(t *testing.T) {
	base, browser, _ := setup(t)
	u := newUser(t, browser, base, "zhanar")
	bg := func() string { return eval[string](u, `getComputedStyle(document.body).backgroundColor`) }
	const light, dark = "rgb(250, 247, 242)", "rgb(23, 25, 28)" // --bg of each scheme

	u.do("the lobby, the system light", prefersDark(false), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#theme-select")))
	if got := bg(); got != light {
		t.Errorf("a light system: the page's background is %s, want %s", got, light)
	}
	u.do("the system dark", prefersDark(true))
	if got := bg(); got != dark {
		t.Errorf("a dark system: the page's background is %s, want %s", got, dark)
	}
	// The switch: light on a dark system, remembered on the next page.
	u.do("choosing light", chromedp.SetValue(chromedp.CSS("#theme-select"), "light"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('theme-select').dispatchEvent(new Event('change'))`))
	if got := bg(); got != light {
		t.Errorf("light chosen on a dark system: the background is %s", got)
	}
	// A script at the top of <body> sees the scheme already set: site.js
	// ran in <head>, before anything was painted.
	u.do("the editor", chromedp.Navigate(base+"/editor"), chromedp.WaitVisible(chromedp.CSS("#editor")))
	if got := eval[string](u, `document.documentElement.dataset.theme || ''`); got != "light" || bg() != light {
		t.Errorf("the next page: data-theme %q, background %s; want light", got, bg())
	}
	if head := eval[bool](u, `!!document.head.querySelector('script[src^="/static/site.js"]:not([defer]):not([async])')`); !head {
		t.Error("site.js is not a blocking script in <head>: the scheme would be set after the first paint")
	}
	u.do("back to following the system", chromedp.SetValue(chromedp.CSS("#theme-select"), "auto"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('theme-select').dispatchEvent(new Event('change'))`))
	if got := bg(); got != dark {
		t.Errorf("auto on a dark system: the background is %s", got)
	}

	// The language: chosen, the page comes back in it; the button is for
	// browsers without JavaScript.
	if eval[bool](u, `!document.getElementById('lang-submit').hidden`) {
		t.Error("the language button shows although choosing a language is enough")
	}
	u.do("choosing Kyrgyz", chromedp.SetValue(chromedp.CSS("#lang-select"), "ky")) // SetValue fires change
	u.waitFor("the editor in Kyrgyz", `document.documentElement.lang === 'ky' && location.pathname === '/editor'`, 10*time.Second)

	// On a phone the links fold behind the menu button, which opens them.
	linkShown := func() bool {
		return eval[bool](u, `document.querySelector('#nav-links a[href="/archive"]').getClientRects().length > 0`)
	}
	// On a wide screen the links are in groups whose menus open on hover
	// and on keyboard focus.
	u.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitReady(chromedp.CSS(`#nav-links a[href="/archive"]`)))
	if linkShown() || !eval[bool](u, `document.querySelector('#nav-links a.nav-head[href="/leaderboard"]').getClientRects().length > 0`) {
		t.Error("a wide window: the group heads should show and their menus stay closed")
	}
	u.do("focusing the community group", chromedp.Focus(chromedp.CSS(`#nav-links a.nav-head[href="/leaderboard"]`)))
	if !linkShown() {
		t.Error("focusing a group's head does not open its menu")
	}
	u.do("focus leaves the header", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	xy := eval[[]float64](u, `(() => { const r = document.querySelector('#nav-links a.nav-head[href="/analysis"]').getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`)
	u.do("the pointer over the tools group", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1]))
	if !eval[bool](u, `document.querySelector('#nav-links a[href="/explorer"]').getClientRects().length > 0`) {
		t.Error("the pointer over a group's head does not open its menu")
	}
	u.do("a phone's window", chromedp.EmulateViewport(360, 800), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#nav-toggle")))
	if linkShown() || eval[string](u, `document.getElementById('nav-toggle').getAttribute('aria-expanded')`) != "false" {
		t.Error("on a phone the header's links show before the menu is opened")
	}
	u.do("opening the menu", click(chromedp.CSS("#nav-toggle")))
	if !linkShown() || eval[string](u, `document.getElementById('nav-toggle').getAttribute('aria-expanded')`) != "true" {
		t.Error("the menu button does not open the header's links")
	}
	u.do("the archive from the menu", click(chromedp.CSS(`#nav-links a[href="/archive"]`)))
	u.waitFor("the archive", `location.pathname === '/archive'`, 10*time.Second)
}
