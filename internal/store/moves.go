package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// Move is one stored move. The moves of a game are its source of truth: its
// position is the start position with the moves replayed.
type Move struct {
	Ply    int        // 1 for the first move
	Hole   toguz.Move // 1..9
	Played time.Time
	// Clock is the mover's time left after the move (increment included);
	// negative when the game has no clock.
	Clock time.Duration
}

// AppendMove stores the next move of a started game together with the clock
// state after it, in one transaction: once it returns nil the move survives a
// crash. The move's ply must be the number of stored moves plus one: a
// duplicate, a stale or a skipped ply gets ErrConflict, as does a game that is
// not started, so of two concurrent moves for the same ply exactly one is
// stored. ErrNotFound when the game does not exist. The legality of the move
// is the caller's business (it owns the position).
func (s *Store) AppendMove(ctx context.Context, gameID string, m Move, clk *clock.State) error {
	if m.Hole < 1 || m.Hole > 9 {
		return fmt.Errorf("game %s ply %d: hole %d out of range 1..9", gameID, m.Ply, m.Hole)
	}
	if m.Played.IsZero() {
		m.Played = s.now()
	}
	cl := int64(-1)
	if m.Clock >= 0 {
		cl = m.Clock.Milliseconds()
	}
	if s.pg {
		return s.appendMovePG(ctx, gameID, m, cl, clk)
	}
	return s.writeGame(ctx, func(tx *sql.Tx) error {
		// One statement inserts the move only where the game is being
		// played and it is the next ply; why not is asked only when it was
		// not (a query of its own before every move was two fifths of the
		// writer's allocations under load).
		res, err := s.txStmt(ctx, tx, s.stmtInsertMove).ExecContext(ctx, gameID, m.Ply, int(m.Hole), ms(m.Played), cl, statusText(game.Playing))
		if unique, _ := constraint(err); unique {
			return fmt.Errorf("game %s: ply %d already played: %w", gameID, m.Ply, ErrConflict)
		}
		if err != nil {
			return fmt.Errorf("store: append move to %s: %w", gameID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("store: append move to %s: %w", gameID, err)
		} else if n == 0 {
			return s.refusedMove(ctx, tx, gameID, m.Ply)
		}
		if clk != nil {
			return s.saveClock(ctx, tx, gameID, *clk)
		}
		return nil
	})
}

// refusedMove says why the move of ply was not inserted into game gameID.
func (s *Store) refusedMove(ctx context.Context, tx *sql.Tx, gameID string, ply int) error {
	last, err := s.lastPly(ctx, tx, gameID, "append move to")
	if err != nil {
		return err
	}
	return fmt.Errorf("game %s: move for ply %d, but the next ply is %d: %w", gameID, ply, last+1, ErrConflict)
}

// lastPly returns the last ply stored of game gameID, which must be being
// played (ErrNotFound, ErrConflict); doing names the write in an error of
// the database.
func (s *Store) lastPly(ctx context.Context, tx *sql.Tx, gameID, doing string) (int, error) {
	var status string
	var last int
	err := s.txStmt(ctx, tx, s.stmtNextPly).QueryRowContext(ctx, gameID).Scan(&status, &last)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, fmt.Errorf("game %q: %w", gameID, ErrNotFound)
	case err != nil:
		return 0, fmt.Errorf("store: %s %s: %w", doing, gameID, err)
	case status != statusText(game.Playing):
		return 0, fmt.Errorf("game %s is %s, not started: %w", gameID, status, ErrConflict)
	}
	return last, nil
}

// appendMovePG is AppendMove on PostgreSQL: one statement (sqlMovePG) in
// a transaction of its own, one round trip where SQLite's three statements
// with a begin and a commit were five; the database's work per move is what
// bounds several nodes on one database (docs/architecture.md).
func (s *Store) appendMovePG(ctx context.Context, gameID string, m Move, cl int64, clk *clock.State) error {
	var st clock.State
	if clk != nil {
		st = *clk
	}
	return s.pgWrite(ctx, func() error {
		var status string
		var last int
		var added bool
		err := s.stmtMovePG.QueryRowContext(ctx, gameID, m.Ply, int(m.Hole), ms(m.Played), cl, statusText(game.Playing),
			clk != nil, st.Remaining[0].Milliseconds(), st.Remaining[1].Milliseconds(), int(st.Turn),
			boolInt(st.Running), ms(st.Since), boolInt(st.Stopped)).Scan(&status, &last, &added)
		switch unique, _ := constraint(err); {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("game %q: %w", gameID, ErrNotFound)
		case unique:
			return fmt.Errorf("game %s: ply %d already played: %w", gameID, m.Ply, ErrConflict)
		case err != nil:
			return fmt.Errorf("store: append move to %s: %w", gameID, err)
		case status != statusText(game.Playing):
			return fmt.Errorf("game %s is %s, not started: %w", gameID, status, ErrConflict)
		case m.Ply != last+1 || !added:
			return fmt.Errorf("game %s: move for ply %d, but the next ply is %d: %w", gameID, m.Ply, last+1, ErrConflict)
		}
		s.commits.Add(1)
		return nil
	})
}

const (
	// sqlMovePG is AppendMove on PostgreSQL in one statement: the game's
	// row locked and read as sqlNextPlyPG does, the move inserted only if
	// the game is being played and it is the next ply, the clock's row
	// written only with the move (and $7); it returns what was read and
	// whether the move was added, from which appendMovePG tells the errors.
	sqlMovePG = `WITH g AS (` + sqlNextPlyPG + `), m AS (
		INSERT INTO moves (game_id, ply, hole, played_ms, clock_ms)
		SELECT $1, $2::integer, $3::integer, $4::bigint, $5::bigint FROM g WHERE g.status = $6::text AND g.last + 1 = $2::integer
		RETURNING ply
	), c AS (
		INSERT INTO game_clocks (game_id, white_ms, black_ms, turn, running, since_ms, stopped)
		SELECT $1, $8::bigint, $9::bigint, $10::integer, $11::integer, $12::bigint, $13::integer FROM m WHERE $7::boolean
		` + sqlClockConflict + `
	)
	SELECT g.status, g.last, EXISTS (SELECT 1 FROM m) FROM g`
	sqlNextPly = `SELECT status, (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = $1) FROM games WHERE id = $1`
	// PostgreSQL's: the game's row updated (to itself) takes its lock, so
	// that the writes of one game's moves (writeGame, at READ COMMITTED)
	// follow one another, and a serialisable FinishGame that read the
	// game before the move committed must run again and see it.
	sqlNextPlyPG = `UPDATE games SET status = status WHERE id = $1
		RETURNING status, (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = $1) AS last`
	// sqlInsertMove inserts the move only where the game's status is $6 and
	// $2 is its next ply (sqlNextPly's question, in the same statement).
	sqlInsertMove = `INSERT INTO moves (game_id, ply, hole, played_ms, clock_ms)
		SELECT $1, $2, $3, $4, $5 FROM games WHERE id = $1 AND status = $6
			AND (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE game_id = $1) + 1 = $2`
	sqlSaveClock = `INSERT INTO game_clocks (game_id, white_ms, black_ms, turn, running, since_ms, stopped)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ` + sqlClockConflict
	// sqlClockConflict makes a clock's insert write over the game's row.
	sqlClockConflict = `ON CONFLICT (game_id) DO UPDATE SET white_ms = excluded.white_ms, black_ms = excluded.black_ms,
		turn = excluded.turn, running = excluded.running, since_ms = excluded.since_ms, stopped = excluded.stopped`
)

// Moves returns a game's moves in order; an unknown game has none.
func (s *Store) Moves(ctx context.Context, gameID string) ([]Move, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT ply, hole, played_ms, clock_ms FROM moves WHERE game_id = $1 ORDER BY ply`, gameID)
	if err != nil {
		return nil, fmt.Errorf("store: moves of %s: %w", gameID, err)
	}
	defer rows.Close()
	var ms []Move
	for rows.Next() {
		var m Move
		var hole int
		var played, cl int64
		if err := rows.Scan(&m.Ply, &hole, &played, &cl); err != nil {
			return nil, err
		}
		m.Hole, m.Played, m.Clock = toguz.Move(hole), fromMS(played), time.Duration(cl)*time.Millisecond
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// SaveClock stores a game's clock state (on a start, a pause, a time bonus).
func (s *Store) SaveClock(ctx context.Context, gameID string, st clock.State) error {
	return s.writeGame(ctx, func(tx *sql.Tx) error { return s.saveClock(ctx, tx, gameID, st) })
}

func (s *Store) saveClock(ctx context.Context, tx *sql.Tx, gameID string, st clock.State) error {
	_, err := s.txStmt(ctx, tx, s.stmtSaveClock).ExecContext(ctx,
		gameID, st.Remaining[0].Milliseconds(), st.Remaining[1].Milliseconds(), int(st.Turn),
		boolInt(st.Running), ms(st.Since), boolInt(st.Stopped))
	if _, fk := constraint(err); fk {
		return fmt.Errorf("clock of game %q: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: save clock of %s: %w", gameID, err)
	}
	return nil
}

// Clock returns a game's stored clock state (millisecond precision), or ErrNotFound.
func (s *Store) Clock(ctx context.Context, gameID string) (clock.State, error) {
	var st clock.State
	var w, b, since int64
	var turn, running, stopped int
	err := s.r.QueryRowContext(ctx, `SELECT white_ms, black_ms, turn, running, since_ms, stopped FROM game_clocks WHERE game_id = $1`, gameID).
		Scan(&w, &b, &turn, &running, &since, &stopped)
	if errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("clock of game %q: %w", gameID, ErrNotFound)
	}
	if err != nil {
		return st, fmt.Errorf("store: clock of %s: %w", gameID, err)
	}
	st.Remaining = [2]time.Duration{time.Duration(w) * time.Millisecond, time.Duration(b) * time.Millisecond}
	st.Turn, st.Running, st.Since, st.Stopped = toguz.Player(turn), running != 0, fromMS(since), stopped != 0
	return st, nil
}
