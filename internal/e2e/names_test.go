package e2e

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
)

// allLangs are the site's five interface languages.
func allLangs() []string {
	var out []string
	for _, l := range i18n.Languages() {
		out = append(out, l.Tag)
	}
	return out
}

// pageShot saves the whole page as PNG in dir.
func pageShot(t *testing.T, u *user, dir, file string) {
	t.Helper()
	png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("%s: screenshot: %v", u.name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRulesetAndEngineNames: each ruleset has one name in each language,
// the same in the archive's filter, the lobby's seeks and the list of the
// games being played, and the standard one is the game's own name (the
// glossary's); the engine is named in the page's language on /games and
// on /tv, as the game page names it.
func TestRulesetAndEngineNames(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	alice := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "aigul", "password": "correct horse battery"})["token"].(string)
	bob := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "bolat", "password": "correct horse battery"})["token"].(string)
	// An engine game of each ruleset: the list of the games being played
	// shows them all, the TV one of them.
	games := map[string]string{} // game id → ruleset
	for _, r := range toguz.RulesetNames() {
		id := apiCall(t, "POST", base+"/api/engine-games", alice, map[string]any{"level": 1, "color": "white", "tc": "10+0", "ruleset": r})["game_id"].(string)
		games[id] = r
	}
	apiCall(t, "POST", base+"/api/seeks", bob, map[string]any{"tc": "5+3", "ruleset": "seven"})

	for _, lang := range allLangs() {
		u := newUser(t, browser, base, "reader-"+lang)
		u.do("the language cookie", setCookie(base, "lang", lang))
		name := func(r string) string { return cat.T(lang, "ruleset."+r) }
		if got, want := name("standard"), cat.T(lang, "site.name"); got != want {
			t.Errorf("%s: the standard ruleset is %q, the game %q: one name", lang, got, want)
		}

		// The archive's filter names every ruleset.
		u.open(page{"archive", "/archive", `document.getElementById('a-ruleset')`}, 1366)
		opts := eval[[][2]string](u, `[...document.querySelectorAll('#a-ruleset option')].filter(o => o.value).map(o => [o.value, o.textContent.trim()])`)
		if len(opts) != len(toguz.RulesetNames()) {
			t.Errorf("%s: the archive's filter offers %q, want every ruleset", lang, opts)
		}
		for _, o := range opts {
			if o[1] != name(o[0]) {
				t.Errorf("%s: the archive's filter names %s %q, want %q", lang, o[0], o[1], name(o[0]))
			}
		}

		// The lobby's seek of the seven-hole board.
		u.open(page{"lobby", "/", `document.getElementById('seeks').dataset.total === '1'`}, 1366)
		if got := eval[string](u, `document.querySelector('#seeks tbody tr td:nth-child(3)').textContent.trim()`); got != name("seven") {
			t.Errorf("%s: the lobby names the seven-hole ruleset %q, want %q", lang, got, name("seven"))
		}

		// The games being played: each ruleset by its name, the engine as
		// the game page names it.
		engine := cat.T(lang, "game.engine", 1)
		for _, w := range []int64{1366, 360} {
			u.open(page{"games", "/games", `document.querySelectorAll('#live-games a.watch').length === 4`}, w)
			pageShot(t, u, artifacts, fmt.Sprintf("games-%s-%d.png", lang, w))
		}
		u.open(page{"games", "/games", `document.querySelectorAll('#live-games a.watch').length === 4`}, 1366)
		rows := eval[[][4]string](u, `[...document.querySelectorAll('#live-games tbody tr')].map(r => [r.querySelector('a.watch').getAttribute('href'), r.cells[0].textContent.trim(), r.cells[1].textContent.trim(), r.cells[3].textContent.trim()])`)
		for _, r := range rows {
			id := r[0][strings.LastIndex(r[0], "/")+1:]
			if want := name(games[id]); r[3] != want {
				t.Errorf("%s: /games names the ruleset %s %q, want %q", lang, games[id], r[3], want)
			}
			if r[2] != engine {
				t.Errorf("%s: /games names the engine %q, want %q", lang, r[2], engine)
			}
		}

		// The TV: the game page of one of them.
		for _, w := range []int64{1366, 360} {
			u.open(page{"tv", "/tv", `document.querySelector('#board button.hole') && document.querySelector('#player-top .name').textContent`}, w)
			pageShot(t, u, artifacts, fmt.Sprintf("tv-%s-%d.png", lang, w))
		}
		if got := eval[string](u, `document.querySelector('#player-top .name').textContent`); !strings.HasSuffix(got, ": "+engine) {
			t.Errorf("%s: the TV names the engine %q, want %q", lang, got, engine)
		}
		if text := eval[string](u, `document.body.innerText`); regexp.MustCompile(`Engine \d`).MatchString(text) {
			t.Errorf("%s: the TV names the engine by the server's name: %q", lang, text)
		}
	}
}

// recordOf writes the plies of a game played from the start by choose in
// the toguz record format, with its result.
func recordOf(choose func(toguz.Position) toguz.Move) (string, toguz.Outcome) {
	p := toguz.StartPosition()
	var b strings.Builder
	b.WriteString("[White \"Abai\"]\n[Black \"Bolat\"]\n")
	var moves strings.Builder
	for ply := 0; !p.IsOver(); ply++ {
		if ply%2 == 0 {
			fmt.Fprintf(&moves, "%d. ", ply/2+1)
		}
		m := choose(p)
		fmt.Fprintf(&moves, "%d ", int(m))
		p = p.After(m)
	}
	o := p.Outcome()
	fmt.Fprintf(&b, "[Result %q]\n\n%s%s\n", o.Result.String(), moves.String(), o.Result.String())
	return b.String(), o
}

// importRecord imports a record and returns its game's id.
func importRecord(t *testing.T, base, rec string) string {
	t.Helper()
	resp, err := http.PostForm(base+"/import", url.Values{"text": {rec}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		body.Write(buf[:n])
		if err != nil {
			break
		}
	}
	m := regexp.MustCompile(`href="/game/([A-Za-z0-9]+)"`).FindStringSubmatch(body.String())
	if m == nil {
		t.Fatalf("import: %s\n%.500s", resp.Status, body.String())
	}
	return m[1]
}

// TestGameEndSentence: a finished game's page says how it ended in one
// sentence of its language (the outcome, not "Game over: White won:
// …"), after a win by the kazan and after an atsyrau; Kyrgyz names the
// atsyrau with the glossary's word, as its lessons do, and says "жүрө
// турган" once.
func TestGameEndSentence(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	atsyrauRec, o := recordOf(shortLine)
	if o.Termination != toguz.ByAtsyrau {
		t.Fatalf("the short line ends by %s", o.Termination)
	}
	ids := map[string]string{
		"kazan":   importRecord(t, base, "[White \"Abai\"]\n[Black \"Bolat\"]\n[Result \"1-0\"]\n\n1. 5 1 2. 3 5 3. 8 3 4. 7 4 5. 6 5 6. 4 1-0\n"),
		"atsyrau": importRecord(t, base, atsyrauRec),
	}
	for _, lang := range allLangs() {
		u := newUser(t, browser, base, "reader-"+lang)
		u.do("the language cookie", setCookie(base, "lang", lang))
		for _, kind := range []string{"kazan", "atsyrau"} {
			id := ids[kind]
			var st struct {
				Result, Termination string
				Score               [2]int
			}
			getJSON(t, base+"/api/games/"+id, &st)
			if st.Termination != kind {
				t.Fatalf("the %s game ended by %q", kind, st.Termination)
			}
			u.open(page{"game", "/game/" + id, `document.getElementById('status').textContent`}, 1366)
			status := eval[string](u, `document.getElementById('status').textContent`)
			want := cat.Outcome(lang, st.Result, st.Termination, &st.Score)
			if !strings.HasPrefix(status, want) || strings.Contains(status, cat.T(lang, "game.over")) {
				t.Errorf("%s: the %s game's page says %q, want the sentence %q", lang, kind, status, want)
			}
			if lang == "kk" || lang == "en" {
				for _, w := range []int64{1366, 360} {
					u.do("viewport", chromedp.EmulateViewport(w, 800))
					pageShot(t, u, artifacts, fmt.Sprintf("end-%s-%s-%d.png", kind, lang, w))
				}
			}
			if lang != "ky" || kind != "atsyrau" {
				continue
			}
			low := strings.ToLower(status)
			if !strings.Contains(low, "ат сыроо") || strings.Contains(low, "атсырау") {
				t.Errorf("ky: the atsyrau game's page says %q, want the glossary's «ат сыроо»", status)
			}
			if n := strings.Count(status, "жүрө турган"); n > 1 {
				t.Errorf("ky: the end (its result and what was collected) says «жүрө турган» %d times: %q", n, status)
			}
		}
	}
	// The Kyrgyz lesson of the atsyrau says the same word.
	u := newUser(t, browser, base, "reader-ky-lesson")
	u.do("the language cookie", setCookie(base, "lang", "ky"))
	u.open(page{"lesson", "/learn/atsyrau", `document.readyState === 'complete'`}, 1366)
	if text := strings.ToLower(eval[string](u, `document.querySelector('main').innerText`)); !strings.Contains(text, "ат сыроо") || strings.Contains(text, "атсырау") {
		t.Errorf("ky: the atsyrau lesson does not name it «ат сыроо»: %.300q", text)
	}
}

// TestSimulFormClock: the simul form offers "no clock" in the page's
// language, chosen at first, and what it submits is a simul without a
// clock.
func TestSimulFormClock(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	alice := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "aigul", "password": "correct horse battery"})["token"].(string)
	for _, lang := range allLangs() {
		u := newUser(t, browser, base, "host-"+lang)
		u.do("cookies", setCookie(base, "toguz_session", alice), setCookie(base, "lang", lang))
		u.open(page{"simuls", "/simuls", `document.getElementById('simul-create')`}, 1366)
		type choice struct{ Value, Text string }
		got := eval[choice](u, `(s => s.tagName === 'SELECT' ? {Value: s.value, Text: s.selectedOptions[0].textContent.trim()} : {Value: s.value, Text: s.value})(document.getElementById('simul-tc'))`)
		if want := cat.T(lang, "simul.noclock"); got.Text != want || got.Value != "none" {
			t.Errorf("%s: the simul form's clock shows %q (submitting %q), want %q submitting none", lang, got.Text, got.Value, want)
		}
		form := eval[string](u, `document.getElementById('simul-create').innerText`)
		if regexp.MustCompile(`\bnone\b`).MatchString(form) && lang != "en" {
			t.Errorf("%s: the simul form shows the keyword none: %q", lang, form)
		}
		if lang == "kk" || lang == "en" {
			for _, w := range []int64{1366, 360} {
				u.do("viewport", chromedp.EmulateViewport(w, 800))
				pageShot(t, u, artifacts, fmt.Sprintf("simuls-%s-%d.png", lang, w))
			}
		}
		if lang != "kk" {
			continue
		}
		// Submitted as it is, the simul has no clock.
		u.do("creating the simul", click(chromedp.CSS("#simul-create-submit")))
		u.waitFor("the simul's page", `/^\/simul\/[^/]+/.test(location.pathname)`, 10*time.Second)
		id := eval[string](u, `location.pathname.split('/')[2]`)
		var sm struct{ TC string }
		getJSON(t, base+"/api/simuls/"+id, &sm)
		if sm.TC != "" && sm.TC != "none" && sm.TC != "-" {
			t.Errorf("the simul created with no clock has the time control %q", sm.TC)
		}
	}
}

// TestLatinBlitzAndPhoneHeader: kk-Latn writes Blitz with the glossary's
// word, and at 360 px the header's theme switch is whole in every
// language.
func TestLatinBlitzAndPhoneHeader(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	u := newUser(t, browser, base, "reader-latn")
	u.do("the language cookie", setCookie(base, "lang", "kk-Latn"))
	for _, p := range []string{"/leaderboard"} {
		u.open(page{p, p, `document.readyState === 'complete'`}, 1366)
		text := eval[string](u, `document.body.innerText + ' ' + [...document.querySelectorAll('option')].map(o => o.textContent).join(' ')`)
		if regexp.MustCompile(`\b[Bb]lis\b`).MatchString(text) {
			t.Errorf("kk-Latn: %s writes Blitz «Blis»", p)
		}
		if want := cat.T("kk-Latn", "category.blitz"); want != "Blits" || !strings.Contains(text, want) {
			t.Errorf("kk-Latn: %s: Blitz is %q, want the glossary's Blits", p, want)
		}
	}
	for _, lang := range allLangs() {
		u := newUser(t, browser, base, "reader-"+lang)
		u.do("the language cookie", setCookie(base, "lang", lang))
		u.open(page{"lobby", "/", `document.getElementById('theme-select') && !document.getElementById('theme').hidden`}, 360)
		pageShot(t, u, artifacts, fmt.Sprintf("header-%s-360.png", lang))
		// The select is inside the window and inside every box that clips
		// it, and wide enough for its longest choice.
		cut := eval[string](u, `(() => {
  const s = document.getElementById('theme-select');
  const r = s.getBoundingClientRect();
  if (r.width === 0) return 'not shown';
  if (r.left < 0 || r.right > innerWidth + 0.5) return 'outside the window: ' + r.left + '..' + r.right;
  for (let e = s.parentElement; e && e !== document.body; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
    const b = e.getBoundingClientRect();
    if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) return 'clipped by ' + e.tagName + '.' + e.className;
  }
  const c = document.createElement('canvas').getContext('2d');
  c.font = getComputedStyle(s).font;
  const text = Math.max(...[...s.options].map(o => c.measureText(o.textContent).width));
  const cs = getComputedStyle(s);
  const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 12; // the arrow
  return text > room + 0.5 ? 'too narrow: ' + text.toFixed(0) + ' px of text in ' + room.toFixed(0) : '';
})()`)
		if cut != "" {
			t.Errorf("%s: at 360 px the header's theme switch is cut: %s", lang, cut)
		}
	}
}
