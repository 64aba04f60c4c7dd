package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/store"
)

// GameStore adapts internal/store to what the hub (live.Store) and the pages
// (Archive) need.
type GameStore struct{ S *store.Store }

var (
	_ live.Store = GameStore{}
	_ Archive    = GameStore{}
)

func side(s live.Seat) store.Side {
	switch {
	case s.UserID != 0:
		return store.Side{UserID: s.UserID}
	case s.IsEngine():
		return store.Side{Name: s.Name, Engine: s.Engine}
	}
	return store.Side{Name: s.Name}
}

func seat(s store.Side) live.Seat {
	switch {
	case s.UserID != 0:
		return live.Seat{ID: userSeatID(s.UserID), UserID: s.UserID, Name: s.Name}
	case s.Engine > 0:
		return live.Seat{ID: "engine", Name: s.Name, Engine: s.Engine}
	}
	return live.Seat{ID: guestSeatID(s.Name), Name: s.Name, Guest: true}
}

func notFound(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w: %w", live.ErrNotFound, err)
	}
	return err
}

// CreateGame stores a started game with its clock (not running yet).
func (gs GameStore) CreateGame(ctx context.Context, s live.Spec) error {
	g := store.Game{ID: s.ID, Players: [2]store.Side{side(s.White), side(s.Black)}, Rules: s.Rules,
		StartFEN: s.StartFEN, TimeControl: s.TC, Rated: s.Rated, Status: store.StatusStarted, Created: s.Created}
	var clk *clock.State
	if s.TC.Kind() != clock.Unlimited {
		start, _, err := s.Start()
		if err != nil {
			return err
		}
		st := clock.New(s.TC, start.Turn(), time.Now).State()
		clk = &st
	}
	_, err := gs.S.CreateGame(ctx, g, clk)
	return err
}

// AddMove stores a move and the clock state after it in one transaction.
func (gs GameStore) AddMove(ctx context.Context, id string, ply int, m live.PlayedMove) error {
	sm := store.Move{Ply: ply, Hole: m.Hole, Played: m.At, Clock: -1}
	var clk *clock.State
	if m.Clock != [2]time.Duration{} {
		sm.Clock = m.Clock[m.By]
		st := clock.State{Remaining: m.Clock, Turn: m.By.Other(), Running: ply >= 2, Since: m.At}
		if !st.Running {
			st.Since = time.Time{}
		}
		clk = &st
	}
	return notFound(gs.S.AppendMove(ctx, id, sm, clk))
}

// EndGame stores the ending; the store updates the ratings of a rated game
// in the same transaction.
func (gs GameStore) EndGame(ctx context.Context, g live.Saved) error {
	e := g.End
	status := store.StatusEnded
	if e.Status == live.Aborted {
		status = store.StatusAborted
	}
	f := store.Finish{Status: status, Result: e.Result, Termination: e.Termination, At: e.At}
	if g.TC.Kind() != clock.Unlimited {
		f.Clock = &clock.State{Remaining: e.Clock, Stopped: true}
	}
	_, err := gs.S.FinishGame(ctx, g.ID, f)
	return notFound(err)
}

// Game loads a game with its moves.
func (gs GameStore) Game(ctx context.Context, id string) (live.Saved, error) {
	g, err := gs.S.Game(ctx, id)
	if err != nil {
		return live.Saved{}, notFound(err)
	}
	return gs.saved(ctx, g)
}

// LiveGames loads every started game.
func (gs GameStore) LiveGames(ctx context.Context) ([]live.Saved, error) {
	games, err := gs.S.GamesByStatus(ctx, store.StatusStarted)
	if err != nil {
		return nil, err
	}
	out := make([]live.Saved, 0, len(games))
	for _, g := range games {
		s, err := gs.saved(ctx, g)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// saved rebuilds a live.Saved: the moves are replayed to know each mover,
// and each move's clocks are the mover's stored time and the other's last.
func (gs GameStore) saved(ctx context.Context, g store.Game) (live.Saved, error) {
	s := live.Saved{Spec: live.Spec{ID: g.ID, Rules: g.Rules, StartFEN: g.StartFEN,
		White: seat(g.Players[0]), Black: seat(g.Players[1]), TC: g.TimeControl, Rated: g.Rated, Created: g.Created}}
	if g.Rated {
		s.White.Rating, s.Black.Rating = g.RatingBefore[0], g.RatingBefore[1]
	}
	moves, err := gs.S.Moves(ctx, g.ID)
	if err != nil {
		return s, err
	}
	p, _, err := s.Start()
	if err != nil {
		return s, fmt.Errorf("game %s: %w", g.ID, err)
	}
	timed := g.TimeControl.Kind() != clock.Unlimited
	left := [2]time.Duration{}
	if timed {
		full := g.TimeControl.Base
		if g.TimeControl.Kind() == clock.Correspondence {
			full = time.Duration(g.TimeControl.Days) * 24 * time.Hour
		}
		left = [2]time.Duration{full, full}
	}
	for _, m := range moves {
		by := p.Turn()
		if timed {
			left[by] = m.Clock
		}
		s.Moves = append(s.Moves, live.PlayedMove{By: by, Hole: m.Hole, Clock: left, At: m.Played})
		if p, err = p.Play(m.Hole); err != nil {
			return s, fmt.Errorf("game %s ply %d: %w", g.ID, m.Ply, err)
		}
	}
	if g.Status == store.StatusEnded || g.Status == store.StatusAborted {
		e := &live.Ending{Status: live.Ended, Result: g.Result, Termination: g.Termination, At: g.Ended,
			Score: [2]int{p.Kazan(toguz.White), p.Kazan(toguz.Black)}, Clock: left}
		if g.Status == store.StatusAborted {
			e.Status = live.Aborted
		}
		switch g.Termination {
		case toguz.ByKazan, toguz.ByDraw, toguz.ByAtsyrau:
			e.Score = p.Outcome().Score
		}
		if timed {
			if st, err := gs.S.Clock(ctx, g.ID); err == nil {
				e.Clock = st.Remaining
			}
		}
		s.End = e
	}
	return s, nil
}

// Profile returns a user's ratings and rating history.
func (gs GameStore) Profile(ctx context.Context, name string) (Profile, error) {
	u, err := gs.S.UserByName(ctx, name)
	if err != nil {
		return Profile{}, notFound(err)
	}
	p := Profile{Name: u.Name, Created: u.Created, Ratings: map[string]RatingInfo{}}
	perfs, err := gs.S.Perfs(ctx, u.ID)
	if err != nil {
		return p, err
	}
	for _, pf := range perfs {
		if pf.Games == 0 {
			continue
		}
		p.Ratings[pf.Category.String()] = RatingInfo{Rating: pf.Rating.Rating, RD: pf.RD, Provisional: pf.Provisional(), Games: pf.Games}
		h, err := gs.S.RatingHistory(ctx, u.ID, pf.Category)
		if err != nil {
			return p, err
		}
		for _, pt := range h {
			p.History = append(p.History, RatingPoint{Category: pf.Category.String(), At: pt.At, Rating: pt.Rating.Rating})
		}
	}
	return p, nil
}

// UserGames returns a user's games, newest first.
func (gs GameStore) UserGames(ctx context.Context, name string, limit int) ([]GameSummary, error) {
	u, err := gs.S.UserByName(ctx, name)
	if err != nil {
		return nil, notFound(err)
	}
	games, err := gs.S.GamesByUser(ctx, u.ID, limit, 0)
	if err != nil {
		return nil, err
	}
	out := make([]GameSummary, len(games))
	for i, g := range games {
		status := map[store.Status]string{store.StatusStarted: "playing", store.StatusCreated: "playing",
			store.StatusEnded: "ended", store.StatusAborted: "aborted"}[g.Status]
		out[i] = GameSummary{ID: g.ID, White: g.Players[0].Name, Black: g.Players[1].Name, Status: status,
			Result: g.Result.String(), Termination: g.Termination.String(), TC: tcText(g.TimeControl),
			Rated: g.Rated, Plies: g.Plies, Created: g.Created}
	}
	return out, nil
}

func tcText(tc clock.TimeControl) string {
	if tc.Kind() == clock.Unlimited {
		return "∞"
	}
	return tc.String()
}

// Leaderboard returns the best stable ratings of a category.
func (gs GameStore) Leaderboard(ctx context.Context, c rating.Category, limit int) ([]LeaderRow, error) {
	es, err := gs.S.Leaderboard(ctx, c, rating.RankableRD, limit)
	if err != nil {
		return nil, err
	}
	out := make([]LeaderRow, len(es))
	for i, e := range es {
		out[i] = LeaderRow{Name: e.Name, Rating: e.Rating.Rating, RD: e.RD, Games: e.Games}
	}
	return out, nil
}

// EnginePlayer plays the engine's moves of the live games with a small pool
// of engines (one search per CPU at a time), each set to the game's level.
type EnginePlayer struct {
	pool chan *engine.Engine
}

// NewEnginePlayer returns an engine player with n engines (n ≤ 0: one per
// CPU) of hashMB MiB of hash each.
func NewEnginePlayer(n, hashMB int) (*EnginePlayer, error) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	ep := &EnginePlayer{pool: make(chan *engine.Engine, n)}
	for range n {
		opts := engine.DefaultOptions()
		opts.HashMB = hashMB
		e, err := engine.New(opts)
		if err != nil {
			return nil, err
		}
		ep.pool <- e
	}
	return ep, nil
}

// LevelMoveTime is the most time the engine spends on a move at a level
// (the clock may allow less): quick at the low levels, a second at the top.
func LevelMoveTime(level int) time.Duration {
	return time.Duration(50+level*level*10) * time.Millisecond
}

// Move searches r.Position at r.Level.
func (ep *EnginePlayer) Move(ctx context.Context, r live.EngineRequest) (toguz.Move, error) {
	var e *engine.Engine
	select {
	case e = <-ep.pool:
	case <-ctx.Done():
		return toguz.NoMove, ctx.Err()
	}
	defer func() { ep.pool <- e }()
	opts := e.Options()
	opts.Level = min(max(r.Level, 1), engine.MaxLevel)
	opts.Seed = rand.Int64()
	if err := e.SetOptions(opts); err != nil {
		return toguz.NoMove, err
	}
	e.NewGame()
	lim := engine.Limits{MoveTime: LevelMoveTime(opts.Level)}
	if r.Time != [2]time.Duration{} {
		// Within the clock: the engine's own time management, capped by
		// the level's time.
		left := r.Time[r.Position.Turn()]
		lim.MoveTime = min(lim.MoveTime, left/20+r.Inc/2+10*time.Millisecond)
	}
	res := e.Search(ctx, r.Position, lim, nil)
	if err := ctx.Err(); err != nil {
		return toguz.NoMove, err
	}
	if res.Best == toguz.NoMove {
		return toguz.NoMove, errors.New("engine: no move")
	}
	return res.Best, nil
}
