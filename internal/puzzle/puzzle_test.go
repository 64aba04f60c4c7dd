package puzzle

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

func fen(t *testing.T, s string) toguz.Position {
	t.Helper()
	p, _, err := toguz.ParseFEN(s, toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMine runs the miner on known positions: a capture reaching 82 is the
// only win; a tuzdik that no other move matches wins stones; a save and an
// atsyrau from the master and PlayOK games; the start position, where no
// move stands out, and a position with one legal move are no puzzles.
func TestMine(t *testing.T) {
	m, err := NewMiner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, fen string
		ok        bool
		goal      Goal
		move      toguz.Move
		themes    []Theme
	}{
		{"capture to 82", "2S,2S,2S,2S,2S,2S,2S,2S,3S/2S,2S,2S,2S,2S,2S,2S,2S,1S 78 48 S 1", true, Win, 9, []Theme{Capture, Prevent, Endgame}},
		{"tuzdik", "2S,2S,2S,2S,2S,2S,2S,2S,2S/2S,2S,2S,2S,2S,2S,2S,2S,1S 70 57 S 1", true, Stones, 9, []Theme{Tuzdik, Prevent, Endgame}},
		{"save (masters-2018 #88)", "10S,2S,3S,3S,3S,2S,2S,1,1S/2S,t,2S,3S,1,1S,1,1S,2S 80 45 N 1", true, Save, 1, []Theme{Endgame}},
		{"atsyrau (playok #49)", "21S,2,1S,4,t/5,t,3 81 59 N 1", true, Save, 6, []Theme{Atsyrau, Endgame}},
		{"start", "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", false, 0, 0, nil},
		{"one move", "8,1S/1S,8 80 80 S 1", false, 0, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := fen(t, c.fen)
			pz, ok := m.Mine(context.Background(), Candidate{Pos: p, Source: "test"})
			if ok != c.ok {
				t.Fatalf("Mine = %v %+v, want ok=%v", ok, pz, c.ok)
			}
			if !ok {
				return
			}
			if pz.Goal != c.goal || pz.Move() != c.move || !slices.Equal(pz.Themes, c.themes) {
				t.Errorf("got %v %v %v, want %v %v %v", pz.Goal, pz.Move(), pz.Themes, c.goal, c.move, c.themes)
			}
			back, err := Parse(pz.Format())
			if err != nil || back.Format() != pz.Format() || back.Start != p {
				t.Errorf("round trip: %v %v", back, err)
			}
		})
	}
}

// TestThemes tags moves of the start position and crafted ones by what
// they do.
func TestThemes(t *testing.T) {
	for _, c := range []struct {
		fen  string
		line []toguz.Move
		want []Theme
	}{
		{"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", []toguz.Move{9}, []Theme{Capture}},
		{"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", []toguz.Move{1}, nil},
		{"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,6S,12S 0 0 S 1", []toguz.Move{9}, []Theme{Counting}},
		{"2S,2S,2S,2S,2S,2S,2S,2S,2S/2S,2S,2S,2S,2S,2S,2S,2S,1S 70 57 S 1", []toguz.Move{9}, []Theme{Tuzdik, Prevent, Endgame}},
	} {
		p := fen(t, c.fen)
		if got := Themes(p, c.line); !slices.Equal(got, c.want) {
			t.Errorf("%s %v: %v, want %v", c.fen, c.line, got, c.want)
		}
	}
}

// TestJudge: the solution is right, another legal move wrong, an illegal
// one an error.
func TestJudge(t *testing.T) {
	pz := Puzzle{ID: "x", Start: fen(t, "2S,2S,2S,2S,2S,2S,2S,2S,3S/2S,2S,2S,2S,2S,2S,2S,2S,1S 78 48 S 1"), Goal: Win, Solution: []toguz.Move{9}}
	if ok, err := pz.Judge(9); !ok || err != nil {
		t.Errorf("solution: %v %v", ok, err)
	}
	if ok, err := pz.Judge(3); ok || err != nil {
		t.Errorf("wrong: %v %v", ok, err)
	}
	if _, err := pz.Judge(0); err == nil {
		t.Error("an illegal move is judged")
	}
}

// TestShippedFile: the embedded file reads, has unique ids, and every
// puzzle's solution is legal (Parse plays it) and its themes are known.
func TestShippedFile(t *testing.T) {
	ps, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) < 1000 {
		t.Errorf("%d puzzles shipped", len(ps))
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.ID] {
			t.Errorf("puzzle %s twice", p.ID)
		}
		seen[p.ID] = true
		for _, th := range p.Themes {
			if !slices.Contains(AllThemes, th) && th != Tablebase {
				t.Errorf("puzzle %s: theme %q", p.ID, th)
			}
		}
		if !strings.HasPrefix(p.Source, "masters-2018#") && !strings.HasPrefix(p.Source, "playok-2024-2025#") &&
			!strings.HasPrefix(p.Source, "master-app-sample#") && !strings.HasPrefix(p.Source, "selfplay#") && !strings.HasPrefix(p.Source, "site#") {
			t.Errorf("puzzle %s: source %q", p.ID, p.Source)
		}
	}
}

// twoMoves is a puzzle of the master games (masters-2018 #6, ply 18) that
// Extend made two moves long: 6, the opponent's 3, then 7 alone wins
// stones again.
const twoMoves = "e132074c2070aafe\t9S,1,5S,6S,5S,17S,4S,5S,t/1S,1S,19S,6S,18S,t,4S,1S,1S 41 19 N 1\tstones\t6 3 7 1 5 2 8 5 2 7 8\tcapture\t2\t752\tmasters-2018#6:18\t2"

// TestParseMoves: the ninth field is the number of judged moves; a line of
// eight reads as one move, as the files before it did; the number must fit
// the line.
func TestParseMoves(t *testing.T) {
	pz, err := Parse(twoMoves)
	if err != nil || pz.Moves != 2 || pz.Format() != twoMoves {
		t.Fatalf("Parse = %+v, %v; Format %q", pz, err, pz.Format())
	}
	f := strings.Split(twoMoves, "\t")
	one, err := Parse(strings.Join(f[:8], "\t"))
	if err != nil || one.Moves != 1 || one.Format() != strings.Join(f[:8], "\t") {
		t.Errorf("eight fields: %+v, %v", one, err)
	}
	for _, c := range []struct{ name, moves, solution string }{
		{"one", "1", f[3]},
		{"too many", "6", f[3]},
		{"not a number", "two", f[3]},
		{"line too short", "2", "6 3"},
		{"game over before the last move", "2", "9 1 1"},
	} {
		g := slices.Clone(f)
		g[3], g[8] = c.solution, c.moves
		if c.name == "game over before the last move" {
			// White's 9 reaches 82: the game is over before Black's reply.
			g[1], g[3] = "2S,2S,2S,2S,2S,2S,2S,2S,3S/2S,2S,2S,2S,2S,2S,2S,2S,1S 78 48 S 1", "9"
		}
		if _, err := Parse(strings.Join(g, "\t")); err == nil {
			t.Errorf("%s: read without an error", c.name)
		}
	}
}

// TestJudgeLine: each of the solver's moves is judged in its position
// after the opponent's replies; a wrong one ends the puzzle, the last
// right one solves it, and more moves than the puzzle has are an error.
func TestJudgeLine(t *testing.T) {
	pz, err := Parse(twoMoves)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		moves       []toguz.Move
		right, done bool
		err         error
	}{
		{[]toguz.Move{6}, true, false, nil},
		{[]toguz.Move{6, 7}, true, true, nil},
		{[]toguz.Move{5}, false, true, nil},
		{[]toguz.Move{6, 8}, false, true, nil},
		{[]toguz.Move{6, 7, 1}, false, false, ErrTooMany},
		{nil, false, false, ErrTooMany},
		{[]toguz.Move{6, 0}, false, false, ErrNotLegal},
	} {
		right, done, err := pz.JudgeLine(c.moves)
		if right != c.right || done != c.done || !errors.Is(err, c.err) {
			t.Errorf("JudgeLine(%v) = %v %v %v, want %v %v %v", c.moves, right, done, err, c.right, c.done, c.err)
		}
	}
}

// TestExtend: the miner lengthens the one-move puzzle into twoMoves' line
// (its second move proven as the first was), and Verify checks every
// judged move: the line with another second move fails at move 2.
func TestExtend(t *testing.T) {
	pz, err := Parse(twoMoves)
	if err != nil {
		t.Fatal(err)
	}
	one := pz
	one.Moves, one.Solution = 1, []toguz.Move{6, 3, 7, 2, 2, 5, 2, 1, 8, 9} // as shipped before Extend
	cfg := DefaultConfig()
	cfg.MaxMoves = 2
	m, err := NewMiner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := m.Extend(context.Background(), one)
	if got.Moves != 2 || !slices.Equal(got.Solution[:3], []toguz.Move{6, 3, 7}) {
		t.Fatalf("Extend: %d moves, line %v; want 2, 6 3 7 …", got.Moves, got.Solution)
	}
	s, err := NewSearcher(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(context.Background(), s, got, VerifyDepth, cfg); err != nil {
		t.Errorf("Verify of the extended puzzle: %v", err)
	}
	bad := got
	bad.Solution = []toguz.Move{6, 3, 8}
	if err := Verify(context.Background(), s, bad, VerifyDepth, cfg); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("Verify of a wrong second move: %v", err)
	}
}
