package store

import (
	"errors"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// TestPrivacySettings: the defaults before any change, the settings and
// kid mode written apart and read back, a class's lock set and lifted by
// its coach only.
func TestPrivacySettings(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, coach := mustUser(t, s, "Aigerim"), mustUser(t, s, "Coach")
		if p, err := s.PrivacyOf(ctx, a.ID); err != nil || p != (Privacy{}) {
			t.Fatalf("defaults: %+v, %v", p, err)
		}
		want := Privacy{Challenge: "rating", ChallengeRating: 1600, Message: "nobody", Follow: "everyone", Online: "friends"}
		if err := s.SetPrivacy(ctx, a.ID, want); err != nil {
			t.Fatal(err)
		}
		if err := s.SetKid(ctx, a.ID, true, 0); err != nil {
			t.Fatal(err)
		}
		got, err := s.PrivacyOf(ctx, a.ID)
		want.Kid, want.Updated = true, t0
		if err != nil || got != want {
			t.Errorf("read back %+v, %v; want %+v", got, err, want)
		}
		if err := s.SetPrivacy(ctx, 404, want); !errors.Is(err, ErrNotFound) {
			t.Errorf("settings of an unknown user: %v, want ErrNotFound", err)
		}
		if err := s.SetKid(ctx, a.ID, false, 0); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.PrivacyOf(ctx, a.ID); got.Kid || got.Message != "nobody" {
			t.Errorf("kid off kept the settings? %+v", got)
		}

		c, err := s.CreateClass(ctx, coach.ID, "Tuesday", 2)
		if err != nil {
			t.Fatal(err)
		}
		b := mustUser(t, s, "Bolat")
		for _, u := range []User{a, b} {
			if err := s.InviteStudent(ctx, c.ID, u.ID, 5); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AnswerClass(ctx, c.ID, a.ID, true); err != nil { // b does not answer
			t.Fatal(err)
		}
		if _, err := s.LockClassKid(ctx, c.ID, a.ID, true); !errors.Is(err, ErrNotFound) {
			t.Errorf("a pupil locks his class: %v, want ErrNotFound", err)
		}
		if n, err := s.LockClassKid(ctx, c.ID, coach.ID, true); err != nil || n != 1 {
			t.Errorf("lock: %d, %v; want 1 (the accepted pupil)", n, err)
		}
		if p, _ := s.PrivacyOf(ctx, a.ID); !p.Kid || p.KidLockedBy != coach.ID {
			t.Errorf("locked pupil: %+v", p)
		}
		if p, _ := s.PrivacyOf(ctx, b.ID); p.Kid {
			t.Errorf("the pupil who did not accept is locked: %+v", p)
		}
		if n, err := s.LockClassKid(ctx, c.ID, coach.ID, false); err != nil || n != 1 {
			t.Errorf("unlock: %d, %v", n, err)
		}
		if p, _ := s.PrivacyOf(ctx, a.ID); p.Kid || p.KidLockedBy != 0 {
			t.Errorf("unlocked pupil: %+v", p)
		}
	})
}

// TestBlocks: a block is one way, listed by name, idempotent, and lifted.
func TestBlocks(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b, c := mustUser(t, s, "Aigerim"), mustUser(t, s, "bolat"), mustUser(t, s, "Dana")
		for range 2 {
			if err := s.Block(ctx, a.ID, b.ID); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Block(ctx, a.ID, c.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Block(ctx, a.ID, 404); !errors.Is(err, ErrNotFound) {
			t.Errorf("block an unknown user: %v", err)
		}
		bl, err := s.Blocks(ctx, a.ID)
		if err != nil || len(bl) != 2 || bl[0].Name != "bolat" || bl[1].Name != "Dana" || bl[0].Created != t0 {
			t.Errorf("Blocks = %+v, %v", bl, err)
		}
		for _, pair := range [][2]int64{{a.ID, b.ID}, {b.ID, a.ID}} {
			if on, err := s.BlockedEither(ctx, pair[0], pair[1]); err != nil || !on {
				t.Errorf("BlockedEither%v = %v, %v", pair, on, err)
			}
		}
		if on, _ := s.BlockedEither(ctx, b.ID, c.ID); on {
			t.Error("b and c block nobody")
		}
		if err := s.Unblock(ctx, a.ID, b.ID); err != nil {
			t.Fatal(err)
		}
		if on, _ := s.BlockedEither(ctx, a.ID, b.ID); on {
			t.Error("still blocked after Unblock")
		}
		for _, table := range []string{"user_emails", "passkeys", "totp"} {
			var n int
			if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE user_id = $1`, a.ID).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Errorf("%s keeps %d rows of the closed account", table, n)
			}
		}
		if bl, _ := s.Blocks(ctx, b.ID); len(bl) != 0 {
			t.Errorf("b blocks %+v", bl)
		}
	})
}

// TestCloseAccount: a closed account keeps its row (its name stays
// taken, in any case), loses its sessions, tokens and blocks, its studies
// turn private, its games show the neutral name, and the leaderboard
// leaves it out; closing twice is a conflict.
func TestCloseAccount(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "Aigerim"), mustUser(t, s, "Bolat")
		g := mustGame(t, s, Game{Players: [2]game.Seat{game.UserSeat(a.ID, a.Name), game.UserSeat(b.ID, b.Name)}, Rules: toguz.Standard(), Status: game.Playing})
		if err := s.CreateSession(ctx, Session{TokenHash: "h1", UserID: a.ID, Created: t0, Expires: t0.AddDate(0, 1, 0)}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddToken(ctx, a.ID, "th", "bot", []string{"board:play"}); err != nil {
			t.Fatal(err)
		}
		if err := s.Block(ctx, b.ID, a.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.SetEmail(ctx, a.ID, "aigerim@example.org", t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddPasskey(ctx, Passkey{User: a.ID, CredentialID: []byte("c"), Name: "phone", Credential: []byte("{}"), Created: t0}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutTOTP(ctx, a.ID, []byte("sealed")); err != nil {
			t.Fatal(err)
		}
		st, err := s.CreateStudy(ctx, a.ID, "Openings", "public", 5, "one", "rec")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CloseAccount(ctx, a.ID, "closed-x1"); err != nil {
			t.Fatal(err)
		}
		if err := s.CloseAccount(ctx, a.ID, "closed-x2"); !errors.Is(err, ErrConflict) {
			t.Errorf("close twice: %v, want ErrConflict", err)
		}
		if err := s.CloseAccount(ctx, 404, "closed-x3"); !errors.Is(err, ErrNotFound) {
			t.Errorf("close an unknown user: %v, want ErrNotFound", err)
		}
		if _, err := s.SessionByTokenHash(ctx, "h1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("session after closing: %v", err)
		}
		if toks, _ := s.Tokens(ctx, a.ID); len(toks) != 0 {
			t.Errorf("tokens after closing: %+v", toks)
		}
		if bl, _ := s.Blocks(ctx, b.ID); len(bl) != 0 {
			t.Errorf("blocks of the closed account stay: %+v", bl)
		}
		if got, _ := s.GetStudy(ctx, st.ID); got.Visibility != "private" {
			t.Errorf("study visibility %q, want private", got.Visibility)
		}
		got, err := s.Game(ctx, g.ID)
		if err != nil || got.Players[0].Name != "closed-x1" || got.Players[1].Name != "Bolat" {
			t.Errorf("the game's names: %+v, %v", got.Players, err)
		}
		for _, name := range []string{"aigerim", "AIGERIM", "closed-x1"} {
			c, err := s.ClosedByName(ctx, name)
			if err != nil || c.UserID != a.ID || c.Name != "Aigerim" || c.Neutral != "closed-x1" || c.At != t0 {
				t.Errorf("ClosedByName(%q) = %+v, %v", name, c, err)
			}
		}
		if _, err := s.ClosedAccount(ctx, b.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("an open account is closed? %v", err)
		}
		if _, err := s.CreateUser(ctx, "aiGERIM", "h"); !errors.Is(err, ErrDuplicateName) {
			t.Errorf("the closed name taken again: %v", err)
		}
	})
}

// TestDataExports: at most perDay downloads a day per account.
func TestDataExports(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a := mustUser(t, s, "Aigerim")
		for i := range 3 {
			if err := s.StartDataExport(ctx, a.ID, 3); err != nil {
				t.Fatalf("export %d: %v", i, err)
			}
		}
		if err := s.StartDataExport(ctx, a.ID, 3); !errors.Is(err, ErrLimit) {
			t.Errorf("the fourth export of the day: %v, want ErrLimit", err)
		}
	})
}
