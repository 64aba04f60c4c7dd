package toguz

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// seedDiagram writes two rows as docs/rules.md §5 does.
func seedDiagram(black, white string) string {
	return black + "\n" + white + "\n"
}

// TestSeedExamples reproduces the three examples of docs/rules.md §5 with
// diagrams.
func TestSeedExamples(t *testing.T) {
	// 1. White plays 7 from the start.
	p := StartPosition().After(7)
	want, err := ParseDiagram(seedDiagram("9 9 9 – 10 10 10 10 10 (0)", "9 9 9 9 9 9 1 10 10 (10)")+"Black to move", Standard())
	if err != nil {
		t.Fatal(err)
	}
	if p != want {
		t.Errorf("example 1:\n%s\nwant\n%s", p.Diagram(), want.Diagram())
	}
	// 2. Black plays 7 and makes White's 7 his tuzdik.
	before, err := ParseDiagram(seedDiagram("– 10 10 1 11 11 11 11 11 (0)", "10 10 10 10 10 10 2 11 1 (12)")+"Black to move", Standard())
	if err != nil {
		t.Fatal(err)
	}
	after, err := ParseDiagram(seedDiagram("1 11 1 1 11 11 11 11 11 (3)", "11 11 11 11 11 11 X 11 1 (12)"), Standard())
	if err != nil {
		t.Fatal(err)
	}
	y, err := ParsePly("77x")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := before.PlayPly(y); err != nil || got != after {
		t.Errorf("example 2: %v\n%s\nwant\n%s", err, got.Diagram(), after.Diagram())
	}
	// 3. Atsyrau: 9, 1, 9, 1 leaves White without a move; 76–86.
	p, err = ParseDiagram(seedDiagram("1 1 1 X 1 – – – – (78)", "– – – – – – X – 4 (76)"), Standard())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Move{9, 1, 9, 1} {
		if p, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if o := p.Outcome(); o.Termination != ByAtsyrau || o.Score != [2]int{76, 86} || o.Result != BlackWins {
		t.Errorf("example 3: %+v", o)
	}
}

// TestDiagramSeedLayout reads a diagram as seed 000 prints it, with labels.
func TestDiagramSeedLayout(t *testing.T) {
	text := "отаулар\t№9\t№8\t№7\t№6\t№5\t№4\t№3\t№2\t№1\n" +
		"\t9\t9\t9\t9\t9\t9\t9\t9\t9\tҚостаушы қазаны (0)\n" +
		"\t9\t9\t9\t9\t9\t9\t9\t9\t9\tБастаушы қазаны (0)\n" +
		"отаулар\t№1\t№2\t№3\t№4\t№5\t№6\t№7\t№8\t№9\n"
	p, err := ParseDiagram(text, Standard())
	if err != nil || p != StartPosition() {
		t.Errorf("ParseDiagram = %v, %v", p.FEN(), err)
	}
}

// TestDiagramRoundTrip writes and reads positions of random games under
// every ruleset.
func TestDiagramRoundTrip(t *testing.T) {
	for _, r := range []Rules{Standard(), Bestemshe(), Seven(), Pre1949(), {Holes: 2, Stones: 1, OriginSowing: true}} {
		p, _ := NewPosition(r)
		for i := 0; !p.IsOver() && i < 300; i++ { // games may cycle
			back, err := ParseDiagram(p.Diagram(), r)
			if err != nil || back != p {
				t.Fatalf("%s: %v\n%s\nread back as\n%s", r, err, p.Diagram(), back.Diagram())
			}
			moves := p.LegalMoves().Slice()
			p = p.After(moves[(i*7)%len(moves)])
		}
	}
}

func TestDiagramGolden(t *testing.T) {
	p, _, err := ParseFEN("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4", Standard())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewPosition(Bestemshe())
	golden(t, "diagram.txt", []byte(p.Diagram()+"\n"+b.After(3).Diagram()))
}

// TestDiagramNamed: the legend of hole names in Kazakh, and in Latin
// script with English glosses (which take two columns to fit 80), compared
// with testdata/diagram-names.txt; ParseDiagram reads it back.
func TestDiagramNamed(t *testing.T) {
	p, _, err := ParseFEN("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4", Standard())
	if err != nil {
		t.Fatal(err)
	}
	kk := []string{"арт", "тектұрмас", "атөтпес", "атсыратар", "бел", "белбасар", "қандықақпан", "көкмойын", "маңдай"}
	latn := []string{"art", "tektūrmas", "atötpes", "atsyratar", "bel", "belbasar", "qandyqaqpan", "kökmoiyn", "mañdai"}
	en := []string{"back", "never idle", "no horse passes", "tires the horse", "waist", "past the waist", "bloody trap", "blue neck", "forehead"}
	b, _ := NewPosition(Bestemshe())
	diagrams := []string{p.DiagramNamed(kk, nil), p.DiagramNamed(latn, en), b.DiagramNamed(latn, en[:2])}
	golden(t, "diagram-names.txt", []byte(strings.Join(diagrams, "\n")))
	for i, d := range diagrams {
		if !strings.HasPrefix(d, []Position{p, p, b}[i].Diagram()) {
			t.Errorf("diagram %d does not start with Diagram:\n%s", i, d)
		}
		for _, line := range strings.Split(d, "\n") {
			if n := len([]rune(line)); n > 80 {
				t.Errorf("diagram %d: a line of %d characters: %q", i, n, line)
			}
		}
		back, err := ParseDiagram(d, []Position{p, p, b}[i].Rules())
		if err != nil || back != []Position{p, p, b}[i] {
			t.Errorf("diagram %d read back: %v\n%s", i, err, d)
		}
	}
	if !strings.Contains(diagrams[0], "   1 арт") || !strings.Contains(diagrams[1], "   7 qandyqaqpan — bloody trap") ||
		strings.Contains(diagrams[2], "   6 ") {
		t.Errorf("legends:\n%s", strings.Join(diagrams, "\n"))
	}
	if p.DiagramNamed(nil, en) != p.Diagram() {
		t.Error("no names, yet a legend")
	}
}

func TestDiagramErrors(t *testing.T) {
	tests := []struct {
		text string
		want string
		err  error
		line int
	}{
		{"9 9 9 9 9 9 9 9 9 (0)\n", "want 2", ErrSyntax, 0},
		{"9 9 9 9 9 9 9 9 (0)\n9 9 9 9 9 9 9 9 9 (0)\n", "8 holes, want 9", ErrSyntax, 1},
		{"9 9 9 9 9 9 9 9 9 (0)\n9 9 9 9 9 9 9 9 8 (0)\n", "161 stones", ErrPosition, 0},
		{"X 9 9 9 9 9 9 9 9 (9)\n9 9 9 9 9 9 9 9 9 (0)\n", "last hole", ErrPosition, 0},
		{"9 9 9 9 9 9 9 9 9 (0)\n9 9 y 9 9 9 9 9 9 (0)\n", `cell "y"`, ErrSyntax, 2},
		{"9 9 9 9 9 9 9 9 9 (0)\n9 9 9 9 9 9 9 9 9 (0)\nRed to move\n", "White to move", ErrSyntax, 3},
		{"1 2 3\n9 9 9 9 9 9 9 9 9 (0)\n9 9 9 9 9 9 9 9 9 (0)\n", "row of hole numbers", ErrSyntax, 1},
		{"9 9 9 9 9 9 9 9 9 (k)\n9 9 9 9 9 9 9 9 9 (0)\n", "kazan (k)", ErrSyntax, 1},
	}
	for _, tt := range tests {
		_, err := ParseDiagram(tt.text, Standard())
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, tt.err) || !strings.Contains(err.Error(), tt.want) || pe.Line != tt.line {
			t.Errorf("ParseDiagram(%q) = %v; want line %d saying %q", tt.text, err, tt.line, tt.want)
		}
	}
}

func ExamplePosition_Diagram() {
	p := StartPosition().After(7)
	fmt.Print(p.Diagram())
	// Output:
	//    9   8   7   6   5   4   3   2   1
	//    9   9   9   –  10  10  10  10  10  (0)
	//    9   9   9   9   9   9   1  10  10  (10)
	//    1   2   3   4   5   6   7   8   9
	// Black to move
}

func FuzzParseDiagram(f *testing.F) {
	f.Add(StartPosition().Diagram())
	f.Add(seedDiagram("1 1 1 X 1 – – – – (78)", "– – – – – – X – 4 (76)"))
	f.Add("1 2\n(0)\n-\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range []Rules{Standard(), Bestemshe()} {
			p, err := ParseDiagram(s, r)
			if err != nil {
				return
			}
			back, err := ParseDiagram(p.Diagram(), r)
			if err != nil || back != p {
				t.Fatalf("%q read as\n%s\nwhich reads back as %v, %v", s, p.Diagram(), back.FEN(), err)
			}
		}
	})
}

func ExampleParseDiagram() {
	p, err := ParseDiagram(`
1 1 1 X 1 – – – – (78)
– – – – – – X – 4 (76)
White to move`, Standard())
	fmt.Println(p.FEN(), err)
	// Output: 1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1 <nil>
}
