package toguz

import "testing"

// perftCounts are docs/rules.md §7: three independent implementations agree on
// them (two for depth 10).
var perftCounts = []struct {
	name   string
	fen    string
	counts []uint64 // depth 1, 2, …
}{
	{"start", "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
		[]uint64{9, 73, 613, 5199, 43184, 360035, 3003052, 25166174, 210521787}},
	{"E1 two tuzdiks", "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1",
		[]uint64{3, 15, 63, 350, 1631, 9336, 47468, 273959}},
	{"E2 starvation", "1S,3S,6,1S/8,2S 78 77 S 1",
		[]uint64{1, 2, 4, 8, 13, 26, 47, 86, 153}},
}

func TestPerft(t *testing.T) {
	for _, tc := range perftCounts {
		p, _, err := ParseFEN(tc.fen, Standard())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, want := range tc.counts {
			depth := i + 1
			if depth > 8 && testing.Short() && want > 1e6 {
				continue
			}
			if got := Perft(p, depth); got != want {
				t.Errorf("%s: Perft(%d) = %d, want %d", tc.name, depth, got, want)
			}
			if got := PerftBulk(p, depth); got != want {
				t.Errorf("%s: PerftBulk(%d) = %d, want %d", tc.name, depth, got, want)
			}
		}
	}
}
