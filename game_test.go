package toguz

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestGameMethods(t *testing.T) {
	g, err := NewGame(StartPosition(), 7, 9, 6)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Moves(); !slices.Equal(got, []Move{7, 9, 6}) {
		t.Errorf("Moves = %v", got)
	}
	g.SetTag("White", "A")
	g.SetTag("White", "B")
	if g.Tag("White") != "B" || len(g.Tags) != 1 || g.Tag("Black") != "" {
		t.Errorf("tags %v", g.Tags)
	}
	ps, err := g.Positions()
	if err != nil || len(ps) != 4 || ps[0] != StartPosition() || ps[1] != StartPosition().After(7) {
		t.Fatalf("Positions = %d positions, %v", len(ps), err)
	}
	if g.FullMove() != 2 {
		t.Errorf("FullMove = %d, want 2", g.FullMove())
	}
	if s := g.String(); !strings.Contains(s, "1. 76 98\n2. 66\n*\n") {
		t.Errorf("String = %q", s)
	}
	if _, err := NewGame(StartPosition(), 7, 0); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("NewGame with move 0: %v", err)
	}
}

// TestGameRecordedEnding: a recorded resignation stands when the rules have
// not ended the game, and the outcome says so.
func TestGameRecordedEnding(t *testing.T) {
	text := "[Result \"0-1\"]\n[Termination \"resignation\"]\n\n; a line comment\n1. 76 {first} {second} 0-1\n"
	games, err := ParseGames("", []byte(text), FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	g := games[0]
	if g.Comment != "a line comment" || g.Plies[0].Comment != "first second" {
		t.Errorf("comments %q, %q", g.Comment, g.Plies[0].Comment)
	}
	o, err := g.Outcome()
	if err != nil || o.Termination != ByResignation || o.Result != BlackWins || o.Score != [2]int{10, 0} {
		t.Errorf("Outcome = %+v, %v", o, err)
	}
	// The same game with a Ruleset the start position does not have.
	g.Start, _ = NewPosition(Bestemshe())
	if _, err := g.Final(); !errors.Is(err, ErrRules) {
		t.Errorf("start under another ruleset: %v", err)
	}
}

func TestNotationErrorUnwrap(t *testing.T) {
	_, err := StartPosition().PlayPly(Ply{Move: 7, Land: 5})
	var ne *NotationError
	if !errors.As(err, &ne) || !errors.Is(err, ErrNotation) || ne.Error() != "75 lands on black's hole 6, not 5" {
		t.Errorf("PlayPly(75) = %v", err)
	}
}

func TestFullMove(t *testing.T) {
	for _, tc := range []struct {
		first        Player
		start, plies int
		want         int
	}{
		{White, 1, 0, 1}, {White, 1, 1, 1}, {White, 1, 2, 2}, {White, 1, 44, 23},
		{Black, 1, 0, 1}, {Black, 1, 1, 2}, {Black, 1, 2, 2},
		{White, 30, 3, 31}, {Black, 30, 3, 32},
		{White, 0, 2, 2}, // an unset start number is 1
	} {
		if got := FullMove(tc.first, tc.start, tc.plies); got != tc.want {
			t.Errorf("FullMove(%v, %d, %d) = %d, want %d", tc.first, tc.start, tc.plies, got, tc.want)
		}
	}
}

// TestFENMoveNumber plays 44 plies (22 of each side) and checks that the
// FEN of the game says move 23 (docs/rules.md §6: FULLMOVE from 1, one more after
// each of Black's plies), and that a FEN's number survives a round trip.
func TestFENMoveNumber(t *testing.T) {
	p := StartPosition()
	var moves []Move
	for len(moves) < 44 && !p.IsOver() {
		m := p.LegalMoves().Slice()[0]
		moves = append(moves, m)
		p = p.After(m)
	}
	if len(moves) != 44 {
		t.Fatalf("the game ended after %d plies", len(moves))
	}
	g, err := NewGame(StartPosition(), moves...)
	if err != nil {
		t.Fatal(err)
	}
	fen := FormatFEN(p, g.FullMove())
	if !strings.HasSuffix(fen, " S 23") {
		t.Errorf("after 44 plies: %s, want move 23 with White to move", fen)
	}
	back, n, err := ParseFEN(fen, Standard())
	if err != nil || back != p || n != 23 || FormatFEN(back, n) != fen {
		t.Errorf("ParseFEN(%q) = %s, %d, %v", fen, FormatFEN(back, n), n, err)
	}
}

// TestFENRoundTrip writes every position of pseudo-random games under the
// standard and Bestemshe rules (tuzdiks, empty runs, both turns) and reads
// it back; AppendFEN after a prefix writes the same string.
func TestFENRoundTrip(t *testing.T) {
	for _, r := range []Rules{Standard(), Bestemshe()} {
		for seed := range 20 {
			p, err := NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			for ply := 0; !p.IsOver(); ply++ {
				fen := FormatFEN(p, ply/2+1)
				got, full, err := ParseFEN(fen, r)
				if err != nil || got != p || full != ply/2+1 {
					t.Fatalf("%v game %d ply %d: %q read back as %v, %d, %v", r, seed, ply, fen, got.FEN(), full, err)
				}
				if s := string(AppendFEN([]byte("x/"), p, ply/2+1)); s != "x/"+fen {
					t.Fatalf("AppendFEN after a prefix: %q, want %q", s, "x/"+fen)
				}
				legal := p.LegalMoves().Slice()
				p = p.After(legal[(seed*7+ply*13)%len(legal)])
			}
		}
	}
}
