package tournament

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The Berger tables as FIDE C.05 Annex 1 prints them, "white:black" by
// board, one round a line (3–4, 5–6, 7–8, 9–10, 11–12, 13–14 players).
var bergerTables = map[int]string{
	4: `1:4 2:3
4:3 1:2
2:4 3:1`,
	6: `1:6 2:5 3:4
6:4 5:3 1:2
2:6 3:1 4:5
6:5 1:4 2:3
3:6 4:2 5:1`,
	8: `1:8 2:7 3:6 4:5
8:5 6:4 7:3 1:2
2:8 3:1 4:7 5:6
8:6 7:5 1:4 2:3
3:8 4:2 5:1 6:7
8:7 1:6 2:5 3:4
4:8 5:3 6:2 7:1`,
	10: `1:10 2:9 3:8 4:7 5:6
10:6 7:5 8:4 9:3 1:2
2:10 3:1 4:9 5:8 6:7
10:7 8:6 9:5 1:4 2:3
3:10 4:2 5:1 6:9 7:8
10:8 9:7 1:6 2:5 3:4
4:10 5:3 6:2 7:1 8:9
10:9 1:8 2:7 3:6 4:5
5:10 6:4 7:3 8:2 9:1`,
	12: `1:12 2:11 3:10 4:9 5:8 6:7
12:7 8:6 9:5 10:4 11:3 1:2
2:12 3:1 4:11 5:10 6:9 7:8
12:8 9:7 10:6 11:5 1:4 2:3
3:12 4:2 5:1 6:11 7:10 8:9
12:9 10:8 11:7 1:6 2:5 3:4
4:12 5:3 6:2 7:1 8:11 9:10
12:10 11:9 1:8 2:7 3:6 4:5
5:12 6:4 7:3 8:2 9:1 10:11
12:11 1:10 2:9 3:8 4:7 5:6
6:12 7:5 8:4 9:3 10:2 11:1`,
	14: `1:14 2:13 3:12 4:11 5:10 6:9 7:8
14:8 9:7 10:6 11:5 12:4 13:3 1:2
2:14 3:1 4:13 5:12 6:11 7:10 8:9
14:9 10:8 11:7 12:6 13:5 1:4 2:3
3:14 4:2 5:1 6:13 7:12 8:11 9:10
14:10 11:9 12:8 13:7 1:6 2:5 3:4
4:14 5:3 6:2 7:1 8:13 9:12 10:11
14:11 12:10 13:9 1:8 2:7 3:6 4:5
5:14 6:4 7:3 8:2 9:1 10:13 11:12
14:12 13:11 1:10 2:9 3:8 4:7 5:6
6:14 7:5 8:4 9:3 10:2 11:1 12:13
14:13 1:12 2:11 3:10 4:9 5:8 6:7
7:14 8:6 9:5 10:4 11:3 12:2 13:1`,
}

func formatRound(pairs []Pair) string {
	var s []string
	for _, p := range pairs {
		s = append(s, fmt.Sprintf("%d:%d", p.White, p.Black))
	}
	return strings.Join(s, " ")
}

func TestBergerTables(t *testing.T) {
	for n, table := range bergerTables {
		for r, want := range strings.Split(table, "\n") {
			got, err := Berger(n, r+1)
			if err != nil {
				t.Fatal(err)
			}
			if formatRound(got) != want {
				t.Errorf("%d players, round %d: %s, want %s", n, r+1, formatRound(got), want)
			}
		}
	}
}

// TestBergerOdd: with an odd count the highest number is the dummy; its
// opponent has the bye (printed last).
func TestBergerOdd(t *testing.T) {
	for r, want := range []string{"2:5 3:4 1:0", "5:3 1:2 4:0", "3:1 4:5 2:0", "1:4 2:3 5:0", "4:2 5:1 3:0"} {
		got, _ := Berger(5, r+1)
		if formatRound(got) != want {
			t.Errorf("5 players, round %d: %s, want %s", r+1, formatRound(got), want)
		}
	}
}

// TestDoubleBergerSwap: the first cycle's last two rounds are swapped (C.05
// Annex 1), the second cycle reverses the colours of the table's rounds.
func TestDoubleBergerSwap(t *testing.T) {
	want := []string{"1:6 2:5 3:4", "6:4 5:3 1:2", "2:6 3:1 4:5", "3:6 4:2 5:1", "6:5 1:4 2:3",
		"6:1 5:2 4:3", "4:6 3:5 2:1", "6:2 1:3 5:4", "5:6 4:1 3:2", "6:3 2:4 1:5"}
	for r, w := range want {
		got, err := DoubleBerger(6, r+1)
		if err != nil || formatRound(got) != w {
			t.Errorf("round %d: %s %v, want %s", r+1, formatRound(got), err, w)
		}
	}
}

// colours returns each player's colours over the rounds, "w", "b" or "-".
func colours(t *rapid.T, n, rounds int, round func(int, int) ([]Pair, error)) map[int]string {
	seq := map[int]string{}
	for r := 1; r <= rounds; r++ {
		pairs, err := round(n, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pairs {
			if p.Black == 0 {
				seq[p.White] += "-"
				continue
			}
			seq[p.White] += "w"
			seq[p.Black] += "b"
		}
	}
	return seq
}

func TestRoundRobinProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 40).Draw(t, "players")
		double := rapid.Bool().Draw(t, "double")
		rounds := BergerRounds(n)
		f, times := Berger, 1
		if double {
			rounds, f, times = 2*rounds, DoubleBerger, 2
		}
		met := map[[2]int]int{}
		var whiteFirst map[[2]int]int = map[[2]int]int{}
		for r := 1; r <= rounds; r++ {
			pairs, err := f(n, r)
			if err != nil {
				t.Fatal(err)
			}
			in := map[int]bool{}
			for _, p := range pairs {
				for _, s := range []int{p.White, p.Black} {
					if s == 0 {
						continue
					}
					if s < 1 || s > n || in[s] {
						t.Fatalf("round %d: player %d out of range or twice: %v", r, s, pairs)
					}
					in[s] = true
				}
				if p.Black != 0 {
					k := [2]int{min(p.White, p.Black), max(p.White, p.Black)}
					met[k]++
					if p.White == k[0] {
						whiteFirst[k]++
					}
				}
			}
			if len(in) != n {
				t.Fatalf("round %d: %d players paired of %d", r, len(in), n)
			}
		}
		for a := 1; a <= n; a++ {
			for b := a + 1; b <= n; b++ {
				k := [2]int{a, b}
				if met[k] != times {
					t.Fatalf("%d and %d meet %d times, want %d", a, b, met[k], times)
				}
				if double && whiteFirst[k] != 1 {
					t.Fatalf("%d and %d: %d has White %d times in two games", a, b, a, whiteFirst[k])
				}
			}
		}
		// The Berger table's colour balance: over a cycle every player's
		// Whites and Blacks differ by at most one (byes aside), and in the
		// double round robin nobody has the same colour three times running.
		seq := colours(t, n, rounds, f)
		for s, c := range seq {
			w, b := strings.Count(c, "w"), strings.Count(c, "b")
			if w-b > times || b-w > times {
				t.Fatalf("player %d: colours %s", s, c)
			}
			if double && n > 4 {
				plain := strings.ReplaceAll(c, "-", "")
				if strings.Contains(plain, "www") || strings.Contains(plain, "bbb") {
					t.Fatalf("player %d: colours %s (three running)", s, c)
				}
			}
		}
	})
}
