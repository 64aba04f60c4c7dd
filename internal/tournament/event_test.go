package tournament

import (
	"bytes"
	"strings"
	"testing"
)

func TestResultsAndByes(t *testing.T) {
	e := newEvent(t, Dutch, 5)
	if err := e.RequestBye(5, 1, HalfBye); err != nil {
		t.Fatal(err)
	}
	if got := e.Available(1); len(got) != 4 {
		t.Fatalf("available %v: 5 asked for a bye", got)
	}
	if err := e.Apply(1, []Pair{{1, 3}, {2, 4}}); err != nil {
		t.Fatal(err)
	}
	if err := e.SetResult(1, 3, DoubleForfeit); err != nil { // either player names the game
		t.Fatal(err)
	}
	if err := e.SetResult(1, 2, BlackForfeit); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		start  int
		points float64
		code   Code
	}{{1, 0, ForfeitLoss}, {3, 0, ForfeitLoss}, {2, 0, ForfeitLoss}, {4, 1, ForfeitWin}, {5, 0.5, HalfBye}} {
		p := e.Player(tc.start)
		if got := e.Score(p, -1); got != tc.points || p.Entry(1).Code != tc.code {
			t.Errorf("player %d: %v points, %c; want %v, %c", tc.start, got, p.Entry(1).Code, tc.points, tc.code)
		}
	}
	// A withdrawal: left out of the next round, marked absent.
	if err := e.Withdraw(4); err != nil {
		t.Fatal(err)
	}
	// A late entry gets the rounds missed as zero-point byes.
	p6, err := e.AddPlayer(Player{Name: "Late, Comer"}, ZeroBye)
	if err != nil || p6.Start != 6 || p6.Entry(1).Code != ZeroBye {
		t.Fatalf("late entry %+v %v", p6, err)
	}
	if err := e.Apply(2, []Pair{{1, 2}, {3, 5}, {6, 0}}); err != nil {
		t.Fatal(err)
	}
	if got := e.Player(4).Entry(2); got.Code != ForfeitLoss || got.Opponent != 0 {
		t.Errorf("withdrawn player's round 2: %+v", got)
	}
	if got := e.Player(6).Entry(2); got.Code != PairingBye || e.Score(e.Player(6), -1) != 1 {
		t.Errorf("the bye: %+v", got)
	}
	if err := e.Validate(); err != nil {
		t.Error(err)
	}
}

func TestApplyErrors(t *testing.T) {
	tests := []struct {
		name  string
		pairs []Pair
		want  string
	}{
		{"paired twice", []Pair{{1, 2}, {2, 3}}, "pair 2: player 2 is already paired in pair 1"},
		{"not a player", []Pair{{1, 9}}, "pair 1: player 9 is not to be paired in round 1"},
		{"requested bye", []Pair{{1, 4}}, "pair 1: player 4 is not to be paired in round 1"},
		{"himself", []Pair{{1, 1}}, "pair 1: 1-1 is not a pairing"},
	}
	for _, tc := range tests {
		e := newEvent(t, Dutch, 4)
		e.RequestBye(4, 1, ZeroBye)
		if err := e.Apply(1, tc.pairs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	e := newEvent(t, Dutch, 2)
	if err := e.Apply(2, []Pair{{1, 2}}); err == nil {
		t.Error("round 2 before round 1")
	}
	if _, err := ParseResult("2-0"); err == nil {
		t.Error("2-0 accepted")
	}
}

// TestRoundRobinWithdrawal: a round robin keeps its table; the games of a
// player who withdrew are forfeits.
func TestRoundRobinWithdrawal(t *testing.T) {
	e := newEvent(t, RoundRobin, 4)
	play(t, e, [][]string{{"1-0", "0-1"}})
	e.Withdraw(4)
	r, pairs, err := PairNext(e, mustPairer(t, e))
	if err != nil || r != 2 || formatRound(pairs) != "4:3 1:2" {
		t.Fatalf("round %d %v %v", r, pairs, err)
	}
	if e.Player(4).Entry(2).Code != ForfeitLoss || e.Player(3).Entry(2).Code != ForfeitWin || e.Player(1).Entry(2).Code != Pending {
		t.Errorf("round 2: %+v %+v", e.Player(4).Entry(2), e.Player(3).Entry(2))
	}
	if _, _, err := PairNext(e, mustPairer(t, e)); err == nil || !strings.Contains(err.Error(), "without a result") {
		t.Errorf("paired round 3 with round 2 unfinished: %v", err)
	}
}

func TestPairsOutput(t *testing.T) {
	var b bytes.Buffer
	pairs := []Pair{{3, 1}, {2, 5}, {4, 0}}
	if err := WritePairs(&b, pairs); err != nil {
		t.Fatal(err)
	}
	if b.String() != "3\n3 1\n2 5\n4 0\n" {
		t.Errorf("%q", b.String())
	}
	back, err := ReadPairs(&b)
	if err != nil || formatRound(back) != formatRound(pairs) {
		t.Errorf("%v %v", back, err)
	}
	for _, bad := range []string{"", "2\n1 2\n", "1\n1 x\n", "x\n"} {
		if _, err := ReadPairs(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestAge(t *testing.T) {
	p := Player{Birth: "2008/02/29"}
	for _, tc := range []struct {
		on   string
		want int
	}{{"2026/02/28", 17}, {"2026/03/01", 18}, {"2026-12-31", 18}} {
		if got, ok := p.Age(tc.on); !ok || got != tc.want {
			t.Errorf("age on %s: %d %v, want %d", tc.on, got, ok, tc.want)
		}
	}
	if _, ok := (&Player{}).Age("2026/01/01"); ok {
		t.Error("age without a birth date")
	}
}

// TestPairsBoardOrder: a round robin prints its boards in the table's
// order, whatever the scores.
func TestPairsBoardOrder(t *testing.T) {
	e := newEvent(t, RoundRobin, 5)
	play(t, e, [][]string{{"0-1", "0-1"}, {"1-0", "1-0"}})
	if got := formatRound(e.Pairs(2)); got != "5:3 1:2 4:0" {
		t.Errorf("round 2 boards %s", got)
	}
}

// TestRequestedFullBye: a full-point bye asked for the next round leaves
// the rounds paired as they were.
func TestRequestedFullBye(t *testing.T) {
	e := newEvent(t, Dutch, 3)
	if err := e.RequestBye(3, 1, FullBye); err != nil {
		t.Fatal(err)
	}
	if e.Played() != 0 || len(e.Available(1)) != 2 {
		t.Errorf("played %d, available %v", e.Played(), e.Available(1))
	}
}
