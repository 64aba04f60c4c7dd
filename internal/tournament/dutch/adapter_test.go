package dutch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
	"pgregory.net/rapid"
)

// TestAdapterTRFFixtures pairs the TRF fixtures again through the real
// reader (tournament.ReadTRF) and the adapter: the same pairs as the test
// reader gives, and the same input player by player.
func TestAdapterTRFFixtures(t *testing.T) {
	for _, f := range trfFixtures {
		t.Run(f.file, func(t *testing.T) {
			text := fixture(t, f.file)
			ev, err := tournament.ReadTRF(strings.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Rounds == 0 {
				ev.Rounds = f.rounds
			}
			pairs, err := Pairer{}.Pair(ev)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := tournament.WritePairs(&b, pairs); err != nil {
				t.Fatal(err)
			}
			if b.String() != f.want {
				t.Errorf("got\n%swant\n%s", b.String(), f.want)
			}
			got, err := InputFor(ev)
			if err != nil {
				t.Fatal(err)
			}
			want, err := readTRF(text, f.rounds)
			if err != nil {
				t.Fatal(err)
			}
			if got.Round != want.Round || got.Rounds != want.Rounds || got.InitialColour != want.InitialColour || len(got.Players) != len(want.Players) {
				t.Fatalf("input round %d/%d colour %d players %d, the test reader's %d/%d %d %d", got.Round, got.Rounds, got.InitialColour, len(got.Players), want.Round, want.Rounds, want.InitialColour, len(want.Players))
			}
			for i, g := range got.Players {
				w := want.Players[i]
				if g.ID != w.ID || g.Score != w.Score || !slices.Equal(g.Colours, w.Colours) || !slices.Equal(g.Floats, w.Floats) || !slices.Equal(g.Opponents, w.Opponents) || g.ByeReceived != w.ByeReceived {
					t.Errorf("player %d: adapter %+v, test reader %+v", g.ID, g, w)
				}
			}
		})
	}
}

// TestAdapterMapsTheEvent checks each mapping of the adapter on an event
// with every kind of round (C.04.1 art. 4, C.04.2, C.04.3 1.4).
func TestAdapterMapsTheEvent(t *testing.T) {
	ev := tournament.New("T", tournament.Dutch, 5)
	ev.Colour = "black1"
	ev.Scoring.PairingBye = 0.5 // the event's rules: the bye is worth a draw
	for i := range 8 {
		if _, err := ev.AddPlayer(tournament.Player{Name: fmt.Sprint("P", i+1), Rating: 2000 - 10*i}, tournament.ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	w, b := tournament.White, tournament.Black
	rounds := map[int][2]tournament.Entry{
		// round 1: 1-2 won by 1; 3-4 a forfeit won by 3; 5 a full-point
		// bye, 6 a half-point bye, 7 the pairing-allocated bye (½), 8 a
		// zero-point bye.
		1: {{Opponent: 2, Colour: w, Code: tournament.Win}, {Opponent: 1, Colour: b, Code: tournament.Loss}},
		3: {{Opponent: 4, Colour: w, Code: tournament.ForfeitWin}, {Opponent: 3, Colour: b, Code: tournament.ForfeitLoss}},
	}
	for s, en := range rounds {
		ev.Player(s).Rounds = []tournament.Entry{en[0]}
		ev.Player(en[0].Opponent).Rounds = []tournament.Entry{en[1]}
	}
	for s, c := range map[int]tournament.Code{5: tournament.FullBye, 6: tournament.HalfBye, 7: tournament.PairingBye, 8: tournament.ZeroBye} {
		ev.Player(s).Rounds = []tournament.Entry{{Colour: tournament.NoColor, Code: c}}
	}
	// Round 2: 2 has asked for a zero-point bye, 4 has withdrawn.
	if err := ev.RequestBye(2, 2, tournament.ZeroBye); err != nil {
		t.Fatal(err)
	}
	if err := ev.Withdraw(4); err != nil {
		t.Fatal(err)
	}
	in, err := InputFor(ev)
	if err != nil {
		t.Fatal(err)
	}
	if in.Round != 2 || in.Rounds != 5 || in.InitialColour != Black {
		t.Errorf("round %d of %d, colour %d", in.Round, in.Rounds, in.InitialColour)
	}
	type want struct {
		score  int
		colour Colour
		float  Float
		opp    []int
		bye    bool
		absent bool
	}
	wants := map[int]want{
		1: {2, White, NoFloat, []int{2}, false, false},
		2: {0, Black, NoFloat, []int{1}, false, true}, // Z requested for round 2
		3: {2, None, Down, nil, true, false},          // forfeit win: no game, downfloat, no bye (art. 4)
		4: {0, None, NoFloat, nil, false, true},       // forfeit loss, withdrawn
		5: {2, None, Down, nil, true, false},          // F: a win's points without playing
		6: {1, None, Down, nil, false, false},         // H: more than a loss, less than a win
		7: {1, None, Down, nil, true, false},          // U, whatever it is worth
		8: {0, None, NoFloat, nil, false, false},      // Z: no more than a loss
	}
	for _, p := range in.Players {
		w := wants[p.ID]
		if p.Score != w.score || len(p.Colours) != 1 || p.Colours[0] != w.colour || len(p.Floats) != 1 || p.Floats[0] != w.float ||
			!slices.Equal(p.Opponents, w.opp) || p.ByeReceived != w.bye || p.Absent != w.absent {
			t.Errorf("player %d: %+v, want %+v", p.ID, p, w)
		}
	}
	// The round before must be complete.
	ev2 := tournament.New("T", tournament.Dutch, 3)
	for i := range 4 {
		ev2.AddPlayer(tournament.Player{Name: fmt.Sprint("P", i+1)}, tournament.ZeroBye)
	}
	if _, _, err := tournament.PairNext(ev2, Pairer{}); err != nil {
		t.Fatal(err)
	}
	if _, err := (Pairer{}).Pair(ev2); err == nil || !strings.Contains(err.Error(), "without a result") {
		t.Errorf("a round still in play: %v", err)
	}
}

// TestAdapterFloats: after round 1 (1-3 won by 1, 2-4 drawn), round 2 pairs
// 1-2 (a downfloat for 1, an upfloat for 2); the input of round 3 says so.
func TestAdapterFloats(t *testing.T) {
	ev := tournament.New("T", tournament.Dutch, 3)
	for i := range 4 {
		ev.AddPlayer(tournament.Player{Name: fmt.Sprint("P", i+1)}, tournament.ZeroBye)
	}
	results := []map[int]tournament.Result{{1: tournament.WhiteWins, 2: tournament.Drawn}, {}}
	for _, res := range results {
		round, pairs, err := tournament.PairNext(ev, Pairer{})
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range pairs {
			rr, ok := res[pr.White]
			if !ok {
				rr = tournament.Drawn
			}
			if err := ev.SetResult(round, pr.White, rr); err != nil {
				t.Fatal(err)
			}
		}
	}
	in, err := InputFor(ev)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int][]Float{}
	for _, p := range in.Players {
		got[p.ID] = p.Floats
	}
	// Round 1: 1-3, 4-2 (or 2-4) paired top half against bottom half; round
	// 2: 1 (1 point) meets the best of the ½s.
	var opp1 int
	for _, p := range in.Players {
		if p.ID == 1 {
			opp1 = p.Opponents[1]
		}
	}
	if got[1][1] != Down || got[opp1][1] != Up {
		t.Errorf("round 2 floats: 1 %v, %d %v; want Down, Up", got[1], opp1, got[opp1])
	}
	ev.Scoring.Win = 3
	if _, err := InputFor(ev); err == nil || !strings.Contains(err.Error(), "XXS") {
		t.Errorf("a 3-point win: %v", err)
	}
}

// TestAdapterRandomEvents drives random events through the adapter and
// the event's own records, round by round, with draws, forfeits, requested
// byes, withdrawals and late entries: no rematch over the board, the colour
// limits (C.04.1 art. 6, 7; topscorers excepted in the last round), every
// player to be paired paired once or given the bye, one bye at most, and
// never to a player who had a win's points without playing (art. 4).
func TestAdapterRandomEvents(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(5, 24).Draw(rt, "players")
		rounds := rapid.IntRange(3, 9).Draw(rt, "rounds")
		ev := tournament.New("R", tournament.Dutch, rounds)
		ev.Colour = rapid.SampledFrom([]string{"white1", "black1"}).Draw(rt, "colour")
		for i := range n {
			ev.AddPlayer(tournament.Player{Name: fmt.Sprint("P", i+1), Rating: 2400 - 10*i}, tournament.ZeroBye)
		}
		for r := 1; r <= rounds; r++ {
			// Between rounds: a late entry, a withdrawal, requested byes.
			if r > 1 && rapid.IntRange(0, 4).Draw(rt, "late") == 0 {
				ev.AddPlayer(tournament.Player{Name: "Late"}, rapid.SampledFrom([]tournament.Code{tournament.ZeroBye, tournament.HalfBye}).Draw(rt, "missed"))
			}
			if rapid.IntRange(0, 9).Draw(rt, "withdraw") == 0 {
				ev.Withdraw(rapid.IntRange(1, len(ev.Players)).Draw(rt, "who"))
			}
			for range rapid.IntRange(0, 2).Draw(rt, "requests") {
				s := rapid.IntRange(1, len(ev.Players)).Draw(rt, "asker")
				ev.RequestBye(s, r, rapid.SampledFrom([]tournament.Code{tournament.HalfBye, tournament.ZeroBye, tournament.FullBye}).Draw(rt, "kind"))
			}
			avail := ev.Available(r)
			in, err := InputFor(ev)
			if err != nil {
				rt.Fatal(err)
			}
			mayBye := map[int]bool{}
			top := map[int]bool{}
			for _, p := range in.Players {
				mayBye[p.ID] = !p.ByeReceived
				top[p.ID] = r == rounds && p.Score > r-1
			}
			got, pairs, err := tournament.PairNext(ev, Pairer{})
			if err == nil && got != r {
				rt.Fatalf("paired round %d, want %d", got, r)
			}
			if err != nil {
				// Only when the absolute criteria cannot be met, which a
				// brute force over the players' pairings confirms (for 12
				// or fewer: it grows as (n-1)!!).
				if !strings.Contains(err.Error(), ErrNoPairing.Error()) {
					rt.Fatal(err)
				}
				if len(avail) <= 12 && canPair(in) {
					rt.Fatalf("round %d: %v, but a pairing meets C1-C3", r, err)
				}
				return
			}
			seen := map[int]bool{}
			byes := 0
			for _, pr := range pairs {
				for _, s := range []int{pr.White, pr.Black} {
					if s != 0 {
						if seen[s] {
							rt.Fatalf("round %d: %d paired twice", r, s)
						}
						seen[s] = true
					}
				}
				if pr.Black == 0 {
					byes++
					if !mayBye[pr.White] {
						rt.Fatalf("round %d: the bye to %d, who may not have it", r, pr.White)
					}
					continue
				}
				for k := 1; k < r; k++ {
					if en := ev.Player(pr.White).Entry(k); en.Played() && en.Opponent == pr.Black {
						rt.Fatalf("round %d: %d-%d met over the board in round %d", r, pr.White, pr.Black, k)
					}
				}
			}
			if byes > 1 || len(seen) != len(avail) || byes != len(avail)%2 {
				rt.Fatalf("round %d: %d of %d players paired, %d byes", r, len(seen), len(avail), byes)
			}
			for _, s := range avail {
				if !seen[s] {
					rt.Fatalf("round %d: %d not paired", r, s)
				}
			}
			// Results: mostly games, some forfeits.
			for _, pr := range pairs {
				if pr.Black == 0 {
					continue
				}
				res := rapid.SampledFrom([]tournament.Result{tournament.WhiteWins, tournament.BlackWins, tournament.Drawn, tournament.WhiteWins, tournament.BlackWins, tournament.Drawn, tournament.WhiteForfeit, tournament.BlackForfeit, tournament.DoubleForfeit}).Draw(rt, "result")
				if err := ev.SetResult(r, pr.White, res); err != nil {
					rt.Fatal(err)
				}
			}
			// C3 does not bind topscorers in the last round: neither
			// player of a pair with a topscorer is held to the limits.
			free := map[int]bool{}
			for _, pr := range pairs {
				if top[pr.White] || top[pr.Black] {
					free[pr.White], free[pr.Black] = true, true
				}
			}
			checkColours(rt, ev, r, free)
		}
		for i := range ev.Players {
			u := 0
			for _, en := range ev.Players[i].Rounds {
				if en.Code == tournament.PairingBye {
					u++
				}
			}
			if u > 1 {
				rt.Fatalf("player %d had %d pairing-allocated byes", ev.Players[i].Start, u)
			}
		}
	})
}

// checkColours: after round r, the colour difference of the games played
// is within ±2 and nobody had a colour three times running (C.04.1 art. 6,
// 7), but for the players free of them (topscorers' pairs in the last round).
func checkColours(rt *rapid.T, ev *tournament.Event, r int, free map[int]bool) {
	for i := range ev.Players {
		p := &ev.Players[i]
		if free[p.Start] {
			continue
		}
		var seq []tournament.Colour
		for k := 1; k <= r; k++ {
			if en := p.Entry(k); en.Played() {
				seq = append(seq, en.Colour)
			}
		}
		cd := 0
		for _, c := range seq {
			if c == tournament.White {
				cd++
			} else {
				cd--
			}
		}
		if cd > 2 || cd < -2 {
			rt.Fatalf("after round %d player %d has colours %c", r, p.Start, seq)
		}
		for j := 2; j < len(seq); j++ {
			if seq[j] == seq[j-1] && seq[j] == seq[j-2] {
				rt.Fatalf("after round %d player %d has colours %c", r, p.Start, seq)
			}
		}
	}
}

// canPair reports whether some pairing of the input's players meets the
// absolute criteria: C1 (no rematch), C2 (the bye only to a player who may
// have it), C3 (no two non-topscorers with the same absolute colour
// preference), by brute force.
func canPair(in Input) bool {
	var ps []Player
	for _, p := range in.Players {
		if !p.Absent {
			ps = append(ps, p)
		}
	}
	last := in.Rounds > 0 && in.Round >= in.Rounds
	ok := func(a, b Player) bool {
		if slices.Contains(a.Opponents, b.ID) {
			return false
		}
		_, pa, sa := preference(a.Colours)
		_, pb, sb := preference(b.Colours)
		topA, topB := last && a.Score > in.Round-1, last && b.Score > in.Round-1
		return !(sa == prefAbsolute && sb == prefAbsolute && pa == pb && !topA && !topB)
	}
	used := make([]bool, len(ps))
	var rec func(bye bool) bool
	rec = func(bye bool) bool {
		i := slices.Index(used, false)
		if i < 0 {
			return true
		}
		used[i] = true
		defer func() { used[i] = false }()
		if !bye && len(ps)%2 == 1 && !ps[i].ByeReceived && rec(true) {
			return true
		}
		for j := i + 1; j < len(ps); j++ {
			if !used[j] && ok(ps[i], ps[j]) {
				used[j] = true
				found := rec(bye)
				used[j] = false
				if found {
					return true
				}
			}
		}
		return false
	}
	return rec(false)
}
