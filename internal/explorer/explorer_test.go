package explorer

import (
	"testing"
	"time"

	"github.com/toguz/toguz"
)

func TestBand(t *testing.T) {
	for _, c := range []struct{ avg, want int }{{0, 0}, {-5, 0}, {1, 1}, {999, 1}, {1000, 2}, {1499, 4}, {2499, 8}, {2500, 9}, {3000, 9}} {
		if got := Band(c.avg); got != c.want {
			t.Errorf("Band(%d) = %d, want %d", c.avg, got, c.want)
		}
	}
}

func TestFilterSelects(t *testing.T) {
	jan := Month(time.Date(2025, 1, 5, 0, 0, 0, 0, time.UTC))
	for _, c := range []struct {
		name           string
		f              Filter
		cat, band, mon int
		want           bool
	}{
		{"zero selects all", Filter{}, 0, 0, 0, true},
		{"min rating drops unrated", Filter{MinRating: 1200}, 1, 0, jan, false},
		{"min rating band", Filter{MinRating: 1250}, 1, Band(1210), jan, true},
		{"below min", Filter{MinRating: 1400}, 1, Band(1399), jan, false},
		{"max rating drops unrated", Filter{MaxRating: 1600}, 1, 0, jan, false},
		{"max rating", Filter{MaxRating: 1600}, 1, Band(1650), jan, true},
		{"above max", Filter{MaxRating: 1599}, 1, Band(1650), jan, false},
		{"cat in", Filter{Cats: []int{2, 3}}, 3, 0, 0, true},
		{"cat out", Filter{Cats: []int{2, 3}}, 1, 0, 0, false},
		{"from drops undated", Filter{FromMonth: jan}, 1, 0, 0, false},
		{"to", Filter{ToMonth: jan}, 1, 0, jan, true},
		{"after to", Filter{ToMonth: jan}, 1, 0, jan + 1, false},
	} {
		if got := c.f.Selects(c.cat, c.band, c.mon); got != c.want {
			t.Errorf("%s: Selects(%d, %d, %d) = %v", c.name, c.cat, c.band, c.mon, got)
		}
	}
}

func TestRefKeys(t *testing.T) {
	r := Ref{ID: "abcdEFGH", Rating: 1834, DateMS: 1733000000000}
	if got, ok := ParseTop(r.TopKey()); !ok || got != r {
		t.Errorf("ParseTop = %+v, %v", got, ok)
	}
	if got, ok := ParseLast(r.LastKey()); !ok || got != r {
		t.Errorf("ParseLast = %+v, %v", got, ok)
	}
	old := Ref{ID: "zzzzzzzz", Rating: 2000, DateMS: 1600000000000}
	if max(r.LastKey(), old.LastKey()) != r.LastKey() || max(r.TopKey(), old.TopKey()) != old.TopKey() {
		t.Error("the keys do not order by date and by rating")
	}
}

// TestMastersCounts checks the masters' tree against the records replayed
// one by one: every game of the standard rules goes through the start
// position, and the counts of its first moves add up.
func TestMastersCounts(t *testing.T) {
	m, err := LoadMasters()
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() < 700 {
		t.Fatalf("%d master games, want the 742 of 2018 and the sample", m.Len())
	}
	start := toguz.StartPosition()
	// The position after 7 (the masters' main move) and after its most
	// played reply.
	after7 := start.After(7)
	reply := m.Query(after7.Key(), Filter{}).Moves[0].Move
	for _, c := range []struct {
		name string
		pos  toguz.Position
		path []toguz.Move
	}{{"start", start, nil}, {"7", after7, []toguz.Move{7}}, {"7 reply", after7.After(reply), []toguz.Move{7, reply}}} {
		want := map[toguz.Move]*Stats{}
		var games int64
		for n := 1; n <= m.Len(); n++ {
			g, _ := m.Game(n)
			if g.Record.Rules != (toguz.Rules{}) && g.Record.Rules != toguz.Standard() {
				continue
			}
			if len(g.Moves) <= len(c.path) || !equal(g.Moves[:len(c.path)], c.path) {
				continue
			}
			s := want[g.Moves[len(c.path)]]
			if s == nil {
				s = &Stats{Move: g.Moves[len(c.path)]}
				want[s.Move] = s
			}
			w, d, b := Counts(g.Result)
			s.Games, s.White, s.Draws, s.Black = s.Games+1, s.White+w, s.Draws+d, s.Black+b
			games++
		}
		a := m.Query(c.pos.Key(), Filter{})
		if a.Total().Games < games || games == 0 {
			t.Errorf("%s: %d games in the tree, %d by replay", c.name, a.Total().Games, games)
		}
		for _, s := range a.Moves {
			w := want[s.Move]
			// Transpositions may add games that reach the position by
			// other moves; from the start and after one or two plies there
			// are none.
			if w == nil || w.Games != s.Games || w.White != s.White || w.Draws != s.Draws || w.Black != s.Black {
				t.Errorf("%s: move %d: tree %+v, replay %+v", c.name, s.Move, s, w)
			}
		}
		if c.name == "start" && (len(a.Recent) == 0 || len(a.Recent) > MaxRefs) {
			t.Errorf("start: recent games %v", a.Recent)
		}
	}
}

func equal(a, b []toguz.Move) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}
