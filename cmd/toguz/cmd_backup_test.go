package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// TestBackupCommand: `toguz backup` makes a checked copy of the database
// with its guest key beside it; it refuses an existing file, a missing -o
// and PostgreSQL (pg_dump's).
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	db, out := filepath.Join(dir, "toguz.db"), filepath.Join(dir, "b.db")
	ctx := context.Background()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateUser(ctx, "abai", "x"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := server.LoadGuestKey(db + ".guestkey"); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runRecordCmd(t, "backup", "-db", db, "-o", out)
	if code != 0 || !strings.Contains(stdout, "integrity ok") || !strings.Contains(stdout, out+".guestkey") {
		t.Fatalf("backup: exit %d, %q %q", code, stdout, errs)
	}
	key, _ := os.ReadFile(db + ".guestkey")
	if copied, err := os.ReadFile(out + ".guestkey"); err != nil || string(copied) != string(key) {
		t.Errorf("the guest key beside the backup: %q, %v", copied, err)
	}
	b, err := store.Open(ctx, out, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.UserByName(ctx, "abai"); err != nil {
		t.Errorf("the backup lacks the account: %v", err)
	}
	b.Close()
	for _, args := range [][]string{
		{"backup", "-db", db, "-o", out},
		{"backup", "-db", "postgres://u@localhost/x", "-o", filepath.Join(dir, "c.db")},
	} {
		if code, _, _ := runRecordCmd(t, args...); code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
	}
	if code, _, _ := runRecordCmd(t, "backup", "-db", db); code != 2 {
		t.Errorf("backup without -o: exit %d, want 2", code)
	}
}
