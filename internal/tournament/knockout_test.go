package tournament

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestKnockout: 5 players, matches of 2 games with a rapid pair and an
// armageddon. The bracket of 8: 1 bye, 4-5, 2 bye, 3 bye.
func TestKnockout(t *testing.T) {
	e := newEvent(t, Knockout, 5)
	e.Knockout, _ = ParseKnockout("2 rapid:2 armageddon")
	step := func(want string, results ...string) {
		t.Helper()
		r, pairs, err := PairNext(e, KnockoutPairer{})
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if got := formatRound(pairs); got != want {
			t.Fatalf("round %d: %s, want %s", r, got, want)
		}
		i := 0
		for _, p := range pairs {
			if p.Black == 0 {
				continue
			}
			res, _ := ParseResult(results[i])
			if err := e.SetResult(r, p.White, res); err != nil {
				t.Fatal(err)
			}
			i++
		}
	}
	step("1:0 4:5 2:0 3:0", "1/2")
	step("5:4", "1/2") // 1-1 after two games: rapid
	if k := e.Knockout.GameKind(2); k != "rapid" {
		t.Errorf("game 3 is %s", k)
	}
	step("4:5", "W-L")
	step("5:4", "W-L") // 2-2: armageddon
	step("4:5", "D-D") // 5 has Black: a draw wins it for 5
	// Semi-finals: 1-5, 2-3.
	step("1:5 2:3", "1-0", "0-1")
	step("5:1 3:2", "0-1", "1-0") // 1 won 2-0, 3 won 2-0 (the first game decided nothing)
	step("1:3", "1-0")
	step("3:1", "1/2") // 1½-½
	if _, err := (KnockoutPairer{}).Pair(e); err == nil {
		t.Error("paired after the final")
	}
	br, err := e.Bracket()
	if err != nil {
		t.Fatal(err)
	}
	if len(br) != 3 || br[2].Matches[0].Winner != 1 || br[0].Matches[1].Winner != 5 || br[1].Matches[1].Winner != 3 {
		t.Errorf("bracket %+v", br)
	}
}

func TestKnockoutEarlyEnd(t *testing.T) {
	k, _ := ParseKnockout("4")
	m := &Match{A: 1, B: 2, Games: []Entry{{2, White, Win}, {2, Black, Win}, {2, White, Win}}}
	if w := k.decide(m); w != 1 {
		t.Errorf("3-0 in a 4-game match: winner %d", w)
	}
	m.Games = m.Games[:2]
	if w := k.decide(m); w != 0 {
		t.Errorf("2-0 in a 4-game match decided: %d", w)
	}
	for _, bad := range []string{"", "x", "2 rapid:x", "2 armageddon:2", "2 chess960:2"} {
		if _, err := ParseKnockout(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestSeedOrder(t *testing.T) {
	if got := seedOrder(8); formatRound([]Pair{{got[0], got[1]}, {got[2], got[3]}, {got[4], got[5]}, {got[6], got[7]}}) != "1:8 4:5 2:7 3:6" {
		t.Errorf("%v", got)
	}
}

// TestKnockoutProperties: random knock-outs played to the end: each round
// pairs only the players of undecided matches, once each; a match's
// colours alternate; the bracket ends with one winner after n−1 matches.
func TestKnockoutProperties(t *testing.T) {
	results := []Result{WhiteWins, BlackWins, Drawn, WhiteForfeit, BlackForfeit, WhiteWinsUnrated, BlackWinsUnrated, DrawnUnrated}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 33).Draw(t, "players")
		e := New("ko", Knockout, 0)
		e.Knockout = KnockoutFormat{Games: rapid.IntRange(1, 4).Draw(t, "games"), TieBreaks: []Stage{{"rapid", 2}, {"armageddon", 1}}}
		for i := 0; i < n; i++ {
			e.AddPlayer(Player{Name: "P"}, ZeroBye)
		}
		out := map[int]bool{}
		for rounds := 0; ; rounds++ {
			if rounds > 40*n {
				t.Fatal("the knock-out does not end")
			}
			r, pairs, err := PairNext(e, KnockoutPairer{})
			if err != nil {
				if !strings.Contains(err.Error(), "the knock-out is over") {
					t.Fatal(err)
				}
				break
			}
			for _, p := range pairs {
				if out[p.White] || out[p.Black] && p.Black != 0 {
					t.Fatalf("round %d: an eliminated player is paired: %v", r, p)
				}
				if p.Black == 0 {
					continue
				}
				if err := e.SetResult(r, p.White, rapid.SampledFrom(results).Draw(t, "result")); err != nil {
					t.Fatal(err)
				}
			}
			br, err := e.Bracket()
			if err != nil {
				t.Fatal(err)
			}
			for _, kr := range br {
				for _, m := range kr.Matches {
					if m.Winner != 0 && m.B != 0 {
						out[m.A+m.B-m.Winner] = true
					}
					for i := 1; i < len(m.Games); i++ {
						if m.Games[i].Colour == m.Games[i-1].Colour {
							t.Fatalf("match %d-%d: colours %v", m.A, m.B, m.Games)
						}
					}
				}
			}
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(out) != n-1 {
			t.Fatalf("%d players eliminated of %d", len(out), n)
		}
	})
}
