package teamswiss

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// teamEvent builds an event of n teams of size players, the XXT line xxt.
func teamEvent(t *testing.T, n, size int, xxt string) *tournament.Event {
	t.Helper()
	e := tournament.New("Team Swiss", tournament.TeamSwiss, 5)
	for i := range n {
		var r Roster
		r.Name = fmt.Sprintf("Team %c", 'A'+i)
		for j := range size {
			p, err := e.AddPlayer(tournament.Player{Name: fmt.Sprintf("Player %c%d", 'A'+i, j+1)}, tournament.ZeroBye)
			if err != nil {
				t.Fatal(err)
			}
			r.Members = append(r.Members, p.Start)
		}
		e.Extra = append(e.Extra, RosterLine(r))
	}
	if xxt != "" {
		e.Extra = append(e.Extra, xxt)
	}
	return e
}

func TestPairerBoards(t *testing.T) {
	e := teamEvent(t, 5, 5, "XXT 4 A MP") // a reserve each, 4 boards
	res, pairs, err := Pairer{}.PairTeams(e)
	if err != nil {
		t.Fatal(err)
	}
	// Round 1: 1-4 (1 White), 5-2 would be 2-5 with 2 even: Black; the bye
	// to 5, the largest TPN among the lowest scores.
	if want := []Match{{1, 3}, {4, 2}}; !slices.Equal(res.Matches, want) || res.Bye != 5 {
		t.Fatalf("teams %v bye %d, want %v bye 5", res.Matches, res.Bye, want)
	}
	// Team A (players 1-5) White on board 1 against C (11-15): 1-11,
	// 12-2, 3-13, 14-4; the reserve 5 does not play.
	want := []tournament.Pair{{White: 1, Black: 11}, {White: 12, Black: 2}, {White: 3, Black: 13}, {White: 14, Black: 4}}
	if !slices.Equal(pairs[:4], want) {
		t.Fatalf("boards %v, want %v first", pairs, want)
	}
	if n := len(pairs); n != 12 || pairs[n-1].Black != 0 || pairs[n-4].White != 21 {
		t.Fatalf("boards %v: 8 games and the bye team's 4 players", pairs)
	}
}

// TestEventRoundTrip plays a team event through the adapter: results at
// random, the file written and read back each round; every round's team
// pairing must keep the rules' invariants, and reading the TRF back must
// give the same next pairing.
func TestEventRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 7))
	for _, xxt := range []string{"", "XXT 4 B GP", "XXT 3 none MP"} {
		e := teamEvent(t, 9, 4, xxt)
		e.Rounds = 5
		for r := 1; r <= e.Rounds; r++ {
			in, _, err := InputFor(e)
			if err != nil {
				t.Fatal(err)
			}
			res, pairs, err := Pairer{}.PairTeams(e)
			if err != nil {
				t.Fatalf("%q round %d: %v", xxt, r, err)
			}
			checkRound(t, in, res)
			if err := e.Apply(r, pairs); err != nil {
				t.Fatal(err)
			}
			for _, p := range pairs {
				if p.Black == 0 {
					continue
				}
				res := []tournament.Result{tournament.WhiteWins, tournament.BlackWins, tournament.Drawn}[rnd.IntN(3)]
				if err := e.SetResult(r, p.White, res); err != nil {
					t.Fatal(err)
				}
			}
			var buf bytes.Buffer
			if err := e.WriteTRF(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := tournament.ReadTRF(&buf)
			if err != nil {
				t.Fatal(err)
			}
			if r < e.Rounds {
				a, _, err1 := Pairer{}.PairTeams(e)
				b, _, err2 := Pairer{}.PairTeams(back)
				if err1 != nil || err2 != nil || fmt.Sprint(a) != fmt.Sprint(b) {
					t.Fatalf("round %d: %v %v, read back %v %v", r+1, a, err1, b, err2)
				}
			}
		}
		st, err := Standings(e, 0)
		if err != nil {
			t.Fatal(err)
		}
		mp := 0
		for i, s := range st {
			mp += s.MP
			if i > 0 && s.Rank < st[i-1].Rank {
				t.Fatalf("standings out of order: %+v", st)
			}
		}
		// Five rounds of 9 teams: 4 matches (2 MP each) and a bye (1 MP).
		if mp != 5*(4*2+1) {
			t.Errorf("%q: %d match points in all, want %d", xxt, mp, 5*9)
		}
	}
}

func TestHistoryOf(t *testing.T) {
	e := teamEvent(t, 2, 2, "")
	_, pairs, err := Pairer{}.PairTeams(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(1, pairs); err != nil {
		t.Fatal(err)
	}
	// Board 1: A1 (White) beats B1; board 2: B2 (White) draws A2: A wins
	// 1½-½, two match points; A had White (its first board).
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.SetResult(1, 1, tournament.WhiteWins))
	must(e.SetResult(1, 4, tournament.Drawn))
	h, err := HistoryOf(e)
	must(err)
	a, b := h.Rounds[0][0], h.Rounds[1][0]
	if a.MP != 2 || a.GP != 3 || a.Colour != White || b.MP != 0 || b.GP != 1 || b.Colour != Black || a.Opponent != 2 {
		t.Fatalf("A %+v, B %+v", a, b)
	}
}

func TestRosterErrors(t *testing.T) {
	for _, tc := range []struct{ extra, want string }{
		{"013 Team A                             1    2\n013 Team B                             2    3", "two teams"},
		{"013 Team A                             1   99", "start number"},
		{"013 Team A                             1    2\n013 Team B                             3    4\nXXT 9", "for 9 boards"},
		{"013 Team A                             1    2\n013 Team B                             3    4\nXXT 2 C", "XXT"},
		{"013 Team A                             1    2", "at least two teams"},
	} {
		e := tournament.New("x", tournament.TeamSwiss, 3)
		for i := range 4 {
			if _, err := e.AddPlayer(tournament.Player{Name: fmt.Sprint("P", i)}, tournament.ZeroBye); err != nil {
				t.Fatal(err)
			}
		}
		e.Extra = strings.Split(tc.extra, "\n")
		if _, err := HistoryOf(e); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want one naming %q", tc.extra, err, tc.want)
		}
	}
}
