package burstein

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

func TestSeedingRounds(t *testing.T) {
	for _, c := range []struct{ rounds, want int }{{3, 1}, {5, 2}, {7, 3}, {8, 4}, {9, 4}, {13, 4}, {1, 0}, {0, 0}} {
		if got := SeedingRounds(c.rounds); got != c.want {
			t.Errorf("SeedingRounds(%d) = %d, want %d (1.6.2: half the rounds, at most 4)", c.rounds, got, c.want)
		}
	}
}

// played gives a player n games of alternating colours, starting with c.
func played(n int, c dutch.Colour) []dutch.Colour {
	var out []dutch.Colour
	for range n {
		out = append(out, c)
		c = opposite(c)
	}
	return out
}

func pairsText(p dutch.Pairing) string {
	var b strings.Builder
	for _, pr := range p.Pairs {
		fmt.Fprintf(&b, "%d-%d ", pr.White, pr.Black)
	}
	if p.Bye != 0 {
		fmt.Fprintf(&b, "bye %d", p.Bye)
	}
	return strings.TrimSpace(b.String())
}

// TestRankingByIndex is the system's point (preface, 1.8, 4): in a bracket
// the players are ranked by the Index (Buchholz, then Sonneborn-Berger,
// then the TPN), and the highest Index meets the lowest.
func TestRankingByIndex(t *testing.T) {
	mk := func(id, bh, sb int, c dutch.Colour) Player {
		return Player{ID: id, Score: 4, Points: 4, Buchholz: bh, SonnebornBerger: sb, Games: 4, Colours: played(4, c)}
	}
	for _, c := range []struct {
		name    string
		players []Player
		want    string
	}{
		{
			// By Buchholz: 2 (BH 20), 3 (18), 4 (15), 1 (11): 2 meets 1
			// and 3 meets 4 (by the TPN it would be 1-4 and 2-3).
			"buchholz",
			[]Player{mk(1, 11, 0, dutch.White), mk(2, 20, 0, dutch.Black), mk(3, 18, 0, dutch.White), mk(4, 15, 0, dutch.Black)},
			"1-2 3-4",
		},
		{
			// Equal Buchholz: Sonneborn-Berger decides, 4 above 1 above
			// 2 above 3; then 4 meets 3 and 1 meets 2.
			"sonneborn-berger",
			[]Player{mk(1, 12, 30, dutch.White), mk(2, 12, 20, dutch.Black), mk(3, 12, 10, dutch.White), mk(4, 12, 40, dutch.Black)},
			"1-2 3-4",
		},
		{
			// Equal Index: the TPN, as the Dutch system would (1-4, 2-3).
			"tpn",
			[]Player{mk(1, 12, 30, dutch.White), mk(2, 12, 30, dutch.Black), mk(3, 12, 30, dutch.White), mk(4, 12, 30, dutch.Black)},
			"1-4 3-2",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := PairRound(Input{Round: 5, Players: c.players})
			if err != nil {
				t.Fatal(err)
			}
			if s := pairsText(got); s != c.want {
				t.Errorf("got %s, want %s", s, c.want)
			}
		})
	}
}

// TestFloaterAndC7 checks 3.2 and C5-C7 on an odd bracket: the bracket's
// highest Index meets its lowest (4), so the middle one floats, unless his
// float would leave the next bracket unpaired (C7), in which case another
// pairing of the bracket lets a player who can be paired below float.
func TestFloaterAndC7(t *testing.T) {
	mk := func(id, score, bh int, c dutch.Colour, met ...int) Player {
		return Player{ID: id, Score: score, Points: score, Buchholz: bh, Games: 4, Colours: played(4, c), Opponents: met}
	}
	// Bracket of 6 points: 1 (BH 20), 2 (BH 15), 3 (BH 10). Next: 4, 5, 6.
	free := []Player{mk(1, 6, 20, dutch.White), mk(2, 6, 15, dutch.Black), mk(3, 6, 10, dutch.Black),
		mk(4, 4, 12, dutch.White), mk(5, 4, 11, dutch.Black), mk(6, 4, 10, dutch.White), mk(7, 2, 9, dutch.Black)}
	got, err := PairRound(Input{Round: 5, Players: free})
	if err != nil {
		t.Fatal(err)
	}
	// The bye to 7 (lowest score); 1-3 in the top bracket, 2 floats and
	// meets the next bracket's highest Index that completes it.
	if s := pairsText(got); !strings.HasPrefix(s, "1-3 ") || got.Bye != 7 {
		t.Fatalf("got %s", s)
	}
	// Now 2 has met 4, 5 and 6: were he to float, the next bracket could
	// not pair him (C7 before the order of 4): 1-2 and 3 floats.
	blocked := append([]Player(nil), free...)
	blocked[1] = mk(2, 6, 15, dutch.Black, 4, 5, 6)
	for k := 3; k <= 5; k++ {
		blocked[k].Opponents = []int{2}
	}
	got, err = PairRound(Input{Round: 5, Players: blocked})
	if err != nil {
		t.Fatal(err)
	}
	if s := pairsText(got); !strings.HasPrefix(s, "1-2 ") && !strings.HasPrefix(s, "2-1 ") {
		t.Fatalf("got %s, want 1 and 2 paired", s)
	}
}

// TestBye is 3.1: the bye goes to a player who may have it (C2) and leaves
// a complete pairing (C4), with the lowest score, then the most games
// played, then the lowest ranking by 1.8.
func TestBye(t *testing.T) {
	mk := func(id, score, games, bh int, had bool) Player {
		return Player{ID: id, Score: score, Points: score, Games: games, Buchholz: bh, ByeReceived: had, Colours: played(games, dutch.White)}
	}
	for _, c := range []struct {
		name    string
		players []Player
		want    int
	}{
		{"lowest score", []Player{mk(1, 6, 4, 9, false), mk(2, 4, 4, 9, false), mk(3, 2, 4, 9, false)}, 3},
		{"had one already", []Player{mk(1, 6, 4, 9, false), mk(2, 4, 4, 9, false), mk(3, 2, 4, 9, true)}, 2},
		{"most games", []Player{mk(1, 6, 4, 9, false), mk(2, 2, 4, 9, false), mk(3, 2, 3, 9, false)}, 2},
		{"lowest Index", []Player{mk(1, 6, 4, 9, false), mk(2, 2, 4, 7, false), mk(3, 2, 4, 8, false)}, 2},
		{"lowest ranking, equal Index: the higher TPN", []Player{mk(1, 6, 4, 9, false), mk(2, 2, 4, 8, false), mk(3, 2, 4, 8, false)}, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := PairRound(Input{Round: 5, Players: c.players})
			if err != nil {
				t.Fatal(err)
			}
			if got.Bye != c.want {
				t.Errorf("bye %d, want %d (%s)", got.Bye, c.want, pairsText(got))
			}
		})
	}
	// C4 before the score: 3 has met 1 and 2, so he cannot be left
	// out of the bye.
	ps := []Player{mk(1, 6, 4, 9, false), mk(2, 4, 4, 9, false), mk(3, 2, 4, 9, false)}
	ps[2].Opponents = []int{1, 2}
	ps[0].Opponents, ps[1].Opponents = []int{3}, []int{3}
	got, err := PairRound(Input{Round: 5, Players: ps})
	if err != nil || got.Bye != 3 {
		t.Fatalf("got %s, %v; want the bye to 3", pairsText(got), err)
	}
	ps[2].ByeReceived = true
	if _, err := PairRound(Input{Round: 5, Players: ps}); !errors.Is(err, tournament.ErrUnpairable) {
		t.Fatalf("got %v, want ErrUnpairable", err)
	}
}

// TestColours is 5.2: each rule where it decides.
func TestColours(t *testing.T) {
	p := func(id, bh int, cs ...dutch.Colour) pl {
		return newPl(Player{ID: id, Score: 4, Points: 4, Buchholz: bh, Colours: cs})
	}
	W, B, N := dutch.White, dutch.Black, dutch.None
	for _, c := range []struct {
		name   string
		hi, lo pl
		want   dutch.Colour // hi's
	}{
		{"5.2.1 odd TPN gets the initial colour", p(3, 0), p(4, 0), W},
		{"5.2.1 even TPN the other", p(2, 0), p(5, 0), B},
		{"5.2.2 both granted", p(1, 0, W, B, W), p(2, 0, B, W, B), B},
		{"5.2.3 the stronger (absolute over mild)", p(1, 0, W, B), p(2, 0, B, B), B},
		{"5.2.3 a player without games has no preference", p(1, 0), p(2, 0, W), W},
		{"5.2.4 alternate from the last difference", p(1, 0, B, W, B), p(2, 0, W, W, B), W},
		{"5.2.4 over the games played", p(1, 0, W, N, B), p(2, 0, B, B, N), B},
		{"5.2.5 the higher Index's preference", p(1, 3, W, B), p(2, 5, W, B), B},
		{"5.2.5 the higher Index's preference (hi has it)", p(1, 5, W, B), p(2, 3, W, B), W},
	} {
		if got := colourOf(&c.hi, &c.lo, W); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestC3 is the absolute criterion C3: two players with the same absolute
// colour preference do not meet, even when a bracket must float.
func TestC3(t *testing.T) {
	W, B := dutch.White, dutch.Black
	ps := []Player{
		{ID: 1, Score: 4, Points: 4, Buchholz: 9, Games: 4, Colours: []dutch.Colour{B, W, B, B}},
		{ID: 2, Score: 4, Points: 4, Buchholz: 8, Games: 4, Colours: []dutch.Colour{W, B, W, W}},
		{ID: 3, Score: 4, Points: 4, Buchholz: 7, Games: 4, Colours: []dutch.Colour{W, B, B, B}},
		{ID: 4, Score: 4, Points: 4, Buchholz: 6, Games: 4, Colours: []dutch.Colour{B, W, W, W}},
	}
	// Without C3, 1-4 and 2-3 (4's order); 1 and 3 both need White, 2 and
	// 4 both Black: 1-4 and 3-2 keep C3, the order's first.
	got, err := PairRound(Input{Round: 5, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	if s := pairsText(got); s != "1-4 3-2" {
		t.Errorf("got %s", s)
	}
}

// TestInputForIndex is 1.7 over a small event: Buchholz and
// Sonneborn-Berger from the current scores, a round not played counted
// with the player's own score, a late entry's zero-point bye counted as a
// draw for his opponents.
func TestInputForIndex(t *testing.T) {
	e := tournament.New("t", tournament.Burstein, 9)
	add := func(name string) {
		t.Helper()
		if _, err := e.AddPlayer(tournament.Player{Name: name, Rating: 2000}, tournament.ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	play := func(r int, pairs []tournament.Pair, res ...tournament.Result) {
		t.Helper()
		if err := e.Apply(r, pairs); err != nil {
			t.Fatal(err)
		}
		for k, x := range res {
			if err := e.SetResult(r, pairs[k].White, x); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, n := range []string{"A", "B", "C", "D"} {
		add(n)
	}
	play(1, []tournament.Pair{{White: 1, Black: 2}, {White: 3, Black: 4}}, tournament.WhiteWins, tournament.Drawn)
	add("E") // a late entry: Z in round 1
	play(2, []tournament.Pair{{White: 1, Black: 3}, {White: 5, Black: 2}, {White: 4}}, tournament.WhiteWins, tournament.WhiteWins)
	in, err := InputFor(e)
	if err != nil {
		t.Fatal(err)
	}
	// Half points now: 1: 4, 2: 0, 3: 1, 4: 3 (a draw and the bye), 5: 2
	// (3 as his opponents see it: the Z is a draw for them).
	want := map[int][3]int{ // Buchholz (half), Sonneborn-Berger (quarter), games
		1: {0 + 1, 2*0 + 2*1, 2},
		2: {4 + 3, 0, 2},
		3: {3 + 4, 1*3 + 0*4, 2},
		4: {1 + 3, 1*1 + 2*3, 1},
		5: {2 + 0, 0*2 + 2*0, 1},
	}
	for _, p := range in.Players {
		if got := [3]int{p.Buchholz, p.SonnebornBerger, p.Games}; got != want[p.ID] {
			t.Errorf("player %d: Buchholz, Sonneborn-Berger, games %v, want %v", p.ID, got, want[p.ID])
		}
	}
	if in.Round != 3 {
		t.Errorf("round %d", in.Round)
	}
}
