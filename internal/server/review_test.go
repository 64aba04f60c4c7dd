package server

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/store"
)

// reviewTestDepth is the tests' review depth: shallow, quick.
const reviewTestDepth = 4

// shortestGame is the shortest decisive game (package shortest): Black
// hands White 82 stones in 11 plies.
var shortestGame = []toguz.Move{5, 1, 3, 5, 8, 3, 7, 4, 6, 5, 4}

// finishedGame stores a game of moves between two guests, ended.
func (s *testServer) finishedGame(moves []toguz.Move) string {
	t := s.t
	t.Helper()
	ctx := context.Background()
	g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{Name: "Guest-w"}, {Name: "Guest-b"}},
		Rules: toguz.Standard(), Status: game.Playing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		if err := s.st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m, Clock: -1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan}); err != nil {
		t.Fatal(err)
	}
	return g.ID
}

// reviewNext does a worker's job: it takes the next pending review and
// stores it, with the real analysis.
func (s *testServer) reviewNext() string {
	t := s.t
	t.Helper()
	ctx := context.Background()
	job, ok, err := s.st.NextReview(ctx)
	if err != nil || !ok {
		t.Fatalf("NextReview: %v %v", ok, err)
	}
	g, err := store.LiveStore{S: s.st}.Game(ctx, job.GameID)
	if err != nil {
		t.Fatal(err)
	}
	start, _, _ := g.Spec.Start()
	var moves []toguz.Move
	for _, m := range g.Moves {
		moves = append(moves, m.Hole)
	}
	e, err := engine.New(engine.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	d, err := review.Analyze(ctx, e, start, moves, reviewTestDepth, false)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(d)
	if err := s.st.FinishReview(ctx, job.GameID, review.Settings(reviewTestDepth), b, false); err != nil {
		t.Fatal(err)
	}
	return job.GameID
}

func (s *testServer) getPage(path, lang string) (int, string) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	req.Header.Set("Accept-Language", lang)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (s *testServer) postForm(path, lang string, form url.Values) (int, string, string) {
	s.t.Helper()
	req, _ := http.NewRequest("POST", s.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Language", lang)
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// TestGamePageReview: a finished game's page says the review is pending
// while its job waits, then shows the graph, the accuracies, the counts of
// marks and each marked ply with the better move, in the page's language.
func TestGamePageReview(t *testing.T) {
	s := newTestServer(t, serverOpts{reviews: true})
	id := s.finishedGame(shortestGame)
	_, page := s.getPage("/game/"+id, "en")
	if !strings.Contains(page, `data-state="pending"`) || !strings.Contains(page, "Review pending") {
		t.Fatalf("the page of a game whose review waits does not say so:\n%s", excerptOf(page, "review"))
	}
	if got := s.reviewNext(); got != id {
		t.Fatalf("reviewed %s, want %s", got, id)
	}
	for _, tt := range []struct{ lang, title, accuracy, better string }{
		{"en", "Game review", "Accuracy", "Better: "},
		{"ru", "Разбор партии", "Точность", "Лучше: "},
		{"kk", "Ойынға талдау", "Дәлдік", "Жақсырақ: "},
	} {
		code, page := s.getPage("/game/"+id, tt.lang)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tt.lang, code)
		}
		un := html.UnescapeString(page)
		for _, want := range []string{`data-state="done"`, `id="eval-graph"`, `class="point" href="#ply-11" translate="no" data-key="11"`, tt.title, tt.accuracy, tt.better,
			`id="review-accuracy-white"`, `id="learn-black"`, "review.js"} {
			if !strings.Contains(un, want) {
				t.Errorf("%s: the reviewed game's page lacks %q:\n%s", tt.lang, want, excerptOf(un, "review"))
			}
		}
	}
	// The section alone, as review.js fetches it (its header); the
	// address alone is the game page's review section.
	req, _ := http.NewRequest("GET", s.URL+"/game/"+id+"/review", nil)
	req.Header.Set(review.SectionHeader, "review")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	code, frag := resp.StatusCode, string(b)
	if code != http.StatusOK || !strings.HasPrefix(strings.TrimSpace(frag), `<section id="review"`) || strings.Contains(frag, "<html") {
		t.Errorf("GET /game/%s/review: %d\n%.300s", id, code, frag)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, err := noFollow.Get(s.URL + "/game/" + id + "/review"); err != nil || resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/game/"+id+"#review" {
		t.Errorf("GET /game/%s/review without the header: %v %v", id, resp, err)
	} else {
		resp.Body.Close()
	}
	// The notes review.js puts in the move list: Black's marked plies.
	_, page = s.getPage("/game/"+id, "en")
	i := strings.Index(page, `data-notes="`)
	raw := page[i+len(`data-notes="`):]
	raw = html.UnescapeString(raw[:strings.IndexByte(raw, '"')])
	var notes []review.Note
	if err := json.Unmarshal([]byte(raw), &notes); err != nil {
		t.Fatalf("notes %q: %v", raw, err)
	}
	black := 0
	for _, n := range notes {
		if n.Ply%2 == 0 && (n.Mark == "mistake" || n.Mark == "blunder") {
			black++
			if !strings.Contains(n.Text, "Better: ") {
				t.Errorf("ply %d: %q names no better move", n.Ply, n.Text)
			}
		}
	}
	if black == 0 {
		t.Errorf("no mistake of Black's among %+v", notes)
	}
	// The API.
	code, body := s.do("GET", "/api/games/"+id+"/review", "", nil)
	if code != http.StatusOK || body["status"] != "done" || body["settings"] != "depth 4" {
		t.Errorf("GET /api/games/%s/review: %d %v", id, code, body)
	}
}

// TestRequestReview: an imported game's page offers its review, the
// request queues it once.
func TestRequestReview(t *testing.T) {
	s := newTestServer(t, serverOpts{reviews: true})
	st, err := s.st.ImportGames(context.Background(), "a:x", 0, []store.Import{{Players: [2]string{"A", "B"},
		Rules: toguz.Standard(), Moves: shortestGame[:6], Result: toguz.Draw, Termination: toguz.ByAgreement}})
	if err != nil {
		t.Fatal(err)
	}
	id := st[0].ID
	if _, page := s.getPage("/game/"+id, "en"); !strings.Contains(page, `id="review-request"`) {
		t.Fatalf("no request button on an imported game:\n%s", excerptOf(page, "review"))
	}
	if code, loc, _ := s.postForm("/game/"+id+"/review", "en", nil); code != http.StatusSeeOther || loc != "/game/"+id {
		t.Errorf("POST review: %d %q", code, loc)
	}
	if _, page := s.getPage("/game/"+id, "en"); !strings.Contains(page, `data-state="pending"`) {
		t.Errorf("after the request: not pending:\n%s", excerptOf(page, "review"))
	}
	if code, _, body := s.postForm("/game/"+id+"/review", "ru", nil); code != http.StatusConflict || !strings.Contains(body, "уже есть разбор") {
		t.Errorf("a second request: %d\n%s", code, excerptOf(body, "разбор"))
	}
	if code, body := s.do("POST", "/api/games/nothere/review", s.guest(), nil); code != http.StatusNotFound {
		t.Errorf("request of no game: %d %v", code, body)
	}
}

// TestLearnPage: the exercises of a player's mistakes, answers judged by
// the server: the engine's move is right, the mistake again is wrong, an
// illegal hole is refused, in the page's language.
func TestLearnPage(t *testing.T) {
	s := newTestServer(t, serverOpts{reviews: true})
	id := s.finishedGame(shortestGame)
	if code, page := s.getPage("/review/"+id+"/learn?side=black", "en"); code != http.StatusOK || !strings.Contains(page, "not ready yet") {
		t.Errorf("before the review: %d\n%s", code, excerptOf(page, "learn"))
	}
	s.reviewNext()
	// Not a player of the game: choose a side.
	if _, page := s.getPage("/review/"+id+"/learn", "en"); !strings.Contains(page, `id="learn-white"`) {
		t.Errorf("no choice of side:\n%s", excerptOf(page, "learn"))
	}
	code, page := s.getPage("/review/"+id+"/learn?side=black", "en")
	if code != http.StatusOK || !strings.Contains(page, "Exercise 1 of") || !strings.Contains(page, `<svg`) {
		t.Fatalf("the first exercise: %d\n%s", code, excerptOf(page, "learn"))
	}
	job, _ := s.st.Review(context.Background(), id)
	d, _ := review.Decode(job.Data)
	exs, err := review.Exercises(toguz.StartPosition(), d, toguz.Black)
	if err != nil || len(exs) == 0 {
		t.Fatalf("exercises: %v %v", exs, err)
	}
	ex := exs[0]
	answer := func(lang string, hole toguz.Move) (int, string) {
		code, _, body := s.postForm("/review/"+id+"/learn", lang, url.Values{"side": {"black"}, "n": {"0"}, "hole": {strconv.Itoa(int(hole))}})
		return code, body
	}
	if code, body := answer("en", ex.Review.Best); code != http.StatusOK || !strings.Contains(body, `data-good="1"`) {
		t.Errorf("the engine's move %d: %d\n%s", ex.Review.Best, code, excerptOf(body, "learn-"))
	}
	if code, body := answer("ru", ex.Review.Move); code != http.StatusOK || !strings.Contains(body, `data-good="0"`) || !strings.Contains(body, "Не этот") {
		t.Errorf("the mistake again %d: %d\n%s", ex.Review.Move, code, excerptOf(body, "learn-"))
	}
	for m := toguz.Move(1); m <= 9; m++ {
		if !ex.Before.LegalMoves().Has(m) {
			if code, body := answer("en", m); code != http.StatusBadRequest || !strings.Contains(body, "cannot be played") {
				t.Errorf("illegal hole %d: %d\n%s", m, code, excerptOf(body, "learn-"))
			}
			break
		}
	}
	// The winner made no mistake worth an exercise, or fewer.
	if _, page := s.getPage("/review/"+id+"/learn?side=white", "en"); !strings.Contains(page, "Exercise 1 of") && !strings.Contains(page, `id="learn-none"`) {
		t.Errorf("White's exercises:\n%s", excerptOf(page, "learn"))
	}
}

// excerptOf returns the part of page around the first occurrence of near.
func excerptOf(page, near string) string {
	i := strings.Index(page, near)
	if i < 0 {
		if len(page) > 600 {
			return page[:600]
		}
		return page
	}
	return page[max(0, i-200):min(len(page), i+1200)]
}
