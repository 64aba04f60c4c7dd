package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/store"
)

// cheap are argon2id parameters for tests: 64 KiB, one pass.
var cheap = Params{Memory: 64, Time: 1, Threads: 1}

func TestPasswordHash(t *testing.T) {
	h, err := HashPassword("correct horse", cheap, strings.NewReader(strings.Repeat("s", 16)))
	if err != nil {
		t.Fatal(err)
	}
	if want := "$argon2id$v=19$m=64,t=1,p=1$c3Nzc3Nzc3Nzc3Nzc3Nzcw$"; !strings.HasPrefix(h, want) {
		t.Errorf("hash %q does not start with %q", h, want)
	}
	tests := []struct {
		pw   string
		want bool
	}{
		{"correct horse", true},
		{"correct horsE", false},
		{"", false},
		{"correct horse ", false},
	}
	for _, tt := range tests {
		if ok, err := CheckPassword(tt.pw, h); ok != tt.want || err != nil {
			t.Errorf("CheckPassword(%q) = %v, %v; want %v", tt.pw, ok, err, tt.want)
		}
	}
	// Two hashes of one password differ by their salt.
	h2, _ := HashPassword("correct horse", cheap, bytes.NewReader(bytes.Repeat([]byte{7}, 16)))
	if h2 == h {
		t.Error("same hash with different salts")
	}
	if NeedsRehash(h, cheap) || !NeedsRehash(h, DefaultParams()) {
		t.Error("NeedsRehash is wrong")
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdA$aGFzaA", "$argon2id$v=18$m=64,t=1,p=1$c2FsdA$aGFzaA",
		"$argon2id$v=19$m=64,t=0,p=1$c2FsdA$aGFzaA", "$argon2id$v=19$m=64,t=1,p=1$!!$aGFzaA", "$argon2id$v=19$m=64,t=1,p=1$c2FsdA$"} {
		if _, err := CheckPassword("x", bad); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("CheckPassword(_, %q) = %v, want ErrMalformedHash", bad, err)
		}
	}
}

func TestValidateName(t *testing.T) {
	tests := []struct {
		name string
		rule string // "" valid; else a word of the rule
	}{
		{"abai", ""},
		{"Abai_Kunanbayev-2", ""},
		{"Қобыланды", ""},
		{"Ab", ""},
		{"a", "2 to 20"},
		{strings.Repeat("a", 21), "2 to 20"},
		{"1abai", "start with a letter"},
		{"_abai", "start with a letter"},
		{"ab ai", "only letters"},
		{"Bob'); DROP--", "only letters"},
		{"ab\x00c", "only letters"},
		{"guest-12", "guests"},
		{"\xff\xfe", "UTF-8"},
	}
	for _, tt := range tests {
		err := ValidateName(tt.name)
		var re *RuleError
		switch {
		case tt.rule == "" && err != nil:
			t.Errorf("ValidateName(%q) = %v, want nil", tt.name, err)
		case tt.rule != "" && (!errors.As(err, &re) || re.Field != "name" || !strings.Contains(re.Rule, tt.rule)):
			t.Errorf("ValidateName(%q) = %v, want a name rule about %q", tt.name, err, tt.rule)
		}
	}
}

func TestValidatePassword(t *testing.T) {
	tests := []struct {
		pw, name, rule string
	}{
		{"long enough", "abai", ""},
		{"шесть букв!", "abai", ""},
		{"short", "abai", "at least 8"},
		{strings.Repeat("x", 129), "abai", "at most 128"},
		{"AbaiAbai", "abaiabai", "not be the name"},
	}
	for _, tt := range tests {
		err := ValidatePassword(tt.pw, tt.name)
		var re *RuleError
		switch {
		case tt.rule == "" && err != nil:
			t.Errorf("ValidatePassword(%q) = %v", tt.pw, err)
		case tt.rule != "" && (!errors.As(err, &re) || re.Field != "password" || !strings.Contains(re.Rule, tt.rule)):
			t.Errorf("ValidatePassword(%q) = %v, want a rule about %q", tt.pw, err, tt.rule)
		}
	}
}

func TestLimiter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewLimiter(rate.Every(time.Second), 3, time.Now)
		for i := range 3 {
			if !l.Allow("ip1") {
				t.Fatalf("event %d refused within the burst", i)
			}
		}
		if l.Allow("ip1") {
			t.Error("event beyond the burst allowed")
		}
		if !l.Allow("ip2") {
			t.Error("another key was limited")
		}
		time.Sleep(time.Second)
		if !l.Allow("ip1") || l.Allow("ip1") {
			t.Error("one token should come back after a second")
		}
		if inf := NewLimiter(rate.Inf, 0, time.Now); !inf.Allow("x") || inf.Len() != 0 {
			t.Error("rate.Inf must allow everything and track nothing")
		}
	})
}

func TestLimiterPrunes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewLimiter(10, 1, time.Now)
		for i := range maxBuckets {
			l.Allow(string(rune(i)))
		}
		time.Sleep(time.Second) // every bucket refills
		l.Allow("new")
		if n := l.Len(); n != 1 {
			t.Errorf("%d buckets after pruning, want 1", n)
		}
	})
}

func newService(t *testing.T, now func() time.Time, lim *Limits) *Service {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "auth.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(Config{Store: st, Params: cheap, Now: now, Limits: lim})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSignUpAndLogin(t *testing.T) {
	s := newService(t, nil, nil)
	ctx := t.Context()
	u, err := s.SignUp(ctx, "Abai", "long enough", "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(u.PasswordHash, "$argon2id$") || strings.Contains(u.PasswordHash, "long enough") {
		t.Errorf("stored hash %q", u.PasswordHash)
	}
	if _, err := s.SignUp(ctx, "abai", "long enough", "10.0.0.1"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("second sign-up: %v, want ErrNameTaken", err)
	}
	var re *RuleError
	if _, err := s.SignUp(ctx, "x", "long enough", "10.0.0.1"); !errors.As(err, &re) {
		t.Errorf("bad name: %v, want a RuleError", err)
	}
	if _, err := s.SignUp(ctx, "bolat", "short", "10.0.0.1"); !errors.As(err, &re) {
		t.Errorf("bad password: %v, want a RuleError", err)
	}
	if got, err := s.Login(ctx, "ABAI", "long enough", "10.0.0.2"); err != nil || got.ID != u.ID {
		t.Errorf("Login = %+v, %v", got, err)
	}
	for _, c := range []struct{ name, pw string }{{"abai", "wrong password"}, {"nobody", "long enough"}} {
		if _, err := s.Login(ctx, c.name, c.pw, "10.0.0.3"); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("Login(%q, %q) = %v, want ErrBadCredentials", c.name, c.pw, err)
		}
	}
}

func TestLoginRehash(t *testing.T) {
	s := newService(t, nil, nil)
	ctx := t.Context()
	old, _ := HashPassword("long enough", Params{Memory: 32, Time: 1, Threads: 1}, strings.NewReader(strings.Repeat("s", 16)))
	u, err := s.store.CreateUser(ctx, "abai", old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Login(ctx, "abai", "long enough", "ip"); err != nil {
		t.Fatal(err)
	}
	u, _ = s.store.UserByID(ctx, u.ID)
	if NeedsRehash(u.PasswordHash, cheap) {
		t.Errorf("hash not upgraded: %s", u.PasswordHash)
	}
}

func TestLoginRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := DefaultLimits()
		s := newService(t, time.Now, &lim)
		ctx := t.Context()
		// Per IP: 10 attempts on different names, then refused.
		for i := range lim.LoginBurstIP {
			s.Login(ctx, "name"+string(rune('a'+i)), "x", "1.2.3.4")
		}
		if _, err := s.Login(ctx, "abai", "long enough", "1.2.3.4"); !errors.Is(err, ErrRateLimited) {
			t.Errorf("11th attempt from one IP: %v, want ErrRateLimited", err)
		}
		// The same /64 is the same client; another /64 is not.
		for i := range lim.LoginBurstIP {
			s.Login(ctx, "name", "x", fmt.Sprintf("2001:db8::%d", i+1))
		}
		if _, err := s.Login(ctx, "name", "x", "2001:db8::ffff"); !errors.Is(err, ErrRateLimited) {
			t.Errorf("11th attempt from one /64: %v, want ErrRateLimited", err)
		}
		if _, err := s.Login(ctx, "name", "x", "2001:db8:0:1::1"); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("attempt from another /64: %v, want ErrBadCredentials", err)
		}
	})
}

// TestLockoutPerAddress reproduces the lock-out attack: five wrong
// passwords from anywhere locked the account for everyone, and one wrong try
// every 12 s kept its owner out. Now the stranger's address is locked out,
// with back-off, and the owner's is not.
func TestLockoutPerAddress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := DefaultLimits()
		lim.LoginPerIP, lim.LoginBurstIP = rate.Inf, 0 // the lock-out alone
		s := newService(t, time.Now, &lim)
		ctx := t.Context()
		if _, err := s.SignUp(ctx, "abai", "long enough", "signup-ip"); err != nil {
			t.Fatal(err)
		}
		const stranger, owner = "203.0.113.7", "198.51.100.2"
		for i := range lim.LockoutAfter {
			if _, err := s.Login(ctx, "abai", "wrong", stranger); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("wrong try %d: %v, want ErrBadCredentials", i+1, err)
			}
		}
		if _, err := s.Login(ctx, "ABAI", "long enough", stranger); !errors.Is(err, ErrRateLimited) {
			t.Errorf("the stranger's address after %d wrong tries: %v, want ErrRateLimited", lim.LockoutAfter, err)
		}
		if _, err := s.Login(ctx, "abai", "long enough", owner); err != nil {
			t.Errorf("the owner at his address while the stranger is locked out: %v", err)
		}
		// Back-off: 15 s, then 30 s, then 60 s, while the owner logs in throughout.
		for _, d := range []time.Duration{15 * time.Second, 30 * time.Second, 60 * time.Second} {
			time.Sleep(d - time.Second)
			if _, err := s.Login(ctx, "abai", "wrong", stranger); !errors.Is(err, ErrRateLimited) {
				t.Errorf("%v into a %v lock-out: %v, want ErrRateLimited", d-time.Second, d, err)
			}
			time.Sleep(time.Second)
			if _, err := s.Login(ctx, "abai", "wrong", stranger); !errors.Is(err, ErrBadCredentials) {
				t.Errorf("after a %v lock-out: %v, want ErrBadCredentials", d, err)
			}
			if _, err := s.Login(ctx, "abai", "long enough", owner); err != nil {
				t.Errorf("the owner during the stranger's back-off: %v", err)
			}
		}
		if st := s.Stats(); st.Locked != 4 {
			t.Errorf("Stats().Locked = %d, want 4", st.Locked)
		}
		// A success clears the strikes: the next wrong try is free again.
		time.Sleep(lim.LockoutMax)
		if _, err := s.Login(ctx, "abai", "long enough", stranger); err != nil {
			t.Fatalf("after the lock-out, with the right password: %v", err)
		}
		if _, err := s.Login(ctx, "abai", "wrong", stranger); !errors.Is(err, ErrBadCredentials) {
			t.Errorf("a wrong try after a success: %v, want ErrBadCredentials", err)
		}
		if _, err := s.Login(ctx, "abai", "long enough", stranger); err != nil {
			t.Errorf("one wrong try after a success must not lock: %v", err)
		}
	})
}

func TestLockoutBackoffCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewLockout(2, time.Second, time.Minute, time.Now)
		var got []time.Duration
		for range 100 { // far past any overflow of the doubling
			got = append(got, l.Fail("k"))
		}
		want := []time.Duration{0, 1, 2, 4, 8, 16, 32, 60}
		for i := range got {
			if w := want[min(i, len(want)-1)] * time.Second; got[i] != w {
				t.Fatalf("lock-out %d: %v, want %v", i+1, got[i], w)
			}
		}
		if d, ok := l.Locked("k"); !ok || d != time.Minute {
			t.Errorf("Locked = %v, %v", d, ok)
		}
		if _, ok := l.Locked("other"); ok {
			t.Error("another key is locked")
		}
		// The table is bounded: when full, stale keys go first.
		for i := range maxBuckets {
			l.Fail(fmt.Sprint(i))
		}
		if n := l.Len(); n > maxBuckets {
			t.Errorf("%d keys, want at most %d", n, maxBuckets)
		}
	})
}

func TestAddrKey(t *testing.T) {
	tests := []struct{ ip, want string }{
		{"192.0.2.1", "192.0.2.1"},
		{"::ffff:192.0.2.1", "192.0.2.1"},
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::ffff", "2001:db8:1:2::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"::1", "::/64"},
		{"not an address", "not an address"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := AddrKey(tt.ip); got != tt.want {
			t.Errorf("AddrKey(%q) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}

func TestSessionTokens(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	s := newService(t, func() time.Time { return now }, nil)
	ctx := t.Context()
	u, _ := s.SignUp(ctx, "abai", "long enough", "ip")
	token, exp, err := s.NewSession(ctx, u.ID)
	if err != nil || len(token) != 64 || !exp.Equal(now.Add(30*24*time.Hour)) {
		t.Fatalf("NewSession = %q, %v, %v", token, exp, err)
	}
	if got, err := s.SessionUser(ctx, token); err != nil || got.ID != u.ID {
		t.Errorf("SessionUser = %+v, %v", got, err)
	}
	// The database holds the token's hash, not the token.
	if _, err := s.store.SessionByTokenHash(ctx, token); !errors.Is(err, store.ErrNotFound) {
		t.Error("the token itself is stored")
	}
	for _, bad := range []string{"", "nope", strings.Repeat("a", 200), "' OR 1=1 --"} {
		if _, err := s.SessionUser(ctx, bad); !errors.Is(err, ErrNoSession) {
			t.Errorf("SessionUser(%q) = %v, want ErrNoSession", bad, err)
		}
	}
	if err := s.DeleteSession(ctx, token); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionUser(ctx, token); !errors.Is(err, ErrNoSession) {
		t.Errorf("after DeleteSession: %v", err)
	}
	if _, _, err := s.NewSession(ctx, 999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("session for a missing user: %v", err)
	}
	// Expiry: 30 days later the session is gone, and deleted.
	old, _, err := s.NewSession(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(30*24*time.Hour + time.Second)
	if _, err := s.SessionUser(ctx, old); !errors.Is(err, ErrNoSession) {
		t.Errorf("expired session: %v, want ErrNoSession", err)
	}
	if _, err := s.store.SessionByTokenHash(ctx, tokenHash(old)); !errors.Is(err, store.ErrNotFound) {
		t.Error("the expired session was not deleted")
	}
}

// BenchmarkHashDefault measures what one sign-up or login costs with the
// production parameters.
func BenchmarkHashDefault(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HashPassword("correct horse battery", DefaultParams(), strings.NewReader(strings.Repeat("s", 16))); err != nil {
			b.Fatal(err)
		}
	}
}

func TestHashBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "auth.db"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		s, err := New(Config{Store: st, Params: cheap, Now: time.Now, MaxHashes: 1, HashWait: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		release, err := s.hashes.acquire(ctx) // the one slot, taken
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := s.Login(ctx, "abai", "long enough", "ip"); !errors.Is(err, ErrBusy) || time.Since(start) != time.Second {
			t.Errorf("Login with every slot taken = %v after %v, want ErrBusy after 1s", err, time.Since(start))
		}
		if _, err := s.SignUp(ctx, "abai", "long enough", "ip"); !errors.Is(err, ErrBusy) {
			t.Errorf("SignUp with every slot taken = %v, want ErrBusy", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.Login(cctx, "abai", "long enough", "ip"); !errors.Is(err, context.Canceled) {
			t.Errorf("Login with a canceled context = %v, want context.Canceled", err)
		}
		release()
		if _, err := s.SignUp(ctx, "abai", "long enough", "ip"); err != nil {
			t.Errorf("SignUp with a free slot: %v", err)
		}
		if st := s.Stats(); st.MaxHashes != 1 || st.Busy != 2 || st.Hashed != 2 {
			t.Errorf("Stats = %+v, want 1 slot, 2 busy, 2 hashed", st)
		}
	})
	if n, want := DefaultMaxHashes(DefaultParams()), max(1, min(13, runtime.GOMAXPROCS(0)/2)); n != want && debug.SetMemoryLimit(-1) == math.MaxInt64 {
		t.Errorf("DefaultMaxHashes = %d, want %d: half the %d CPUs, at least 1, at most 13 (256 MiB of 19 MiB hashes)", n, want, runtime.GOMAXPROCS(0))
	}
	if n := DefaultMaxHashes(Params{Memory: 1 << 20}); n != 1 { // 1 GiB each: over the budget
		t.Errorf("DefaultMaxHashes(1 GiB) = %d, want 1", n)
	}
}

// TestClosedAccount: a closed account's password and sessions log nobody
// in, as a wrong password and an unknown token do.
func TestClosedAccount(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(Config{Store: st, Params: Params{Memory: 64, Time: 1, Threads: 1}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := s.SignUp(ctx, "Aigerim", "correct horse", "")
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := s.NewSession(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CloseAccount(ctx, u.ID, "closed-abc"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Login(ctx, "aigerim", "correct horse", ""); !errors.Is(err, ErrBadCredentials) {
		t.Errorf("login: %v, want ErrBadCredentials", err)
	}
	// A session made after the closing (by a way in that skips Login).
	tok2, _, err := s.NewSession(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range []string{tok, tok2} {
		if _, err := s.SessionUser(ctx, tk); !errors.Is(err, ErrNoSession) {
			t.Errorf("session: %v, want ErrNoSession", err)
		}
	}
	if _, err := s.SignUp(ctx, "closed-xyz", "correct horse", ""); err == nil {
		t.Error("a neutral name signed up")
	}
}
