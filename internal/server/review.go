package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Reviews is the game review (internal/review) behind the game page, its
// section GET /game/{id}/review, the request of an imported game's review
// and the "learn from your mistakes" exercises.
type Reviews interface {
	// Review returns a game's review job (errors wrap store.ErrNotFound
	// when it has none).
	Review(ctx context.Context, id string) (store.Review, error)
	// Imported reports whether a stored game is an imported record.
	Imported(ctx context.Context, id string) (bool, error)
	// Request queues an imported game's review for requester by
	// (store.RequestReview's errors).
	Request(ctx context.Context, id, by string) error
	// Judge judges an exercise's answer (review.Judge).
	Judge(ctx context.Context, p toguz.Position, pl review.Ply, m toguz.Move) (review.Verdict, error)
}

// StoreReviews puts the store's queue, the review workers and the judge
// behind Reviews (Q nil: no worker to wake; the workers' poll finds a
// requested job).
type StoreReviews struct {
	S *store.Store
	Q *review.Queue
	J *review.Judge
}

var _ Reviews = StoreReviews{}

func (sr StoreReviews) Review(ctx context.Context, id string) (store.Review, error) {
	return sr.S.Review(ctx, id)
}

func (sr StoreReviews) Imported(ctx context.Context, id string) (bool, error) {
	g, err := sr.S.Game(ctx, id)
	return g.Source == store.SourceImport, liveNotFound(err)
}

func (sr StoreReviews) Request(ctx context.Context, id, by string) error {
	if err := sr.S.RequestReview(ctx, id, by); err != nil {
		return err
	}
	if sr.Q != nil {
		sr.Q.Notify()
	}
	return nil
}

func (sr StoreReviews) Judge(ctx context.Context, p toguz.Position, pl review.Ply, m toguz.Move) (review.Verdict, error) {
	return sr.J.Judge(ctx, p, pl, m)
}

// reviewView is the game page's review section (partials/review.html).
type reviewView struct {
	// State: "live" (the game is being played: review.js asks again when
	// it ends), "pending", "failed", "request" (an imported game without
	// a review) or "done".
	State  string
	GameID string
	Graph  template.HTML
	Sides  [2]reviewSide
	Depth  int
	Notes  []reviewNote // the marked plies, for review.js
}

// reviewSide is one player's line of the review.
type reviewSide struct {
	Color    string // "white" or "black"
	Name     string
	Accuracy string // "" when the player had no move to judge
	Counts   [3]int // inaccuracies, mistakes, blunders
	Learn    string // the URL of his exercises, "" when none
}

// reviewNote is a marked ply in the move list, its texts in the page's
// language.
type reviewNote struct {
	Ply  int    `json:"ply"`
	Sym  string `json:"sym"`  // ?!, ? or ??
	Mark string `json:"mark"` // inaccuracy, mistake or blunder: the CSS class
	Text string `json:"text"` // "Mistake, stones lost: 6.5. Better: 73 (73 52 …)"
}

// decimal writes v with one decimal, the comma of the languages that use one.
func decimal(lang string, v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// reviewFor returns the review section of a finished game g (nil: none to
// show: reviews are off, or a game played here has no job).
func (s *Server) reviewFor(ctx context.Context, lang string, g live.Saved) (*reviewView, error) {
	if s.cfg.Reviews == nil {
		return nil, nil
	}
	v := &reviewView{GameID: g.ID}
	if g.End == nil {
		v.State = "live"
		return v, nil
	}
	job, err := s.cfg.Reviews.Review(ctx, g.ID)
	if errors.Is(err, store.ErrNotFound) {
		imported, err := s.cfg.Reviews.Imported(ctx, g.ID)
		if err != nil || !imported || len(g.Moves) == 0 {
			return nil, err
		}
		v.State = "request"
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	switch job.Status {
	case store.ReviewPending, store.ReviewRunning:
		v.State = "pending"
		return v, nil
	case store.ReviewFailed:
		v.State = "failed"
		return v, nil
	}
	d, err := review.Decode(job.Data)
	if err != nil {
		s.log.Warn("review unreadable", "game", g.ID, "err", err)
		v.State = "failed"
		return v, nil
	}
	start, _, err := g.Spec.Start()
	if err != nil {
		return nil, err
	}
	v.State, v.Depth = "done", d.Depth
	v.Graph = reviewGraph(s.cat.T(lang, "review.graph"), d)
	for pl, seat := range []live.Seat{g.White, g.Black} {
		side := reviewSide{Color: []string{"white", "black"}[pl], Name: seat.Name,
			Counts: [3]int{d.Counts[pl][analysis.Inaccuracy], d.Counts[pl][analysis.Mistake], d.Counts[pl][analysis.Blunder]}}
		if d.Accuracy[pl] >= 0 {
			side.Accuracy = decimal(lang, d.Accuracy[pl])
		}
		if side.Counts[1]+side.Counts[2] > 0 && !seat.IsEngine() {
			side.Learn = "/review/" + g.ID + "/learn?side=" + side.Color
		}
		v.Sides[pl] = side
	}
	p := start
	for i, pl := range d.Plies {
		if pl.Mark != analysis.Good {
			v.Notes = append(v.Notes, reviewNote{Ply: i + 1, Sym: pl.Mark.Symbol(), Mark: pl.Mark.String(),
				Text: s.plyText(lang, p, pl)})
		}
		next, err := p.Play(pl.Move)
		if err != nil {
			return nil, fmt.Errorf("review of %s: ply %d: %w", g.ID, i+1, err)
		}
		p = next
	}
	return v, nil
}

// plyText says what a marked ply cost and what was better.
func (s *Server) plyText(lang string, before toguz.Position, pl review.Ply) string {
	t := s.cat.T(lang, "review.mark."+pl.Mark.String()) + ", " + s.cat.T(lang, "review.cost", decimal(lang, pl.Cost))
	if pl.Best != toguz.NoMove && pl.Best != pl.Move {
		t += ". " + s.cat.T(lang, "review.better", lineText(before, pl.Best, pl.Line))
	}
	return t
}

// lineText writes the engine's move and its line from before in the
// record's notation: "73 (73 52 41)".
func lineText(before toguz.Position, best toguz.Move, line []toguz.Move) string {
	first, err := before.Notation(best)
	if err != nil {
		return strconv.Itoa(int(best))
	}
	if len(line) < 2 {
		return first
	}
	var b strings.Builder
	p := before
	for i, m := range line {
		n, err := p.Notation(m)
		if err != nil {
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
		if p, err = p.Play(m); err != nil || p.IsOver() {
			break
		}
	}
	return first + " (" + b.String() + ")"
}

// The evaluation graph: graphScale stones either way fill its height.
const (
	graphW, graphH = 320, 120
	graphScale     = 20.0
)

// graphStones is an evaluation in stones within the graph's scale, a
// proven result at its edge.
func graphStones(e engine.Score) float64 {
	v := float64(e) / 100
	if e.IsMate() {
		v = graphScale
		if e < 0 {
			v = -graphScale
		}
	}
	return max(-graphScale, min(graphScale, v))
}

// reviewGraph draws White's evaluation before the first ply and after
// each as an inline SVG: White's advantage up, Black's down, the marked
// plies dotted in their mark's colour. It scales to its container (a
// 360 px phone included).
func reviewGraph(label string, d review.Data) template.HTML {
	var b bytes.Buffer
	n := len(d.Plies)
	x := func(i int) float64 {
		if n == 0 {
			return 0
		}
		return float64(i) * graphW / float64(n)
	}
	y := func(v float64) float64 { return graphH/2 - v*(graphH/2-4)/graphScale }
	evals := make([]float64, n+1)
	if n > 0 {
		evals[0] = graphStones(d.Plies[0].BestEval)
	}
	for i, p := range d.Plies {
		evals[i+1] = graphStones(p.Eval)
	}
	fmt.Fprintf(&b, `<svg class="review-graph" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="%s" translate="no" data-plies="%d">`,
		graphW, graphH, template.HTMLEscapeString(label), n)
	fmt.Fprintf(&b, `<title>%s</title>`, template.HTMLEscapeString(label))
	fmt.Fprintf(&b, `<rect class="g-bg" x="0" y="0" width="%d" height="%d"/>`, graphW, graphH)
	// White's area: from the middle line up to the curve.
	var path strings.Builder
	fmt.Fprintf(&path, "M0 %.1f", y(0))
	for i, v := range evals {
		fmt.Fprintf(&path, " L%.1f %.1f", x(i), y(v))
	}
	fmt.Fprintf(&path, " L%.1f %.1f Z", x(n), y(0))
	fmt.Fprintf(&b, `<path class="g-area" d="%s"/>`, path.String())
	fmt.Fprintf(&b, `<line class="g-mid" x1="0" y1="%.1f" x2="%d" y2="%.1f"/>`, y(0), graphW, y(0))
	var line strings.Builder
	for i, v := range evals {
		if i > 0 {
			line.WriteByte(' ')
		}
		fmt.Fprintf(&line, "%.1f,%.1f", x(i), y(v))
	}
	fmt.Fprintf(&b, `<polyline class="g-line" points="%s"/>`, line.String())
	for i, p := range d.Plies {
		if p.Mark != analysis.Good {
			fmt.Fprintf(&b, `<circle class="g-%s" cx="%.1f" cy="%.1f" r="3"/>`, p.Mark, x(i+1), y(evals[i+1]))
		}
	}
	fmt.Fprintf(&b, `<text class="g-label" x="3" y="12">+%d</text><text class="g-label" x="3" y="%d">−%d</text>`,
		int(graphScale), graphH-4, int(graphScale))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// pageReviewSection serves the review section alone, which review.js
// fetches until a pending review is done.
func (s *Server) pageReviewSection(w http.ResponseWriter, r *http.Request) error {
	if s.cfg.Reviews == nil || s.cfg.Archive == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", excerpt(r.PathValue("id")))
	}
	g, err := s.cfg.Archive.Game(r.Context(), r.PathValue("id"))
	if err != nil {
		return notFoundGame(err, r.PathValue("id"))
	}
	p := s.Page(r, "review.title", nil)
	v, err := s.reviewFor(r.Context(), p.Lang, g)
	if err != nil {
		return err
	}
	p.Data = gameData{ID: g.ID, Review: v}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	return s.pages.RenderPartial(w, "review", p)
}

// notFoundGame makes a store's or archive's missing game the page's 404.
func notFoundGame(err error, id string) error {
	if errors.Is(err, live.ErrNotFound) || errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_game", excerpt(id)).WithDetail(err)
	}
	return err
}

// pageRequestReview queues an imported game's review (the game page's
// button) and goes back to the game.
func (s *Server) pageRequestReview(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := s.requestReview(w, r, id); err != nil {
		return err
	}
	return redirect(w, r, "/game/"+id)
}

// apiRequestReview is POST /api/games/{id}/review.
func (s *Server) apiRequestReview(w http.ResponseWriter, r *http.Request) error {
	if err := s.requestReview(w, r, r.PathValue("id")); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusAccepted, map[string]string{"status": string(store.ReviewPending)})
}

func (s *Server) requestReview(w http.ResponseWriter, r *http.Request, id string) error {
	if s.cfg.Reviews == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", excerpt(id))
	}
	who := s.EnsureIdentity(w, r).Seat().ID
	err := s.cfg.Reviews.Request(r.Context(), id, who)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_game", excerpt(id)).WithDetail(err)
	case errors.Is(err, store.ErrTooManyRequests):
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.review_requests", store.MaxPendingPerRequester)
	case errors.Is(err, store.ErrReviewQueueFull):
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.review_full")
	case errors.Is(err, store.ErrConflict):
		return apierr.New(http.StatusConflict, apierr.CodeBadRequest, "apierr.review_conflict").WithDetail(err)
	}
	return err
}

// reviewJSON is GET /api/games/{id}/review.
type reviewJSON struct {
	Status   store.ReviewStatus `json:"status"`
	Settings string             `json:"settings,omitempty"`
	Review   *review.Data       `json:"review,omitempty"`
}

func (s *Server) apiReview(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if s.cfg.Reviews == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", excerpt(id))
	}
	job, err := s.cfg.Reviews.Review(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", excerpt(id))
	}
	if err != nil {
		return err
	}
	out := reviewJSON{Status: job.Status, Settings: job.Settings}
	if job.Status == store.ReviewDone {
		d, err := review.Decode(job.Data)
		if err != nil {
			return err
		}
		out.Review = &d
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// gameReview is the game page's review section of game id.
func (s *Server) gameReview(ctx context.Context, lang, id string) (*reviewView, error) {
	if s.cfg.Reviews == nil || s.cfg.Archive == nil {
		return nil, nil
	}
	g, err := s.cfg.Archive.Game(ctx, id)
	if err != nil {
		return nil, nil // a game the hub holds but the archive does not (tests' fakes): no review
	}
	return s.reviewFor(ctx, lang, g)
}
