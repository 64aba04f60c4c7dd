package puzzle

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/lessons"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/web"
)

// Ratings keeps the puzzles' and the accounts' puzzle ratings
// (internal/store). Guests are not rated: their verdicts only.
type Ratings interface {
	PuzzleRating(ctx context.Context, userID int64) (r rating.Rating, attempts, solved int, err error)
	RecordPuzzle(ctx context.Context, userID int64, puzzleID string, solved bool, initial rating.Rating) (store.PuzzleAttempt, error)
	// PuzzleResults returns an account's attempts per puzzle (the
	// dashboard by theme).
	PuzzleResults(ctx context.Context, userID int64) ([]store.PuzzleResult, error)
}

// ErrorKeys are the messages of the puzzles' errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"puzzles.err.none", "puzzles.err.move", "puzzles.err.moves"}
}

// RenderPart writes the template part of page name's set with p
// (web.Pages.RenderPart).
type RenderPart func(w io.Writer, name, part string, p *web.Page) error

// Site is the puzzles on the site: /puzzles, /puzzles/{id} and the judge
// POST /api/puzzles/{id}, over the shipped set, read once at the first
// use.
type Site struct {
	kit        site.Kit
	ratings    Ratings // nil: no one is rated
	renderPart RenderPart
	set        func() (*set, error)
}

// NewSite returns the puzzles' pages and API; ratings keeps the accounts'
// puzzle ratings (nil: no one is rated), renderPart renders the board sent
// after a right move.
func NewSite(kit site.Kit, ratings Ratings, renderPart RenderPart) *Site {
	return &Site{kit: kit, ratings: ratings, renderPart: renderPart, set: sync.OnceValues(loadSet)}
}

// Routes registers the puzzles' routes on r.
func (s *Site) Routes(r site.Router) {
	r.API("POST /api/puzzles/{id}", s.apiPuzzle)
	r.Page("GET /puzzles", s.pagePuzzles)
	r.Page("GET /puzzles/{id}", s.pagePuzzle)
}

// set is the shipped puzzles with an index by id.
type set struct {
	all  []Puzzle
	byID map[string]int
}

func loadSet() (*set, error) {
	all, err := Shipped()
	if err != nil {
		return nil, err
	}
	ps := &set{all: all, byID: make(map[string]int, len(all))}
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
func (ps *set) pick(theme Theme, streak int, rng *rand.Rand) (Puzzle, bool) {
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
		return Puzzle{}, false
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
	Board    *lessons.Board
	Themes   []puzzleTheme
	Theme    string
	Streak   int  // puzzles solved in a row, -1 outside the streak mode
	InStreak bool // the page is in the streak mode
	Rating   int  // the account's puzzle rating, 0 for a guest
	Account  bool
	Tags     []string // the puzzle's themes, shown after the answer
	Count    int
	Moves    int // how many moves the solver must find
	// Dashboard is the account's results by theme (nil: none yet).
	Dashboard *dashboard
}

// pagePuzzles is GET /puzzles: a puzzle drawn at random, of the chosen
// theme (?theme=), or the next of a streak (?streak=N solved so far).
func (s *Site) pagePuzzles(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.set()
	if err != nil {
		return err
	}
	theme := Theme(r.URL.Query().Get("theme"))
	if theme != "" && !slices.Contains(AllThemes, theme) {
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
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "puzzles.err.none", site.Excerpt(string(theme)))
	}
	return s.renderPuzzle(w, r, ps, p, theme, streak)
}

// pagePuzzle is GET /puzzles/{id}: one puzzle by its id (a shared link).
func (s *Site) pagePuzzle(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.set()
	if err != nil {
		return err
	}
	i, ok := ps.byID[r.PathValue("id")]
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "puzzles.err.none", site.Excerpt(r.PathValue("id")))
	}
	return s.renderPuzzle(w, r, ps, ps.all[i], "", -1)
}

func (s *Site) renderPuzzle(w http.ResponseWriter, r *http.Request, ps *set, p Puzzle, theme Theme, streak int) error {
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	d := puzzleData{ID: p.ID, FEN: toguz.FormatFEN(p.Start, 1), Goal: cat.T(lang, "puzzles.goal."+p.Goal.String()),
		Board: flipFor(lessons.DrawBoard(cat, lang, p.Start, false, true, nil, nil), p.Start.Turn()), Theme: string(theme), Streak: streak, InStreak: streak >= 0,
		Count: len(ps.all), Moves: max(p.Moves, 1)}
	d.Themes = append(d.Themes, puzzleTheme{ID: "", Label: cat.T(lang, "puzzles.theme.all"), Current: theme == ""})
	for _, t := range AllThemes {
		d.Themes = append(d.Themes, puzzleTheme{ID: string(t), Label: cat.T(lang, "puzzles.theme."+string(t)), Current: t == theme})
	}
	for _, t := range p.Themes {
		if slices.Contains(AllThemes, t) {
			d.Tags = append(d.Tags, cat.T(lang, "puzzles.theme."+string(t)))
		}
	}
	if id := s.kit.Identity(r); id.Account.ID != 0 && s.ratings != nil {
		ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
		defer cancel()
		rt, _, _, err := s.ratings.PuzzleRating(ctx, id.Account.ID)
		if err != nil {
			return err
		}
		d.Rating, d.Account = rt.Int(), true
		res, err := s.ratings.PuzzleResults(ctx, id.Account.ID)
		if err != nil {
			return err
		}
		d.Dashboard = themeDashboard(cat, lang, ps, res)
	}
	return s.kit.Render(w, http.StatusOK, "puzzles", s.kit.Page(r, "puzzles.title", d))
}

// Answer is the solver's moves so far, as POST /api/puzzles/{id} reads
// them: Moves, or Move alone for the first (as a one-move puzzle's page
// sent it).
type Answer struct {
	Move  int   `json:"move"`
	Moves []int `json:"moves"`
}

// Reply is the verdict POST /api/puzzles/{id} answers.
type Reply struct {
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
// (Puzzle.JudgeLine). While they are right and more are to find, the
// answer plays the opponent's reply and sends the board after it; at the
// end (a wrong move, or the last right one) an account's first attempt at
// the puzzle is rated (store.RecordPuzzle).
func (s *Site) apiPuzzle(w http.ResponseWriter, r *http.Request) error {
	ps, err := s.set()
	if err != nil {
		return err
	}
	i, ok := ps.byID[r.PathValue("id")]
	if !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "puzzles.err.none", site.Excerpt(r.PathValue("id")))
	}
	p := ps.all[i]
	var req Answer
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	moves, err := answerMoves(p, req)
	if err != nil {
		return err
	}
	right, done, err := p.JudgeLine(moves)
	if err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "puzzles.err.move", int(moves[len(moves)-1]))
	}
	if right && !done {
		return s.replyContinue(w, r, p, moves)
	}
	out := ending(s.kit.Catalog(), s.kit.Lang(r), p, right)
	if id := s.kit.Identity(r); id.Account.ID != 0 && s.ratings != nil {
		if err := s.rate(r, id, p, right, &out); err != nil {
			return err
		}
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// ending is the verdict at the end of an attempt at p, right or not, in
// lang: the solution, its sentence and the puzzle's themes.
func ending(cat *i18n.Catalog, lang string, p Puzzle, right bool) Reply {
	out := Reply{Right: right, Done: true, Headline: cat.T(lang, "puzzles.wrong")}
	if right {
		out.Headline = cat.T(lang, "puzzles.right")
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
	out.Text = cat.T(lang, "puzzles.solution", out.Solution[0], strings.Join(out.Solution, " "))
	var tags []string
	for _, t := range p.Themes {
		if slices.Contains(AllThemes, t) {
			tags = append(tags, cat.T(lang, "puzzles.theme."+string(t)))
		}
	}
	out.Tags = cat.T(lang, "puzzles.tags", strings.Join(tags, ", "), p.Depth)
	return out
}

// answerMoves returns the moves of a, checked against p's length and the
// board's holes.
func answerMoves(p Puzzle, a Answer) ([]toguz.Move, error) {
	if len(a.Moves) == 0 {
		a.Moves = []int{a.Move}
	}
	if n := max(p.Moves, 1); len(a.Moves) > n {
		return nil, apierr.BadRequest(apierr.CodeBadRequest, "puzzles.err.moves", len(a.Moves), n)
	}
	moves := make([]toguz.Move, len(a.Moves))
	for i, m := range a.Moves {
		if m < 1 || m > toguz.MaxHoles {
			return nil, apierr.BadRequest(apierr.CodeBadRequest, "puzzles.err.move", m)
		}
		moves[i] = toguz.Move(m)
	}
	return moves, nil
}

// replyContinue answers right moves with more to find: the opponent's
// reply, played for him, and the board after it.
func (s *Site) replyContinue(w http.ResponseWriter, r *http.Request, p Puzzle, moves []toguz.Move) error {
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	pos, _ := p.Step(len(moves) - 1)
	pos = pos.After(moves[len(moves)-1])
	reply := p.Solution[2*len(moves)-1]
	n, err := pos.Notation(reply)
	if err != nil {
		return err
	}
	pos = pos.After(reply)
	d := puzzleData{ID: p.ID, Board: flipFor(lessons.DrawBoard(cat, lang, pos, false, true, nil, nil), pos.Turn())}
	var b strings.Builder
	if err := s.renderPart(&b, "puzzles", "puzzle-board", s.kit.Page(r, "puzzles.title", d)); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, Reply{Right: true, Reply: n, Board: b.String(),
		Headline: cat.T(lang, "puzzles.continue", n)})
}

// rate records an account's attempt at p (store.RecordPuzzle: only the
// first is rated) and puts its rating after it in out.
func (s *Site) rate(r *http.Request, id site.Identity, p Puzzle, right bool, out *Reply) error {
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	a, err := s.ratings.RecordPuzzle(ctx, id.Account.ID, p.ID, right, p.StartRating())
	if err != nil {
		return err
	}
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	after, delta := a.PlayerAfter.Int(), a.PlayerAfter.Int()-a.PlayerBefore.Int()
	out.Rating, out.Delta = &after, &delta
	if a.Repeat {
		out.RatingText = cat.T(lang, "puzzles.repeat", after)
	} else {
		out.RatingText = cat.T(lang, "puzzles.rating.after", after, strconv.Itoa(delta))
		if delta > 0 {
			out.RatingText = cat.T(lang, "puzzles.rating.after", after, "+"+strconv.Itoa(delta))
		}
	}
	return nil
}

// flipFor turns a board so that the side to move, who solves the puzzle,
// has his row at the bottom, as a player sees his own board.
func flipFor(b *lessons.Board, solver toguz.Player) *lessons.Board {
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
