package opendb

import (
	"compress/gzip"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/puzzle"
	"github.com/toguz/toguz/internal/store"
)

// PuzzlesName is the file of the site's puzzles.
const PuzzlesName = "toguz-puzzles.csv.gz"

// PuzzleColumns is the header line of the puzzle file: one puzzle a row,
//
//   - id: the puzzle's id on the site (/puzzles/{id});
//   - fen: the position, the solver to move, as toguz.ParseFEN reads it;
//   - goal: win, save or stones (docs/puzzles.md);
//   - moves: how many of the solver's moves are judged;
//   - solution: the line in score-sheet notation from the position,
//     space-separated: the solver's move, the reply, …, then the line the
//     deep search expects;
//   - themes: space-separated (capture, tuzdik, prevent, atsyrau, endgame,
//     counting, tablebase), empty for none;
//   - rating, rating_deviation: the puzzle's Glicko-2 rating on the site
//     (its starting rating, made of its depth, when never tried);
//   - attempts, solved: the site's rated attempts at it;
//   - depth: its difficulty, the depth from which the engine keeps
//     choosing the solution;
//   - margin: the solution's lead over the second best move, hundredths
//     of a stone (0 for a proven result);
//   - source: where the position comes from (masters, playok, tgk, site,
//     selfplay, then the game and ply).
var PuzzleColumns = []string{"id", "fen", "goal", "moves", "solution", "themes", "rating", "rating_deviation",
	"attempts", "solved", "depth", "margin", "source"}

// PuzzleStore is what ExportPuzzles reads: the puzzles' ratings.
type PuzzleStore interface {
	PuzzleStats(ctx context.Context) (map[string]store.PuzzleStat, error)
}

// ExportPuzzles writes the puzzles ps, with their ratings on the site,
// into dir as PuzzlesName (atomically; again at every export, as the
// ratings move). The puzzle count is in the gzip header's comment
// ("puzzles=N").
func ExportPuzzles(ctx context.Context, st PuzzleStore, dir string, ps []puzzle.Puzzle) (File, error) {
	f := File{Name: PuzzlesName, Puzzles: len(ps)}
	stats, err := st.PuzzleStats(ctx)
	if err != nil {
		return f, fmt.Errorf("opendb: %w", err)
	}
	path := filepath.Join(dir, PuzzlesName)
	err = atomicfile.Write(path, func(w io.Writer) error {
		zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
		if err != nil {
			return err
		}
		zw.Comment = "puzzles=" + strconv.Itoa(len(ps))
		cw := csv.NewWriter(zw)
		if err := cw.Write(PuzzleColumns); err != nil {
			return err
		}
		for _, p := range ps {
			row, err := puzzleRow(p, stats)
			if err != nil {
				return err
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return f, fmt.Errorf("opendb: %s: %w", PuzzlesName, err)
	}
	if fi, err := os.Stat(path); err == nil {
		f.Size = fi.Size()
	}
	return f, nil
}

// puzzleRow is p's row of the file.
func puzzleRow(p puzzle.Puzzle, stats map[string]store.PuzzleStat) ([]string, error) {
	sol := make([]string, len(p.Solution))
	pos := p.Start
	for i, m := range p.Solution {
		if err := pos.CheckMove(m); err != nil {
			return nil, fmt.Errorf("puzzle %s, move %d of its solution: %w", p.ID, i+1, err)
		}
		var y toguz.Ply
		y, pos = pos.Ply(m)
		sol[i] = y.String()
	}
	themes := make([]string, len(p.Themes))
	for i, t := range p.Themes {
		themes[i] = string(t)
	}
	st, ok := stats[p.ID]
	if !ok {
		st.Rating = p.StartRating() // as the server rates its first attempt
	}
	moves := max(p.Moves, 1)
	return []string{p.ID, toguz.FormatFEN(p.Start, 1), p.Goal.String(), strconv.Itoa(moves), strings.Join(sol, " "),
		strings.Join(themes, " "), strconv.Itoa(int(math.Round(st.Rating.Rating))), strconv.Itoa(int(math.Round(st.Rating.RD))),
		strconv.Itoa(st.Attempts), strconv.Itoa(st.Solved), strconv.Itoa(p.Depth), strconv.Itoa(p.Margin), p.Source}, nil
}
