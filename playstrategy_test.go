package toguz

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestPlayStrategyRules replays RULES.md §6's moves and position strings.
func TestPlayStrategyRules(t *testing.T) {
	games, err := ParseGames("", []byte("f1e2 d2e1 i1a2 b2i1 b1g2 f2e1"), 0)
	if err != nil {
		t.Fatal(err)
	}
	p, err := games[0].Final()
	if err != nil {
		t.Fatal(err)
	}
	const want = "13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4"
	if got := FormatFEN(p, games[0].FullMove()); got != want {
		t.Errorf("after the moves: %s, want %s", got, want)
	}
	q := StartPosition()
	if got := q.PlayStrategyMove(6); got != "f1e2" {
		t.Errorf("PlayStrategyMove(6) = %s, want f1e2", got)
	}
	if m, err := q.ParsePlayStrategyMove("f1e2"); err != nil || m != 6 {
		t.Errorf("ParsePlayStrategyMove(f1e2) = %v, %v", m, err)
	}
}

func TestPlayStrategySquare(t *testing.T) {
	tests := []struct {
		pl          Player
		hole, holes int
		want        string
	}{
		{White, 1, 9, "a1"}, {White, 9, 9, "i1"}, {Black, 1, 9, "i2"}, {Black, 9, 9, "a2"}, {Black, 1, 5, "e2"},
	}
	for _, tt := range tests {
		if got := playStrategySquare(tt.pl, tt.hole, tt.holes); got != tt.want {
			t.Errorf("playStrategySquare(%s, %d, %d) = %s, want %s", tt.pl, tt.hole, tt.holes, got, tt.want)
		}
	}
}

func TestParsePlayStrategyMoveErrors(t *testing.T) {
	p := StartPosition()
	for _, tt := range []struct {
		in   string
		want string
		err  error
	}{
		{"e1", "want a move as two squares", ErrSyntax},
		{"e1f2x", "want two squares", ErrSyntax},
		{"e2f1", "black is to move", ErrIllegalMove},
		{"e1f1", "falls on f2", ErrNotation},
		{"j1f2", "two squares", ErrSyntax},
	} {
		_, err := p.ParsePlayStrategyMove(tt.in)
		if !errors.Is(err, tt.err) || err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), "White", "white"), strings.ReplaceAll(tt.want, "black is", "white is")) && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParsePlayStrategyMove(%q) = %v, want %q wrapping %v", tt.in, err, tt.want, tt.err)
		}
	}
}

func ExamplePosition_PlayStrategyMove() {
	p := StartPosition()
	fmt.Println(p.PlayStrategyMove(6))
	// Output: f1e2
}

func ExampleParseGames() {
	text := "[White \"Ainur\"]\n[Black \"Bolat\"]\n[Result \"1-0\"]\n\n1. 76(10) 98 2. 66 87 *"
	_, err := ParseGames("game.pgn", []byte(text), FormatToguz)
	fmt.Println(err)
	games, _ := ParseGames("game.pgn", []byte(strings.Replace(text, "*", "1-0", 1)), FormatToguz)
	g := games[0]
	p, err := g.Final()
	fmt.Println(g.Tag("White"), len(g.Plies), p.Kazan(White), p.Kazan(Black), err)
	// Output:
	// game.pgn:5:23: game 1: result * disagrees with the Result tag 1-0
	// Ainur 4 10 4 <nil>
}

func ExampleGame_Outcome() {
	text := `[FEN "1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1"]
[Result "0-1"]

1. 93 12 2. 91 12 0-1`
	games, _ := ParseGames("", []byte(text), 0)
	o, err := games[0].Outcome()
	fmt.Println(o.Termination, o.Result, o.Score, err)
	// Output: atsyrau 0-1 [76 86] <nil>
}

func ExampleWriteGames() {
	g, _ := NewGame(StartPosition(), 7, 9, 6)
	g.SetTag("White", "Ainur")
	var b strings.Builder
	WriteGames(&b, FormatToguz, g)
	WriteGames(&b, FormatPlayStrategy, g)
	fmt.Print(b.String())
	// Output:
	// [White "Ainur"]
	// [Result "*"]
	// [Ruleset "standard"]
	//
	// 1. 76 98
	// 2. 66
	// *
	//
	// [White "Ainur"]
	//
	// g1d2 a2h1 f1d2
}

// FuzzParseGames reads any text in every format: it must never panic, and
// what reads and replays must write and read back to the same game.
func FuzzParseGames(f *testing.F) {
	for _, s := range []string{
		"[Event \"x\"]\n[Result \"1-0\"]\n\n1. 76(10) 98 {c} 2. 66 87 1-0\n",
		"[Site \"PlayOK\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 0-1 {zero}\n",
		"[ID \"x\"]\n\n1. 76 76\n2. 99 12\n",
		"f1e2 d2e1 i1a2 b2i1 b1g2 f2e1",
		"[FEN \"1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1\"]\n[Ruleset \"standard\"]\n\n1. 93 12 2. 91 12 0-1",
		"[Ruleset \"bestemshe\"]\n[FEN \"5S,5S,5S,1,6S/5S,5S,1S,6S,6S 6 0 N 1\"]\n\n1... 11 *",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, format uint8) {
		in := Format(format % 5)
		games, err := ParseGames("fuzz", []byte(s), in)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) && in != 0 {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		for _, g := range games {
			g.Outcome()
			if _, err := g.Final(); err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("replay error %v is not a *ParseError", err)
				}
				return
			}
			for _, to := range []Format{FormatToguz, FormatPlayStrategy} {
				var b strings.Builder
				if err := WriteGames(&b, to, g); err != nil {
					t.Fatalf("%s: %v", to, err)
				}
				back, err := ParseGames("", []byte(b.String()), to)
				if err != nil || len(back) != 1 {
					t.Fatalf("%q written as %s:\n%s\nreads back as %d games, %v", s, to, b.String(), len(back), err)
				}
				if to == FormatToguz {
					want := *g
					want.Marking, want.Tags = back[0].Marking, back[0].Tags
					if !sameGame(&want, back[0]) {
						t.Fatalf("%q written as\n%s\nreads back as a different game", s, b.String())
					}
				}
			}
		}
	})
}

func FuzzParsePlayStrategyMove(f *testing.F) {
	for _, s := range []string{"f1e2", "e2f1", "i1a2", "a1", "j9k9", "e1f2x"} {
		f.Add(s)
	}
	p := StartPosition().After(6).After(6)
	f.Fuzz(func(t *testing.T, s string) {
		for _, q := range []Position{StartPosition(), p} {
			m, err := q.ParsePlayStrategyMove(s)
			if err != nil {
				continue
			}
			if got := q.PlayStrategyMove(m); got != s {
				t.Errorf("%q read as %d, written %q", s, m, got)
			}
		}
	})
}
