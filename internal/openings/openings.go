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
// (docs/rules.md §8) that occur in at least one game, deduplicated, with kazans
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

// Opening is a position a match starts its games from, with its full-move
// number (the last field of its position string), which the games' records
// continue from.
type Opening struct {
	Position toguz.Position
	FullMove int
}

// FEN returns the position string of the opening, with its move number.
func (o Opening) FEN() string { return toguz.FormatFEN(o.Position, o.FullMove) }

// Parse reads a suite: one position string per line; blank lines
// and lines starting with # are skipped.
func Parse(r io.Reader, rules toguz.Rules) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		p, full, err := toguz.ParseFEN(s, rules)
		if err != nil {
			return nil, fmt.Errorf("openings line %d: %w", line, err)
		}
		if p.IsOver() {
			return nil, fmt.Errorf("openings line %d: the game is already over", line)
		}
		out = append(out, Opening{p, full})
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
// order they first occur, each with the move number of its first occurrence.
func Build(games [][]toguz.Move, minPly, maxPly, maxGap int) []Opening {
	seen := make(map[toguz.Position]bool)
	var out []Opening
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
				out = append(out, Opening{p, toguz.FullMove(toguz.White, 1, ply+1)})
			}
		}
	}
	return out
}

// Tree returns the distinct positions reached from the start of rules by
// every sequence of minPly..maxPly moves whose kazans differ by at most
// maxGap stones and where the game goes on, in the order of a
// breadth-first walk (by plies, then by the moves in order), each with
// its move number. It is the suite of a ruleset without recorded games.
func Tree(rules toguz.Rules, minPly, maxPly, maxGap int) ([]Opening, error) {
	start, err := toguz.NewPosition(rules)
	if err != nil {
		return nil, fmt.Errorf("openings: %w", err)
	}
	seen := map[toguz.Position]bool{start: true}
	level := []toguz.Position{start}
	var out []Opening
	for ply := 1; ply <= maxPly; ply++ {
		var next []toguz.Position
		for _, p := range level {
			for m := range p.LegalMoves().All() {
				q := p.After(m)
				if q.IsOver() || seen[q] {
					continue
				}
				seen[q] = true
				next = append(next, q)
				gap := q.Kazan(toguz.White) - q.Kazan(toguz.Black)
				if ply >= minPly && gap >= -maxGap && gap <= maxGap {
					out = append(out, Opening{q, toguz.FullMove(toguz.White, 1, ply)})
				}
			}
		}
		level = next
	}
	return out, nil
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
func Format(w io.Writer, suite []Opening) error {
	lines := make([]string, len(suite))
	for i, o := range suite {
		lines[i] = o.FEN()
	}
	_, err := io.WriteString(w, strings.Join(slices.Clip(lines), "\n")+"\n")
	return err
}
