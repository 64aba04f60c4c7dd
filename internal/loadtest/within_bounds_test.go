package loadtest

// This file sorts after loadtest_test.go on purpose: TestIdle measures the
// heap of the process, and a big run just before it disturbs the measure
// (the heap still shrinks while the idle games are being made).

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/server"
)

// TestRunWithinBounds plays against the real server with its bounds at
// their defaults (20 writes per second per address, bursts of 60; 256
// connections per address): a run of more games than one address can set
// up in a burst or hold connections for starts them all, from 127.0.0.2
// and on, without one request refused and without an error. (Before the
// load test paced itself and spread over addresses, 476 of 500 guests got
// 429 and their pairs gave up.)
func TestRunWithinBounds(t *testing.T) {
	s, err := server.StartLocal(context.Background(), server.Options{DB: filepath.Join(t.TempDir(), "toguz.db"), ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// 150 games: 300 websockets, more than one address may hold, and 600
	// writes, 120 per address: 4 s at 19 per second after a burst of 40.
	cfg := Config{URL: s.URL, Games: 150, Sources: 5, Interval: 500 * time.Millisecond, Duration: 8 * time.Second, TC: "10+5", Seed: 5}
	if testing.Short() {
		cfg.Games, cfg.Sources, cfg.Duration = 40, 2, 4*time.Second
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	t.Logf("%d games started in %v, %d moves, %d retries, bounds %+v", r.Started, r.Setup, r.Moves, r.Retries, st)
	if r.Errors != 0 || r.Started < cfg.Games || r.Setup == 0 || r.Moves == 0 {
		t.Errorf("started %d games (want %d) in %v, %d moves, %d errors: %v %v", r.Started, cfg.Games, r.Setup, r.Moves, r.Errors, r.ErrorKinds, r.ErrorSample)
	}
	if st.ConnsRefused != 0 {
		t.Errorf("%d connections refused by the cap per address", st.ConnsRefused)
	}
}

// TestCallRetries: a request refused with 429 or 503 is retried after the
// server's Retry-After, at most retry.max times, and the last error says
// so; other refusals are not retried.
func TestCallRetries(t *testing.T) {
	tests := []struct {
		name    string
		refuse  int // answers refused before one succeeds
		status  int
		wantErr string // "" for success
		tries   int64  // requests the server got
	}{
		{"429 twice", 2, http.StatusTooManyRequests, "", 3},
		{"503 busy once", 1, http.StatusServiceUnavailable, "", 2},
		{"429 always", 100, http.StatusTooManyRequests, "HTTP 429 rate_limited: slow down (gave up after 3 retries in ", 4},
		{"400 not retried", 100, http.StatusBadRequest, "HTTP 400 rate_limited: slow down", 1},
	}
	for _, tt := range tests {
		var got atomic.Int64
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if got.Add(1) <= int64(tt.refuse) {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(tt.status)
				w.Write([]byte(`{"error":{"code":"rate_limited","message":"slow down"}}`))
				return
			}
			w.Write([]byte(`{"name":"Guest-1","token":"guest_1"}`))
		}))
		var retried atomic.Int64
		c := &client{base: hs.URL, src: &source{http: hs.Client()}, retry: retryPolicy{max: 3, retried: &retried}}
		err := c.guest(context.Background())
		hs.Close()
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
		if got.Load() != tt.tries || retried.Load() != tt.tries-1 {
			t.Errorf("%s: %d requests, %d retries; want %d and %d", tt.name, got.Load(), retried.Load(), tt.tries, tt.tries-1)
		}
	}
	// A server that is not there: retried after a back-off, then given up.
	var retried atomic.Int64
	c := &client{base: "http://127.0.0.1:1", src: &source{http: http.DefaultClient}, retry: retryPolicy{max: 2, retried: &retried}}
	err := c.guest(context.Background())
	var te *transportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "gave up after 2 retries") || retried.Load() != 2 {
		t.Errorf("no server: %v (%d retries), want a transport error given up after 2 retries", err, retried.Load())
	}
}
