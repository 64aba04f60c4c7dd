// Package pgtest gives the tests that run on PostgreSQL (the store's suite,
// the nodes' kill test) a schema of their own on the server that
// TOGUZ_TEST_POSTGRES names (.ci/run starts one), so that no two tests, and
// no two runs on one server, share a table.
package pgtest

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql's "pgx"
)

// Env is the variable that names the server: a postgres:// URL whose user
// may create schemas.
const Env = "TOGUZ_TEST_POSTGRES"

// Schema makes a schema of its own for t on Env's server and returns a DSN
// whose search_path is that schema; the schema is dropped when t ends. It
// skips t when Env is unset.
func Schema(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(Env)
	if admin == "" {
		t.Skipf("PostgreSQL: %s is unset (e.g. postgres://user@127.0.0.1:5432/db?sslmode=disable; .ci/run starts a server)", Env)
	}
	if !strings.HasPrefix(admin, "postgres://") && !strings.HasPrefix(admin, "postgresql://") {
		t.Fatalf("%s = %q: not a postgres:// URL", Env, admin)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	db := Open(t, admin)
	schema := fmt.Sprintf("toguz_test_%016x", rand.Uint64())
	if _, err := db.ExecContext(t.Context(), `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("PostgreSQL at %s: %v", Env, err)
	}
	t.Cleanup(func() {
		db := Open(t, admin)
		if _, err := db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Open opens a connection pool to dsn for a test's own statements, closed
// when t ends.
func Open(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
