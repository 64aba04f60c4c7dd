// Package web holds the web interface, embedded in the binary: the
// html/template pages and the static assets (the page scripts, the style
// sheet, the sounds). Nothing is fetched from another site and nothing
// needs Node to serve: the page scripts are TypeScript under ts/, bundled
// by esbuild's Go API into static/ (`go generate ./internal/web`, the
// command in bundle/), and the bundles are committed (docs/frontend.md).
//
// # Index
//
//   - Pages: the parsed templates; Render writes one page inside the layout.
//     Every text goes through the i18n catalog: templates call {{.T "key"}}.
//     {{json v}} hands data to the scripts in a data-* attribute.
//   - Page: the data of every page (language, who is logged in, the page's
//     own data).
//   - Static: the assets under /static/, each URL carrying a hash of its
//     content (Asset) so that browsers may cache it for a year; each served
//     in brotli or gzip, compressed once and kept (static.go), with an
//     ETag per coding.
//   - ts/src/lib: what the pages share: dom.ts (the page's texts, T and N
//     with the catalog's plural forms, the data-* attributes' JSON, the
//     JSON posted to the server), position.ts (a position as the server
//     sends it, internal/posjson, and the view drawn of it), boardview.ts
//     (the one board: hole rows, stones, kazans), tree.ts (the one move
//     tree of the analysis board and the studies), engine.ts (the engine's
//     JSON types).
//   - static/board.js: the board (2×9 holes with the stones drawn, kazans,
//     tuzdik marks, hole numbers and names), moves by click or tap, the
//     score-sheet move list, flip, sound, clocks, the websocket with
//     reconnect and resync by ply, and the replay of finished games.
//   - static/analysis.js and static/study.js: the analysis board and the
//     studies, each a board and a move tree.
//   - static/editor.js: the position editor's running stone count, and the
//     server's verdict on the position (POST /api/positions/check) and its
//     FEN; a new ruleset or a pasted FEN reloads the editor (GET /editor).
//   - static/learn.js: the lessons of /learn: each answer sent to the
//     server's judge and its verdict shown; a guest's progress kept in
//     localStorage, an account's read from the page (the store keeps it).
//     The lessons' boards are drawn by the server (partials/learnboard.html).
//   - static/puzzles.js: /puzzles: the move (a click or the keys 1–9) sent
//     to the server's judge (POST /api/puzzles/{id}), its verdict, the
//     solution and the puzzle rating shown; the streak's next link.
//   - static/site.js, loaded by every page in <head>: the colour scheme
//     (data-theme on <html> from localStorage before the first paint), the
//     language switcher submitted on change, the ruleset descriptions.
//   - static/engine.wasm: the rules and the engine compiled to WebAssembly
//     (internal/engineweb, `go generate ./internal/engineweb`), with the Go
//     toolchain's static/wasm_exec.js; static/engine-worker.js runs them in
//     a Web Worker and static/engine-client.js, an ES module, wraps the
//     worker for the pages that need the engine (and falls back to the
//     server's /api/analysis and /api/positions/* without WebAssembly).
//     static/offline.js is the offline engine game (/play-offline).
//   - static/style.css: the site's colours are CSS variables (--bg, --fg,
//     --panel, --accent, …) redefined for dark mode; use them, not literal
//     colours. static/favicon.svg is also served at /favicon.ico (Favicon).
//
// The JavaScript implements no rule of the game (TestNoRulesInThePages):
// the server sends the legal moves, each move's landing and capture, and
// the ruleset's board size and stone total, and every position as JSON
// (internal/posjson), all from the rules library: no page reads a FEN.
package web

//go:generate go run ./bundle

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
)

//go:embed templates/*.html templates/partials/*.html static
var files embed.FS

// Pages renders the pages.
type Pages struct {
	cat   *i18n.Catalog
	pages map[string]*template.Template
	// partials holds the layout and every partial, for RenderPartial.
	partials *template.Template
	hashes   map[string]string // asset name → content hash
	static   http.Handler
}

// Page is the data every template gets.
type Page struct {
	Lang      string
	Title     string
	User      string // the name of who is logged in or the guest, "" for nobody
	Guest     bool
	HoleNames [9]string
	Path      string // the page's own URL, for the language switcher
	Data      any
	cat       *i18n.Catalog
	// Kid: the account is in kid mode (internal/privacy): no chat is
	// shown, nor any link off the site.
	Kid bool
	// Moderator: the account has the moderator role (the header links
	// to the queue); Warned: it has a moderator's warning it has not
	// read (the page says so).
	Moderator, Warned bool
	// Notices: the header shows the notices' bell (internal/notifications)
	// with Unread, the account's unread count.
	Notices bool
	Unread  int
}

// T returns the text of key in the page's language.
func (p *Page) T(key string, args ...any) string { return p.cat.T(p.Lang, key, args...) }

// Who writes a person's name as pages show it: a guest's as "Guest 47372"
// in the page's language (game.GuestNumber), an account's as it is.
func (p *Page) Who(name string) string {
	if n, ok := game.GuestNumber(name); ok {
		return p.cat.T(p.Lang, "game.guestname", n)
	}
	return name
}

// GuestNumber is a guest's number (game.GuestNumber), or the name itself
// where it is not a guest's.
func (p *Page) GuestNumber(name string) string {
	if n, ok := game.GuestNumber(name); ok {
		return strconv.Itoa(n)
	}
	return name
}

// N returns the text of key in the page's language in the plural form
// that n takes there.
func (p *Page) N(key string, n int, args ...any) string { return p.cat.N(p.Lang, key, n, args...) }

// Outcome returns how a game ended, a sentence in the page's language
// (i18n.Catalog.Outcome, the score not known).
func (p *Page) Outcome(result, termination string) string {
	return p.cat.Outcome(p.Lang, result, termination, nil)
}

// Languages returns the languages of the switcher.
func (p *Page) Languages() []i18n.Language { return i18n.Languages() }

// NewPage returns the data of a page in lang.
func (ps *Pages) NewPage(lang, title string, data any) *Page {
	return &Page{Lang: lang, Title: title, Data: data, cat: ps.cat, HoleNames: i18n.HoleNames(lang)}
}

// NewPages parses the templates.
func NewPages(cat *i18n.Catalog) (*Pages, error) {
	ps := &Pages{cat: cat, pages: map[string]*template.Template{}, hashes: map[string]string{}}
	static, err := fs.Sub(files, "static")
	if err != nil {
		return nil, err
	}
	assets, err := staticAssets(static)
	if err != nil {
		return nil, err
	}
	for name, a := range assets {
		ps.hashes[name] = a.etag[:12]
	}
	ps.static = serveStatic(assets)
	funcs := template.FuncMap{
		"asset": ps.Asset,
		"add":   func(a, b int) int { return a + b },
		"kib":   func(n int64) float64 { return float64(n) / 1024 },
		// json writes a value for the scripts, in a data-* attribute.
		"json": func(v any) (string, error) {
			b, err := json.Marshal(v)
			return string(b), err
		},
		// pctOf writes a share (0–1) as a percentage.
		"pctOf": func(v float64) float64 { return v * 100 },
		"pct": func(v, lo, hi float64) float64 {
			if hi <= lo {
				return 50
			}
			return (v - lo) / (hi - lo) * 100
		},
	}
	// Each page's set holds the layout, the page and only the partials
	// they call: html/template copies the parse trees it clones, and all
	// the partials in every page kept some 300,000 more parse nodes, all
	// pointers, for every collection to mark. RenderPartial's set holds
	// them all.
	uses, err := partialUses()
	if err != nil {
		return nil, err
	}
	parseSet := func(pattern ...string) (*template.Template, error) {
		return template.New("layout.html").Funcs(funcs).ParseFS(files, append([]string{"templates/layout.html"}, pattern...)...)
	}
	if ps.partials, err = parseSet("templates/partials/*.html"); err != nil {
		return nil, err
	}
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if base == "layout" {
			continue
		}
		t, err := parseSet(append(uses.needed("templates/layout.html", n), n)...)
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", n, err)
		}
		ps.pages[base] = t
	}
	return ps, nil
}

// templateUses maps each template a partial defines to its file, and each
// template file to the templates it calls.
type templateUses struct {
	definedIn map[string]string   // template name → partial file
	calls     map[string][]string // file → names of the templates it calls
}

// partialUses reads which templates every template file defines and calls.
func partialUses() (templateUses, error) {
	u := templateUses{definedIn: map[string]string{}, calls: map[string][]string{}}
	all, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		return u, err
	}
	partials, err := fs.Glob(files, "templates/partials/*.html")
	if err != nil {
		return u, err
	}
	for _, f := range append(all, partials...) {
		src, err := fs.ReadFile(files, f)
		if err != nil {
			return u, err
		}
		tr := parse.New(f)
		tr.Mode = parse.SkipFuncCheck
		trees := map[string]*parse.Tree{}
		if _, err := tr.Parse(string(src), "", "", trees); err != nil {
			return u, fmt.Errorf("web: template %s: %w", f, err)
		}
		for name, t := range trees {
			if strings.HasPrefix(f, "templates/partials/") && name != f {
				u.definedIn[name] = f
			}
			u.calls[f] = appendCalls(u.calls[f], t.Root)
		}
	}
	return u, nil
}

// appendCalls appends the names of the templates that n calls.
func appendCalls(out []string, n parse.Node) []string {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				out = appendCalls(out, c)
			}
		}
	case *parse.TemplateNode:
		out = append(out, n.Name)
	case *parse.IfNode:
		out = appendCalls(appendCalls(out, n.List), n.ElseList)
	case *parse.RangeNode:
		out = appendCalls(appendCalls(out, n.List), n.ElseList)
	case *parse.WithNode:
		out = appendCalls(appendCalls(out, n.List), n.ElseList)
	}
	return out
}

// needed returns the partial files that the template files call, and
// those that these call in turn.
func (u templateUses) needed(files ...string) []string {
	seen := map[string]bool{}
	var out []string
	for len(files) > 0 {
		f := files[0]
		files = files[1:]
		for _, name := range u.calls[f] {
			p, ok := u.definedIn[name]
			if !ok || seen[p] {
				continue // defined by the page or the layout itself, or already in
			}
			seen[p] = true
			out = append(out, p)
			files = append(files, p)
		}
	}
	slices.Sort(out)
	return out
}

// Asset returns the URL of a static asset with its content hash.
func (ps *Pages) Asset(name string) string {
	return "/static/" + name + "?v=" + ps.hashes[name]
}

// Static serves /static/.
func (ps *Pages) Static() http.Handler { return ps.static }

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// RenderPartial writes the partial template name (templates/partials)
// with p alone, without the layout: a part of a page that a script
// fetches again (the game review's section).
func (ps *Pages) RenderPartial(w io.Writer, name string, p *Page) error {
	t := ps.partials
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b)
	if err := t.ExecuteTemplate(b, name, p); err != nil {
		return fmt.Errorf("web: render partial %s: %w", name, err)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// RenderPart renders the template part defined in page name's set,
// without the layout: a fragment a page's script fetches again.
func (ps *Pages) RenderPart(w io.Writer, name, part string, p *Page) error {
	t, ok := ps.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	return t.ExecuteTemplate(w, part, p)
}

// Render writes page name with p. The page is rendered to a buffer first, so
// a template error never sends half a page.
func (ps *Pages) Render(w io.Writer, name string, p *Page) error {
	t, ok := ps.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b)
	if err := t.ExecuteTemplate(b, "layout.html", p); err != nil {
		return fmt.Errorf("web: render %s: %w", name, err)
	}
	_, err := w.Write(b.Bytes())
	return err
}
