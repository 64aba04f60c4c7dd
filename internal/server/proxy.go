package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Behind a load balancer every request comes from the balancer's address,
// so every per-address bound (writes, seeks, spectators, engine games,
// logins, connections) would hold the whole site to one address's share.
// Options.TrustedProxies names the balancers: a request whose peer is one
// of them has its client taken from X-Forwarded-For, and their
// connections are not capped per address (the balancer holds many
// clients' requests).

// ParseTrustedProxies reads a comma-separated list of addresses and CIDR
// prefixes ("127.0.0.1, 10.0.0.0/8, fd00::/8"); an address alone is its
// own /32 or /128.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, err
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, err
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// trusted reports whether a is one of the proxies.
func trusted(proxies []netip.Prefix, a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of a request's peer, r.RemoteAddr's host.
func peerAddr(remote string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().Unmap(), true
	}
	a, err := netip.ParseAddr(remote)
	return a.Unmap(), err == nil
}

// forwardedClient returns the client of a request whose peer is a trusted
// proxy: the rightmost address of X-Forwarded-For that is not a proxy (each
// proxy appends the address it heard from, so the ones left of it were
// written by whoever sent the request and prove nothing), or the leftmost
// when all are proxies. ok is false when the peer is not a proxy or the
// header holds nothing usable: then the peer is the client.
func forwardedClient(proxies []netip.Prefix, r *http.Request) (client netip.Addr, ok bool) {
	peer, okPeer := peerAddr(r.RemoteAddr)
	if !okPeer || !trusted(proxies, peer) {
		return netip.Addr{}, false
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, okA := hopAddr(strings.TrimSpace(hops[i]))
		if !okA {
			// A hop no proxy would write: trust no further than the one
			// before it.
			return client, client.IsValid()
		}
		client = a
		if !trusted(proxies, a) {
			return client, true
		}
	}
	return client, client.IsValid()
}

// hopAddr reads one X-Forwarded-For entry: an address, perhaps with a
// port ("203.0.113.7:4711", "[2001:db8::1]:4711").
func hopAddr(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

// trustProxies returns next with the RemoteAddr of each request that came
// through a trusted proxy set to its client's address (port 0), so that
// auth.ClientIP and everything keyed on it see the client.
func trustProxies(proxies []netip.Prefix, next http.Handler) http.Handler {
	if len(proxies) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := forwardedClient(proxies, r); ok {
			r = r.WithContext(r.Context()) // a copy: the caller's request is not changed
			r.RemoteAddr = net.JoinHostPort(c.String(), "0")
		}
		next.ServeHTTP(w, r)
	})
}
