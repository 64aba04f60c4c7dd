package server

import (
	"context"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// PuzzleRatings keeps the puzzles' and the accounts' puzzle ratings
// (internal/store). Guests are not rated: their verdicts only.
type PuzzleRatings interface {
	PuzzleRating(ctx context.Context, userID int64) (r rating.Rating, attempts, solved int, err error)
	RecordPuzzle(ctx context.Context, userID int64, puzzleID string, solved bool, initial rating.Rating) (store.PuzzleAttempt, error)
}

// puzzleErrorKeys are the messages of the puzzles' errors (errorKeys).
var puzzleErrorKeys = []string{"puzzles.err.none", "puzzles.err.move", "puzzles.err.moves"}

// puzzleSet is the shipped puzzles with an index by id.
type puzzleSet struct {
	all  []puzzle.Puzzle
	byID map[string]int
}

func loadPuzzles() (*puzzleSet, error) {
	all, err := puzzle.Shipped()
	if err != nil {
		return nil, err
	}
	ps := &puzzleSet{all: all, byID: make(map[string]int, len(all))}
	for i, p := range all {
		ps.byID[p.ID] = i
	}
	return ps, nil
}

// maxStreakDepth is the streak's top difficulty.
const maxStreakDepth = 9

// pick draws a puzzle with theme (any when ""); in a streak of n solved
// puzzles, one of difficulty 1 + n/2, or the nearest there is above it, so
// that the puzzles get harder as the streak grows.
func (ps *puzzleSet) pick(theme puzzle.Theme, streak int, rng *rand.Rand) (puzzle.Puzzle, bool) {
	var cand []int
	for i, p := range ps.all {
		if theme == "" || p.Has(theme) {
			cand = append(cand, i)
		}
	}
	if streak >= 0 && len(cand) > 0 {
		// The depth wanted, else the nearest above it, else the deepest.
		want := min(1+streak/2, maxStreakDepth)
		depth, deepest := 0, 0
		for _, i := range cand {
			d := ps.all[i].Depth
			deepest = max(deepest, d)
			if d >= want && (depth == 0 || d < depth) {
				depth = d
			}
		}
		if depth == 0 {
			depth = deepest
		}
		cand = slices.DeleteFunc(cand, func(i int) bool { return ps.all[i].Depth != depth })
	}
	if len(cand) == 0 {
		return puzzle.Puzzle{}, false
	}
	return ps.all[cand[rng.IntN(len(cand))]], true
}

type puzzleTheme struct {
	ID, Label string
	Current   bool
}

type puzzleData struct {
	ID       string
	FEN      string
	Goal     string // the task, in the page's language
	Board    *learnBoard
	Themes   []puzzleTheme
	Theme    string
	Streak   int  // puzzles solved in a row, -1 outside the streak mode
	InStreak bool // the page is in the streak mode
	Rating   int  // the account's puzzle rating, 0 for a guest
	Account  bool
	Tags     []string // the puzzle's themes, shown after the answer
	Count    int
	Moves    int // how many moves the solver must find
}

// pagePuzzles is GET /puzzles: a puzzle drawn at random, of the chosen
// theme (?theme=), or the next of a streak (?streak=N solved so far).
func (s *Server) pagePuzzles(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.puzzles()
	if err != nil {
		return err
	}
	theme := puzzle.Theme(r.URL.Query().Get("theme"))
	if theme != "" && !slices.Contains(puzzle.AllThemes, theme) {
		theme = ""
	}
	streak := -1
	if v := r.URL.Query().Get("streak"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < 10000 {
			streak = n
		}
	}
	p, ok := ps.pick(theme, streak, rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())))
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "puzzles.err.none", excerpt(string(theme)))
	}
	return s.renderPuzzle(w, r, p, theme, streak)
}

// pagePuzzle is GET /puzzles/{id}: one puzzle by its id (a shared link).
func (s *Server) pagePuzzle(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.puzzles()
	if err != nil {
		return err
	}
	i, ok := ps.byID[r.PathValue("id")]
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "puzzles.err.none", excerpt(r.PathValue("id")))
	}
	return s.renderPuzzle(w, r, ps.all[i], "", -1)
}

func (s *Server) renderPuzzle(w http.ResponseWriter, r *http.Request, p puzzle.Puzzle, theme puzzle.Theme, streak int) error {
	ps, _ := s.puzzles()
	lang := s.Lang(r)
	d := puzzleData{ID: p.ID, FEN: toguz.FormatFEN(p.Start, 1), Goal: s.cat.T(lang, "puzzles.goal."+p.Goal.String()),
		Board: flipFor(s.learnBoard(lang, p.Start, false, true, nil, nil), p.Start.Turn()), Theme: string(theme), Streak: streak, InStreak: streak >= 0,
		Count: len(ps.all), Moves: max(p.Moves, 1)}
	d.Themes = append(d.Themes, puzzleTheme{ID: "", Label: s.cat.T(lang, "puzzles.theme.all"), Current: theme == ""})
	for _, t := range puzzle.AllThemes {
		d.Themes = append(d.Themes, puzzleTheme{ID: string(t), Label: s.cat.T(lang, "puzzles.theme."+string(t)), Current: t == theme})
	}
	for _, t := range p.Themes {
		if slices.Contains(puzzle.AllThemes, t) {
			d.Tags = append(d.Tags, s.cat.T(lang, "puzzles.theme."+string(t)))
		}
	}
	if id := s.Identity(r); id.Account.ID != 0 && s.cfg.Puzzles != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		rt, _, _, err := s.cfg.Puzzles.PuzzleRating(ctx, id.Account.ID)
		if err != nil {
			return err
		}
		d.Rating, d.Account = rt.Int(), true
	}
	return s.Render(w, http.StatusOK, "puzzles", s.Page(r, "puzzles.title", d))
}

// puzzleAnswer is the solver's moves so far: Moves, or Move alone for the
// first (as a one-move puzzle's page sent it).
type puzzleAnswer struct {
	Move  int   `json:"move"`
	Moves []int `json:"moves"`
}

type puzzleVerdict struct {
	Right bool `json:"right"`
	// Done is false while the solver's moves are right and more are to
	// find: Reply is then the opponent's answer in score-sheet notation,
	// Board the board after it (HTML, the solver's holes playable), and
	// the solution, themes and rating are not said yet.
	Done     bool   `json:"done"`
	Reply    string `json:"reply,omitempty"`
	Board    string `json:"board,omitempty"`
	Headline string `json:"headline"`
	// Solution is the solution's line in score-sheet notation, and Text
	// the sentence that says it, in the page's language.
	Solution []string `json:"solution"`
	Text     string   `json:"text"`
	Tags     string   `json:"tags"`
	// Rating and Delta: the account's puzzle rating after the attempt and
	// its change (absent for a guest); RatingText says it.
	Rating     *int   `json:"rating,omitempty"`
	Delta      *int   `json:"delta,omitempty"`
	RatingText string `json:"rating_text,omitempty"`
}

// apiPuzzle is POST /api/puzzles/{id}: the solver's moves so far are
// judged against the stored solution by the rules library
// (puzzle.JudgeLine). While they are right and more are to find, the
// answer plays the opponent's reply and sends the board after it; at the
// end (a wrong move, or the last right one) an account's first attempt at
// the puzzle is rated (store.RecordPuzzle).
func (s *Server) apiPuzzle(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.puzzles()
	if err != nil {
		return err
	}
	i, ok := ps.byID[r.PathValue("id")]
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "puzzles.err.none", excerpt(r.PathValue("id")))
	}
	p := ps.all[i]
	var req puzzleAnswer
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	if len(req.Moves) == 0 {
		req.Moves = []int{req.Move}
	}
	if n := max(p.Moves, 1); len(req.Moves) > n {
		return apierr.BadRequest(apierr.CodeBadRequest, "puzzles.err.moves", len(req.Moves), n)
	}
	moves := make([]toguz.Move, len(req.Moves))
	for i, m := range req.Moves {
		if m < 1 || m > toguz.MaxHoles {
			return apierr.BadRequest(apierr.CodeBadRequest, "puzzles.err.move", m)
		}
		moves[i] = toguz.Move(m)
	}
	right, done, err := p.JudgeLine(moves)
	if err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "puzzles.err.move", req.Moves[len(req.Moves)-1])
	}
	lang := s.Lang(r)
	if right && !done {
		// The opponent's reply, played for him, and the board after it.
		pos, _ := p.Step(len(moves) - 1)
		pos = pos.After(moves[len(moves)-1])
		reply := p.Solution[2*len(moves)-1]
		n, err := pos.Notation(reply)
		if err != nil {
			return err
		}
		pos = pos.After(reply)
		d := puzzleData{ID: p.ID, Board: flipFor(s.learnBoard(lang, pos, false, true, nil, nil), pos.Turn())}
		var b strings.Builder
		if err := s.pages.RenderPart(&b, "puzzles", "puzzle-board", s.Page(r, "puzzles.title", d)); err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, puzzleVerdict{Right: true, Reply: n, Board: b.String(),
			Headline: s.cat.T(lang, "puzzles.continue", n)})
	}
	out := puzzleVerdict{Right: right, Done: true, Headline: s.cat.T(lang, "puzzles.wrong")}
	if right {
		out.Headline = s.cat.T(lang, "puzzles.right")
	}
	pos := p.Start
	for _, m := range p.Solution {
		n, err := pos.Notation(m)
		if err != nil || pos.IsOver() {
			break
		}
		out.Solution = append(out.Solution, n)
		pos = pos.After(m)
	}
	out.Text = s.cat.T(lang, "puzzles.solution", out.Solution[0], strings.Join(out.Solution, " "))
	var tags []string
	for _, t := range p.Themes {
		if slices.Contains(puzzle.AllThemes, t) {
			tags = append(tags, s.cat.T(lang, "puzzles.theme."+string(t)))
		}
	}
	out.Tags = s.cat.T(lang, "puzzles.tags", strings.Join(tags, ", "), p.Depth)
	if id := s.Identity(r); id.Account.ID != 0 && s.cfg.Puzzles != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		a, err := s.cfg.Puzzles.RecordPuzzle(ctx, id.Account.ID, p.ID, right, p.StartRating())
		if err != nil {
			return err
		}
		after, delta := a.PlayerAfter.Int(), a.PlayerAfter.Int()-a.PlayerBefore.Int()
		out.Rating, out.Delta = &after, &delta
		if a.Repeat {
			out.RatingText = s.cat.T(lang, "puzzles.repeat", after)
		} else {
			out.RatingText = s.cat.T(lang, "puzzles.rating.after", after, strconv.Itoa(delta))
			if delta > 0 {
				out.RatingText = s.cat.T(lang, "puzzles.rating.after", after, "+"+strconv.Itoa(delta))
			}
		}
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// flipFor turns a board so that the side to move, who solves the puzzle,
// has his row at the bottom, as a player sees his own board.
func flipFor(b *learnBoard, solver toguz.Player) *learnBoard {
	if solver == toguz.White {
		return b
	}
	top, bottom := slices.Clone(b.Bottom), slices.Clone(b.Top)
	slices.Reverse(top)
	slices.Reverse(bottom)
	b.Top, b.Bottom = top, bottom
	b.KazanW, b.KazanB = b.KazanB, b.KazanW
	b.KazanLabelW, b.KazanLabelB = b.KazanLabelB, b.KazanLabelW
	b.RowTop, b.RowBt = b.RowBt, b.RowTop
	return b
}
