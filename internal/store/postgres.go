package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// PostgreSQL as the store. The SQL is SQLite's (store.go's package doc):
// $n placeholders, BIGINT milliseconds, 0/1 integers, upserts with ON
// CONFLICT and RETURNING, which PostgreSQL reads alike; the few
// statements that differ have a PostgreSQL form beside the SQLite one
// (Store.dialect), and the schema its own migrations
// (migrations/postgres/, the twins of migrations/ with the same numbers).
//
// SQLite's one writer goroutine serialises every write of the process;
// here several processes may share the database, so a write is instead a
// transaction of its own on a pooled connection at the SERIALIZABLE
// isolation level, behind a writer lock that every process takes in turn
// (txPG): the writes follow one another as under SQLite's one writer,
// whichever node makes them, and PostgreSQL commits one only if the result
// is that of some serial order, so every read-check-write of the store (a
// game's status, the ratings FinishGame updates, the review queue, the
// daily import bound) keeps its meaning. The hot writes of one game's
// moves and clock (Store.writeGame) take neither: they run at READ
// COMMITTED, ordered by the lock of the game's row. A transaction
// PostgreSQL refuses to serialise (SQLSTATE 40001) or picks as a
// deadlock's victim (40P01) is run again from the start, after a short
// random wait, up to pgAttempts times. PostgreSQL groups the commits of
// concurrent transactions into one flush of its log by itself.

// IsPostgres reports whether dsn names a PostgreSQL database (a postgres://
// or postgresql:// URL) rather than an SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Redact returns dsn as it may be logged: a PostgreSQL URL without its
// password (in the user part or the password parameter).
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// pgAttempts bounds the runs of a write that PostgreSQL could not
// serialise; beyond it the write fails with the last error.
const pgAttempts = 20

// openPostgres connects the pool to the database dsn names, migrates it and
// prepares the hot statements.
func (s *Store) openPostgres(ctx context.Context, dsn string, opts Options) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("store: postgres: %w", err)
	}
	where := fmt.Sprintf("postgres %s:%d/%s", cfg.Host, cfg.Port, cfg.Database) // never the password
	db := stdlib.OpenDB(*cfg)
	// Reads and writes share the pool: a write holds its connection for
	// its transaction, and no write reads through s.r meanwhile.
	n := opts.Readers + 3 // and a few for the writes
	if opts.Readers <= 0 {
		n = max(16, 4*runtime.NumCPU())
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fmt.Errorf("store: open %s: %w", where, err)
	}
	latest, err := migrate(ctx, db, goose.DialectPostgres, "migrations/postgres")
	if err != nil {
		db.Close()
		return fmt.Errorf("store: migrate %s: %w", where, err)
	}
	s.pg, s.w, s.r, s.latest = true, db, db, latest
	s.pgSerial = make(chan struct{}, 1)
	if err := s.prepare(ctx); err != nil {
		db.Close()
		return err
	}
	return nil
}

// writePG runs fn in a transaction of its own at the isolation level
// (SERIALIZABLE but for writeGame's), again while PostgreSQL could not
// serialise it, and returns once it committed (or failed). Close waits
// for the writes in progress.
func (s *Store) writePG(ctx context.Context, level sql.IsolationLevel, fn func(tx *sql.Tx) error) error {
	return s.pgWrite(ctx, func() error { return s.txPG(ctx, level, fn) })
}

// pgWrite runs attempt, a write of its own transaction, until it succeeds,
// fails for good, or has failed pgAttempts times with an error that a run
// again may not have (retryable); Close waits for it.
func (s *Store) pgWrite(ctx context.Context, attempt func() error) error {
	s.pgMu.Lock()
	select {
	case <-s.quit:
		s.pgMu.Unlock()
		return ErrClosed
	default:
	}
	s.pgWrites.Add(1)
	s.pgMu.Unlock()
	defer s.pgWrites.Done()
	wait := time.Millisecond
	for n := 1; ; n++ {
		err := attempt()
		if err == nil || !retryable(err) || n == pgAttempts {
			return err
		}
		// A random wait up to twice the last, from 1 ms to 100 ms: the
		// transactions that collided do not collide again in step.
		t := time.NewTimer(wait/2 + rand.N(wait))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// pgWriterLock is the key of the advisory lock that the serialisable
// writes of every process on the database take in turn ("toguz").
const pgWriterLock = 0x746f67757a

// txPG runs fn in one transaction at the isolation level. A serialisable
// one first takes the writer lock, in this process (pgSerial, so that one
// connection at most waits for it) and then in the database (a session
// advisory lock, taken before the transaction begins so that its snapshot
// is taken after the previous writer's commit): the serialisable writes
// of every node follow one another like SQLite's one writer's, and
// PostgreSQL's serialisation check is left to refuse only a collision
// with a game's moves, which do not take it. Without the lock, writes that
// all read one thing (the review queue's length, the explorer's first
// plies) refused one another: of many games ending at once, each commit
// sent all the others round again.
func (s *Store) txPG(ctx context.Context, level sql.IsolationLevel, fn func(tx *sql.Tx) error) (err error) {
	db := txBeginner(s.w)
	if level == sql.LevelSerializable {
		select {
		case s.pgSerial <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-s.pgSerial }()
		conn, err := s.w.Conn(ctx)
		if err != nil {
			return fmt.Errorf("store: connection: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(pgWriterLock)); err != nil {
			return fmt.Errorf("store: writer lock: %w", err)
		}
		defer func() {
			if _, uerr := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(pgWriterLock)); uerr != nil {
				// The session may still hold the lock: close it, which
				// releases it, rather than pool it.
				conn.Raw(func(any) error { return driver.ErrBadConn })
				err = errors.Join(err, fmt.Errorf("store: writer unlock: %w", uerr))
			}
		}()
		db = conn
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: level})
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	s.commits.Add(1)
	return nil
}

// txBeginner is what txPG begins its transaction on: the pool, or one
// connection of it.
type txBeginner interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}

// retryable reports whether err is PostgreSQL refusing to serialise a
// transaction or ending it to break a deadlock: the same transaction run
// again may commit.
func retryable(err error) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && (e.Code == "40001" || e.Code == "40P01")
}

// pgConstraint classifies a PostgreSQL constraint error by its SQLSTATE;
// ok is false for an error that is not PostgreSQL's.
func pgConstraint(err error) (unique, foreignKey, ok bool) {
	var e *pgconn.PgError
	if !errors.As(err, &e) {
		return false, false, false
	}
	return e.Code == "23505", e.Code == "23503", true // unique_violation, foreign_key_violation
}
