package toguz_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

// These tests build positions with toguz.Setup, as a position editor would,
// and check the rules on the examples of docs/rules.md §5, the meaning of the
// endgames of §7, the named rulesets of §4, and Setup's errors.

// row returns a board row from hole 1 up, as Setup wants it, given the
// holes as a seed diagram lists them: Black's row from the last hole down
// to 1 (reversed), White's from 1 up.
func row(pl toguz.Player, diagram ...int) []int {
	out := append([]int(nil), diagram...)
	if pl == toguz.Black {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// mustSetup returns s.Position() or fails the test.
func mustSetup(t *testing.T, s toguz.Setup) toguz.Position {
	t.Helper()
	p, err := s.Position()
	if err != nil {
		t.Fatalf("Setup.Position: %v", err)
	}
	return p
}

// mustPlay plays the moves or fails the test.
func mustPlay(t *testing.T, p toguz.Position, moves ...toguz.Move) toguz.Position {
	t.Helper()
	for i, m := range moves {
		var err error
		if p, err = p.Play(m); err != nil {
			t.Fatalf("move %d (%d): %v", i+1, m, err)
		}
	}
	return p
}

// sameSetup compares every hole, kazan, tuzdik and the turn.
func sameSetup(t *testing.T, name string, got toguz.Position, want toguz.Setup) {
	t.Helper()
	for pl := toguz.White; pl <= toguz.Black; pl++ {
		for h := 1; h <= want.Rules.Holes; h++ {
			if g, w := got.Stones(pl, h), want.Board[pl][h-1]; g != w {
				t.Errorf("%s: %s hole %d holds %d stones, want %d", name, pl, h, g, w)
			}
			if g, w := got.IsTuzdik(pl, h), want.Tuzdik[pl.Other()] == h; g != w {
				t.Errorf("%s: %s hole %d is a tuzdik: %v, want %v", name, pl, h, g, w)
			}
		}
		if g, w := got.Kazan(pl), want.Kazan[pl]; g != w {
			t.Errorf("%s: %s kazan %d, want %d", name, pl, g, w)
		}
		if g, w := got.Tuzdik(pl), want.Tuzdik[pl]; g != w {
			t.Errorf("%s: %s tuzdik %d, want %d", name, pl, g, w)
		}
	}
	if got.Turn() != want.Turn {
		t.Errorf("%s: %s to move, want %s", name, got.Turn(), want.Turn)
	}
	if got.Rules() != want.Rules {
		t.Errorf("%s: rules %v, want %v", name, got.Rules(), want.Rules)
	}
}

// TestSeedExamplesSetup reproduces docs/rules.md §5 from positions built with
// Setup, checking every hole, kazan and tuzdik after the moves.
func TestSeedExamplesSetup(t *testing.T) {
	// 1. From the start White plays 7: the last stone makes Black's 6 hold
	// 10, which White captures.
	p := mustPlay(t, toguz.StartPosition(), 7)
	sameSetup(t, "example 1", p, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{
			row(toguz.White, 9, 9, 9, 9, 9, 9, 1, 10, 10),
			row(toguz.Black, 9, 9, 9, 0, 10, 10, 10, 10, 10),
		},
		Kazan: [2]int{10, 0},
		Turn:  toguz.Black,
	})

	// 2. Black plays 7: the last stone makes White's 7 hold 3, and it
	// becomes Black's tuzdik.
	p = mustSetup(t, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{
			row(toguz.White, 10, 10, 10, 10, 10, 10, 2, 11, 1),
			row(toguz.Black, 0, 10, 10, 1, 11, 11, 11, 11, 11),
		},
		Kazan: [2]int{12, 0},
		Turn:  toguz.Black,
	})
	p = mustPlay(t, p, 7)
	sameSetup(t, "example 2", p, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{
			row(toguz.White, 11, 11, 11, 11, 11, 11, 0, 11, 1),
			row(toguz.Black, 1, 11, 1, 1, 11, 11, 11, 11, 11),
		},
		Kazan:  [2]int{12, 3},
		Tuzdik: [2]int{0, 7},
		Turn:   toguz.White,
	})

	// 3. Atsyrau: after 9, 1, 9, 1 White has no stone to move; Black adds
	// the 8 stones on his side: 76–86.
	p = mustSetup(t, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{
			row(toguz.White, 0, 0, 0, 0, 0, 0, 0, 0, 4),
			row(toguz.Black, 1, 1, 1, 0, 1, 0, 0, 0, 0),
		},
		Kazan:  [2]int{76, 78},
		Tuzdik: [2]int{6, 7},
		Turn:   toguz.White,
	})
	for i, m := range []toguz.Move{9, 1, 9} {
		if p = mustPlay(t, p, m); p.IsOver() {
			t.Fatalf("example 3: over after %d plies: %+v", i+1, p.Outcome())
		}
	}
	p = mustPlay(t, p, 1)
	sameSetup(t, "example 3", p, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{
			row(toguz.White, 0, 0, 0, 0, 0, 0, 0, 0, 0),
			row(toguz.Black, 1, 1, 1, 0, 1, 0, 1, 3, 0),
		},
		Kazan:  [2]int{76, 78},
		Tuzdik: [2]int{6, 7},
		Turn:   toguz.White,
	})
	if !p.IsOver() || !p.LegalMoves().Empty() {
		t.Errorf("example 3: White has nothing to move, yet IsOver %v, moves %v", p.IsOver(), p.LegalMoves().Slice())
	}
	want := toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.BlackWins, Score: [2]int{76, 86}}
	if got := p.Outcome(); got != want {
		t.Errorf("example 3: Outcome %+v, want %+v", got, want)
	}
	if _, err := p.Play(1); !errors.Is(err, toguz.ErrGameOver) {
		t.Errorf("example 3: a move after the end: %v, want ErrGameOver", err)
	}
}

func mustFEN(t *testing.T, fen string, r toguz.Rules) toguz.Position {
	t.Helper()
	p, _, err := toguz.ParseFEN(fen, r)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// TestEndgameE1Tuzdiks checks what endgame E1 of docs/rules.md §7 is about: both
// players own a tuzdik, a stone sown into one goes to its owner's kazan
// whoever moves, and tuzdiks never move, vanish or multiply.
func TestEndgameE1Tuzdiks(t *testing.T) {
	p := mustFEN(t, "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1", toguz.Standard())
	if p.Tuzdik(toguz.White) != 4 || p.Tuzdik(toguz.Black) != 6 {
		t.Fatalf("E1 tuzdiks: White %d, Black %d, want 4 and 6", p.Tuzdik(toguz.White), p.Tuzdik(toguz.Black))
	}
	if got := p.LegalMoves().Slice(); len(got) != 3 || got[0] != 2 || got[1] != 4 || got[2] != 8 {
		t.Errorf("E1 moves %v, want [2 4 8]", got)
	}
	// White 4 sows 5 stones over 4, 5, 6, 7, 8: the one in 6, Black's
	// tuzdik, goes to Black's kazan.
	q := mustPlay(t, p, 4)
	sameSetup(t, "E1 after 4", q, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{
			row(toguz.White, 0, 3, 0, 1, 1, 0, 1, 2, 0),
			row(toguz.Black, 2, 0, 3, 0, 1, 0, 4, 0, 2),
		},
		Kazan:  [2]int{71, 71},
		Tuzdik: [2]int{4, 6},
		Turn:   toguz.Black,
	})
	// Anywhere in the tree, the tuzdiks stay where they are and every stone
	// is still counted.
	var walk func(p toguz.Position, depth int)
	walk = func(p toguz.Position, depth int) {
		if p.Tuzdik(toguz.White) != 4 || p.Tuzdik(toguz.Black) != 6 {
			t.Fatalf("E1: tuzdiks moved: %s", p.FEN())
		}
		if n := p.Kazan(toguz.White) + p.Kazan(toguz.Black) + p.OnBoard(toguz.White) + p.OnBoard(toguz.Black); n != 162 {
			t.Fatalf("E1: %d stones in %s", n, p.FEN())
		}
		if depth == 0 || p.IsOver() {
			return
		}
		for m := range p.LegalMoves().All() {
			walk(p.After(m), depth-1)
		}
	}
	walk(p, 6)
}

// TestEndgameE2Starvation checks what endgame E2 of docs/rules.md §7 is about:
// emptying one's own side does not end the game; it ends when the player
// to move has nothing, and then the other player collects his own side.
func TestEndgameE2Starvation(t *testing.T) {
	p := mustFEN(t, "1S,3S,6,1S/8,2S 78 77 S 1", toguz.Standard())
	// After these 8 plies Black's side is empty but White is to move: the
	// game goes on (ending it here is the bug that gives 147 at depth 9).
	p = mustPlay(t, p, 9, 8, 1, 8, 2, 9, 1, 9)
	if p.OnBoard(toguz.Black) != 0 || p.Turn() != toguz.White {
		t.Fatalf("E2 line: want Black's side empty and White to move: %s", p.FEN())
	}
	if p.IsOver() || p.Outcome().Termination != toguz.Unterminated {
		t.Fatalf("E2: the game ended when the player not to move was empty: %+v", p.Outcome())
	}
	// White 9 feeds Black's hole 1, so Black has a move and play goes on.
	fed := mustPlay(t, p, 9)
	if fed.IsOver() || fed.Stones(toguz.Black, 1) != 1 || !fed.LegalMoves().Has(1) {
		t.Errorf("E2: after White 9 Black must play his hole 1: %s", fed.FEN())
	}
	// White 1 stays on his side: Black has nothing to move, White collects
	// the 5 stones on his side: 85–77.
	starved := mustPlay(t, p, 1)
	want := toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.WhiteWins, Score: [2]int{85, 77}}
	if got := starved.Outcome(); got != want || !starved.IsOver() {
		t.Errorf("E2: after White 1 Outcome %+v, want %+v", got, want)
	}
	// The kazans alone (80–77) would not decide it; the collection does.
	if starved.Kazan(toguz.White) != 80 {
		t.Errorf("E2: White's kazan %d, want 80 before the collection", starved.Kazan(toguz.White))
	}
	// Black can win the same way: 9 8 9 9 leaves White without a stone and
	// Black collects 3 for 82.
	q := mustPlay(t, mustFEN(t, "1S,3S,6,1S/8,2S 78 77 S 1", toguz.Standard()), 9, 8, 9, 9)
	want = toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.BlackWins, Score: [2]int{80, 82}}
	if got := q.Outcome(); got != want {
		t.Errorf("E2: after 9 8 9 9 Outcome %+v, want %+v", got, want)
	}
}

// TestBestemshe: 2×5 holes of 5 stones, no tuzdik, more than 25 wins and
// 25–25 is a draw.
func TestBestemshe(t *testing.T) {
	r := toguz.Bestemshe()
	if r.Holes != 5 || r.Stones != 5 || r.Tuzdik || r.Total() != 50 || r.WinningScore() != 26 {
		t.Fatalf("Bestemshe = %+v", r)
	}
	start, err := toguz.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	if start.LegalMoves().Len() != 5 || start.FEN() != "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1" {
		t.Errorf("Bestemshe start: %s", start.FEN())
	}
	tests := []struct {
		name  string
		board [2][]int
		kazan [2]int
		turn  toguz.Player
		want  toguz.Outcome
	}{
		{"26 wins", [2][]int{{1, 0, 0, 0, 1}, {0, 2, 0, 0, 0}}, [2]int{26, 20}, toguz.Black,
			toguz.Outcome{Termination: toguz.ByKazan, Result: toguz.WhiteWins, Score: [2]int{26, 20}}},
		{"25 does not", [2][]int{{1, 0, 0, 0, 1}, {0, 3, 0, 0, 0}}, [2]int{25, 20}, toguz.Black,
			toguz.Outcome{Score: [2]int{25, 20}}},
		{"25-25 draw", [2][]int{{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}, [2]int{25, 25}, toguz.White,
			toguz.Outcome{Termination: toguz.ByDraw, Result: toguz.Draw, Score: [2]int{25, 25}}},
		{"25-25 after atsyrau", [2][]int{{0, 0, 0, 0, 0}, {2, 0, 0, 0, 1}}, [2]int{25, 22}, toguz.White,
			toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.Draw, Score: [2]int{25, 25}}},
		{"26 after atsyrau", [2][]int{{0, 0, 0, 0, 0}, {2, 0, 0, 0, 2}}, [2]int{24, 22}, toguz.White,
			toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.BlackWins, Score: [2]int{24, 26}}},
	}
	for _, tc := range tests {
		p := mustSetup(t, toguz.Setup{Rules: r, Board: tc.board, Kazan: tc.kazan, Turn: tc.turn})
		if got := p.Outcome(); got != tc.want {
			t.Errorf("%s: Outcome %+v, want %+v", tc.name, got, tc.want)
		}
		if over := tc.want.Termination != toguz.Unterminated; p.IsOver() != over {
			t.Errorf("%s: IsOver %v, want %v", tc.name, p.IsOver(), over)
		}
	}

	// No tuzdik: a last stone that makes 3 in an opponent's hole leaves it
	// there. The same board with the tuzdik on makes one.
	s := toguz.Setup{
		Rules: r,
		Board: [2][]int{{5, 5, 5, 5, 3}, {5, 2, 5, 5, 5}},
		Kazan: [2]int{2, 3},
	}
	p := mustPlay(t, mustSetup(t, s), 5)
	if p.Tuzdik(toguz.White) != 0 || p.Stones(toguz.Black, 2) != 3 || p.Kazan(toguz.White) != 2 {
		t.Errorf("Bestemshe: a 3 made a tuzdik: %s", p.FEN())
	}
	s.Rules.Tuzdik = true
	p = mustPlay(t, mustSetup(t, s), 5)
	if p.Tuzdik(toguz.White) != 2 || p.Stones(toguz.Black, 2) != 0 || p.Kazan(toguz.White) != 5 {
		t.Errorf("Bestemshe with tuzdik: want Black's 2 as White's tuzdik: %s", p.FEN())
	}
	// And a Setup with a tuzdik is refused under the real Bestemshe.
	s.Rules.Tuzdik = false
	s.Board[1][1], s.Kazan[0], s.Tuzdik[0] = 0, 4, 2
	s.Board[0][4] = 3
	if _, err := s.Position(); !errors.Is(err, toguz.ErrPosition) || !strings.Contains(err.Error(), "has none") {
		t.Errorf("Bestemshe Setup with a tuzdik: err %v, want ErrPosition saying the ruleset has none", err)
	}
}

// TestSeven: the 2×7 board of seed 002 plays by the same rules.
func TestSeven(t *testing.T) {
	r := toguz.Seven()
	if r.Holes != 7 || r.Stones != 7 || !r.Tuzdik || r.Total() != 98 || r.WinningScore() != 50 {
		t.Fatalf("Seven = %+v", r)
	}
	start, err := toguz.NewPosition(r)
	if err != nil {
		t.Fatal(err)
	}
	// White 7 sows 7 stones from hole 7 to Black's 6, which then holds 8:
	// captured.
	p := mustPlay(t, start, 7)
	sameSetup(t, "Seven after 7", p, toguz.Setup{
		Rules: r,
		Board: [2][]int{{7, 7, 7, 7, 7, 7, 1}, {8, 8, 8, 8, 8, 0, 7}},
		Kazan: [2]int{8, 0},
		Turn:  toguz.Black,
	})
	// A last stone that makes 3 on Black's last hole (7 here) never makes
	// a tuzdik; on hole 6 it does. White's 7 holds target+1 stones: one
	// back into it, then Black's 1..target.
	for _, tc := range []struct {
		target, tuzdik, kazan int
	}{{7, 0, 40}, {6, 6, 43}} {
		s := toguz.Setup{
			Rules: r,
			Board: [2][]int{{0, 0, 0, 0, 0, 0, 0}, {7, 7, 7, 7, 7, 7, 7}},
		}
		s.Board[0][6] = tc.target + 1
		s.Board[1][tc.target-1] = 2
		s.Kazan = [2]int{40, r.Total() - 40 - sum(s.Board[0]) - sum(s.Board[1])}
		p := mustPlay(t, mustSetup(t, s), 7)
		if p.Tuzdik(toguz.White) != tc.tuzdik || p.Kazan(toguz.White) != tc.kazan {
			t.Errorf("Seven: a 3 on Black's %d: White's tuzdik %d, kazan %d, want %d and %d (%s)",
				tc.target, p.Tuzdik(toguz.White), p.Kazan(toguz.White), tc.tuzdik, tc.kazan, p.FEN())
		}
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// TestPre1949 sows from the hole after the emptied one.
func TestPre1949(t *testing.T) {
	start, err := toguz.NewPosition(toguz.Pre1949())
	if err != nil {
		t.Fatal(err)
	}
	// Standard: White 1 puts a stone back in 1 and the last in his own 9.
	std := mustPlay(t, toguz.StartPosition(), 1)
	sameSetup(t, "standard 1", std, toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{{1, 10, 10, 10, 10, 10, 10, 10, 10}, {9, 9, 9, 9, 9, 9, 9, 9, 9}},
		Turn:  toguz.Black,
	})
	// Pre-1949: hole 1 stays empty, the last stone makes Black's 1 hold 10,
	// captured.
	old := mustPlay(t, start, 1)
	sameSetup(t, "pre1949 1", old, toguz.Setup{
		Rules: toguz.Pre1949(),
		Board: [2][]int{{0, 10, 10, 10, 10, 10, 10, 10, 10}, {0, 9, 9, 9, 9, 9, 9, 9, 9}},
		Kazan: [2]int{10, 0},
		Turn:  toguz.Black,
	})
	// A single stone moves to the next hole under both.
	s := toguz.Setup{
		Rules: toguz.Pre1949(),
		Board: [2][]int{{1, 0, 0, 0, 0, 0, 0, 0, 0}, {9, 9, 9, 9, 9, 9, 9, 9, 9}},
		Kazan: [2]int{80, 0},
	}
	for _, r := range []toguz.Rules{toguz.Pre1949(), toguz.Standard()} {
		s.Rules = r
		p := mustPlay(t, mustSetup(t, s), 1)
		if p.Stones(toguz.White, 1) != 0 || p.Stones(toguz.White, 2) != 1 {
			t.Errorf("%v: a single stone from 1: %s", r, p.FEN())
		}
	}
}

// TestPlayOut: with PlayOut a game goes on past 82 and ends only by
// atsyrau, with its final score.
func TestPlayOut(t *testing.T) {
	s := toguz.Setup{
		Rules: toguz.Standard(),
		Board: [2][]int{{0, 0, 0, 0, 0, 0, 0, 0, 2}, {2, 0, 0, 0, 1, 0, 0, 0, 0}},
		Kazan: [2]int{84, 73},
	}
	p := mustSetup(t, s)
	want := toguz.Outcome{Termination: toguz.ByKazan, Result: toguz.WhiteWins, Score: [2]int{84, 73}}
	if got := p.Outcome(); got != want || !p.IsOver() || !p.LegalMoves().Empty() {
		t.Errorf("standard at 84: Outcome %+v, want %+v", got, want)
	}
	if _, err := p.Play(9); !errors.Is(err, toguz.ErrGameOver) {
		t.Errorf("standard at 84: Play: %v, want ErrGameOver", err)
	}

	s.Rules.PlayOut = true
	if s.Rules.String() != "standard,playout" {
		t.Errorf("Rules.String() = %q", s.Rules.String())
	}
	p = mustSetup(t, s)
	if p.IsOver() || p.Outcome() != (toguz.Outcome{Score: [2]int{84, 73}}) {
		t.Fatalf("play-out at 84: over: %+v", p.Outcome())
	}
	// White 9: one stone back into 9, the other makes Black's 1 hold 3:
	// White's tuzdik, 87.
	p = mustPlay(t, p, 9)
	if p.Kazan(toguz.White) != 87 || p.Tuzdik(toguz.White) != 1 || p.IsOver() {
		t.Fatalf("play-out after 9: %s, over %v", p.FEN(), p.IsOver())
	}
	// Black 5, White 9 (into his own tuzdik: 88), Black 6: White has no
	// stone, Black collects his last one: 88–74.
	p = mustPlay(t, p, 5, 9)
	if p.Kazan(toguz.White) != 88 || p.IsOver() {
		t.Fatalf("play-out after 5 9: %s, over %v", p.FEN(), p.IsOver())
	}
	p = mustPlay(t, p, 6)
	want = toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.WhiteWins, Score: [2]int{88, 74}}
	if got := p.Outcome(); got != want || !p.IsOver() {
		t.Errorf("play-out end: Outcome %+v, want %+v", got, want)
	}
}

// TestSetupErrors: every impossible position is refused with ErrPosition
// and a message naming what is wrong.
func TestSetupErrors(t *testing.T) {
	valid := func() toguz.Setup {
		return toguz.Setup{
			Rules:  toguz.Standard(),
			Board:  [2][]int{{9, 9, 9, 9, 9, 0, 9, 9, 9}, {9, 0, 9, 9, 9, 9, 9, 9, 9}},
			Kazan:  [2]int{9, 9},
			Tuzdik: [2]int{2, 6},
		}
	}
	if _, err := valid().Position(); err != nil {
		t.Fatalf("the valid setup: %v", err)
	}
	tests := []struct {
		name   string
		change func(s *toguz.Setup)
		want   string // in the message
	}{
		{"a stone too many", func(s *toguz.Setup) { s.Board[0][0]++ }, "163 stones"},
		{"a stone too few", func(s *toguz.Setup) { s.Kazan[1]-- }, "161 stones"},
		{"two tuzdiks on one number", func(s *toguz.Setup) {
			s.Tuzdik[1] = 2
			s.Board[0][1], s.Board[0][5] = 0, 9
		}, "both tuzdiks are on hole 2"},
		{"a tuzdik on hole 9", func(s *toguz.Setup) {
			s.Tuzdik[0] = 9
			s.Board[1][1], s.Board[1][8] = 9, 0
		}, "hole 9"},
		{"a tuzdik on hole 10", func(s *toguz.Setup) { s.Tuzdik[0] = 10 }, "hole 10"},
		{"a tuzdik on hole -1", func(s *toguz.Setup) { s.Tuzdik[0] = -1 }, "hole -1"},
		{"a tuzdik without the rule", func(s *toguz.Setup) { s.Rules = toguz.Rules{Holes: 9, Stones: 9, OriginSowing: true} }, "has none"},
		{"stones in a tuzdik hole", func(s *toguz.Setup) {
			s.Board[1][1] = 1
			s.Kazan[1]--
		}, "holds 1 stones"},
		{"a tuzdik with an empty kazan", func(s *toguz.Setup) {
			s.Board[0][0] += s.Kazan[0]
			s.Kazan[0] = 0
		}, "only 0 stones in his kazan"},
		{"a short row", func(s *toguz.Setup) { s.Board[1] = s.Board[1][:8] }, "8 holes, want 9"},
		{"a negative hole", func(s *toguz.Setup) {
			s.Board[0][0] = -1
			s.Board[0][1] += 10
		}, "holds -1 stones"},
		{"a negative kazan", func(s *toguz.Setup) {
			s.Kazan[1] = -1
			s.Board[1][2] += 10
		}, "kazan holds -1"},
		{"no such player", func(s *toguz.Setup) { s.Turn = 2 }, "no such player"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := valid()
			tc.change(&s)
			p, err := s.Position()
			if err == nil {
				t.Fatalf("accepted: %s", p.FEN())
			}
			if !errors.Is(err, toguz.ErrPosition) {
				t.Errorf("%v does not wrap ErrPosition", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
	bad := valid()
	bad.Rules.Holes = 10
	if _, err := bad.Position(); !errors.Is(err, toguz.ErrRules) {
		t.Errorf("10 holes: %v, want ErrRules", err)
	}
}
