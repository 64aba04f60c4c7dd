package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestDoubleSwissEvent generates Double-Swiss tournaments with forfeits,
// byes, withdrawals and late entries and checks what the file must hold:
// each match is two rounds with the same opponents and the colours
// reversed, the checker pairs every round as the file has it, the file
// reads back the same, and a match's bye is worth a game won and a game
// drawn.
func TestDoubleSwissEvent(t *testing.T) {
	for seed := range uint64(12) {
		cfg := GenerateConfig{Players: 7 + int(seed)*3, Rounds: 10, System: DoubleSwiss, DrawRate: 0.3, ForfeitRate: 0.05, ByeRate: 0.05, WithdrawRate: 0.02, LateRate: 0.1, Seed: seed}
		e, err := Generate(cfg, DoubleSwissPairer{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := e.Validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if e.Played()%2 != 0 {
			t.Fatalf("seed %d: %d rounds: a match is cut in two", seed, e.Played())
		}
		for i := range e.Players {
			p := &e.Players[i]
			for g := 1; g < e.Played(); g += 2 {
				a, b := p.Entry(g), p.Entry(g+1)
				if a.Opponent != b.Opponent || (a.Opponent > 0 && a.Colour == b.Colour) {
					t.Fatalf("seed %d: player %d, match %d: %+v then %+v", seed, p.Start, (g+1)/2, a, b)
				}
				if a.Code == PairingBye && e.Scoring.Points(a)+e.Scoring.Points(b) != 1.5 {
					t.Fatalf("seed %d: the bye is worth %g", seed, e.Scoring.Points(a)+e.Scoring.Points(b))
				}
			}
		}
		checks, err := Check(e, DoubleSwissPairer{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			if !c.Same() {
				t.Fatalf("seed %d, round %d: the file %s, paired again %s (%v)", seed, c.Round, PairsText(c.File), PairsText(c.Ours), c.Err)
			}
		}
		var buf bytes.Buffer
		if err := e.WriteTRF(&buf); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "XXY doubleswiss") {
			t.Fatalf("seed %d: the file does not name the system", seed)
		}
		back, err := ReadTRF(&buf)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if back.System != DoubleSwiss || back.Scoring.PairingBye != DoubleSwissPAB {
			t.Fatalf("seed %d: read back as %s with the bye %g", seed, back.System, back.Scoring.PairingBye)
		}
	}
}

func TestDoubleSwissMatch(t *testing.T) {
	e := New("Match", DoubleSwiss, 4)
	for _, n := range []string{"A", "B", "C", "D", "E"} {
		if _, err := e.AddPlayer(Player{Name: n}, ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	// A bye requested for round 1 is the whole first match's.
	if err := e.RequestBye(3, 1, HalfBye); err != nil {
		t.Fatal(err)
	}
	if e.Player(3).Entry(2).Code != HalfBye {
		t.Fatal("the requested bye is not in the match's second game")
	}
	r, pairs, err := PairNext(e, DoubleSwissPairer{})
	if err != nil {
		t.Fatal(err)
	}
	if r != 1 || PairsText(pairs) != "1-4 5-2" {
		t.Fatalf("round %d: %s", r, PairsText(pairs))
	}
	// A late entry misses the whole match begun.
	late, err := e.AddPlayer(Player{Name: "F"}, ZeroBye)
	if err != nil {
		t.Fatal(err)
	}
	if late.Entry(1).Code != ZeroBye || late.Entry(2).Code != ZeroBye {
		t.Fatalf("the late entry's match 1: %c %c", late.Entry(1).Code, late.Entry(2).Code)
	}
	// The second game may be paired before the first has its results.
	r, pairs, err = PairNext(e, DoubleSwissPairer{})
	if err != nil {
		t.Fatal(err)
	}
	if r != 2 || PairsText(pairs) != "4-1 2-5" {
		t.Fatalf("round %d: %s", r, PairsText(pairs))
	}
	// The next match needs every result.
	if _, _, err := PairNext(e, DoubleSwissPairer{}); err == nil {
		t.Fatal("a match paired before the last one's results")
	}
	for _, g := range []struct {
		r, white int
		res      Result
	}{{1, 1, WhiteWins}, {1, 5, Drawn}, {2, 4, Drawn}, {2, 2, BlackWins}} {
		if err := e.SetResult(g.r, g.white, g.res); err != nil {
			t.Fatal(err)
		}
	}
	// 1 (1½), 5 (1½), 3 (1, the requested half-point bye twice), 4 (½), 2 (½).
	_, pairs, err = PairNext(e, DoubleSwissPairer{})
	if err != nil {
		t.Fatal(err)
	}
	// Match 2: six players with the late entry, three matches (the
	// engine's tests hold the articles; here the file's shape).
	if len(pairs) != 3 || pairs[2].Black == 0 {
		t.Fatalf("round 3: %v", pairs)
	}
	if err := e.RequestBye(1, 4, ZeroBye); err == nil {
		t.Fatal("a bye requested for a match already paired")
	}
}

func TestDoubleSwissChecks(t *testing.T) {
	if _, err := ParseSystem("Double-Swiss"); err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(GenerateConfig{Players: 8, Rounds: 5, System: DoubleSwiss}, DoubleSwissPairer{}); err == nil {
		t.Fatal("an odd number of rounds was accepted")
	}
	// A file whose match has two different opponents is refused.
	e := New("Bad", DoubleSwiss, 2)
	for _, n := range []string{"A", "B", "C", "D"} {
		if _, err := e.AddPlayer(Player{Name: n}, ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Apply(1, []Pair{{1, 2}, {3, 4}}); err != nil {
		t.Fatal(err)
	}
	if err := e.Apply(2, []Pair{{3, 1}, {2, 4}}); err != nil {
		t.Fatal(err)
	}
	if err := e.Validate(); err == nil || !strings.Contains(err.Error(), "one match") {
		t.Fatalf("Validate = %v", err)
	}
	p, err := PairerFor(DoubleSwiss, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(DoubleSwissPairer); !ok {
		t.Fatalf("PairerFor gave %T", p)
	}
	// Three players who met: no pairing.
	small := New("Small", DoubleSwiss, 8)
	for _, n := range []string{"A", "B", "C"} {
		if _, err := small.AddPlayer(Player{Name: n}, ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	for m := range 4 {
		_, _, err := PairNext(small, p)
		if m == 3 {
			if !errors.Is(err, ErrUnpairable) {
				t.Fatalf("match 4: %v", err)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := PairNext(small, p); err != nil {
			t.Fatal(err)
		}
		for g := 2*m + 1; g <= 2*m+2; g++ {
			for _, pr := range small.Pairs(g) {
				if pr.Black != 0 {
					if err := small.SetResult(g, pr.White, Drawn); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestDoubleSwissForfeitedGame: a game forfeited in a match whose other
// game was played counts as played in the standings and tie-breaks
// (C.04.5, Preface), so the event ranks as if it had been won over the
// board; a match forfeited whole does not.
func TestDoubleSwissForfeitedGame(t *testing.T) {
	run := func(first Result, second Result) *Event {
		e := New("F", DoubleSwiss, 4)
		e.TieBreaks, _ = ParseTieBreaks("BH SB WIN")
		for _, n := range []string{"A", "B", "C", "D"} {
			if _, err := e.AddPlayer(Player{Name: n}, ZeroBye); err != nil {
				t.Fatal(err)
			}
		}
		for m := range 2 {
			for g := range 2 {
				r, pairs, err := PairNext(e, DoubleSwissPairer{})
				if err != nil {
					t.Fatal(err)
				}
				for i, pr := range pairs {
					res := Drawn
					if m == 0 && i == 0 {
						res = []Result{first, second}[g]
					}
					if err := e.SetResult(r, pr.White, res); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		return e
	}
	values := func(e *Event) string {
		var b strings.Builder
		for _, s := range e.Standings(-1) {
			fmt.Fprintf(&b, "%d:%g:%v ", s.Player.Start, s.Points, s.Values)
		}
		return b.String()
	}
	played, forfeited := run(WhiteWins, Drawn), run(WhiteForfeit, Drawn)
	if a, b := values(played), values(forfeited); a != b {
		t.Errorf("a forfeited game in a played match: %s, played over the board: %s", b, a)
	}
	if st := forfeited.Standings(-1); st[0].Player != forfeited.Player(st[0].Player.Start) {
		t.Error("the standings point to a copy of the players")
	}
	// Both games forfeited by one player: a forfeited match, not played.
	whole := run(WhiteForfeit, BlackForfeit)
	if values(whole) == values(run(WhiteWins, BlackWins)) {
		t.Error("a match forfeited whole counted as played")
	}
}
