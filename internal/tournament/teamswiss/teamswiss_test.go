package teamswiss

import (
	"errors"
	"slices"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

func teams(n int) []Team {
	ts := make([]Team, n)
	for i := range ts {
		ts[i] = Team{ID: i + 1}
	}
	return ts
}

func W(n int) []Colour { return slices.Repeat([]Colour{White}, n) }

func TestPairRound(t *testing.T) {
	tests := []struct {
		name string
		in   func() Input
		want Pairing
	}{{
		// 3.6: the first identifier is the top half's TPNs then the bottom
		// half's: 1-5, 2-6, 3-7, 4-8; 4.3.1: odd TPNs take the initial colour.
		name: "round 1, the natural pairing",
		in:   func() Input { return Input{Round: 1, Rounds: 5, InitialColour: White, Teams: teams(8)} },
		want: Pairing{Matches: []Match{{1, 5}, {6, 2}, {3, 7}, {8, 4}}},
	}, {
		name: "round 1, initial colour black",
		in:   func() Input { return Input{Round: 1, Rounds: 5, InitialColour: Black, Teams: teams(4)} },
		want: Pairing{Matches: []Match{{3, 1}, {2, 4}}},
	}, {
		// [C1]: 1 met 3, so (1,2,3,4) falls; next in identifier order is
		// (1,2,4,3): 1-4, 2-3.
		name: "a rematch moves to the next identifier",
		in: func() Input {
			ts := teams(4)
			for i := range ts {
				ts[i].Colours = []Colour{None}
			}
			ts[0].Opponents, ts[2].Opponents = []int{3}, []int{1}
			return Input{Round: 2, Rounds: 5, InitialColour: White, Teams: ts}
		},
		want: Pairing{Matches: []Match{{1, 4}, {3, 2}}},
	}, {
		// 3.4: lowest score (4 and 5), then most matches played (5 played
		// one more), then the largest TPN; [C2] bars 5 (it had a bye), so 4.
		name: "the bye: lowest score, most matches, [C2]",
		in: func() Input {
			ts := teams(5)
			for i := range ts {
				ts[i].Colours = []Colour{None, None}
				ts[i].Primary = 4
			}
			ts[3].Primary, ts[4].Primary = 0, 0
			ts[3].Matches, ts[4].Matches = 1, 2
			ts[2].Matches = 2
			ts[4].ByeBarred = true
			return Input{Round: 3, Rounds: 5, InitialColour: White, Teams: ts}
		},
		want: Pairing{Matches: []Match{{1, 3}, {5, 2}}, Bye: 4},
	}, {
		// [C8]: 1 and 3 want White, 2 and 4 Black (Type A: two Blacks in a
		// row, two Whites in a row); 1-3 and 2-4 would leave two unfulfilled,
		// so (1,2,4,3): 1-4, 2-3, everyone served.
		name: "[C8] passes over the identifier that clashes",
		in: func() Input {
			ts := teams(4)
			bb, ww := []Colour{Black, Black}, []Colour{White, White}
			ts[0].Colours, ts[1].Colours, ts[2].Colours, ts[3].Colours = bb, ww, bb, ww
			return Input{Round: 3, Rounds: 7, InitialColour: White, Teams: ts}
		},
		want: Pairing{Matches: []Match{{1, 4}, {3, 2}}},
	}, {
		// NoPreferences: the same position keeps the first identifier.
		name: "no colour preferences",
		in: func() Input {
			ts := teams(4)
			bb, ww := []Colour{Black, Black}, []Colour{White, White}
			ts[0].Colours, ts[1].Colours, ts[2].Colours, ts[3].Colours = bb, ww, bb, ww
			return Input{Round: 3, Rounds: 7, InitialColour: White, Preferences: NoPreferences, Teams: ts}
		},
		// 4.3.5 gives the lower colour difference White: 1 (-2) and 2 (+2)
		// against 3 (-2), 4 (+2): 1-3 equal: 4.3.6 finds no round with
		// different colours, 4.3.7 no preference, 4.3.8 first-team 1 had
		// Black last: White.
		want: Pairing{Matches: []Match{{1, 3}, {4, 2}}},
	}, {
		// [C4], [C5], 3.5.4: 1, 2, 3 lead; one upfloater, the highest
		// score below (4 and 5 have 2 points, 6 none): 4, the smaller TPN.
		name: "one upfloater, the best score, the smaller TPN",
		in: func() Input {
			ts := teams(6)
			for i := range ts {
				ts[i].Colours = []Colour{None}
			}
			ts[0].Primary, ts[1].Primary, ts[2].Primary = 4, 4, 4
			ts[3].Primary, ts[4].Primary = 2, 2
			return Input{Round: 2, Rounds: 5, InitialColour: White, Teams: ts}
		},
		// 4.3.1: none has played; the first-team 2 has an even number.
		want: Pairing{Matches: []Match{{1, 3}, {4, 2}, {5, 6}}},
	}, {
		// [C7]: 4 floated last round, so 5 goes up instead.
		name: "[C7]: an upfloater who did not float last round",
		in: func() Input {
			ts := teams(6)
			for i := range ts {
				ts[i].Colours = []Colour{None}
			}
			ts[0].Primary, ts[1].Primary, ts[2].Primary = 4, 4, 4
			ts[3].Primary, ts[4].Primary = 2, 2
			ts[3].Floated = true
			return Input{Round: 2, Rounds: 5, InitialColour: White, Teams: ts}
		},
		want: Pairing{Matches: []Match{{1, 3}, {5, 2}, {6, 4}}},
	}, {
		// ... except in the last two rounds.
		name: "[C7] does not apply in the last two rounds",
		in: func() Input {
			ts := teams(6)
			for i := range ts {
				ts[i].Colours = []Colour{None}
			}
			ts[0].Primary, ts[1].Primary, ts[2].Primary = 4, 4, 4
			ts[3].Primary, ts[4].Primary = 2, 2
			ts[3].Floated = true
			return Input{Round: 2, Rounds: 3, InitialColour: White, Teams: ts}
		},
		want: Pairing{Matches: []Match{{1, 3}, {4, 2}, {5, 6}}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in()
			got, err := PairRound(in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Matches, tt.want.Matches) || got.Bye != tt.want.Bye {
				t.Errorf("got %v bye %d, want %v bye %d", got.Matches, got.Bye, tt.want.Matches, tt.want.Bye)
			}
			checkRound(t, in, got)
		})
	}
}

// The example of 3.5.4: 2, 6 and 8 have 3 points, 1, 3 and 5 have 2.5;
// with three upfloaters of which [C5] makes two 3-pointers, the sets come
// in the order {2,6,1}, {2,6,3}, {2,6,5}, {2,8,1}, ...
func TestUpfloaterSetOrder(t *testing.T) {
	e := newEngine(Input{Round: 5, Teams: []Team{
		{ID: 1, Primary: 5}, {ID: 2, Primary: 6}, {ID: 3, Primary: 5}, {ID: 5, Primary: 5},
		{ID: 6, Primary: 6}, {ID: 8, Primary: 6},
	}})
	cands := append([]*team(nil), e.teams...)
	slices.SortFunc(cands, byScoreTPN)
	groups := groupByScore(cands)
	profs := profiles(groups, 3)
	if !slices.Equal(profs[0], []int{3, 0}) || !slices.Equal(profs[1], []int{2, 1}) {
		t.Fatalf("profiles %v: [C5] puts three 3-pointers first, then two and one 2.5", profs)
	}
	var got [][]int
	e.eachSet(groups, profs[1], func(set []*team) bool {
		var ids []int
		for _, t := range set {
			ids = append(ids, t.ID)
		}
		got = append(got, ids)
		return true
	})
	want := [][]int{{2, 6, 1}, {2, 6, 3}, {2, 6, 5}, {2, 8, 1}, {2, 8, 3}, {2, 8, 5}, {6, 8, 1}, {6, 8, 3}, {6, 8, 5}}
	if len(got) != len(want) {
		t.Fatalf("sets %v, want %v", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("set %d: %v, want %v", i, got[i], want[i])
		}
	}
}

func TestPreference(t *testing.T) {
	B, N := Black, None
	tests := []struct {
		cols   []Colour
		typ    PreferenceType
		last   bool
		pref   Colour
		strong bool
	}{
		{nil, TypeA, false, None, false},
		{[]Colour{White}, TypeA, false, None, false},
		{[]Colour{White}, TypeB, false, Black, false},        // CD +1: mild
		{[]Colour{White, White}, TypeA, false, Black, true},  // CD > 1
		{[]Colour{B, N, B}, TypeA, false, White, true},       // two Blacks in the last two played
		{[]Colour{W(1)[0], B, B}, TypeA, false, White, true}, // CD -1 and BB
		{[]Colour{B, White}, TypeA, false, None, false},      // CD 0, alternating
		{[]Colour{B, White}, TypeB, false, Black, false},     // CD 0: mild, from the last
		{[]Colour{B, White}, TypeB, true, None, false},       // ... but not in the last round
		{[]Colour{White, White}, NoPreferences, false, None, false},
	}
	for i, tt := range tests {
		p, s, _, _ := preference(tt.cols, tt.typ, tt.last)
		if p != tt.pref || s != tt.strong {
			t.Errorf("%d %v type %d: %v strong %v, want %v %v", i, tt.cols, tt.typ, p, s, tt.pref, tt.strong)
		}
	}
}

func TestAllocate(t *testing.T) {
	B, N := Black, None
	tests := []struct {
		name      string
		typ       PreferenceType
		a, b      Team
		wantWhite int
	}{
		{"4.3.2 one preference", TypeA, Team{ID: 1, Colours: []Colour{White, White}}, Team{ID: 2, Colours: []Colour{B, White}}, 2},
		{"4.3.3 opposite preferences", TypeA, Team{ID: 1, Colours: []Colour{White, White}}, Team{ID: 2, Colours: []Colour{B, B}}, 2},
		{"4.3.4 the strong one", TypeB, Team{ID: 1, Colours: []Colour{B, N}}, Team{ID: 2, Colours: []Colour{B, B}}, 2},
		{"4.3.5 lower colour difference", TypeA, Team{ID: 1, Colours: []Colour{B, White, White}}, Team{ID: 2, Colours: []Colour{N, B, White}}, 2},
		{"4.3.6 alternate the last round they differed", TypeA, Team{ID: 1, Colours: []Colour{White, B, N}}, Team{ID: 2, Colours: []Colour{N, White, B}}, 1},
		{"4.3.8 alternate the first-team's last colour", TypeA, Team{ID: 1, Primary: 2, Colours: []Colour{N, B}}, Team{ID: 2, Colours: []Colour{B, N}}, 1},
		{"4.2 first-team by score", TypeA, Team{ID: 1, Colours: []Colour{N, White}}, Team{ID: 2, Primary: 2, Colours: []Colour{White, N}}, 1},
		{"4.2.2 first-team by the secondary score", TypeA, Team{ID: 1, Colours: []Colour{N, White}}, Team{ID: 2, Secondary: 3, Colours: []Colour{White, N}}, 1},
		{"4.2.3 first-team by TPN", TypeA, Team{ID: 1, Colours: []Colour{N, White}}, Team{ID: 2, Colours: []Colour{White, N}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEngine(Input{Round: len(tt.a.Colours) + 1, Rounds: 9, Preferences: tt.typ, Teams: []Team{tt.a, tt.b}})
			w, _ := e.allocate(e.byID[1], e.byID[2], map[int]bool{1: true, 2: true})
			if w.ID != tt.wantWhite {
				t.Errorf("White to %d, want %d", w.ID, tt.wantWhite)
			}
		})
	}
}

func TestUnpairable(t *testing.T) {
	ts := teams(2)
	ts[0].Opponents, ts[1].Opponents = []int{2}, []int{1}
	ts[0].Colours, ts[1].Colours = []Colour{White}, []Colour{Black}
	_, err := PairRound(Input{Round: 2, Rounds: 3, Teams: ts})
	if !errors.Is(err, tournament.ErrUnpairable) {
		t.Fatalf("err %v, want ErrUnpairable", err)
	}
	if _, err := PairRound(Input{Round: 1, Teams: []Team{{ID: 1}, {ID: 1}}}); err == nil {
		t.Fatal("a team given twice was paired")
	}
}

func TestFormat(t *testing.T) {
	got := Format(Pairing{Matches: []Match{{1, 3}, {4, 2}}, Bye: 5})
	if want := "3\n1 3\n4 2\n5 0\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
