package tournament

import (
	"math/rand/v2"
	"testing"
)

// The sample event (testdata/sample.trf), a 7-player Swiss after 3 rounds,
// worked by hand with C.07 (2023/2024). Its rounds:
//
//	R1: 1-5 1-0, 6-2 0-1, 3-7 ½-½, 4 the pairing-allocated bye (U)
//	R2: 2-1 ½-½, 4-3 won by 4 by forfeit, 7-6 double forfeit, 5 a half-point bye (H)
//	R3: 1-4 0-1, 3-2 1-0, 5-6 ½-½, 7 absent (withdrawn)
//
// Points: 4: 3; 1, 2, 3: 1½; 5: 1; 6, 7: ½.
//
// Adjusted scores of the opponents (art. 16.3): a player's unplayed rounds
// count what they scored, except those after his last round present,
// which count as draws. Only 7 has such a round (R3: absent after R2's
// forfeit): 7's adjusted score is ½ + 0 + ½ = 1. The others' equal their
// points (5's H in R2 comes before his R3 game, so it counts its ½).
//
// Own unplayed rounds (art. 16.4): a dummy opponent with the player's own
// score.
func TestTieBreaksWorked(t *testing.T) {
	e, _ := readSample(t)
	tb := newTB(e, 3)
	if tb.adj[7] != 1 || tb.adj[5] != 1 || tb.adj[4] != 3 {
		t.Errorf("adjusted scores %v", tb.adj)
	}
	tests := []struct {
		player int
		tb     string
		want   float64
		why    string
	}{
		// BH (art. 8.1 with 16.3): 1 met 5 (1), 2 (1½), 4 (3).
		{1, "BH", 5.5, "1 + 1½ + 3"},
		{2, "BH", 3.5, "6 (½) + 1 (1½) + 3 (1½)"},
		// 3 lost R2 by forfeit: the dummy has 3's own 1½ (art. 16.4); 7 counts 1 (art. 16.3).
		{3, "BH", 4, "7 (1) + dummy (1½) + 2 (1½)"},
		// 4's U and forfeit win: two dummies with 4's own 3.
		{4, "BH", 7.5, "dummy 3 + dummy 3 + 1 (1½)"},
		{7, "BH", 2.5, "3 (1½) + dummy ½ + dummy ½"},
		// Cut-1 (art. 14): the least significant value goes, a voluntary
		// unplayed round's first (3's forfeit loss, not the lower 1 of 7).
		{3, "BH/C1", 2.5, "cut R2's forfeit loss: 1 + 1½"},
		{1, "BH/C1", 4.5, "cut 5's 1"},
		{2, "BH/C1", 3, "cut 6's ½"},
		{6, "BH/C1", 2.5, "2 (1½) + [cut: R2 double forfeit, dummy ½] + 5 (1)"},
		{7, "BH/C1", 2, "two VURs of ½: one cut"},
		// Median-1: the highest goes too.
		{1, "BH/M1", 1.5, "cut 1 and 3"},
		// SB (art. 8.2): opponent's score × points scored against him.
		{1, "SB", 1.75, "5: 1×1 + 2: 1½×½ + 4: 3×0"},
		{4, "SB", 7.5, "dummy 3×1 (U) + dummy 3×1 (+) + 1: 1½×1"},
		// WIN counts the rounds scored as a win, played or not (art. 7.1);
		// WON only games won over the board (7.2).
		{4, "WIN", 3, "U, +, 1"},
		{4, "WON", 1, "R3"},
		{4, "BPG", 1, "R3 with Black"},
		{4, "BWG", 1, "R3 won with Black"},
		{3, "BPG", 0, "R2 with Black was a forfeit: not played"},
		{2, "BWG", 1, "R1 won with Black"},
		{4, "GE", 3, "U and + are not voluntary"},
		{5, "GE", 2, "R2's H is"},
		// ARO (art. 10.1): played games only, unrated opponents left out,
		// rounded to the nearest whole number.
		{1, "ARO", 1833, "(1700 + 2000 + 1800) / 3 = 1833.3"},
		{2, "ARO", 2000, "6 is unrated: (2100 + 1900) / 2"},
		{2, "ARO/C1", 2000, "the cut takes the unrated 6 (art. 14): nothing from the rated"},
		{1, "ARO/C1", 1900, "cut 1700"},
		// PS: the running scores summed.
		{4, "PS", 6, "1 + 2 + 3"},
		{1, "PS", 4, "1 + 1½ + 1½"},
		{4, "PS/C1", 5, "2 + 3"},
	}
	for _, tc := range tests {
		k, err := ParseTieBreak(tc.tb)
		if err != nil {
			t.Fatal(err)
		}
		if got := tb.value(e.Player(tc.player), k); got != tc.want {
			t.Errorf("player %d %s = %v, want %v (%s)", tc.player, tc.tb, got, tc.want, tc.why)
		}
	}
}

// play pairs each round and enters its results, White's first.
func play(t *testing.T, e *Event, rounds [][]string) {
	t.Helper()
	for _, res := range rounds {
		r, pairs, err := PairNext(e, mustPairer(t, e))
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for _, p := range pairs {
			if p.Black == 0 {
				continue
			}
			rs, err := ParseResult(res[i])
			if err != nil {
				t.Fatal(err)
			}
			if err := e.SetResult(r, p.White, rs); err != nil {
				t.Fatal(err)
			}
			i++
		}
	}
}

func mustPairer(t *testing.T, e *Event) Pairer {
	p, err := PairerFor(e.System, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func newEvent(t *testing.T, sys System, n int) *Event {
	e := New("test", sys, 0)
	for i := 1; i <= n; i++ {
		if _, err := e.AddPlayer(Player{Name: string(rune('A' + i - 1)), Rating: 2000 - 10*i}, ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// TestRoundRobinStandings: a 4-player round robin (Berger: 1-4 2-3, 4-3
// 1-2, 2-4 3-1). 2 and 3 tie on 2 points and drew their game, so DE (art.
// 6) leaves them tied and has no value for them (nor for 1 and 4, alone on
// their points); SB (art. 8.2) separates them: 2 has 2×½ + 1½×1 +
// ½×½ = 2¾, 3 has 2×½ + ½×1 + 1½×½ = 2¼ (1: ½×1 + 2×0 + 2×½ = 1½). Koya (art. 9.1): the opponents
// with 50% (1½ of 3) or more are 1, 2, 3.
func TestRoundRobinStandings(t *testing.T) {
	e := newEvent(t, RoundRobin, 4)
	e.TieBreaks, _ = ParseTieBreaks("DE SB KS")
	play(t, e, [][]string{{"1-0", "1/2"}, {"0-1", "0-1"}, {"1/2", "1/2"}})
	st := e.Standings(0)
	want := []struct {
		start  int
		points float64
		values []float64
	}{{2, 2, []float64{0, 2.75, 1.5}}, {3, 2, []float64{0, 2.25, 1}}, {1, 1.5, []float64{0, 1.5, 0.5}}, {4, 0.5, []float64{0, 1, 0.5}}}
	for i, w := range want {
		s := st[i]
		if s.Player.Start != w.start || s.Points != w.points || s.Rank != i+1 || !slicesEqual(s.Values, w.values) {
			t.Errorf("place %d: player %d, %v points, rank %d, %v; want %d %v %v", i+1, s.Player.Start, s.Points, s.Rank, s.Values, w.start, w.points, w.values)
		}
	}
}

func slicesEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDirectEncounterSwiss: art. 6 in a Swiss where not all the tied have
// met: 1 beat 2 and 3, who did not meet; 1's 2 points exceed the 1 either
// of the others could have had, so 1 goes first; 2 and 3 stay tied.
func TestDirectEncounterSwiss(t *testing.T) {
	e := newEvent(t, Dutch, 4)
	if err := e.Apply(1, []Pair{{1, 2}, {3, 4}}); err != nil {
		t.Fatal(err)
	}
	e.SetResult(1, 1, WhiteWins)
	e.SetResult(1, 3, BlackWins)
	if err := e.Apply(2, []Pair{{1, 3}, {4, 2}}); err != nil {
		t.Fatal(err)
	}
	e.SetResult(2, 1, WhiteWins)
	e.SetResult(2, 4, BlackWins)
	got := newTB(e, 2).directEncounter([]int{1, 2, 3})
	if got[1] != 1 || got[2] != 2 || got[3] != 2 {
		t.Errorf("places %v, want 1 first, 2 and 3 second", got)
	}
	// When the group has all met, the points against each other rank it:
	// 1 beat 2 (R1): 1, then 2.
	if got := newTB(e, 2).directEncounter([]int{1, 2}); got[1] != 1 || got[2] != 2 {
		t.Errorf("places %v", got)
	}
}

// TestDirectEncounterValues: the DE column of the standings (art. 6) has
// a place only where DE separates a group tied on points; a player alone
// on his points, players who drew their game and players who have not all
// met (none out of the others' reach) get 0, shown as nothing.
func TestDirectEncounterValues(t *testing.T) {
	type game struct {
		white, black int
		result       Result
	}
	for _, tc := range []struct {
		name    string
		players int
		rounds  [][]game
		want    map[int]float64 // start number: DE value
		text    map[int]string  // start number: as shown
	}{
		{
			// 3 2 points, 1 and 2 1 point and 1 beat 2, 4 none.
			name: "the tied have all met", players: 4,
			rounds: [][]game{{{1, 2, WhiteWins}, {3, 4, WhiteWins}}, {{3, 1, WhiteWins}, {4, 2, BlackWins}}},
			want:   map[int]float64{1: 1, 2: 2, 3: 0, 4: 0},
			text:   map[int]string{1: "1", 2: "2", 3: "", 4: ""},
		},
		{
			// 1, 2 and 4 on 1 point: 1 beat 2, 4 met neither; 1's
			// point does not exceed the 2 that 4 could have had, so
			// DE leaves all three tied. 5 and 6 drew. 3 alone.
			name: "the tied have not all met", players: 6,
			rounds: [][]game{{{1, 2, WhiteWins}, {3, 4, WhiteWins}, {5, 6, Drawn}}, {{3, 1, WhiteWins}, {2, 5, WhiteWins}, {4, 6, WhiteWins}}},
			want:   map[int]float64{1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0},
			text:   map[int]string{1: "", 2: "", 4: "", 5: ""},
		},
		{
			// 1 and 2 on 2 points, 3 and 4 on 1: 1 beat 2, 4 beat 3
			// (round 1); two groups, each separated.
			name: "two groups that met", players: 4,
			rounds: [][]game{{{1, 2, WhiteWins}, {3, 4, BlackWins}}, {{4, 1, BlackWins}, {2, 3, WhiteWins}}, {{3, 1, WhiteWins}, {2, 4, WhiteWins}}},
			want:   map[int]float64{1: 1, 2: 2, 3: 2, 4: 1},
			text:   map[int]string{1: "1", 2: "2", 3: "2", 4: "1"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEvent(t, Dutch, tc.players)
			e.TieBreaks, _ = ParseTieBreaks("DE SB")
			for i, games := range tc.rounds {
				var pairs []Pair
				for _, g := range games {
					pairs = append(pairs, Pair{g.white, g.black})
				}
				if err := e.Apply(i+1, pairs); err != nil {
					t.Fatal(err)
				}
				for _, g := range games {
					if err := e.SetResult(i+1, g.white, g.result); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, s := range e.Standings(0) {
				if w, ok := tc.want[s.Player.Start]; ok && s.Values[0] != w {
					t.Errorf("player %d (%v points): DE %v, want %v", s.Player.Start, s.Points, s.Values[0], w)
				}
				if w, ok := tc.text[s.Player.Start]; ok && ValueText(e.TieBreaks[0], s.Values[0]) != w {
					t.Errorf("player %d: DE shown %q, want %q", s.Player.Start, ValueText(e.TieBreaks[0], s.Values[0]), w)
				}
			}
		})
	}
}

// BenchmarkStandings: a 500-player, 9-round event paired at random, its
// standings with six tie-breaks (DE among them).
func BenchmarkStandings(b *testing.B) {
	e := New("bench", Dutch, 9)
	for i := 0; i < 500; i++ {
		e.AddPlayer(Player{Name: "P", Rating: 1000 + i}, ZeroBye)
	}
	e.TieBreaks, _ = ParseTieBreaks("DE BH/C1 BH SB WIN ARO")
	rng := rand.New(rand.NewPCG(1, 2))
	res := []Result{WhiteWins, BlackWins, Drawn}
	for r := 1; r <= 9; r++ {
		perm := rng.Perm(500)
		var pairs []Pair
		for i := 0; i+1 < len(perm); i += 2 {
			pairs = append(pairs, Pair{perm[i] + 1, perm[i+1] + 1})
		}
		if err := e.Apply(r, pairs); err != nil {
			b.Fatal(err)
		}
		for _, p := range pairs {
			e.SetResult(r, p.White, res[rng.IntN(3)])
		}
	}
	b.ResetTimer()
	for b.Loop() {
		e.Standings(0)
	}
}
