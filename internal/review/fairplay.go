package review

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/store"
)

// FairPlayStore keeps the fair-play evidence (store.PutFairPlay) and
// gives the rating a casual game's player is judged at (store.Perf).
type FairPlayStore interface {
	PutFairPlay(ctx context.Context, f game.FairPlay) error
	Perf(ctx context.Context, userID int64, cat rating.Category) (store.Perf, error)
}

// EvidenceAnalyzer is an analyzer that also computes the fair-play
// evidence of a game's moves (internal/fairplay) where it searches its
// reviews: Local in this process, Process in its child, Remote on a
// worker.
type EvidenceAnalyzer interface {
	Evidence(ctx context.Context, start toguz.Position, moves []toguz.Move, times []time.Duration) ([]fairplay.Move, error)
}

// Evidence computes the fair-play evidence in this process, at the lowest
// priority of the OS unless foreground.
func (l *Local) Evidence(ctx context.Context, start toguz.Position, moves []toguz.Move, times []time.Duration) ([]fairplay.Move, error) {
	if l.fp == nil {
		a, err := fairplay.NewAnalyzer()
		if err != nil {
			return nil, err
		}
		l.fp = a
	}
	return evidence(ctx, l.fp, start, moves, times, !l.foreground)
}

func evidence(ctx context.Context, a *fairplay.Analyzer, start toguz.Position, moves []toguz.Move, times []time.Duration, background bool) (ev []fairplay.Move, err error) {
	run := func() { ev, err = a.Analyze(ctx, start, moves, times) }
	if background {
		engine.InBackground(run)
	} else {
		run()
	}
	return ev, err
}

// Evidence asks the child for the evidence.
func (p *Process) Evidence(ctx context.Context, start toguz.Position, moves []toguz.Move, times []time.Duration) ([]fairplay.Move, error) {
	a, err := p.exchange(ctx, evidenceJob(start, moves, times))
	return a.Evidence, err
}

// Evidence asks a worker for the evidence.
func (r *Remote) Evidence(ctx context.Context, start toguz.Position, moves []toguz.Move, times []time.Duration) ([]fairplay.Move, error) {
	a, err := r.exchange(ctx, evidenceJob(start, moves, times))
	return a.Evidence, err
}

func evidenceJob(start toguz.Position, moves []toguz.Move, times []time.Duration) job {
	j := newJob(start, moves, 0)
	j.FairPlay = true
	if times != nil {
		j.Times = make([]int64, len(times))
		for i, t := range times {
			j.Times[i] = t.Milliseconds()
		}
	}
	return j
}

// deepBest returns the best move of every ply of a stored review of a game
// of plies plies, where the review searched to the fair-play evidence's
// deeper depth (fairplay.DeepDepth); nil otherwise.
func deepBest(review []byte, plies int) []toguz.Move {
	d, err := Decode(review)
	if err != nil || d.Depth != fairplay.DeepDepth || len(d.Plies) != plies {
		return nil
	}
	best := make([]toguz.Move, plies)
	for i, p := range d.Plies {
		best[i] = p.Best
	}
	return best
}

// serveEvidence answers a fair-play job with *fp, made if nil.
func serveEvidence(ctx context.Context, fp **fairplay.Analyzer, j job) ([]fairplay.Move, error) {
	start, moves, err := jobGame(j)
	if err != nil {
		return nil, err
	}
	if len(j.Times) > len(moves) {
		return nil, fmt.Errorf("job of %d times for %d plies", len(j.Times), len(moves))
	}
	var times []time.Duration
	for _, ms := range j.Times {
		times = append(times, time.Duration(ms)*time.Millisecond)
	}
	if *fp == nil {
		if *fp, err = fairplay.NewAnalyzer(); err != nil {
			return nil, err
		}
	}
	ev, err := evidence(ctx, *fp, start, moves, times, true)
	if err == nil && len(ev) != len(moves) {
		err = errors.New("fair-play evidence cut short")
	}
	return ev, err
}

// moveTimes returns the time each ply of g took from the clocks stored
// with its moves (nil for a game without a clock): the mover's clock
// before the ply, plus the increment, less after it.
func moveTimes(g game.Saved) []time.Duration {
	if g.TC.Days > 0 || g.TC.Base+g.TC.Increment == 0 || len(g.Moves) == 0 || g.Moves[0].Clock == [2]time.Duration{} {
		return nil
	}
	left := make([]time.Duration, len(g.Moves))
	for i, m := range g.Moves {
		left[i] = m.Clock[m.By]
	}
	return fairplay.ClockTimes(g.TC.Base, g.TC.Increment, g.Moves[0].By, left)
}

// judgeFairPlay computes the fair-play evidence of a finished game in
// which an account played and stores one row per account's side; the
// engine's and guests' sides get none. A rated game's side may be flagged;
// a casual game's is stored unflagged, for the account's comparison of
// its rated and casual play. review is the game's review just stored: its
// best move of every ply is the evidence's deeper search
// (fairplay.DeepDepth), at no added cost, where the review searched to
// that depth.
func (q *Queue) judgeFairPlay(ctx context.Context, a Analyzer, g game.Saved, review []byte) error {
	ea, ok := a.(EvidenceAnalyzer)
	if !ok || g.End == nil {
		return nil
	}
	var sides []toguz.Player
	for _, pl := range []toguz.Player{toguz.White, toguz.Black} {
		if s := g.Seat(pl); s.UserID > 0 && !s.Guest && !s.IsEngine() {
			sides = append(sides, pl)
		}
	}
	if len(sides) == 0 {
		return nil
	}
	start, _, err := g.Spec.Start()
	if err != nil {
		return err
	}
	moves := make([]toguz.Move, len(g.Moves))
	for i, m := range g.Moves {
		moves[i] = m.Hole
	}
	ev, err := ea.Evidence(ctx, start, moves, moveTimes(g))
	if err != nil {
		return err
	}
	fairplay.SetDeep(ev, deepBest(review, len(ev)))
	m := q.cfg.Model
	for _, pl := range sides {
		seat := g.Seat(pl)
		// A rated game has the rating before it; a casual one is judged at
		// the account's rating in the time control's category now, so
		// that a strong player's casual games are not judged as a
		// beginner's.
		at := float64(seat.Rating)
		if cat, ok := rating.ForTimeControl(g.TC); at <= 0 && ok {
			if p, err := q.cfg.FairPlay.Perf(ctx, seat.UserID, cat); err == nil && p.Games > 0 {
				at = p.Rating.Rating
			}
		}
		known := int(math.Round(at)) // the row's rating: 0 when none is known
		if at <= 0 {
			at = fairplay.UnratedRating
		}
		var own []fairplay.Move
		for _, mv := range ev {
			if mv.Mover == pl {
				own = append(own, mv)
			}
		}
		v := m.Judge(own, at, m.Threshold)
		side := "white"
		if pl == toguz.Black {
			side = "black"
		}
		row := game.FairPlay{GameID: g.ID, Side: side, UserID: seat.UserID, Rating: known, Moves: v.Moves,
			Agree1: v.Agree1, Agree3: v.Agree3, MeanLoss: v.MeanLoss, Score: v.Score, Strength: v.Strength, IPR: v.IPR,
			Flag: v.Flag && g.Rated, Computed: q.now(), Rated: g.Rated, Timed: v.Timed, TimeCorr: v.TimeCorr,
			Deep: v.Deep, AgreeDeep: v.AgreeDeep}
		if err := q.cfg.FairPlay.PutFairPlay(ctx, row); err != nil {
			return err
		}
	}
	return nil
}
