// Package store keeps toguz's accounts, games and ratings in SQLite.
//
// Features:
//   - [Open]: a database file (pure-Go driver modernc.org/sqlite, no cgo) with
//     WAL, busy_timeout and foreign_keys, its schema migrated by goose from the
//     embedded migrations/ folder before Open returns.
//   - One writer: every write runs on one goroutine that owns the single
//     write connection, in transactions that begin IMMEDIATE, so writes are
//     serialised in the process and never fail on a lock upgrade. Writes that
//     arrive together share one transaction (group commit), each in its own
//     savepoint so that a failing one undoes only itself; a write returns
//     only after its transaction committed. Reads use a separate pool of
//     read-only connections and see every committed write (WAL).
//   - One file per aggregate: users ([Store.CreateUser]), sessions
//     ([Store.CreateSession]), games ([Store.CreateGame], [Store.StartGame],
//     [Store.FinishGame]), moves and clocks ([Store.AppendMove]: the move and the
//     clock state in one transaction, exactly one move per ply), ratings
//     ([Store.Perfs], [Store.RatingHistory], [Store.Leaderboard]; updated by
//     FinishGame inside its transaction, so concurrent games cannot lose an
//     update).
//   - [LiveStore] (live.go): the store behind live.Store, for the live hub.
//   - Restarts and sweeps (resume.go, sessions.go): when the server last ran
//     ([Store.MarkAlive], [Store.LastAlive]), the clocks a restart rebuilt
//     ([Store.SaveClocks]), the abandoned games aborted at start-up without
//     loading them ([Store.StartedGames], [Store.AbortGames]), and the
//     expired sessions deleted every hour in bounded batches
//     ([Store.SweepSessions], Options.SessionSweep).
//   - Errors callers test: [ErrNotFound], [ErrConflict], [ErrDuplicateName].
//   - SQL with $1 placeholders and portable types (times and durations as
//     BIGINT milliseconds), to be shared with PostgreSQL later.
//
// A Store is safe for concurrent use.
package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors that callers test with errors.Is.
var (
	ErrNotFound      = errors.New("not found")
	ErrConflict      = errors.New("conflict") // the write contradicts the stored state (a ply already played, a game already over)
	ErrDuplicateName = errors.New("name already taken")
)

//go:embed migrations/*.sql
var migrations embed.FS

// Options configure Open. The zero value is the production configuration.
type Options struct {
	// Now is the time source for the times the store records itself
	// (creation times); time.Now when nil.
	Now func() time.Time
	// Rand is the random source for game ids; crypto/rand when nil.
	Rand io.Reader
	// SyncFull makes every commit wait for the disk (PRAGMA synchronous=FULL).
	// By default (NORMAL) a commit survives the process being killed but not
	// the machine losing power.
	SyncFull bool
	// Readers is the size of the read-only connection pool; the number of
	// CPUs when zero.
	Readers int
	// SessionSweep is how often the expired sessions are deleted, in
	// bounded batches (default DefaultSessionSweep; negative: never).
	SessionSweep time.Duration
}

// DefaultSessionSweep is how often an open Store deletes the expired sessions.
const DefaultSessionSweep = time.Hour

// Store is the database.
type Store struct {
	w    *sql.DB // the one writer connection, used only by the writer goroutine
	r    *sql.DB // read-only connections
	now  func() time.Time
	rand io.Reader

	commits atomic.Int64  // transactions committed, for tests of the grouping
	reqs    chan writeReq // unbuffered: a request is never left behind in a buffer
	quit    chan struct{}
	stopped chan struct{}
	swept   chan struct{} // closed when the session sweeper has exited

	closeOnce sync.Once
	closeErr  error

	// Statements of the hot path (AppendMove), prepared on the writer connection.
	stmtNextPly, stmtInsertMove, stmtSaveClock *sql.Stmt
	// The savepoints of group commit, one pair per write of a batch.
	stmtSavepoint, stmtRelease, stmtRollbackTo *sql.Stmt
}

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store: closed")

// Open opens (creating if needed) the database file at path and migrates it
// to the latest schema.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	s := &Store{now: opts.Now, rand: opts.Rand}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.Reader
	}
	syncMode := "NORMAL"
	if opts.SyncFull {
		syncMode = "FULL"
	}
	common := url.Values{}
	common.Set("_busy_timeout", "10000")
	common.Set("_foreign_keys", "1")
	common.Set("_journal_mode", "WAL")
	common.Set("_synchronous", syncMode)
	wq := url.Values{}
	for k, v := range common {
		wq[k] = v
	}
	wq.Set("_txlock", "immediate")
	// An SQLite URI: the path is percent-encoded so that '?', '#' and '%' in
	// a file name stay part of it.
	uri := "file:" + (&url.URL{Path: path}).EscapedPath() + "?"
	var err error
	if s.w, err = sql.Open("sqlite", uri+wq.Encode()); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s.w.SetMaxOpenConns(1)
	if err := s.w.PingContext(ctx); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := migrate(ctx, s.w); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: migrate %s: %w", path, err)
	}
	if err := s.prepare(ctx); err != nil {
		s.w.Close()
		return nil, err
	}
	rq := url.Values{}
	for k, v := range common {
		rq[k] = v
	}
	rq.Del("_journal_mode") // set once by the writer; it is persistent
	rq.Set("_query_only", "1")
	if s.r, err = sql.Open("sqlite", uri+rq.Encode()); err != nil {
		s.w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	n := opts.Readers
	if n <= 0 {
		n = runtime.NumCPU()
	}
	s.r.SetMaxOpenConns(n)
	s.r.SetMaxIdleConns(n)
	s.reqs, s.quit, s.stopped = make(chan writeReq), make(chan struct{}), make(chan struct{})
	go s.writer()
	s.swept = make(chan struct{})
	if every := cmp.Or(opts.SessionSweep, DefaultSessionSweep); every > 0 {
		go s.sweepSessions(every)
	} else {
		close(s.swept)
	}
	return s, nil
}

func (s *Store) prepare(ctx context.Context) error {
	var err error
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.stmtNextPly, sqlNextPly},
		{&s.stmtInsertMove, sqlInsertMove},
		{&s.stmtSaveClock, sqlSaveClock},
		{&s.stmtSavepoint, `SAVEPOINT w`},
		{&s.stmtRelease, `RELEASE w`},
		{&s.stmtRollbackTo, `ROLLBACK TO w`},
	} {
		if *p.stmt, err = s.w.PrepareContext(ctx, p.sql); err != nil {
			return fmt.Errorf("store: prepare: %w", err)
		}
	}
	return nil
}

func migrate(ctx context.Context, db *sql.DB) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys)
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return err
}

// SchemaVersion returns the version of the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&v)
	return v, err
}

// Close waits for the writes in progress, then closes the database; the
// Synchronous returns the writer connection's PRAGMA synchronous: 1
// (NORMAL) or 2 (FULL, Options.SyncFull), so that a server can say how
// durable its commits are.
func (s *Store) Synchronous(ctx context.Context) (int, error) {
	var mode int
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&mode)
	})
	if err != nil {
		return 0, fmt.Errorf("store: PRAGMA synchronous: %w", err)
	}
	return mode, nil
}

// last connection's checkpoint folds the WAL into the file.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.quit)
		<-s.stopped
		<-s.swept
		s.closeErr = errors.Join(s.stmtNextPly.Close(), s.stmtInsertMove.Close(), s.stmtSaveClock.Close(),
			s.stmtSavepoint.Close(), s.stmtRelease.Close(), s.stmtRollbackTo.Close(), s.r.Close(), s.w.Close())
	})
	return s.closeErr
}

// A writeReq is one write waiting for the writer goroutine.
type writeReq struct {
	ctx  context.Context
	fn   func(tx *sql.Tx) error
	done chan error // buffered: the writer never blocks on a caller
}

// maxBatch bounds the writes committed together.
const maxBatch = 256

// write runs fn in a transaction of the writer goroutine and returns once
// that transaction has committed (or fn failed). Writes that arrive
// together are committed together (group commit), each in its own savepoint,
// so one failing write does not undo the others; when write returns nil the
// change is committed. fn must not keep tx.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := writeReq{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case s.reqs <- req:
	case <-s.quit:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	return <-req.done
}

// writer is the one goroutine that writes.
func (s *Store) writer() {
	defer close(s.stopped)
	batch := make([]writeReq, 0, maxBatch)
	for {
		select {
		case <-s.quit:
			return
		case r := <-s.reqs:
			batch = append(batch[:0], r)
		}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-s.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		s.runBatch(batch)
	}
}

// runBatch runs the writes of batch in one transaction and answers each.
func (s *Store) runBatch(batch []writeReq) {
	errs := make([]error, len(batch))
	fail := func(err error) {
		for _, r := range batch {
			r.done <- err
		}
	}
	// The transaction is not tied to any caller's context: cancelling a
	// statement would roll back the others' writes with it.
	tx, err := s.w.BeginTx(context.Background(), nil)
	if err != nil {
		fail(fmt.Errorf("store: begin: %w", err))
		return
	}
	single := len(batch) == 1
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		ctx := context.WithoutCancel(r.ctx)
		if !single {
			if _, err := tx.StmtContext(ctx, s.stmtSavepoint).ExecContext(ctx); err != nil {
				tx.Rollback()
				fail(fmt.Errorf("store: savepoint: %w", err))
				return
			}
		}
		errs[i] = r.fn(tx)
		switch {
		case single && errs[i] != nil:
			tx.Rollback()
			fail(errs[i])
			return
		case single:
		case errs[i] != nil:
			if _, err = tx.StmtContext(ctx, s.stmtRollbackTo).ExecContext(ctx); err == nil {
				_, err = tx.StmtContext(ctx, s.stmtRelease).ExecContext(ctx)
			}
		default:
			_, err = tx.StmtContext(ctx, s.stmtRelease).ExecContext(ctx)
		}
		if err != nil {
			tx.Rollback()
			fail(fmt.Errorf("store: savepoint: %w", err))
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(fmt.Errorf("store: commit: %w", err))
		return
	}
	s.commits.Add(1)
	for i, r := range batch {
		r.done <- errs[i]
	}
}

// constraint classifies a SQLite constraint error.
func constraint(err error) (unique, foreignKey bool) {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false, false
	}
	switch e.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return true, false
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return false, true
	}
	return false, false
}

// Times are stored as Unix milliseconds; zero means none.
func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
