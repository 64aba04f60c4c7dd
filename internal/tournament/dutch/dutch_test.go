package dutch

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// hist reads a colour history: W, B, or - for a round without a game.
func hist(s string) []Colour {
	var h []Colour
	for _, r := range s {
		switch r {
		case 'W':
			h = append(h, White)
		case 'B':
			h = append(h, Black)
		default:
			h = append(h, None)
		}
	}
	return h
}

func pp(id, score int, colours string, opps ...int) Player {
	return Player{ID: id, Score: score, Colours: hist(colours), Opponents: opps}
}

func withFloats(p Player, f ...Float) Player { p.Floats = f; return p }

func noBye(p Player) Player { p.ByeReceived = true; return p }

// The worked examples: each is checked by hand against the rules' text; the
// comment gives the steps and the articles they apply (C.04.3, 2025 text,
// with the 2017 letter numbering the criteria keep).
func TestWorkedExamples(t *testing.T) {
	tests := []struct {
		name string
		in   Input
		want string
	}{
		{
			// Round 1: one homogeneous bracket (1.3), S1 = 1-3, S2 = 4-6
			// (B.2), the identity transposition is perfect (D.1). Colours
			// E.5: the higher-ranked player of a board gets the initial
			// colour when his pairing number is odd: 1 and 3 White, 2 Black.
			name: "round 1, even",
			in: Input{Round: 1, Rounds: 5, InitialColour: White, Players: []Player{
				pp(1, 0, ""), pp(2, 0, ""), pp(3, 0, ""), pp(4, 0, ""), pp(5, 0, ""), pp(6, 0, ""),
			}},
			want: "3\n1 4\n5 2\n3 6\n",
		},
		{
			// Round 1, odd: MaxPairs 3 (B.1), S1 = 1-3, S2 = 4-7; 7 stays
			// unpaired and receives the pairing-allocated bye (1.5, C.04.1).
			// Initial colour Black: 1 (odd) Black, 2 (even) White, 3 Black.
			name: "round 1, odd, initial colour black",
			in: Input{Round: 1, Rounds: 5, InitialColour: Black, Players: []Player{
				pp(1, 0, ""), pp(2, 0, ""), pp(3, 0, ""), pp(4, 0, ""), pp(5, 0, ""), pp(6, 0, ""), pp(7, 0, ""),
			}},
			want: "4\n4 1\n2 5\n6 3\n7 0\n",
		},
		{
			// Round 2 after 1-5, 6-2, 3-7, 8-4 won by 1-4. Scoregroup 1:
			// {1,2,3,4}, S1 = {1,2}, S2 = {3,4}. The identity 1-3, 2-4 gives
			// two players without their colour (1 and 3 both want Black,
			// C12); the next transposition (D.1) 1-4, 2-3 grants all, so it
			// is perfect. The same in scoregroup 0: 5-8, 6-7. Colours by E.1.
			name: "round 2, transposition for colours",
			in: Input{Round: 2, Rounds: 5, InitialColour: White, Players: []Player{
				pp(1, 2, "W", 5), pp(2, 2, "B", 6), pp(3, 2, "W", 7), pp(4, 2, "B", 8),
				pp(5, 0, "B", 1), pp(6, 0, "W", 2), pp(7, 0, "B", 3), pp(8, 0, "W", 4),
			}},
			want: "4\n4 1\n2 3\n5 8\n7 6\n",
		},
		{
			// A homogeneous bracket S1 = {1,2,3}, S2 = {4,5,6} where 1 has
			// met 4, 5 and 6 (C1): no transposition pairs 1. Exchanges by
			// D.2: one player each way first, the smallest difference of
			// BSN sums first: 3<->4 (difference 1) gives S1 = {1,2,4},
			// S2 = {3,5,6}: 1-3, 2-5, 4-6. Everyone wants White (mild), so
			// every candidate leaves three without their colour: the first
			// is the best (B.8). E.4: the higher-ranked gets his colour.
			name: "exchange, smallest BSN difference first",
			in: Input{Round: 3, Rounds: 5, Players: []Player{
				pp(1, 2, "WB", 4, 5, 6), pp(2, 2, "WB", 11, 12), pp(3, 2, "WB", 13, 14),
				pp(4, 2, "WB", 1, 15), pp(5, 2, "WB", 1, 16), pp(6, 2, "WB", 1, 18),
				pp(7, 0, "WB", 19, 20), pp(8, 0, "WB", 21, 22),
			}},
			want: "4\n1 3\n2 5\n4 6\n7 8\n",
		},
		{
			// As above but 1 has also met 3: 3<->4 fails, so does 3<->5
			// (difference 2, and D.2's third rule puts the exchange moving
			// the larger BSN, 3, from S1 first); 2<->4 (difference 2) gives
			// S1 = {1,3,4}, S2 = {2,5,6}: 1-2, 3-5, 4-6.
			name: "exchange, largest BSN from S1 first",
			in: Input{Round: 3, Rounds: 5, Players: []Player{
				pp(1, 2, "WB", 3, 4, 5, 6), pp(2, 2, "WB", 11, 12), pp(3, 2, "WB", 1, 14),
				pp(4, 2, "WB", 1, 15), pp(5, 2, "WB", 1, 16), pp(6, 2, "WB", 1, 18),
				pp(7, 0, "WB", 19, 20), pp(8, 0, "WB", 21, 22),
			}},
			want: "4\n1 2\n3 5\n4 6\n7 8\n",
		},
		{
			// Three scoregroups {1} (2 points), {2,3,4,5} (1), {6} (0).
			// 1 floats down (1.4.1) and is the MDP of the next bracket: S1 =
			// {1}, S2 = the residents (B.2); 1-2 grants both colours, the
			// remainder {3,4,5} pairs 3-4 and 5 floats to the last bracket:
			// 5-6.
			name: "moved-down player, remainder",
			in: Input{Round: 3, Rounds: 5, Players: []Player{
				pp(1, 4, "WB", 11, 12), pp(2, 2, "BW", 13, 14), pp(3, 2, "BW", 15, 16),
				pp(4, 2, "WB", 17, 18), pp(5, 2, "WB", 19, 20), pp(6, 0, "BW", 21, 22),
			}},
			want: "3\n1 2\n4 3\n5 6\n",
		},
		{
			// The same, but 2 received an upfloat last round: 1-2 would give
			// him the same upfloat again (C15). The next transposition of the
			// MDP-pairing (D.1), 1-3, satisfies every criterion up to C15 and
			// is chosen; the remainder {2,4,5} pairs 2-4.
			name: "upfloat of the previous round avoided (C15)",
			in: Input{Round: 3, Rounds: 5, Players: []Player{
				pp(1, 4, "WB", 11, 12), withFloats(pp(2, 2, "BW", 13, 14), NoFloat, Up), pp(3, 2, "BW", 15, 16),
				pp(4, 2, "WB", 17, 18), pp(5, 2, "WB", 19, 20), pp(6, 0, "BW", 21, 22),
			}},
			want: "3\n1 3\n4 2\n5 6\n",
		},
		{
			// Round 2 after 1-3 and 4-2 (won by 1 and 2) and the bye to 5,
			// which counts as a downfloat (1.4.3). Bracket {1,2,5}: 1-2 would
			// float 5 down again (C14); 1-5 floats 2, who had no float, so it
			// wins. Last bracket: MDP 2 meets 3 (not 4, met in round 1, C1)
			// and 4 gets the bye. 2 and 3 both want White strongly: neither
			// E.2 nor E.3 decides, E.4 gives it to the higher-ranked 2.
			name: "downfloat of the previous round avoided (C14), bye",
			in: Input{Round: 2, Rounds: 5, Players: []Player{
				pp(1, 2, "W", 3), pp(2, 2, "B", 4), pp(3, 0, "B", 1), pp(4, 0, "W", 2),
				withFloats(noBye(pp(5, 2, "-")), Down),
			}},
			want: "3\n5 1\n2 3\n4 0\n",
		},
		{
			// Completion (C4): bracket {1,2,3} and the last bracket {4}, who
			// has met 2 and 3. 1-2 leaves 3, who cannot meet 4; 1-3 leaves 2,
			// the same. The exchange 1<->2 (D.2) gives S1 = {2}, S2 = {1,3}:
			// 2-1 is 1-2 again, 2-3 leaves 1 for 4. Colours: 3 wants White,
			// 2 Black (E.1); 1 White, 4 Black.
			name: "completion of the round decides the downfloater (C4)",
			in: Input{Round: 3, Rounds: 5, Players: []Player{
				pp(1, 2, "WB", 9, 10), pp(2, 2, "BW", 4, 11), pp(3, 2, "WB", 4, 12), pp(4, 0, "BW", 2, 3),
			}},
			want: "2\n3 2\n1 4\n",
		},
		{
			// Last round (1.7): 1 and 2 are topscorers, both with an
			// absolute preference for White (1: Black twice running, 2: a
			// colour difference of -2). C3 does not bind topscorers, so they
			// meet (C5); E.2 gives White to the wider colour difference, 2.
			name: "topscorers meet in the last round, wider colour difference",
			in: Input{Round: 4, Rounds: 4, Players: []Player{
				pp(1, 6, "WBB", 11, 12, 13), pp(2, 6, "B-B", 14, 15), pp(3, 2, "WBW", 16, 17, 18), pp(4, 2, "BWB", 19, 20, 21),
			}},
			want: "2\n2 1\n4 3\n",
		},
		{
			// The same before the last round: no topscorers, so 1 and 2 may
			// not meet (C3) and both float into {3,4} (S1 = {1,2}). 1-3, 2-4
			// and 1-4, 2-3 each leave one player without his colour (C12)
			// and one strong preference unmet (C13): the first, 1-3, 2-4, is
			// taken (B.8). 2 (absolute) beats 4 (strong) to White (E.2).
			name: "no topscorers before the last round (C3)",
			in: Input{Round: 4, Rounds: 5, Players: []Player{
				pp(1, 6, "WBB", 11, 12, 13), pp(2, 6, "B-B", 14, 15), pp(3, 2, "WBW", 16, 17, 18), pp(4, 2, "BWB", 19, 20, 21),
			}},
			want: "2\n1 3\n2 4\n",
		},
		{
			// bbpPairings' test dutch_2025_C5: the last round, 4 absent.
			// The bye goes to a player of the lowest score that still lets
			// the round be completed: 6 (0 points). Then 1-3 in the top
			// bracket would leave 2 and 5, who have met: both float (C4),
			// and the bracket {1,3 | 2,5} pairs 1-5, 3-2.
			name: "the bye to the lowest score first (bbpPairings dutch_2025_C5)",
			in: Input{Round: 3, Rounds: 3, InitialColour: White, Players: []Player{
				pp(1, 4, "WB", 4, 2), pp(2, 2, "BW", 5, 1), withFloats(pp(3, 4, "WB", 6, 4), NoFloat, Down),
				{ID: 4, Colours: hist("BW"), Opponents: []int{1, 3}, Floats: []Float{NoFloat, Up}, Absent: true},
				pp(5, 2, "WB", 2, 6), pp(6, 0, "BW", 3, 5),
			}},
			want: "3\n1 5\n3 2\n6 0\n",
		},
		{
			// bbpPairings' test dutch_2025_C9: of the players with no point,
			// 5 has an unplayed game (a zero-point bye), so the bye goes to
			// 4 (C9: fewest unplayed games), 3 meets 5.
			name: "the bye to the one with fewer unplayed games (bbpPairings dutch_2025_C9)",
			in: Input{Round: 2, Rounds: 3, InitialColour: White, Players: []Player{
				pp(1, 2, "W", 3), pp(2, 2, "B", 4), pp(3, 0, "B", 1), pp(4, 0, "W", 2), pp(5, 0, "-"),
			}},
			want: "3\n2 1\n3 5\n4 0\n",
		},
		{
			// C9 where the bye is decided above the last bracket: 4 and 5
			// have had the bye (C2), so it goes to a player of the top
			// scoregroup {1, 2, 3}, its one downfloater. The rules' order
			// would pair 1-2 and float 3, but 3 lost round 1 by forfeit
			// (an unplayed game) and 2 has none: C9 (before the colours)
			// floats 2, who gets the bye; 3 (W due) meets 1, 4 meets 5.
			name: "C9 chooses the bye's receiver in the bracket he floats from",
			in: Input{Round: 4, Rounds: 5, InitialColour: White, Players: []Player{
				pp(1, 4, "WBW", 6, 7, 8), pp(2, 4, "BWB", 9, 10, 11), pp(3, 4, "-WB", 12, 13),
				noBye(pp(4, 2, "W-B", 14, 15)), noBye(pp(5, 2, "B-W", 16, 17)),
			}},
			want: "3\n3 1\n4 5\n2 0\n",
		},
		{
			// E.5 in round 1 with player 2 away (a requested bye): the
			// pairing numbers E.5 alternates on are those of the players
			// paired, so 3 is the second (Black), 4 the third (White), as
			// the endorsed programs give them.
			name: "E.5 counts the players paired",
			in: Input{Round: 1, Rounds: 5, InitialColour: White, Players: []Player{
				pp(1, 0, ""), {ID: 2, Absent: true}, pp(3, 0, ""), pp(4, 0, ""), pp(5, 0, ""),
				pp(6, 0, ""), pp(7, 0, ""), pp(8, 0, ""), pp(9, 0, ""),
			}},
			want: "4\n1 6\n7 3\n4 8\n9 5\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := PairRound(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := Format(p); got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
		})
	}
}

func TestFormatRoundTrip(t *testing.T) {
	p := Pairing{Pairs: []Pair{{4, 1}, {2, 5}, {6, 3}}, Bye: 7}
	s := Format(p)
	if s != "4\n4 1\n2 5\n6 3\n7 0\n" {
		t.Fatalf("Format: %q", s)
	}
	q, err := ParseFormat(s)
	if err != nil {
		t.Fatal(err)
	}
	if Format(q) != s {
		t.Errorf("round trip: %q", Format(q))
	}
	for _, bad := range []string{"2\n1 2\n", "x\n", "1\n1\n", "2\n1 0\n2 0\n"} {
		if _, err := ParseFormat(bad); err == nil {
			t.Errorf("ParseFormat(%q): no error", bad)
		}
	}
}

func TestNoPairingPossible(t *testing.T) {
	// Two players who have met: no pairing satisfies C1.
	_, err := PairRound(Input{Round: 2, Rounds: 3, Players: []Player{pp(1, 2, "W", 2), pp(2, 0, "B", 1)}})
	if err != ErrNoPairing {
		t.Fatalf("err = %v", err)
	}
	if _, err := PairRound(Input{Round: 1, Players: []Player{pp(1, 0, ""), pp(1, 0, "")}}); err == nil {
		t.Error("duplicate ID accepted")
	}
}

// The pruned search must choose what the exhaustive one does: the best
// candidate by the criteria, the earliest in the rules' order among equals.
func TestPruningMatchesExhaustiveSearch(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(7, 12).Draw(rt, "players")
		seed := rapid.Uint64().Draw(rt, "seed")
		r := rand.New(rand.NewPCG(seed, 3))
		_, err := runSim(n, 5, r, 20, func(round int, in Input, pr Pairing) error {
			e := prepared(in)
			e.exhaustive = true
			pairs, bye, err := e.run()
			if err != nil {
				return err
			}
			want := Pairing{Pairs: e.boards(pairs)}
			if bye >= 0 {
				want.Bye = e.ps[bye].id
			}
			if Format(want) != Format(pr) {
				rt.Fatalf("round %d: pruned\n%sexhaustive\n%s", round, Format(pr), Format(want))
			}
			return nil
		})
		if err != nil {
			rt.Fatal(err)
		}
	})
}

// C5 with C4 against a brute force, bracket by bracket: with the pairs of
// the higher brackets as made, each bracket makes as many pairs (MDPs with
// residents, residents among themselves) as any complete pairing of the
// players left can.
func TestEachBracketPairsAsManyAsPossible(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(7, 12).Draw(rt, "players")
		seed := rapid.Uint64().Draw(rt, "seed")
		r := rand.New(rand.NewPCG(seed, 5))
		_, err := runSim(n, 6, r, 30, func(round int, in Input, pr Pairing) error {
			e := prepared(in)
			idx := map[int]int{}
			for i, p := range e.ps {
				idx[p.id] = i
			}
			lowScore := func(q Pair) int { return min(e.ps[idx[q.White]].score, e.ps[idx[q.Black]].score) }
			var scores []int
			for i, p := range e.ps {
				if i == 0 || p.score != e.ps[i-1].score {
					scores = append(scores, p.score)
				}
			}
			for _, s := range scores {
				// Players left when the bracket of score s is paired.
				gone := map[int]bool{}
				got := 0
				for _, q := range pr.Pairs {
					switch ls := lowScore(q); {
					case ls > s:
						gone[idx[q.White]], gone[idx[q.Black]] = true, true
					case ls == s:
						got++
					}
				}
				var left []int
				for i := range e.ps {
					if !gone[i] {
						left = append(left, i)
					}
				}
				if best := bruteBracketPairs(e, left, s); got != best {
					rt.Fatalf("round %d, bracket %d: %d pairs, a complete pairing has %d\n%s", round, s, got, best, Format(pr))
				}
			}
			return nil
		})
		if err != nil {
			rt.Fatal(err)
		}
	})
}

// prepared is the engine PairRound runs, before its brackets: the players
// ranked, the absolute criteria and the bye's score settled.
func prepared(in Input) *engine {
	e := newEngine(in)
	e.st = &Stats{}
	all := make([]int, len(e.ps))
	for i := range all {
		all[i] = i
	}
	e.restrictBye(all)
	return e
}

// bruteBracketPairs enumerates every complete pairing of the players left
// (C1, C3, a bye only to a player who may have it, of the bye's score as
// restrictBye settles it; two MDPs of the bracket
// of score s do not meet) and returns the most pairs whose lower score is s.
func bruteBracketPairs(e *engine, left []int, s int) int {
	n := len(left)
	used := make([]bool, n)
	best := -1
	var rec func(pairs, byes int)
	rec = func(pairs, byes int) {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			best = max(best, pairs)
			return
		}
		used[i] = true
		a := &e.ps[left[i]]
		if byes == 0 && n%2 == 1 && a.byeOK {
			rec(pairs, 1)
		}
		for j := i + 1; j < n; j++ {
			b := &e.ps[left[j]]
			if used[j] || !e.compat[left[i]][left[j]] || a.score > s && b.score > s {
				continue
			}
			used[j] = true
			add := 0
			if min(a.score, b.score) == s {
				add = 1
			}
			rec(pairs+add, byes)
			used[j] = false
		}
		used[i] = false
	}
	rec(0, 0)
	return best
}
