package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/live"
)

// LiveStore puts a Store behind live.Store: the live hub creates, records
// and ends its games through it, and resumes them from it after a restart.
type LiveStore struct{ S *Store }

var _ live.Store = LiveStore{}

func liveSide(s live.Seat) Side {
	switch {
	case s.UserID != 0:
		return Side{UserID: s.UserID}
	case s.IsEngine():
		return Side{Name: s.Name, Engine: s.Engine}
	}
	return Side{Name: s.Name}
}

func liveSeat(s Side) live.Seat {
	switch {
	case s.UserID != 0:
		return live.UserSeat(s.UserID, s.Name)
	case s.Engine > 0:
		return live.EngineSeat(s.Engine, s.Name)
	}
	return live.GuestSeat(s.Name)
}

func liveNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: %w", live.ErrNotFound, err)
	}
	return err
}

// CreateGame stores a started game with its clock (not running yet).
func (ls LiveStore) CreateGame(ctx context.Context, s live.Spec) error {
	defer ls.S.observe("create_game", time.Now())
	g := Game{ID: s.ID, Players: [2]Side{liveSide(s.White), liveSide(s.Black)}, Rules: s.Rules,
		StartFEN: s.StartFEN, TimeControl: s.TC, Rated: s.Rated, Repetition: s.Repetition, Status: StatusStarted, Created: s.Created}
	var clk *clock.State
	if s.TC.Kind() != clock.Unlimited {
		start, _, err := s.Start()
		if err != nil {
			return err
		}
		st := clock.New(s.TC, start.Turn(), time.Now).State()
		clk = &st
	}
	_, err := ls.S.CreateGame(ctx, g, clk)
	return err
}

// AddMove stores a move and the clock state after it in one transaction.
func (ls LiveStore) AddMove(ctx context.Context, id string, ply int, m live.PlayedMove) error {
	defer ls.S.observe("add_move", time.Now())
	sm := Move{Ply: ply, Hole: m.Hole, Played: m.At, Clock: -1}
	var clk *clock.State
	if m.Clock != [2]time.Duration{} {
		sm.Clock = m.Clock[m.By]
		st := clock.State{Remaining: m.Clock, Turn: m.By.Other(), Running: ply >= 2, Since: m.At}
		if !st.Running {
			st.Since = time.Time{}
		}
		clk = &st
	}
	return liveNotFound(ls.S.AppendMove(ctx, id, sm, clk))
}

// EndGame stores the ending; the store updates the ratings of a rated game
// in the same transaction.
func (ls LiveStore) EndGame(ctx context.Context, g live.Saved) error {
	defer ls.S.observe("end_game", time.Now())
	e := g.End
	status := StatusEnded
	if e.Status == live.Aborted {
		status = StatusAborted
	}
	f := Finish{Status: status, Result: e.Result, Termination: e.Termination, At: e.At}
	if g.TC.Kind() != clock.Unlimited {
		f.Clock = &clock.State{Remaining: e.Clock, Stopped: true}
	}
	_, err := ls.S.FinishGame(ctx, g.ID, f)
	return liveNotFound(err)
}

// Game loads a game with its moves.
func (ls LiveStore) Game(ctx context.Context, id string) (live.Saved, error) {
	defer ls.S.observe("game", time.Now())
	g, err := ls.S.Game(ctx, id)
	if err != nil {
		return live.Saved{}, liveNotFound(err)
	}
	return ls.saved(ctx, g)
}

// LiveGames loads every started game.
func (ls LiveStore) LiveGames(ctx context.Context) ([]live.Saved, error) {
	defer ls.S.observe("live_games", time.Now())
	games, err := ls.S.GamesByStatus(ctx, StatusStarted)
	if err != nil {
		return nil, err
	}
	out := make([]live.Saved, 0, len(games))
	for _, g := range games {
		s, err := ls.saved(ctx, g)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// saved rebuilds a live.Saved: the moves are replayed to know each mover,
// and each move's clocks are the mover's stored time and the other's last.
func (ls LiveStore) saved(ctx context.Context, g Game) (live.Saved, error) {
	s := live.Saved{Spec: live.Spec{ID: g.ID, Rules: g.Rules, StartFEN: g.StartFEN,
		White: liveSeat(g.Players[0]), Black: liveSeat(g.Players[1]), TC: g.TimeControl, Rated: g.Rated, Created: g.Created,
		Repetition: g.Repetition}}
	if g.Rated {
		s.White.Rating, s.Black.Rating = g.RatingBefore[0], g.RatingBefore[1]
	}
	moves, err := ls.S.Moves(ctx, g.ID)
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
	if timed && g.Status == StatusStarted {
		switch st, err := ls.S.Clock(ctx, g.ID); {
		case err == nil:
			s.Clock = &st
		case !errors.Is(err, ErrNotFound):
			return s, err
		}
	}
	if g.Status == StatusEnded || g.Status == StatusAborted {
		e := &live.Ending{Status: live.Ended, Result: g.Result, Termination: g.Termination, At: g.Ended,
			Score: [2]int{p.Kazan(toguz.White), p.Kazan(toguz.Black)}, Clock: left}
		if g.Status == StatusAborted {
			e.Status = live.Aborted
		}
		switch g.Termination {
		case toguz.ByKazan, toguz.ByDraw, toguz.ByAtsyrau:
			e.Score = p.Outcome().Score
		}
		if timed {
			if st, err := ls.S.Clock(ctx, g.ID); err == nil {
				e.Clock = st.Remaining
			}
		}
		s.End = e
	}
	return s, nil
}

// TakeBack cuts game id's moves to the first plies and stores its clock.
func (ls LiveStore) TakeBack(ctx context.Context, id string, plies int, clk *clock.State) error {
	defer ls.S.observe("take_back", time.Now())
	return liveNotFound(ls.S.TakeBack(ctx, id, plies, clk))
}
