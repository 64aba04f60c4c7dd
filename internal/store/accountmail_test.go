package store

import (
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/mail"
)

func TestAccountEmailsAndLinks(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		if _, err := s.EmailOf(ctx, a.ID); !errors.Is(err, ErrNotFound) {
			t.Fatalf("EmailOf without one = %v", err)
		}
		for _, u := range []User{a, b} {
			if err := s.SetEmail(ctx, u.ID, "Shared@Example.org", time.Time{}); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := s.AccountsByEmail(ctx, "shared@example.org", 5); len(got) != 0 {
			t.Errorf("unverified addresses found accounts: %v", got)
		}
		if err := s.VerifyEmail(ctx, a.ID, "other@example.org", t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("verifying another address = %v", err)
		}
		if err := s.VerifyEmail(ctx, a.ID, "shared@example.org", t0); err != nil {
			t.Fatal(err)
		}
		if e, err := s.EmailOf(ctx, a.ID); err != nil || e.Address != "Shared@Example.org" || !e.Verified.Equal(t0) {
			t.Errorf("EmailOf = %+v, %v", e, err)
		}
		if got, _ := s.AccountsByEmail(ctx, "SHARED@example.org", 5); len(got) != 1 || got[0].ID != a.ID {
			t.Errorf("AccountsByEmail = %v", got)
		}
		if err := s.SetEmail(ctx, 999, "x@example.org", time.Time{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetEmail of a missing user = %v", err)
		}

		l := AccountLink{TokenHash: "h1", UserID: a.ID, Purpose: "reset", Email: "Shared@Example.org", Created: t0, Expires: t0.Add(time.Hour)}
		if err := s.CreateAccountLink(ctx, l); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.CountAccountLinks(ctx, a.ID, "", t0); n != 1 {
			t.Errorf("links of the account = %d", n)
		}
		if n, _ := s.CountAccountLinks(ctx, 0, "shared@EXAMPLE.org", t0); n != 1 {
			t.Errorf("links to the address = %d", n)
		}
		if n, _ := s.CountAccountLinks(ctx, b.ID, "", t0); n != 0 {
			t.Errorf("links of another account = %d", n)
		}
		if _, err := s.TakeAccountLink(ctx, "h1", "verify", t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("a link taken for another purpose: %v", err)
		}
		if _, err := s.AccountLinkByHash(ctx, "h1", "reset", t0.Add(time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Errorf("an expired link: %v", err)
		}
		if got, err := s.TakeAccountLink(ctx, "h1", "reset", t0); err != nil || got != l {
			t.Errorf("TakeAccountLink = %+v, %v", got, err)
		}
		if _, err := s.TakeAccountLink(ctx, "h1", "reset", t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("a link used twice: %v", err)
		}

		// A change of address: both sides confirm, in any order.
		if err := s.PutEmailChange(ctx, EmailChange{UserID: a.ID, NewEmail: "new@example.org", Expires: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if done, err := s.ConfirmEmailChange(ctx, a.ID, "new@example.org", false, t0); err != nil || done {
			t.Errorf("the new side alone = %v, %v", done, err)
		}
		if done, err := s.ConfirmEmailChange(ctx, a.ID, "other@example.org", true, t0); !errors.Is(err, ErrNotFound) || done {
			t.Errorf("confirming another address = %v, %v", done, err)
		}
		if done, err := s.ConfirmEmailChange(ctx, a.ID, "new@example.org", true, t0); err != nil || !done {
			t.Errorf("both sides = %v, %v", done, err)
		}
		if e, _ := s.EmailOf(ctx, a.ID); e.Address != "new@example.org" || e.Verified.IsZero() {
			t.Errorf("after the change: %+v", e)
		}
		if _, err := s.EmailChangeOf(ctx, a.ID, t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("the change outlived its end: %v", err)
		}
	})
}

func TestSessionDevices(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		hashes := []string{"aaaaaaaaaaaaaaaa01", "aaaaaaaaaaaaaaaa02", "bbbbbbbbbbbbbbbb01"}
		for i, h := range hashes {
			u := a
			if i == 2 {
				u = b
			}
			if err := s.CreateSession(ctx, Session{TokenHash: h, UserID: u.ID, Created: t0, Expires: t0.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.PutSessionDevice(ctx, hashes[1], "Firefox on Linux", "192.0.2.1", t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.PutSessionDevice(ctx, "missing", "x", "y", t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("device of a missing session = %v", err)
		}
		got, err := s.UserSessions(ctx, a.ID, t0)
		if err != nil || len(got) != 2 || got[0].TokenHash != hashes[1] || got[0].Device != "Firefox on Linux" || got[1].Device != "" {
			t.Fatalf("UserSessions = %+v, %v", got, err)
		}
		// Another user's session is not his to end.
		if err := s.DeleteUserSession(ctx, a.ID, "bbbbbbbbbbbbbbbb"); !errors.Is(err, ErrNotFound) {
			t.Errorf("ending another's session = %v", err)
		}
		if err := s.DeleteUserSession(ctx, a.ID, "aaaa"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a short prefix = %v", err)
		}
		if err := s.DeleteUserSession(ctx, a.ID, hashes[1]); err != nil {
			t.Fatal(err)
		}
		if n, err := s.DeleteOtherSessions(ctx, a.ID, hashes[0]); err != nil || n != 0 {
			t.Errorf("DeleteOtherSessions keeping the only one = %d, %v", n, err)
		}
		if n, err := s.DeleteOtherSessions(ctx, a.ID, ""); err != nil || n != 1 {
			t.Errorf("DeleteOtherSessions = %d, %v", n, err)
		}
		if got, _ := s.UserSessions(ctx, b.ID, t0); len(got) != 1 {
			t.Errorf("the other user's sessions = %v", got)
		}
		for i, want := range []bool{true, false} {
			if fresh, err := s.AddKnownDevice(ctx, a.ID, "Firefox on Linux", t0); err != nil || fresh != want {
				t.Errorf("AddKnownDevice #%d = %v, %v", i, fresh, err)
			}
		}
	})
}

func TestMailQueueStore(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		m := mail.Message{To: "a@example.org", Subject: "Сәлем", Body: "body"}
		id, err := s.EnqueueMail(ctx, m, t0, 2)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnqueueMail(ctx, m, t0.Add(time.Hour), 2); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EnqueueMail(ctx, m, t0, 2); !errors.Is(err, mail.ErrFull) {
			t.Errorf("a third message with room for two = %v", err)
		}
		due, err := s.DueMail(ctx, t0, 10)
		if err != nil || len(due) != 1 || due[0].ID != id || due[0].Message != m {
			t.Fatalf("DueMail = %+v, %v", due, err)
		}
		if ok, err := s.ClaimMail(ctx, id, t0, t0.Add(time.Minute)); !ok || err != nil {
			t.Errorf("claim = %v, %v", ok, err)
		}
		if ok, _ := s.ClaimMail(ctx, id, t0, t0.Add(time.Minute)); ok {
			t.Error("a message claimed twice")
		}
		if err := s.RetryMail(ctx, id, 1, t0.Add(2*time.Minute), "refused"); err != nil {
			t.Fatal(err)
		}
		due, _ = s.DueMail(ctx, t0.Add(2*time.Minute), 10)
		if len(due) != 1 || due[0].Attempts != 1 || due[0].LastErr != "refused" {
			t.Errorf("after a retry: %+v", due)
		}
		if err := s.DeleteMail(ctx, id); err != nil {
			t.Fatal(err)
		}
		if n, _ := s.MailQueueLen(ctx); n != 1 {
			t.Errorf("MailQueueLen = %d", n)
		}
	})
}
