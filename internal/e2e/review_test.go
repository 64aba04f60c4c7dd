package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/server"
)

// worstMove is the move that leaves the opponent the biggest capture next
// (the fewest stones taken now among equals): a blunder whenever one is
// there to make.
func worstMove(p toguz.Position) toguz.Move {
	worst, value := toguz.NoMove, -1<<30
	for m := range p.LegalMoves().All() {
		q := p.After(m)
		next := 0
		for m2 := range q.LegalMoves().All() {
			next = max(next, gain(q, m2))
		}
		if v := 100*next - gain(p, m); v > value {
			worst, value = m, v
		}
	}
	return worst
}

// reviewPly is a ply of GET /api/games/{id}/review.
type reviewPly struct {
	M, B, K int
	F       bool
}

// TestGameReview: a person plays the engine badly and resigns; the game
// page shows the review when the server's queue has done it (graph,
// accuracies, the marks in the move list), and the learn page replays his
// mistakes: the engine's move is judged right, the move of the game wrong.
func TestGameReview(t *testing.T) {
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, ReviewWorkers: 1, ReviewDepth: 6})
	u := newUser(t, browser, base, "dana")
	u.signup()
	u.do("starting a game against the engine",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#engine-form")),
		chromedp.SetValue(chromedp.CSS("#engine-level"), "1"),
		chromedp.SetValue(chromedp.CSS(`#engine-form select[name="color"]`), "white"),
		click(chromedp.CSS("#engine-submit")),
	)
	u.waitFor("the game page", `document.querySelector('#board button.hole') && document.getElementById('game').dataset.status === 'playing'`, 15*time.Second)
	id := u.gameID()
	for ply := 0; ply < 16; ply += 2 {
		u.waitFor("White's turn or the end", fmt.Sprintf(`(g => g.dataset.status !== 'playing' || (g.dataset.turn === 'white' && g.dataset.ply === "%d"))(document.getElementById('game'))`, ply), 30*time.Second)
		if eval[string](u, `document.getElementById('game').dataset.status`) != "playing" {
			break
		}
		var st struct{ FEN string }
		getJSON(t, base+"/api/games/"+id, &st)
		p, _, err := toguz.ParseFEN(st.FEN, toguz.Standard())
		if err != nil {
			t.Fatal(err)
		}
		u.click(toguz.White, worstMove(p))
	}
	// The engine's last reply may end the game (White has given a lot
	// away): resign only while the button is there, and click it from the
	// page, which does not wait for a button the end has hidden.
	u.waitFor("White's turn or the end", `(g => g.dataset.status !== 'playing' || (g.dataset.turn === 'white' && !document.getElementById('resign').hidden))(document.getElementById('game'))`, 30*time.Second)
	eval[bool](u, `(window.confirm = () => true, document.getElementById('resign').click(), true)`)
	u.waitFor("the end", `document.getElementById('game').dataset.status !== 'playing'`, 15*time.Second)
	// The page was opened while the game was played: review.js asks for
	// the section until the review is done.
	u.waitFor("the review", `document.querySelector('#review[data-state="done"] svg.review-graph')`, 120*time.Second)
	acc := eval[string](u, `document.getElementById('review-accuracy-white').textContent`)
	if acc == "" || acc == "—" {
		t.Errorf("White's accuracy shown as %q", acc)
	}
	if n := eval[int](u, `document.querySelectorAll('#moves .review-mark').length`); n == 0 {
		t.Error("no mark in the move list")
	}
	u.screenshot(artifacts, "review.png")

	var rv struct {
		Status string
		Review struct{ Plies []reviewPly }
	}
	getJSON(t, base+"/api/games/"+id+"/review", &rv)
	first := -1
	for i, p := range rv.Review.Plies {
		if i%2 == 0 && p.K >= 2 && !p.F {
			first = i
			break
		}
	}
	if first < 0 {
		t.Fatalf("White made no mistake to learn from: %+v", rv.Review.Plies)
	}
	ex := rv.Review.Plies[first]
	u.do("opening the exercises", click(chromedp.CSS("#learn-white")))
	u.waitFor("the first exercise", `document.querySelector('.learn-form')`, 15*time.Second)
	u.do("answering the engine's move", click(chromedp.CSS(fmt.Sprintf("#learn-hole-%d", ex.B))))
	u.waitFor("the verdict: right", `(v => v && v.dataset.good === '1')(document.getElementById('learn-verdict'))`, 30*time.Second)
	u.do("answering the game's move", click(chromedp.CSS(fmt.Sprintf("#learn-hole-%d", ex.M))))
	u.waitFor("the verdict: wrong", `(v => v && v.dataset.good === '0')(document.getElementById('learn-verdict'))`, 30*time.Second)
}
