package dubov

import (
	"fmt"
	"math"

	"github.com/toguz/toguz/internal/tournament"
)

// Pairer pairs the next round of a tournament.Event by the Dubov system:
// it implements tournament.Pairer, and PairerFor returns it for the
// system "dubov". How the event maps to the Input:
//
//   - The TPN is the TRF start number (the file is in the initial order
//     of the General Handling Rules, as the endorsed programs read it).
//   - The score counts every round with the event's points (XXS), in half
//     points: the byes and forfeits as the event scores them.
//   - Colours, opponents and ARO come from games played over the board
//     only (1.6, 1.7): a forfeit, a bye or an absence is no game, and two
//     players whose game was forfeited may meet again.
//   - An upfloat (1.8) is a game played against an opponent who had more
//     points before it.
//   - C2: a player who had the pairing-allocated bye, or scored a win's
//     points without playing (a forfeit win, a full-point bye), does not
//     get the bye.
//   - The players to pair are Event.Available: not withdrawn, without a
//     requested bye for the round.
//   - The colour drawn for round 1: XXC white1 or black1, else the colour
//     player 1 had in round 1, else White.
type Pairer struct{}

var _ tournament.Pairer = Pairer{}

// Pair implements tournament.Pairer.
func (Pairer) Pair(e *tournament.Event) ([]tournament.Pair, error) {
	in, err := InputFor(e)
	if err != nil {
		return nil, err
	}
	res, err := PairRound(in)
	if err != nil {
		return nil, fmt.Errorf("round %d: %w", in.Round, err)
	}
	out := make([]tournament.Pair, 0, len(res.Pairs)+1)
	for _, p := range res.Pairs {
		out = append(out, tournament.Pair{White: p.White, Black: p.Black})
	}
	if res.Bye != 0 {
		out = append(out, tournament.Pair{White: res.Bye})
	}
	return out, nil
}

// InputFor builds the input of the event's next round, e.Played()+1, as
// Pairer's doc says. It does not change e.
func InputFor(e *tournament.Event) (Input, error) {
	r := e.Played() + 1
	if r > 1 && !e.Complete(r-1) {
		return Input{}, fmt.Errorf("round %d still has games without a result", r-1)
	}
	in := Input{Round: r, Rounds: e.Rounds, InitialColour: initialColour(e)}
	sc := e.Scoring
	// before[s][k] is player s's score in half points before round k+1.
	before := make(map[int][]int, len(e.Players))
	rating := make(map[int]int, len(e.Players))
	for i := range e.Players {
		p := &e.Players[i]
		rating[p.Start] = p.Rating
		h := make([]int, r)
		for k := 1; k < r; k++ {
			x := 2 * sc.Points(p.Entry(k))
			if math.Abs(x-math.Round(x)) > 1e-9 {
				return Input{}, fmt.Errorf("player %d, round %d: the Dubov system counts in half points, not %g", p.Start, k, x/2)
			}
			h[k] = h[k-1] + int(math.Round(x))
		}
		before[p.Start] = h
	}
	for _, s := range e.Available(r) {
		p := e.Player(s)
		h := before[s]
		dp := Player{ID: s, Score: h[r-1], Rating: p.Rating, Colours: make([]Colour, r-1)}
		sum, n := 0, 0
		for k := 1; k < r; k++ {
			en := p.Entry(k)
			if !en.Played() {
				if en.Code == tournament.PairingBye || en.Code != 0 && sc.Points(en) >= sc.Win {
					dp.ByeReceived = true
				}
				continue
			}
			oh, ok := before[en.Opponent]
			if !ok {
				return Input{}, fmt.Errorf("player %d, round %d: opponent %d is not a player", s, k, en.Opponent)
			}
			switch en.Colour {
			case tournament.White:
				dp.Colours[k-1] = White
			case tournament.Black:
				dp.Colours[k-1] = Black
			}
			dp.Opponents = append(dp.Opponents, en.Opponent)
			sum += rating[en.Opponent]
			n++
			up := oh[k-1] > h[k-1]
			if up {
				dp.Upfloats++
			}
			dp.UpfloatedLast = up && k == r-1
		}
		if n > 0 {
			dp.ARO = (2*sum + n) / (2 * n) // rounded half up (1.7.1)
		}
		in.Players = append(in.Players, dp)
	}
	return in, nil
}

// initialColour is the colour drawn for round 1: the event's XXC, or the
// colour player 1 had in round 1, else White.
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
