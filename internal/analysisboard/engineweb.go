package analysisboard

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/engineweb"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/tablebase"
	"golang.org/x/time/rate"
)

// The rules of a position for the pages (the analysis board, the offline
// engine's fallback): the same JSON as the browser's WebAssembly build
// answers (internal/engineweb), so that a page does not care which answered.
// Both are POST routes, so the server's limit on writes bounds them per
// address, and site.ReadJSON bounds the body.

type playRequest struct {
	engineweb.Position
	Move int `json:"move"`
}

// positionError turns an engineweb error into the API's: a bad ruleset,
// FEN or move with the rules library's words.
func (b *Board) positionError(code apierr.Code, err error) error {
	if errors.Is(err, engineweb.ErrBadRequest) {
		return b.rulesError(http.StatusBadRequest, code, err)
	}
	return err
}

// readPosition reads the position of a request, and its full-move
// number: a ruleset the site offers, a FEN of at most maxFEN bytes that
// the ruleset reads.
func (b *Board) readPosition(q engineweb.Position) (toguz.Position, int, error) {
	if _, err := site.ParseRuleset(q.Ruleset); err != nil {
		return toguz.Position{}, 0, err
	}
	if len(q.FEN) > maxFEN {
		return toguz.Position{}, 0, apierr.BadRequest(apierr.CodeBadPosition, "apierr.fen_too_long", maxFEN)
	}
	p, full, err := q.Parse()
	if err != nil {
		return p, 0, b.positionError(apierr.CodeBadPosition, err)
	}
	return p, full, nil
}

func (b *Board) apiLegal(w http.ResponseWriter, r *http.Request) error {
	var req engineweb.Position
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	if _, _, err := b.readPosition(req); err != nil {
		return err
	}
	l, err := engineweb.Legal(req)
	if err != nil {
		return b.positionError(apierr.CodeBadPosition, err)
	}
	return site.WriteJSON(w, http.StatusOK, l)
}

func (b *Board) apiPlay(w http.ResponseWriter, r *http.Request) error {
	var req playRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	if _, _, err := b.readPosition(req.Position); err != nil {
		return err
	}
	pl, err := engineweb.Play(req.Position, req.Move)
	if err != nil {
		return b.positionError(apierr.CodeIllegalMove, err)
	}
	return site.WriteJSON(w, http.StatusOK, pl)
}

// The server's analysis (POST /api/analysis): the fallback of the
// browser's engine where WebAssembly is missing, and the endgame
// tablebase's exact result, which only the server holds. Every analysis is
// bounded (analysisBounds), counted per user and per address
// (Config.AnalysesPerMinute), and searched by the enginepool.AnalysisPool,
// whose engines are not the live games'.

// MaxDepth and MaxTime cap one analysis of the server (analysisBounds):
// no request runs longer or deeper, whatever it asks.
const (
	MaxDepth = 30
	MaxTime  = 3 * time.Second
)

// analysisBounds are the bounds of one analysis of the server.
func analysisBounds() engineweb.Bounds { return engineweb.Bounds{MaxDepth: MaxDepth, MaxTime: MaxTime} }

// AnalysisWait is how long an analysis waits for an engine of the pool
// before the server answers 503 busy (enginepool.AnalysisOptions.Wait).
const AnalysisWait = 5 * time.Second

type analysisRequest struct {
	engineweb.Request
	// Game names the game the position comes from, if any: a game in
	// progress cannot be analysed by its players.
	Game string `json:"game,omitempty"`
}

// analysisLimiters bound the analyses a minute, per user and per address.
type analysisLimiters struct {
	perMinute      int
	perUser, perIP *auth.Limiter
}

func newAnalysisLimiters(perMinute int) analysisLimiters {
	if perMinute == 0 {
		perMinute = 10
	}
	l := rate.Limit(float64(perMinute) / 60)
	if perMinute < 0 {
		l = rate.Inf
	}
	return analysisLimiters{perMinute: perMinute,
		perUser: auth.NewLimiter(l, max(perMinute, 1), time.Now), perIP: auth.NewLimiter(l, max(perMinute, 1), time.Now)}
}

// allow counts one analysis of id at addr: false when either is over its
// bound.
func (a analysisLimiters) allow(id site.Identity, addr string) bool {
	if id.Known() && !a.perUser.Allow(id.Seat().ID) {
		return false
	}
	return a.perIP.Allow(addr)
}

// refuseLiveGame refuses, for fair play, the analysis of game id while it
// is played, to the players of it (either seat): the analysis opens when
// the game ends. A spectator is not refused (lichess hides its
// engine from spectators only in tournaments, which come later). An unknown
// game is 404.
func (b *Board) refuseLiveGame(r *http.Request, id site.Identity, gameID string) error {
	if gameID == "" {
		return nil
	}
	st, err := b.games.State(r.Context(), gameID)
	if err != nil {
		return site.NotFoundAs(err, "apierr.no_game", gameID)
	}
	if st.Status != "playing" {
		return nil
	}
	if !id.Known() {
		return nil
	}
	guest := id.Guest != ""
	for _, seat := range []live.SeatJSON{st.White, st.Black} {
		if seat.EngineLevel == 0 && seat.Name == id.Name() && seat.Guest == guest {
			return apierr.New(http.StatusForbidden, apierr.CodeGameInProgress, "apierr.analysis_live_game")
		}
	}
	return nil
}

func (b *Board) apiAnalysis(w http.ResponseWriter, r *http.Request) error {
	var req analysisRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	if _, err := site.ParseRuleset(req.Ruleset); err != nil {
		return err
	}
	id := b.kit.Identity(r)
	if err := b.refuseLiveGame(r, id, req.Game); err != nil {
		return err
	}
	p, _, err := b.readPosition(req.Position)
	if err != nil {
		return err
	}
	if _, _, err := req.Limits(analysisBounds()); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.analysis_bad", engine.MaxMultiPV).WithDetail(err)
	}
	if b.analysis == nil {
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.analysis_off")
	}
	if !b.analyses.allow(id, auth.AddrKey(auth.ClientIP(r))) {
		w.Header().Set("Retry-After", strconv.Itoa(60/max(b.analyses.perMinute, 1)+1))
		return apierr.New(http.StatusTooManyRequests, apierr.CodeAnalysisRate, "apierr.analysis_rate", b.analyses.perMinute)
	}
	user := "addr:" + auth.AddrKey(auth.ClientIP(r))
	if id.Known() {
		user = id.Seat().ID
	}
	// The search is bounded by its limits, and by the client: a closed
	// request stops it.
	search := func(ctx context.Context, p toguz.Position, multiPV int, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
		return b.analysis.Analyse(ctx, user, p, multiPV, lim, info)
	}
	best, err := engineweb.Analyse(r.Context(), search, req.Request, analysisBounds(), nil)
	if errors.Is(err, enginepool.ErrAnalysisBusy) {
		return apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.analysis_busy")
	}
	if err != nil {
		return err
	}
	if b.tablebase != nil {
		best.Tablebase = probeTablebase(b.tablebase, p)
	}
	return site.WriteJSON(w, http.StatusOK, best)
}

// Tablebase is the endgame tables POST /api/analysis probes and the
// engines search with (the tablebase package's Set of every ruleset's
// tables, or one ruleset's Tables); nil: none. A position is probed in
// its own ruleset's table only.
type Tablebase interface {
	engine.Tablebase
	// MaxStonesFor returns the most stones on the board of a position
	// of rules the tables hold, 0 when they hold none of rules.
	MaxStonesFor(rules toguz.Rules) int
}

var (
	_ Tablebase = (*tablebase.Set)(nil)
	_ Tablebase = (*tablebase.Tables)(nil)
)

// probeTablebase returns the tablebase's result of p, nil when the tables
// do not hold it.
func probeTablebase(tb Tablebase, p toguz.Position) *engineweb.TablebaseJSON {
	res, plies, ok := tb.ProbeDTM(p)
	var dist *int
	if ok {
		dist = &plies
	} else if res, ok = tb.ProbeWDL(p); !ok {
		return nil
	}
	winner := p.Turn()
	switch res {
	case tablebase.Draw:
		return &engineweb.TablebaseJSON{Result: toguz.Draw.String(), Plies: dist}
	case tablebase.Loss:
		winner = winner.Other()
	}
	return &engineweb.TablebaseJSON{Result: toguz.WinFor(winner).String(), Plies: dist}
}

// ---- the installable web app and the offline engine game ----

// offlineData is the data of /play-offline: the position it starts from
// and the texts its script shows, in the page's language.
type offlineData struct {
	FEN, Ruleset string
	Texts        map[string]string
	// Outcomes is the sentence of each ending, by "result termination".
	Outcomes map[string]string
	Times    []offlineTime
}

type offlineTime struct {
	MS    int
	Label string
}

// offlineTexts are the texts offline.js shows.
var offlineTexts = []string{"offline.your_move", "offline.thinking", "offline.over", "offline.engine_error",
	"offline.fallback", "offline.win_in", "offline.loss_in", "offline.analyse", "offline.stop", "game.white", "game.black"}

// pageOffline is the engine game played wholly in the browser: the rules
// and the engine of the WebAssembly build, nothing sent to the server. The
// page carries no user data (no name in its header), so that the service
// worker may keep it for use with no network. ?game=ID&ply=N starts from a
// position of a game (its last by default), refused to its players while
// it is played (fair play); ?fen= and ?ruleset= from any position.
func (b *Board) pageOffline(w http.ResponseWriter, r *http.Request) error {
	lang := b.kit.Lang(r)
	q := r.URL.Query()
	d := offlineData{FEN: q.Get("fen"), Ruleset: q.Get("ruleset"), Texts: map[string]string{}, Outcomes: map[string]string{}}
	if id := q.Get("game"); id != "" {
		if err := b.refuseLiveGame(r, b.kit.Identity(r), id); err != nil {
			return err
		}
		st, err := b.games.State(r.Context(), id)
		if err != nil {
			return site.NotFoundAs(err, "apierr.no_game", id)
		}
		ply := len(st.Positions) - 1
		if n, err := strconv.Atoi(q.Get("ply")); err == nil && n >= 0 && n < len(st.Positions) {
			ply = n
		}
		d.FEN, d.Ruleset = st.Positions[ply], st.Ruleset
	}
	if _, _, err := b.readPosition(engineweb.Position{FEN: d.FEN, Ruleset: d.Ruleset}); err != nil {
		return err
	}
	for _, k := range offlineTexts {
		d.Texts[k] = b.kit.Catalog().T(lang, k)
	}
	for _, res := range []toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw} {
		for _, term := range []toguz.Termination{toguz.ByKazan, toguz.ByDraw, toguz.ByAtsyrau} {
			d.Outcomes[res.String()+" "+term.String()] = b.kit.Catalog().Outcome(lang, res.String(), term.String(), nil)
		}
	}
	for _, ms := range []int{200, 1000, 3000} {
		d.Times = append(d.Times, offlineTime{ms, b.kit.Catalog().T(lang, "offline.seconds", strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))})
	}
	p := b.pages.NewPage(lang, b.kit.Catalog().T(lang, "offline.title"), d)
	p.Path = r.URL.RequestURI()
	return b.kit.Render(w, http.StatusOK, "offline", p)
}

// manifest serves the web app's manifest in the request's language.
func (b *Board) manifest(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/manifest+json")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Vary", "Cookie, Accept-Language")
	json.NewEncoder(w).Encode(b.pages.Manifest(b.kit.Lang(r)))
}
