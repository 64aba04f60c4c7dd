// Package shortest finds the shortest game that ends in a win, both players
// cooperating, and proves that no shorter one exists.
//
// The search is an iterative deepening depth-first search over every legal
// move: depth D succeeds as soon as a line of D plies reaches a decisive end
// (a kazan reaching the winning score, or an atsyrau with a decisive final
// count), and fails only after every line has been followed or cut. A line
// is cut only when a bound shows that no decisive end can be reached in the
// plies left, so a failure at depth D proves that no game of D plies ends in
// a win.
//
// # The bounds
//
// Let M be the most stones in any hole. A move sows at most M stones, so no
// hole gains more than c = ⌈M/18⌉ in one ply (⌈M/2n⌉ on a board of n holes a
// side), and M grows by at most c a ply. In one ply the mover's kazan gains
// at most M + 2c (the landing hole's stones after the sowing, or the 3 of a
// new tuzdik, plus what falls into his own tuzdik) and the other kazan at
// most c (what falls into his tuzdik). A side loses at most M + 2c stones in
// one ply. A kazan win is possible only if the kazan plus the sum of these
// gains over the plies left reaches the winning score; an atsyrau only if
// the stones of the side to move at the end can all leave in time.
package shortest

import (
	"context"
	"time"

	"github.com/toguz/toguz"
)

// Result is the outcome of a search.
type Result struct {
	Moves   []toguz.Move // the shortest decisive game; nil if none within the limit
	Outcome toguz.Outcome
	// Nodes and Duration are the positions visited and the time taken at
	// each depth searched, 1 first.
	Nodes    []uint64
	Duration []time.Duration
}

// Progress is told when a depth has been searched.
type Progress func(depth int, nodes uint64, elapsed time.Duration, found bool)

// Find searches depth 1, 2, … maxPlies from start and returns the first
// decisive game found, which is the shortest. It returns ctx's error if
// cancelled.
func Find(ctx context.Context, start toguz.Position, maxPlies int, progress Progress) (Result, error) {
	var res Result
	s := &searcher{ctx: ctx, rules: start.Rules()}
	s.tables(maxPlies)
	for d := 1; d <= maxPlies; d++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		begin := time.Now()
		s.nodes = 0
		s.line = s.line[:0]
		found := s.search(start, d)
		res.Nodes = append(res.Nodes, s.nodes)
		res.Duration = append(res.Duration, time.Since(begin))
		if s.err != nil {
			return res, s.err
		}
		if progress != nil {
			progress(d, s.nodes, time.Since(begin), found)
		}
		if found {
			res.Moves = append([]toguz.Move(nil), s.line...)
			p := start
			for _, m := range res.Moves {
				p = p.After(m)
			}
			res.Outcome = p.Outcome()
			return res, nil
		}
	}
	return res, nil
}

type searcher struct {
	ctx   context.Context
	err   error
	rules toguz.Rules
	nodes uint64
	line  []toguz.Move
	// gain[first][m][r]: the most a kazan can gain in r plies when the most
	// stones in a hole is m, moving first (1) or second (0); loss[m][r]: the
	// most stones a side can lose in r plies.
	gain [2][][]int
	loss [][]int
}

// tables fills gain and loss for every M up to all the stones in one hole.
func (s *searcher) tables(maxPlies int) {
	total := s.rules.Total()
	ring := 2 * s.rules.Holes
	for first := range 2 {
		s.gain[first] = make([][]int, total+1)
	}
	s.loss = make([][]int, total+1)
	for m := 0; m <= total; m++ {
		for first := range 2 {
			s.gain[first][m] = make([]int, maxPlies+1)
		}
		s.loss[m] = make([]int, maxPlies+1)
		for r := 1; r <= maxPlies; r++ {
			mt, g0, g1, l := m, 0, 0, 0
			for t := range r {
				c := max((mt+ring-1)/ring, 1)
				l += mt + 2*c
				if t%2 == 0 { // the first mover's ply
					g1 += mt + 2*c
					g0 += c
				} else {
					g0 += mt + 2*c
					g1 += c
				}
				mt = min(mt+c, total)
			}
			s.gain[1][m][r], s.gain[0][m][r], s.loss[m][r] = g1, g0, l
		}
	}
}

// hopeless reports whether no decisive end can be reached from p within r
// plies (the bounds of the package documentation).
func (s *searcher) hopeless(p *toguz.Position, r int) bool {
	m := 0
	for pl := toguz.White; pl <= toguz.Black; pl++ {
		for h := 1; h <= p.Holes(); h++ {
			m = max(m, p.Stones(pl, h))
		}
	}
	turn := p.Turn()
	if !s.rules.PlayOut {
		win := s.rules.WinningScore()
		if p.Kazan(turn)+s.gain[1][m][r] >= win || p.Kazan(turn.Other())+s.gain[0][m][r] >= win {
			return false
		}
	}
	return p.OnBoard(toguz.White) > s.loss[m][r] && p.OnBoard(toguz.Black) > s.loss[m][r]
}

// search reports whether a decisive end lies exactly r plies or fewer
// ahead; the line to it is left in s.line.
func (s *searcher) search(p toguz.Position, r int) bool {
	s.nodes++
	if p.IsOver() {
		return p.Outcome().Result != toguz.Draw
	}
	if r == 0 || s.err != nil {
		return false
	}
	if s.nodes&0xfffff == 0 {
		if err := s.ctx.Err(); err != nil {
			s.err = err
			return false
		}
	}
	if s.hopeless(&p, r) {
		return false
	}
	for m := range p.LegalMoves().All() {
		s.line = append(s.line, m)
		if s.search(p.After(m), r-1) {
			return true
		}
		s.line = s.line[:len(s.line)-1]
	}
	return false
}
