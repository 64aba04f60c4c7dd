package toguz

import "testing"

// cycleGame is endgame E2 of docs/rules.md §7 played into a cycle: the position
// after ply 7 recurs after ply 25 and, the 18 moves played again, after
// ply 43 (found by a random search; the rules library checks every move).
func cycleGame(t *testing.T) *Game {
	t.Helper()
	r, err := ParseRules("standard")
	if err != nil {
		t.Fatal(err)
	}
	start, _, err := ParseFEN("1S,3S,6,1S/8,2S 78 77 S 1", r)
	if err != nil {
		t.Fatal(err)
	}
	moves := []Move{9, 9, 1, 8, 2, 9, 9, 8, 3, 1, 4, 9, 5, 2, 6, 3, 7, 4, 1, 5, 8, 6, 9, 7, 2}
	moves = append(moves, moves[7:]...)
	g, err := NewGame(start, moves...)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRepetition(t *testing.T) {
	g := cycleGame(t)
	for _, tc := range []struct {
		limit, ply int
		ok         bool
	}{{0, 0, false}, {1, 0, false}, {2, 25, true}, {3, 43, true}, {4, 0, false}} {
		ply, ok, err := g.Repetition(tc.limit)
		if err != nil || ply != tc.ply || ok != tc.ok {
			t.Errorf("limit %d: ply %d %v %v, want %d %v", tc.limit, ply, ok, err, tc.ply, tc.ok)
		}
	}
	ps, _ := g.Positions()
	r := NewRepetitions(3)
	for _, p := range ps[:26] {
		if r.Add(p) {
			t.Fatal("third occurrence before ply 43")
		}
	}
	if r.Count(ps[7]) != 2 || r.Count(ps[8]) != 1 {
		t.Errorf("counts %d %d", r.Count(ps[7]), r.Count(ps[8]))
	}
}
