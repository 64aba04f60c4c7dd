package tournament

import (
	"bytes"
	"strings"
	"testing"
)

// TestExpectedScoreTable: FIDE table 8.1(b) at the edges of its rows, and
// the 400-point rule.
func TestExpectedScoreTable(t *testing.T) {
	for _, tc := range []struct{ d, pd int }{
		{0, 50}, {3, 50}, {4, 51}, {10, 51}, {11, 52}, {53, 57}, {54, 58}, {99, 64}, {106, 64}, {107, 65},
		{198, 76}, {344, 88}, {345, 89}, {391, 91}, {392, 92}, {400, 92}, {401, 92}, {735, 92}, {-400, 8}, {-100, 36}, {-3, 50},
	} {
		if got := ExpectedScore(2000+tc.d, 2000); got != tc.pd {
			t.Errorf("D %d: PD %d, want %d", tc.d, got, tc.pd)
		}
	}
}

func TestKFactor(t *testing.T) {
	for _, tc := range []struct {
		rating, games int
		u18, r2400    bool
		want          int
	}{{1500, 10, false, false, 40}, {2250, 100, true, false, 40}, {2350, 100, true, false, 20}, {2300, 100, false, true, 10}, {2100, 30, false, false, 20}} {
		if got := KFactor(tc.rating, tc.games, tc.u18, tc.r2400); got != tc.want {
			t.Errorf("%+v: K %d", tc, got)
		}
	}
}

// TestRatingChanges on the sample event, by hand: player 1 (2100) beat 5
// (1700: D 400, PD .92), drew 2 (2000: .64), lost to 4 (1800: D 300, .85):
// 1½ − 2.41 = −0.91, × 20 = −18.2 → −18. Player 3 (1900): drew 7 (1600,
// .85), R2 was a forfeit (not rated), beat 2 (2000, .36): 1½ − 1.21 = 0.29 →
// +5.8 → +6. Player 5 (1700, 12 games on the list: K 40) lost to 1 (.08),
// drew the unrated 6 (not counted): −0.08 × 40 = −3.2 → −3. Player 6 is
// unrated: no change.
func TestRatingChanges(t *testing.T) {
	e, _ := readSample(t)
	ch := e.RatingChanges(map[int]RatingRecord{5: {Known: true, Games: 12}})
	// Player 2 was born in 2008: in 2026 he is in the year of his 18th
	// birthday, K 40: ½ − 1.00 → −20.
	want := map[int][2]int{1: {3, -18}, 2: {2, -20}, 3: {2, 6}, 5: {1, -3}, 6: {0, 0}}
	for s, w := range want {
		c := ch[s-1]
		if c.Games != w[0] || c.Change != w[1] {
			t.Errorf("player %d: %d games, change %d (K %d, expected %.2f); want %d, %d", s, c.Games, c.Change, c.K, c.Expected, w[0], w[1])
		}
	}
	if ch[4].K != 40 {
		t.Errorf("player 5 with 12 games: K %d, want 40", ch[4].K)
	}
	var b bytes.Buffer
	if err := e.WriteRatingCSV(&b, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "1,\"Alpha, Aset\",KAZ,13700001,2100,3,1.5,2.41,20,-18,1.5\n") {
		t.Errorf("csv:\n%s", b.String())
	}
}

// TestKTimesGames: K × n is held to 700.
func TestKTimesGames(t *testing.T) {
	e := newEvent(t, RoundRobin, 2)
	for r := 0; r < 20; r++ {
		for i := range e.Players {
			e.Players[i].Rounds = append(e.Players[i].Rounds, Entry{Opponent: 3 - (i + 1), Colour: White, Code: Draw})
		}
	}
	ch := e.RatingChanges(map[int]RatingRecord{1: {Known: true, Games: 5}})
	if ch[0].K != 35 {
		t.Errorf("K %d with 20 games, want 35", ch[0].K)
	}
}
