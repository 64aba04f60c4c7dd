// Package opendb is the open database: every rated game of the site,
// published as one gzip-compressed file a month in our record format
// (toguz.FormatToguz) with its review's evaluations, and the site's
// puzzles as one gzip-compressed CSV file, for players and researchers
// (docs/api.md, "The open database").
//
// Features:
//   - Export writes the files of the months with rated games into a
//     folder: toguz-rated-YYYY-MM.pgn.gz, each game with its players,
//     their ratings before the game (WhiteElo, BlackElo), the time
//     control, the date, the site's id and the termination. A finished
//     month's file is written once (atomically), or again at each export
//     while some of its games' reviews were still to come when it was
//     written (a game of the month's last minutes is reviewed in the
//     next); the current month's is written again at every export, until
//     the month is over.
//   - The number of games of a file is in its gzip header's comment
//     ("games=N", and " pending=P" for the games whose review was queued
//     or running), so that List and Export read it without decompressing.
//   - A game with a finished review (internal/review) carries it: each
//     ply's evaluation after the review's search, from White's side, as a
//     comment after the ply, {[%eval +1.25]} (see Eval for proven
//     results), and the tags Review (the search's settings, "depth 10"),
//     WhiteAccuracy and BlackAccuracy (docs/review.md; absent for a side
//     with no move to judge). A game with no finished review is written
//     without them. The readers of the rules library (toguz.ParseGames,
//     ParseTrees) keep the comments as they are, and the files write back
//     to the same bytes.
//   - ExportPuzzles (which Export runs with puzzle.Shipped) writes the
//     puzzles with their Glicko-2 ratings on the site as PuzzlesName,
//     again at every export, one row a puzzle under a header line of
//     PuzzleColumns; the count is in the gzip header's comment
//     ("puzzles=N").
//   - List returns the month files of a folder, newest month first, and
//     ListPuzzles its puzzle file, for the server's /database page, which
//     sends only the names Served admits.
package opendb

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/store"
)

// File is one month's file, or the puzzle file.
type File struct {
	Name  string    // toguz-rated-2026-11.pgn.gz, or PuzzlesName
	Month time.Time // the first instant of the month, UTC; zero for the puzzle file
	Games int
	// Pending is how many of the games had a review queued or running
	// when the file was written: they carry no evaluations yet.
	Pending int
	Puzzles int // the puzzle file's
	Size    int64
}

// NamePattern matches a file's name; its groups are the year and month.
var NamePattern = regexp.MustCompile(`^toguz-rated-(\d{4})-(\d{2})\.pgn\.gz$`)

// Served reports whether name is a file of the open database: a month's
// or the puzzle file. No other file of the folder is served.
func Served(name string) bool { return name == PuzzlesName || NamePattern.MatchString(name) }

// FileName is the file of the month of t.
func FileName(t time.Time) string { return "toguz-rated-" + t.UTC().Format("2006-01") + ".pgn.gz" }

// Store is what Export reads.
type Store interface {
	RatedSpan(ctx context.Context) (first, last time.Time, ok bool, err error)
	RatedGames(ctx context.Context, from, to time.Time, afterMS int64, afterID string, limit int) ([]store.Game, error)
	Moves(ctx context.Context, gameID string) ([]store.Move, error)
	Review(ctx context.Context, gameID string) (store.Review, error)
	PuzzleStore
}

// Export writes the monthly files of st's rated games into dir (created if
// needed) as of now: the months already written and over are left alone.
// Then it writes the site's shipped puzzles (puzzle.Shipped) with their
// ratings as PuzzlesName (ExportPuzzles). It returns the files written,
// the months in order and the puzzle file last.
func Export(ctx context.Context, st Store, dir string, now time.Time) ([]File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("opendb: %w", err)
	}
	out, err := exportMonths(ctx, st, dir, now)
	if err != nil {
		return out, err
	}
	ps, err := puzzle.Shipped()
	if err != nil {
		return out, fmt.Errorf("opendb: the shipped puzzles: %w", err)
	}
	f, err := ExportPuzzles(ctx, st, dir, ps)
	if err != nil {
		return out, err
	}
	return append(out, f), nil
}

func exportMonths(ctx context.Context, st Store, dir string, now time.Time) ([]File, error) {
	first, last, ok, err := st.RatedSpan(ctx)
	if err != nil || !ok {
		return nil, err
	}
	current := monthOf(now)
	var out []File
	for m := monthOf(first); !m.After(monthOf(last)); m = m.AddDate(0, 1, 0) {
		path := filepath.Join(dir, FileName(m))
		if m.Before(current) {
			if _, pending, err := readComment(path); err == nil && pending == 0 {
				continue // a finished month's file with every review in does not change
			}
		}
		f, err := writeMonth(ctx, st, path, m)
		if err != nil {
			return out, err
		}
		if f.Games > 0 {
			out = append(out, f)
		} else {
			os.Remove(path)
		}
	}
	return out, nil
}

func monthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// pageSize is how many games one query reads.
const pageSize = 500

func writeMonth(ctx context.Context, st Store, path string, month time.Time) (File, error) {
	f := File{Name: filepath.Base(path), Month: month}
	// The count goes in the gzip header, which comes first: the month is
	// read twice, once to count and once to write, rather than held.
	n, pending, err := eachGame(ctx, st, month, func(*toguz.Game) error { return nil })
	if err != nil {
		return f, err
	}
	f.Games, f.Pending = n, pending
	if n == 0 {
		return f, nil
	}
	err = atomicfile.Write(path, func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
		if err != nil {
			return err
		}
		zw.Comment = "games=" + strconv.Itoa(n)
		if pending > 0 {
			// Counted before the games are written: a review that
			// finishes in between costs one more write, never a miss.
			zw.Comment += " pending=" + strconv.Itoa(pending)
		}
		zw.ModTime = month
		gw := toguz.NewGameWriter(zw, toguz.FormatToguz)
		if _, _, err := eachGame(ctx, st, month, gw.Write); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return f, fmt.Errorf("opendb: %s: %w", f.Name, err)
	}
	if fi, err := os.Stat(path); err == nil {
		f.Size = fi.Size()
	}
	return f, nil
}

// eachGame calls fn with the record of each rated game of the month, in
// the order played, and returns how many there were and how many of them
// had a review queued or running.
func eachGame(ctx context.Context, st Store, month time.Time, fn func(*toguz.Game) error) (n, pending int, err error) {
	var afterMS int64
	afterID := ""
	for {
		gs, err := st.RatedGames(ctx, month, month.AddDate(0, 1, 0), afterMS, afterID, pageSize)
		if err != nil {
			return n, pending, err
		}
		for _, g := range gs {
			rec, waiting, err := record(ctx, st, g)
			if err != nil {
				return n, pending, err
			}
			if err := fn(rec); err != nil {
				return n, pending, err
			}
			n++
			if waiting {
				pending++
			}
		}
		if len(gs) < pageSize {
			return n, pending, nil
		}
		last := gs[len(gs)-1]
		afterMS, afterID = last.Date.UnixMilli(), last.ID
	}
}

// record is a stored game as a record; pending says that its review is
// queued or running.
func record(ctx context.Context, st Store, g store.Game) (rec *toguz.Game, pending bool, err error) {
	start, err := toguz.NewPosition(g.Rules)
	startMove := 1
	if err == nil && g.StartFEN != "" {
		start, startMove, err = toguz.ParseFEN(g.StartFEN, g.Rules)
	}
	if err != nil {
		return nil, false, fmt.Errorf("opendb: game %s: %w", g.ID, err)
	}
	ms, err := st.Moves(ctx, g.ID)
	if err != nil {
		return nil, false, err
	}
	moves := make([]toguz.Move, len(ms))
	for i, m := range ms {
		moves[i] = m.Hole
	}
	rec, err = toguz.NewGame(start, moves...)
	if err != nil {
		return nil, false, fmt.Errorf("opendb: game %s: %w", g.ID, err)
	}
	rec.StartMove = startMove
	rec.SetTag("Event", "toguz rated game")
	rec.SetTag("Site", "toguz")
	rec.SetTag("Date", g.Date.UTC().Format("2006.01.02"))
	rec.SetTag("White", g.Players[0].Name)
	rec.SetTag("Black", g.Players[1].Name)
	rec.SetTag("WhiteElo", strconv.Itoa(g.RatingBefore[0]))
	rec.SetTag("BlackElo", strconv.Itoa(g.RatingBefore[1]))
	if g.TimeControl.Kind() != clock.Unlimited {
		rec.SetTag("TimeControl", g.TimeControl.String())
	}
	rec.SetTag("ID", g.ID)
	rec.Result, rec.Termination = g.Result, g.Termination
	pending, err = addReview(ctx, st, g.ID, rec)
	if err != nil {
		return nil, false, err
	}
	return rec, pending, nil
}

// addReview writes game id's finished review into rec: each ply's
// evaluation as a comment {[%eval …]} after it (Eval), and the tags Review
// (the settings of its search), WhiteAccuracy and BlackAccuracy. A game
// with no finished review, or one of another format or of other moves, is
// left as it is; pending says that its review is queued or running.
func addReview(ctx context.Context, st Store, id string, rec *toguz.Game) (pending bool, err error) {
	r, err := st.Review(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("opendb: review of game %s: %w", id, err)
	}
	if r.Status == store.ReviewPending || r.Status == store.ReviewRunning {
		return true, nil
	}
	if r.Status != store.ReviewDone {
		return false, nil
	}
	d, err := review.Decode(r.Data)
	if errors.Is(err, review.ErrVersion) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("opendb: review of game %s: %w", id, err)
	}
	if len(d.Plies) != len(rec.Plies) {
		return false, nil
	}
	for i, p := range d.Plies {
		if p.Move != rec.Plies[i].Move {
			return false, nil
		}
	}
	settings := r.Settings
	if settings == "" {
		settings = review.Settings(d.Depth)
	}
	rec.SetTag("Review", settings)
	for pl, name := range [2]string{"WhiteAccuracy", "BlackAccuracy"} {
		if d.Accuracy[pl] >= 0 {
			rec.SetTag(name, strconv.FormatFloat(d.Accuracy[pl], 'f', 1, 64))
		}
	}
	for i, p := range d.Plies {
		rec.Plies[i].Comment = "[%eval " + Eval(p.Eval) + "]"
	}
	return false, nil
}

// Eval writes a review's evaluation (White's view) as the files carry it:
// stones with a sign and two decimals ("+1.25", "-0.50", "+0.00"); a
// proven result as "#N", White wins in N plies, or "#-N", Black does
// ("#0" and "#-0": the game is over); a win proven without its distance
// as "#+" (White's) or "#-" (Black's).
func Eval(s engine.Score) string {
	switch n := s.MatePlies(); {
	case n > 0 || s == engine.MateScore:
		return "#" + strconv.Itoa(n)
	case n < 0 || s == -engine.MateScore:
		return "#-" + strconv.Itoa(-n)
	case s.IsKnownWin():
		return "#+"
	case (-s).IsKnownWin():
		return "#-"
	}
	return fmt.Sprintf("%+.2f", float64(s)/100)
}

// List returns the month files of dir, the newest month first; a missing
// dir has none.
func List(dir string) ([]File, error) {
	es, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("opendb: %w", err)
	}
	var out []File
	for _, e := range es {
		m := NamePattern.FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		f := File{Name: e.Name(), Month: time.Date(y, time.Month(mo), 1, 0, 0, 0, 0, time.UTC)}
		if fi, err := e.Info(); err == nil {
			f.Size = fi.Size()
		}
		f.Games, f.Pending, _ = readComment(filepath.Join(dir, e.Name()))
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b File) int { return b.Month.Compare(a.Month) })
	return out, nil
}

// readComment reads a month file's counts from its gzip header.
func readComment(path string) (games, pending int, err error) {
	fh, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		return 0, 0, err
	}
	for _, field := range strings.Fields(zr.Comment) {
		k, v, _ := strings.Cut(field, "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, 0, fmt.Errorf("opendb: %s: gzip comment %q", filepath.Base(path), zr.Comment)
		}
		switch k {
		case "games":
			games = n
		case "pending":
			pending = n
		}
	}
	return games, pending, nil
}

// ListPuzzles returns the puzzle file of dir; ok is false when there is
// none.
func ListPuzzles(dir string) (f File, ok bool) {
	fh, err := os.Open(filepath.Join(dir, PuzzlesName))
	if err != nil {
		return f, false
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return f, false
	}
	f = File{Name: PuzzlesName, Size: fi.Size()}
	if zr, err := gzip.NewReader(fh); err == nil {
		if v, ok := strings.CutPrefix(zr.Comment, "puzzles="); ok {
			f.Puzzles, _ = strconv.Atoi(v)
		}
	}
	return f, true
}
