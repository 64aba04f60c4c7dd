package burstein

import (
	"fmt"
	"math"

	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// Pairer pairs the next round of a tournament.Event by the Burstein system:
// the seeding rounds (1.6) by the Dutch system (dutch.Pairer), the others
// by PairRound. It implements tournament.Pairer.
type Pairer struct{}

var _ tournament.Pairer = Pairer{}

// SeedingRounds is 1.6.2: half the rounds, rounded down, at most four.
func SeedingRounds(rounds int) int { return min(rounds/2, 4) }

// Pair implements tournament.Pairer.
func (Pairer) Pair(e *tournament.Event) ([]tournament.Pair, error) {
	if e.Played()+1 <= SeedingRounds(e.Rounds) {
		return dutch.Pairer{}.Pair(e)
	}
	in, err := InputFor(e)
	if err != nil {
		return nil, err
	}
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

// InputFor builds the input of the event's next round. The scores, colours,
// opponents, bye status, absences and virtual points are the Dutch
// system's (dutch.InputFor says how the event maps to them); the Index is
// 1.7's, over the rounds played:
//
//   - Buchholz: for each round, the current score of the opponent met over
//     the board, or the player's own current score for a round he did not
//     play (a bye, a forfeit, an absence);
//   - Sonneborn-Berger: for each round, that same score times the points
//     the player made in the round;
//   - a player whose first rounds were zero-point byes (a late entry) counts
//     each of them as a draw in his score as his opponents' Buchholz and
//     Sonneborn-Berger see it (1.7.2).
func InputFor(e *tournament.Event) (Input, error) {
	din, err := dutch.InputFor(e)
	if err != nil {
		return Input{}, err
	}
	r := din.Round
	sc := e.Scoring
	half := func(x float64) int { return int(math.Round(2 * x)) }
	// now[s]: current score in half points; seen[s]: as opponents see it.
	now := map[int]int{}
	seen := map[int]int{}
	for i := range e.Players {
		p := &e.Players[i]
		lead := true
		for k := 1; k < r; k++ {
			en := p.Entry(k)
			pts := half(sc.Points(en))
			now[p.Start] += pts
			if lead && en.Code == tournament.ZeroBye && en.Opponent == 0 {
				seen[p.Start] += half(sc.Draw)
				continue
			}
			lead = false
			seen[p.Start] += pts
		}
	}
	in := Input{Round: r, InitialColour: din.InitialColour}
	for _, dp := range din.Players {
		p := e.Player(dp.ID)
		x := Player{
			ID: dp.ID, Score: dp.Score, Points: now[dp.ID],
			Colours: dp.Colours, Opponents: dp.Opponents,
			ByeReceived: dp.ByeReceived, Absent: dp.Absent,
		}
		for k := 1; k < r; k++ {
			en := p.Entry(k)
			v := now[dp.ID]
			if en.Played() {
				v = seen[en.Opponent]
				x.Games++
			}
			x.Buchholz += v
			x.SonnebornBerger += v * half(sc.Points(en))
		}
		in.Players = append(in.Players, x)
	}
	return in, nil
}
