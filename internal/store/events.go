package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/game"
)

// Event is a tournament on the site as stored: package events owns its
// meaning (the settings are its JSON) and writes the whole event at each
// change with SaveEvent, in one transaction, so that a restart finds it as
// it was after its last change.
type Event struct {
	ID        string
	Creator   int64
	Name      string
	Kind      string
	Settings  []byte // JSON
	Status    string // "upcoming", "running", "finished"
	Published int    // the results are shown up to this round
	Created   time.Time
	Start     time.Time
	Ended     time.Time
	Arbiters  []int64
	Entries   []game.EventEntry
	Rounds    []game.EventRound
}

// EventAction is one line of an event's arbiter log.
type EventAction struct {
	At     time.Time
	UserID int64
	Name   string
	Action string
	Detail string
}

// SaveEvent stores ev whole: the event's row, and its arbiters, entries,
// rounds and pairings replaced.
func (s *Store) SaveEvent(ctx context.Context, ev Event) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO events (id, creator_id, name, kind, settings, status, published,
			created_ms, start_ms, ended_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			ON CONFLICT (id) DO UPDATE SET name = excluded.name, settings = excluded.settings,
			status = excluded.status, published = excluded.published, start_ms = excluded.start_ms,
			ended_ms = excluded.ended_ms`,
			ev.ID, ev.Creator, ev.Name, ev.Kind, string(ev.Settings), ev.Status, ev.Published,
			ms(ev.Created), ms(ev.Start), ms(ev.Ended))
		if err != nil {
			return fmt.Errorf("store: save event %s: %w", ev.ID, err)
		}
		for _, q := range []string{`DELETE FROM event_arbiters WHERE event_id = $1`, `DELETE FROM event_entries WHERE event_id = $1`,
			`DELETE FROM event_pairings WHERE event_id = $1`, `DELETE FROM event_rounds WHERE event_id = $1`} {
			if _, err := tx.ExecContext(ctx, q, ev.ID); err != nil {
				return fmt.Errorf("store: save event %s: %w", ev.ID, err)
			}
		}
		for _, a := range ev.Arbiters {
			if _, err := tx.ExecContext(ctx, `INSERT INTO event_arbiters (event_id, user_id) VALUES ($1, $2)`, ev.ID, a); err != nil {
				return fmt.Errorf("store: event %s: arbiter %d: %w", ev.ID, a, err)
			}
		}
		for _, e := range ev.Entries {
			if _, err := tx.ExecContext(ctx, `INSERT INTO event_entries (event_id, start_no, user_id, rating, birth_year, sex,
				withdrawn, paused, joined_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				ev.ID, e.Start, e.UserID, e.Rating, e.BirthYear, e.Sex, boolInt(e.Withdrawn), boolInt(e.Paused), ms(e.Joined)); err != nil {
				return fmt.Errorf("store: event %s: entry %d: %w", ev.ID, e.Start, err)
			}
		}
		for _, r := range ev.Rounds {
			if _, err := tx.ExecContext(ctx, `INSERT INTO event_rounds (event_id, round, paired_ms) VALUES ($1, $2, $3)`,
				ev.ID, r.Round, ms(r.Paired)); err != nil {
				return fmt.Errorf("store: event %s: round %d: %w", ev.ID, r.Round, err)
			}
			for _, p := range r.Pairings {
				if _, err := tx.ExecContext(ctx, `INSERT INTO event_pairings (event_id, round, board, white, black, game_id,
					result, berserk) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
					ev.ID, r.Round, p.Board, p.White, p.Black, p.GameID, p.Result, p.Berserk); err != nil {
					return fmt.Errorf("store: event %s: round %d board %d: %w", ev.ID, r.Round, p.Board, err)
				}
			}
		}
		return nil
	})
}

// Events loads every event with its entries, rounds and pairings, oldest
// first.
func (s *Store) Events(ctx context.Context) ([]Event, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, creator_id, name, kind, settings, status, published, created_ms,
		start_ms, ended_ms FROM events ORDER BY created_ms, id`)
	if err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	var out []Event
	for rows.Next() {
		var ev Event
		var settings string
		var created, start, ended int64
		if err := rows.Scan(&ev.ID, &ev.Creator, &ev.Name, &ev.Kind, &settings, &ev.Status, &ev.Published,
			&created, &start, &ended); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: events: %w", err)
		}
		ev.Settings = []byte(settings)
		ev.Created, ev.Start, ev.Ended = fromMS(created), fromMS(start), fromMS(ended)
		out = append(out, ev)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	for i := range out {
		if err := s.eventParts(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Store) eventParts(ctx context.Context, ev *Event) error {
	each := func(q string, scan func(*sql.Rows) error) error {
		rows, err := s.r.QueryContext(ctx, q, ev.ID)
		if err != nil {
			return fmt.Errorf("store: event %s: %w", ev.ID, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return fmt.Errorf("store: event %s: %w", ev.ID, err)
			}
		}
		return rows.Err()
	}
	err := errors.Join(
		each(`SELECT user_id FROM event_arbiters WHERE event_id = $1 ORDER BY user_id`, func(r *sql.Rows) error {
			var id int64
			err := r.Scan(&id)
			ev.Arbiters = append(ev.Arbiters, id)
			return err
		}),
		each(`SELECT e.start_no, e.user_id, u.name, e.rating, e.birth_year, e.sex, e.withdrawn, e.paused, e.joined_ms
			FROM event_entries e JOIN users u ON u.id = e.user_id WHERE e.event_id = $1 ORDER BY e.start_no`, func(r *sql.Rows) error {
			var e game.EventEntry
			var wd, paused int
			var joined int64
			err := r.Scan(&e.Start, &e.UserID, &e.Name, &e.Rating, &e.BirthYear, &e.Sex, &wd, &paused, &joined)
			e.Withdrawn, e.Paused, e.Joined = wd != 0, paused != 0, fromMS(joined)
			ev.Entries = append(ev.Entries, e)
			return err
		}),
		each(`SELECT round, paired_ms FROM event_rounds WHERE event_id = $1 ORDER BY round`, func(r *sql.Rows) error {
			var rd game.EventRound
			var paired int64
			err := r.Scan(&rd.Round, &paired)
			rd.Paired = fromMS(paired)
			ev.Rounds = append(ev.Rounds, rd)
			return err
		}))
	if err != nil {
		return err
	}
	idx := map[int]int{}
	for i, r := range ev.Rounds {
		idx[r.Round] = i
	}
	return each(`SELECT round, board, white, black, game_id, result, berserk FROM event_pairings WHERE event_id = $1
		ORDER BY round, board`, func(r *sql.Rows) error {
		var round int
		var p game.EventPairing
		if err := r.Scan(&round, &p.Board, &p.White, &p.Black, &p.GameID, &p.Result, &p.Berserk); err != nil {
			return err
		}
		i, ok := idx[round]
		if !ok {
			return fmt.Errorf("pairing of round %d without its round", round)
		}
		ev.Rounds[i].Pairings = append(ev.Rounds[i].Pairings, p)
		return nil
	})
}

// MaxEventLog bounds the lines EventLog returns.
const MaxEventLog = 500

// LogEventAction appends one arbiter action to an event's log.
func (s *Store) LogEventAction(ctx context.Context, eventID string, a EventAction) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO event_log (event_id, at_ms, user_id, action, detail) VALUES ($1, $2, $3, $4, $5)`,
			eventID, ms(a.At), a.UserID, a.Action, a.Detail)
		if err != nil {
			return fmt.Errorf("store: event %s: log: %w", eventID, err)
		}
		return nil
	})
}

// EventLog returns an event's arbiter log, newest first, at most
// MaxEventLog lines.
func (s *Store) EventLog(ctx context.Context, eventID string) ([]EventAction, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT l.at_ms, l.user_id, COALESCE(u.name, ''), l.action, l.detail
		FROM event_log l LEFT JOIN users u ON u.id = l.user_id WHERE l.event_id = $1 ORDER BY l.id DESC LIMIT $2`,
		eventID, MaxEventLog)
	if err != nil {
		return nil, fmt.Errorf("store: event %s: log: %w", eventID, err)
	}
	defer rows.Close()
	var out []EventAction
	for rows.Next() {
		var a EventAction
		var at int64
		if err := rows.Scan(&at, &a.UserID, &a.Name, &a.Action, &a.Detail); err != nil {
			return nil, fmt.Errorf("store: event %s: log: %w", eventID, err)
		}
		a.At = fromMS(at)
		out = append(out, a)
	}
	return out, rows.Err()
}
