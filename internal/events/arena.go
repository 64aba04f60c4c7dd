package events

import (
	"cmp"
	"context"
	"slices"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/tournament"
)

// ArenaLine is one player's line of an arena's standings.
type ArenaLine struct {
	Entry  game.EventEntry
	Rank   int
	Score  int
	Games  int
	Wins   int
	Fire   bool  // on a streak of two wins or more: the next game counts double
	Sheet  []int // the points of each game, in order
	Streak []bool
}

// ArenaScore scores an arena lichess's way: a win 2, a draw 1, a loss 0,
// doubled while on a streak of two wins or more (the "fire"), a berserk
// win one more. Forfeits score nothing and leave the streak as it was.
func ArenaScore(e *Event, upto int) []ArenaLine {
	lines := make([]ArenaLine, len(e.Entries))
	streak := make([]int, len(e.Entries))
	for i, en := range e.Entries {
		lines[i].Entry = en
	}
	for _, r := range e.Rounds {
		if upto > 0 && r.Round > upto {
			break
		}
		for _, p := range r.Pairings {
			if p.Black == 0 || p.White < 1 || p.Black < 1 || p.White > len(lines) || p.Black > len(lines) {
				continue
			}
			var pts [2]int // White's, Black's: 2 a win, 1 a draw
			switch tournament.Result(p.Result) {
			case tournament.WhiteWins:
				pts = [2]int{2, 0}
			case tournament.BlackWins:
				pts = [2]int{0, 2}
			case tournament.Drawn:
				pts = [2]int{1, 1}
			default:
				continue // playing, or a forfeit
			}
			for side, start := range [2]int{p.White, p.Black} {
				i := start - 1
				got := pts[side]
				double := streak[i] >= 2
				if double {
					got *= 2
				}
				colour := "w"
				if side == 1 {
					colour = "b"
				}
				if pts[side] == 2 && e.Settings.Berserk && containsByte(p.Berserk, colour[0]) {
					got++
				}
				if pts[side] == 2 {
					streak[i]++
					lines[i].Wins++
				} else {
					streak[i] = 0
				}
				lines[i].Score += got
				lines[i].Games++
				lines[i].Sheet = append(lines[i].Sheet, got)
				lines[i].Streak = append(lines[i].Streak, double)
			}
		}
	}
	for i := range lines {
		lines[i].Fire = streak[i] >= 2
	}
	slices.SortStableFunc(lines, func(a, b ArenaLine) int {
		return cmp.Or(b.Score-a.Score, b.Wins-a.Wins, b.Entry.Rating-a.Entry.Rating, a.Entry.Start-b.Entry.Start)
	})
	for i := range lines {
		lines[i].Rank = i + 1
		if i > 0 && lines[i].Score == lines[i-1].Score && lines[i].Wins == lines[i-1].Wins {
			lines[i].Rank = lines[i-1].Rank
		}
	}
	return lines
}

func containsByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// arenaWave pairs an arena's waiting players (joined, not withdrawn or
// paused, not in a game) by score, then rating, avoiding a rematch of
// each one's last game; after the arena's end it only waits for the games
// in play, then finishes the event.
func (m *Manager) arenaWave(ctx context.Context, id string) error {
	var games []game.EventPairing
	e, err := m.update(ctx, id, func(e *Event) error {
		if e.Status != Running || e.Settings.Kind != Arena {
			return errUnchanged
		}
		now := m.cfg.Now()
		busy := map[int]bool{}
		last := map[int]int{}
		whites := map[int]int{}
		for _, r := range e.Rounds {
			for _, p := range r.Pairings {
				if p.Result == "" {
					busy[p.White], busy[p.Black] = true, true
				}
				last[p.White], last[p.Black] = p.Black, p.White
				whites[p.White]++
				whites[p.Black]--
			}
		}
		if !now.Before(e.Ends()) {
			if len(busy) > 0 {
				return errUnchanged
			}
			e.Status, e.Ended = Finished, now
			return nil
		}
		score := map[int]int{}
		for _, l := range ArenaScore(e, 0) {
			score[l.Entry.Start] = l.Score
		}
		var waiting []int
		for _, en := range e.Entries {
			if !en.Withdrawn && !en.Paused && !busy[en.Start] {
				waiting = append(waiting, en.Start)
			}
		}
		if len(waiting) < 2 {
			return errUnchanged
		}
		slices.SortStableFunc(waiting, func(a, b int) int {
			return cmp.Or(score[b]-score[a], e.Player(b).Rating-e.Player(a).Rating, a-b)
		})
		round := game.EventRound{Round: len(e.Rounds) + 1, Paired: now}
		for len(waiting) >= 2 {
			a, j := waiting[0], 1
			// No immediate rematch when another opponent waits.
			for j < len(waiting) && (last[a] == waiting[j] || last[waiting[j]] == a) {
				j++
			}
			if j == len(waiting) {
				if len(waiting) == 2 {
					break // the two would only meet again: they wait for others
				}
				j = 1
			}
			b := waiting[j]
			waiting = append(waiting[1:j], waiting[j+1:]...)
			w, bl := a, b
			if whites[a] > whites[b] || (whites[a] == whites[b] && a > b) {
				w, bl = b, a
			}
			p := game.EventPairing{Board: len(round.Pairings) + 1, White: w, Black: bl}
			games = appendGame(e, &p, games)
			round.Pairings = append(round.Pairings, p)
		}
		if len(round.Pairings) == 0 {
			return errUnchanged
		}
		e.Rounds = append(e.Rounds, round)
		m.markStarting(games)
		return nil
	})
	if err == errUnchanged {
		return nil
	}
	if err != nil {
		return err
	}
	for _, p := range games {
		if err := m.createGame(ctx, e, p); err != nil {
			return err
		}
	}
	return nil
}

// Berserk halves user's clock in his arena game before he has moved, for
// one more point if he wins it.
func (m *Manager) Berserk(ctx context.Context, id string, user int64) error {
	e, ok := m.Get(id)
	if !ok {
		return &Error{"not_found", "apierr.no_event", nil}
	}
	en := e.EntryOf(user)
	if !e.Settings.Berserk || en == nil {
		return bad("apierr.event_berserk")
	}
	p, round, ok := e.Running(en.Start)
	if !ok {
		return bad("apierr.event_berserk")
	}
	side, colour := toguz.White, "w"
	if p.Black == en.Start {
		side, colour = toguz.Black, "b"
	}
	moves, err := m.cfg.Store.Moves(ctx, p.GameID)
	if err != nil || len(moves) > int(side) || containsByte(p.Berserk, colour[0]) {
		return bad("apierr.event_berserk")
	}
	tc, _ := clock.ParseTimeControl(e.Settings.TC)
	if err := m.games.AdjustClock(ctx, p.GameID, side, -tc.Base/2); err != nil {
		return bad("apierr.event_berserk")
	}
	_, err = m.update(ctx, id, func(e *Event) error {
		if q := e.pairing(round, p.Board); q != nil {
			q.Berserk += colour
		}
		return nil
	})
	return err
}
