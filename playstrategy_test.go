package toguz

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

// TestPlayStrategyRules replays docs/rules.md §6's moves and position strings.
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
		// A GameReader reads the same, whatever the size of its
		// source's reads.
		sameRead(t, "one byte", s, iotest.OneByteReader(strings.NewReader(s)), in)
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
			checkWriters(t, g)
		}
	})
}

// checkWriters writes g with every writer that can hold it and checks that
// the text is detected as that format, reads back to the same game and
// writes again to the same bytes.
func checkWriters(t *testing.T, g *Game) {
	t.Helper()
	for _, to := range writers {
		var b bytes.Buffer
		if err := WriteGames(&b, to, g); err != nil {
			if errors.Is(err, ErrUnwritable) && !canHold(to, g) {
				continue
			}
			t.Fatalf("%s: %v", to, err)
		}
		if got := DetectFormat(b.Bytes()); got != to && len(g.Plies) > 0 {
			t.Fatalf("written as %s:\n%s\nis detected as %s", to, b.String(), got)
		}
		back, err := ParseGames("", b.Bytes(), 0)
		if err != nil || len(back) != 1 {
			t.Fatalf("written as %s:\n%s\nreads back as %d games, %v", to, b.String(), len(back), err)
		}
		if d := diffWritten(g, back[0], to); d != "" {
			t.Fatalf("written as %s:\n%s\nreads back as a different game: %s", to, b.String(), d)
		}
		var again bytes.Buffer
		if err := WriteGames(&again, to, back[0]); err != nil || again.String() != b.String() {
			t.Fatalf("written as %s:\n%s\nread and written again:\n%s (%v)", to, b.String(), again.String(), err)
		}
	}
}

// FuzzRoundTrip builds a game from any moves, tag and comments, and writes
// it with every writer: each must read back to the same game, free text
// included, or refuse the game with ErrUnwritable.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint8(0), "Event", "a \"quoted\" \\ value", "{\n};}", "a\\")
	f.Add([]byte{8, 8, 8}, uint8(1), "White", "Ainur", "; not a comment }", "\\}\\\\")
	f.Add([]byte{}, uint8(2), "Bad Name", "line\nend", "", "zero")
	rulesets := []string{"standard", "bestemshe", "seven", "pre1949"}
	f.Fuzz(func(t *testing.T, moves []byte, rules uint8, name, value, comment, plyComment string) {
		r, err := ParseRules(rulesets[int(rules)%len(rulesets)])
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewPosition(r)
		if err != nil {
			t.Fatal(err)
		}
		start := p
		var played []Move
		for _, b := range moves {
			legal := p.LegalMoves().Slice()
			if p.IsOver() || len(legal) == 0 {
				break
			}
			m := legal[int(b)%len(legal)]
			played = append(played, m)
			p = p.After(m)
		}
		g, err := NewGame(start, played...)
		if err != nil {
			t.Fatal(err)
		}
		g.Tags = []Tag{{name, value}}
		g.Comment = comment
		if len(g.Plies) > 0 {
			g.Plies[len(g.Plies)/2].Comment = plyComment
		}
		if o := p.Outcome(); o.Termination != Unterminated {
			g.Result = o.Result
		}
		if g.checkTag(name, value) != nil {
			for _, to := range writers {
				if err := WriteGames(&bytes.Buffer{}, to, g); !errors.Is(err, ErrUnwritable) {
					t.Errorf("%s wrote the tag [%s %q]: %v", to, name, value, err)
				}
			}
			return
		}
		checkWriters(t, g)
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
