package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// LiveStore puts a Store behind live.Store: the live hub creates, records
// and ends its games through it, and resumes them from it after a restart.
type LiveStore struct{ S *Store }

var _ live.Store = LiveStore{}

// startFEN returns the start_fen column of a start: "" for the rules' start.
func startFEN(st game.Start) string {
	if st.IsZero() {
		return ""
	}
	return toguz.FormatFEN(st.Position, max(st.Move, 1))
}

// parseStart reads the start_fen column of a game under r.
func parseStart(fen string, r toguz.Rules) (game.Start, error) {
	if fen == "" {
		return game.Start{}, nil
	}
	p, move, err := toguz.ParseFEN(fen, r)
	return game.Start{Position: p, Move: move}, err
}

func liveNotFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: %w", live.ErrNotFound, err)
	}
	return err
}

// CreateGame stores a started game with its clock (not running yet).
func (ls LiveStore) CreateGame(ctx context.Context, s game.Spec) error {
	defer ls.S.observe("create_game", time.Now())
	g := Game{ID: s.ID, Players: [2]game.Seat{s.White, s.Black}, Rules: s.Rules,
		StartFEN: startFEN(s.From), TimeControl: s.TC, Rated: s.Rated, Repetition: s.Repetition, Status: game.Playing, Created: s.Created}
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
func (ls LiveStore) AddMove(ctx context.Context, id string, ply int, m game.PlayedMove) error {
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
// in the same transaction and returns their changes.
func (ls LiveStore) EndGame(ctx context.Context, g game.Saved) (*[2]int, error) {
	defer ls.S.observe("end_game", time.Now())
	e := g.End
	f := Finish{Status: e.Status, Result: e.Result, Termination: e.Termination, At: e.At}
	if g.TC.Kind() != clock.Unlimited {
		f.Clock = &clock.State{Remaining: e.Clock, Stopped: true}
	}
	stored, err := ls.S.FinishGame(ctx, g.ID, f)
	if err != nil {
		return nil, liveNotFound(err)
	}
	return ratingDiff(stored), nil
}

// ratingDiff is the rating changes of a game that made some.
func ratingDiff(g Game) *[2]int {
	if !g.Rated || g.RatingBefore == [2]int{} {
		return nil
	}
	d := g.RatingDiff
	return &d
}

// Game loads a game with its moves.
func (ls LiveStore) Game(ctx context.Context, id string) (game.Saved, error) {
	defer ls.S.observe("game", time.Now())
	g, err := ls.S.Game(ctx, id)
	if err != nil {
		return game.Saved{}, liveNotFound(err)
	}
	return ls.saved(ctx, g)
}

// LiveGames loads every started game.
func (ls LiveStore) LiveGames(ctx context.Context) ([]game.Saved, error) {
	defer ls.S.observe("live_games", time.Now())
	games, err := ls.S.GamesByStatus(ctx, game.Playing)
	if err != nil {
		return nil, err
	}
	out := make([]game.Saved, 0, len(games))
	for _, g := range games {
		s, err := ls.saved(ctx, g)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// saved rebuilds a game.Saved: the moves are replayed to know each mover,
// and each move's clocks are the mover's stored time and the other's last.
func (ls LiveStore) saved(ctx context.Context, g Game) (game.Saved, error) {
	from, err := parseStart(g.StartFEN, g.Rules)
	if err != nil {
		return game.Saved{}, fmt.Errorf("game %s: %w", g.ID, err)
	}
	s := game.Saved{Spec: game.Spec{ID: g.ID, Rules: g.Rules, From: from,
		White: g.Players[0], Black: g.Players[1], TC: g.TimeControl, Rated: g.Rated, Created: g.Created,
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
		s.Moves = append(s.Moves, game.PlayedMove{By: by, Hole: m.Hole, Clock: left, At: m.Played})
		if p, err = p.Play(m.Hole); err != nil {
			return s, fmt.Errorf("game %s ply %d: %w", g.ID, m.Ply, err)
		}
	}
	if timed && g.Status == game.Playing {
		switch st, err := ls.S.Clock(ctx, g.ID); {
		case err == nil:
			s.Clock = &st
		case !errors.Is(err, ErrNotFound):
			return s, err
		}
	}
	if g.Status == game.Ended || g.Status == game.Aborted {
		e := &game.Ending{Status: g.Status, Result: g.Result, Termination: g.Termination, At: g.Ended,
			Score: [2]int{p.Kazan(toguz.White), p.Kazan(toguz.Black)}, Clock: left, RatingDiff: ratingDiff(g)}
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
