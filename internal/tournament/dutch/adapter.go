package dutch

import (
	"errors"
	"fmt"
	"math"

	"github.com/toguz/toguz/internal/tournament"
)

// Pairer pairs the next round of a tournament.Event by the Dutch system: it
// implements tournament.Pairer. The package imports tournament, not the
// other way round; the command connects the two through PairerFor.
//
// How the event maps to the pairing's input (Input), round by round of the
// rounds already played:
//
//   - The pairing number is the player's TRF start number. C.04.2 numbers the
//     players in the initial order (strength, i.e. rating, then title, then
//     name) before round 1, and a TRF file is written in that order: the
//     endorsed programs pair a TRF by its start numbers as they stand, and so
//     does this.
//   - The score counts every round with the event's points (XXS: the byes U,
//     H, F, Z and the forfeits as the event scores them), in half points.
//   - Colours: only games played over the board count (C.04.2: only played
//     games count where the colour sequence is meaningful); a bye, an absence
//     or a forfeit is None.
//   - Floats (C.04.3 1.4.2, 1.4.3): a game between different scores before
//     the round is a downfloat for the higher and an upfloat for the lower;
//     a round not played that scored more than a loss (the bye, a forfeit
//     win, an H or F bye worth more than a loss) is a downfloat.
//   - Opponents are those met over the board: a forfeited game is not a
//     meeting, so the two may be paired again (C.04.2, the pairing not
//     actually played; C.04.1 art. 2 forbids playing twice).
//   - The bye (C.04.1 art. 4, 2025): a player who had the pairing-allocated
//     bye, or scored in one round without playing as many points as a win (a
//     forfeit win, a full-point bye), may not get it.
//   - Absent: the players Event.Available leaves out of the round: withdrawn
//     (XXW), or with the round's entry already written (a requested H, Z or F
//     bye, the programs' convention; a late entry's missed rounds).
//   - The Baku acceleration (the event's system DutchBaku): each player's
//     virtual points for the round (Event.BakuPoints) are added to his score,
//     and to the scores that decide the floats of the past rounds; without
//     it, the virtual points of the event's XXA lines (another program's
//     acceleration), if any, count the same way.
//   - InitialColour: XXC white1 or black1; without it, the colour player 1 had
//     in round 1, else White.
type Pairer struct {
	// MaxNodes is passed to Input.MaxNodes (0: DefaultMaxNodes).
	MaxNodes int
}

var _ tournament.Pairer = Pairer{}

// Pair implements tournament.Pairer.
func (p Pairer) Pair(e *tournament.Event) ([]tournament.Pair, error) {
	in, err := InputFor(e)
	if err != nil {
		return nil, err
	}
	in.MaxNodes = p.MaxNodes
	res, err := PairRound(in)
	if err != nil {
		return nil, fmt.Errorf("round %d: %w", in.Round, err)
	}
	out := make([]tournament.Pair, 0, len(res.Pairs)+1)
	for _, pr := range res.Pairs {
		out = append(out, tournament.Pair{White: pr.White, Black: pr.Black})
	}
	if res.Bye != 0 {
		out = append(out, tournament.Pair{White: res.Bye})
	}
	return out, nil
}

// InputFor builds the input of the event's next round, e.Played()+1, as
// Pairer's doc says. It does not change e.
func InputFor(e *tournament.Event) (Input, error) {
	sc := e.Scoring
	if sc.Win != 1 || sc.Draw != 0.5 || sc.Loss != 0 {
		return Input{}, fmt.Errorf("the Dutch system scores 1, ½ and 0 a game, not %g, %g and %g (XXS)", sc.Win, sc.Draw, sc.Loss)
	}
	r := e.Played() + 1
	if r > 1 && !e.Complete(r-1) {
		return Input{}, fmt.Errorf("round %d still has games without a result", r-1)
	}
	in := Input{Round: r, Rounds: e.Rounds, InitialColour: initialColour(e)}
	// The Baku acceleration's virtual points (C.04.5.1) count in the
	// scores the pairing sees, then and in the floats of past rounds.
	accel := func(int, int) int { return 0 }
	xxa, err := e.Accelerations()
	if err != nil {
		return Input{}, err
	}
	switch {
	case e.System == tournament.DutchBaku:
		accel = func(start, k int) int { return int(2 * e.BakuPoints(start, k)) }
	case xxa != nil:
		// Virtual points another program wrote (XXA lines).
		for start, v := range xxa {
			for k, x := range v {
				if _, err := halfPoints(x); err != nil {
					return Input{}, fmt.Errorf("XXA, player %d, round %d: %w", start, k+1, err)
				}
			}
		}
		accel = func(start, k int) int {
			if v := xxa[start]; k-1 < len(v) {
				h, _ := halfPoints(v[k-1])
				return h
			}
			return 0
		}
	}
	avail := map[int]bool{}
	for _, s := range e.Available(r) {
		avail[s] = true
	}
	// before[s][k] is player s's score in half points before round k+1.
	before := make(map[int][]int, len(e.Players))
	for i := range e.Players {
		pl := &e.Players[i]
		h := make([]int, r)
		for k := 1; k < r; k++ {
			pts, err := halfPoints(sc.Points(pl.Entry(k)))
			if err != nil {
				return Input{}, fmt.Errorf("player %d, round %d: %w", pl.Start, k, err)
			}
			h[k] = h[k-1] + pts
		}
		before[pl.Start] = h
	}
	for i := range e.Players {
		pl := &e.Players[i]
		h := before[pl.Start]
		dp := Player{ID: pl.Start, Rating: pl.Rating, Score: h[r-1] + accel(pl.Start, r), Absent: !avail[pl.Start]}
		dp.Colours = make([]Colour, r-1)
		dp.Floats = make([]Float, r-1)
		for k := 1; k < r; k++ {
			en := pl.Entry(k)
			if en.Code == tournament.PairingBye {
				dp.ByeReceived = true
			}
			if en.Opponent > 0 || en.Code == tournament.PairingBye {
				dp.PairedBefore = true
			}
			if !en.Played() {
				if en.Code != 0 && sc.Points(en) > sc.Loss {
					dp.Floats[k-1] = Down // 1.4.3
				}
				if en.Code != 0 && sc.Points(en) >= sc.Win {
					dp.ByeReceived = true // C.04.1 art. 4
				}
				continue
			}
			switch en.Colour {
			case tournament.White:
				dp.Colours[k-1] = White
			case tournament.Black:
				dp.Colours[k-1] = Black
			}
			dp.Opponents = append(dp.Opponents, en.Opponent)
			oh, ok := before[en.Opponent]
			if !ok {
				return Input{}, fmt.Errorf("player %d, round %d: opponent %d is not a player", pl.Start, k, en.Opponent)
			}
			switch mine, theirs := h[k-1]+accel(pl.Start, k), oh[k-1]+accel(en.Opponent, k); {
			case mine > theirs:
				dp.Floats[k-1] = Down
			case mine < theirs:
				dp.Floats[k-1] = Up
			}
		}
		in.Players = append(in.Players, dp)
	}
	return in, nil
}

var errNotHalf = errors.New("the Dutch system counts in half points")

// halfPoints converts points to half points, which must be whole.
func halfPoints(x float64) (int, error) {
	h := math.Round(2 * x)
	if math.Abs(2*x-h) > 1e-9 {
		return 0, fmt.Errorf("%w, not %g", errNotHalf, x)
	}
	return int(h), nil
}

// initialColour is the colour drawn for round 1 (E.5): the event's XXC, or
// the colour player 1 had in round 1 (the top seed of a TRF written without
// XXC), else White.
func initialColour(e *tournament.Event) Colour {
	switch e.Colour {
	case "white1":
		return White
	case "black1":
		return Black
	}
	if p := e.Player(1); p != nil {
		if en := p.Entry(1); en.Opponent > 0 && en.Colour == tournament.Black {
			return Black
		}
	}
	return White
}
