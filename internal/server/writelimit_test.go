package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/i18n"
)

// TestLimitWritesPer64: the addresses of one IPv6 /64 share a write
// budget, since whoever holds one address holds them all; other /64s and
// IPv4 addresses have their own.
func TestLimitWritesPer64(t *testing.T) {
	now := time.Unix(1e9, 0)
	s := &Server{ips: auth.NewLimiter(1, 2, func() time.Time { return now }), cat: i18n.New()}
	h := s.limitWrites(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	post := func(addr string) int {
		r := httptest.NewRequest("POST", "/api/seeks", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	for i, tc := range []struct {
		addr string
		want int
	}{
		{"[2001:db8:1:1::1]:1000", 200},
		{"[2001:db8:1:1::2]:1000", 200},
		{"[2001:db8:1:1:ffff::3]:1000", 429}, // the /64's burst of 2 is spent
		{"[2001:db8:1:2::1]:1000", 200},      // another /64
		{"192.0.2.1:1000", 200},
		{"192.0.2.2:1000", 200},
	} {
		if got := post(tc.addr); got != tc.want {
			t.Errorf("%d: POST from %s: %d, want %d", i, tc.addr, got, tc.want)
		}
	}
}
