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
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/live"
)

// The bounds of an import (docs/api.md, Bounds; issue 15). One request may
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
func (g *importGate) enter(ctx context.Context, log *slog.Logger, addr string) (leave func(), _ *apiError) {
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
		return nil, &apiError{Status: http.StatusTooManyRequests, Code: live.CodeRateLimited,
			Message: fmt.Sprintf("more than %d imports a minute from your address: wait a little", cmp.Or(g.perMinute, importsPerMinute))}
	}
	g.mu.Lock()
	ok := g.byAddr[addr] < maxImportsPerAddr
	if ok {
		g.byAddr[addr]++
	}
	g.mu.Unlock()
	if !ok {
		g.refused(log, "per address", addr, &g.refusedAddr)
		return nil, &apiError{Status: http.StatusTooManyRequests, Code: live.CodeRateLimited,
			Message: fmt.Sprintf("%d imports from your address are running already: wait for them to finish", maxImportsPerAddr)}
	}
	wait, cancel := context.WithTimeout(ctx, importWait)
	defer cancel()
	if err := g.running.Acquire(wait, 1); err != nil {
		g.leaveAddr(addr)
		g.refused(log, "busy", addr, &g.refusedBusy)
		return nil, &apiError{Status: http.StatusServiceUnavailable, Code: codeBusy,
			Message: "the server is checking as many imports as it can: try again in a moment"}
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			g.running.Release(1)
			g.leaveAddr(addr)
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
func setRetryAfter(w http.ResponseWriter, e *apiError) {
	if e.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(int(importRetryAfter/time.Second)))
	}
}

// importError is why a record cannot be imported: its errors (at most
// maxImportErrors, each short) and the status to answer.
type importError struct {
	status int
	msgs   []string
	more   bool // errors beyond msgs were not listed
}

func (e *importError) Error() string { return e.msgs[0] }

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
		if len(bad.msgs) == maxImportErrors {
			bad.more = true
			return
		}
		bad.msgs = append(bad.msgs, err.Error())
	}
	for g, err := range gr.All() {
		if err != nil {
			if errors.Is(err, toguz.ErrTooLarge) {
				bad.status = http.StatusRequestEntityTooLarge
			}
			fail(err)
			break
		}
		if len(out)+len(bad.msgs) == maxImportGames {
			return nil, &importError{status: http.StatusRequestEntityTooLarge, msgs: []string{
				fmt.Sprintf("the record holds more than %d games: import at most %d at a time", maxImportGames, maxImportGames)}}
		}
		if err := ctx.Err(); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				return nil, &importError{status: http.StatusRequestEntityTooLarge, msgs: []string{
					fmt.Sprintf("checking the record took more than %s (%d games read): import fewer games at a time", importTimeout, len(out)+len(bad.msgs))}}
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
	if len(bad.msgs) > 0 {
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
		Result: g.Result.String(), Termination: o.Termination.String(), Score: fmt.Sprintf("%d–%d", o.Score[0], o.Score[1])}}
	if !replay {
		return im, nil
	}
	ps, err := g.Positions()
	if err != nil {
		return imported{}, err
	}
	for k, pos := range ps {
		im.positions = append(im.positions, toguz.FormatFEN(pos, toguz.FullMove(ps[0].Turn(), g.StartMove, k)))
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
