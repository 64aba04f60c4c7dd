package toguz

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParsePly(t *testing.T) {
	tests := []struct {
		in   string
		want Ply
		ok   bool
	}{
		{"76", Ply{7, 6, false}, true},
		{"48x", Ply{4, 8, true}, true},
		{"48X", Ply{4, 8, true}, true},
		{"48х", Ply{4, 8, true}, true}, // Cyrillic
		{"48Х", Ply{4, 8, true}, true}, // Cyrillic
		{"4", Ply{4, 0, false}, true},  // the short form
		{"4x", Ply{}, false},
		{"40", Ply{}, false},
		{"07", Ply{}, false},
		{"48xx", Ply{}, false},
		{"48y", Ply{}, false},
		{"", Ply{}, false},
	}
	for _, tt := range tests {
		got, err := ParsePly(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParsePly(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrSyntax) {
			t.Errorf("ParsePly(%q) error %v does not wrap ErrSyntax", tt.in, err)
		}
		if err == nil && got.String() != strings.NewReplacer("X", "x", "х", "x", "Х", "x").Replace(tt.in) {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
}

// TestPlyAgainstRules plays the first plies of the masters' first game.
func TestPlyAgainstRules(t *testing.T) {
	moves, p, err := ParsePlies(StartPosition(), "76 98 66 87 12 76 25 78 48 36x")
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 10 || p.Tuzdik(Black) != 6 {
		t.Errorf("moves %v, Black's tuzdik %d, want 10 moves and White's hole 6", moves, p.Tuzdik(Black))
	}
	tests := []struct {
		plies string
		ply   int
		want  string
		err   error
	}{
		{"76 98 66 87 12 76 25 78 48 36", 10, "36 makes white's hole 6 a tuzdik, so it is written 36x", ErrNotation},
		{"76 98 66 87 12 76 25 78 48x", 9, "48x is marked x but makes no tuzdik", ErrNotation},
		{"76 95", 2, "95 lands on white's hole 8, not 5", ErrNotation},
		{"76 98 66 87 12 76 25 78 48 36x 61", 11, "the hole is a tuzdik", ErrIllegalMove},
		{"76 7x", 2, "or the hole alone", ErrSyntax},
		{"76 0", 2, "want two digits", ErrSyntax},
	}
	for _, tt := range tests {
		_, _, err := ParsePlies(StartPosition(), tt.plies)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Ply != tt.ply || !strings.Contains(err.Error(), tt.want) || !errors.Is(err, tt.err) {
			t.Errorf("ParsePlies(%q) = %v; want ply %d saying %q, wrapping %v", tt.plies, err, tt.ply, tt.want, tt.err)
		}
	}
}

// TestShortForm reads seed 004's short form, the hole alone ("возможна
// краткая запись однозначным числом — номером исходной лунки"), on the
// seeds' examples of docs/rules.md §5: White's 7 from the start, and the
// atsyrau that 9, 1, 9, 1 bring about.
func TestShortForm(t *testing.T) {
	moves, p, err := ParsePlies(StartPosition(), "7")
	if err != nil || len(moves) != 1 || p.Kazan(White) != 10 {
		t.Fatalf("7 from the start: %v, %v, kazan %d; want 10", moves, err, p.Kazan(White))
	}
	start, _, err := ParseFEN("1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1", Standard())
	if err != nil {
		t.Fatal(err)
	}
	_, p, err = ParsePlies(start, "9 1 9 1")
	if o := p.Outcome(); err != nil || o.Termination != ByAtsyrau || o.Score != [2]int{76, 86} {
		t.Errorf("9 1 9 1: %v, %+v; want atsyrau 76–86", err, o)
	}
	// Mixed with the full form; a mark on the short form is checked.
	if _, _, err := ParsePlies(StartPosition(), "76 9 6 87"); err != nil {
		t.Error(err)
	}
	if _, err := StartPosition().PlayPly(Ply{Move: 7, Tuzdik: true}); !errors.Is(err, ErrNotation) {
		t.Errorf("7x: %v, want a wrong notation", err)
	}
	// In a record, written back as it was read; 91 is seed 004's own example
	// ("ход «91»" empties White's side).
	const text = "[Result \"0-1\"]\n[Ruleset \"standard\"]\n[FEN \"1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1\"]\n\n1. 9 1\n2. 91 1\n0-1\n\n"
	games, err := ParseGames("short", []byte(text), 0)
	if err != nil {
		t.Fatal(err)
	}
	if o, err := games[0].Outcome(); err != nil || o.Score != [2]int{76, 86} {
		t.Errorf("record: %+v, %v", o, err)
	}
	if got := games[0].String(); got != text {
		t.Errorf("written back as\n%s\nwant\n%s", got, text)
	}
	checkWriters(t, games[0])
}

// TestNotationRandomGames: on random games of every ruleset, the ply of
// every move reads back and plays to the same position.
func TestNotationRandomGames(t *testing.T) {
	for _, r := range []Rules{Standard(), Bestemshe(), Seven(), Pre1949()} {
		for seed := range 50 {
			p, _ := NewPosition(r)
			x := uint32(seed*2654435761 + 1)
			for i := 0; !p.IsOver() && i < 1000; i++ { // games may cycle
				moves := p.LegalMoves().Slice()
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				m := moves[int(x%uint32(len(moves)))]
				s, err := p.Notation(m)
				if err != nil {
					t.Fatal(err)
				}
				y, err := ParsePly(s)
				if err != nil {
					t.Fatalf("%s: %v", r, err)
				}
				if b, _ := y.AppendText([]byte("|")); string(b) != "|"+s {
					t.Fatalf("%s: AppendText gives %q, want |%s", r, b, s)
				}
				next, err := p.PlayPly(y)
				if err != nil || next != p.After(m) {
					t.Fatalf("%s %s: PlayPly(%s) = %v", r, p.FEN(), s, err)
				}
				p = next
			}
		}
	}
}

func TestNotationIllegal(t *testing.T) {
	p := StartPosition()
	if _, err := p.Notation(0); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("Notation(0) = %v, want an illegal move", err)
	}
}

func ExamplePosition_Notation() {
	p := StartPosition()
	s, _ := p.Notation(7)
	fmt.Println(s)
	// Output: 76
}

func ExampleParsePlies() {
	_, p, err := ParsePlies(StartPosition(), "76 98 66 87 12 76 25 78 48 36x")
	fmt.Println(p.Tuzdik(Black), err)
	_, _, err = ParsePlies(StartPosition(), "76 95")
	fmt.Println(err)
	// Output:
	// 6 <nil>
	// column 4: ply 2: 95 lands on white's hole 8, not 5: wrong notation
}

func ExamplePosition_PlayPly() {
	p := StartPosition()
	y, _ := ParsePly("76")
	p, err := p.PlayPly(y)
	fmt.Println(p.Kazan(White), err)
	// Output: 10 <nil>
}

func FuzzParsePly(f *testing.F) {
	for _, s := range []string{"76", "48x", "48х", "9", "", "99X", "1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		y, err := ParsePly(s)
		if err != nil {
			return
		}
		back, err := ParsePly(y.String())
		if err != nil || back != y {
			t.Errorf("ParsePly(%q) = %v; its String %q reads back as %v, %v", s, y, y.String(), back, err)
		}
		p := StartPosition()
		p.PlayPly(y) // must not panic
	})
}

func FuzzParsePlies(f *testing.F) {
	for _, s := range []string{"76 98 66 87 12 76 25 78 48 36x", "76 95", "76  \t98\n", "48х"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		moves, p, err := ParsePlies(StartPosition(), s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		q := StartPosition()
		for _, m := range moves {
			q = q.After(m)
		}
		if q != p {
			t.Errorf("%q: the moves %v give %s, ParsePlies %s", s, moves, q.FEN(), p.FEN())
		}
	})
}
