package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// Copying an SQLite database to PostgreSQL (toguz copy-db): an operator
// who started on one machine takes the data along to several nodes.
//
// The schemas are twins (migrations/ and migrations/postgres/): the same
// tables and columns, times as BIGINT milliseconds and booleans as 0/1
// integers on both, so a value read from SQLite (int64, float64, string,
// []byte, NULL) is written to PostgreSQL as it is (BIGINT/INTEGER, DOUBLE
// PRECISION, TEXT, BYTEA). What differs: SQLite's INTEGER PRIMARY KEY is an
// identity column there, whose sequence is set past the copied ids; and
// reviews' rowid, implicit in SQLite, is a GENERATED ALWAYS identity
// there, filled in the order of SQLite's rowid (the queue's order).

// CopyCount is the rows copied of one table.
type CopyCount struct {
	Table string
	Rows  int64
}

// CopyProgress is told the rows of table copied so far, every
// copyProgressEvery rows and once when the table is done.
type CopyProgress func(table string, rows int64, done bool)

// copyProgressEvery is how many rows of a table are copied between two
// reports of progress.
const copyProgressEvery = 50000

// CopyToPostgres copies the SQLite database file from to the PostgreSQL
// database that the URL to names. The source is opened read-only and must
// be at this program's schema version; the target is migrated to it and
// must hold no row yet. Every table is copied in the order of its foreign
// keys in one transaction of the target, streamed (COPY), and the
// identity columns' sequences are set past the copied ids. It returns the
// rows copied per table.
func CopyToPostgres(ctx context.Context, from, to string, progress CopyProgress) ([]CopyCount, error) {
	if !IsPostgres(to) {
		return nil, fmt.Errorf("store: copy: target %q is not a postgres:// URL", to)
	}
	if IsPostgres(from) {
		return nil, fmt.Errorf("store: copy: source %s is a PostgreSQL URL; it must be an SQLite file", Redact(from))
	}
	if progress == nil {
		progress = func(string, int64, bool) {}
	}
	if _, err := os.Stat(from); err != nil {
		return nil, fmt.Errorf("store: copy: source: %w", err)
	}
	uri := "file:" + (&url.URL{Path: from}).EscapedPath() + "?mode=ro&_query_only=1&_busy_timeout=10000"
	src, err := sql.Open("sqlite", uri)
	if err != nil {
		return nil, fmt.Errorf("store: copy: open %s: %w", from, err)
	}
	defer src.Close()
	src.SetMaxOpenConns(2)
	want, err := latestMigration("migrations")
	if err != nil {
		return nil, fmt.Errorf("store: copy: %w", err)
	}
	var have int64
	if err := src.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&have); err != nil {
		return nil, fmt.Errorf("store: copy: schema version of %s: %w", from, err)
	}
	if have != want {
		return nil, fmt.Errorf("store: copy: %s is at schema version %d, this program's is %d: open it once with this program's serve (which migrates it) or copy it with the program of version %d", from, have, want, have)
	}
	tables, err := sqliteTables(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("store: copy: tables of %s: %w", from, err)
	}

	cfg, err := pgx.ParseConfig(to)
	if err != nil {
		return nil, fmt.Errorf("store: copy: target: %w", err)
	}
	where := fmt.Sprintf("postgres %s:%d/%s", cfg.Host, cfg.Port, cfg.Database)
	db := stdlib.OpenDB(*cfg.Copy())
	if _, err := migrate(ctx, db, goose.DialectPostgres, "migrations/postgres"); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: copy: migrate %s: %w", where, err)
	}
	db.Close()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: copy: connect %s: %w", where, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	tx, err := conn.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: copy: begin on %s: %w", where, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// No server writes meanwhile: the writer lock of every node (txPG).
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(pgWriterLock)); err != nil {
		return nil, fmt.Errorf("store: copy: writer lock on %s: %w", where, err)
	}
	pgCols, err := postgresColumns(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("store: copy: columns of %s: %w", where, err)
	}
	for _, t := range tables {
		if _, ok := pgCols[t.name]; !ok {
			return nil, fmt.Errorf("store: copy: table %s of %s is not in %s", t.name, from, where)
		}
		var full bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+quoteIdent(t.name)+`)`).Scan(&full); err != nil {
			return nil, fmt.Errorf("store: copy: %s of %s: %w", t.name, where, err)
		}
		if full {
			return nil, fmt.Errorf("store: copy: table %s of %s already holds rows: the target must be a new, empty database", t.name, where)
		}
	}
	var counts []CopyCount
	for _, t := range tables {
		n, err := copyTable(ctx, src, tx, t, pgCols[t.name], progress)
		if err != nil {
			return nil, fmt.Errorf("store: copy: table %s: %w", t.name, err)
		}
		counts = append(counts, CopyCount{Table: t.name, Rows: n})
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("store: copy: commit on %s: %w", where, err)
	}
	return counts, nil
}

// latestMigration returns the number of the last embedded migration of dir.
func latestMigration(dir string) (int64, error) {
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if e.IsDir() || !ok {
			continue
		}
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("migration %s: %w", e.Name(), err)
		}
		latest = max(latest, v)
	}
	return latest, nil
}

// An sqliteTable is a table of the source: its columns, whether it has a
// rowid, and the tables its foreign keys reference.
type sqliteTable struct {
	name   string
	cols   []string
	rowid  bool
	refers []string
}

// sqliteTables returns the store's tables of the SQLite database (not its
// own or goose's), each after the tables it references.
func sqliteTables(ctx context.Context, db *sql.DB) ([]sqliteTable, error) {
	rows, err := db.QueryContext(ctx, `SELECT name, sql FROM sqlite_master WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name != 'goose_db_version' ORDER BY name`)
	if err != nil {
		return nil, err
	}
	var all []sqliteTable
	for rows.Next() {
		var t sqliteTable
		var def string
		if err := rows.Scan(&t.name, &def); err != nil {
			rows.Close()
			return nil, err
		}
		t.rowid = !strings.Contains(strings.ToUpper(def), "WITHOUT ROWID")
		all = append(all, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range all {
		t := &all[i]
		if err := eachRow(ctx, db, `SELECT name FROM pragma_table_info($1) ORDER BY cid`, t.name, func(s string) { t.cols = append(t.cols, s) }); err != nil {
			return nil, err
		}
		if err := eachRow(ctx, db, `SELECT DISTINCT "table" FROM pragma_foreign_key_list($1)`, t.name, func(s string) {
			if s != t.name {
				t.refers = append(t.refers, s)
			}
		}); err != nil {
			return nil, err
		}
	}
	// Each table after those it references (a depth-first topological
	// order; the schema has no cycle).
	var order []sqliteTable
	state := map[string]int{} // 1: being placed, 2: placed
	byName := map[string]sqliteTable{}
	for _, t := range all {
		byName[t.name] = t
	}
	var place func(t sqliteTable) error
	place = func(t sqliteTable) error {
		switch state[t.name] {
		case 1:
			return fmt.Errorf("foreign keys in a cycle through %s", t.name)
		case 2:
			return nil
		}
		state[t.name] = 1
		for _, r := range t.refers {
			rt, ok := byName[r]
			if !ok {
				return fmt.Errorf("%s references %s, which is not a table", t.name, r)
			}
			if err := place(rt); err != nil {
				return err
			}
		}
		state[t.name] = 2
		order = append(order, t)
		return nil
	}
	for _, t := range all {
		if err := place(t); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// eachRow calls f with the one text column of each row of q.
func eachRow(ctx context.Context, db *sql.DB, q, arg string, f func(string)) error {
	rows, err := db.QueryContext(ctx, q, arg)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		f(s)
	}
	return rows.Err()
}

// A pgColumn is a column of the target: its identity, if any ("" none,
// "ALWAYS" or "BY DEFAULT").
type pgColumn struct {
	identity string
}

// postgresColumns returns the columns of the tables of the target's
// schema (the first of its search_path), by table.
func postgresColumns(ctx context.Context, tx pgx.Tx) (map[string]map[string]pgColumn, error) {
	rows, err := tx.Query(ctx, `SELECT table_name, column_name, COALESCE(identity_generation, '')
		FROM information_schema.columns WHERE table_schema = current_schema()`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string]map[string]pgColumn{}
	for rows.Next() {
		var table, col, ident string
		if err := rows.Scan(&table, &col, &ident); err != nil {
			return nil, err
		}
		if cols[table] == nil {
			cols[table] = map[string]pgColumn{}
		}
		cols[table][col] = pgColumn{identity: ident}
	}
	return cols, rows.Err()
}

// copyTable streams the rows of t from src into the target's table of the
// same name (COPY) and sets its identity columns' sequences past the
// copied ids.
func copyTable(ctx context.Context, src *sql.DB, tx pgx.Tx, t sqliteTable, pgCols map[string]pgColumn, progress CopyProgress) (int64, error) {
	for _, c := range t.cols {
		if _, ok := pgCols[c]; !ok {
			return 0, fmt.Errorf("column %s is not in PostgreSQL's table", c)
		}
		if pgCols[c].identity == "ALWAYS" {
			return 0, fmt.Errorf("column %s is GENERATED ALWAYS in PostgreSQL's table and cannot be copied", c)
		}
	}
	for c, pc := range pgCols {
		// A column PostgreSQL alone has must be one it fills itself
		// (reviews' rowid).
		if !slices.Contains(t.cols, c) && pc.identity == "" {
			return 0, fmt.Errorf("PostgreSQL's column %s is not in SQLite's table", c)
		}
	}
	q := `SELECT ` + quoteIdents(t.cols) + ` FROM ` + quoteIdent(t.name)
	if t.rowid {
		q += ` ORDER BY rowid` // the order of insertion, which the identities PostgreSQL assigns keep
	}
	rows, err := src.QueryContext(ctx, q)
	if err != nil {
		return 0, fmt.Errorf("read: %w", err)
	}
	defer rows.Close()
	rs := &rowSource{rows: rows, vals: make([]any, len(t.cols)), ptrs: make([]any, len(t.cols)), table: t.name, progress: progress}
	for i := range rs.vals {
		rs.ptrs[i] = &rs.vals[i]
	}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, t.cols, rs)
	if err != nil {
		return 0, fmt.Errorf("write: %w", err)
	}
	if n != rs.n {
		return 0, fmt.Errorf("read %d rows, PostgreSQL took %d", rs.n, n)
	}
	progress(t.name, n, true)
	for c, pc := range pgCols {
		if pc.identity != "BY DEFAULT" {
			continue
		}
		// Past the largest id copied (the schema has no AUTOINCREMENT:
		// SQLite too gives the next row the largest id plus one).
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), GREATEST(MAX(`+quoteIdent(c)+`), 1), MAX(`+quoteIdent(c)+`) IS NOT NULL) FROM `+quoteIdent(t.name),
			quoteIdent(t.name), c); err != nil {
			return 0, fmt.Errorf("sequence of %s: %w", c, err)
		}
	}
	return n, nil
}

// rowSource streams the rows of an SQLite query to pgx's COPY.
type rowSource struct {
	rows     *sql.Rows
	vals     []any
	ptrs     []any
	n        int64
	err      error
	table    string
	progress CopyProgress
}

func (r *rowSource) Next() bool {
	if !r.rows.Next() {
		return false
	}
	if r.err = r.rows.Scan(r.ptrs...); r.err != nil {
		return false
	}
	r.n++
	if r.n%copyProgressEvery == 0 {
		r.progress(r.table, r.n, false)
	}
	return true
}

func (r *rowSource) Values() ([]any, error) { return r.vals, nil }

func (r *rowSource) Err() error {
	if r.err != nil {
		return fmt.Errorf("read row %d: %w", r.n+1, r.err)
	}
	if err := r.rows.Err(); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	return nil
}

// quoteIdent quotes a table's or column's name for SQLite and PostgreSQL.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteIdents(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}
