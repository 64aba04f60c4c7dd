// Package archive is the site's archive of finished games, played here or
// imported: its search (GET /archive, GET /api/archive: search.go), the
// import of game records (GET and POST /import: imports.go), the export of
// a stored game (GET /api/games/{id}/export: export.go) and the open
// database's files (GET /database, /database/{file}: opendb.go).
//
// It owns the import's bounds (docs/api.md, Bounds): the games, bytes and
// time of one import, and the import gate that admits at most a few
// imports at once per client address and in all; the gate's state lives
// in its Site, built once per server. The games themselves are the
// store's, behind Store; the server's Archive port, which the profiles and
// game pages use too, includes it.
package archive

import (
	"context"
	"net/http"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is the database's side of the archive: internal/store, through the
// server's adapter (server.StoreArchive).
type Store interface {
	// Game loads a stored game (errors wrap live.ErrNotFound).
	Game(ctx context.Context, id string) (game.Saved, error)
	// Tags returns the tags of an imported game's record (none for a
	// played game), which its export gives back.
	Tags(ctx context.Context, id string) ([]toguz.Tag, error)
	// Import stores the games of one import, all or none; a game stored
	// already is linked to (Duplicate). by names the importer ("u:<id>" or
	// "a:<address>"), who may store at most perDay new games in 24 hours
	// (errors wrap *store.QuotaError beyond).
	Import(ctx context.Context, by string, perDay int, games []store.Import) ([]store.Stored, error)
	// Search returns a page of the archive's finished games, newest first,
	// and whether more follow.
	Search(ctx context.Context, q store.Search) ([]site.GameSummary, bool, error)
}

// Config is what a Site is built from.
type Config struct {
	// Store keeps the games (nil: an import's games are read, not
	// stored).
	Store Store
	// DatabaseDir is the folder of the open database's files, listed at
	// /database ("": the page says there are none).
	DatabaseDir string
	// ImportsPerMinute bounds the imports one client address starts a
	// minute (0: 10; negative: no bound).
	ImportsPerMinute int
	// ImportsPerDay bounds the new games one account (else one client
	// address) stores in 24 hours (0: 5000; negative: no bound).
	ImportsPerDay int
	// RulesError is the site's error of an error of the rules library,
	// pointing at the place (line, game, ply) it names.
	RulesError func(status int, code apierr.Code, err error) *apierr.Error
	// ParseForm parses the form of an admitted import within the route's
	// body limit, answering the error itself and reporting false when the
	// form is refused (the site's body limits).
	ParseForm func(w http.ResponseWriter, r *http.Request) bool
}

// Site is the archive's pages and API, and the import gate.
type Site struct {
	kit site.Kit
	cfg Config
	// imports bounds the imports running at once (imports.go).
	imports *ImportGate
}

// NewSite returns the archive of cfg on the site kit.
func NewSite(kit site.Kit, cfg Config) *Site {
	return &Site{kit: kit, cfg: cfg, imports: &ImportGate{perMinute: cfg.ImportsPerMinute}}
}

// Routes registers the archive's routes.
func (a *Site) Routes(rt site.Router) {
	rt.API("GET /api/games/{id}/export", a.apiExport)
	rt.API("GET /api/archive", a.apiArchive)
	rt.Page("GET /import", a.pageImportForm)
	rt.Page("POST /import", a.pageImport)
	rt.Page("GET /archive", a.pageArchive)
	rt.Page("GET /database", a.pageDatabase)
	rt.Page("GET /database/{file}", a.pageDatabaseFile)
}

// Imports is the gate that admits the imports.
func (a *Site) Imports() *ImportGate { return a.imports }

// ErrorKeys lists the catalog key of every message the archive's errors
// may have, for the site's test that finds each in every language.
func ErrorKeys() []string {
	keys := []string{
		"apierr.imports_per_minute", "apierr.imports_running", "apierr.imports_busy",
		"apierr.import_too_large", "apierr.import_empty", "apierr.import_too_many", "apierr.import_too_slow",
		"archive.busy", "apierr.no_game", "apierr.bad_format", "database.no_file",
	}
	for _, k := range archiveFieldKeys {
		keys = append(keys, k)
	}
	return keys
}
