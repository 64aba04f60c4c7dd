package tournament

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// GenerateConfig describes a random tournament (FIDE C.04.A's Random
// Tournament Generator): its size, how its games end and what happens
// around them. The rates are probabilities, 0 to 1.
type GenerateConfig struct {
	Players, Rounds int
	System          System  // default Dutch
	DrawRate        float64 // of the games played between equal players
	ForfeitRate     float64 // of the games: one side (or both, a tenth of them) does not come
	ByeRate         float64 // of a player's rounds: a requested bye (half the time H, else Z; F one in ten)
	WithdrawRate    float64 // of a player's rounds: he withdraws before it
	LateRate        float64 // of the players: entered late, before a round after the first
	HighestRating   int     // default 2600
	LowestRating    int     // default 1400
	Seed            uint64
}

// maxGeneratePlayers bounds a generated tournament.
const maxGeneratePlayers = 5000

// Generate makes a random tournament with cfg, paired by p round by round,
// every round's results entered. Ratings fall evenly from the highest to
// the lowest with noise; a game's result follows the Elo expectation of
// the ratings, with draws at DrawRate where the players are equal and
// fewer as they differ. The same config and seed give the same event. A
// round that cannot be paired (ErrUnpairable) ends the event early.
func Generate(cfg GenerateConfig, p Pairer) (*Event, error) {
	if cfg.Players < 2 || cfg.Players > maxGeneratePlayers {
		return nil, fmt.Errorf("players: 2 to %d, not %d", maxGeneratePlayers, cfg.Players)
	}
	if !validRounds(cfg.Rounds) {
		return nil, fmt.Errorf("rounds: 1 to 200, not %d", cfg.Rounds)
	}
	for _, r := range []struct {
		name string
		v    float64
	}{{"draw rate", cfg.DrawRate}, {"forfeit rate", cfg.ForfeitRate}, {"bye rate", cfg.ByeRate}, {"withdrawal rate", cfg.WithdrawRate}, {"late entry rate", cfg.LateRate}} {
		if !(r.v >= 0 && r.v <= 1) {
			return nil, fmt.Errorf("%s: 0 to 1, not %g", r.name, r.v)
		}
	}
	if cfg.System == "" {
		cfg.System = Dutch
	}
	if cfg.System == DoubleSwiss && cfg.Rounds%2 == 1 {
		return nil, fmt.Errorf("rounds: a Double-Swiss match is two rounds, so an even number, not %d", cfg.Rounds)
	}
	hi, lo := cfg.HighestRating, cfg.LowestRating
	if hi == 0 {
		hi = 2600
	}
	if lo == 0 {
		lo = 1400
	}
	if lo > hi || lo < 0 || hi > 9999 {
		return nil, fmt.Errorf("ratings: from %d down to %d is not a range", hi, lo)
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x746f67757a))
	ratings := make([]int, cfg.Players)
	for i := range ratings {
		x := float64(hi)
		if cfg.Players > 1 {
			x -= float64(hi-lo) * float64(i) / float64(cfg.Players-1)
		}
		ratings[i] = min(hi, max(lo, int(x+rng.NormFloat64()*30)))
	}
	slices.SortFunc(ratings, func(a, b int) int { return b - a })
	// Late entries come from anywhere in the list; the rest start.
	late := map[int]int{} // index in ratings → the round before which he enters
	if cfg.Rounds > 1 {
		for i := range ratings {
			if rng.Float64() < cfg.LateRate {
				late[i] = 2 + rng.IntN(min(cfg.Rounds-1, 3))
				if cfg.System == DoubleSwiss {
					late[i] |= 1 // a match's first game
				}
			}
		}
	}
	e := New(fmt.Sprintf("Random tournament %d", cfg.Seed), cfg.System, cfg.Rounds)
	e.Colour = "white1"
	if rng.IntN(2) == 1 {
		e.Colour = "black1"
	}
	e.Type = "random tournament"
	rating := map[int]int{}
	add := func(i int, missed Code) error {
		pl, err := e.AddPlayer(Player{Name: fmt.Sprintf("Player %04d", i+1), Rating: ratings[i]}, missed)
		if err != nil {
			return err
		}
		rating[pl.Start] = pl.Rating
		return nil
	}
	for i := range ratings {
		if _, ok := late[i]; !ok {
			if err := add(i, ZeroBye); err != nil {
				return nil, err
			}
		}
	}
	for r := 1; r <= cfg.Rounds; r++ {
		for i := range ratings {
			if late[i] == r {
				if err := add(i, ZeroBye); err != nil {
					return nil, err
				}
			}
		}
		for _, s := range e.Available(r) {
			if cfg.System == DoubleSwiss && r%2 == 0 {
				break // a match's second game: its byes were written with the first
			}
			switch x := rng.Float64(); {
			case x < cfg.WithdrawRate && r > 1:
				if err := e.Withdraw(s); err != nil {
					return nil, err
				}
			case x < cfg.WithdrawRate+cfg.ByeRate:
				c := ZeroBye
				switch y := rng.Float64(); {
				case y < 0.1:
					c = FullBye
				case y < 0.55:
					c = HalfBye
				}
				if err := e.RequestBye(s, r, c); err != nil {
					return nil, err
				}
			}
		}
		if len(e.Available(r)) == 0 {
			break
		}
		_, pairs, err := PairNext(e, p)
		if errors.Is(err, ErrUnpairable) && r > 1 {
			// The field is too small for the rounds left: the event ends
			// here, as an arbiter would end it (XXR stays what was planned:
			// the Baku acceleration and the topscorers depend on it).
			for i := range e.Players {
				pl := &e.Players[i]
				pl.Rounds = pl.Rounds[:min(len(pl.Rounds), r-1)]
			}
			break
		}
		if err != nil {
			return e, err
		}
		for _, pr := range pairs {
			if pr.Black == 0 {
				continue
			}
			if err := e.SetResult(r, pr.White, randomResult(rng, rating[pr.White], rating[pr.Black], cfg)); err != nil {
				return e, err
			}
		}
	}
	return e, nil
}

// randomResult draws a game's result: a forfeit at ForfeitRate, else a
// draw with DrawRate scaled down by the rating difference, else a win by
// the Elo expectation.
func randomResult(rng *rand.Rand, rw, rb int, cfg GenerateConfig) Result {
	if rng.Float64() < cfg.ForfeitRate {
		switch x := rng.Float64(); {
		case x < 0.1:
			return DoubleForfeit
		case x < 0.55:
			return WhiteForfeit
		}
		return BlackForfeit
	}
	d := float64(rw - rb)
	exp := 1 / (1 + math.Pow(10, -d/400))
	draw := cfg.DrawRate * (1 - math.Abs(2*exp-1))
	x := rng.Float64()
	switch {
	case x < draw:
		return Drawn
	case x < draw+(1-draw)*exp:
		return WhiteWins
	}
	return BlackWins
}
