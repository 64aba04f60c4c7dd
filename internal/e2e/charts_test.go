package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// timedEngineGame plays a 3+2 game against the engine (level 1) as the
// account of token: White's first legal move each turn for plies moves,
// then a resignation. It returns the game's id.
func timedEngineGame(t *testing.T, base, token string, plies int) string {
	t.Helper()
	id := apiCall(t, "POST", base+"/api/engine-games", token, map[string]any{"level": 1, "color": "white", "tc": "3+2"})["game_id"].(string)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/api/games/"+id+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	send := func(v any) {
		b, _ := json.Marshal(v)
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	ply := 0
	move := func() {
		var st struct{ FEN string }
		getJSON(t, base+"/api/games/"+id, &st)
		p, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
		if err != nil {
			t.Fatal(err)
		}
		for m := range p.LegalMoves().All() {
			time.Sleep(150 * time.Millisecond) // some time off the clock
			send(map[string]any{"type": "move", "ply": ply, "hole": int(m)})
			return
		}
	}
	move()
	for resigned := false; ; {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("the timed game: %v", err)
		}
		var m struct{ Type, By string }
		json.Unmarshal(b, &m)
		if m.Type == "move" {
			ply++
		}
		if m.Type == "move" && m.By == "black" && !resigned {
			if ply >= plies {
				send(map[string]any{"type": "resign"})
				resigned = true
			} else {
				move()
			}
		}
		if m.Type == "end" {
			break
		}
	}
	return id
}

// ratedPlayers fills the database at path with three players of stable
// blitz ratings (the leaderboard's histogram has them).
func ratedPlayers(t *testing.T, path string) {
	t.Helper()
	ctx := t.Context()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ids []int64
	for _, name := range []string{"Abai", "Shokan", "Ybyrai", "Dina", "Aigerim"} {
		u, err := st.CreateUser(ctx, name, "x")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	at := time.Now().AddDate(0, -4, 0)
	for i := range 120 {
		w, b := ids[i%5], ids[(i+1+i/5)%5]
		if w == b {
			b = ids[(i+2)%5]
		}
		g, err := st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: w}, {UserID: b}}, Rules: toguz.Standard(),
			TimeControl: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, Rated: true, Status: game.Playing}, nil)
		if err != nil {
			t.Fatal(err)
		}
		res := []toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw, toguz.WhiteWins, toguz.WhiteWins, toguz.BlackWins, toguz.WhiteWins}[(i*int(w))%7]
		if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: res, Termination: toguz.ByResignation,
			At: at.Add(time.Duration(i) * 24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPictures, in kk and en at 1366 and 360 px: a reviewed timed game's
// page draws the evaluation graph and the clocks' graph titled in the
// page's language, a click on a point of the evaluation graph takes the
// board to that ply (and Enter on a focused point too); the profile's
// rating history and the leaderboard's histogram are drawn; every page
// fits a phone.
func TestPictures(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ratedPlayers(t, db)
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, ReviewWorkers: 1, ReviewDepth: 6, DB: db})
	cat := i18n.New()
	alice := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "aigul", "password": "correct horse battery"})["token"].(string)
	// Puzzles tried: two solved, one missed (the dashboard by theme).
	shipped, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, p := range shipped {
		if p.Moves != 1 || tried == 3 {
			continue
		}
		m := p.Move().Hole()
		if tried == 2 {
			m = p.Start.LegalMoves().Without(p.Move()).First().Hole()
		}
		apiCall(t, "POST", base+"/api/puzzles/"+p.ID, alice, map[string]any{"move": m})
		tried++
	}
	id := timedEngineGame(t, base, alice, 12)
	// An event of four with two rounds played (the arbiter's results).
	var players []string
	for _, name := range []string{"bolat", "erlan", "gulnar", "marat"} {
		players = append(players, apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": name, "password": "correct horse battery"})["token"].(string))
	}
	event := newEvent(t, base, alice, players...)
	for round := 1; round <= 2; round++ {
		var ev events.EventJSON
		deadline := time.Now().Add(10 * time.Second)
		for getJSON(t, base+"/api/events/"+event, &ev); len(ev.Rounds) < round && time.Now().Before(deadline); getJSON(t, base+"/api/events/"+event, &ev) {
			time.Sleep(100 * time.Millisecond)
		}
		if len(ev.Rounds) < round {
			t.Fatalf("the event's round %d was not paired", round)
		}
		for k, g := range ev.Rounds[round-1].Games {
			postForm(t, base+"/event/"+event+"/arbiter/result", alice, url.Values{"round": {strconv.Itoa(round)}, "board": {strconv.Itoa(g.Board)},
				"result": {[]string{"1-0", "1/2-1/2", "0-1"}[(round+k)%3]}})
		}
	}
	waitReview(t, base, id)
	for _, lang := range pageLangs {
		u := newUser(t, browser, base, "pictures-"+lang)
		u.do("cookies", setCookie(base, "toguz_session", alice), setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			what := fmt.Sprintf("%s %d px", lang, w)
			u.do("viewport", chromedp.EmulateViewport(w, 900), chromedp.Navigate(base+"/game/"+id))
			u.waitFor("the graphs", `document.querySelector('#review[data-state="done"] #eval-graph') && document.querySelector('#board button.hole') && document.querySelectorAll('#moves .ply').length > 0`, 15*time.Second)
			if got, want := eval[string](u, `document.querySelector('#eval-graph > title').textContent`), cat.T(lang, "review.graph"); got != want {
				t.Errorf("%s: the evaluation graph's title %q, want %q", what, got, want)
			}
			clockTitle, _, _ := strings.Cut(cat.T(lang, "chart.clock.title", ""), ":")
			if got := eval[string](u, `(e => e ? e.textContent : '')(document.querySelector('#clock-graph > title'))`); !strings.HasPrefix(got, clockTitle) {
				t.Errorf("%s: the clocks' graph's title %q, want %q…", what, got, clockTitle)
			}
			u.do("scrolling to the graph", chromedp.Evaluate[chromedp.Void](`document.getElementById('eval-graph').scrollIntoView({block: 'center'})`))
			u.do("clicking ply 5 on the graph", click(chromedp.CSS(`#eval-graph a.point[data-key="5"] .hit`)))
			u.waitFor("the board at ply 5", `document.getElementById('game').dataset.ply === '5' && document.querySelector('#eval-graph a.point.current').dataset.key === '5'`, 5*time.Second)
			u.do("Enter on the start's point", chromedp.Evaluate[chromedp.Void](`document.querySelector('#eval-graph a.point[data-key="0"]').focus()`), chromedp.KeyEvent("\r"))
			u.waitFor("the board at the start", `document.getElementById('game').dataset.ply === '0'`, 5*time.Second)
			u.do("clicking ply 2", click(chromedp.CSS(`#eval-graph a.point[data-key="2"] .hit`)))
			u.waitFor("the board at ply 2", `document.getElementById('game').dataset.ply === '2'`, 5*time.Second)
			if loc := eval[string](u, `location.hash`); loc != "" {
				t.Errorf("%s: a point's click changed the address to %q", what, loc)
			}
			fits360(t, u, what+" game page", w)
			u.do("scrolling to the graph", chromedp.Evaluate[chromedp.Void](`document.getElementById('eval-graph').scrollIntoView({block: 'start'})`))
			u.shot(artifacts, fmt.Sprintf("pictures-game-%s-%d.png", lang, w))
			u.chartShot(artifacts, fmt.Sprintf("chart-eval-%s-%d.png", lang, w), `#eval-graph`)
			u.chartShot(artifacts, fmt.Sprintf("chart-clocks-%s-%d.png", lang, w), `#clock-graph`)
			if w == 1366 {
				// The dark scheme: the pictures take its colours.
				u.do("the dark scheme", chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.theme = 'dark'`))
				u.chartShot(artifacts, fmt.Sprintf("chart-eval-dark-%s.png", lang), `#review`)
				u.do("the light scheme", chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.theme = 'light'`))
			}

			u.do("a profile", chromedp.Navigate(base+"/@/Abai"))
			u.waitFor("the rating chart", `document.querySelector('#rating-chart')`, 10*time.Second)
			if n := eval[int](u, `document.querySelectorAll('#rating-chart .series .line').length`); n != 1 {
				t.Errorf("%s: %d lines in the rating chart, want 1", what, n)
			}
			fits360(t, u, what+" profile", w)
			u.shot(artifacts, fmt.Sprintf("pictures-profile-%s-%d.png", lang, w))
			u.chartShot(artifacts, fmt.Sprintf("chart-rating-%s-%d.png", lang, w), `#rating-chart`)

			u.do("the puzzles", chromedp.Navigate(base+"/puzzles"))
			u.waitFor("the dashboard", `document.querySelector('#puzzle-dashboard')`, 10*time.Second)
			if got, want := eval[string](u, `document.querySelector('#puzzle-dashboard > title').textContent`), cat.N(lang, "chart.puzzles.title", 3, 3); got != want {
				t.Errorf("%s: the puzzles' dashboard is titled %q, want %q", what, got, want)
			}
			fits360(t, u, what+" puzzles", w)
			u.do("scrolling to the dashboard", chromedp.Evaluate[chromedp.Void](`document.getElementById('puzzle-dashboard').scrollIntoView({block: 'start'})`))
			u.shot(artifacts, fmt.Sprintf("pictures-puzzles-%s-%d.png", lang, w))
			u.chartShot(artifacts, fmt.Sprintf("chart-puzzles-%s-%d.png", lang, w), `.puzzle-dashboard`)

			u.do("the event", chromedp.Navigate(base+"/event/"+event))
			u.waitFor("its pictures", `document.querySelector('#event-progress') && document.querySelector('#event-ratings')`, 10*time.Second)
			if got, want := eval[string](u, `document.querySelector('#event-progress > title').textContent`), cat.N(lang, "chart.event.progress", 2, 2); got != want {
				t.Errorf("%s: the event's progression is titled %q, want %q", what, got, want)
			}
			fits360(t, u, what+" event", w)
			u.do("scrolling to the pictures", chromedp.Evaluate[chromedp.Void](`document.getElementById('event-progress').scrollIntoView({block: 'start'})`))
			u.shot(artifacts, fmt.Sprintf("pictures-event-%s-%d.png", lang, w))
			u.chartShot(artifacts, fmt.Sprintf("chart-event-%s-%d.png", lang, w), `.event-pictures`)

			u.do("the insights", chromedp.Navigate(base+"/insights"))
			u.waitFor("the insights' pictures", `document.querySelector('#insights-colour') && document.querySelector('#insights-phase')`, 10*time.Second)
			if got, want := eval[string](u, `document.querySelector('#insights-phase > title').textContent`), cat.T(lang, "insights.phase.title"); got != want {
				t.Errorf("%s: the insights' phase picture is titled %q, want %q", what, got, want)
			}
			fits360(t, u, what+" insights", w)
			u.shot(artifacts, fmt.Sprintf("pictures-insights-%s-%d.png", lang, w))

			u.do("the leaderboard", chromedp.Navigate(base+"/leaderboard?category=blitz"))
			u.waitFor("the histogram", `document.querySelector('#rating-histogram')`, 10*time.Second)
			title, _, _ := strings.Cut(cat.T(lang, "chart.hist.title", cat.T(lang, "category.blitz"), ""), ":")
			if got := eval[string](u, `document.querySelector('#rating-histogram > title').textContent`); !strings.HasPrefix(got, title) {
				t.Errorf("%s: the histogram's title %q, want %q…", what, got, title)
			}
			fits360(t, u, what+" leaderboard", w)
			u.shot(artifacts, fmt.Sprintf("pictures-leaderboard-%s-%d.png", lang, w))
			u.chartShot(artifacts, fmt.Sprintf("chart-histogram-%s-%d.png", lang, w), `#rating-distribution`)
		}
	}
}

// chartShot saves the picture sel alone as PNG in dir (the full page's
// screenshot shows it too small to read on a long page).
func (u *user) chartShot(dir, file, sel string) {
	u.t.Helper()
	png, err := chromedp.Run(u.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		u.t.Fatalf("%s: screenshot of %s: %v", u.name, sel, err)
	}
	writeArtifact(u.t, dir, file, png)
}
