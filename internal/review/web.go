package review

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysis"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/chart"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/web"
)

// Reviews is the game review behind the game page, its section GET
// /game/{id}/review, the request of an imported game's review and the
// "learn from your mistakes" exercises.
type Reviews interface {
	// Review returns a game's review job (errors wrap store.ErrNotFound
	// when it has none).
	Review(ctx context.Context, id string) (store.Review, error)
	// Imported reports whether a stored game is an imported record.
	Imported(ctx context.Context, id string) (bool, error)
	// Request queues an imported game's review for requester by
	// (store.RequestReview's errors).
	Request(ctx context.Context, id, by string) error
	// Judge judges an exercise's answer (Judge.Judge).
	Judge(ctx context.Context, p toguz.Position, pl Ply, m toguz.Move) (Verdict, error)
}

// ReviewStore is what StoreReviews needs of the store (*store.Store): the
// review jobs and the games' source.
type ReviewStore interface {
	Review(ctx context.Context, gameID string) (store.Review, error)
	RequestReview(ctx context.Context, id, by string) error
	Game(ctx context.Context, id string) (store.Game, error)
}

var _ ReviewStore = (*store.Store)(nil)

// StoreReviews puts the store's queue, the review workers and the judge
// behind Reviews (Q nil: no worker to wake; the workers' poll finds a
// requested job).
type StoreReviews struct {
	S ReviewStore
	Q *Queue
	J *Judge
}

var _ Reviews = StoreReviews{}

func (sr StoreReviews) Review(ctx context.Context, id string) (store.Review, error) {
	return sr.S.Review(ctx, id)
}

func (sr StoreReviews) Imported(ctx context.Context, id string) (bool, error) {
	g, err := sr.S.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		// The store's not found is the API's (live.ErrNotFound).
		err = fmt.Errorf("%w: %w", live.ErrNotFound, err)
	}
	return g.Source == store.SourceImport, err
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

func (sr StoreReviews) Judge(ctx context.Context, p toguz.Position, pl Ply, m toguz.Move) (Verdict, error) {
	return sr.J.Judge(ctx, p, pl, m)
}

// ErrorKeys are the catalog keys of the reviews' errors, for the test
// that finds each in every language.
func ErrorKeys() []string {
	return []string{"apierr.no_review", "apierr.review_requests", "apierr.review_full", "apierr.review_conflict",
		"apierr.review_not_over", "apierr.learn_illegal", "apierr.learn_busy", "apierr.no_game"}
}

// WebConfig is what a Web is built from.
type WebConfig struct {
	Kit site.Kit
	// Reviews is the game review, Games the archive's games (either nil:
	// reviews are off).
	Reviews Reviews
	Games   Games
	// Pages renders the review section alone.
	Pages *web.Pages
}

// Web is the site's side of the game review: the game page's review
// section (Section, and GET /game/{id}/review alone), the request of an
// imported game's review, GET and POST /api/games/{id}/review, and the
// "learn from your mistakes" exercises of /review/{id}/learn.
type Web struct {
	kit     site.Kit
	reviews Reviews
	games   Games
	pages   *web.Pages
}

// NewWeb returns the review's site side.
func NewWeb(cfg WebConfig) *Web {
	return &Web{kit: cfg.Kit, reviews: cfg.Reviews, games: cfg.Games, pages: cfg.Pages}
}

// Routes registers the review's pages and API on rt.
func (wb *Web) Routes(rt site.Router) {
	rt.API("GET /api/games/{id}/review", wb.apiReview)
	rt.API("POST /api/games/{id}/review", wb.apiRequestReview)
	rt.Page("GET /game/{id}/review", wb.pageReviewSection)
	rt.Page("POST /game/{id}/review", wb.pageRequestReview)
	rt.Page("GET /review/{id}/learn", wb.pageReviewLearn)
	rt.Page("POST /review/{id}/learn", wb.pageReviewLearnAnswer)
}

// View is the game page's review section (partials/review.html).
type View struct {
	// State: "live" (the game is being played: review.js asks again when
	// it ends), "pending", "failed", "request" (an imported game without
	// a review) or "done".
	State  string
	GameID string
	Graph  template.HTML
	// Clocks is the clock-time graph of a finished timed game ("" for
	// an untimed or correspondence game), shown in every state.
	Clocks template.HTML
	Sides  [2]ViewSide
	Depth  int
	Notes  []Note // the marked plies, for review.js
}

// ViewSide is one player's line of the review.
type ViewSide struct {
	Color    string // "white" or "black"
	Name     string
	Accuracy string // "" when the player had no move to judge
	Counts   [3]int // inaccuracies, mistakes, blunders
	Learn    string // the URL of his exercises, "" when none
}

// Note is a marked ply in the move list, its texts in the page's
// language.
type Note struct {
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
func (wb *Web) reviewFor(ctx context.Context, lang string, g game.Saved) (*View, error) {
	if wb.reviews == nil {
		return nil, nil
	}
	v := &View{GameID: g.ID}
	if g.End == nil {
		v.State = "live"
		return v, nil
	}
	v.Clocks = clockGraph(wb.kit.Catalog(), lang, g)
	job, err := wb.reviews.Review(ctx, g.ID)
	if errors.Is(err, store.ErrNotFound) {
		imported, err := wb.reviews.Imported(ctx, g.ID)
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
	d, err := Decode(job.Data)
	if err != nil {
		wb.kit.Logger().Warn("review unreadable", "game", g.ID, "err", err)
		v.State = "failed"
		return v, nil
	}
	if err := wb.done(v, lang, g, d); err != nil {
		return nil, err
	}
	return v, nil
}

// done fills in v, the section of game g, with its review d.
func (wb *Web) done(v *View, lang string, g game.Saved, d Data) error {
	start, _, err := g.Spec.Start()
	if err != nil {
		return err
	}
	v.State, v.Depth = "done", d.Depth
	v.Graph = reviewGraph(wb.kit.Catalog(), lang, start, d)
	for pl, seat := range []game.Seat{g.White, g.Black} {
		v.Sides[pl] = viewSide(wb.kit.Catalog(), lang, g.ID, pl, seat, d)
	}
	p := start
	for i, pl := range d.Plies {
		if pl.Mark != analysis.Good {
			v.Notes = append(v.Notes, Note{Ply: i + 1, Sym: pl.Mark.Symbol(), Mark: pl.Mark.String(),
				Text: wb.plyText(lang, p, pl)})
		}
		next, err := p.Play(pl.Move)
		if err != nil {
			return fmt.Errorf("review of %s: ply %d: %w", g.ID, i+1, err)
		}
		p = next
	}
	return nil
}

// viewSide is the line of player pl (0 White, 1 Black) of game id.
func viewSide(cat *i18n.Catalog, lang, id string, pl int, seat game.Seat, d Data) ViewSide {
	side := ViewSide{Color: []string{"white", "black"}[pl], Name: site.SeatName(cat, lang, seat),
		Counts: [3]int{d.Counts[pl][analysis.Inaccuracy], d.Counts[pl][analysis.Mistake], d.Counts[pl][analysis.Blunder]}}
	if d.Accuracy[pl] >= 0 {
		side.Accuracy = decimal(lang, d.Accuracy[pl])
	}
	if side.Counts[1]+side.Counts[2] > 0 && !seat.IsEngine() {
		side.Learn = "/review/" + id + "/learn?side=" + side.Color
	}
	return side
}

// plyText says what a marked ply cost and what was better.
func (wb *Web) plyText(lang string, before toguz.Position, pl Ply) string {
	cat := wb.kit.Catalog()
	t := cat.T(lang, "review.mark."+pl.Mark.String()) + ", " + cat.T(lang, "review.cost", decimal(lang, pl.Cost))
	if pl.Best != toguz.NoMove && pl.Best != pl.Move {
		t += ". " + cat.T(lang, "review.better", lineText(before, pl.Best, pl.Line))
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

// graphScale stones either way fill the evaluation graph's height; a
// proven result is drawn at its edge.
const graphScale = 20.0

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

// evalText is an evaluation as the graph's points say it: "+3,5", "−7",
// or who wins when it is proven.
func evalText(cat *i18n.Catalog, lang string, e engine.Score) string {
	if e.IsMate() {
		if e > 0 {
			return cat.T(lang, "chart.eval.white_wins")
		}
		return cat.T(lang, "chart.eval.black_wins")
	}
	v := float64(e) / 100
	switch {
	case v > 0:
		return "+" + decimal(lang, v)
	case v < 0:
		return "−" + decimal(lang, -v)
	}
	return "0"
}

// reviewGraph draws White's evaluation before the first ply and after
// each (internal/chart): White's advantage up, Black's down, the marked
// plies dotted in their mark's colour. Each point is a link to its ply
// (review.js shows that ply on the board) whose title says the move and
// the evaluation, so that a keyboard and a screen reader reach the plies
// too. It scales to its container (a 360 px phone included).
func reviewGraph(cat *i18n.Catalog, lang string, start toguz.Position, d Data) template.HTML {
	n := len(d.Plies)
	pts := make([]chart.Point, 0, n+1)
	if n > 0 {
		e := d.Plies[0].BestEval
		pts = append(pts, chart.Point{X: 0, Y: graphStones(e), Href: "#ply-0", Key: "0",
			Label: cat.T(lang, "chart.eval.start", evalText(cat, lang, e))})
	}
	p, num := start, 1
	for i, pl := range d.Plies {
		dots := "."
		if p.Turn() == toguz.Black {
			dots = "…"
		}
		note, err := p.Notation(pl.Move)
		if err != nil {
			note = strconv.Itoa(int(pl.Move))
		}
		label := fmt.Sprintf("%d%s %s: %s", num, dots, note, evalText(cat, lang, pl.Eval))
		pt := chart.Point{X: float64(i + 1), Y: graphStones(pl.Eval), Href: "#ply-" + strconv.Itoa(i+1), Key: strconv.Itoa(i + 1), Label: label, Data: true}
		if pl.Mark != analysis.Good {
			pt.Class = pl.Mark.String()
			pt.Label += " " + pl.Mark.Symbol()
		}
		pts = append(pts, pt)
		if p.Turn() == toguz.Black {
			num++
		}
		if next, err := p.Play(pl.Move); err == nil {
			p = next
		}
	}
	sign := func(v float64) string {
		switch {
		case v > 0:
			return "+" + strconv.Itoa(int(v))
		case v < 0:
			return "−" + strconv.Itoa(int(-v))
		}
		return "0"
	}
	c := chart.Line{ID: "eval-graph", Class: "review-graph", Title: cat.T(lang, "review.graph"),
		FixY: true, YMin: -graphScale, YMax: graphScale, Zero: true, YFormat: sign,
		Series: []chart.Series{{Class: "eval", Area: true, Points: pts}}}
	return c.SVG()
}

// clockTime writes minutes as m:ss.
func clockTime(minutes float64) string {
	s := int(minutes*60 + 0.5)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// clockGraph draws the time left on each player's clock after each of his
// moves of a finished real-time game g, the players' lines over the
// plies from the time control's start; "" for a game without a clock.
// Its title says each line's first and last time, the screen reader's
// whole picture of it.
func clockGraph(cat *i18n.Catalog, lang string, g game.Saved) template.HTML {
	if g.End == nil || g.TC.Days > 0 || (g.TC.Base == 0 && g.TC.Increment == 0) || len(g.Moves) == 0 {
		return ""
	}
	start := g.TC.Base.Minutes()
	var series [2]chart.Series
	var sides []string
	top := start
	for pl, color := range []string{"white", "black"} {
		s := chart.Series{Name: cat.T(lang, "game."+color), Class: color, Points: []chart.Point{{X: 0, Y: start}}}
		for i, m := range g.Moves {
			if int(m.By) == pl {
				s.Points = append(s.Points, chart.Point{X: float64(i + 1), Y: m.Clock[pl].Minutes()})
				top = max(top, m.Clock[pl].Minutes())
			}
		}
		last := s.Points[len(s.Points)-1].Y
		sides = append(sides, cat.T(lang, "chart.clock.side", s.Name, clockTime(start), clockTime(last)))
		series[pl] = s
	}
	ticks, _ := chart.Ticks(0, top, 4)
	c := chart.Line{ID: "clock-graph", Title: cat.T(lang, "chart.clock.title", strings.Join(sides, "; ")),
		Series: series[:], YFormat: clockTime, FixY: true, YMin: 0, YMax: ticks[len(ticks)-1]}
	return c.SVG()
}

// SectionHeader is the header review.js sends for the review section
// alone (GET /game/{id}/review with it set to "review").
const SectionHeader = "X-Toguz-Section"

// pageReviewSection serves the review section alone, which review.js
// fetches until a pending review is done. Any other request of the
// address (a link, a bookmark, the address typed) is sent to the game
// page's review section: the section alone is no page, and the game page
// shows it beside the board and the moves it speaks of.
func (wb *Web) pageReviewSection(w http.ResponseWriter, r *http.Request) error {
	w.Header().Add("Vary", SectionHeader)
	if r.Header.Get(SectionHeader) != "review" {
		w.Header().Set("Cache-Control", "no-store")
		return site.Redirect(w, r, "/game/"+url.PathEscape(r.PathValue("id"))+"#review")
	}
	if wb.reviews == nil || wb.games == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", site.Excerpt(r.PathValue("id")))
	}
	g, err := wb.games.Game(r.Context(), r.PathValue("id"))
	if err != nil {
		return notFoundGame(err, r.PathValue("id"))
	}
	p := wb.kit.Page(r, "review.title", nil)
	v, err := wb.reviewFor(r.Context(), p.Lang, g)
	if err != nil {
		return err
	}
	// The partial reads .Data.Review, as on the game page.
	p.Data = struct{ Review *View }{v}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	return wb.pages.RenderPartial(w, "review", p)
}

// notFoundGame makes a store's or archive's missing game the page's 404.
func notFoundGame(err error, id string) error {
	if errors.Is(err, live.ErrNotFound) || errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_game", site.Excerpt(id)).WithDetail(err)
	}
	return err
}

// pageRequestReview queues an imported game's review (the game page's
// button) and goes back to the game.
func (wb *Web) pageRequestReview(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if err := wb.requestReview(w, r, id); err != nil {
		return err
	}
	return site.Redirect(w, r, "/game/"+id)
}

// apiRequestReview is POST /api/games/{id}/review.
func (wb *Web) apiRequestReview(w http.ResponseWriter, r *http.Request) error {
	if err := wb.requestReview(w, r, r.PathValue("id")); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusAccepted, map[string]string{"status": string(store.ReviewPending)})
}

func (wb *Web) requestReview(w http.ResponseWriter, r *http.Request, id string) error {
	if wb.reviews == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", site.Excerpt(id))
	}
	who := wb.kit.EnsureIdentity(w, r).Seat().ID
	err := wb.reviews.Request(r.Context(), id, who)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_game", site.Excerpt(id)).WithDetail(err)
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
	Review   *Data              `json:"review,omitempty"`
}

func (wb *Web) apiReview(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	if wb.reviews == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", site.Excerpt(id))
	}
	job, err := wb.reviews.Review(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_review", site.Excerpt(id))
	}
	if err != nil {
		return err
	}
	out := reviewJSON{Status: job.Status, Settings: job.Settings}
	if job.Status == store.ReviewDone {
		d, err := Decode(job.Data)
		if err != nil {
			return err
		}
		out.Review = &d
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// Section is the game page's review section of game id in lang (nil:
// none to show).
func (wb *Web) Section(ctx context.Context, lang, id string) (*View, error) {
	if wb.reviews == nil || wb.games == nil {
		return nil, nil
	}
	g, err := wb.games.Game(ctx, id)
	if err != nil {
		return nil, nil // a game the hub holds but the archive does not (tests' fakes): no review
	}
	return wb.reviewFor(ctx, lang, g)
}
