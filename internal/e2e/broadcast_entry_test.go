package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
)

// TestBroadcastEntryExample: the broadcaster types the entry form's own
// example, as its help writes it, and the form takes it; a wrong ply's
// error says why once. In Kazakh and in English.
func TestBroadcastEntryExample(t *testing.T) {
	base, browser, _ := setup(t)
	tok := apiCall(t, "POST", base+"/api/signup", "", map[string]any{"name": "arbiter", "password": "correct horse"})["token"].(string)
	id := fmt.Sprint(int64(apiCall(t, "POST", base+"/api/broadcasts", tok, map[string]any{"name": "Almaty open", "ruleset": "standard", "rounds": 1})["id"].(float64)))
	cat := i18n.New()
	example := regexp.MustCompile(`\d\d(?: \d\d)*x`)
	for i, lang := range []string{"kk", "en"} {
		board := i + 1
		apiCall(t, "POST", base+"/api/broadcasts/"+id+"/games", tok, map[string]any{"round": 1, "board": board, "white": "Әлия", "black": "Бауыржан"})
		plies := example.FindString(cat.T(lang, "broadcast.plies_help"))
		u := newUser(t, browser, base, "arbiter-"+lang)
		field, submit := fmt.Sprintf("#bc-plies-%d", board), fmt.Sprintf("#bc-plies-submit-%d", board)
		u.do("the entry form", setCookie(base, "toguz_session", tok), setCookie(base, "lang", lang),
			chromedp.Navigate(base+"/broadcast/"+id+"/enter"), chromedp.WaitVisible(chromedp.CSS(field)),
			chromedp.SendKeys(chromedp.CSS(field), plies), chromedp.Evaluate[chromedp.Void](`window.beforeSubmit = true`),
			click(chromedp.CSS(submit)))
		u.waitFor("the form again", `!window.beforeSubmit && document.readyState === 'complete' && document.querySelector('`+field+`')`, 10*time.Second)
		if e := eval[string](u, `(document.getElementById('bc-error')||{}).textContent||''`); e != "" {
			t.Errorf("%s: the help's example %q is refused: %s", lang, plies, e)
		}
		games := apiCall(t, "GET", base+"/api/broadcasts/"+id, "", nil)["games"].([]any)
		var got int
		for _, g := range games {
			if g := g.(map[string]any); int(g["board"].(float64)) == board {
				got = len(g["plies"].([]any))
			}
		}
		if want := len(strings.Fields(plies)); got != want {
			t.Errorf("%s: board %d has %d plies after the example, want %d", lang, board, got, want)
		}
		// A ply that does not follow: the error names it once.
		u.do("a wrong ply", chromedp.SendKeys(chromedp.CSS(field), "11"), chromedp.Evaluate[chromedp.Void](`window.beforeSubmit = true`),
			click(chromedp.CSS(submit)))
		u.waitFor("the error", `!window.beforeSubmit && document.getElementById('bc-error')`, 10*time.Second)
		if e := eval[string](u, `document.getElementById('bc-error').textContent`); lang == "en" && strings.Count(e, "lands on") != 1 {
			t.Errorf("%s: the error says the reason %d times: %q", lang, strings.Count(e, "lands on"), e)
		}
	}
}
