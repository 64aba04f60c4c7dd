package doubleswiss

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Colour is a player's colour in the first game of a match.
type Colour int8

const (
	None Colour = iota
	White
	Black
)

func (c Colour) other() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return None
}

// Player is one player to pair in the round, as the rounds before it leave
// him.
type Player struct {
	TPN   int     // tournament pairing number (1.1), unique, from 1
	Score float64 // points so far: the games' points and the byes' (1.2.1)
	// Opponents are the TPNs met in the matches that were not forfeited
	// (Preface, [C1]); players not in the input are ignored.
	Opponents []int
	// Colours has one entry a match played so far, the first game's colour
	// where at least one game of it was played, else None (1.6).
	Colours []Colour
	NoBye   bool // had the pairing-allocated bye, won a match by forfeit or had a full-point bye ([C2])
	Matches int  // matches played (not forfeited), for the bye's order (3.4)
	Floated bool // paired against a different score in the previous round (1.5)
}

// Input is a round to pair.
type Input struct {
	Players   []Player
	LastRound bool   // the tournament's last round: [C7] and [C8] do not apply
	Initial   Colour // the initial colour (4.3.1); None is White
}

// Pair is a match of the round: White has White in the first game and
// Black in the second (4.4). Black 0 is the pairing-allocated bye.
type Pair struct{ White, Black int }

// ErrUnpairable is returned when no pairing satisfies [C1] to [C3].
var ErrUnpairable = errors.New("no pairing satisfies the absolute criteria")

// state is one round's pairing: the players in rank order (1.2).
type state struct {
	in   Input
	pl   []Player
	met  [][]bool
	last bool
	m    matcher
}

// Round pairs the round: the matches in board order (the higher ranked
// player's rank), then the bye.
func Round(in Input) ([]Pair, error) {
	s, err := newState(in)
	if err != nil {
		return nil, err
	}
	n := len(s.pl)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	bye := -1
	if n%2 == 1 {
		if bye = s.bye(all); bye < 0 {
			return nil, ErrUnpairable
		}
	} else if !s.perfect(all) {
		return nil, ErrUnpairable
	}
	unpaired := slices.DeleteFunc(slices.Clone(all), func(i int) bool { return i == bye })
	var pairs [][2]int // top, bottom: indices in rank order
	for len(unpaired) > 0 {
		g := 1
		for g < len(unpaired) && s.pl[unpaired[g]].Score == s.pl[unpaired[0]].Score {
			g++
		}
		res, low := unpaired[:g], unpaired[g:]
		up := s.upfloaters(res, low)
		b := append(slices.Clone(res), up...)
		slices.Sort(b)
		bp := s.bracket(b, len(res))
		if bp == nil {
			// [C3] held for the whole bracket: this cannot happen.
			return nil, fmt.Errorf("the bracket of %d players found no pairing: %w", len(b), ErrUnpairable)
		}
		pairs = append(pairs, bp...)
		unpaired = slices.DeleteFunc(slices.Clone(unpaired), func(i int) bool { return slices.Contains(b, i) })
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
	out := make([]Pair, 0, len(pairs)+1)
	for _, p := range pairs {
		w, b := s.colours(p[0], p[1])
		out = append(out, Pair{White: s.pl[w].TPN, Black: s.pl[b].TPN})
	}
	if bye >= 0 {
		out = append(out, Pair{White: s.pl[bye].TPN})
	}
	return out, nil
}

func newState(in Input) (*state, error) {
	pl := slices.Clone(in.Players)
	seen := map[int]bool{}
	for _, p := range pl {
		if p.TPN < 1 {
			return nil, fmt.Errorf("player with TPN %d: a TPN is 1 or more", p.TPN)
		}
		if seen[p.TPN] {
			return nil, fmt.Errorf("TPN %d twice", p.TPN)
		}
		seen[p.TPN] = true
	}
	slices.SortFunc(pl, func(a, b Player) int {
		if a.Score != b.Score {
			return cmp.Compare(b.Score, a.Score)
		}
		return a.TPN - b.TPN
	})
	at := map[int]int{}
	for i, p := range pl {
		at[p.TPN] = i
	}
	met := make([][]bool, len(pl))
	for i := range met {
		met[i] = make([]bool, len(pl))
	}
	for i, p := range pl {
		for _, o := range p.Opponents {
			if j, ok := at[o]; ok && j != i {
				met[i][j], met[j][i] = true, true
			}
		}
	}
	return &state{in: in, pl: pl, met: met, last: in.LastRound}, nil
}

// perfect reports whether the players (indices) can all be paired by [C1].
func (s *state) perfect(set []int) bool {
	return s.m.perfect(len(set), func(i, j int) bool { return !s.met[set[i]][set[j]] })
}

// bye returns the player who gets the pairing-allocated bye (3.4), -1 if
// none may.
func (s *state) bye(all []int) int {
	var cands []int
	for _, i := range all {
		if !s.pl[i].NoBye {
			cands = append(cands, i)
		}
	}
	slices.SortFunc(cands, func(a, b int) int {
		pa, pb := s.pl[a], s.pl[b]
		if pa.Score != pb.Score {
			return cmp.Compare(pa.Score, pb.Score)
		}
		if pa.Matches != pb.Matches {
			return pb.Matches - pa.Matches
		}
		return pb.TPN - pa.TPN
	})
	for _, c := range cands {
		rest := slices.DeleteFunc(slices.Clone(all), func(i int) bool { return i == c })
		if s.perfect(rest) {
			return c
		}
	}
	return -1
}

// levels splits players in rank order into their scoregroups.
func (s *state) levels(low []int) [][]int {
	var lv [][]int
	for i, x := range low {
		if i == 0 || s.pl[x].Score != s.pl[low[i-1]].Score {
			lv = append(lv, nil)
		}
		lv[len(lv)-1] = append(lv[len(lv)-1], x)
	}
	return lv
}

// upfloaters chooses the upfloaters of the top scoregroup res from the
// players below it, low (3.5): the fewest ([C4]), the highest scores
// ([C5]), then the fewest the next scoregroup needs ([C6]), the fewest who
// floated ([C7]), the first in the regulation's order. The bracket and the
// players left must both be pairable ([C1], [C3]).
func (s *state) upfloaters(res, low []int) []int {
	lv := s.levels(low)
	for k := len(res) % 2; k <= len(low); k += 2 {
		var best []int
		bestC6, bestC7 := 0, 0
		found := false
		counts := make([]int, len(lv))
		// Profiles (how many from each scoregroup) from the highest scores:
		// lexicographically descending counts are descending score lists.
		var profile func(j, left int) bool
		profile = func(j, left int) bool {
			if j == len(lv) {
				if left > 0 {
					return false
				}
				s.sets(lv, counts, func(u []int) bool {
					b := append(slices.Clone(res), u...)
					rest := without(low, u)
					if !s.perfect(b) || !s.perfect(rest) {
						return false
					}
					c6, c7 := s.nextNeed(rest), s.floated(u)
					if !found || c6 < bestC6 || (c6 == bestC6 && c7 < bestC7) {
						best, bestC6, bestC7, found = slices.Clone(u), c6, c7, true
					}
					return c6 == 0 && c7 == 0
				})
				return found
			}
			for c := min(left, len(lv[j])); c >= 0; c-- {
				counts[j] = c
				if profile(j+1, left-c) {
					return true
				}
			}
			counts[j] = 0
			return false
		}
		if profile(0, k) {
			return best
		}
	}
	return slices.Clone(low) // [C3] holds for all: not reached
}

// floated counts the players who floated in the previous round ([C7]).
func (s *state) floated(u []int) int {
	if s.last {
		return 0
	}
	n := 0
	for _, x := range u {
		if s.pl[x].Floated {
			n++
		}
	}
	return n
}

// sets calls f with the sets of the profile counts in the regulation's
// order (3.5): each set listed by score descending then TPN, the sets
// compared position by position by TPN; f returns true to stop.
func (s *state) sets(lv [][]int, counts []int, f func([]int) bool) bool {
	u := make([]int, 0, 8)
	var level func(j int) bool
	level = func(j int) bool {
		if j == len(lv) {
			return f(u)
		}
		return combos(lv[j], counts[j], func(c []int) bool {
			n := len(u)
			u = append(u, c...)
			stop := level(j + 1)
			u = u[:n]
			return stop
		})
	}
	return level(0)
}

// combos calls f with the k-subsets of xs in lexicographic order of
// positions; f returns true to stop.
func combos(xs []int, k int, f func([]int) bool) bool {
	c := make([]int, 0, k)
	var rec func(from int) bool
	rec = func(from int) bool {
		if len(c) == k {
			return f(c)
		}
		for i := from; i <= len(xs)-(k-len(c)); i++ {
			c = append(c, xs[i])
			if rec(i + 1) {
				return true
			}
			c = c[:len(c)-1]
		}
		return false
	}
	return rec(0)
}

func without(xs, drop []int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if !slices.Contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

// nextNeed is [C6]: 0 when the top scoregroup of rest (the players left
// after the bracket, all pairable) can be paired with the fewest
// upfloaters its size allows (none when even, one when odd), else 1.
func (s *state) nextNeed(rest []int) int {
	if len(rest) == 0 {
		return 0
	}
	if s.need(rest) > 0 {
		return 1
	}
	return 0
}

// need is how many upfloaters more than its parity asks the top
// scoregroup of rest needs.
func (s *state) need(rest []int) int {
	g := 1
	for g < len(rest) && s.pl[rest[g]].Score == s.pl[rest[0]].Score {
		g++
	}
	res, low := rest[:g], rest[g:]
	// The parity's upfloaters first: usually the first set tried does.
	for k := g % 2; k <= len(low); k += 2 {
		ok := combos(low, k, func(u []int) bool {
			return s.perfect(append(slices.Clone(res), u...)) && s.perfect(without(low, u))
		})
		if ok {
			return k - g%2
		}
	}
	return len(low)
}
