package chart

import (
	"bytes"
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func eval() *Line {
	return &Line{
		ID: "eval", Title: "Evaluation <after> each move", Desc: "White up, Black down",
		FixY: true, YMin: -20, YMax: 20, Zero: true,
		YFormat: func(v float64) string { return strings.Replace(number(v), "-", "−", 1) },
		Series: []Series{{Area: true, Points: []Point{
			{X: 0, Y: 0.5, Href: "#ply-0", Key: "0", Label: "Start: +0.5"},
			{X: 1, Y: 3, Href: "#ply-1", Key: "1", Label: "1. 73: +3", Data: true},
			{X: 2, Y: -7, Href: "#ply-2", Key: "2", Label: "1… 52: −7", Class: "mistake"},
			{X: 3, Y: 40, Href: "#ply-3", Key: "3", Label: "2. 11: White wins"},
		}}},
	}
}

func clocks() *Line {
	return &Line{
		ID: "clocks", Title: "Clocks", YFormat: func(v float64) string { return number(v) + "s" },
		Series: []Series{
			{Name: "White", Step: true, Points: []Point{{X: 0, Y: 180}, {X: 1, Y: 175}, {X: 2, Y: 150}}},
			{Name: "Black & co", Step: true, Points: []Point{{X: 0, Y: 180}, {X: 1, Y: 160}, {X: 2, Y: 90}}},
		},
	}
}

func histogram() *Bars {
	return &Bars{ID: "hist", Title: "Ratings", Edges: true, Bars: []Bar{
		{Label: "1300", Value: 2, Title: "1300–1400: 2"},
		{Label: "1400", Value: 7, Title: "1400–1500: 7"},
		{Label: "1500", Value: 12, Title: "1500–1600: 12", Class: "you", Href: "/leaderboard?from=1500"},
		{Label: "1600", Value: 0, Title: "1600–1700: 0"},
	}}
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		svg  string
	}{
		{"eval", string(eval().SVG())},
		{"clocks", string(clocks().SVG())},
		{"histogram", string(histogram().SVG())},
		{"rows", string((&Bars{Title: "Puzzles by theme", Horizontal: true, Max: 100, YFormat: func(v float64) string { return number(v) + " %" },
			Bars: []Bar{{Label: "Capture", Value: 70, Title: "Capture: 7 of 10", Href: "/puzzles?theme=capture"}, {Label: "Tuzdik", Value: 0, Title: "Tuzdik: none tried", Text: "—"}}}).SVG())},
		{"empty-line", string((&Line{Title: "Nothing yet"}).SVG())},
		{"empty-bars", string((&Bars{Title: "Nothing yet"}).SVG())},
		{"dates", string((&Line{Title: "Rating", FixX: true, XMin: 0, XMax: 100, Height: 220,
			XTicks: []Tick{{At: 10, Label: "Feb", Sub: "2026"}, {At: 40, Label: "Mar"}, {At: 70, Label: "Apr"}, {At: 100, Label: "May"}},
			Series: []Series{{Name: "Blitz", Class: "s1", Points: []Point{{X: 20, Y: 1500}, {X: 60, Y: 1562}}}, {Name: "Rapid", Class: "s2", Dots: true, Points: []Point{{X: 90, Y: 1480, Label: "1480"}}}}}).SVG())},
		{"players", string((&Line{Title: "Points by round", Series: []Series{
			{Name: "Айгүл", NameData: true, Dots: true, Points: []Point{{X: 0, Y: 0}, {X: 1, Y: 1}}},
			{Name: "Bolat", NameData: true, Dots: true, Points: []Point{{X: 0, Y: 0}, {X: 1, Y: 0.5}}}}}).SVG())},
		{"dots", string((&Line{Title: "Ratings", Series: []Series{{Dots: true, Points: []Point{{X: 10, Y: 1500, Label: "1500"}}}}}).SVG())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join("testdata", tc.name+".svg")
			if *update {
				if err := os.WriteFile(path, []byte(tc.svg+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test ./internal/chart -update writes it)", err)
			}
			if tc.svg+"\n" != string(want) {
				t.Errorf("%s differs from the drawing:\n%s", path, tc.svg)
			}
		})
	}
}

// TestWellFormed parses each drawing as XML and finds its title (and the
// escaped caller texts) where a screen reader looks for them.
func TestWellFormed(t *testing.T) {
	for _, tc := range []struct {
		svg, title string
	}{
		{string(eval().SVG()), "Evaluation <after> each move"},
		{string(clocks().SVG()), "Clocks"},
		{string(histogram().SVG()), "Ratings"},
		{string((&Line{Title: `a "quoted" & 'odd' title`}).SVG()), `a "quoted" & 'odd' title`},
	} {
		d := xml.NewDecoder(strings.NewReader(tc.svg))
		var stack []string
		var title, label string
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%q: not well-formed XML: %v\n%s", tc.title, err, tc.svg)
			}
			switch tok := tok.(type) {
			case xml.StartElement:
				if len(stack) == 0 {
					if tok.Name.Local != "svg" {
						t.Errorf("root element %q, want svg", tok.Name.Local)
					}
					for _, a := range tok.Attr {
						if a.Name.Local == "aria-label" {
							label = a.Value
						}
					}
				}
				stack = append(stack, tok.Name.Local)
			case xml.EndElement:
				stack = stack[:len(stack)-1]
			case xml.CharData:
				if len(stack) == 2 && stack[1] == "title" {
					title += string(tok)
				}
			}
		}
		if title != tc.title || label != tc.title {
			t.Errorf("title %q, aria-label %q, want %q", title, label, tc.title)
		}
	}
}

func TestLinksMakeAGroup(t *testing.T) {
	if s := string(eval().SVG()); !strings.Contains(s, `role="group"`) || strings.Count(s, `<a class="point"`) != 4 {
		t.Errorf("a chart of links: want role group and 4 links:\n%s", s)
	}
	if s := string(clocks().SVG()); !strings.Contains(s, `role="img"`) {
		t.Errorf("a chart without links: want role img:\n%s", s)
	}
}

func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 10, 5, []float64{0, 2, 4, 6, 8, 10}},
		{1432, 1587, 4, []float64{1400, 1450, 1500, 1550, 1600}},
		{-20, 20, 4, []float64{-20, -10, 0, 10, 20}},
		{0.1, 0.3, 2, []float64{0.1, 0.2, 0.3}},
		{5, 5, 4, []float64{5, 6}},
		{0, 180, 4, []float64{0, 50, 100, 150, 200}},
	} {
		got, _ := Ticks(tc.lo, tc.hi, tc.n)
		if !equal(got, tc.want) {
			t.Errorf("Ticks(%v, %v, %d) = %v, want %v", tc.lo, tc.hi, tc.n, got, tc.want)
		}
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func BenchmarkLine(b *testing.B) {
	c := eval()
	for i := range 200 {
		c.Series[0].Points = append(c.Series[0].Points, Point{X: float64(4 + i), Y: float64(i%40 - 20), Href: "#", Key: "k"})
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		buf.WriteString(string(c.SVG()))
	}
}
