package game_test

import (
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// TestSpecStart: the zero Start is the rules' start at move 1; a set-up
// start comes back as it was set, without a text in between, with a
// missing move number read as 1; rules without a start position are an
// error.
func TestSpecStart(t *testing.T) {
	rules := toguz.Standard()
	initial, err := toguz.NewPosition(rules)
	if err != nil {
		t.Fatal(err)
	}
	setUp, err := toguz.Setup{Rules: rules, Board: [2][]int{{0, 0, 0, 0, 0, 0, 0, 0, 4}, {0, 0, 0, 0, 1, 0, 1, 1, 1}},
		Kazan: [2]int{76, 78}, Tuzdik: [2]int{6, 7}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		from     game.Start
		zero     bool
		want     toguz.Position
		wantMove int
	}{
		{"rules' start", game.Start{}, true, initial, 1},
		{"set up", game.Start{Position: setUp, Move: 30}, false, setUp, 30},
		{"set up, no move number", game.Start{Position: setUp}, false, setUp, 1},
		{"the rules' start set up", game.Start{Position: initial, Move: 1}, false, initial, 1},
	} {
		s := game.Spec{Rules: rules, From: tc.from}
		p, move, err := s.Start()
		if err != nil || p != tc.want || move != tc.wantMove {
			t.Errorf("%s: %v move %d, %v; want %v move %d", tc.name, p.FEN(), move, err, tc.want.FEN(), tc.wantMove)
		}
		if got := tc.from.IsZero(); got != tc.zero {
			t.Errorf("%s: IsZero %v", tc.name, got)
		}
	}
	if _, _, err := (&game.Spec{}).Start(); err == nil {
		t.Error("the start of a spec without rules: no error")
	}
}

// TestSeats: each kind of seat has its id and is exactly one of a user, a
// guest or the engine; the zero seat is empty.
func TestSeats(t *testing.T) {
	u, g, e := game.UserSeat(7, "abai"), game.GuestSeat("Guest-x"), game.EngineSeat(3, "Engine 3")
	if u.ID != "u:7" || u.UserID != 7 || u.Guest || u.IsEngine() || u.IsEmpty() {
		t.Errorf("user seat %+v", u)
	}
	if g.ID != "g:Guest-x" || g.UserID != 0 || !g.Guest || g.IsEngine() || g.IsEmpty() {
		t.Errorf("guest seat %+v", g)
	}
	if e.ID != "engine" || e.UserID != 0 || e.Guest || !e.IsEngine() || e.Engine != 3 || e.IsEmpty() {
		t.Errorf("engine seat %+v", e)
	}
	if !(game.Seat{}).IsEmpty() {
		t.Error("the zero seat is not empty")
	}
	s := game.Spec{White: u, Black: e}
	if s.Seat(toguz.White) != u || s.Seat(toguz.Black) != e {
		t.Errorf("Spec.Seat: %+v, %+v", s.Seat(toguz.White), s.Seat(toguz.Black))
	}
}

// TestStatusString: the words the clients read (the end message, the
// state's status).
func TestStatusString(t *testing.T) {
	for st, want := range map[game.Status]string{game.Created: "created", game.Playing: "playing",
		game.Ended: "ended", game.Aborted: "aborted", game.Aborted + 1: "unknown"} {
		if got := st.String(); got != want {
			t.Errorf("Status(%d).String() = %q, want %q", st, got, want)
		}
	}
}

func TestGuestNumber(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		ok   bool
	}{
		{"Guest-b90cc6ac40e39a0c", 0xb90c, true},
		{"Guest-0000000000000000", 0, true},
		{"Guest-ffffffffffffffff", 0xffff, true},
		{"Guest-b90cc6ac40e39a0", 0, false},  // 15 digits
		{"Guest-B90CC6AC40E39A0C", 0, false}, // the server writes lower case
		{"Guest-b90cc6ac40e39a0g", 0, false}, // not hex
		{"guest-b90cc6ac40e39a0c", 0, false}, // an account's name
		{"aigul", 0, false},
	} {
		if n, ok := game.GuestNumber(tt.name); n != tt.n || ok != tt.ok {
			t.Errorf("GuestNumber(%q) = %d, %v; want %d, %v", tt.name, n, ok, tt.n, tt.ok)
		}
	}
}
