package store

import (
	"context"
	"fmt"
	"time"
)

// Activity is one thing a player did, as his profile's feed shows it: a
// game finished, a puzzle tried (Count 1 each; the feed sums them by
// day), an event entered, a public study made.
type Activity struct {
	At     time.Time
	Kind   string // "game", "puzzle", "puzzle_solved", "event", "study"
	ID     string // the event's or the study's
	Name   string
	Result string // a game's result from the player's side: "win", "loss", "draw"
}

// maxActivityRows bounds each kind's rows of one window.
const maxActivityRows = 2000

// ActivityOf returns what user id did in [from, to), newest first within
// each kind: at most maxActivityRows games and puzzles, 100 events and
// studies.
func (s *Store) ActivityOf(ctx context.Context, userID int64, from, to time.Time) ([]Activity, error) {
	var out []Activity
	q := func(kind, query string, limit int, scan func(a *Activity, vals []any) error, vals ...any) error {
		rows, err := s.r.QueryContext(ctx, query, userID, ms(from), ms(to), limit)
		if err != nil {
			return fmt.Errorf("store: activity %s: %w", kind, err)
		}
		defer rows.Close()
		for rows.Next() {
			a := Activity{Kind: kind}
			if err := rows.Scan(vals...); err != nil {
				return fmt.Errorf("store: activity %s: %w", kind, err)
			}
			if err := scan(&a, vals); err != nil {
				return err
			}
			out = append(out, a)
		}
		return rows.Err()
	}
	var at int64
	var wid int64
	var result string
	if err := q("game", `SELECT ended_ms, COALESCE(white_user_id, 0), result FROM games
		WHERE (white_user_id = $1 OR black_user_id = $1) AND status = 'ended' AND ended_ms >= $2 AND ended_ms < $3
		ORDER BY ended_ms DESC LIMIT $4`, maxActivityRows, func(a *Activity, _ []any) error {
		a.At = fromMS(at)
		white := wid == userID
		switch {
		case result == "1-0" && white, result == "0-1" && !white:
			a.Result = "win"
		case result == "1-0", result == "0-1":
			a.Result = "loss"
		default:
			a.Result = "draw"
		}
		return nil
	}, &at, &wid, &result); err != nil {
		return nil, err
	}
	var solved int
	if err := q("puzzle", `SELECT at_ms, solved FROM puzzle_attempts WHERE user_id = $1 AND at_ms >= $2 AND at_ms < $3
		ORDER BY at_ms DESC LIMIT $4`, maxActivityRows, func(a *Activity, _ []any) error {
		a.At = fromMS(at)
		if solved != 0 {
			a.Kind = "puzzle_solved"
		}
		return nil
	}, &at, &solved); err != nil {
		return nil, err
	}
	var id, name string
	if err := q("event", `SELECT en.joined_ms, e.id, e.name FROM event_entries en JOIN events e ON e.id = en.event_id
		WHERE en.user_id = $1 AND en.joined_ms >= $2 AND en.joined_ms < $3 ORDER BY en.joined_ms DESC LIMIT $4`, 100,
		func(a *Activity, _ []any) error { a.At, a.ID, a.Name = fromMS(at), id, name; return nil }, &at, &id, &name); err != nil {
		return nil, err
	}
	if err := q("study", `SELECT created_ms, id, name FROM studies
		WHERE owner_id = $1 AND visibility = 'public' AND created_ms >= $2 AND created_ms < $3 ORDER BY created_ms DESC LIMIT $4`, 100,
		func(a *Activity, _ []any) error { a.At, a.ID, a.Name = fromMS(at), id, name; return nil }, &at, &id, &name); err != nil {
		return nil, err
	}
	return out, nil
}
