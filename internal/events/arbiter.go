package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// The arbiter's console: every action checks that by is the event's
// creator or one of its arbiters, and is logged in the store (who, what,
// when).

func (m *Manager) arbiter(id string, by int64) error {
	e, ok := m.Get(id)
	if !ok {
		return &Error{"not_found", "apierr.no_event", nil}
	}
	if !e.IsArbiter(by) {
		return forbidden()
	}
	return nil
}

// Log returns the arbiter log of event id, newest first.
func (m *Manager) Log(ctx context.Context, id string) ([]store.EventAction, error) {
	return m.cfg.Store.EventLog(ctx, id)
}

// SetArbiters names the accounts, besides the creator, who may use the
// console; only the creator may.
func (m *Manager) SetArbiters(ctx context.Context, id string, by int64, arbiters []int64) error {
	if len(arbiters) > MaxArbiters {
		return bad("apierr.event_arbiters", MaxArbiters)
	}
	_, err := m.update(ctx, id, func(e *Event) error {
		if by != e.Creator {
			return forbidden()
		}
		slices.Sort(arbiters)
		e.Arbiters = slices.Compact(arbiters)
		return nil
	})
	if err == nil {
		m.logAction(ctx, id, by, "arbiters", len(arbiters))
	}
	return err
}

// SetResult enters or corrects the result of a game; a game still being
// played is ended with it (an adjudication). The standings are computed
// from the results, so a correction of any round recomputes them.
func (m *Manager) SetResult(ctx context.Context, id string, by int64, round, board int, result string) error {
	res, err := tournament.ParseResult(result)
	switch {
	case err != nil, res != tournament.WhiteWins && res != tournament.BlackWins && res != tournament.Drawn &&
		res != tournament.WhiteForfeit && res != tournament.BlackForfeit && res != tournament.DoubleForfeit:
		return bad("apierr.event_result")
	}
	if err := m.arbiter(id, by); err != nil {
		return err
	}
	var was, running string
	_, err = m.update(ctx, id, func(e *Event) error {
		p := e.pairing(round, board)
		if p == nil || p.Black == 0 {
			return bad("apierr.event_no_pairing")
		}
		if p.Result == "" {
			running = p.GameID
		}
		was, p.Result = p.Result, string(res)
		return nil
	})
	if err != nil {
		return err
	}
	m.logAction(ctx, id, by, "result", round, board, res, was)
	var end []string
	if running != "" {
		end = []string{running}
	}
	m.afterResults(ctx, id, end)
	return nil
}

// Forfeit takes a player out: his game in play is lost by forfeit, and a
// round robin's games left to him are scored as forfeits.
func (m *Manager) Forfeit(ctx context.Context, id string, by int64, start int) error {
	if err := m.arbiter(id, by); err != nil {
		return err
	}
	var end []string
	_, err := m.update(ctx, id, func(e *Event) error {
		en := e.Player(start)
		if en == nil || e.Status != Running {
			return bad("apierr.event_no_player")
		}
		en.Withdrawn = true
		if e.Settings.Kind == RoundRobin || e.Settings.Kind == DoubleRoundRobin {
			end = forfeitRest(e, start)
			return nil
		}
		if p, round, ok := e.Running(start); ok {
			q := e.pairing(round, p.Board)
			q.Result = string(tournament.BlackForfeit)
			if q.Black == start {
				q.Result = string(tournament.WhiteForfeit)
			}
			end = append(end, q.GameID)
		}
		return nil
	})
	if err != nil {
		return err
	}
	m.logAction(ctx, id, by, "forfeit", start)
	m.afterResults(ctx, id, end)
	return nil
}

// AdjustClock gives a side of a running game of the event more time (less
// when negative), through the live game's goroutine.
func (m *Manager) AdjustClock(ctx context.Context, id string, by int64, round, board int, side toguz.Player, delta time.Duration) error {
	if err := m.arbiter(id, by); err != nil {
		return err
	}
	if delta == 0 || delta > time.Hour || delta < -time.Hour {
		return bad("apierr.event_clock")
	}
	e, _ := m.Get(id)
	p := e.pairing(round, board)
	if p == nil || p.Result != "" || p.GameID == "" {
		return bad("apierr.event_no_pairing")
	}
	if err := m.games.AdjustClock(ctx, p.GameID, side, delta); err != nil {
		return bad("apierr.event_clock")
	}
	m.logAction(ctx, id, by, "clock", side.String(), round, board, fmt.Sprintf("%+d", int(delta/time.Second)))
	return nil
}

// Repair replaces the pairings of the last round before any of its games
// has begun (no move made), with pairs the arbiter gives; their games
// are started anew. An arena is paired continuously and has none.
func (m *Manager) Repair(ctx context.Context, id string, by int64, pairs []tournament.Pair) error {
	if err := m.arbiter(id, by); err != nil {
		return err
	}
	e, _ := m.Get(id)
	if e.Status != Running || e.Settings.Kind == Arena || len(e.Rounds) == 0 {
		return bad("apierr.event_repair")
	}
	last := e.Rounds[len(e.Rounds)-1]
	for _, p := range last.Pairings {
		if p.GameID == "" {
			continue
		}
		if mv, err := m.cfg.Store.Moves(ctx, p.GameID); err != nil || len(mv) > 0 || p.Result != "" {
			return bad("apierr.event_repair")
		}
	}
	// The pairs are checked as package tournament applies a round: no
	// player twice, nobody who is not to be paired.
	before := e.clone()
	before.Rounds = before.Rounds[:len(before.Rounds)-1]
	if err := before.Tournament(0).Apply(last.Round, pairs); err != nil {
		return bad("apierr.event_pairs", err.Error())
	}
	var old, games []game.EventPairing
	e, err := m.update(ctx, id, func(e *Event) error {
		r := &e.Rounds[len(e.Rounds)-1]
		if r.Round != last.Round {
			return bad("apierr.event_repair")
		}
		old = r.Pairings
		r.Pairings = nil
		for i, pr := range pairs {
			p := game.EventPairing{Board: i + 1, White: pr.White, Black: pr.Black}
			games = appendGame(e, &p, games)
			r.Pairings = append(r.Pairings, p)
		}
		m.markStarting(games)
		return nil
	})
	if err != nil {
		return err
	}
	m.mu.Lock()
	for _, p := range old {
		delete(m.byGame, p.GameID)
	}
	m.mu.Unlock()
	for _, p := range old {
		if p.GameID != "" {
			_ = m.games.Adjudicate(ctx, p.GameID, toguz.NoResult) // abort: the round is paired anew
		}
	}
	for _, p := range games {
		if err := m.createGame(ctx, e, p); err != nil {
			return err
		}
	}
	written := make([]string, len(pairs))
	for i, p := range pairs {
		written[i] = fmt.Sprintf("%d–%d", p.White, p.Black)
	}
	m.logAction(ctx, id, by, "repair", last.Round, strings.Join(written, ", "))
	m.afterResults(ctx, id, nil)
	return nil
}

// Publish shows the results up to round r to everyone.
func (m *Manager) Publish(ctx context.Context, id string, by int64, r int) error {
	if err := m.arbiter(id, by); err != nil {
		return err
	}
	_, err := m.update(ctx, id, func(e *Event) error {
		if r < 1 || r > len(e.Rounds) {
			return bad("apierr.event_no_round")
		}
		e.Published = max(e.Published, r)
		return nil
	})
	if err == nil {
		m.logAction(ctx, id, by, "publish", r)
	}
	return err
}
