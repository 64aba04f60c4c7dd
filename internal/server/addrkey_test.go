package server

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
)

// TestSeeksBoundPerAddrKey: the seeks of one client address are bounded
// per address key, as the other bounds are: an IPv6 client that has a /64
// (each of its 2^64 addresses a new one) gets no more seeks than one IPv4
// address. They used to be counted per raw address, so that one /64 could
// keep any number of seeks in memory.
func TestSeeksBoundPerAddrKey(t *testing.T) {
	for _, tc := range []struct {
		name string
		addr func(i int) string // the RemoteAddr of the i-th seek
		max  int                // seeks accepted before too_many_seeks
	}{
		{"one IPv4 address", func(int) string { return "192.0.2.1:4000" }, 20},
		{"one IPv6 /64", func(i int) string { return fmt.Sprintf("[2001:db8::%x]:4000", i+1) }, 20},
		{"IPv4-mapped IPv6", func(i int) string {
			if i%2 == 0 {
				return "[::ffff:192.0.2.1]:4000"
			}
			return "192.0.2.1:4000"
		}, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			hub := live.NewHub(ctx, live.Config{})
			defer hub.Wait()
			defer cancel()
			srv, err := New(Config{Hub: hub, Lobby: live.NewLobby(hub), Settings: Settings{WritesPerSecond: 1000, WriteBurst: 1000}})
			if err != nil {
				t.Fatal(err)
			}
			h := srv.Handler()
			for i := range tc.max + 1 {
				req := httptest.NewRequest("POST", "/api/seeks", strings.NewReader(`{"tc":"5+3"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+srv.newGuestToken()) // a person has 5 seeks at most
				req.RemoteAddr = tc.addr(i)
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				switch {
				case i < tc.max && w.Code != 201:
					t.Fatalf("seek %d from %s: %d %s", i+1, req.RemoteAddr, w.Code, w.Body)
				case i == tc.max && (w.Code != 429 || !strings.Contains(w.Body.String(), string(apierr.CodeTooManySeeks))):
					t.Fatalf("seek %d from %s: %d %s, want 429 %s", i+1, req.RemoteAddr, w.Code, w.Body, apierr.CodeTooManySeeks)
				}
			}
		})
	}
}
