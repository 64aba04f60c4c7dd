package server

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/toguz/toguz/internal/pgtest"
	"github.com/toguz/toguz/internal/store"
)

// TestCarrySecrets: every key a server on SQLite keeps beside its file is,
// once carried, the key the same server reads on PostgreSQL (so guests
// stay who they were, the sealed two-factor secrets open and the browsers'
// push subscriptions go on); a missing
// file is reported, and a database that keeps another value already is
// left as it was, with an error.
func TestCarrySecrets(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "toguz.db")
	onSQLite := Options{DB: db}
	guest, err := guestKey(ctx, onSQLite, nil)
	if err != nil {
		t.Fatal(err)
	}
	twoFactor, err := twoFactorKey(ctx, onSQLite, nil)
	if err != nil {
		t.Fatal(err)
	}
	vapid, err := vapidKey(ctx, onSQLite, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(FileSecrets()) != 3 {
		t.Fatalf("FileSecrets has %d secrets: check each in this test", len(FileSecrets()))
	}

	to := pgtest.Schema(t)
	st, err := store.Open(ctx, to, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	carried, err := CarrySecrets(ctx, db, st)
	if err != nil || len(carried) != 3 || !carried[0].Carried || !carried[1].Carried || !carried[2].Carried {
		t.Fatalf("CarrySecrets: %+v, %v", carried, err)
	}
	onPostgres := Options{DB: to}
	if k, err := guestKey(ctx, onPostgres, st); err != nil || !bytes.Equal(k, guest) {
		t.Errorf("the guest key on PostgreSQL: %x, %v; want the file's %x", k, err, guest)
	}
	if k, err := twoFactorKey(ctx, onPostgres, st); err != nil || !bytes.Equal(k, twoFactor) {
		t.Errorf("the two-factor key on PostgreSQL: %x, %v; want the file's %x", k, err, twoFactor)
	}
	if k, err := vapidKey(ctx, onPostgres, st); err != nil || !bytes.Equal(k, vapid) {
		t.Errorf("the Web Push key on PostgreSQL: %x, %v; want the file's %x", k, err, vapid)
	}
	// Carried twice: the same values, nothing changes.
	if _, err := CarrySecrets(ctx, db, st); err != nil {
		t.Errorf("carried again: %v", err)
	}

	// Another server's database already keeps another guest key.
	other := filepath.Join(t.TempDir(), "other.db")
	if _, err := LoadGuestKey(other + ".guestkey"); err != nil {
		t.Fatal(err)
	}
	if _, err := CarrySecrets(ctx, other, st); err == nil {
		t.Error("a different guest key overwrote the database's")
	}
	if k, _ := guestKey(ctx, onPostgres, st); !bytes.Equal(k, guest) {
		t.Error("the database's guest key changed")
	}
	// No files at all: nothing carried, each reported.
	none, err := CarrySecrets(ctx, filepath.Join(t.TempDir(), "none.db"), st)
	if err != nil || len(none) != 3 || none[0].Carried || none[1].Carried || none[2].Carried {
		t.Errorf("no files: %+v, %v", none, err)
	}
}
