package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// lockedBuffer is an io.Writer many goroutines share, whose lines so far
// can be read at any time.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) snapshot() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// TestBackupUnderLoad: a backup taken while games are played (store.Backup,
// `toguz backup`) holds every move acknowledged before it began, with its
// hole and clock; restored (the file put in place of the database), it is
// served: the server starts on it, ready, with its games being played.
func TestBackupUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for seconds")
	}
	dir := t.TempDir()
	db, backup := filepath.Join(dir, "toguz.db"), filepath.Join(dir, "backup.db")
	s, err := server.StartLocal(context.Background(), server.Options{DB: db,
		Settings:      server.Settings{WritesPerSecond: 1e6, WriteBurst: 1e6, MessageRate: 1e6, MessageBurst: 1e6},
		ReviewWorkers: -1, MaxConnsPerAddr: -1, Lobby: live.LobbyConfig{PerAddress: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var acks lockedBuffer
	cfg := Config{URL: s.URL, Games: 24, Interval: 20 * time.Millisecond, Duration: 8 * time.Second, TC: "10+5", Seed: 5, AckLog: &acks}
	done := make(chan error, 1)
	go func() { _, err := Run(context.Background(), cfg); done <- err }()
	for bytes.Count(acks.snapshot(), []byte{'\n'}) < 500 {
		time.Sleep(20 * time.Millisecond)
	}
	before := acks.snapshot() // acknowledged before the backup began
	start := time.Now()
	info, err := store.Backup(context.Background(), db, backup)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	after := bytes.Count(acks.snapshot(), []byte{'\n'})
	n := bytes.Count(before, []byte{'\n'})
	t.Logf("backup of %d bytes in %v under load: %d moves acknowledged before it, %d in all", info.Bytes, took.Round(time.Millisecond), n, after)
	if after <= n+100 {
		t.Errorf("the load stalled during the backup: %d moves after it", after-n)
	}

	// Restored: the server starts on the backup.
	r, err := server.StartLocal(context.Background(), server.Options{DB: backup, ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	resp, err := http.Get(r.URL + "/readyz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the restored server is not ready: %v %v", resp, err)
	}
	resp.Body.Close()
	st, err := store.Open(context.Background(), backup, store.Options{SessionSweep: -1, Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored := map[string][]store.Move{}
	lines := bufio.NewScanner(bytes.NewReader(before))
	checked := 0
	for lines.Scan() {
		var a Ack
		if err := json.Unmarshal(lines.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		ms, ok := stored[a.Game]
		if !ok {
			if ms, err = st.Moves(context.Background(), a.Game); err != nil {
				t.Fatal(err)
			}
			stored[a.Game] = ms
		}
		if a.Ply > len(ms) {
			t.Errorf("game %s: acknowledged ply %d is not in the backup (%d moves)", a.Game, a.Ply, len(ms))
			continue
		}
		if m := ms[a.Ply-1]; int(m.Hole) != a.Hole || a.ClockMS != nil && m.Clock.Milliseconds() != *a.ClockMS {
			t.Errorf("game %s ply %d: the backup has hole %d, clock %d ms; acknowledged %s", a.Game, a.Ply, m.Hole, m.Clock.Milliseconds(), lines.Text())
		}
		checked++
	}
	t.Logf("all %d moves acknowledged before the backup are in it, in %d games", checked, len(stored))
}
