package doubleswiss

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// field returns n players with no history.
func field(n int) []Player {
	out := make([]Player, n)
	for i := range out {
		out[i] = Player{TPN: i + 1}
	}
	return out
}

func TestRound(t *testing.T) {
	W, B, N := White, Black, None
	tests := []struct {
		name string
		in   Input
		want []Pair
	}{
		{
			// 3.6: the first identifier is 1 2 3 | 4 5 6: the top half
			// against the bottom half; 4.3.1: an odd TPN gets the initial
			// colour, an even one the other.
			name: "round 1, six players",
			in:   Input{Players: field(6)},
			want: []Pair{{1, 4}, {5, 2}, {3, 6}},
		},
		{
			name: "round 1, initial colour Black",
			in:   Input{Players: field(4), Initial: Black},
			want: []Pair{{3, 1}, {2, 4}},
		},
		{
			// 3.4: the bye to the lowest score, then the most matches, then
			// the largest TPN; the rest as usual.
			name: "round 1, seven players: the bye to 7",
			in:   Input{Players: field(7)},
			want: []Pair{{1, 4}, {5, 2}, {3, 6}, {7, 0}},
		},
		{
			// [C2]: 7 had the bye; of 4, 5 and 6 (0 points, a match each)
			// 6 has the largest TPN.
			name: "the bye skips a player who had it",
			in: Input{Players: []Player{
				{TPN: 1, Score: 2, Opponents: []int{4}, Colours: []Colour{W}, Matches: 1},
				{TPN: 2, Score: 2, Opponents: []int{5}, Colours: []Colour{B}, Matches: 1},
				{TPN: 3, Score: 2, Opponents: []int{6}, Colours: []Colour{W}, Matches: 1},
				{TPN: 4, Score: 0, Opponents: []int{1}, Colours: []Colour{B}, Matches: 1},
				{TPN: 5, Score: 0, Opponents: []int{2}, Colours: []Colour{W}, Matches: 1},
				{TPN: 6, Score: 0, Opponents: []int{3}, Colours: []Colour{B}, Matches: 1},
				{TPN: 7, Score: 1.5, Colours: []Colour{N}, NoBye: true},
			}},
			// 2-pointers 1 2 3 need one upfloater: 7 (1.5, the highest
			// score below). Bracket 1 2 3 7: tops 1 2, bottoms 3 7.
			want: []Pair{{3, 1}, {2, 7}, {4, 5}, {6, 0}},
		},
		{
			// [C1]: 1 met 3, so the first identifier is 1 2 | 4 3.
			name: "a rematch avoided by the next identifier",
			in: Input{Players: []Player{
				{TPN: 1, Score: 1, Opponents: []int{3}, Colours: []Colour{W}, Matches: 1},
				{TPN: 2, Score: 1, Opponents: []int{4}, Colours: []Colour{B}, Matches: 1},
				{TPN: 3, Score: 1, Opponents: []int{1}, Colours: []Colour{B}, Matches: 1},
				{TPN: 4, Score: 1, Opponents: []int{2}, Colours: []Colour{W}, Matches: 1},
			}},
			// 1 (W) - 4 (W): same Whites; both had White last: no
			// difference; 1 alternates: Black. 2 (B) - 3 (B): 2 alternates.
			want: []Pair{{4, 1}, {2, 3}},
		},
		{
			// A match forfeited (both games) is no meeting: 1 and 3 may
			// meet again, and the first identifier pairs them.
			name: "a forfeited match may be repeated",
			in: Input{Players: []Player{
				{TPN: 1, Score: 2, Colours: []Colour{N}, NoBye: true},
				{TPN: 2, Score: 2, Opponents: []int{4}, Colours: []Colour{W}, Matches: 1},
				{TPN: 3, Score: 0, Colours: []Colour{N}},
				{TPN: 4, Score: 0, Opponents: []int{2}, Colours: []Colour{B}, Matches: 1},
			}},
			// 1 and 2 lead; 1 has no colour, 2 had White: fewer Whites, 1.
			// 3 had no colour: 4.3.5, 4 alternates.
			want: []Pair{{1, 2}, {4, 3}},
		},
		{
			// [C4] one upfloater, [C5] from the 1-point group, [C7] not 4
			// who floated last round: 5.
			name: "the upfloater who did not float last round",
			in: Input{Players: []Player{
				{TPN: 1, Score: 2, Colours: []Colour{W}},
				{TPN: 2, Score: 2, Colours: []Colour{B}},
				{TPN: 3, Score: 2, Colours: []Colour{W}},
				{TPN: 4, Score: 1, Colours: []Colour{B}, Floated: true},
				{TPN: 5, Score: 1, Colours: []Colour{W}},
				{TPN: 6, Score: 1, Colours: []Colour{B}},
				{TPN: 7, Score: 0, Colours: []Colour{W}},
				{TPN: 8, Score: 0, Colours: []Colour{B}},
			}},
			want: []Pair{{3, 1}, {2, 5}, {4, 6}, {8, 7}},
		},
		{
			// The same in the last round: [C7] does not apply, 4 is first.
			// 4.3.4: 2 alternates from Black; 4.3.2: 6 had fewer Whites.
			name: "the last round ignores the floats",
			in: Input{LastRound: true, Players: []Player{
				{TPN: 1, Score: 2, Colours: []Colour{W}},
				{TPN: 2, Score: 2, Colours: []Colour{B}},
				{TPN: 3, Score: 2, Colours: []Colour{W}},
				{TPN: 4, Score: 1, Colours: []Colour{B}, Floated: true},
				{TPN: 5, Score: 1, Colours: []Colour{W}},
				{TPN: 6, Score: 1, Colours: []Colour{B}},
				{TPN: 7, Score: 0, Colours: []Colour{W}},
				{TPN: 8, Score: 0, Colours: []Colour{B}},
			}},
			want: []Pair{{3, 1}, {2, 4}, {6, 5}, {8, 7}},
		},
		{
			// [C6]: taking 4 would leave 5 and 6, who met: their bracket
			// would need two upfloaters, not none. 5 is taken; 4 and 6
			// pair.
			name: "the next scoregroup's need",
			in: Input{Players: []Player{
				{TPN: 1, Score: 2},
				{TPN: 2, Score: 2},
				{TPN: 3, Score: 2},
				{TPN: 4, Score: 1},
				{TPN: 5, Score: 1, Opponents: []int{6}},
				{TPN: 6, Score: 1, Opponents: []int{5}},
				{TPN: 7, Score: 0},
				{TPN: 8, Score: 0},
			}},
			want: []Pair{{1, 3}, {5, 2}, {6, 4}, {7, 8}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Round(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Round = %v, want %v", got, tt.want)
			}
			ref, err := refRound(tt.in)
			if err != nil || !slices.Equal(ref, tt.want) {
				t.Errorf("reference = %v, %v; want %v", ref, err, tt.want)
			}
		})
	}
}

func TestColours(t *testing.T) {
	W, B, N := White, Black, None
	tests := []struct {
		name    string
		h, o    []Colour
		hrpTPN  int
		initial Colour
		hWhite  bool
	}{
		{"4.3.1 odd TPN, initial White", nil, nil, 1, White, true},
		{"4.3.1 even TPN, initial White", nil, nil, 2, White, false},
		{"4.3.1 even TPN, initial Black", nil, nil, 2, Black, true},
		{"4.3.2 fewer Whites", []Colour{W, B, B}, []Colour{W, W, B}, 1, White, true},
		{"4.3.3 the latest difference", []Colour{W, B, N}, []Colour{B, N, W}, 1, White, false},
		{"4.3.3 an earlier difference", []Colour{B, W, W}, []Colour{W, B, W}, 1, White, false},
		{"4.3.4 the higher ranked alternates", []Colour{N, W}, []Colour{W, N}, 1, White, false},
		{"4.3.5 his opponent alternates", []Colour{N, N}, []Colour{B, N}, 1, White, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &state{in: Input{Initial: tt.initial}, pl: []Player{{TPN: tt.hrpTPN, Colours: tt.h}, {TPN: 9, Colours: tt.o}}}
			w, _ := s.colours(0, 1)
			if (w == 0) != tt.hWhite {
				t.Errorf("the higher ranked has White: %v, want %v", w == 0, tt.hWhite)
			}
			if refHRPWhite(s.pl[0], s.pl[1], tt.initial) != tt.hWhite {
				t.Errorf("the reference disagrees")
			}
		})
	}
}

func TestUnpairable(t *testing.T) {
	// Three players who all met: no pairing, whoever gets the bye.
	in := Input{Players: []Player{
		{TPN: 1, Opponents: []int{2, 3}},
		{TPN: 2, Opponents: []int{1, 3}},
		{TPN: 3, Opponents: []int{1, 2}},
	}}
	if _, err := Round(in); !errors.Is(err, ErrUnpairable) {
		t.Fatalf("Round = %v, want ErrUnpairable", err)
	}
	// Two who may not have the bye, one player: nobody may.
	if _, err := Round(Input{Players: []Player{{TPN: 1, NoBye: true}}}); !errors.Is(err, ErrUnpairable) {
		t.Fatalf("Round = %v, want ErrUnpairable", err)
	}
	if _, err := Round(Input{Players: []Player{{TPN: 1}, {TPN: 1}}}); err == nil {
		t.Fatal("a TPN twice was accepted")
	}
}

// TestInvariants pairs larger random tournaments than the reference can
// and checks what every pairing must be: each player once, no rematch, the
// bye to a player who may have it, a bracket never split when it need not.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	runs := 30
	if testing.Short() {
		runs = 5
	}
	for run := range runs {
		n := 20 + rng.IntN(60)
		simulate(rng, n, 3+rng.IntN(6), func(in Input) ([]Pair, bool) {
			got, err := Round(in)
			if errors.Is(err, ErrUnpairable) {
				return nil, false
			}
			if err != nil {
				t.Fatal(err)
			}
			by := map[int]Player{}
			for _, p := range in.Players {
				by[p.TPN] = p
			}
			seen := map[int]bool{}
			for _, p := range got {
				for _, x := range []int{p.White, p.Black} {
					if x != 0 && seen[x] {
						t.Fatalf("run %d: %d paired twice in %v", run, x, got)
					}
					seen[x] = true
				}
				if p.Black == 0 && by[p.White].NoBye {
					t.Fatalf("run %d: the bye to %d, who may not have it", run, p.White)
				}
				if p.Black != 0 && slices.Contains(by[p.White].Opponents, p.Black) {
					t.Fatalf("run %d: %d and %d met before", run, p.White, p.Black)
				}
			}
			if len(seen)-boolInt(seen[0]) != len(in.Players) {
				t.Fatalf("run %d: %d of %d players paired", run, len(seen), len(in.Players))
			}
			return got, true
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func BenchmarkRound(b *testing.B) {
	for _, n := range []int{300, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			// The fifth round of a random tournament.
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			var in Input
			k := 0
			simulate(rng, n, 5, func(x Input) ([]Pair, bool) {
				k++
				if k == 5 {
					in = x
					return nil, false
				}
				p, err := Round(x)
				return p, err == nil
			})
			for b.Loop() {
				if _, err := Round(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFirstRound pairs a first round: one bracket of everyone.
func BenchmarkFirstRound(b *testing.B) {
	in := Input{Players: field(1000)}
	for b.Loop() {
		if _, err := Round(in); err != nil {
			b.Fatal(err)
		}
	}
}
