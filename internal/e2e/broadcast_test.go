package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/toguz/toguz"
)

// broadcastAndSimul makes, through the API, a broadcast of owner with one
// game of two plies on board 1, and a simul of owner that player joined
// and owner started; it returns their ids.
func broadcastAndSimul(t *testing.T, base, owner, player string) (string, string) {
	t.Helper()
	id := fmt.Sprint(int64(apiCall(t, "POST", base+"/api/broadcasts", owner, map[string]any{"name": "Almaty open", "ruleset": "standard", "rounds": 3})["id"].(float64)))
	apiCall(t, "POST", base+"/api/broadcasts/"+id+"/games", owner, map[string]any{"round": 1, "board": 1, "white": "Әлия", "black": "Бауыржан"})
	gid := fmt.Sprint(int64(apiCall(t, "GET", base+"/api/broadcasts/"+id, "", nil)["games"].([]any)[0].(map[string]any)["id"].(float64)))
	apiCall(t, "POST", base+"/api/broadcasts/"+id+"/games/"+gid+"/plies", owner, map[string]any{"plies": strings.Join(firstPlies(2), " ")})
	sim := apiCall(t, "POST", base+"/api/simuls", owner, map[string]any{"ruleset": "standard", "tc": "none", "max": 5, "color": "white"})["id"].(string)
	apiCall(t, "POST", base+"/api/simuls/"+sim+"/join", player, nil)
	apiCall(t, "POST", base+"/api/simuls/"+sim+"/start", owner, nil)
	return id, sim
}

// firstPlies returns n plies from the start, written as the score sheet
// does, each the first legal move.
func firstPlies(n int) []string {
	p, _ := toguz.NewPosition(toguz.Standard())
	var out []string
	for range n {
		y, next := p.Ply(p.LegalMoves().First())
		out = append(out, y.String())
		p = next
	}
	return out
}

// TestBroadcastLive: in kk and en, the broadcaster types a ply into the
// entry form of board 1 and a viewer's open broadcast page shows it within
// a second, without reloading.
func TestBroadcastLive(t *testing.T) {
	s := newSite(t)
	plies := firstPlies(4)
	for i, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			viewer := newUser(t, s.browser, s.base, "viewer-"+lang)
			viewer.do("cookies", setCookie(s.base, "lang", lang))
			viewer.do("open", chromedp.Navigate(s.base+"/broadcast/"+s.broadcast))
			viewer.waitFor("the stream open", `document.getElementById('bc-status').textContent !== ''`, 10*time.Second)
			viewer.do("mark", chromedp.Evaluate[chromedp.Void](`window.notReloaded = true`))
			arbiter := s.visitor(t, lang)
			arbiter.do("entry form", chromedp.Navigate(s.base+"/broadcast/"+s.broadcast+"/enter"),
				chromedp.WaitVisible(chromedp.CSS("#bc-plies-1")),
				chromedp.SendKeys(chromedp.CSS("#bc-plies-1"), plies[2+i]))
			start := time.Now()
			arbiter.do("submit", click(chromedp.CSS("#bc-plies-submit-1")))
			viewer.waitFor("the new ply on the viewer's page", fmt.Sprintf(`window.notReloaded && document.querySelector('#bc-round .bc-moves').textContent.includes(%q)`, plies[2+i]), 3*time.Second)
			d := time.Since(start)
			if d > time.Second {
				t.Errorf("%s: the ply reached the viewer after %v", lang, d)
			}
			t.Logf("%s: from the arbiter's click to the viewer's page: %v", lang, d.Round(time.Millisecond))
			if !eval[bool](viewer, `document.querySelector('.bc-analyse').getAttribute('href').startsWith('/analysis?')`) {
				t.Errorf("%s: no analysis link", lang)
			}
		})
	}
}

// TestSimulHost: the host sees all boards of his simul, goes to the one
// where it is his move with the key n, opens it and plays a move there.
func TestSimulHost(t *testing.T) {
	s := newSite(t)
	for _, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			tok := apiCall(t, "POST", s.base+"/api/signup", "", map[string]string{"name": "host-" + lang, "password": "correct horse battery"})["token"].(string)
			sim := apiCall(t, "POST", s.base+"/api/simuls", tok, map[string]any{"ruleset": "standard", "tc": "none", "max": 5, "color": "white"})["id"].(string)
			for range 3 {
				g := apiCall(t, "POST", s.base+"/api/guest", "", nil)["token"].(string)
				apiCall(t, "POST", s.base+"/api/simuls/"+sim+"/join", g, nil)
			}
			apiCall(t, "POST", s.base+"/api/simuls/"+sim+"/start", tok, nil)
			host := newUser(t, s.browser, s.base, "host-"+lang)
			host.do("cookies", setCookie(s.base, "toguz_session", tok), setCookie(s.base, "lang", lang))
			host.do("grid", chromedp.Navigate(s.base+"/simul/"+sim+"/host"))
			host.waitFor("three boards", `document.querySelectorAll('#simul-grid .simul-board').length === 3`, 10*time.Second)
			host.do("key n", chromedp.KeyEvent("n"))
			host.waitFor("a board focused", `document.activeElement.classList.contains('my-move')`, 3*time.Second)
			host.do("open it", chromedp.Evaluate[chromedp.Void](`document.activeElement.click()`))
			host.waitFor("the game page", `document.querySelector('#board button.hole.playable')`, 10*time.Second)
			host.press("move", "#board button.hole.playable")
			host.waitFor("the move played", `document.querySelectorAll('#moves li, #moves .move').length > 0`, 10*time.Second)
			var g struct{ Ply int }
			for deadline := time.Now().Add(5 * time.Second); g.Ply == 0 && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				getJSON(t, s.base+"/api/games/"+strings.TrimPrefix(eval[string](host, `location.pathname`), "/game/"), &g)
			}
			if g.Ply != 1 {
				t.Errorf("%s: the game has %d plies after the host's move, want 1", lang, g.Ply)
			}
		})
	}
}
