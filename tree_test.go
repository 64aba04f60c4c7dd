package toguz

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lines returns the tree's lines as text: each node's ply, mark and
// comment, variations in parentheses, for comparing trees.
func lines(n *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		for len(n.Children) > 0 {
			c := n.Children[0]
			b.WriteString(" " + c.Ply.String() + c.Mark.String())
			if c.Comment != "" {
				b.WriteString("{" + c.Comment + "}")
			}
			for _, v := range n.Children[1:] {
				b.WriteString(" (" + v.Ply.String() + v.Mark.String())
				if v.Comment != "" {
					b.WriteString("{" + v.Comment + "}")
				}
				walk(v)
				b.WriteString(")")
			}
			n = c
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// TestTreeGolden reads a file of games with variations, nested ones,
// comments and marks, checks its trees, and writes it back byte for byte.
func TestTreeGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/tree/variations.toguz")
	if err != nil {
		t.Fatal(err)
	}
	trees, err := ParseTrees("variations.toguz", data, FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	if len(trees) != 2 {
		t.Fatalf("%d trees, want 2", len(trees))
	}
	want := "76!{the usual start} (98?!{too slow} 11 (22 11) 65) (19) 98 66 (89{another idea} 12??) 87 12!?"
	if got := lines(trees[0].Root); got != want {
		t.Errorf("the tree:\n got %s\nwant %s", got, want)
	}
	if trees[0].Game.Comment != "a game with variations" || !trees[0].Variations() || trees[1].Variations() {
		t.Errorf("comment %q, variations %v %v", trees[0].Game.Comment, trees[0].Variations(), trees[1].Variations())
	}
	// Each node holds the position after its move.
	n := trees[0].Root.Children[1] // 1. 98
	if p, _ := trees[0].Root.Position.Play(9); n.Position != p {
		t.Errorf("the variation's position is not the one after 9")
	}
	var b bytes.Buffer
	if err := WriteTrees(&b, FormatToguz, trees...); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(data), b.String()); d != "" {
		t.Errorf("written back (-read +written):\n%s", d)
	}
	// ParseGames keeps the main line.
	games, err := ParseGames("", data, FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(games[0].Plies); got != 5 {
		t.Errorf("ParseGames reads %d plies of the main line, want 5", got)
	}
}

// TestTreeWithoutVariations: a tree of a game with no variation writes
// exactly what WriteGames writes of the game, in every format, and the
// formats that hold no variation write the main line of one that has.
func TestTreeWithoutVariations(t *testing.T) {
	data, err := os.ReadFile("testdata/games.toguz")
	if err != nil {
		t.Fatal(err)
	}
	games, err := ParseGames("", data, FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	trees, err := ParseTrees("", data, FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatToguz, FormatPlayOK, FormatTGK, FormatPlayStrategy} {
		var a, b bytes.Buffer
		errG := WriteGames(&a, f, games...)
		errT := WriteTrees(&b, f, trees...)
		if (errG == nil) != (errT == nil) || a.String() != b.String() {
			t.Errorf("%s: trees write differently from games (%v, %v):\n%s", f, errG, errT, cmp.Diff(a.String(), b.String()))
		}
	}

	vt, err := ParseTrees("", []byte("[Result \"*\"]\n\n1. 76 (1. 98) 1... 98 (1... 11)\n*\n"), FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatPlayOK, FormatTGK, FormatPlayStrategy} {
		var b bytes.Buffer
		if err := WriteTrees(&b, f, vt...); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		back, err := ParseTrees("", b.Bytes(), f)
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, b.String())
		}
		if got := lines(back[0].Root); got != "76 98" {
			t.Errorf("%s keeps %q, want the main line 76 98", f, got)
		}
	}
}

// TestTreeErrors: bad variation syntax gets an error naming the line and
// column of the problem.
func TestTreeErrors(t *testing.T) {
	const head = "[Result \"*\"]\n\n"
	for _, tc := range []struct {
		name, text string
		line, col  int
		msg        string
		err        error
	}{
		{"unclosed", "1. 76 (1. 98 2. 11\n*\n", 3, 7, "no closing )", ErrSyntax},
		{"stray )", "1. 76 98 )\n*\n", 3, 10, "no ( before it", ErrSyntax},
		{"before the first ply", "(1. 76) 1. 98\n*\n", 3, 1, "before the first ply", ErrSyntax},
		{"empty", "1. 76 ( ) 98\n*\n", 3, 7, "empty variation", ErrSyntax},
		{"illegal", "1. 76 98\n2. 66 (2. 97 2... 11)\n*\n", 4, 11, "lands on", ErrNotation},
		{"move number", "1. 76 (2. 98) 98\n*\n", 3, 8, "move number 2.: want 1", ErrSyntax},
		{"bad mark", "1. 76 (1. 98!!!) 98\n*\n", 3, 11, "mark", ErrSyntax},
		{"bad main-line mark", "1. 76?? 98?!? \n*\n", 3, 9, "mark", ErrSyntax},
		{"result inside", "1. 76 (1. 98 *) 98\n*\n", 3, 14, "inside a variation", ErrSyntax},
		{"nested bad", "1. 76 (1. 98 (1. 19 1... 99)) 98\n*\n", 3, 26, "99 lands on", ErrNotation},
		{"kazan", "1. 76 (1. 98(5)) 98\n*\n", 3, 11, "kazan", ErrNotation},
		{"comment", "1. 76 (1. 98 {open) 98\n*\n", 3, 7, "no closing )", ErrSyntax},
	} {
		_, err := ParseTrees("f", []byte(head+tc.text), FormatToguz)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || pe.Column != tc.col || !strings.Contains(err.Error(), tc.msg) || !errors.Is(err, tc.err) {
			t.Errorf("%s: %v (line %d column %d), want line %d column %d %q %v", tc.name, err, pe.line(), pe.col(), tc.line, tc.col, tc.msg, tc.err)
		}
	}
}

func (e *ParseError) line() int {
	if e == nil {
		return 0
	}
	return e.Line
}

func (e *ParseError) col() int {
	if e == nil {
		return 0
	}
	return e.Column
}

// FuzzParseTrees: what ParseTrees reads writes back to text that reads back
// to the same trees and writes the same bytes again.
func FuzzParseTrees(f *testing.F) {
	for _, s := range []string{
		"[Result \"*\"]\n\n1. 76(10)! (1. 98?! {x} 1... 87 (1... 11)) 1... 98\n*\n",
		"1. 76 (1. 11 2. 22 (2. 33)) 98 {c} *",
		"1. 76 ( 98 ) *",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		trees, err := ParseTrees("", data, FormatToguz)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := WriteTrees(&b, FormatToguz, trees...); err != nil {
			return // a tag the writer refuses
		}
		back, err := ParseTrees("", b.Bytes(), FormatToguz)
		if err != nil {
			t.Fatalf("written text does not read back: %v\n%s", err, b.String())
		}
		if len(back) != len(trees) {
			t.Fatalf("%d trees read back, want %d", len(back), len(trees))
		}
		for i := range trees {
			if a, z := lines(trees[i].Root), lines(back[i].Root); a != z {
				t.Fatalf("tree %d: %s, read back %s", i, a, z)
			}
		}
		var again bytes.Buffer
		WriteTrees(&again, FormatToguz, back...)
		if again.String() != b.String() {
			t.Fatalf("written twice differently:\n%s", cmp.Diff(b.String(), again.String()))
		}
	})
}

// TestTreeDetect: a record with variations or marks and no Ruleset tag is
// told to be ours, and read with them.
func TestTreeDetect(t *testing.T) {
	for _, s := range []string{
		"[Result \"*\"]\n\n1. 76 (1. 98) 1... 98\n*\n",
		"1. 76! 98\n*\n",
		"[Event \"x\"]\n\n1. 76 98 (1... 11?! {weak})\n*\n",
	} {
		if f := DetectFormat([]byte(s)); f != FormatToguz {
			t.Errorf("%q is told to be %s", s, f)
		}
		if _, err := ParseTrees("", []byte(s), 0); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}
