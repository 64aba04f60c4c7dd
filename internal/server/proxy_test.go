package server

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

// TestForwardedClient: behind trusted proxies the client is the rightmost
// address of X-Forwarded-For that is not a proxy; anyone else's header is
// ignored, and so is whatever stands left of a hop no proxy wrote.
func TestForwardedClient(t *testing.T) {
	proxies, err := ParseTrustedProxies("10.0.0.0/8, 127.0.0.1, fd00::/8")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		peer string
		xff  []string
		want string // "" : the peer is the client
	}{
		{"127.0.0.1:5000", []string{"203.0.113.7"}, "203.0.113.7"},
		{"127.0.0.1:5000", []string{"198.51.100.1, 203.0.113.7"}, "203.0.113.7"},           // the left one is the client's own claim
		{"127.0.0.1:5000", []string{"198.51.100.1, 203.0.113.7, 10.1.2.3"}, "203.0.113.7"}, // a second proxy
		{"127.0.0.1:5000", []string{"198.51.100.1", "203.0.113.7:4711"}, "203.0.113.7"},    // two header lines, a port
		{"[fd00::1]:5000", []string{"2001:db8::1"}, "2001:db8::1"},                         // IPv6 proxy and client
		{"127.0.0.1:5000", []string{"10.0.0.5, 10.0.0.6"}, "10.0.0.5"},                     // all proxies: the leftmost
		{"127.0.0.1:5000", []string{"203.0.113.7, garbage"}, ""},                           // nothing usable
		{"127.0.0.1:5000", []string{"203.0.113.7, garbage, 10.0.0.5"}, "10.0.0.5"},         // trust stops at the bad hop
		{"127.0.0.1:5000", nil, ""},                                                        // no header
		{"192.0.2.9:5000", []string{"203.0.113.7"}, ""},                                    // not a proxy: its header is a claim
		{"[::ffff:127.0.0.1]:5000", []string{"203.0.113.7"}, "203.0.113.7"},                // an IPv4-mapped peer
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		c, ok := forwardedClient(proxies, r)
		got := ""
		if ok {
			got = c.String()
		}
		if got != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: client %q, want %q", tc.peer, tc.xff, got, tc.want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "1.2.3"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q) took it", bad)
		}
	}
}

// TestTrustedProxyBounds: a balancer in front makes every request come
// from its address. Trusted, each client keeps its own write quota and the
// balancer's connections are not capped; untrusted, the header changes
// nothing (a client cannot pick its address).
func TestTrustedProxyBounds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		proxies []netip.Prefix
		// the second client's first write, and the fourth connection
		secondOK, fourthOK bool
	}{
		{"trusted", []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, true, true},
		{"untrusted", nil, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := openApp(t, Options{TrustedProxies: tc.proxies, Settings: Settings{WritesPerSecond: 0.01, WriteBurst: 2}, MaxConnsPerAddr: 3})
			post := func(client string) int {
				req, _ := http.NewRequest("POST", app.URL+"/api/no-such-thing", nil)
				req.Header.Set("X-Forwarded-For", client)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			for i := range 2 {
				if got := post("203.0.113.1"); got == http.StatusTooManyRequests {
					t.Fatalf("the first client's write %d: 429 within its burst", i+1)
				}
			}
			if got := post("203.0.113.1"); got != http.StatusTooManyRequests {
				t.Errorf("the first client's third write: %d, want 429", got)
			}
			if got := post("203.0.113.2"); (got != http.StatusTooManyRequests) != tc.secondOK {
				t.Errorf("the second client's first write: %d (want a refusal: %v)", got, !tc.secondOK)
			}

			// Four connections at once from the balancer's address, over a
			// cap of three.
			served := 0
			for range 4 {
				c := dialFrom(t, "127.0.0.9", app.addr)
				fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", app.addr)
				c.SetReadDeadline(time.Now().Add(5 * time.Second))
				if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
					resp.Body.Close()
					served++
				}
			}
			if want := map[bool]int{true: 4, false: 3}[tc.fourthOK]; served != want {
				t.Errorf("%d of 4 connections from one address served, want %d", served, want)
			}
		})
	}
}
