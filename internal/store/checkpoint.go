package store

import (
	"context"
	"database/sql"
	"time"
)

// Checkpoints (SQLite). A checkpoint copies the pages that commits
// appended to the WAL into the database file and syncs it; the WAL starts
// over from its beginning only after a checkpoint has copied all of it.
// SQLite's default runs one on the committing connection after the commit
// that takes the WAL past 1,000 pages: hundreds of page writes and two
// fsyncs on the writer goroutine, with every move of the site waiting
// behind them (the load test's p90 at 3,000 games: 11–18 ms with them,
// 2–4 ms without; docs/architecture.md).
//
// So the writer's connection does not checkpoint on its own
// (wal_autocheckpoint=0), and a goroutine of its own runs passive
// checkpoints on a connection of its own, which neither wait for the
// writer nor make it wait. A passive checkpoint cannot finish while the
// writer keeps appending, so the WAL would never start over under a
// steady load: when it is still longer than walRestartPages after a
// background pass, the writer runs one passive checkpoint itself between
// two batches. That one copies only the few pages written since the pass,
// it finishes, and the next transaction starts the WAL over.

// Defaults of the checkpoints.
const (
	// checkpointEvery is how often the background checkpoint runs.
	checkpointEvery = 250 * time.Millisecond
	// walRestartPages is the WAL's length (pages of 4 KiB: 64 MiB) beyond
	// which the writer finishes a checkpoint itself. Its two fsyncs hold
	// the writer 4–10 ms; at 3,000 moves a second (about 8,000 pages) that
	// is once every two seconds.
	walRestartPages = 16000
)

// checkpointer runs passive checkpoints on s.ck every interval until Close,
// and asks the writer to finish one when the WAL is still long after it.
func (s *Store) checkpointer(every time.Duration) {
	s.tick(every, s.checkpointed, func() {
		if s.walLong.Load() {
			return // the writer's turn: of two checkpoints at once, one is refused
		}
		// An error (the database busy, the disk) is retried at the next
		// tick; the file's own checkpoint at Close remains.
		if pages, err := checkpoint(s.ck); err == nil && pages > s.walRestart {
			s.walLong.Store(true)
		}
	})
}

// finishCheckpoint is the writer's own checkpoint between two batches,
// asked for by the checkpointer.
func (s *Store) finishCheckpoint() {
	if !s.walLong.Load() {
		return
	}
	s.walLong.Store(false)
	defer s.observe("checkpoint", time.Now())
	checkpoint(s.w)
}

// checkpoint runs a passive checkpoint on db and returns the WAL's length
// in pages.
func checkpoint(db *sql.DB) (pages int, err error) {
	var busy, copied int
	err = db.QueryRowContext(context.Background(), `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &pages, &copied)
	return pages, err
}
