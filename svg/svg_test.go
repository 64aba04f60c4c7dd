package svg_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/svg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func mustFEN(t *testing.T, fen string, r toguz.Rules) toguz.Position {
	t.Helper()
	p, _, err := toguz.ParseFEN(fen, r)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// element is a parsed SVG element, enough to check what was drawn.
type element struct {
	name  string
	attr  map[string]string
	text  string
	class string // the class of the enclosing <g>, if any
}

// parse checks that doc is well-formed XML with an <svg> root in the SVG
// namespace and returns its elements in document order.
func parse(t *testing.T, doc []byte) []element {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var out []element
	var stack []int // indices into out
	group := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := element{name: tok.Name.Local, attr: map[string]string{}, class: group}
			for _, a := range tok.Attr {
				e.attr[a.Name.Local] = a.Value
			}
			if len(out) == 0 && (e.name != "svg" || tok.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v, want svg in the SVG namespace", tok.Name)
			}
			if e.name == "g" {
				group = e.attr["class"]
			}
			out = append(out, e)
			stack = append(stack, len(out)-1)
		case xml.EndElement:
			if out[stack[len(stack)-1]].name == "g" {
				group = ""
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				out[stack[len(stack)-1]].text += string(tok)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("empty document")
	}
	return out
}

// stonesDrawn counts the stones drawn: circles filled with the stone
// gradient, in each row group and outside them (the kazans).
func stonesDrawn(els []element) map[string]int {
	n := map[string]int{}
	for _, e := range els {
		if e.name == "circle" && e.attr["fill"] == "url(#tg-stone)" {
			n[e.class]++
		}
	}
	return n
}

var goldens = []struct {
	name  string
	fen   string
	rules toguz.Rules
	opt   svg.Options
	move  toguz.Move // played from fen, and highlighted, when not NoMove
}{
	{name: "start", fen: "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", rules: toguz.Standard()},
	{name: "midgame", fen: "13S,2S,32S,3S,2S,1S,1,12S,12S/12S,2S,13S,3S,t,3S,12S,12S,1S 12 15 S 4", rules: toguz.Standard(),
		opt: svg.Options{White: "Aigerim <A&B>", Black: "Nurlan"}, move: 4},
	{name: "flipped", fen: "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1", rules: toguz.Standard(),
		opt: svg.Options{Flip: true, Width: 500}, move: 4},
	{name: "bestemshe", fen: "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1", rules: toguz.Bestemshe()},
	{name: "two-holes", fen: "40S,30S/100S,2S 50 30 N 1", rules: toguz.Rules{Holes: 2, Stones: 63, OriginSowing: true}},
	{name: "names-kk", fen: "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", rules: toguz.Standard(),
		opt: svg.Options{HoleNames: kazakhNames}},
	{name: "names-en", fen: "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1", rules: toguz.Standard(),
		opt: svg.Options{Flip: true, HoleNames: latinNames, HoleGlosses: englishGlosses}, move: 4},
}

// The holes' names as package internal/i18n gives them for kk, and for en.
var (
	kazakhNames    = []string{"арт", "тектұрмас", "атөтпес", "атсыратар", "бел", "белбасар", "қандықақпан", "көкмойын", "маңдай"}
	latinNames     = []string{"art", "tektūrmas", "atötpes", "atsyratar", "bel", "belbasar", "qandyqaqpan", "kökmoiyn", "mañdai"}
	englishGlosses = []string{"back", "never idle", "no horse passes", "tires the horse", "waist", "past the waist", "bloody trap", "blue neck", "forehead"}
)

// TestGolden compares the diagrams with testdata/*.svg; run with -update to
// rewrite them after a deliberate change (and look at them).
func TestGolden(t *testing.T) {
	for _, tc := range goldens {
		t.Run(tc.name, func(t *testing.T) {
			p := mustFEN(t, tc.fen, tc.rules)
			opt := tc.opt
			if tc.move != toguz.NoMove {
				opt.From, opt.To = svg.LastMove(p, tc.move)
				var err error
				if p, err = p.Play(tc.move); err != nil {
					t.Fatal(err)
				}
			}
			got, err := svg.Render(p, opt)
			if err != nil {
				t.Fatal(err)
			}
			parse(t, got)
			again, _ := svg.Render(p, opt)
			if !bytes.Equal(got, again) {
				t.Fatal("two renderings of the same position differ")
			}
			file := filepath.Join("testdata", tc.name+".svg")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendering; run go test ./svg -update if the change is meant", file)
			}
		})
	}
}

// TestContent checks what the diagram shows, for every board size and
// both orientations: one stone drawn per stone on the board and in the
// kazans, each hole's count and number in the right column, the tuzdiks,
// the kazan counts and the names.
func TestContent(t *testing.T) {
	for holes := 2; holes <= toguz.MaxHoles; holes++ {
		for _, flip := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d holes flip=%v", holes, flip), func(t *testing.T) {
				r := toguz.Rules{Holes: holes, Stones: min(9, 255/(2*holes)), Tuzdik: true, OriginSowing: true}
				p, err := toguz.NewPosition(r)
				if err != nil {
					t.Fatal(err)
				}
				// Play until a tuzdik appears or a few dozen plies have passed.
				for ply := 0; ply < 40 && !p.IsOver() && p.Tuzdik(toguz.White)+p.Tuzdik(toguz.Black) == 0; ply++ {
					moves := p.LegalMoves().Slice()
					p, _ = p.Play(moves[(ply*7)%len(moves)])
				}
				doc, err := svg.Render(p, svg.Options{Flip: flip, White: "Ana", Black: "Bek"})
				if err != nil {
					t.Fatal(err)
				}
				els := parse(t, doc)
				drawn := stonesDrawn(els)
				for pl := toguz.White; pl <= toguz.Black; pl++ {
					if got, want := drawn["row-"+pl.String()], p.OnBoard(pl); got != want {
						t.Errorf("%s's row: %d stones drawn, want %d", pl, got, want)
					}
				}
				if got, want := drawn[""], p.Kazan(toguz.White)+p.Kazan(toguz.Black); got != want {
					t.Errorf("kazans: %d stones drawn, want %d", got, want)
				}
				checkLabels(t, p, els, flip)
			})
		}
	}
}

// checkLabels checks every text of the diagram, in document order: the
// top player's name, the top row's hole numbers (n..1 from the left) and
// counts ("X" on a tuzdik), the tuzdik labels, the two kazans (the top
// player's first, beside his row), then the bottom row the other way round
// (1..n) and the bottom player's name.
func checkLabels(t *testing.T, p toguz.Position, els []element, flip bool) {
	t.Helper()
	bottom := toguz.White
	if flip {
		bottom = toguz.Black
	}
	top := bottom.Other()
	n := p.Holes()
	names := map[toguz.Player]string{toguz.White: "White", toguz.Black: "Black"}
	people := map[toguz.Player]string{toguz.White: "White · Ana", toguz.Black: "Black · Bek"}
	var want []string
	name := func(pl toguz.Player) {
		want = append(want, people[pl])
		if p.Turn() == pl && !p.IsOver() {
			want = append(want, "to move ◀")
		}
	}
	row := func(pl toguz.Player, holes []int, numbersFirst bool) {
		var numbers, counts, tuzdiks []string
		for _, h := range holes {
			numbers = append(numbers, fmt.Sprint(h))
			count := fmt.Sprint(p.Stones(pl, h))
			if p.IsTuzdik(pl, h) {
				count = "X"
				tuzdiks = append(tuzdiks, "tuzdik")
			}
			counts = append(counts, count)
		}
		if numbersFirst {
			want = append(append(append(want, numbers...), counts...), tuzdiks...)
		} else {
			want = append(append(append(want, tuzdiks...), counts...), numbers...)
		}
	}
	var up, down []int
	for h := range n {
		up = append(up, h+1)
		down = append(down, n-h)
	}
	name(top)
	row(top, down, true)
	for _, pl := range []toguz.Player{top, bottom} {
		want = append(want, "kazan", names[pl], fmt.Sprint(p.Kazan(pl)))
	}
	row(bottom, up, false)
	name(bottom)
	var got []string
	for _, e := range els {
		if e.name == "text" {
			got = append(got, e.text)
		}
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("texts\n%q\nwant\n%q", got, want)
	}
}

// TestKazanBesideOwner: each kazan is drawn beside its owner's row, as in
// the seeds' diagrams (seed 000: "Қостаушы қазаны" by the second player's
// row on top, "Бастаушы қазаны" by the first player's at the bottom), and
// stays so when the board is turned round.
func TestKazanBesideOwner(t *testing.T) {
	for _, flip := range []bool{false, true} {
		p := toguz.StartPosition().After(6) // the kazans differ: 10 and 0
		doc, err := svg.Render(p, svg.Options{Flip: flip})
		if err != nil {
			t.Fatal(err)
		}
		els := parse(t, doc)
		rowY := map[string][]float64{} // the middle of each hole, by row
		kazanY := map[string]float64{} // the owner's label of each kazan
		for i, e := range els {
			switch {
			case e.name == "rect" && strings.HasPrefix(e.class, "row-"):
				var y, h float64
				fmt.Sscan(e.attr["y"], &y)
				fmt.Sscan(e.attr["height"], &h)
				rowY[strings.TrimPrefix(e.class, "row-")] = append(rowY[strings.TrimPrefix(e.class, "row-")], y+h/2)
			case e.name == "text" && e.text == "kazan" && i+1 < len(els):
				var y float64
				fmt.Sscan(els[i+1].attr["y"], &y)
				kazanY[strings.ToLower(els[i+1].text)] = y
			}
		}
		mean := func(ys []float64) float64 {
			var sum float64
			for _, y := range ys {
				sum += y
			}
			return sum / float64(len(ys))
		}
		for _, pl := range []toguz.Player{toguz.White, toguz.Black} {
			own, other := mean(rowY[pl.String()]), mean(rowY[pl.Other().String()])
			k, ok := kazanY[pl.String()]
			if !ok || len(rowY[pl.String()]) != p.Holes() {
				t.Fatalf("flip=%v: %s's kazan label or row not found (%v, %v)", flip, pl, kazanY, rowY)
			}
			if d, e := k-own, k-other; d*d >= e*e {
				t.Errorf("flip=%v: %s's kazan (y %.0f) is nearer %s's row (y %.0f) than its owner's (y %.0f)",
					flip, pl, k, pl.Other(), other, own)
			}
		}
	}
}

func TestHighlight(t *testing.T) {
	p := toguz.StartPosition()
	from, to := svg.LastMove(p, 7)
	if from != (svg.Hole{Side: toguz.White, Number: 7}) || to != (svg.Hole{Side: toguz.Black, Number: 6}) {
		t.Fatalf("LastMove(start, 7) = %v, %v, want White 7 and Black 6", from, to)
	}
	p, _ = p.Play(7)
	doc, err := svg.Render(p, svg.Options{From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	var marked []string
	for _, e := range parse(t, doc) {
		if e.name == "rect" && e.attr["stroke-width"] == "5" {
			marked = append(marked, e.class+" "+e.attr["x"]+" "+e.attr["stroke"])
		}
	}
	// White's 7 is the 7th column, Black's 6 the 4th from the left.
	want := []string{"row-black 248 #f08c00", "row-white 464 #1f7ae0"}
	if strings.Join(marked, "|") != strings.Join(want, "|") {
		t.Errorf("highlighted %q, want %q", marked, want)
	}
}

// TestHoleNames: with names, each hole's name stands in its column on both
// rows, outside its number (above the top row's, below the bottom row's),
// its gloss under it; a text too long for a column is squeezed into it.
func TestHoleNames(t *testing.T) {
	for _, flip := range []bool{false, true} {
		p := toguz.StartPosition()
		doc, err := svg.Render(p, svg.Options{Flip: flip, HoleNames: latinNames, HoleGlosses: englishGlosses})
		if err != nil {
			t.Fatal(err)
		}
		numberY := map[string][]int{} // a hole number's y, by its x
		type placed struct{ x, y int }
		at := map[string][]placed{}
		for _, e := range parse(t, doc) {
			if e.name != "text" {
				continue
			}
			var x, y int
			fmt.Sscan(e.attr["x"], &x)
			fmt.Sscan(e.attr["y"], &y)
			if e.attr["font-weight"] == "bold" && e.attr["font-size"] == "14" {
				numberY[e.text+"@"+e.attr["x"]] = append(numberY[e.text+"@"+e.attr["x"]], y)
			}
			at[e.text] = append(at[e.text], placed{x, y})
			if runes := len([]rune(e.text)); runes > 12 && e.attr["textLength"] == "" {
				t.Errorf("flip=%v: %q (%d letters) is not fitted to its column", flip, e.text, runes)
			}
		}
		for k := 1; k <= 9; k++ {
			names, glosses := at[latinNames[k-1]], at[englishGlosses[k-1]]
			if len(names) != 2 || len(glosses) != 2 {
				t.Fatalf("flip=%v: hole %d: name at %v, gloss at %v; want one on each row", flip, k, names, glosses)
			}
			// White's hole k is column k-1 from the left at the bottom,
			// Black's column 9-k at the top; flipped, the other way round.
			topCol, bottomCol := 9-k, k-1
			top, bottom := names[0], names[1]
			if top.x != 60+72*topCol || bottom.x != 60+72*bottomCol {
				t.Errorf("flip=%v: hole %d: names at x %d and %d, want %d and %d", flip, k, top.x, bottom.x, 60+72*topCol, 60+72*bottomCol)
			}
			ys := numberY[fmt.Sprintf("%d@%d", k, top.x)]
			yb := numberY[fmt.Sprintf("%d@%d", k, bottom.x)]
			if len(ys) == 0 || len(yb) == 0 || !(top.y < ys[0] && glosses[0].y < ys[0] && top.y < glosses[0].y) ||
				!(bottom.y > yb[len(yb)-1] && bottom.y < glosses[1].y) {
				t.Errorf("flip=%v: hole %d: names at y %d, %d, glosses %d, %d; numbers at %v, %v", flip, k, top.y, bottom.y, glosses[0].y, glosses[1].y, ys, yb)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	p := toguz.StartPosition()
	for _, opt := range []svg.Options{
		{From: svg.Hole{Side: toguz.White, Number: 10}},
		{To: svg.Hole{Side: toguz.Black, Number: -1}},
		{To: svg.Hole{Side: 2, Number: 1}},
		{Width: -1},
		{HoleNames: kazakhNames[:5]},
		{HoleNames: kazakhNames, HoleGlosses: englishGlosses[:8]},
	} {
		if _, err := svg.Render(p, opt); err == nil {
			t.Errorf("Render(%+v) accepted", opt)
		}
	}
	if err := svg.Write(failWriter{}, p, svg.Options{}); !errors.Is(err, errFail) {
		t.Errorf("Write to a failing writer: %v", err)
	}
}

var errFail = errors.New("disk full")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFail }

func BenchmarkRender(b *testing.B) {
	p := toguz.StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svg.Render(p, svg.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleRender() {
	p := toguz.StartPosition()
	from, to := svg.LastMove(p, 7)
	p, _ = p.Play(7)
	doc, err := svg.Render(p, svg.Options{From: from, To: to, White: "Aigerim", Black: "Nurlan"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(doc[:bytes.IndexByte(doc, '\n')]))
	// Output: <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 696 594" font-family="Georgia, 'DejaVu Serif', serif" role="img">
}

// TestLabels: the board's words are drawn in the reader's language when
// given, English otherwise.
func TestLabels(t *testing.T) {
	p := toguz.StartPosition()
	b, err := svg.Render(p, svg.Options{Labels: &svg.Labels{White: "Ақ", Black: "Қара", Kazan: "қазан", ToMove: "жүреді"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">Ақ</text>", ">Қара</text>", ">қазан</text>", ">жүреді ◀</text>"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s", want)
		}
	}
	for _, english := range []string{">White", ">Black", ">kazan", ">to move"} {
		if bytes.Contains(b, []byte(english)) {
			t.Errorf("an English %q is drawn", english)
		}
	}
	b, _ = svg.Render(p, svg.Options{})
	if !bytes.Contains(b, []byte(">White</text>")) || !bytes.Contains(b, []byte(">to move ◀</text>")) {
		t.Errorf("without Labels the words are not English")
	}
}

// TestLabelsTitleAndTuzdik: the caller's title and tuzdik word replace the
// English ones; Labels without them keep the English ones.
func TestLabelsTitleAndTuzdik(t *testing.T) {
	p, err := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{{5, 5, 5, 5, 5, 0, 0, 0, 2}, {5, 5, 0, 5, 5, 5, 0, 0, 0}},
		Kazan: [2]int{70, 40}, Tuzdik: [2]int{3, 0}, Turn: toguz.White}.Position()
	if err != nil {
		t.Fatal(err)
	}
	b, err := svg.Render(p, svg.Options{Labels: &svg.Labels{White: "Ақ", Black: "Қара", Kazan: "қазан", ToMove: "жүреді", Tuzdik: "тұздық", Title: "Тақта <1>"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<title>Тақта &lt;1&gt;</title>", ">тұздық</text>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the drawing lacks %q", want)
		}
	}
	b, _ = svg.Render(p, svg.Options{Labels: &svg.Labels{White: "Ақ", Black: "Қара", Kazan: "қазан", ToMove: "жүреді"}})
	for _, want := range []string{"<title>Toguz Kumalak (standard): White 70, Black 40, white to move</title>", ">tuzdik</text>"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("without Title and Tuzdik the drawing lacks %q", want)
		}
	}
}
