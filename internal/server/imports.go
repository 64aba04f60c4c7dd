package server

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
	"github.com/toguz/toguz/internal/store"
)

// The bounds of an import (docs/api.md, Bounds). One request may
// send at most maxImport bytes (the route's body limit, maxImportBody),
// maxImportGames games of at most maxImportGameBytes each, and take at most
// importTimeout to check, the deadline checked between games. At most
// maxImportsPerAddr imports run at once per client address (429 beyond)
// and maxImportsRunning in all (waited for up to importWait, then 503
// busy), so that many at once cannot take the memory; and one address
// starts at most importsPerMinute a minute (bursts of importBurst, 429
// beyond), so that quickly refused imports, one after another, cannot take
// the CPUs either (each reads its 2 MiB and checks up to 1,000 games).
const (
	maxImportGames     = 1000
	maxImportGameBytes = 64 << 10
	importTimeout      = 5 * time.Second
	maxImportsPerAddr  = 2
	maxImportsRunning  = 4
	importWait         = 2 * time.Second
	importRetryAfter   = time.Second
	importsPerMinute   = 10
	importBurst        = 3
	// maxImportErrors is the most errors the page lists: each quotes at
	// most a short excerpt of the record, so the page stays small.
	maxImportErrors = 5
	// maxImportEcho is the longest pasted record the page shows back.
	maxImportEcho = 4 << 10
	// maxImportName is the most bytes of a player's name the page shows.
	maxImportName = 64
)

// importGate admits the imports that may run. Its zero value is ready.
type importGate struct {
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

// enter admits an import from the client address addr, or returns the
// error that refuses it; leave must be called once the import is done.
func (g *importGate) enter(ctx context.Context, log *slog.Logger, addr string) (leave func(), _ *apierr.Error) {
	g.once.Do(func() {
		g.running = semaphore.NewWeighted(maxImportsRunning)
		g.byAddr = make(map[string]int)
		if n := cmp.Or(g.perMinute, importsPerMinute); n > 0 {
			g.starts = auth.NewLimiter(rate.Limit(float64(n)/60), importBurst, time.Now)
		}
		g.logRef = rate.Sometimes{Interval: 10 * time.Second}
	})
	if g.starts != nil && !g.starts.Allow(addr) {
		g.refused(log, "per minute", addr, &g.refusedAddr)
		return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.imports_per_minute", cmp.Or(g.perMinute, importsPerMinute))
	}
	g.mu.Lock()
	ok := g.byAddr[addr] < maxImportsPerAddr
	if ok {
		g.byAddr[addr]++
	}
	g.mu.Unlock()
	if !ok {
		g.refused(log, "per address", addr, &g.refusedAddr)
		return nil, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.imports_running", maxImportsPerAddr)
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

func (g *importGate) leaveAddr(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byAddr[addr]--; g.byAddr[addr] <= 0 {
		delete(g.byAddr, addr)
	}
}

func (g *importGate) refused(log *slog.Logger, bound, addr string, n *atomic.Int64) {
	total := n.Add(1)
	g.logRef.Do(func() {
		log.Warn("import bound: refused", "bound", bound, "addr", addr, "refused_total", total)
	})
}

// importStats are the gate's counters, for logs and tests.
type importStats struct{ RefusedAddr, RefusedBusy, RefusedSize int64 }

func (g *importGate) stats() importStats {
	return importStats{g.refusedAddr.Load(), g.refusedBusy.Load(), g.refusedSize.Load()}
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
// a few (*importError); a syntax error does. Past maxImportGames games, or
// past ctx's deadline, the record is refused (*importError, 413); ctx's
// cancellation is returned as is.
func importGames(ctx context.Context, name string, src io.Reader) ([]imported, error) {
	gr := toguz.NewGameReader(src, name, 0)
	gr.MaxGameBytes = maxImportGameBytes
	var out []imported
	bad := &importError{status: http.StatusBadRequest}
	fail := func(err error) {
		if len(bad.errs) == maxImportErrors {
			bad.more = true
			return
		}
		bad.errs = append(bad.errs, rulesError(http.StatusBadRequest, apierr.CodeBadRequest, err))
	}
	for g, err := range gr.All() {
		if err != nil {
			if errors.Is(err, toguz.ErrTooLarge) {
				bad.status = http.StatusRequestEntityTooLarge
			}
			fail(err)
			break
		}
		if len(out)+len(bad.errs) == maxImportGames {
			return nil, &importError{status: http.StatusRequestEntityTooLarge, errs: []*apierr.Error{
				apierr.New(http.StatusRequestEntityTooLarge, apierr.CodeTooLarge, "apierr.import_too_many", maxImportGames, maxImportGames)}}
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
// maxImportName bytes, cut at a rune boundary, with an ellipsis.
func shortName(s string) string {
	if len(s) <= maxImportName {
		return s
	}
	n := maxImportName
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
func (s *Server) importer(r *http.Request) string {
	if id := s.Identity(r); id.Account.ID != 0 {
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
