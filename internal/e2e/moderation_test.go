package e2e

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// rating returns a player's only rating (of the category he has played),
// from the API.
func rating(t *testing.T, base, name string) float64 {
	t.Helper()
	rs, _ := apiCall(t, "GET", base+"/api/users/"+name, "", nil)["ratings"].(map[string]any)
	if len(rs) != 1 {
		t.Fatalf("%s's ratings: %v; want one category", name, rs)
	}
	for _, r := range rs {
		return r.(map[string]any)["rating"].(float64)
	}
	return 0
}

// status answers a request's status code.
func status(t *testing.T, method, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// seekIDs returns the ids of the seeks the lobby's API lists for token.
func seekIDs(t *testing.T, base, token string) []string {
	t.Helper()
	var ids []string
	for _, s := range apiCall(t, "GET", base+"/api/seeks", token, nil)["seeks"].([]any) {
		ids = append(ids, s.(map[string]any)["id"].(string))
	}
	return ids
}

// TestModeration: the victim loses a rated game to the cheater and reports
// him from the game's page; the operator makes a moderator (from the
// command line's store, as `toguz mod grant` does, while the server runs);
// the report reaches the moderator's queue, the moderator marks the
// cheater on his page, the victim's points come back, and the cheater's
// next rated seek is neither listed to nor accepted by an account not
// marked, while a marked one sees it and plays it. Screenshots of the
// queue and the account page at 1366 and 360 px in kk and en.
func TestModeration(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, DB: db})
	signup := func(name string) string {
		return apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": name, "password": "correct horse battery"})["token"].(string)
	}
	cheat, victim, mod, other := signup("shaitan"), signup("aigerim"), signup("moder"), signup("qaraqshy")
	board := func(session string) string {
		return apiCall(t, "POST", base+"/api/token", session, map[string]any{"description": "board", "scopes": []string{"board:play"}})["token"].(string)
	}
	cheatBoard, victimBoard := board(cheat), board(victim)

	// The rated game the victim loses: a move each, then he resigns.
	seek := apiCall(t, "POST", base+"/api/seeks", cheat, map[string]any{"tc": "5+3", "rated": true, "color": "white"})["id"].(string)
	gid := apiCall(t, "POST", base+"/api/seeks/"+seek+"/accept", victim, nil)["game_id"].(string)
	apiCall(t, "POST", base+"/api/board/game/"+gid+"/move/7", cheatBoard, nil)
	apiCall(t, "POST", base+"/api/board/game/"+gid+"/move/3", victimBoard, nil)
	apiCall(t, "POST", base+"/api/board/game/"+gid+"/resign", victimBoard, nil)
	deadline := time.Now().Add(10 * time.Second)
	for {
		g := apiCall(t, "GET", base+"/api/games/"+gid, "", nil)
		if g["status"] == "ended" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game did not end: %v", g)
		}
		time.Sleep(50 * time.Millisecond)
	}
	lost := rating(t, base, "aigerim")
	if lost >= 1500 { // the default rating, his before the game
		t.Fatalf("the victim's rating after the loss is %v", lost)
	}

	// The victim reports the cheater from the game's page.
	v := newUser(t, browser, base, "aigerim")
	v.do("cookies", setCookie(base, "toguz_session", victim), setCookie(base, "lang", "en"))
	v.do("the game's page", chromedp.Navigate(base+"/game/"+gid), chromedp.WaitVisible(chromedp.CSS("#report-game")),
		click(chromedp.CSS("#report-game")), chromedp.WaitVisible(chromedp.CSS("#report-form")))
	if who := eval[string](v, `document.getElementById('report-user').value`); who != "shaitan" {
		t.Fatalf("the report form names %q, not the opponent", who)
	}
	for _, w := range []int64{1366, 360} {
		v.do("viewport", chromedp.EmulateViewport(w, 800))
		v.shot(artifacts, fmt.Sprintf("mod-report-en-%d.png", w))
	}
	v.do("viewport", chromedp.EmulateViewport(1366, 800))
	v.do("the report", chromedp.SendKeys(chromedp.CSS("#report-note"), "Every move was the engine's."),
		click(chromedp.CSS("#report-submit")), chromedp.WaitVisible(chromedp.CSS("#report-received")))
	if txt := v.text("report-received"); !strings.Contains(txt, "received") {
		t.Errorf("the reporter is told %q", txt)
	}

	// The operator grants the role from the command line's side; the
	// fair-play model's evidence about the cheater's side of the game is
	// written as its review workers write it.
	st, err := store.Open(context.Background(), db, store.Options{Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.UserByName(context.Background(), "moder")
	if err == nil {
		err = st.SetModerator(context.Background(), u.ID, true)
	}
	if err == nil {
		var g store.Game
		if g, err = st.Game(context.Background(), gid); err == nil {
			err = st.PutFairPlay(context.Background(), game.FairPlay{GameID: gid, Side: "white", UserID: g.Players[0].UserID, Rating: 1500,
				Moves: 20, Agree1: 1, Agree3: 1, Score: 4.75, IPR: 2650, Flag: true, Computed: time.Now()})
		}
	}
	st.Close()
	if err != nil {
		t.Fatal(err)
	}

	m := newUser(t, browser, base, "moder")
	m.do("cookies", setCookie(base, "toguz_session", mod), setCookie(base, "lang", "en"))
	deadline = time.Now().Add(40 * time.Second) // the snapshot is read every 15 s
	for {
		m.do("the queue", chromedp.Navigate(base+"/mod"))
		if eval[bool](m, `!!document.getElementById('mod-queue')`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the moderator never got the queue")
		}
		time.Sleep(time.Second)
	}
	if !eval[bool](m, `[...document.querySelectorAll('#mod-queue a')].some(a => a.textContent === 'shaitan')`) {
		t.Fatalf("the report is not in the queue: %s", eval[string](m, `document.getElementById('mod-queue').outerText`))
	}
	if !strings.Contains(m.text("mod-queue"), "4.8") {
		t.Errorf("the queue lacks the cheater's evidence: %q", m.text("mod-queue"))
	}
	if !eval[bool](m, `!!document.getElementById('mod-link')`) {
		t.Error("the header has no link to the queue for the moderator")
	}
	cat := i18n.New()
	for _, lang := range []string{"en", "kk"} {
		tm := newTextMatcher(cat, lang)
		m.do("language", setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			m.do("viewport", chromedp.EmulateViewport(w, 800))
			for _, p := range []struct{ name, path, ready string }{{"queue", "/mod", "mod-queue"}, {"account", "/mod/@/shaitan", "mod-games"}} {
				m.do(p.name, chromedp.Navigate(base+p.path), chromedp.WaitVisible(chromedp.CSS("#"+p.ready)))
				if wide := eval[float64](m, `document.documentElement.scrollWidth`); w == 360 && wide > 360 {
					t.Errorf("%s in %s is %v px wide at 360", p.name, lang, wide)
				}
				for _, text := range eval[[]string](m, visibleTexts) {
					if !tm.match(text) {
						t.Errorf("%s shows %q, not a text of %s", p.name, text, lang)
					}
				}
				m.shot(artifacts, fmt.Sprintf("mod-%s-%s-%d.png", p.name, lang, w))
			}
		}
	}
	m.do("language", setCookie(base, "lang", "en"), chromedp.EmulateViewport(1366, 800))

	// The mark, on the account's page.
	m.do("marking", chromedp.Navigate(base+"/mod/@/shaitan"), chromedp.WaitVisible(chromedp.CSS("#mod-act")),
		chromedp.SetValue(chromedp.CSS("#mod-action"), "engine"),
		chromedp.SendKeys(chromedp.CSS("#mod-reason"), "Engine moves in every game."),
		click(chromedp.CSS("#mod-submit")), chromedp.WaitVisible(chromedp.CSS("#mod-done")))
	// The points lost come back (rounded to whole points, as the game
	// recorded them).
	refunded := rating(t, base, "aigerim")
	if math.Abs(refunded-1500) > 0.5 {
		t.Errorf("the victim's rating: %v after the loss, %v after the mark; want 1500 back", lost, refunded)
	}
	m.do("the account page", chromedp.Navigate(base+"/mod/@/shaitan"), chromedp.WaitVisible(chromedp.CSS("#mod-refunds")))
	if !strings.Contains(m.text("mod-refunds"), "aigerim") {
		t.Errorf("the refund is not on the account page: %q", m.text("mod-refunds"))
	}
	// A second marked account, for the marked pool.
	m.do("marking another", chromedp.Navigate(base+"/mod/@/qaraqshy"), chromedp.WaitVisible(chromedp.CSS("#mod-act")),
		chromedp.SetValue(chromedp.CSS("#mod-action"), "booster"),
		chromedp.SendKeys(chromedp.CSS("#mod-reason"), "Fed points."),
		click(chromedp.CSS("#mod-submit")), chromedp.WaitVisible(chromedp.CSS("#mod-done")))
	if got := rating(t, base, "aigerim"); got != refunded {
		t.Errorf("marking another account moved the victim's rating: %v, was %v", got, refunded)
	}

	// The cheater's next rated seek meets marked accounts only.
	next := apiCall(t, "POST", base+"/api/seeks", cheat, map[string]any{"tc": "5+3", "rated": true})["id"].(string)
	for _, id := range seekIDs(t, base, victim) {
		if id == next {
			t.Error("the victim's lobby lists the marked account's rated seek")
		}
	}
	v.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	if eval[bool](v, fmt.Sprintf(`!!document.querySelector('tr[data-seek=%q]')`, next)) {
		t.Error("the victim's lobby page shows the marked account's rated seek")
	}
	if code := status(t, "POST", base+"/api/seeks/"+next+"/accept", victim); code != http.StatusForbidden {
		t.Errorf("the victim accepting the marked seek: %d, want 403", code)
	}
	o := newUser(t, browser, base, "qaraqshy")
	o.do("cookies", setCookie(base, "toguz_session", other), setCookie(base, "lang", "en"))
	o.do("the lobby", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#seeks")))
	o.waitFor("the marked seek in the marked account's lobby", fmt.Sprintf(`document.querySelector('tr[data-seek=%q]')`, next), 10*time.Second)
	if g := apiCall(t, "POST", base+"/api/seeks/"+next+"/accept", other, nil)["game_id"]; g == nil {
		t.Error("the marked account could not accept the marked seek")
	}

	// The cheater appeals once; the moderator keeps the decision; the
	// audit log has it all. The appeal page shows no evidence.
	c := newUser(t, browser, base, "shaitan")
	c.do("cookies", setCookie(base, "toguz_session", cheat), setCookie(base, "lang", "en"))
	c.do("the appeal", chromedp.Navigate(base+"/appeal"), chromedp.WaitVisible(chromedp.CSS(".appeal-form textarea")))
	if body := eval[string](c, `document.body.innerText`); strings.Contains(body, "2650") || strings.Contains(body, "Engine moves in every game") {
		t.Errorf("the appeal page shows the cheater the evidence or the moderators' reason: %q", body)
	}
	c.do("appealing", chromedp.SendKeys(chromedp.CSS(".appeal-form textarea"), "I prepared this opening."),
		click(chromedp.CSS(".appeal-form button")), chromedp.WaitVisible(chromedp.CSS("#appeal-received")))
	if c.text("appeal-list") == "" || eval[bool](c, `!!document.querySelector('.appeal-form')`) {
		t.Error("after the appeal the page still offers one, or does not list it")
	}
	enMatcher := newTextMatcher(cat, "en")
	checkTexts := func(u *user, page string) {
		t.Helper()
		for _, text := range eval[[]string](u, visibleTexts) {
			if !enMatcher.match(text) {
				t.Errorf("%s shows %q, not a text of en", page, text)
			}
		}
	}
	checkTexts(c, "the appeal page")
	m.do("the appeals", chromedp.Navigate(base+"/mod/appeals"), chromedp.WaitVisible(chromedp.CSS(".appeal")))
	checkTexts(m, "the appeals' page")
	m.shot(artifacts, "mod-appeals-en-1366.png")
	m.do("keeping the decision", click(chromedp.CSS(`.appeal button[value="upheld"]`)), chromedp.WaitVisible(chromedp.CSS("#appeals-empty")))
	m.do("the audit log", chromedp.Navigate(base+"/mod/log"), chromedp.WaitVisible(chromedp.CSS("#mod-log")))
	checkTexts(m, "the audit log")
	m.shot(artifacts, "mod-log-en-1366.png")
	log := m.text("mod-log")
	for _, want := range []string{"Mark as engine user", "Mark as booster", "Appealed", "Appeal refused", "Made a moderator", "Engine moves in every game."} {
		if !strings.Contains(log, want) {
			t.Errorf("the audit log lacks %q: %q", want, log)
		}
	}
	if !eval[bool](m, `document.documentElement.scrollWidth <= window.innerWidth`) {
		t.Error("the audit log is wider than the window")
	}
}
