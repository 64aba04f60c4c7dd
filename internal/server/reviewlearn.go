package server

import (
	"bytes"
	"errors"
	"html/template"
	"net/http"
	"strconv"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/svg"
)

// reviewLearnData is the "learn from your mistakes" page: one exercise, the
// position before one of a player's mistakes or blunders, and after an
// answer the server's verdict.
type reviewLearnData struct {
	GameID  string
	State   string // "choose" (the viewer did not play: pick a side), "pending" (no review yet), "none" (no exercise), "exercise"
	Side    string // "white" or "black"
	Sides   [2]string
	N, Of   int                 // the exercise's index (from 0) and their number
	Move    int                 // the full-move number of the mistake
	Played  string              // the move played in the game (notation)
	Board   template.HTML       // the position (svg)
	Holes   []reviewLearnHole   // the legal moves
	Verdict *reviewLearnVerdict // after an answer
	Next    string              // the next exercise's URL, "" after the last
	Error   string
}

type reviewLearnHole struct {
	Hole  int
	Label string
}

type reviewLearnVerdict struct {
	Good   bool
	Answer string // the move answered (notation)
	Cost   string // stones it loses, when not good
	Best   string // the engine's move and line
}

func (s *Server) pageReviewLearn(w http.ResponseWriter, r *http.Request) error {
	return s.reviewLearn(w, r, false)
}

func (s *Server) pageReviewLearnAnswer(w http.ResponseWriter, r *http.Request) error {
	return s.reviewLearn(w, r, true)
}

// learn shows exercise n of a side's mistakes in game {id}, judging the
// hole answered when answer is set.
func (s *Server) reviewLearn(w http.ResponseWriter, r *http.Request, answer bool) error {
	id := r.PathValue("id")
	if s.cfg.Reviews == nil || s.cfg.Archive == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", excerpt(id))
	}
	g, err := s.cfg.Archive.Game(r.Context(), id)
	if err != nil {
		return notFoundGame(err, id)
	}
	if g.End == nil {
		// As on lichess, a game is studied once it is over.
		return apierr.New(http.StatusBadRequest, apierr.CodeNotOver, "apierr.review_not_over")
	}
	p := s.Page(r, "reviewlearn.title", nil)
	d := reviewLearnData{GameID: id, Sides: [2]string{g.White.Name, g.Black.Name}}
	p.Data = &d
	side := r.FormValue("side")
	if side == "" {
		switch me := s.Identity(r).Seat().ID; {
		case me == g.White.ID && me != "":
			side = "white"
		case me == g.Black.ID && me != "":
			side = "black"
		}
	}
	var pl toguz.Player
	switch side {
	case "white":
	case "black":
		pl = toguz.Black
	default:
		d.State = "choose"
		return s.Render(w, http.StatusOK, "reviewlearn", p)
	}
	d.Side = side
	job, err := s.cfg.Reviews.Review(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && job.Status != store.ReviewDone {
		d.State = "pending"
		return s.Render(w, http.StatusOK, "reviewlearn", p)
	}
	if err != nil {
		return err
	}
	rv, err := review.Decode(job.Data)
	if err != nil {
		return err
	}
	start, full, err := g.Spec.Start()
	if err != nil {
		return err
	}
	exs, err := review.Exercises(start, rv, pl)
	if err != nil {
		return err
	}
	d.Of = len(exs)
	if d.Of == 0 {
		d.State = "none"
		return s.Render(w, http.StatusOK, "reviewlearn", p)
	}
	n, err := strconv.Atoi(r.FormValue("n"))
	if err != nil || n < 0 || n >= d.Of {
		n = 0
	}
	ex := exs[n]
	d.State, d.N = "exercise", n
	if n+1 < d.Of {
		d.Next = "/review/" + id + "/learn?side=" + side + "&n=" + strconv.Itoa(n+1)
	}
	// The full-move number: full at the start, one more after each Black ply.
	d.Move = full + (ex.Ply+int(start.Turn()))/2
	d.Played, _ = ex.Before.Notation(ex.Review.Move)
	var board bytes.Buffer
	opt := svg.Options{Flip: pl == toguz.Black, White: g.White.Name, Black: g.Black.Name, Width: 340}
	if err := svg.Write(&board, ex.Before, opt); err != nil {
		return err
	}
	d.Board = template.HTML(stripProlog(board.String()))
	for m := range ex.Before.LegalMoves().All() {
		d.Holes = append(d.Holes, reviewLearnHole{Hole: int(m), Label: s.cat.T(p.Lang, "reviewlearn.hole", int(m))})
	}
	status := http.StatusOK
	if answer {
		h, err := strconv.Atoi(r.FormValue("hole"))
		if err != nil || h < 1 || h > toguz.MaxHoles {
			h = 0
		}
		v, err := s.cfg.Reviews.Judge(r.Context(), ex.Before, ex.Review, toguz.Move(h))
		switch {
		case errors.Is(err, review.ErrIllegal):
			e := apierr.New(http.StatusBadRequest, apierr.CodeIllegalMove, "apierr.learn_illegal", h)
			d.Error, status = s.Message(r, e), e.Status
		case errors.Is(err, review.ErrBusy):
			e := apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.learn_busy")
			w.Header().Set("Retry-After", "1")
			d.Error, status = s.Message(r, e), e.Status
		case err != nil:
			return err
		default:
			ans, _ := ex.Before.Notation(toguz.Move(h))
			d.Verdict = &reviewLearnVerdict{Good: v.Good, Answer: ans, Cost: decimal(p.Lang, v.Cost),
				Best: lineText(ex.Before, v.Best, v.Line)}
		}
	}
	return s.Render(w, status, "reviewlearn", p)
}

// stripProlog drops an SVG document's XML declaration, so that it can be
// inlined in a page.
func stripProlog(doc string) string {
	if i := bytes.Index([]byte(doc), []byte("<svg")); i > 0 {
		return doc[i:]
	}
	return doc
}
