package review

import (
	"bytes"
	"context"
	"errors"
	"html/template"
	"net/http"
	"strconv"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/svg"
)

// learnData is the "learn from your mistakes" page: one exercise, the
// position before one of a player's mistakes or blunders, and after an
// answer the server's verdict.
type learnData struct {
	GameID  string
	State   string // "choose" (the viewer did not play: pick a side), "pending" (no review yet), "none" (no exercise), "exercise"
	Side    string // "white" or "black"
	Sides   [2]string
	N, Of   int           // the exercise's index (from 0) and their number
	Move    int           // the full-move number of the mistake
	Played  string        // the move played in the game (notation)
	Board   template.HTML // the position (svg)
	Holes   []learnHole   // the legal moves
	Verdict *learnVerdict // after an answer
	Next    string        // the next exercise's URL, "" after the last
	Error   string
}

type learnHole struct {
	Hole  int
	Label string
}

type learnVerdict struct {
	Good   bool
	Answer string // the move answered (notation)
	Cost   string // stones it loses, when not good
	Best   string // the engine's move and line
}

// learnSet is the exercises of one side of a reviewed game.
type learnSet struct {
	exs   []Exercise
	start toguz.Position
	full  int // the full-move number at the start
}

func (wb *Web) pageReviewLearn(w http.ResponseWriter, r *http.Request) error {
	return wb.reviewLearn(w, r, false)
}

func (wb *Web) pageReviewLearnAnswer(w http.ResponseWriter, r *http.Request) error {
	return wb.reviewLearn(w, r, true)
}

// reviewLearn shows exercise n of a side's mistakes in game {id}, judging
// the hole answered when answer is set.
func (wb *Web) reviewLearn(w http.ResponseWriter, r *http.Request, answer bool) error {
	id := r.PathValue("id")
	g, err := wb.learnGame(r.Context(), id)
	if err != nil {
		return err
	}
	p := wb.kit.Page(r, "reviewlearn.title", nil)
	cat := wb.kit.Catalog()
	d := learnData{GameID: id, Sides: [2]string{site.SeatName(cat, p.Lang, g.White), site.SeatName(cat, p.Lang, g.Black)}}
	p.Data = &d
	side := wb.learnSide(r, g)
	var pl toguz.Player
	switch side {
	case "white":
	case "black":
		pl = toguz.Black
	default:
		d.State = "choose"
		return wb.kit.Render(w, http.StatusOK, "reviewlearn", p)
	}
	d.Side = side
	set, err := wb.learnSet(r.Context(), g, pl)
	if err != nil {
		return err
	}
	if set == nil {
		d.State = "pending"
		return wb.kit.Render(w, http.StatusOK, "reviewlearn", p)
	}
	d.Of = len(set.exs)
	if d.Of == 0 {
		d.State = "none"
		return wb.kit.Render(w, http.StatusOK, "reviewlearn", p)
	}
	n, err := strconv.Atoi(r.FormValue("n"))
	if err != nil || n < 0 || n >= d.Of {
		n = 0
	}
	if err := wb.exercise(&d, p.Lang, g, set, n, pl); err != nil {
		return err
	}
	status := http.StatusOK
	if answer {
		if status, err = wb.judgeAnswer(w, r, &d, p.Lang, set.exs[n]); err != nil {
			return err
		}
	}
	return wb.kit.Render(w, status, "reviewlearn", p)
}

// learnGame is game id of the exercises: stored, and over.
func (wb *Web) learnGame(ctx context.Context, id string) (game.Saved, error) {
	if wb.reviews == nil || wb.games == nil {
		return game.Saved{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", site.Excerpt(id))
	}
	g, err := wb.games.Game(ctx, id)
	if err != nil {
		return game.Saved{}, notFoundGame(err, id)
	}
	if g.End == nil {
		// As on lichess, a game is studied once it is over.
		return game.Saved{}, apierr.New(http.StatusBadRequest, apierr.CodeNotOver, "apierr.review_not_over")
	}
	return g, nil
}

// learnSide is the side whose mistakes r studies: the form's, else the
// viewer's own in g ("": he did not play it).
func (wb *Web) learnSide(r *http.Request, g game.Saved) string {
	if side := r.FormValue("side"); side != "" {
		return side
	}
	switch me := wb.kit.Identity(r).Seat().ID; {
	case me == g.White.ID && me != "":
		return "white"
	case me == g.Black.ID && me != "":
		return "black"
	}
	return ""
}

// learnSet returns the exercises of player pl in game g (nil while the
// game's review is not done).
func (wb *Web) learnSet(ctx context.Context, g game.Saved, pl toguz.Player) (*learnSet, error) {
	job, err := wb.reviews.Review(ctx, g.ID)
	if errors.Is(err, store.ErrNotFound) || err == nil && job.Status != store.ReviewDone {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rv, err := Decode(job.Data)
	if err != nil {
		return nil, err
	}
	start, full, err := g.Spec.Start()
	if err != nil {
		return nil, err
	}
	exs, err := Exercises(start, rv, pl)
	if err != nil {
		return nil, err
	}
	return &learnSet{exs: exs, start: start, full: full}, nil
}

// exercise fills in d with exercise n of set, player pl's, in lang.
func (wb *Web) exercise(d *learnData, lang string, g game.Saved, set *learnSet, n int, pl toguz.Player) error {
	ex := set.exs[n]
	d.State, d.N = "exercise", n
	if n+1 < d.Of {
		d.Next = "/review/" + d.GameID + "/learn?side=" + d.Side + "&n=" + strconv.Itoa(n+1)
	}
	// The full-move number: full at the start, one more after each Black ply.
	d.Move = set.full + (ex.Ply+int(set.start.Turn()))/2
	d.Played, _ = ex.Before.Notation(ex.Review.Move)
	var board bytes.Buffer
	cat := wb.kit.Catalog()
	opt := svg.Options{Flip: pl == toguz.Black, White: site.SeatName(cat, lang, g.White), Black: site.SeatName(cat, lang, g.Black), Width: 340,
		Labels: site.BoardLabels(cat, lang, ex.Before)}
	if err := svg.Write(&board, ex.Before, opt); err != nil {
		return err
	}
	d.Board = template.HTML(stripProlog(board.String()))
	for m := range ex.Before.LegalMoves().All() {
		d.Holes = append(d.Holes, learnHole{Hole: int(m), Label: wb.kit.Catalog().T(lang, "reviewlearn.hole", int(m))})
	}
	return nil
}

// judgeAnswer judges the hole r answers to exercise ex, putting the
// verdict, or why there is none, in d; it returns the page's status.
func (wb *Web) judgeAnswer(w http.ResponseWriter, r *http.Request, d *learnData, lang string, ex Exercise) (int, error) {
	h, err := strconv.Atoi(r.FormValue("hole"))
	if err != nil || h < 1 || h > toguz.MaxHoles {
		h = 0
	}
	v, err := wb.reviews.Judge(r.Context(), ex.Before, ex.Review, toguz.Move(h))
	switch {
	case errors.Is(err, ErrIllegal):
		e := apierr.New(http.StatusBadRequest, apierr.CodeIllegalMove, "apierr.learn_illegal", h)
		d.Error = wb.kit.Message(r, e)
		return e.Status, nil
	case errors.Is(err, ErrBusy):
		e := apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.learn_busy")
		w.Header().Set("Retry-After", "1")
		d.Error = wb.kit.Message(r, e)
		return e.Status, nil
	case err != nil:
		return 0, err
	}
	ans, _ := ex.Before.Notation(toguz.Move(h))
	d.Verdict = &learnVerdict{Good: v.Good, Answer: ans, Cost: decimal(lang, v.Cost),
		Best: lineText(ex.Before, v.Best, v.Line)}
	return http.StatusOK, nil
}

// stripProlog drops an SVG document's XML declaration, so that it can be
// inlined in a page.
func stripProlog(doc string) string {
	if i := bytes.Index([]byte(doc), []byte("<svg")); i > 0 {
		return doc[i:]
	}
	return doc
}
