package archive

import (
	"net/http"
	"os"
	"path/filepath"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/opendb"
	"github.com/toguz/toguz/internal/site"
)

// The open database's pages: GET /database lists the monthly files of
// Config.DatabaseDir and its puzzle file (toguz export-db writes them),
// GET /database/{file} sends one.

// databasePage is the list's data.
type databasePage struct {
	Files   []opendb.File
	Puzzles *opendb.File // nil: none
}

func (a *Site) pageDatabase(w http.ResponseWriter, r *http.Request) error {
	var d databasePage
	if a.cfg.DatabaseDir != "" {
		fs, err := opendb.List(a.cfg.DatabaseDir)
		if err != nil {
			return err
		}
		d.Files = fs
		if f, ok := opendb.ListPuzzles(a.cfg.DatabaseDir); ok {
			d.Puzzles = &f
		}
	}
	return a.kit.Render(w, http.StatusOK, "database", a.kit.Page(r, "database.title", d))
}

func (a *Site) pageDatabaseFile(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("file")
	// Only a month file's name or the puzzle file's: no other file of the
	// folder, no path.
	if a.cfg.DatabaseDir == "" || !opendb.Served(name) {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "database.no_file", site.Excerpt(name))
	}
	path := filepath.Join(a.cfg.DatabaseDir, name)
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "database.no_file", site.Excerpt(name))
	}
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	http.ServeFile(w, r, path)
	return nil
}
