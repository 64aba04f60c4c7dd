package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/pgtest"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// TestCopyDB copies a server's SQLite database with one account to
// PostgreSQL and prints the tables' rows; without -to it is a usage error.
func TestCopyDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(ctx, "abai", "x"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	guestKey, err := server.LoadGuestKey(db + ".guestkey")
	if err != nil {
		t.Fatal(err)
	}
	if code, _, _ := runRecordCmd(t, "copy-db", "-from", db); code != 2 {
		t.Errorf("copy-db without -to: exit %d; want 2", code)
	}
	to := pgtest.Schema(t)
	code, out, errs := runRecordCmd(t, "copy-db", "-from", db, "-to", to)
	if code != 0 || !strings.Contains(out, "rows copied to postgres://") {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	users := ""
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "users" {
			users = f[1]
		}
	}
	if users != "1" {
		t.Errorf("users: %q rows; want 1 in %q", users, out)
	}
	// The guest key beside the file is carried; the two-factor key was
	// never made.
	if !strings.Contains(out, "secret guest_key") || !strings.Contains(out, "carried from "+db+".guestkey") ||
		!strings.Contains(out, "none (no "+db+".twofactorkey)") {
		t.Errorf("the secrets copy-db reports: %q", out)
	}
	pg, err := store.Open(ctx, to, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	if k, err := pg.Secret(ctx, "guest_key", func() ([]byte, error) { return nil, errors.New("not carried") }); err != nil || !bytes.Equal(k, guestKey) {
		t.Errorf("the guest key in PostgreSQL: %x, %v; want %x", k, err, guestKey)
	}
}
