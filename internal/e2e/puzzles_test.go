package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/puzzle"
)

// TestPuzzleSolved: in Kazakh and in English an account opens a puzzle,
// misses one by a click, then solves another by pressing the solution's
// number key; the verdicts are the catalog's in the page's language, the
// solution and the next-puzzle link appear, and the puzzle rating shown
// goes down after the miss and up after the solve.
func TestPuzzleSolved(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	all, err := puzzle.Shipped()
	var ps []puzzle.Puzzle // of one move
	for _, p := range all {
		if p.Moves == 1 {
			ps = append(ps, p)
		}
	}
	if err != nil || len(ps) < 4 {
		t.Fatalf("%d puzzles of one move, %v", len(ps), err)
	}
	number := regexp.MustCompile(`\d{3,4}`)
	rating := func(u *user) string {
		return number.FindString(eval[string](u, `document.getElementById('puzzle-rating').textContent`))
	}
	for i, lang := range []string{"kk", "en"} {
		t.Run(lang, func(t *testing.T) {
			u := newUser(t, browser, base, "solver-"+lang)
			u.signup()
			u.setLang(lang)
			miss, solve := ps[2*i], ps[2*i+1]
			u.do("opening a puzzle", chromedp.Navigate(base+"/puzzles/"+miss.ID))
			u.waitFor("the puzzle", `document.readyState === 'complete' && document.querySelector('#puzzle button.hole.playable')`, 10*time.Second)
			before := rating(u)
			wrong := miss.Start.LegalMoves().Without(miss.Move()).First().Hole()
			u.do("clicking a wrong hole", click(chromedp.CSS(fmt.Sprintf(`#puzzle button.hole.playable[data-hole="%d"]`, wrong))))
			u.waitFor("the miss", `document.querySelector('#puzzle.missed') && !document.getElementById('puzzle-next').hidden`, 10*time.Second)
			if got, want := eval[string](u, `document.getElementById('puzzle-feedback').textContent`), cat.T(lang, "puzzles.wrong"); got != want {
				t.Errorf("miss: %q, want %q", got, want)
			}
			missed := rating(u)
			if missed >= before && len(missed) == len(before) {
				t.Errorf("rating %s after a miss, %s before", missed, before)
			}
			u.do("opening another", chromedp.Navigate(base+"/puzzles/"+solve.ID))
			u.waitFor("the puzzle", `document.readyState === 'complete' && document.querySelector('#puzzle button.hole.playable')`, 10*time.Second)
			if got := rating(u); got != missed {
				t.Errorf("the page shows rating %s, the verdict said %s", got, missed)
			}
			u.key(fmt.Sprint(solve.Move().Hole()))
			u.waitFor("the solve", `document.querySelector('#puzzle.solved') && !document.getElementById('puzzle-solution').hidden`, 10*time.Second)
			if got, want := eval[string](u, `document.getElementById('puzzle-feedback').textContent`), cat.T(lang, "puzzles.right"); got != want {
				t.Errorf("solve: %q, want %q", got, want)
			}
			if solved := rating(u); solved <= missed && len(solved) == len(missed) {
				t.Errorf("rating %s after a solve, %s before", solved, missed)
			}
		})
	}
}

// TestPuzzleTwoMoves: in Russian an account solves a puzzle of two moves.
// Its first move (a click) is answered by the opponent's reply, which the
// server plays: the page says it, and the board becomes the one after the
// reply, the solver's legal holes playable; the second move (its number
// key) solves the puzzle, the whole solution appears and the rating rises.
func TestPuzzleTwoMoves(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p puzzle.Puzzle) bool { return p.Moves == 2 })
	if i < 0 {
		t.Fatal("no shipped puzzle of two moves")
	}
	p := ps[i]
	first, second := p.Solution[0], p.Solution[2]
	after, _ := p.Step(1)
	reply, err := p.Start.After(first).Notation(p.Solution[1])
	if err != nil {
		t.Fatal(err)
	}
	u := newUser(t, browser, base, "liner")
	u.signup()
	u.setLang("ru")
	u.do("opening the puzzle", chromedp.Navigate(base+"/puzzles/"+p.ID))
	u.waitFor("the puzzle", `document.readyState === 'complete' && document.querySelector('#puzzle button.hole.playable')`, 10*time.Second)
	if got, want := eval[string](u, `document.getElementById('puzzle-moves').textContent`), cat.N("ru", "puzzles.moves", 2, 2); got != want {
		t.Errorf("the task: %q, want %q", got, want)
	}
	number := regexp.MustCompile(`\d{3,4}`)
	before := number.FindString(eval[string](u, `document.getElementById('puzzle-rating').textContent`))
	u.do("clicking the first move", click(chromedp.CSS(fmt.Sprintf(`#puzzle button.hole.playable[data-hole="%d"]`, first.Hole()))))
	u.waitFor("the reply", `document.getElementById('puzzle').dataset.step === '1'`, 10*time.Second)
	if got, want := eval[string](u, `document.getElementById('puzzle-feedback').textContent`), cat.T("ru", "puzzles.continue", reply); got != want {
		t.Errorf("after the first move: %q, want %q", got, want)
	}
	var want []int
	for m := range after.LegalMoves().All() {
		want = append(want, m.Hole())
	}
	if got := eval[[]int](u, `Array.from(document.querySelectorAll('#puzzle-board button.hole.playable')).map((b) => +b.dataset.hole)`); !slices.Equal(got, want) {
		t.Errorf("playable holes after the reply %v, want %v", got, want)
	}
	if eval[bool](u, `document.querySelector('#puzzle.solved, #puzzle.missed') !== null || !document.getElementById('puzzle-solution').hidden`) {
		t.Error("the puzzle is over after its first move")
	}
	u.key(fmt.Sprint(second.Hole()))
	u.waitFor("the solve", `document.querySelector('#puzzle.solved') && !document.getElementById('puzzle-solution').hidden`, 10*time.Second)
	if got, want := eval[string](u, `document.getElementById('puzzle-feedback').textContent`), cat.T("ru", "puzzles.right"); got != want {
		t.Errorf("solve: %q, want %q", got, want)
	}
	if got := number.FindString(eval[string](u, `document.getElementById('puzzle-rating').textContent`)); got <= before && len(got) == len(before) {
		t.Errorf("rating %s after the solve, %s before", got, before)
	}
}
