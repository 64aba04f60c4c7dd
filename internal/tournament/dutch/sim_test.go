package dutch

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// The simulator plays random tournaments through PairRound, keeping the
// records a tournament program would (scores, colours, floats, opponents,
// byes), and checks each round's pairing.

type simPlayer struct {
	id          int
	score       int
	colours     []Colour
	floats      []Float
	opps        []int
	byeReceived bool
	pabs        int
	withdrawn   bool
}

type sim struct {
	rounds  int
	ps      []*simPlayer
	initial Colour
	stats   Stats
}

func newSim(n, rounds int, initial Colour) *sim {
	s := &sim{rounds: rounds, initial: initial}
	for i := 1; i <= n; i++ {
		s.ps = append(s.ps, &simPlayer{id: i})
	}
	return s
}

func (s *sim) input(round int, absent map[int]bool) Input {
	in := Input{Round: round, Rounds: s.rounds, InitialColour: s.initial}
	for _, p := range s.ps {
		in.Players = append(in.Players, Player{
			ID: p.id, Score: p.score, Colours: p.colours, Floats: p.floats,
			Opponents: p.opps, ByeReceived: p.byeReceived, Absent: p.withdrawn || absent[p.id],
			PairedBefore: round > 1,
		})
	}
	return in
}

type rng interface {
	IntN(n int) int
}

// play records a round: results drawn by r; absent players got the
// half-point bye when half is set for them.
func (s *sim) play(round int, pr Pairing, absent map[int]bool, half map[int]bool, r rng) {
	byID := map[int]*simPlayer{}
	for _, p := range s.ps {
		byID[p.id] = p
	}
	before := map[int]int{}
	for _, p := range s.ps {
		before[p.id] = p.score
	}
	done := map[int]bool{}
	for _, q := range pr.Pairs {
		w, b := byID[q.White], byID[q.Black]
		done[w.id], done[b.id] = true, true
		if r.IntN(40) == 0 { // a forfeit: no game, the winner scores
			win, lose := w, b
			if r.IntN(2) == 0 {
				win, lose = b, w
			}
			win.score += 2
			win.byeReceived = true // C2: a forfeit win bars the bye
			win.colours = append(win.colours, None)
			lose.colours = append(lose.colours, None)
			win.floats = append(win.floats, Down) // 1.4.3
			lose.floats = append(lose.floats, NoFloat)
			continue
		}
		switch r.IntN(3) {
		case 0:
			w.score += 2
		case 1:
			w.score++
			b.score++
		default:
			b.score += 2
		}
		w.colours = append(w.colours, White)
		b.colours = append(b.colours, Black)
		w.opps = append(w.opps, b.id)
		b.opps = append(b.opps, w.id)
		fw, fb := NoFloat, NoFloat
		switch {
		case before[w.id] > before[b.id]:
			fw, fb = Down, Up
		case before[w.id] < before[b.id]:
			fw, fb = Up, Down
		}
		w.floats = append(w.floats, fw)
		b.floats = append(b.floats, fb)
	}
	for _, p := range s.ps {
		if done[p.id] {
			continue
		}
		p.colours = append(p.colours, None)
		switch {
		case p.id == pr.Bye:
			p.score += 2
			p.byeReceived = true
			p.pabs++
			p.floats = append(p.floats, Down)
		case half[p.id] && !p.withdrawn:
			p.score++
			p.floats = append(p.floats, Down) // 1.4.3: more than a loss
		default:
			p.floats = append(p.floats, NoFloat)
		}
	}
}

// check verifies one round's pairing against the absolute rules.
func (s *sim) check(round int, in Input, pr Pairing) error {
	active := map[int]bool{}
	for _, p := range in.Players {
		if !p.Absent {
			active[p.ID] = true
		}
	}
	byID := map[int]*simPlayer{}
	for _, p := range s.ps {
		byID[p.id] = p
	}
	seen := map[int]bool{}
	mark := func(id int) error {
		if !active[id] {
			return fmt.Errorf("round %d: player %d is not to be paired", round, id)
		}
		if seen[id] {
			return fmt.Errorf("round %d: player %d paired twice", round, id)
		}
		seen[id] = true
		return nil
	}
	lastRound := round == s.rounds
	top := func(id int) bool { return lastRound && 2*byID[id].score > 2*(round-1) }
	for _, q := range pr.Pairs {
		if err := mark(q.White); err != nil {
			return err
		}
		if err := mark(q.Black); err != nil {
			return err
		}
		for _, o := range byID[q.White].opps {
			if o == q.Black {
				return fmt.Errorf("round %d: rematch %d-%d (C1)", round, q.White, q.Black)
			}
		}
		if top(q.White) || top(q.Black) {
			continue // C3 does not bind topscorers in the last round
		}
		for _, g := range []struct {
			id int
			c  Colour
		}{{q.White, White}, {q.Black, Black}} {
			h := append(append([]Colour(nil), byID[g.id].colours...), g.c)
			cd, _, _ := preference(h)
			if cd > 2 || cd < -2 {
				return fmt.Errorf("round %d: player %d colour difference %d (C3)", round, g.id, cd)
			}
			var played []Colour
			for _, c := range h {
				if c != None {
					played = append(played, c)
				}
			}
			if n := len(played); n >= 3 && played[n-1] == played[n-2] && played[n-2] == played[n-3] {
				return fmt.Errorf("round %d: player %d same colour three times (C3)", round, g.id)
			}
		}
	}
	if pr.Bye != 0 {
		if err := mark(pr.Bye); err != nil {
			return err
		}
		if byID[pr.Bye].byeReceived {
			return fmt.Errorf("round %d: bye to %d who had a bye or forfeit win (C2)", round, pr.Bye)
		}
	}
	if len(seen) != len(active) {
		return fmt.Errorf("round %d: %d of %d players paired", round, len(seen), len(active))
	}
	if len(active)%2 == 1 && pr.Bye == 0 || len(active)%2 == 0 && pr.Bye != 0 {
		return fmt.Errorf("round %d: bye %d with %d players", round, pr.Bye, len(active))
	}
	return nil
}

// runSim plays a whole tournament, checking every round.
func runSim(n, rounds int, r rng, absentRate int, check func(round int, in Input, pr Pairing) error) (*sim, error) {
	initial := White
	if r.IntN(2) == 0 {
		initial = Black
	}
	s := newSim(n, rounds, initial)
	for round := 1; round <= rounds; round++ {
		absent, half := map[int]bool{}, map[int]bool{}
		for _, p := range s.ps {
			if p.withdrawn {
				continue
			}
			if absentRate > 0 && r.IntN(absentRate) == 0 {
				if r.IntN(4) == 0 {
					p.withdrawn = true
				} else {
					absent[p.id] = true
					half[p.id] = r.IntN(2) == 0
				}
			}
		}
		in := s.input(round, absent)
		pr, st, err := PairRoundStats(in)
		s.stats.Nodes += st.Nodes
		s.stats.BudgetHits += st.BudgetHits
		s.stats.Collapsed += st.Collapsed
		s.stats.Brackets += st.Brackets
		s.stats.ExactC7 += st.ExactC7
		s.stats.BestC7 += st.BestC7
		s.stats.NodeC7 += st.NodeC7
		s.stats.C7Approx += st.C7Approx
		if err == ErrNoPairing {
			return s, nil // possible late in small events: nothing left to check
		}
		if err != nil {
			return s, fmt.Errorf("round %d: %w", round, err)
		}
		if err := s.check(round, in, pr); err != nil {
			return s, err
		}
		if check != nil {
			if err := check(round, in, pr); err != nil {
				return s, err
			}
		}
		s.play(round, pr, absent, half, r)
	}
	for _, p := range s.ps {
		if p.pabs > 1 {
			return s, fmt.Errorf("player %d had %d pairing-allocated byes", p.id, p.pabs)
		}
	}
	return s, nil
}

func TestPropertiesRandomTournaments(t *testing.T) {
	var total Stats
	runs := 0
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(7, 60).Draw(rt, "players")
		rounds := rapid.IntRange(5, 9).Draw(rt, "rounds")
		seed := rapid.Uint64().Draw(rt, "seed")
		r := rand.New(rand.NewPCG(seed, 10))
		s, err := runSim(n, rounds, r, 25, nil)
		if err != nil {
			rt.Fatalf("%d players, %d rounds, seed %d: %v", n, rounds, seed, err)
		}
		runs++
		total.Nodes += s.stats.Nodes
		total.BudgetHits += s.stats.BudgetHits
		total.Collapsed += s.stats.Collapsed
		total.Brackets += s.stats.Brackets
	})
	t.Logf("%d tournaments, %d brackets, %d search nodes, %d budget cuts, %d collapsed last brackets",
		runs, total.Brackets, total.Nodes, total.BudgetHits, total.Collapsed)
}

// TestThousandsOfTournaments plays 2,000 random events (500 with -short)
// of 7-60 players and 5-9 rounds with draws, forfeits, half- and zero-point
// byes and withdrawals, checking every round as above.
func TestThousandsOfTournaments(t *testing.T) {
	count := 2000
	if testing.Short() {
		count = 500
	}
	var total Stats
	for i := range count {
		r := rand.New(rand.NewPCG(uint64(i), 99))
		n := 7 + r.IntN(54)
		rounds := 5 + r.IntN(5)
		s, err := runSim(n, rounds, r, 25, nil)
		if err != nil {
			t.Fatalf("event %d (%d players, %d rounds): %v", i, n, rounds, err)
		}
		total.Brackets += s.stats.Brackets
		total.BudgetHits += s.stats.BudgetHits
		total.Collapsed += s.stats.Collapsed
		total.ExactC7 += s.stats.ExactC7
		total.BestC7 += s.stats.BestC7
		total.NodeC7 += s.stats.NodeC7
		total.C7Approx += s.stats.C7Approx
	}
	t.Logf("%d events, %d brackets, %d budget cuts, %d collapsed last brackets; C7/C8 within complete pairings: %d downfloater sets by matching, %d searches bounded, %d nodes bounded",
		count, total.Brackets, total.BudgetHits, total.Collapsed, total.ExactC7, total.BestC7, total.NodeC7)
	if total.BudgetHits > 0 {
		t.Errorf("%d brackets cut by the search budget: their pairing may not be the rules' best", total.BudgetHits)
	}
	if total.C7Approx > 0 {
		t.Errorf("%d downfloater sets kept the next bracket's own C7/C8: the budget of those matchings ran out", total.C7Approx)
	}
}
