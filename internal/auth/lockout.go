package auth

import (
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Lockout counts failed logins per key (an account and a client address:
// [LockoutKey]) and locks a key out with exponential back-off: after
// `after` failures, for base, then twice as long at each further failure,
// at most max. A success clears the key. Keyed by address as well as by
// account, a stranger's wrong passwords lock out the stranger, not the
// account's owner at his own address. It is safe for concurrent use.
type Lockout struct {
	after     int
	base, max time.Duration
	now       func() time.Time

	mu   sync.Mutex
	keys map[string]*strikes
}

type strikes struct {
	n           int       // failures in a row
	last, until time.Time // the last failure; the end of the lock
}

// NewLockout returns a Lockout; after ≤ 0 disables it.
func NewLockout(after int, base, max time.Duration, now func() time.Time) *Lockout {
	return &Lockout{after: after, base: base, max: max, now: now, keys: make(map[string]*strikes)}
}

// LockoutKey is the key of a login by name from the client address ip.
func LockoutKey(name, ip string) string { return strings.ToLower(name) + "\x00" + AddrKey(ip) }

// Locked reports whether key is locked out now, and for how long still.
func (l *Lockout) Locked(key string) (time.Duration, bool) {
	if l.after <= 0 {
		return 0, false
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.keys[key]
	if !ok || !now.Before(s.until) {
		return 0, false
	}
	return s.until.Sub(now), true
}

// Fail counts a failed login for key and returns how long key is now
// locked out (0: not yet).
func (l *Lockout) Fail(key string) time.Duration {
	if l.after <= 0 {
		return 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.keys[key]
	if !ok {
		if len(l.keys) >= maxBuckets {
			l.prune(now)
		}
		s = &strikes{}
		l.keys[key] = s
	}
	s.n++
	s.last = now
	if s.n < l.after {
		return 0
	}
	d := l.base
	for i := l.after; i < s.n && d < l.max; i++ {
		d *= 2
	}
	d = min(d, l.max)
	s.until = now.Add(d)
	return d
}

// Succeed clears key after a successful login.
func (l *Lockout) Succeed(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keys, key)
}

// prune bounds the memory: it forgets the keys whose lock (or last
// failure) ended max ago, and if none, one key at random, so that a full
// table never refuses to count.
func (l *Lockout) prune(now time.Time) {
	for k, s := range l.keys {
		if now.Sub(s.last) >= l.max && now.Sub(s.until) >= l.max {
			delete(l.keys, k)
		}
	}
	for k := range l.keys {
		if len(l.keys) < maxBuckets {
			break
		}
		delete(l.keys, k)
	}
}

// Len returns the number of keys tracked.
func (l *Lockout) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}

// AddrKey is the key that bounds a client address: the address itself for
// IPv4 (an IPv4-mapped IPv6 address counts as its IPv4 address), its /64
// for IPv6, which one host or one user's network usually holds whole. A
// string that is not an address is its own key.
func AddrKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}
