// Package analysisboard is the site's board tools and the server side of
// the browser's engine: the analysis board (/analysis, a stored game's at
// /analysis/game/{id}, the move tree's import and export), the position
// editor (/editor, POST /api/positions/check), the rules of a position
// (POST /api/positions/legal and /play, the JSON of internal/engineweb's
// WebAssembly build), the server's analysis (POST /api/analysis: the
// browser engine's fallback and the endgame tablebase's result), and the
// installable app (/play-offline, the manifest, the service worker).
//
// Invariants: the pages know no rule, every position and move is read by
// the rules library here; an analysis is bounded in depth and time
// (MaxDepth, MaxTime), counted per user and per address, searched by an
// enginepool.AnalysisPool apart from the live games', and refused to the
// players of a game in progress (fair play), as is /play-offline from
// such a game. internal/engineweb, compiled for the browser, stays free of
// the site: this package is its server side.
package analysisboard

import (
	"context"
	"net/http"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/web"
)

// Games is the live games the board asks about a game in progress
// (*live.Hub).
type Games interface {
	State(ctx context.Context, id string) (live.State, error)
}

// Config is what a Board is built from.
type Config struct {
	// Games is the live games: a game's position for /play-offline, and
	// whether its players may analyse it yet.
	Games Games
	// Record returns a stored game's record with its tags (errors: a 404
	// for an unknown game).
	Record func(ctx context.Context, id string) (*toguz.Game, game.Saved, error)
	// Analysis searches the analyses of POST /api/analysis (nil: the
	// endpoint answers 503); AnalysesPerMinute bounds them per user and
	// per client address (0: 10; negative: no bound). Tablebase is the
	// endgame tables the analysis probes for an exact result (nil: none).
	Analysis          *enginepool.AnalysisPool
	AnalysesPerMinute int
	Tablebase         Tablebase
	// Pages gives the app's manifest and service worker, and the frame of
	// the offline page (which carries no user data).
	Pages *web.Pages
	// RulesError is the site's error of an error of the rules library,
	// its message chosen by the sentinel it wraps.
	RulesError func(status int, code apierr.Code, err error) *apierr.Error
}

// Board serves the board tools and the browser engine's server side.
type Board struct {
	kit        site.Kit
	games      Games
	record     func(ctx context.Context, id string) (*toguz.Game, game.Saved, error)
	analysis   *enginepool.AnalysisPool
	tablebase  Tablebase
	pages      *web.Pages
	rulesError func(status int, code apierr.Code, err error) *apierr.Error
	// analyses bounds the analyses a minute (engineweb.go).
	analyses analysisLimiters
}

// New returns the board tools of cfg on kit.
func New(kit site.Kit, cfg Config) *Board {
	return &Board{kit: kit, games: cfg.Games, record: cfg.Record, analysis: cfg.Analysis, tablebase: cfg.Tablebase,
		pages: cfg.Pages, rulesError: cfg.RulesError, analyses: newAnalysisLimiters(cfg.AnalysesPerMinute)}
}

// Routes registers the board's pages and API on rt.
func (b *Board) Routes(rt site.Router) {
	rt.API("POST /api/positions/check", b.apiCheckPosition)
	rt.API("POST /api/positions/legal", b.apiLegal)
	rt.API("POST /api/positions/play", b.apiPlay)
	rt.API("POST /api/analysis", b.apiAnalysis)
	rt.API("POST /api/analysis/import", b.apiAnalysisImport)
	rt.API("POST /api/analysis/export", b.apiAnalysisExport)
	rt.Page("GET /editor", b.pageEditor)
	rt.Page("GET /analysis", b.pageAnalysis)
	rt.Page("GET /analysis/game/{id}", b.pageAnalysisGame)
	rt.Page("GET /play-offline", b.pageOffline)
	rt.Handle("GET /sw.js", b.pages.ServiceWorker())
	rt.Handle("GET /manifest.webmanifest", http.HandlerFunc(b.manifest))
}

// ErrorKeys are the catalog keys of the board's errors, for the test that
// finds each in every language.
func ErrorKeys() []string {
	return []string{"apierr.analysis_playing", "apierr.tree_bad", "apierr.tree_too_large", "apierr.tree_comment",
		"apierr.tree_game", "apierr.tree_share", "apierr.import_empty", "apierr.no_game", "apierr.fen_too_long",
		"apierr.bad_turn", "apierr.game_over_position",
		"apierr.analysis_live_game", "apierr.analysis_rate", "apierr.analysis_busy", "apierr.analysis_off", "apierr.analysis_bad"}
}
