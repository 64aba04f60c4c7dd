package twofactor

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// clock is the tests' time, shared by the Site and its store.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newTestSite returns a Site on a fresh SQLite store with an account,
// both on the clock c (a whole 30-second step at the start).
func newTestSite(t *testing.T) (*Site, *store.Store, site.Account, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)}
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "t.db"), store.Options{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	u, err := st.CreateUser(t.Context(), "Aigerim", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i)
	}
	s, err := New(Config{Store: st, Key: key, Now: c.now,
		CheckPassword: func(_ context.Context, _ site.Account, password, _ string) error {
			if password != "correct horse" {
				return errWrongCode
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	return s, st, site.Account{ID: u.ID, Name: u.Name}, c
}

// codeAt is the authenticator app's code of secret at t.
func codeAt(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totpOpts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// enable sets up and confirms TOTP for a; it returns the secret and the
// recovery codes.
func enable(t *testing.T, s *Site, a site.Account, c *clock) (string, []string) {
	t.Helper()
	e, err := s.Setup(t.Context(), a, "correct horse", "")
	if err != nil {
		t.Fatal(err)
	}
	codes, err := s.Confirm(t.Context(), a, codeAt(t, e.Secret, c.t))
	if err != nil {
		t.Fatal(err)
	}
	return e.Secret, codes
}

func isErr(err error, want *apierr.Error) bool {
	var e *apierr.Error
	return errors.As(err, &e) && e == want
}

// TestEnrolment: a secret waits for its first code; a wrong one does not
// enable it; the right one does and gives ten distinct recovery codes;
// a second setup is refused while it is on.
func TestEnrolment(t *testing.T) {
	s, st, a, c := newTestSite(t)
	ctx := t.Context()
	if _, err := s.Confirm(ctx, a, "123456"); !isErr(err, errNoSetup) {
		t.Fatalf("confirm before setup: %v", err)
	}
	if _, err := s.Setup(ctx, a, "wrong", ""); err == nil {
		t.Fatal("setup with a wrong password")
	}
	e, err := s.Setup(ctx, a, "correct horse", "")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok, err := s.Pending(ctx, a); err != nil || !ok || p.Secret != e.Secret {
		t.Fatalf("Pending = %+v %v %v, want the secret just made", p, ok, err)
	}
	if st, _ := s.StatusOf(ctx, a.ID); st.On() {
		t.Fatal("an unconfirmed secret turned the second factor on")
	}
	wrong := codeAt(t, e.Secret, c.t.Add(-10*time.Minute))
	if _, err := s.Confirm(ctx, a, wrong); !isErr(err, errWrongCode) {
		t.Fatalf("a wrong first code: %v", err)
	}
	codes, err := s.Confirm(ctx, a, codeAt(t, e.Secret, c.t))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, rc := range codes {
		if len(rc) != recoveryLen+1 || seen[rc] {
			t.Errorf("recovery code %q: not 5+5 letters or repeated", rc)
		}
		seen[rc] = true
	}
	if len(codes) != RecoveryCodes {
		t.Errorf("%d recovery codes, want %d", len(codes), RecoveryCodes)
	}
	if stat, _ := s.StatusOf(ctx, a.ID); !stat.TOTP || stat.RecoveryLeft != RecoveryCodes {
		t.Errorf("status = %+v, want TOTP on with all codes", stat)
	}
	if _, err := s.Setup(ctx, a, "correct horse", ""); !isErr(err, errEnabled) {
		t.Errorf("a setup while on: %v", err)
	}
	// The secret is sealed: the stored bytes are not the secret, and they
	// do not open as another account's.
	row, _ := st.TOTP(ctx, a.ID)
	if string(row.Secret) == e.Secret {
		t.Error("the secret is stored in the clear")
	}
	if _, err := s.open(a.ID+1, row.Secret); err == nil {
		t.Error("a sealed secret opened as another account's")
	}
	// Under another key (the key file lost), no TOTP code is right, and a
	// recovery code still is.
	other, err := New(Config{Store: st, Key: make([]byte, KeySize), Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Verify(ctx, a.ID, codeAt(t, e.Secret, c.t.Add(30*time.Second))); !isErr(err, errWrongCode) {
		t.Errorf("a code under a lost key: %v, want wrong", err)
	}
	if err := other.Verify(ctx, a.ID, codes[0]); err != nil {
		t.Errorf("a recovery code under a lost key: %v", err)
	}
}

// TestVerify: the code of now and of the steps beside it are accepted,
// each once; older codes than the last accepted, far codes and junk are
// not; a recovery code works once, however it is typed.
func TestVerify(t *testing.T) {
	s, _, a, c := newTestSite(t)
	ctx := t.Context()
	secret, codes := enable(t, s, a, c)
	// The enrolment's code (step now) was used by Confirm.
	if err := s.Verify(ctx, a.ID, codeAt(t, secret, c.t)); !isErr(err, errWrongCode) {
		t.Errorf("the confirming code again: %v, want wrong (a replay)", err)
	}
	c.t = c.t.Add(30 * time.Second)
	for _, tc := range []struct {
		name string
		code string
		want *apierr.Error
	}{
		{"the next step's code", codeAt(t, secret, c.t), nil},
		{"the same again (replay)", codeAt(t, secret, c.t), errWrongCode},
		{"the step before, older than the last used", codeAt(t, secret, c.t.Add(-30*time.Second)), errWrongCode},
		{"the step after (clock skew)", codeAt(t, secret, c.t.Add(30*time.Second)), nil},
		{"two steps ahead", codeAt(t, secret, c.t.Add(90*time.Second)), errWrongCode},
		{"letters", "abcdef", errWrongCode},
		{"empty", "", errWrongCode},
		{"a recovery code in capitals with spaces", " " + upper(codes[0]) + " ", nil},
		{"the same recovery code again", codes[0], errWrongCode},
		{"another recovery code without its dash", codes[1][:5] + codes[1][6:], nil},
	} {
		err := s.Verify(ctx, a.ID, tc.code)
		if tc.want == nil && err != nil || tc.want != nil && !isErr(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if stat, _ := s.StatusOf(ctx, a.ID); stat.RecoveryLeft != RecoveryCodes-2 {
		t.Errorf("%d codes left, want %d", stat.RecoveryLeft, RecoveryCodes-2)
	}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// TestFailureBound: MaxFailures wrong codes lock the account's second step
// (a right code is refused too) until the window ends.
func TestFailureBound(t *testing.T) {
	s, _, a, c := newTestSite(t)
	ctx := t.Context()
	secret, _ := enable(t, s, a, c)
	for i := 1; i <= MaxFailures; i++ {
		err := s.Verify(ctx, a.ID, "000000")
		if want := errWrongCode; i == MaxFailures {
			if !isErr(err, errLocked) {
				t.Fatalf("wrong code %d: %v, want locked", i, err)
			}
		} else if !isErr(err, want) {
			t.Fatalf("wrong code %d: %v", i, err)
		}
	}
	c.t = c.t.Add(time.Minute)
	if err := s.Verify(ctx, a.ID, codeAt(t, secret, c.t)); !isErr(err, errLocked) {
		t.Errorf("a right code while locked: %v, want locked", err)
	}
	c.t = c.t.Add(FailureWindow)
	if err := s.Verify(ctx, a.ID, codeAt(t, secret, c.t)); err != nil {
		t.Errorf("a right code after the window: %v", err)
	}
}

// TestLoginTicket: an account without a second factor passes the gate; one
// with it gets a ticket, which a wrong code leaves and a right code
// consumes; an expired ticket is refused.
func TestLoginTicket(t *testing.T) {
	s, _, a, c := newTestSite(t)
	ctx := t.Context()
	if err := s.Gate(ctx, a); err != nil {
		t.Fatalf("gate without a second factor: %v", err)
	}
	secret, _ := enable(t, s, a, c)
	n, ok := IsNeeded(s.Gate(ctx, a))
	if !ok || !n.TOTP || n.Passkey || n.Ticket == "" {
		t.Fatalf("gate with TOTP: %+v %v", n, ok)
	}
	if j := n.JSON(); !j.SecondFactor || len(j.Methods) != 2 || j.Methods[0] != "totp" || j.Methods[1] != "recovery" {
		t.Errorf("JSON = %+v", j)
	}
	if _, err := s.secondStep(ctx, "nope", "123456"); !isErr(err, errTicket) {
		t.Errorf("an unknown ticket: %v", err)
	}
	c.t = c.t.Add(30 * time.Second)
	if _, err := s.secondStep(ctx, n.Ticket, "000000"); !isErr(err, errWrongCode) {
		t.Errorf("a wrong code: %v", err)
	}
	got, err := s.secondStep(ctx, n.Ticket, codeAt(t, secret, c.t))
	if err != nil || got.ID != a.ID || got.Name != a.Name {
		t.Fatalf("a right code: %+v %v", got, err)
	}
	if _, err := s.secondStep(ctx, n.Ticket, codeAt(t, secret, c.t.Add(30*time.Second))); !isErr(err, errTicket) {
		t.Errorf("the ticket again: %v, want used", err)
	}
	n, _ = IsNeeded(s.Gate(ctx, a))
	c.t = c.t.Add(TicketTTL + time.Second)
	if _, err := s.secondStep(ctx, n.Ticket, codeAt(t, secret, c.t)); !isErr(err, errTicket) {
		t.Errorf("an expired ticket: %v", err)
	}
}

// TestDisableAndRenew: turning TOTP off needs a right code or the
// password; new recovery codes need a right code and void the old ones.
func TestDisableAndRenew(t *testing.T) {
	s, _, a, c := newTestSite(t)
	ctx := t.Context()
	secret, old := enable(t, s, a, c)
	c.t = c.t.Add(30 * time.Second)
	if _, err := s.RenewRecovery(ctx, a, "000000", "", ""); !isErr(err, errWrongCode) {
		t.Errorf("renew with a wrong code: %v", err)
	}
	if _, err := s.RenewRecovery(ctx, a, "", "", ""); !isErr(err, errPassword) {
		t.Errorf("renew with nothing: %v", err)
	}
	fresh, err := s.RenewRecovery(ctx, a, codeAt(t, secret, c.t), "", "")
	if err != nil || len(fresh) != RecoveryCodes {
		t.Fatalf("renew: %v %v", fresh, err)
	}
	if err := s.Verify(ctx, a.ID, old[0]); !isErr(err, errWrongCode) {
		t.Errorf("an old recovery code after renewal: %v", err)
	}
	for _, tc := range []struct{ code, password string }{{"", ""}, {"000000", ""}, {"", "wrong"}} {
		if err := s.Disable(ctx, a, tc.code, tc.password, ""); err == nil {
			t.Errorf("disable with code %q password %q: no error", tc.code, tc.password)
		}
	}
	if stat, _ := s.StatusOf(ctx, a.ID); !stat.TOTP {
		t.Fatal("disabled by a wrong code or password")
	}
	if err := s.Disable(ctx, a, "", "correct horse", ""); err != nil {
		t.Fatal(err)
	}
	if stat, _ := s.StatusOf(ctx, a.ID); stat.TOTP || stat.On() || stat.RecoveryLeft != 0 {
		t.Errorf("after disable: %+v, want off and no recovery codes", stat)
	}
	// And again with a code.
	secret, _ = enable(t, s, a, c)
	c.t = c.t.Add(30 * time.Second)
	if err := s.Disable(ctx, a, codeAt(t, secret, c.t), "", ""); err != nil {
		t.Errorf("disable with a code: %v", err)
	}
}
