package server

import (
	"context"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/insights"
	"github.com/toguz/toguz/internal/store"
)

// TestGamePagePictures: a reviewed timed game's page draws the evaluation
// graph, each ply a link, and the clocks' graph, their titles in the
// page's language.
func TestGamePagePictures(t *testing.T) {
	s := newTestServer(t, serverOpts{reviews: true})
	ctx := context.Background()
	g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{Name: "Guest-w"}, {Name: "Guest-b"}},
		Rules: toguz.Standard(), Status: game.Playing, TimeControl: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range shortestGame {
		left := 3*time.Minute - time.Duration(i)*7*time.Second
		if err := s.st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m, Clock: left}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan}); err != nil {
		t.Fatal(err)
	}
	s.reviewNext()
	for _, tt := range []struct{ lang, eval, clocks string }{
		{"en", "Evaluation after each move", "Time left on each player&#39;s clock after each move, in minutes: White from 3:00 to 1:50; Black from 3:00 to 1:57"},
		{"kk", "Әр жүрістен кейінгі баға", "Әр жүрістен кейін ойыншылардың сағатында қалған уақыт, минутпен: Ақ: 3:00-тен 1:50-ге дейін"},
		{"ru", "Оценка после каждого хода", "Время на часах каждого игрока после каждого хода, в минутах: Белые — с 3:00 до 1:50"},
	} {
		code, page := s.getPage("/game/"+g.ID, tt.lang)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tt.lang, code)
		}
		for _, want := range []string{`id="eval-graph"`, `<title>` + tt.eval, `data-key="0"`, `data-key="11"`, `id="clock-graph"`, `<title>` + tt.clocks} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the game page lacks %q:\n%s", tt.lang, want, excerptOf(html.UnescapeString(page), "clock-graph"))
			}
		}
	}
	// An untimed game has no clocks to draw.
	id := s.finishedGame(shortestGame)
	s.reviewNext()
	if _, page := s.getPage("/game/"+id, "en"); strings.Contains(page, `id="clock-graph"`) || !strings.Contains(page, `id="eval-graph"`) {
		t.Errorf("an untimed game: want the evaluation graph and no clock graph")
	}
}

// TestRatingPictures: the leaderboard draws its players' ratings as a
// histogram and a profile its rating history, their titles in the page's
// language; a category without stable ratings draws none.
func TestRatingPictures(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ctx := t.Context()
	var ids []int64
	for _, name := range []string{"Abai", "Shokan", "Ybyrai"} {
		u, err := s.st.CreateUser(ctx, name, "x")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	at := time.Date(2026, 2, 3, 12, 0, 0, 0, time.UTC)
	// Enough games for stable ratings (the leaderboard's).
	for i := range 45 {
		w, b := ids[i%3], ids[(i+1)%3]
		g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: w}, {UserID: b}}, Rules: toguz.Standard(),
			TimeControl: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, Rated: true, Status: game.Playing}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Mixed results: the ratings stay close, so each game tells
		// much and the deviations fall.
		res := []toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw, toguz.WhiteWins}[i%4]
		if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: res, Termination: toguz.ByResignation,
			At: at.Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		code, page := s.getPage("/leaderboard?category=blitz", lang)
		_, svg, _ := strings.Cut(page, `id="rating-histogram"`)
		title := cat.T(lang, "chart.hist.title", cat.T(lang, "category.blitz"), "")
		if code != http.StatusOK || !strings.Contains(html.UnescapeString(svg), "<title>"+title) || strings.Count(svg, `class="bar"`) < 2 {
			t.Errorf("%s: /leaderboard (%d): no histogram titled %q:\n%.2000s", lang, code, title, svg)
		}
		if _, page := s.getPage("/leaderboard?category=rapid", lang); strings.Contains(page, `id="rating-histogram"`) {
			t.Errorf("%s: a histogram of no rapid player", lang)
		}
		_, page = s.getPage("/@/Abai", lang)
		_, svg, _ = strings.Cut(page, `id="rating-chart"`)
		title, _, _ = strings.Cut(cat.T(lang, "archive.chart.label", "", "", 0, 0), ",")
		if !strings.Contains(svg, "<title>"+title) || !strings.Contains(svg, ">"+cat.T(lang, "archive.cat.blitz")+"<") {
			t.Errorf("%s: the profile's rating chart is not titled %q:\n%.600s", lang, title, svg)
		}
	}
}

// TestPuzzleDashboard: a signed-in solver's /puzzles draws his results by
// theme, titled in the page's language, with the table of the same
// figures; a guest's has none.
func TestPuzzleDashboard(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ps := oneMovePuzzles(t)
	a, b := ps[0], ps[1]
	tok := s.signup("Solver")
	s.tryPuzzle("en", tok, a.ID, a.Move().Hole())
	s.tryPuzzle("en", tok, b.ID, wrongMove(b))
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		req, _ := http.NewRequest("GET", s.URL+"/puzzles", nil)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: lang})
		req.AddCookie(&http.Cookie{Name: "toguz_session", Value: tok})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := html.UnescapeString(string(body))
		title := cat.N(lang, "chart.puzzles.title", 2, 2)
		if !strings.Contains(page, `id="puzzle-dashboard"`) || !strings.Contains(page, "<title>"+title+"</title>") ||
			!strings.Contains(page, `id="puzzle-theme-results"`) || !strings.Contains(page, cat.T(lang, "chart.puzzles.heading")) {
			t.Errorf("%s: /puzzles has no dashboard titled %q:\n%s", lang, title, excerptOf(page, "puzzle-dashboard"))
		}
	}
	if _, page := s.getPage("/puzzles", "en"); strings.Contains(page, `id="puzzle-dashboard"`) {
		t.Error("a guest's /puzzles has a dashboard")
	}
}

// TestInsightsPage: a player's /insights draws his games' pictures (his
// score by colour and time control, his accuracy by phase and first move
// from the reviews), titled in the page's language; a visitor is sent to
// log in.
func TestInsightsPage(t *testing.T) {
	s := newTestServer(t, serverOpts{reviews: true})
	ctx := context.Background()
	tok := s.signup("Aisulu")
	u, err := s.st.UserByName(ctx, "Aisulu")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		seats := [2]game.Seat{{UserID: u.ID, Name: "Aisulu"}, {Name: "Guest-b"}}
		if i == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		g, err := s.st.CreateGame(ctx, store.Game{Players: seats, Rules: toguz.Standard(), Status: game.Playing,
			TimeControl: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, m := range shortestGame {
			if err := s.st.AppendMove(ctx, g.ID, store.Move{Ply: k + 1, Hole: m, Clock: time.Minute}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan}); err != nil {
			t.Fatal(err)
		}
		s.reviewNext()
	}
	cat := i18n.New()
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		req, _ := http.NewRequest("GET", s.URL+"/insights", nil)
		req.AddCookie(&http.Cookie{Name: langCookie, Value: lang})
		req.AddCookie(&http.Cookie{Name: "toguz_session", Value: tok})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := html.UnescapeString(string(body))
		for _, want := range []string{cat.N(lang, "insights.count", 2, 2), cat.N(lang, "insights.reviewed", 2, 2),
			`id="insights-colour"`, "<title>" + cat.T(lang, "insights.colour.title") + "</title>",
			`id="insights-tc"`, `id="insights-phase"`, "<title>" + cat.T(lang, "insights.phase.title") + "</title>",
			`id="insights-opening"`, ">" + cat.T(lang, "game.white") + "<"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: /insights lacks %q:\n%s", lang, want, excerptOf(page, "insights"))
			}
		}
	}
	// Each view reads up to insights.Games games and their reviews: an
	// account drawing it over and over is refused past its burst.
	refused := false
	for range insights.ViewsBurst {
		req, _ := http.NewRequest("GET", s.URL+"/insights", nil)
		req.AddCookie(&http.Cookie{Name: "toguz_session", Value: tok})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		refused = refused || resp.StatusCode == http.StatusTooManyRequests
	}
	if !refused {
		t.Errorf("%d more views of /insights at once were all drawn, want a 429 past the burst of %d", insights.ViewsBurst, insights.ViewsBurst)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, err := noFollow.Get(s.URL + "/insights"); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Errorf("a visitor's /insights: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}
