// Package store keeps toguz's accounts, games and ratings in SQLite or
// PostgreSQL.
//
// Features:
//   - [Open]: a database file (pure-Go driver modernc.org/sqlite, no cgo) with
//     WAL, busy_timeout and foreign_keys, its schema migrated by goose from the
//     embedded migrations/ folder before Open returns; or, for a postgres://
//     URL, a PostgreSQL database (postgres.go: pgx, the migrations/postgres/
//     twins, serialisable transactions on a pool instead of the one writer).
//   - One writer: every write runs on one goroutine that owns the single
//     write connection, in transactions that begin IMMEDIATE, so writes are
//     serialised in the process and never fail on a lock upgrade. Writes that
//     arrive together share one transaction (group commit), each in its own
//     savepoint so that a failing one undoes only itself; a write returns
//     only after its transaction committed. Reads use a separate pool of
//     read-only connections and see every committed write (WAL). The WAL
//     is copied into the file by a goroutine of its own, not by the
//     commits (checkpoint.go).
//   - One file per aggregate: users ([Store.CreateUser]), sessions
//     ([Store.CreateSession]), games ([Store.CreateGame], [Store.StartGame],
//     [Store.FinishGame]), moves and clocks ([Store.AppendMove]: the move and the
//     clock state in one transaction, exactly one move per ply), ratings
//     ([Store.Perfs], [Store.RatingHistory], [Store.Leaderboard]; updated by
//     FinishGame inside its transaction, so concurrent games cannot lose an
//     update).
//   - The archive (archive.go): imported games stored in one transaction,
//     duplicates known by a canonical hash, a daily bound per importer
//     ([Store.ImportGames]); the finished games searched by player, date,
//     result, ruleset, opening and source ([Store.SearchGames]). An account's
//     language ([Store.SetLang]).
//   - The lessons of /learn (lessons.go): the exercises an account has
//     solved ([Store.MarkExercise], [Store.Exercises]).
//   - Studies and classes (studies.go): a study's header, members and roles
//     and its chapters' records ([Store.CreateStudy], [Store.SaveChapter],
//     [Store.Chapters], [Store.StudyRole]); a coach's classes and their
//     students, invited and accepted ([Store.CreateClass],
//     [Store.InviteStudent], [Store.AnswerClass]).
//   - The opening explorer (explorer.go): the moves played from each position
//     of the finished games' first 20 plies, per tree (the site, one player
//     as one colour) and bucket, updated inside FinishGame's and
//     ImportGames' transactions ([Store.Explorer]).
//   - [LiveStore] (live.go): the store behind live.Store, for the live hub.
//     A stored game's seats and status are internal/game's Seat and Status
//     (a Game row holds them); the words of the status column ("started"
//     for game.Playing) and the start_fen column's text are read and
//     written here only, a game.Spec carrying its start as a position.
//   - Reviews (reviews.go): the job queue of the games' reviews, a job
//     queued by FinishGame (Options.Reviews) or on request for an imported
//     game ([Store.RequestReview]), bounded (Options.MaxReviews), taken by
//     the workers ([Store.NextReview], [Store.FinishReview]) and resumed
//     after a restart ([Store.ResumeReviews]).
//   - Restarts and sweeps (resume.go, sessions.go): when the server last ran
//     ([Store.MarkAlive], [Store.LastAlive]), the clocks a restart rebuilt
//     ([Store.SaveClocks]), the abandoned games aborted at start-up without
//     loading them ([Store.StartedGames], [Store.AbortGames]), and the
//     expired sessions deleted every hour in bounded batches
//     ([Store.SweepSessions], Options.SessionSweep).
//   - The move from SQLite to PostgreSQL (copy.go): [CopyToPostgres] copies
//     a database file, read-only, to a new PostgreSQL database in one
//     transaction (toguz copy-db).
//   - Errors callers test: [ErrNotFound], [ErrConflict], [ErrDuplicateName].
//   - SQL with $1 placeholders and portable types (times and durations as
//     BIGINT milliseconds), shared with PostgreSQL; the few statements that
//     differ have both forms (Store.dialect).
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
	"maps"
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

// The migrations of SQLite (migrations/) and of PostgreSQL
// (migrations/postgres/), twins of the same numbers.
//
//go:embed migrations/*.sql migrations/postgres/*.sql
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
	// the machine losing power. PostgreSQL's commits wait for the disk unless
	// its server's synchronous_commit is off; SyncFull changes nothing there.
	SyncFull bool
	// Readers is the size of the read-only connection pool; the number of
	// CPUs when zero. On PostgreSQL, whose one pool reads and writes, the
	// pool has Readers+3 connections (zero: 4 per CPU, at least 16).
	Readers int
	// SessionSweep is how often the expired sessions are deleted, in
	// bounded batches (default DefaultSessionSweep; negative: never).
	SessionSweep time.Duration
	// Reviews makes FinishGame queue a review job for every game that
	// ends with a move played (reviews.go), in the same transaction.
	Reviews bool
	// MaxReviews is the pending review jobs beyond which the oldest
	// imported game's is dropped to make room (0: DefaultMaxReviews;
	// negative: no bound).
	MaxReviews int
	// Observer is told how long the store's operations take (the server's
	// metrics; nil: nobody). See [Observer] for the operations.
	Observer Observer

	// Tests: the checkpointer's interval and the WAL's length in pages
	// beyond which the writer finishes a checkpoint (checkpoint.go);
	// checkpointEvery and walRestartPages when zero.
	checkpointEvery time.Duration
	walRestart      int
}

// Observer is told the duration of each store operation, so that a server
// can export them as metrics without the store knowing how. op is one of:
//   - "write": one write, from its arrival at the writer's queue to its
//     commit (what the caller waits);
//   - "commit": one transaction of the writer, a batch of writes;
//   - "checkpoint": a checkpoint the writer finishes between two batches
//     (SQLite; checkpoint.go), which the writes behind it wait for;
//   - the live hub's operations through [LiveStore]: "create_game",
//     "add_move", "end_game", "take_back", "save_clocks" (writes), "game"
//     and "live_games" (reads);
//   - "session": the session lookup that authenticates a request (a read).
//
// ObserveStore is called on the caller's goroutine (the writer's for
// "commit" and "checkpoint") and must not block.
type Observer interface {
	ObserveStore(op string, d time.Duration)
}

// observe tells the observer, if any, that op took from start until now.
// It is deferred as defer s.observe(op, time.Now()).
func (s *Store) observe(op string, start time.Time) {
	if s.obs != nil {
		s.obs.ObserveStore(op, time.Since(start))
	}
}

// DefaultSessionSweep is how often an open Store deletes the expired sessions.
const DefaultSessionSweep = time.Hour

// Store is the database.
type Store struct {
	w  *sql.DB // the one writer connection, used only by the writer goroutine (PostgreSQL: the pool, as r)
	r  *sql.DB // read-only connections
	ck *sql.DB // SQLite: the checkpointer's connection (checkpoint.go)
	pg bool    // PostgreSQL (postgres.go), not SQLite

	pgSerial chan struct{}  // PostgreSQL: this process's turn at the writer lock (postgres.go)
	pgMu     sync.Mutex     // guards pgWrites.Add against Close
	pgWrites sync.WaitGroup // PostgreSQL's writes in progress, waited for by Close
	now      func() time.Time
	rand     io.Reader

	obs        Observer // Options.Observer; nil: none
	latest     int64    // the last embedded migration's version, applied by Open (Ready)
	reviews    bool     // Options.Reviews
	maxReviews int      // Options.MaxReviews; 0: no bound

	commits atomic.Int64  // transactions committed, for tests of the grouping
	reqs    chan writeReq // unbuffered: a request is never left behind in a buffer
	quit    chan struct{}
	stopped chan struct{}
	swept   chan struct{} // closed when the session sweeper has exited

	checkpointed chan struct{} // closed when the checkpointer has exited (checkpoint.go)
	walLong      atomic.Bool   // the checkpointer asks the writer to finish a checkpoint
	walRestart   int           // walRestartPages; smaller in tests

	closeOnce sync.Once
	closeErr  error

	// Statements of the hot path (AppendMove), prepared on the writer
	// connection; SQLite's AppendMove runs stmtNextPly only to say why
	// stmtInsertMove (SQLite's alone) inserted nothing.
	stmtNextPly, stmtInsertMove, stmtSaveClock *sql.Stmt
	// PostgreSQL's AppendMove, the three of them in one statement (moves.go).
	stmtMovePG *sql.Stmt
	// The savepoints of group commit, one pair per write of a batch.
	stmtSavepoint, stmtRelease, stmtRollbackTo *sql.Stmt
	// The opening explorer's upserts (explorer.go): SQLite's a row of each
	// table per tree and position of a finished game, PostgreSQL's all of a
	// game's rows of a table from a JSON array.
	stmtExplorerAdd, stmtExplorerSumAdd *sql.Stmt

	// batch is the writer goroutine's transaction and the statements
	// bound to it (txStmt); only that goroutine touches it.
	batch batchStmts
}

// batchStmts are the statements of the writer's transaction of one batch,
// each bound to it once (txStmt).
type batchStmts struct {
	tx *sql.Tx
	m  map[*sql.Stmt]*sql.Stmt
}

// txStmt returns st bound to tx. In the writer's transaction it binds each
// statement once a batch: tx.StmtContext allocates a statement a call, and
// a move in a batch of several made four (the savepoint, the move, the
// clock, the release), a third of the bytes the store allocated a move
// (BenchmarkAppendMoveParallel/sqlite: 2,840 then, 1,890 now).
// Every SQLite write runs in the writer goroutine, the only one to set
// s.batch; PostgreSQL's transactions are never the batch's.
func (s *Store) txStmt(ctx context.Context, tx *sql.Tx, st *sql.Stmt) *sql.Stmt {
	if tx != s.batch.tx {
		return tx.StmtContext(ctx, st)
	}
	if t, ok := s.batch.m[st]; ok {
		return t
	}
	t := tx.StmtContext(ctx, st)
	s.batch.m[st] = t
	return t
}

// ErrClosed is returned by writes after Close.
var ErrClosed = errors.New("store: closed")

// Open opens the store that dsn names and migrates it to the latest
// schema: a PostgreSQL database for a postgres:// or postgresql:// URL
// (postgres.go), otherwise an SQLite database file at that path (created
// if needed). The rest of the server does not know which it has.
func Open(ctx context.Context, dsn string, opts Options) (*Store, error) {
	s := &Store{now: opts.Now, rand: opts.Rand, obs: opts.Observer, reviews: opts.Reviews, maxReviews: cmp.Or(opts.MaxReviews, DefaultMaxReviews)}
	if s.maxReviews < 0 {
		s.maxReviews = 0
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.rand == nil {
		s.rand = rand.Reader
	}
	s.reqs, s.quit, s.stopped = make(chan writeReq), make(chan struct{}), make(chan struct{})
	if IsPostgres(dsn) {
		if err := s.openPostgres(ctx, dsn, opts); err != nil {
			return nil, err
		}
		close(s.stopped) // no writer goroutine: each write has its own transaction
	} else {
		if err := s.openSQLite(ctx, dsn, opts); err != nil {
			return nil, err
		}
		s.walRestart = cmp.Or(opts.walRestart, walRestartPages)
		go s.writer()
		go s.checkpointer(cmp.Or(opts.checkpointEvery, checkpointEvery))
	}
	s.swept = make(chan struct{})
	if every := cmp.Or(opts.SessionSweep, DefaultSessionSweep); every > 0 {
		go s.sweepSessions(every)
	} else {
		close(s.swept)
	}
	if err := s.addPendingExplorer(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// openSQLite opens the database file at path: the one writer connection,
// migrated and with its statements prepared, and the read-only pool.
func (s *Store) openSQLite(ctx context.Context, path string, opts Options) error {
	syncMode := "NORMAL"
	if opts.SyncFull {
		syncMode = "FULL"
	}
	common := url.Values{}
	common.Set("_busy_timeout", "10000")
	common.Set("_foreign_keys", "1")
	common.Set("_journal_mode", "WAL")
	common.Set("_synchronous", syncMode)
	wq := maps.Clone(common)
	wq.Set("_txlock", "immediate")
	// The checkpoints are the checkpointer's (checkpoint.go), not the commits'.
	wq.Add("_pragma", "wal_autocheckpoint=0")
	// An SQLite URI: the path is percent-encoded so that '?', '#' and '%' in
	// a file name stay part of it.
	uri := "file:" + (&url.URL{Path: path}).EscapedPath() + "?"
	var err error
	if s.w, err = sql.Open("sqlite", uri+wq.Encode()); err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	s.w.SetMaxOpenConns(1)
	if err := s.w.PingContext(ctx); err != nil {
		s.w.Close()
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	if s.latest, err = migrate(ctx, s.w, goose.DialectSQLite3, "migrations"); err != nil {
		s.w.Close()
		return fmt.Errorf("store: migrate %s: %w", path, err)
	}
	if err := s.prepare(ctx); err != nil {
		s.w.Close()
		return err
	}
	rq := maps.Clone(common)
	rq.Del("_journal_mode") // set once by the writer; it is persistent
	rq.Set("_query_only", "1")
	if s.r, err = sql.Open("sqlite", uri+rq.Encode()); err != nil {
		s.closeStmts()
		s.w.Close()
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	cq := maps.Clone(common)
	cq.Del("_journal_mode")
	if s.ck, err = sql.Open("sqlite", uri+cq.Encode()); err != nil {
		s.closeStmts()
		s.r.Close()
		s.w.Close()
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	s.ck.SetMaxOpenConns(1)
	s.checkpointed = make(chan struct{})
	n := opts.Readers
	if n <= 0 {
		n = runtime.NumCPU()
	}
	s.r.SetMaxOpenConns(n)
	s.r.SetMaxIdleConns(n)
	return nil
}

// prepare prepares the statements of the hot paths on s.w: on SQLite the
// move's insert and the savepoints of group commit, on PostgreSQL (whose
// transactions each have their own connection) the move in one statement.
func (s *Store) prepare(ctx context.Context) error {
	type prepared struct {
		stmt **sql.Stmt
		sql  string
	}
	stmts := []prepared{
		{&s.stmtNextPly, s.dialect(sqlNextPly, sqlNextPlyPG)},
		{&s.stmtSaveClock, sqlSaveClock},
		{&s.stmtExplorerAdd, s.dialect(sqlExplorerAdd, sqlExplorerAddPG)},
		{&s.stmtExplorerSumAdd, s.dialect(sqlExplorerSumAdd, sqlExplorerSumAddPG)},
	}
	if s.pg {
		stmts = append(stmts, prepared{&s.stmtMovePG, sqlMovePG})
	} else {
		stmts = append(stmts, prepared{&s.stmtInsertMove, sqlInsertMove}, prepared{&s.stmtSavepoint, `SAVEPOINT w`},
			prepared{&s.stmtRelease, `RELEASE w`}, prepared{&s.stmtRollbackTo, `ROLLBACK TO w`})
	}
	for _, p := range stmts {
		var err error
		if *p.stmt, err = s.w.PrepareContext(ctx, p.sql); err != nil {
			s.closeStmts()
			return fmt.Errorf("store: prepare: %w", err)
		}
	}
	return nil
}

// closeStmts closes the prepared statements.
func (s *Store) closeStmts() error {
	var errs []error
	for _, st := range []*sql.Stmt{s.stmtNextPly, s.stmtInsertMove, s.stmtSaveClock, s.stmtMovePG, s.stmtSavepoint, s.stmtRelease, s.stmtRollbackTo,
		s.stmtExplorerAdd, s.stmtExplorerSumAdd} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// dialect returns the SQLite or the PostgreSQL form of a statement, for
// the few that differ (docs/architecture.md lists them).
func (s *Store) dialect(sqlite, postgres string) string {
	if s.pg {
		return postgres
	}
	return sqlite
}

// migrate applies the migrations of folder dir to db.
// migrate applies dir's migrations and returns the last one's version.
func migrate(ctx context.Context, db *sql.DB, d goose.Dialect, dir string) (int64, error) {
	fsys, err := fs.Sub(migrations, dir)
	if err != nil {
		return 0, err
	}
	p, err := goose.NewProvider(d, db, fsys)
	if err != nil {
		return 0, err
	}
	if _, err := p.Up(ctx); err != nil {
		return 0, err
	}
	srcs := p.ListSources()
	if len(srcs) == 0 {
		return 0, fmt.Errorf("no migrations in %s", dir)
	}
	return srcs[len(srcs)-1].Version, nil
}

// SchemaVersion returns the version of the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&v)
	return v, err
}

// Ready returns nil when the database answers a read within ctx and its
// schema is the latest this program knows: a server's readiness check
// (GET /readyz). A store that Open migrated is; one whose file another,
// newer program has migrated further is not either.
func (s *Store) Ready(ctx context.Context) error {
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		return fmt.Errorf("store: not reachable: %w", err)
	}
	if v != s.latest {
		return fmt.Errorf("store: schema version %d, want %d", v, s.latest)
	}
	return nil
}

// Synchronous returns the writer connection's PRAGMA synchronous: 1
// (NORMAL) or 2 (FULL, Options.SyncFull), so that a server can say how
// durable its commits are. On PostgreSQL it is 2 (a commit waits for the
// disk) unless the server's synchronous_commit is off (0).
func (s *Store) Synchronous(ctx context.Context) (int, error) {
	if s.pg {
		var setting string
		if err := s.r.QueryRowContext(ctx, "SHOW synchronous_commit").Scan(&setting); err != nil {
			return 0, fmt.Errorf("store: SHOW synchronous_commit: %w", err)
		}
		if setting == "off" {
			return 0, nil
		}
		return 2, nil
	}
	var mode int
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&mode)
	})
	if err != nil {
		return 0, fmt.Errorf("store: PRAGMA synchronous: %w", err)
	}
	return mode, nil
}

// Close waits for the writes in progress, then closes the database; the
// last connection's checkpoint folds the WAL into the file.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.quit)
		<-s.stopped
		<-s.swept
		if s.pg {
			s.pgWrites.Wait()
			s.closeErr = errors.Join(s.closeStmts(), s.w.Close())
			return
		}
		<-s.checkpointed
		s.closeErr = errors.Join(s.closeStmts(), s.r.Close(), s.ck.Close(), s.w.Close())
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
	defer s.observe("write", time.Now())
	if s.pg {
		return s.writePG(ctx, sql.LevelSerializable, fn)
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

// writeGame is write for the hot writes of one game's moves and clock
// (AppendMove, TakeBack, SaveClock), which read the game's status and next
// ply first (stmtNextPly, or in SQLite's move insert) or write only the
// clock's row, and for the writes that only insert rows whose
// keys and references the database checks (CreateGame, CreateSession). On
// PostgreSQL they run at READ COMMITTED and without the writer lock: the
// lock of the game's row that stmtNextPly takes orders a game's moves,
// where SERIALIZABLE's predicate locks on shared index pages would make the
// moves of different games refuse each other, and the writer lock would
// put every move and every new game of the site in one line.
func (s *Store) writeGame(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.pg {
		if err := ctx.Err(); err != nil {
			return err
		}
		return s.writePG(ctx, sql.LevelReadCommitted, fn)
	}
	return s.write(ctx, fn)
}

// writer is the one goroutine that writes.
func (s *Store) writer() {
	defer close(s.stopped)
	s.batch.m = make(map[*sql.Stmt]*sql.Stmt)
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
		s.finishCheckpoint()
	}
}

// runBatch runs the writes of batch in one transaction and answers each.
func (s *Store) runBatch(batch []writeReq) {
	defer s.observe("commit", time.Now())
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
	// The statements bound to tx are closed with it.
	s.batch.tx = tx
	defer func() {
		s.batch.tx = nil
		clear(s.batch.m)
	}()
	single := len(batch) == 1
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		ctx := context.WithoutCancel(r.ctx)
		if !single {
			if _, err := s.txStmt(ctx, tx, s.stmtSavepoint).ExecContext(ctx); err != nil {
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
			if _, err = s.txStmt(ctx, tx, s.stmtRollbackTo).ExecContext(ctx); err == nil {
				_, err = s.txStmt(ctx, tx, s.stmtRelease).ExecContext(ctx)
			}
		default:
			_, err = s.txStmt(ctx, tx, s.stmtRelease).ExecContext(ctx)
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

// constraint classifies a constraint error of SQLite or PostgreSQL.
func constraint(err error) (unique, foreignKey bool) {
	if unique, foreignKey, ok := pgConstraint(err); ok {
		return unique, foreignKey
	}
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
