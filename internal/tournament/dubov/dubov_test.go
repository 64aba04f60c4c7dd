package dubov

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

const (
	W = White
	B = Black
	N = None
)

// TestPreference follows 1.6: absolute beyond ±1 or after two games of a
// colour, strong at ±1, mild at 0, mild Black before a game; rounds
// without a game do not count.
func TestPreference(t *testing.T) {
	for _, tc := range []struct {
		cs   []Colour
		want Colour
		str  strength
	}{
		{nil, B, mild},
		{[]Colour{N, N}, B, mild},
		{[]Colour{W}, B, strong},
		{[]Colour{B}, W, strong},
		{[]Colour{W, B}, W, mild},
		{[]Colour{B, W}, B, mild},
		{[]Colour{W, W}, B, absolute},
		{[]Colour{B, N, B}, W, absolute},
		{[]Colour{W, B, W, W}, B, absolute},
		{[]Colour{B, B, W, W}, B, absolute}, // difference 0, the last two White
		{[]Colour{W, W, W, B, B}, W, absolute},
		{[]Colour{W, B, W}, B, strong},
		{[]Colour{W, N, B, W, B}, W, mild},
	} {
		c, s := preference(tc.cs)
		if c != tc.want || s != tc.str {
			t.Errorf("%v: %v %d, want %v %d", tc.cs, c, s, tc.want, tc.str)
		}
	}
}

// TestMaxT: 1.8.2's MaxT = 2 + [Rnds/5].
func TestMaxT(t *testing.T) {
	for rounds, want := range map[int]int{4: 2, 5: 3, 9: 3, 10: 4, 11: 4, 15: 5} {
		if got := maxT(rounds); got != want {
			t.Errorf("%d rounds: %d, want %d", rounds, got, want)
		}
	}
}

// TestMiddleOut: 4.3.3 numbers the list from its remaining middle, of two
// middles the higher in the list first.
func TestMiddleOut(t *testing.T) {
	for _, tc := range []struct{ in, want []int }{
		{[]int{1, 2, 3, 4, 5}, []int{3, 2, 4, 1, 5}},
		{[]int{1, 2, 3, 4}, []int{2, 3, 1, 4}},
		{[]int{1}, []int{1}},
		{[]int{1, 2, 3, 4, 5, 6}, []int{3, 4, 2, 5, 1, 6}},
	} {
		if got := middleOut(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("%v: %v, want %v", tc.in, got, tc.want)
		}
	}
}

func fresh(n int) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i] = Player{ID: i + 1, Rating: 2500 - 10*i}
	}
	return ps
}

// TestFirstRound: the first half of the list by TPN (G1) meets the second
// half in order (3.2.3, 3.2.5), the higher ranked player's colour by the
// parity of his TPN (5.2.1), and the last player gets the bye (3.1: the
// largest TPN).
func TestFirstRound(t *testing.T) {
	for _, tc := range []struct {
		n      int
		colour Colour
		want   string
	}{
		{8, White, "{[{1 5} {6 2} {3 7} {8 4}] 0}"},
		{8, Black, "{[{5 1} {2 6} {7 3} {4 8}] 0}"},
		{7, White, "{[{1 4} {5 2} {3 6}] 7}"},
		{2, White, "{[{1 2}] 0}"},
	} {
		got, err := PairRound(Input{Round: 1, Rounds: 5, InitialColour: tc.colour, Players: fresh(tc.n)})
		if err != nil {
			t.Fatal(err)
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("%d players, %v: %s, want %s", tc.n, tc.colour, s, tc.want)
		}
	}
}

// TestBye follows 3.1: not to a player who had a bye or a win without
// playing (C2), then the lowest score, the most games, the largest TPN.
func TestBye(t *testing.T) {
	base := func() []Player {
		return []Player{
			{ID: 1, Score: 2, Colours: []Colour{W, B}, Opponents: []int{10, 11}},
			{ID: 2, Score: 2, Colours: []Colour{B, W}, Opponents: []int{12, 13}},
			{ID: 3, Score: 0, Colours: []Colour{W, N}, Opponents: []int{14}},
			{ID: 4, Score: 0, Colours: []Colour{B, B}, Opponents: []int{15, 16}},
			{ID: 5, Score: 0, Colours: []Colour{W, B}, Opponents: []int{17, 18}},
		}
	}
	for _, tc := range []struct {
		name string
		edit func(ps []Player)
		bye  int
	}{
		{"the largest TPN among the most games", func([]Player) {}, 5},
		{"C2", func(ps []Player) { ps[4].ByeReceived = true }, 4},
		{"C2 for two", func(ps []Player) { ps[4].ByeReceived, ps[3].ByeReceived = true, true }, 3},
		{"the most games", func(ps []Player) { ps[4].Colours = []Colour{W, N}; ps[4].Opponents = []int{17} }, 4},
		{"the lowest score", func(ps []Player) { ps[4].Score = 1 }, 4},
	} {
		ps := base()
		tc.edit(ps)
		got, err := PairRound(Input{Round: 3, Rounds: 5, Players: ps})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.Bye != tc.bye {
			t.Errorf("%s: bye %d, want %d (%v)", tc.name, got.Bye, tc.bye, got)
		}
	}
}

// TestUpfloaterOrder: an odd bracket takes one upfloater, the highest
// score first, then the smallest TPN (4.2), unless he cannot meet a
// resident. (C7 comes before the order: 5 and 6 have the same colours.)
func TestUpfloaterOrder(t *testing.T) {
	players := func() []Player {
		return []Player{
			{ID: 1, Score: 4, Colours: []Colour{W, B}, Opponents: []int{10, 11}},
			{ID: 2, Score: 4, Colours: []Colour{B, W}, Opponents: []int{12, 13}},
			{ID: 3, Score: 4, Colours: []Colour{W, B}, Opponents: []int{14, 15}},
			{ID: 4, Score: 2, Colours: []Colour{B, W}, Opponents: []int{16, 17}},
			{ID: 5, Score: 2, Colours: []Colour{W, B}, Opponents: []int{18, 19}},
			{ID: 6, Score: 2, Colours: []Colour{W, B}, Opponents: []int{20, 21}},
		}
	}
	ps := players()
	got, err := PairRound(Input{Round: 3, Rounds: 5, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	if !hasPair(got, 4, 1) && !hasPair(got, 4, 2) && !hasPair(got, 4, 3) {
		t.Errorf("player 4 is not the upfloater: %v", got)
	}
	ps = players()
	ps[3].Opponents = []int{1, 2}
	ps[0].Opponents = []int{4, 11}
	ps[1].Opponents = []int{4, 13}
	ps[2].Opponents = []int{4, 15}
	got, err = PairRound(Input{Round: 3, Rounds: 5, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	if !hasPair(got, 5, 1) && !hasPair(got, 5, 2) && !hasPair(got, 5, 3) {
		t.Errorf("player 5 is not the upfloater when 4 met the residents: %v", got)
	}
}

func hasPair(p Pairing, a, b int) bool {
	for _, x := range p.Pairs {
		if x.White == a && x.Black == b || x.White == b && x.Black == a {
			return true
		}
	}
	return false
}

// TestWhiteSeekersByARO: in a bracket the White seekers in ascending ARO
// meet the Black seekers in ascending TPN (3.2.5): the one who met the
// weakest opponents meets the strongest.
func TestWhiteSeekersByARO(t *testing.T) {
	ps := []Player{
		{ID: 1, Score: 2, ARO: 2000, Colours: []Colour{B, W}, Opponents: []int{11, 12}},
		{ID: 2, Score: 2, ARO: 1900, Colours: []Colour{W, B}, Opponents: []int{13, 14}},
		{ID: 3, Score: 2, ARO: 1800, Colours: []Colour{W, B}, Opponents: []int{15, 16}},
		{ID: 4, Score: 2, ARO: 1700, Colours: []Colour{B, W}, Opponents: []int{17, 18}},
	}
	got, err := PairRound(Input{Round: 3, Rounds: 5, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	// White seekers 3 (ARO 1800), 2 (1900); Black seekers 1, 4.
	if want := "{[{3 1} {2 4}] 0}"; fmt.Sprint(got) != want {
		t.Errorf("%v, want %s", got, want)
	}
}

// TestColours follows 5.2: both preferences, the stronger, alternation
// from the last round with different colours, the higher ranked player's
// preference.
func TestColours(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   []Colour // a is the higher ranked (TPN 1), b TPN 2
		aWhite bool
	}{
		{"both granted", []Colour{B}, []Colour{W}, true},
		{"the stronger", []Colour{W, W, B}, []Colour{B, W}, false},
		{"the stronger, b's", []Colour{B, W}, []Colour{B, B}, false},
		{"alternation", []Colour{W, B}, []Colour{B, W, N}[:2], true},
		{"alternation from the last games with different colours", []Colour{B, W, B, W}, []Colour{W, W, B, B}, false},
		{"alternation over played games only", []Colour{B, W, B, W, B}, []Colour{N, B, W, B, N}, true},
		{"the higher ranked", []Colour{W, B}, []Colour{W, B}, true},
	} {
		in := Input{Round: len(tc.a) + 1, Rounds: 9, Players: []Player{
			{ID: 1, Score: 2, Colours: tc.a}, {ID: 2, Score: 2, Colours: tc.b},
		}}
		e := newEngine(in)
		w, _ := e.colours(0, 1)
		if got := e.ps[w].ID == 1; got != tc.aWhite {
			t.Errorf("%s: player 1 White %v, want %v", tc.name, got, tc.aWhite)
		}
	}
}

// TestUnpairable: C1 and C3 can leave no legal pairing.
func TestUnpairable(t *testing.T) {
	ps := []Player{
		{ID: 1, Colours: []Colour{W}, Opponents: []int{2}},
		{ID: 2, Colours: []Colour{B}, Opponents: []int{1}},
	}
	if _, err := PairRound(Input{Round: 2, Rounds: 3, Players: ps}); !errors.Is(err, tournament.ErrUnpairable) {
		t.Errorf("a rematch: %v", err)
	}
	ps = []Player{
		{ID: 1, Colours: []Colour{W, W}, Opponents: []int{3, 4}},
		{ID: 2, Colours: []Colour{W, W}, Opponents: []int{5, 6}},
	}
	if _, err := PairRound(Input{Round: 3, Rounds: 5, Players: ps}); !errors.Is(err, tournament.ErrUnpairable) {
		t.Errorf("two absolute Black preferences: %v", err)
	}
}

// TestInputFor maps an event: scores in half points, colours and
// opponents of played games only, ARO rounded half up, upfloats, C2.
func TestInputFor(t *testing.T) {
	e := tournament.New("t", tournament.System("dubov"), 5)
	for i, r := range []int{2400, 2301, 2200, 2100} {
		if _, err := e.AddPlayer(tournament.Player{Name: fmt.Sprintf("P%d", i+1), Rating: r}, tournament.ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	// Round 1: 1-3 1-0, 4-2 ½; round 2: 3 beats 2 by forfeit, 1-4 1-0.
	set := func(r int, rounds map[int]tournament.Entry) {
		for s, en := range rounds {
			e.Player(s).Rounds = append(e.Player(s).Rounds, en)
		}
	}
	set(1, map[int]tournament.Entry{1: {Opponent: 3, Colour: 'w', Code: '1'}, 3: {Opponent: 1, Colour: 'b', Code: '0'},
		4: {Opponent: 2, Colour: 'w', Code: '='}, 2: {Opponent: 4, Colour: 'b', Code: '='}})
	set(2, map[int]tournament.Entry{3: {Opponent: 2, Colour: 'w', Code: '+'}, 2: {Opponent: 3, Colour: 'b', Code: '-'},
		1: {Opponent: 4, Colour: 'b', Code: '1'}, 4: {Opponent: 1, Colour: 'w', Code: '0'}})
	in, err := InputFor(e)
	if err != nil {
		t.Fatal(err)
	}
	if in.Round != 3 || len(in.Players) != 4 {
		t.Fatalf("round %d, %d players", in.Round, len(in.Players))
	}
	want := []string{
		"{ID:1 Score:4 Rating:2400 Colours:[White Black] Opponents:[3 4] ARO:2150 ByeReceived:false Upfloats:0 UpfloatedLast:false}",
		"{ID:2 Score:1 Rating:2301 Colours:[Black none] Opponents:[4] ARO:2100 ByeReceived:false Upfloats:0 UpfloatedLast:false}",
		"{ID:3 Score:2 Rating:2200 Colours:[Black none] Opponents:[1] ARO:2400 ByeReceived:true Upfloats:0 UpfloatedLast:false}",
		"{ID:4 Score:1 Rating:2100 Colours:[White White] Opponents:[2 1] ARO:2351 ByeReceived:false Upfloats:1 UpfloatedLast:true}",
	}
	for i, p := range in.Players {
		if got := fmt.Sprintf("%+v", p); got != want[i] {
			t.Errorf("player %d:\n got %s\nwant %s", p.ID, got, want[i])
		}
	}
}
