package archive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/posjson"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// The bounds of an import (docs/api.md, Bounds). One request may
// send at most MaxImport bytes (the site's body limit of the route is a
// little more, for the form around it),
// MaxImportGames games of at most maxImportGameBytes each, and take at most
// importTimeout to check, the deadline checked between games. At most
// MaxImportsPerAddr imports run at once per client address (429 beyond)
// and MaxImportsRunning in all (waited for up to importWait, then 503
// busy), so that many at once cannot take the memory; and one address
// starts at most importsPerMinute a minute (bursts of ImportBurst, 429
// beyond), so that quickly refused imports, one after another, cannot take
// the CPUs either (each reads its 2 MiB and checks up to 1,000 games).
const (
	MaxImportGames     = 1000
	maxImportGameBytes = 64 << 10
	importTimeout      = 5 * time.Second
	MaxImportsPerAddr  = 2
	MaxImportsRunning  = 4
	importWait         = 2 * time.Second
	importRetryAfter   = time.Second
	importsPerMinute   = 10
	ImportBurst        = 3
	// maxImportErrors is the most errors the page lists: each quotes at
	// most a short excerpt of the record, so the page stays small.
	maxImportErrors = 5
	// maxImportEcho is the longest pasted record the page shows back.
	maxImportEcho = 4 << 10
	// MaxImportName is the most bytes of a player's name the page shows.
	MaxImportName = 64
)

// ImportGate admits the imports that may run. Its zero value is ready.
type ImportGate struct {
	once    sync.Once
	running *semaphore.Weighted
	starts  *auth.Limiter // imports started per address; nil: no bound
	// perMinute is Config.ImportsPerMinute, set before the first import.
	perMinute int
	logRef    rate.Sometimes

	mu     sync.Mutex
	byAddr map[string]int

	refusedAddr atomic.Int64 // imports refused with 429: the address had its share
	refusedBusy atomic.Int64 // imports refused with 503: every slot taken
	refusedSize atomic.Int64 // imports refused with 413: too many games or too long to check
}

// Enter admits an import from the client address addr, or returns the
// error that refuses it; leave must be called once the import is done.
func (g *ImportGate) Enter(ctx context.Context, log *slog.Logger, addr string) (leave func(), _ *apierr.Error) {
	g.once.Do(func() {
		g.running = semaphore.NewWeighted(MaxImportsRunning)
		g.byAddr = make(map[string]int)
		if n := cmp.Or(g.perMinute, importsPerMinute); n > 0 {
			g.starts = auth.NewLimiter(rate.Limit(float64(n)/60), ImportBurst, time.Now)
		}
		g.logRef = rate.Sometimes{Interval: 10 * time.Second}
	})
	if g.starts != nil && !g.starts.Allow(addr) {
		g.refused(log, "per minute", addr, &g.refusedAddr)
		return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.imports_per_minute", cmp.Or(g.perMinute, importsPerMinute))
	}
	g.mu.Lock()
	ok := g.byAddr[addr] < MaxImportsPerAddr
	if ok {
		g.byAddr[addr]++
	}
	g.mu.Unlock()
	if !ok {
		g.refused(log, "per address", addr, &g.refusedAddr)
		return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.imports_running", MaxImportsPerAddr)
	}
	wait, cancel := context.WithTimeout(ctx, importWait)
	defer cancel()
	if err := g.running.Acquire(wait, 1); err != nil {
		g.leaveAddr(addr)
		g.refused(log, "busy", addr, &g.refusedBusy)
		return nil, apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "apierr.imports_busy")
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			// The address first: the slot's release may admit a waiter
			// at once, and its address must already be counted out.
			g.leaveAddr(addr)
			g.running.Release(1)
		})
	}, nil
}

func (g *ImportGate) leaveAddr(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byAddr[addr]--; g.byAddr[addr] <= 0 {
		delete(g.byAddr, addr)
	}
}

func (g *ImportGate) refused(log *slog.Logger, bound, addr string, n *atomic.Int64) {
	total := n.Add(1)
	g.logRef.Do(func() {
		log.Warn("import bound: refused", "bound", bound, "addr", addr, "refused_total", total)
	})
}

// ImportStats are the gate's counters, for logs and tests.
type ImportStats struct{ RefusedAddr, RefusedBusy, RefusedSize int64 }

// Stats returns the gate's counters.
func (g *ImportGate) Stats() ImportStats {
	return ImportStats{g.refusedAddr.Load(), g.refusedBusy.Load(), g.refusedSize.Load()}
}

// setRetryAfter tells a client refused by the gate when to come back (503
// busy gets its Retry-After from setBoundHeaders).
func setRetryAfter(w http.ResponseWriter, e *apierr.Error) {
	if e.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(int(importRetryAfter/time.Second)))
	}
}

// importError is why a record cannot be imported: its errors (at most
// maxImportErrors, each short), put in the page's language when shown,
// and the status to answer.
type importError struct {
	status int
	errs   []*apierr.Error
	more   bool // errors beyond errs were not listed
}

func (e *importError) Error() string { return e.errs[0].Error() }

// importGames reads and checks the games of a record as it reads them,
// one at a time: a summary of each and the replay of the first. A game
// that breaks the rules does not stop the reading, so that the error lists
// a few (*importError); a syntax error does. Past MaxImportGames games, or
// past ctx's deadline, the record is refused (*importError, 413); ctx's
// cancellation is returned as is. rulesErr is the site's error of an error
// of the rules library (Config.RulesError).
func importGames(ctx context.Context, name string, src io.Reader, rulesErr func(int, apierr.Code, error) *apierr.Error) ([]imported, error) {
	gr := toguz.NewGameReader(src, name, 0)
	gr.MaxGameBytes = maxImportGameBytes
	var out []imported
	bad := &importError{status: http.StatusBadRequest}
	fail := func(err error) {
		if len(bad.errs) == maxImportErrors {
			bad.more = true
			return
		}
		bad.errs = append(bad.errs, rulesErr(http.StatusBadRequest, apierr.CodeBadRequest, err))
	}
	for g, err := range gr.All() {
		if err != nil {
			if errors.Is(err, toguz.ErrTooLarge) {
				bad.status = http.StatusRequestEntityTooLarge
			}
			fail(err)
			break
		}
		if len(out)+len(bad.errs) == MaxImportGames {
			return nil, &importError{status: http.StatusRequestEntityTooLarge, errs: []*apierr.Error{
				apierr.New(http.StatusRequestEntityTooLarge, apierr.CodeTooLarge, "apierr.import_too_many", MaxImportGames, MaxImportGames)}}
		}
		if err := ctx.Err(); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, &importError{status: http.StatusRequestEntityTooLarge, errs: []*apierr.Error{
					apierr.New(http.StatusRequestEntityTooLarge, apierr.CodeTooLarge, "apierr.import_too_slow", int(importTimeout/time.Second), len(out)+len(bad.errs))}}
			}
			return nil, err
		}
		im, err := importGame(g, len(out) == 0)
		if err != nil {
			fail(err)
			if bad.more {
				break
			}
			continue
		}
		out = append(out, im)
	}
	if len(bad.errs) > 0 {
		return nil, bad
	}
	return out, nil
}

// importGame checks g against the rules and returns its summary, and with
// replay its positions and moves.
func importGame(g *toguz.Game, replay bool) (imported, error) {
	o, err := g.Outcome()
	if err != nil {
		return imported{}, err
	}
	im := imported{summary: importedGame{White: shortName(g.Tag("White")), Black: shortName(g.Tag("Black")), Plies: len(g.Plies),
		Result: g.Result.String(), Termination: o.Termination.String(), Score: fmt.Sprintf("%d–%d", o.Score[0], o.Score[1])},
		score: o.Score}
	if im.rec, err = archiveRecord(g, o); err != nil {
		return imported{}, err
	}
	if !replay {
		return im, nil
	}
	ps, err := g.Positions()
	if err != nil {
		return imported{}, err
	}
	for k, pos := range ps {
		full := toguz.FullMove(ps[0].Turn(), g.StartMove, k)
		im.positions = append(im.positions, toguz.FormatFEN(pos, full))
		im.boards = append(im.boards, posjson.Of(pos, full))
		if k+1 < len(ps) {
			y := g.Plies[k]
			me := pos.Turn()
			im.moves = append(im.moves, live.MoveJSON{Hole: int(y.Move), Notation: y.Ply.String(), By: me.String(),
				Captured: ps[k+1].Kazan(me) - pos.Kazan(me), Landing: live.Landing(pos, y.Move)})
		}
	}
	return im, nil
}

// shortName is a player's name as the import page shows it: at most
// MaxImportName bytes, cut at a rune boundary, with an ellipsis.
func shortName(s string) string {
	if len(s) <= MaxImportName {
		return s
	}
	n := MaxImportName
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// The daily bound of the archive: one importer (an account, else a client
// address) stores at most importsPerDay new games in 24 hours (Config.ImportsPerDay),
// so that a stranger cannot fill the disk; duplicates do not count.
const importsPerDay = 5000

// importer names who stores an import, for the daily bound.
func (a *Site) importer(r *http.Request) string {
	if id := a.kit.Identity(r); id.Account.ID != 0 {
		return "u:" + strconv.FormatInt(id.Account.ID, 10)
	}
	return "a:" + auth.AddrKey(auth.ClientIP(r))
}

// archiveRecord is the game g as the archive stores it: its names (cut
// as the page shows them), ruleset, start position ("" for the rules'
// own), moves, result (the record's, else the rules' when it is over),
// date and tags.
func archiveRecord(g *toguz.Game, o toguz.Outcome) (store.Import, error) {
	start, err := g.StartPosition()
	if err != nil {
		return store.Import{}, err
	}
	im := store.Import{Players: [2]string{shortName(g.Tag("White")), shortName(g.Tag("Black"))}, Rules: start.Rules(),
		Moves: g.Moves(), Result: g.Result, Termination: g.Termination, Date: recordDate(g.Tag("Date")), Tags: g.Tags}
	full := max(g.StartMove, 1)
	if std, err := toguz.NewPosition(start.Rules()); err != nil || std != start || full != 1 {
		im.StartFEN = toguz.FormatFEN(start, full)
	}
	if im.Result == toguz.NoResult {
		im.Result = o.Result
	}
	if im.Termination == toguz.Unterminated {
		im.Termination = o.Termination
	}
	return im, nil
}

// recordDate reads a record's Date tag: "2018.05.01", "2018-05-01",
// "2018.05.??", "2018" (the first day of what it says), "01.05.2018";
// zero when it says nothing readable.
func recordDate(s string) time.Time {
	s = strings.TrimSpace(s)
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '-' || r == '/' })
	if len(parts) == 3 && len(parts[2]) == 4 && len(parts[0]) <= 2 {
		parts[0], parts[2] = parts[2], parts[0] // day.month.year
	}
	num := func(i, lo, hi int) (int, bool) {
		if i >= len(parts) {
			return lo, true
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return lo, strings.Trim(parts[i], "?") == "" // "??": not known
		}
		return n, n >= lo && n <= hi
	}
	y, ok1 := num(0, 1, 9999)
	m, ok2 := num(1, 1, 12)
	d, ok3 := num(2, 1, 31)
	if len(parts) == 0 || len(parts) > 3 || !ok1 || !ok2 || !ok3 || y < 1000 {
		return time.Time{}
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{} // 31 February
	}
	return t
}

// MaxImport is the largest record file the import page reads; the site's
// body limit of POST /import is a little more, for the form around it.
const MaxImport = 2 << 20

type importedGame struct {
	White, Black, Result, Termination, Score string
	Outcome                                  string // how it ended, a sentence in the page's language
	Plies                                    int
	// ID is the game's id in the archive, Duplicate whether it was there
	// already (ID is then the first import's).
	ID        string
	Duplicate bool
}

// importReplay is the board of an import's first game; the template gives
// HoleNames, Positions, Boards and Moves to board.js as JSON.
type importReplay struct {
	HoleNames            [9]string
	Positions            []string
	Boards               []posjson.Position // the same, as the board draws them
	Moves                []live.MoveJSON
	White, Black, Result string
}

type importData struct {
	Text       string
	Error      string
	Errors     []string // the errors after Error, a few at most
	MoreErrors bool     // more errors than these
	Games      []importedGame
	Replay     *importReplay
	Quota      string // the archive's daily bound refused the import (in the page's language)
}

func (a *Site) pageImportForm(w http.ResponseWriter, r *http.Request) error {
	return a.kit.Render(w, http.StatusOK, "import", a.kit.Page(r, "import.title", importData{}))
}

func (a *Site) pageImport(w http.ResponseWriter, r *http.Request) error {
	leave, refused := a.imports.Enter(r.Context(), a.kit.Logger(), auth.AddrKey(auth.ClientIP(r)))
	if refused != nil {
		setRetryAfter(w, refused)
		return refused
	}
	defer leave()
	// Only now, admitted, is the body read (the site leaves this route's
	// form to it), within the route's body limit.
	if !a.cfg.ParseForm(w, r) {
		return nil
	}
	name, text := "record", r.FormValue("text")
	var src io.Reader = strings.NewReader(text)
	size := int64(len(text))
	if f, h, err := r.FormFile("file"); err == nil {
		defer f.Close()
		if h.Size > 0 {
			src, size, name = f, h.Size, h.Filename
		}
	}
	p := a.kit.Page(r, "import.title", nil)
	d := importData{}
	if len(text) <= maxImportEcho {
		d.Text = text
	}
	status := http.StatusOK
	ctx, cancel := context.WithTimeout(r.Context(), importTimeout)
	defer cancel()
	var games []imported
	var err error
	if size <= MaxImport {
		games, err = importGames(ctx, name, src, a.cfg.RulesError)
	}
	var ie *importError
	switch {
	case size > MaxImport:
		d.Error, status = a.kit.Message(r, apierr.New(0, apierr.CodeTooLarge, "apierr.import_too_large", MaxImport>>10)), http.StatusRequestEntityTooLarge
	case errors.As(err, &ie):
		d.Error, d.MoreErrors, status = a.kit.Message(r, ie.errs[0]), ie.more, ie.status
		for _, e := range ie.errs[1:] {
			d.Errors = append(d.Errors, a.kit.Message(r, e))
		}
		if ie.status == http.StatusRequestEntityTooLarge {
			a.imports.refusedSize.Add(1)
		}
	case err != nil:
		return err
	case len(games) == 0:
		d.Error, status = a.kit.Message(r, apierr.New(0, apierr.CodeBadRequest, "apierr.import_empty")), http.StatusBadRequest
	default:
		stored, serr := a.storeImport(r, games)
		var qe *store.QuotaError
		if errors.As(serr, &qe) {
			d.Quota, status = a.kit.Catalog().T(p.Lang, "archive.quota", qe.Stored, qe.Limit, qe.New), http.StatusTooManyRequests
			break
		} else if serr != nil {
			return serr
		}
		for i, g := range games {
			g.summary.ID, g.summary.Duplicate = stored[i].ID, stored[i].Duplicate
			g.summary.Outcome = a.kit.Catalog().Outcome(p.Lang, g.summary.Result, g.summary.Termination, &g.score)
			d.Games = append(d.Games, g.summary)
		}
		first := games[0]
		d.Replay = &importReplay{HoleNames: p.HoleNames,
			Positions: first.positions, Boards: first.boards, Moves: first.moves,
			White: first.summary.White, Black: first.summary.Black,
			Result: d.Games[0].Outcome}
	}
	p.Data = d
	return a.kit.Render(w, status, "import", p)
}

// imported is a game read by an import: its summary, the record the
// archive stores, and for the first game its replay.
type imported struct {
	summary   importedGame
	score     [2]int
	rec       store.Import
	positions []string
	boards    []posjson.Position
	moves     []live.MoveJSON
}

// storeImport stores the games of an import in the archive, all or none.
func (a *Site) storeImport(r *http.Request, games []imported) ([]store.Stored, error) {
	recs := make([]store.Import, len(games))
	for i, g := range games {
		recs[i] = g.rec
	}
	if a.cfg.Store == nil {
		return make([]store.Stored, len(games)), nil // no database: the games are read, not stored
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	perDay := a.cfg.ImportsPerDay
	if perDay == 0 {
		perDay = importsPerDay
	}
	return a.cfg.Store.Import(ctx, a.importer(r), perDay, recs)
}
