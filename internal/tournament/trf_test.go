package tournament

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func readSample(t *testing.T) (*Event, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/sample.trf")
	if err != nil {
		t.Fatal(err)
	}
	e, err := ReadTRF(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return e, data
}

// TestTRFRoundTrip: the hand-written sample (every kind of round: won,
// drawn, lost, forfeits, a double forfeit, U, H, an absence, and the next
// round's requested bye) reads and writes back byte for byte, the ranks
// computed by the standings included.
func TestTRFRoundTrip(t *testing.T) {
	e, data := readSample(t)
	if e.Name != "Sample Open" || e.City != "Almaty" || e.Rounds != 5 || e.Colour != "white1" || len(e.RoundDates) != 4 || e.RoundDates[3] != "26/03/04" {
		t.Errorf("header %+v", e)
	}
	if len(e.Players) != 7 || e.Players[1].Sex != 'w' || e.Players[1].Title != "IM" || e.Players[5].Rating != 0 || e.Players[2].Birth != "1975" {
		t.Errorf("players %+v", e.Players)
	}
	if got := e.Played(); got != 3 {
		t.Errorf("played %d rounds, want 3 (round 4 holds only a requested bye)", got)
	}
	if got := e.Players[5].Entry(4); got != (Entry{0, NoColor, HalfBye}) {
		t.Errorf("player 6, round 4: %+v", got)
	}
	if got := e.Available(4); !cmp.Equal(got, []int{1, 2, 3, 4, 5, 7}) {
		t.Errorf("available in round 4: %v (6 asked for a bye)", got)
	}
	var out bytes.Buffer
	if err := e.WriteTRF(&out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(data), out.String()); diff != "" {
		t.Errorf("written differs (-file +written):\n%s", diff)
	}
	again, err := ReadTRF(&out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(e, again); diff != "" {
		t.Errorf("read again differs:\n%s", diff)
	}
}

// TestTRFOwnLines: toguz's XX lines and lines of other kinds survive.
func TestTRFOwnLines(t *testing.T) {
	e, _ := readSample(t)
	e.System = DoubleRoundRobin
	e.Scoring.PairingBye = 0.5
	e.Knockout = KnockoutFormat{Games: 2, TieBreaks: []Stage{{"rapid", 2}, {"armageddon", 1}}}
	e.Withdrawn = []int{7}
	e.Repetition = 3
	e.Extra = []string{"013 Team A    1    2", "XXA something else"}
	// Player 4's U is now worth ½.
	e.Players[3].Points = 2.5
	var out bytes.Buffer
	if err := e.WriteTRF(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"XXY double\n", "XXS W=1 D=0.5 L=0 FW=1 FL=0 PAB=0.5 HPB=0.5 FPB=1 ZPB=0\n", "XXK 2 rapid:2 armageddon\n", "XXW 7\n", "XXD 3\n", "013 Team A    1    2\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	again, err := ReadTRF(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if again.System != DoubleRoundRobin || again.Scoring != e.Scoring || again.Knockout.String() != "2 rapid:2 armageddon" || again.Repetition != 3 || !cmp.Equal(again.Withdrawn, []int{7}) || !cmp.Equal(again.Extra, e.Extra) {
		t.Errorf("read again: %+v", again)
	}
}

// TestTRFErrors: each bad file names its line, column and field.
func TestTRFErrors(t *testing.T) {
	_, data := readSample(t)
	lines := strings.Split(string(data), "\n")
	const p1 = 15 // the index of player 1's line (line 16)
	edit := func(i int, f func(string) string) string {
		l := append([]string(nil), lines...)
		l[i] = f(l[i])
		return strings.Join(l, "\n")
	}
	at := func(col int, s string) func(string) string {
		return func(l string) string { return l[:col-1] + s + l[col-1+len(s):] }
	}
	tests := []struct {
		name, file, want string
	}{
		{"start number", edit(p1, at(5, "   x")), `line 16, column 5 (start number): "x" is not a number`},
		{"duplicate start", edit(p1+1, at(5, "   1")), "line 17, column 5 (start number): start number 1 is already on line 16"},
		{"start out of range", edit(p1, at(5, "   9")), "line 16, column 5 (start number): start number 9 with 7 players"},
		{"sex", edit(p1, at(10, "x")), `line 16, column 10 (sex): "x" is not m or w`},
		{"rating", edit(p1, at(49, "21O0")), `line 16, column 49 (rating): "21O0" is not a number`},
		{"opponent", edit(p1, at(92, "00a5")), `line 16, column 92 (round 1 opponent): "00a5" is not a start number`},
		{"colour", edit(p1, at(97, "x")), `line 16, column 97 (round 1 colour): "x" is not w, b or -`},
		{"result code", edit(p1, at(99, "X")), `line 16, column 99 (round 1 result): "X" is not one of 1 0 = + - W D L H F U Z`},
		{"shifted field", edit(p1, at(100, "1")), `line 16, column 100 (round 2): "1 " where the columns between rounds are blank`},
		{"impossible result", edit(p1, at(99, "=")), "line 16, column 99 (round 1 result): an impossible result: = for player 1, 0 for player 5 (line 20)"},
		{"paired twice", edit(p1, at(92, "0003")), "line 16, column 92 (round 1 opponent): player 1 plays 3, but 3's line (line 18) has opponent 7: paired twice"},
		{"same colour", edit(p1, at(97, "b")), "line 16, column 97 (round 1 colour): players 1 and 5 have colours b and b"},
		{"points", edit(p1, at(81, " 2.5")), "line 16, column 81 (points): 2.5 points, but the rounds give 1.5"},
		{"bye with a colour", edit(p1+3, at(97, "w")), "line 19, column 97 (round 1 colour): w without an opponent"},
		{"win without opponent", edit(p1+3, at(99, "1")), `line 19, column 99 (round 1 result): '1' needs an opponent`},
		{"XXR", edit(12, func(string) string { return "XXR many" }), `line 13, column 5 (XXR rounds): "many" is not a number of rounds`},
		{"XXB", edit(14, func(string) string { return "XXB BH/X1" }), `line 15, column 5 (XXB tie-breaks): tie-break "BH/X1": the modifier is C1, C2`},
		{"short line", edit(3, func(string) string { return "04" }), `line 4, column 1 (line code): "04" is not a TRF line`},
		{"no name", edit(p1, at(15, strings.Repeat(" ", 33))), "line 16, column 15 (name): a player needs a name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTRF(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTRFRoundTripProperty: random round robins and knock-outs, every
// kind of result, written and read back equal, and valid.
func TestTRFRoundTripProperty(t *testing.T) {
	results := []Result{WhiteWins, BlackWins, Drawn, WhiteForfeit, BlackForfeit, DoubleForfeit, WhiteWinsUnrated, BlackWinsUnrated, DrawnUnrated}
	rapid.Check(t, func(t *rapid.T) {
		sys := rapid.SampledFrom([]System{RoundRobin, DoubleRoundRobin, Knockout}).Draw(t, "system")
		n := rapid.IntRange(2, 12).Draw(t, "players")
		e := New(rapid.StringMatching(`[A-Za-z ]{0,20}`).Draw(t, "name"), sys, 0)
		e.Knockout = KnockoutFormat{Games: 2, TieBreaks: []Stage{{"armageddon", 1}}}
		e.TieBreaks, _ = ParseTieBreaks("BH/C1 SB WIN")
		for i := 0; i < n; i++ {
			p := Player{Name: rapid.StringMatching(`[A-Z][a-z]{1,10}, [A-Z][a-z]{1,10}`).Draw(t, "player"), Rating: rapid.IntRange(0, 2800).Draw(t, "rating")}
			if _, err := e.AddPlayer(p, ZeroBye); err != nil {
				t.Fatal(err)
			}
		}
		rounds := rapid.IntRange(0, 12).Draw(t, "rounds")
		pairer, _ := PairerFor(sys, nil)
		for r := 0; r < rounds; r++ {
			round, pairs, err := PairNext(e, pairer)
			if err != nil {
				break // the event is over
			}
			for _, p := range pairs {
				if p.Black != 0 && rapid.IntRange(0, 9).Draw(t, "pending") > 0 || r < rounds-1 && p.Black != 0 {
					res := rapid.SampledFrom(results).Draw(t, "result")
					if sys == Knockout && res == DoubleForfeit {
						res = WhiteForfeit
					}
					if err := e.SetResult(round, p.White, res); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := e.WriteTRF(&out); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTRF(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		var again bytes.Buffer
		back.WriteTRF(&again)
		if again.String() != out.String() {
			t.Fatalf("written twice differs:\n%s\n%s", out.String(), again.String())
		}
		for i := range e.Players {
			if !cmp.Equal(e.Players[i].Rounds, back.Players[i].Rounds) {
				t.Fatalf("player %d: %v, read back %v", i+1, e.Players[i].Rounds, back.Players[i].Rounds)
			}
		}
	})
}
