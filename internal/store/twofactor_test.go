package store

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// TestTOTPStore: a secret is replaced while unconfirmed and kept once
// confirmed; each step and each recovery code is accepted once; the
// secret and the codes are removed apart.
func TestTOTPStore(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		u := mustUser(t, s, "Aigerim")
		if _, err := s.TOTP(ctx, u.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("no secret yet: %v, want ErrNotFound", err)
		}
		if err := s.PutTOTP(ctx, u.ID, []byte("first")); err != nil {
			t.Fatal(err)
		}
		if err := s.PutTOTP(ctx, u.ID, []byte("second")); err != nil {
			t.Fatalf("replacing an unconfirmed secret: %v", err)
		}
		if ok, err := s.UseTOTPStep(ctx, u.ID, 5); err != nil || ok {
			t.Errorf("a step of an unconfirmed secret: %v %v, want false", ok, err)
		}
		if err := s.ConfirmTOTP(ctx, u.ID, 10, []string{"h1", "h2"}); err != nil {
			t.Fatal(err)
		}
		if err := s.ConfirmTOTP(ctx, u.ID, 11, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("confirming twice: %v, want ErrConflict", err)
		}
		if err := s.PutTOTP(ctx, u.ID, []byte("third")); !errors.Is(err, ErrConflict) {
			t.Errorf("replacing a confirmed secret: %v, want ErrConflict", err)
		}
		got, err := s.TOTP(ctx, u.ID)
		if err != nil || !got.Confirmed || got.LastStep != 10 || !bytes.Equal(got.Secret, []byte("second")) {
			t.Fatalf("TOTP = %+v, %v; want the second secret, confirmed at step 10", got, err)
		}
		for _, c := range []struct {
			step int64
			want bool
		}{{10, false}, {9, false}, {11, true}, {11, false}, {13, true}, {12, false}} {
			if ok, err := s.UseTOTPStep(ctx, u.ID, c.step); err != nil || ok != c.want {
				t.Errorf("UseTOTPStep(%d) = %v, %v; want %v", c.step, ok, err, c.want)
			}
		}
		if n, err := s.RecoveryCodesLeft(ctx, u.ID); err != nil || n != 2 {
			t.Errorf("codes left = %d, %v; want 2", n, err)
		}
		for _, c := range []struct {
			hash string
			want bool
		}{{"h1", true}, {"h1", false}, {"nope", false}} {
			if ok, err := s.UseRecoveryCode(ctx, u.ID, c.hash); err != nil || ok != c.want {
				t.Errorf("UseRecoveryCode(%s) = %v, %v; want %v", c.hash, ok, err, c.want)
			}
		}
		other := mustUser(t, s, "Bolat")
		if ok, _ := s.UseRecoveryCode(ctx, other.ID, "h2"); ok {
			t.Error("another user used a code that is not his")
		}
		if err := s.ReplaceRecoveryCodes(ctx, u.ID, []string{"h3"}); err != nil {
			t.Fatal(err)
		}
		if ok, _ := s.UseRecoveryCode(ctx, u.ID, "h2"); ok {
			t.Error("a replaced code still works")
		}
		if err := s.DeleteTOTP(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TOTP(ctx, u.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("after delete: %v, want ErrNotFound", err)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, u.ID); n != 1 {
			t.Errorf("after deleting the secret: %d codes left, want the 1 kept", n)
		}
		if err := s.DeleteRecoveryCodes(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.RecoveryCodesLeft(ctx, u.ID); n != 0 {
			t.Errorf("after deleting the codes: %d codes left", n)
		}
	})
}

// TestPasskeysStore: passkeys are listed per user, found by credential id,
// updated on use, and removed only by their owner.
func TestPasskeysStore(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "Aigerim"), mustUser(t, s, "Bolat")
		id, err := s.AddPasskey(ctx, Passkey{User: a.ID, CredentialID: []byte{1, 2, 3}, Name: "phone", Credential: []byte(`{"n":1}`), Created: t0})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddPasskey(ctx, Passkey{User: b.ID, CredentialID: []byte{1, 2, 3}, Name: "x", Credential: []byte(`{}`), Created: t0}); !errors.Is(err, ErrConflict) {
			t.Errorf("the same credential twice: %v, want ErrConflict", err)
		}
		if _, err := s.AddPasskey(ctx, Passkey{User: a.ID, CredentialID: []byte{4}, Name: "laptop", Credential: []byte(`{}`), Created: t0}); err != nil {
			t.Fatal(err)
		}
		list, err := s.Passkeys(ctx, a.ID)
		if err != nil || len(list) != 2 || list[0].Name != "phone" || list[1].Name != "laptop" || !list[0].Used.IsZero() {
			t.Fatalf("Passkeys = %+v, %v", list, err)
		}
		if err := s.UsePasskey(ctx, id, []byte(`{"n":2}`), t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		p, err := s.PasskeyByCredentialID(ctx, []byte{1, 2, 3})
		if err != nil || p.ID != id || p.User != a.ID || string(p.Credential) != `{"n":2}` || !p.Used.Equal(t0.Add(time.Hour)) {
			t.Errorf("PasskeyByCredentialID = %+v, %v", p, err)
		}
		if _, err := s.PasskeyByCredentialID(ctx, []byte{9}); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown credential: %v", err)
		}
		if err := s.DeletePasskey(ctx, b.ID, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("another user's passkey deleted: %v, want ErrNotFound", err)
		}
		if err := s.DeletePasskey(ctx, a.ID, id); err != nil {
			t.Fatal(err)
		}
		if list, _ := s.Passkeys(ctx, a.ID); len(list) != 1 {
			t.Errorf("after delete: %d passkeys", len(list))
		}
	})
}

// TestPendingAndFailures: a pending token is read while unexpired, taken
// once; wrong codes are counted per window.
func TestPendingAndFailures(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		now := t0
		s, err := Open(t.Context(), be.db(t), Options{Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		ctx := t.Context()
		u := mustUser(t, s, "Aigerim")
		if err := s.PutPending(ctx, Pending{TokenHash: "t1", Kind: "login", User: u.ID, Expires: now.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutPending(ctx, Pending{TokenHash: "t2", Kind: "passkey", Data: []byte("session"), Expires: now.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if p, err := s.PendingToken(ctx, "t1", "login", false); err != nil || p.User != u.ID {
			t.Errorf("read t1: %+v, %v", p, err)
		}
		if _, err := s.PendingToken(ctx, "t1", "passkey", false); !errors.Is(err, ErrNotFound) {
			t.Errorf("t1 as another kind: %v, want ErrNotFound", err)
		}
		if p, err := s.PendingToken(ctx, "t2", "passkey", true); err != nil || string(p.Data) != "session" || p.User != 0 {
			t.Errorf("take t2: %+v, %v", p, err)
		}
		if _, err := s.PendingToken(ctx, "t2", "passkey", true); !errors.Is(err, ErrNotFound) {
			t.Errorf("t2 taken twice: %v, want ErrNotFound", err)
		}
		now = now.Add(2 * time.Minute)
		if _, err := s.PendingToken(ctx, "t1", "login", false); !errors.Is(err, ErrNotFound) {
			t.Errorf("expired t1: %v, want ErrNotFound", err)
		}
		if err := s.DeletePending(ctx, "t1"); err != nil {
			t.Error(err)
		}

		const window = 15 * time.Minute
		for want := 1; want <= 3; want++ {
			if n, err := s.AddTwoFactorFailure(ctx, u.ID, window); err != nil || n != want {
				t.Errorf("failure %d: %d, %v", want, n, err)
			}
			now = now.Add(time.Minute)
		}
		if n, _ := s.TwoFactorFailures(ctx, u.ID, window); n != 3 {
			t.Errorf("failures = %d, want 3", n)
		}
		now = now.Add(window)
		if n, _ := s.TwoFactorFailures(ctx, u.ID, window); n != 0 {
			t.Errorf("failures after the window = %d, want 0", n)
		}
		if n, _ := s.AddTwoFactorFailure(ctx, u.ID, window); n != 1 {
			t.Errorf("a failure in a new window: %d, want 1", n)
		}
	})
}
