// Package openings provides opening suites: the positions a match starts
// its games from. Default is the embedded suite built from the 2018
// championship games; Build makes one from any games, Parse and Format read
// and write the one-position-string-per-line form.
package openings

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/toguz/toguz"
)

// Default is the opening suite of the package, one position string per
// line: the positions after 4 to 8 plies of the 2018 championship games
// (RULES.md §8) that occur in at least one game, deduplicated, with kazans
// within MaxKazanGap stones of each other. TestDefaultFile rebuilds it from
// the games and checks that it is unchanged.
//
//go:embed openings.txt
var Default string

// The filter of the default suite.
const (
	MinPly      = 4
	MaxPly      = 8
	MaxKazanGap = 4
)

// Parse reads a suite: one position string per line; blank lines
// and lines starting with # are skipped.
func Parse(r io.Reader, rules toguz.Rules) ([]toguz.Position, error) {
	var out []toguz.Position
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		p, _, err := toguz.ParseFEN(s, rules)
		if err != nil {
			return nil, fmt.Errorf("openings line %d: %w", line, err)
		}
		if p.IsOver() {
			return nil, fmt.Errorf("openings line %d: the game is already over", line)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("openings: no position")
	}
	return out, nil
}

// Build returns the distinct positions reached after minPly..maxPly
// plies of the games (each a move list from the standard start), whose
// kazans differ by at most maxGap stones and where the game goes on, in the
// order they first occur.
func Build(games [][]toguz.Move, minPly, maxPly, maxGap int) []toguz.Position {
	seen := make(map[toguz.Position]bool)
	var out []toguz.Position
	for _, g := range games {
		p := toguz.StartPosition()
		for ply, m := range g {
			if ply >= maxPly {
				break
			}
			q, err := p.Play(m)
			if err != nil {
				break
			}
			p = q
			gap := p.Kazan(toguz.White) - p.Kazan(toguz.Black)
			if ply+1 >= minPly && !p.IsOver() && gap >= -maxGap && gap <= maxGap && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// ReadGames returns the moves of every game in a record file (any format
// toguz.ParseGames reads), checking each game against the rules.
func ReadGames(name string, data []byte) ([][]toguz.Move, error) {
	games, err := toguz.ParseGames(name, data, 0)
	if err != nil {
		return nil, err
	}
	out := make([][]toguz.Move, len(games))
	for i, g := range games {
		if _, err := g.Final(); err != nil {
			return nil, err
		}
		out[i] = g.Moves()
	}
	return out, nil
}

// Format writes a suite as Parse reads it.
func Format(w io.Writer, ps []toguz.Position) error {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.FEN()
	}
	_, err := io.WriteString(w, strings.Join(slices.Clip(lines), "\n")+"\n")
	return err
}
