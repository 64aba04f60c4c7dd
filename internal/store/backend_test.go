package store

import (
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
	"github.com/toguz/toguz/internal/pgtest"
)

// The store's tests run on both back ends: one suite, each test a subtest
// per back end (backends). PostgreSQL's are skipped unless the variable
// TOGUZ_TEST_POSTGRES (pgtest.Env) names a server (.ci/run starts one);
// each test has a schema of its own there, dropped when it ends.

// A backend is one of the databases the store runs on.
type backend struct {
	name string
	// db returns the DSN of a fresh, empty database for Open: a file in
	// t's temporary directory, or a new schema of the PostgreSQL server.
	db func(t testing.TB) string
}

var sqliteBackend = backend{name: "sqlite", db: func(t testing.TB) string {
	return filepath.Join(t.TempDir(), "toguz.db")
}}

var postgresBackend = backend{name: "postgres", db: postgresDB}

// backends runs f once per back end, as subtests named sqlite and postgres.
func backends(t *testing.T, f func(t *testing.T, be backend)) {
	t.Helper()
	for _, be := range []backend{sqliteBackend, postgresBackend} {
		t.Run(be.name, func(t *testing.T) { f(t, be) })
	}
}

// benchBackends is backends for benchmarks.
func benchBackends(b *testing.B, f func(b *testing.B, be backend)) {
	b.Helper()
	for _, be := range []backend{sqliteBackend, postgresBackend} {
		b.Run(be.name, func(b *testing.B) { f(b, be) })
	}
}

// postgresDB makes a schema of its own for t on the server of pgtest.Env
// (pgtest.Schema).
func postgresDB(t testing.TB) string { return pgtest.Schema(t) }

// adminDB opens a connection to dsn for the test's own statements, closed
// when t ends.
func adminDB(t testing.TB, dsn string) *sql.DB { return pgtest.Open(t, dsn) }

// rawDB opens the database of be's DSN without the store, for a test
// that builds an older schema by hand.
func rawDB(t testing.TB, be backend, dsn string) *sql.DB {
	t.Helper()
	if be.name == "postgres" {
		return adminDB(t, dsn)
	}
	db, err := sql.Open("sqlite", "file:"+dsn+"?_foreign_keys=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// migrateTo migrates the raw database db of be up to version v only, as an
// older server left it.
func migrateTo(t testing.TB, be backend, db *sql.DB, v int64) {
	t.Helper()
	p := newProvider(t, be, db)
	if _, err := p.UpTo(t.Context(), v); err != nil {
		t.Fatal(fmt.Errorf("migrate %s to %d: %w", be.name, v, err))
	}
}

// newProvider is goose's provider of be's migrations on the raw database db.
func newProvider(t testing.TB, be backend, db *sql.DB) *goose.Provider {
	t.Helper()
	dialect, dir := goose.DialectSQLite3, "migrations"
	if be.name == "postgres" {
		dialect, dir = goose.DialectPostgres, "migrations/postgres"
	}
	fsys, err := fs.Sub(migrations, dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(dialect, db, fsys)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
