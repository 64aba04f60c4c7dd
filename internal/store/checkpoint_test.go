package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestWALStartsOver: the commits do not checkpoint, the checkpointer does,
// and under writes that never pause the WAL still starts over (its file,
// which SQLite never shortens, stays short) with every row in the file.
func TestWALStartsOver(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "wal.db")
	s, err := Open(ctx, path, Options{checkpointEvery: 2 * time.Millisecond, walRestart: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var auto int
	if err := s.write(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil {
			return err
		}
		_, err := tx.Exec(`CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if auto != 0 {
		t.Errorf("the writer's wal_autocheckpoint = %d, want 0", auto)
	}
	// Eight writers of a page each, about 33 MB in all: the writer's queue
	// is never empty, so a background checkpoint alone never finishes (the
	// WAL then grows to about twice the pages written).
	const writers, each = 8, 1000
	blob := make([]byte, 3000)
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range each {
				if err := s.write(ctx, func(tx *sql.Tx) error {
					_, err := tx.Exec(`INSERT INTO blobs (b) VALUES ($1)`, blob)
					return err
				}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if pages := fi.Size() / 4096; pages > 4000 {
		t.Errorf("the WAL grew to %d pages for %d written", pages, writers*each)
	}
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM blobs`).Scan(&n); err != nil || n != writers*each {
		t.Errorf("%d rows, %v; want %d", n, err, writers*each)
	}
}
