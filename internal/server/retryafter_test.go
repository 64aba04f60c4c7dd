package server

import (
	"net/http"
	"testing"
)

// TestWritesRetryAfter: a state-changing request beyond the per-address
// rate gets 429 rate_limited with Retry-After: 1, which is what a client
// that respects the bounds (toguz loadtest) waits before retrying.
func TestWritesRetryAfter(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 5})
	for range 30 {
		resp, err := http.Post(s.URL+"/api/guest", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			if got := resp.Header.Get("Retry-After"); got != "1" {
				t.Errorf("429: Retry-After %q, want \"1\"", got)
			}
			return
		}
	}
	t.Error("30 quick POSTs were never limited")
}
