package fairplay

import (
	"context"
	"math/rand/v2"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// CheatDepth is the search of the cheater's engine at level 10 (the
// levels below search to their own depths: docs/engine.md). It is deeper
// than the evidence's Depth, as a cheater's engine would be.
const CheatDepth = 12

// maxSimPlies ends a simulated game that has not ended by the rules.
const maxSimPlies = 250

// Cheater plays one side of a simulated game: the engine at Level on a
// Share of the moves (1: every move), chosen at random; the other moves,
// and every move of the opponent, are drawn from the model at the players'
// ratings, as a human of that rating would choose them.
type Cheater struct {
	Level int
	Share float64
}

// Simulate plays a game from the first BookPlies plies of rec (a human
// game), the cheater on side, and returns its evidence as a Record: the
// same names, ratings and context, the simulated moves. The cheater's
// engine is eng (its options' Level is set here); rng draws the moves.
// With deep, the game's moves get the deeper evidence too, as the site's
// review would give it.
func (a *Analyzer) Simulate(ctx context.Context, rec Record, side toguz.Player, ch Cheater, m Model, eng *engine.Engine, deep *DeepSearcher, rng *rand.Rand) (Record, error) {
	opts := eng.Options()
	opts.Level, opts.Book, opts.MultiPV = ch.Level, nil, 1
	opts.Seed = rng.Int64()
	if err := eng.SetOptions(opts); err != nil {
		return Record{}, err
	}
	eng.NewGame()
	a.eng.NewGame()
	out := rec
	out.Moves = nil
	p := toguz.StartPosition()
	var prob [16]float64
	for ply := 0; ply < maxSimPlies && !p.IsOver(); ply++ {
		if err := ctx.Err(); err != nil {
			return Record{}, err
		}
		mv := Move{Ply: ply, Mover: p.Turn()}
		if ply < BookPlies && ply < len(rec.Moves) {
			mv.Played, mv.Book = rec.Moves[ply].Played, true
			if !p.LegalMoves().Has(mv.Played) {
				return Record{}, ErrMoves
			}
		} else {
			moves, losses, forced := a.Lines(ctx, p)
			if moves == nil {
				return Record{}, ctx.Err()
			}
			rating := float64(rec.Ratings[p.Turn()])
			if rating <= 0 {
				rating = UnratedRating
			}
			if p.Turn() == side && rng.Float64() < ch.Share {
				mv.Played = eng.Search(ctx, p, engine.Limits{Depth: CheatDepth}, nil).Best
			} else {
				pr := prob[:len(losses)]
				m.probs(losses, rating, pr)
				r, i := rng.Float64(), 0
				for ; i < len(pr)-1 && r >= pr[i]; i++ {
					r -= pr[i]
				}
				mv.Played = moves[i]
			}
			mv.Losses, mv.Forced, mv.Order = losses, forced, moves
			for i, mm := range moves {
				if mm == mv.Played {
					mv.Rank = i
					for mv.Rank > 0 && losses[mv.Rank-1] == losses[i] {
						mv.Rank--
					}
				}
			}
			mv.Book = a.inBook(p, mv.Played)
		}
		out.Moves = append(out.Moves, mv)
		p = p.After(mv.Played)
	}
	if deep != nil {
		if err := deep.Deepen(ctx, toguz.StartPosition(), out.Moves); err != nil {
			return Record{}, err
		}
	}
	return out, nil
}

// newCheatEngine returns the cheater's engine: full strength (Simulate
// sets the level), one thread.
func newCheatEngine() (*engine.Engine, error) {
	opts := engine.DefaultOptions()
	opts.HashMB = 16
	return engine.New(opts)
}

func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }
