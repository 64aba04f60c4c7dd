package teamswiss

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The reference: Articles 3.4-3.6 as written, by enumeration. It shares
// no search with the engine: every legal pairing, every upfloater set and
// every bracket pairing is listed and the rules' order applied to the list.

type refTeam struct {
	Team
	pref   Colour
	strong bool
}

type ref struct {
	in      Input
	lastTwo bool
}

func (r ref) met(a, b refTeam) bool { return slices.Contains(a.Opponents, b.ID) }

// matchings lists every pairing of ts that complies with [C1].
func (r ref) matchings(ts []refTeam) [][][2]refTeam {
	if len(ts) == 0 {
		return [][][2]refTeam{nil}
	}
	if len(ts)%2 == 1 {
		return nil
	}
	var out [][][2]refTeam
	for i := 1; i < len(ts); i++ {
		if r.met(ts[0], ts[i]) {
			continue
		}
		rest := append(slices.Clone(ts[1:i]), ts[i+1:]...)
		for _, m := range r.matchings(rest) {
			out = append(out, append([][2]refTeam{{ts[0], ts[i]}}, m...))
		}
	}
	return out
}

func (r ref) legal(ts []refTeam) bool { return len(r.matchings(ts)) > 0 }

func without(ts []refTeam, drop func(refTeam) bool) []refTeam {
	var out []refTeam
	for _, t := range ts {
		if !drop(t) {
			out = append(out, t)
		}
	}
	return out
}

func ids(ts []refTeam) map[int]bool {
	m := map[int]bool{}
	for _, t := range ts {
		m[t.ID] = true
	}
	return m
}

// brackets returns the top-scoregroup of rest, the candidates below, and
// every set of k candidates (by bitmask) that leaves bracket and rest legal.
func (r ref) legalSets(rest []refTeam, k int) (top []refTeam, sets [][]refTeam) {
	hi := rest[0].Primary
	for _, t := range rest {
		hi = max(hi, t.Primary)
	}
	var cands []refTeam
	for _, t := range rest {
		if t.Primary == hi {
			top = append(top, t)
		} else {
			cands = append(cands, t)
		}
	}
	for mask := 0; mask < 1<<len(cands); mask++ {
		var set []refTeam
		for i, c := range cands {
			if mask&(1<<i) != 0 {
				set = append(set, c)
			}
		}
		if len(set) != k {
			continue
		}
		br := append(slices.Clone(top), set...)
		in := ids(br)
		if r.legal(br) && r.legal(without(rest, func(t refTeam) bool { return in[t.ID] })) {
			sets = append(sets, set)
		}
	}
	return top, sets
}

func (r ref) minK(rest []refTeam) int {
	for k := 0; k <= len(rest); k++ {
		if _, sets := r.legalSets(rest, k); len(sets) > 0 {
			return k
		}
	}
	return len(rest)
}

func ascScores(set []refTeam) []int {
	var v []int
	for _, t := range set {
		v = append(v, t.Primary)
	}
	slices.Sort(v)
	return v
}

func order354(set []refTeam) []int {
	s := slices.Clone(set)
	slices.SortFunc(s, func(a, b refTeam) int {
		if a.Primary != b.Primary {
			return b.Primary - a.Primary
		}
		return a.ID - b.ID
	})
	var v []int
	for _, t := range s {
		v = append(v, t.ID)
	}
	return v
}

func (r ref) pair() (pairs map[[2]int]bool, bye int, err error) {
	var ts []refTeam
	for _, t := range r.in.Teams {
		if t.Absent {
			continue
		}
		p, s, _, _ := preference(t.Colours, r.in.Preferences, r.in.Rounds > 0 && r.in.Round == r.in.Rounds)
		ts = append(ts, refTeam{t, p, s})
	}
	slices.SortFunc(ts, func(a, b refTeam) int { return a.ID - b.ID })
	if len(ts)%2 == 1 {
		c := slices.Clone(ts)
		slices.SortFunc(c, func(a, b refTeam) int {
			if a.Primary != b.Primary {
				return a.Primary - b.Primary
			}
			if a.Matches != b.Matches {
				return b.Matches - a.Matches
			}
			return b.ID - a.ID
		})
		for _, t := range c {
			if !t.ByeBarred && r.legal(without(ts, func(x refTeam) bool { return x.ID == t.ID })) {
				bye = t.ID
				break
			}
		}
		if bye == 0 {
			return nil, 0, ErrNoPairing
		}
		ts = without(ts, func(x refTeam) bool { return x.ID == bye })
	}
	if !r.legal(ts) {
		return nil, 0, ErrNoPairing
	}
	pairs = map[[2]int]bool{}
	rest := ts
	for len(rest) > 0 {
		var top, best []refTeam
		for k := 0; k <= len(rest); k++ {
			t, sets := r.legalSets(rest, k)
			if len(sets) == 0 {
				continue
			}
			top = t
			// [C5]: the best ascending score list.
			bestAsc := ascScores(sets[0])
			for _, s := range sets {
				if slices.Compare(ascScores(s), bestAsc) > 0 {
					bestAsc = ascScores(s)
				}
			}
			hi := -1 << 30
			for _, c := range rest {
				if !slices.ContainsFunc(top, func(x refTeam) bool { return x.ID == c.ID }) {
					hi = max(hi, c.Primary)
				}
			}
			type key struct {
				c6, c7 int
				ord    []int
				set    []refTeam
			}
			var keys []key
			for _, s := range sets {
				if slices.Compare(ascScores(s), bestAsc) != 0 {
					continue
				}
				in := ids(append(slices.Clone(top), s...))
				next := without(rest, func(x refTeam) bool { return in[x.ID] })
				c6 := 0
				left := 0
				for _, x := range next {
					if x.Primary == hi {
						left++
					}
				}
				if left > 0 {
					c6 = r.minK(next) - left%2
				}
				c7 := 0
				for _, x := range s {
					if x.Floated && !r.lastTwo {
						c7++
					}
				}
				keys = append(keys, key{c6, c7, order354(s), s})
			}
			b := slices.MinFunc(keys, func(a, b key) int {
				if a.c6 != b.c6 {
					return a.c6 - b.c6
				}
				if a.c7 != b.c7 {
					return a.c7 - b.c7
				}
				return slices.Compare(a.ord, b.ord)
			})
			best = b.set
			break
		}
		bracket := append(slices.Clone(top), best...)
		slices.SortFunc(bracket, func(a, b refTeam) int { return a.ID - b.ID })
		up := ids(best)
		type cand struct {
			c  [3]int
			id []int
			m  [][2]refTeam
		}
		var cs []cand
		for _, m := range r.matchings(bracket) {
			var c [3]int
			var tops, bots []int
			ps := slices.Clone(m)
			slices.SortFunc(ps, func(a, b [2]refTeam) int { return min(a[0].ID, a[1].ID) - min(b[0].ID, b[1].ID) })
			for _, p := range ps {
				a, b := p[0], p[1]
				tops = append(tops, min(a.ID, b.ID))
				bots = append(bots, max(a.ID, b.ID))
				if a.pref != None && a.pref == b.pref {
					c[0]++
					if r.in.Preferences == TypeB && a.strong && b.strong {
						c[1]++
					}
				}
				if !r.lastTwo {
					if up[a.ID] && b.Floated {
						c[2]++
					}
					if up[b.ID] && a.Floated {
						c[2]++
					}
				}
			}
			cs = append(cs, cand{c, append(tops, bots...), m})
		}
		ch := slices.MinFunc(cs, func(a, b cand) int {
			if x := slices.Compare(a.c[:], b.c[:]); x != 0 {
				return x
			}
			return slices.Compare(a.id, b.id)
		})
		for _, p := range ch.m {
			pairs[[2]int{min(p[0].ID, p[1].ID), max(p[0].ID, p[1].ID)}] = true
		}
		in := ids(bracket)
		rest = without(rest, func(x refTeam) bool { return in[x.ID] })
	}
	return pairs, bye, nil
}

// sim plays random events through the engine.
type sim struct {
	boards int
	teams  []Team
	rnd    *rand.Rand
}

func newSim(n, boards int, rnd *rand.Rand) *sim {
	s := &sim{boards: boards, rnd: rnd}
	for i := range n {
		s.teams = append(s.teams, Team{ID: i + 1})
	}
	return s
}

// input is the next round's input; absent teams are drawn at random.
func (s *sim) input(round, rounds int, typ PreferenceType) Input {
	in := Input{Round: round, Rounds: rounds, InitialColour: White, Preferences: typ}
	for _, t := range s.teams {
		t.Absent = s.rnd.IntN(12) == 0
		t.Colours = slices.Clone(t.Colours)
		t.Opponents = slices.Clone(t.Opponents)
		in.Teams = append(in.Teams, t)
	}
	return in
}

// play records a round: results at random, now and then a match lost by
// forfeit as a whole (no meeting, the winner barred from the bye).
func (s *sim) play(in Input, p Pairing) {
	byID := map[int]*Team{}
	for i := range s.teams {
		byID[s.teams[i].ID] = &s.teams[i]
	}
	before := map[int]int{}
	for _, t := range s.teams {
		before[t.ID] = t.Primary
	}
	done := map[int]bool{}
	for _, m := range p.Matches {
		w, b := byID[m.White], byID[m.Black]
		done[w.ID], done[b.ID] = true, true
		if s.rnd.IntN(15) == 0 {
			w.Colours, b.Colours = append(w.Colours, None), append(b.Colours, None)
			w.Floated, b.Floated = false, false
			w.Primary += 4
			w.Secondary += 2 * s.boards
			w.ByeBarred = true
			w.PairedBefore, b.PairedBefore = true, true
			continue
		}
		gp := s.rnd.IntN(2*s.boards + 1) // White's game points in halves
		bp := 2*s.boards - gp
		switch {
		case gp > bp:
			w.Primary += 4
		case gp < bp:
			b.Primary += 4
		default:
			w.Primary += 2
			b.Primary += 2
		}
		w.Secondary += gp
		b.Secondary += bp
		w.Colours, b.Colours = append(w.Colours, White), append(b.Colours, Black)
		w.Opponents, b.Opponents = append(w.Opponents, b.ID), append(b.Opponents, w.ID)
		w.Matches++
		b.Matches++
		fl := before[w.ID] != before[b.ID]
		w.Floated, b.Floated = fl, fl
		w.PairedBefore, b.PairedBefore = true, true
	}
	for i := range s.teams {
		t := &s.teams[i]
		if done[t.ID] {
			continue
		}
		t.Colours = append(t.Colours, None)
		t.Floated = false
		if t.ID == p.Bye {
			t.Primary += 2
			t.Secondary += s.boards
			t.ByeBarred = true
			t.PairedBefore = true
		}
	}
}

func TestReference(t *testing.T) {
	events := 300
	if testing.Short() {
		events = 60
	}
	rnd := rand.New(rand.NewPCG(28, 6))
	rounds, diffs := 0, 0
	for ev := range events {
		n := 3 + rnd.IntN(8)
		nr := 3 + rnd.IntN(5)
		typ := PreferenceType(rnd.IntN(3))
		s := newSim(n, 4, rnd)
		for r := 1; r <= nr; r++ {
			in := s.input(r, nr, typ)
			got, err := PairRound(in)
			wantPairs, wantBye, werr := ref{in: in, lastTwo: r >= nr-1}.pair()
			if (err != nil) != (werr != nil) {
				t.Fatalf("event %d round %d: engine %v, reference %v", ev, r, err, werr)
			}
			if err != nil {
				break
			}
			rounds++
			gotPairs := map[[2]int]bool{}
			for _, m := range got.Matches {
				gotPairs[[2]int{min(m.White, m.Black), max(m.White, m.Black)}] = true
			}
			if got.Bye != wantBye || fmt.Sprint(gotPairs) != fmt.Sprint(wantPairs) {
				diffs++
				if diffs < 5 {
					t.Errorf("event %d round %d: engine %v bye %d, reference %v bye %d\ninput %+v", ev, r, gotPairs, got.Bye, wantPairs, wantBye, in)
				}
			}
			checkRound(t, in, got)
			s.play(in, got)
		}
	}
	t.Logf("%d rounds compared, %d differences", rounds, diffs)
}

// checkRound checks the invariants of a round: each team present paired
// once or the bye, no rematch, the bye to a team [C2] allows.
func checkRound(t *testing.T, in Input, p Pairing) {
	t.Helper()
	seen := map[int]bool{}
	byID := map[int]Team{}
	present := 0
	for _, tm := range in.Teams {
		byID[tm.ID] = tm
		if !tm.Absent {
			present++
		}
	}
	mark := func(id int) {
		tm, ok := byID[id]
		if !ok || tm.Absent || seen[id] {
			t.Fatalf("round %d: team %d paired wrongly (%+v)", in.Round, id, p)
		}
		seen[id] = true
	}
	for _, m := range p.Matches {
		mark(m.White)
		mark(m.Black)
		if slices.Contains(byID[m.White].Opponents, m.Black) {
			t.Fatalf("round %d: %d and %d meet again", in.Round, m.White, m.Black)
		}
	}
	if p.Bye != 0 {
		mark(p.Bye)
		if byID[p.Bye].ByeBarred {
			t.Fatalf("round %d: bye to %d, barred by [C2]", in.Round, p.Bye)
		}
	}
	if len(seen) != present || (present%2 == 1) != (p.Bye != 0) {
		t.Fatalf("round %d: %d of %d teams paired, bye %d", in.Round, len(seen), present, p.Bye)
	}
}
