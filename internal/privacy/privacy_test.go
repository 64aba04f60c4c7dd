package privacy

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func user(t *testing.T, st *store.Store, name string) int64 {
	t.Helper()
	u, err := st.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestMay: each setting's choices, blocks both ways, kid mode both ways,
// a closed account and a guest, against the real store.
func TestMay(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	s := New(Config{Store: st})
	me, other, third := user(t, st, "Aigerim"), user(t, st, "Bolat"), user(t, st, "Dana")
	set := func(p store.Privacy) {
		t.Helper()
		if err := st.SetPrivacy(ctx, other, p); err != nil {
			t.Fatal(err)
		}
	}
	check := func(name string, actor int64, a Action, rated int, wantKey string) {
		t.Helper()
		err := s.may(ctx, actor, other, a, rated)
		if wantKey == "" {
			if err != nil {
				t.Errorf("%s: %v, want allowed", name, err)
			}
			return
		}
		var ae *apierr.Error
		if !errors.Is(err, ErrRefused) || !errors.As(err, &ae) || ae.Key != wantKey || ae.Status != 403 {
			t.Errorf("%s: %v, want a 403 %s", name, err, wantKey)
		}
	}
	check("defaults: challenge", me, Challenge, -1, "")
	check("defaults: message", me, Message, -1, "")
	check("defaults: a guest messages", 0, Message, -1, "privacy.refused.guest")
	check("defaults: a guest challenges", 0, Challenge, -1, "")
	check("oneself", other, Challenge, -1, "")

	set(store.Privacy{Challenge: Rated, ChallengeRating: 1800, Message: Friends, Follow: Nobody, Online: Nobody})
	check("rating: 1500 (the default, no games)", me, Challenge, -1, "privacy.refused.rating")
	check("rating: 1799 in the category", me, Challenge, 1799, "privacy.refused.rating")
	check("rating: 1800 in the category", me, Challenge, 1800, "")
	check("rating: a guest", 0, Challenge, -1, "privacy.refused.rating")
	check("friends: nobody yet", me, Message, -1, "privacy.refused.friends")
	check("follow: nobody", me, Follow, -1, "privacy.refused.nobody")
	check("online: nobody", me, SeeOnline, -1, "privacy.refused.nobody")
	set(store.Privacy{Challenge: Nobody})
	check("challenge: nobody", me, Challenge, 3000, "privacy.refused.nobody")

	set(store.Privacy{})
	if err := st.Block(ctx, other, me); err != nil {
		t.Fatal(err)
	}
	check("he blocks me", me, Challenge, -1, "privacy.refused.blocked")
	if err := s.may(ctx, other, me, Message, -1); !errors.Is(err, ErrRefused) {
		t.Errorf("the blocker messages the blocked: %v, want refused", err)
	}
	check("a third one", third, Chat, -1, "")
	if err := st.Unblock(ctx, other, me); err != nil {
		t.Fatal(err)
	}

	if err := st.SetKid(ctx, other, true, 0); err != nil {
		t.Fatal(err)
	}
	check("kid: chat to him", me, Chat, -1, "privacy.refused.kid")
	check("kid: message him", me, Message, -1, "privacy.refused.kid")
	check("kid: challenge him", me, Challenge, -1, "")
	if err := st.SetKid(ctx, other, false, 0); err != nil {
		t.Fatal(err)
	}
	if err := st.SetKid(ctx, me, true, 0); err != nil {
		t.Fatal(err)
	}
	check("kid: a kid chats", me, Chat, -1, "privacy.refused.kid_self")
	if !s.Kid(ctx, me) || s.Kid(ctx, other) || s.Kid(ctx, 0) {
		t.Error("Kid")
	}

	if err := st.CloseAccount(ctx, other, "closed-test"); err != nil {
		t.Fatal(err)
	}
	check("closed", third, Challenge, -1, "privacy.refused.closed")
}

// TestNeutralName: the neutral names are the prefix and 8 letters or
// digits, and differ.
func TestNeutralName(t *testing.T) {
	s := New(Config{Store: openStore(t)})
	a, err := s.neutralName()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.neutralName()
	if len(a) != len(NeutralPrefix)+8 || a[:len(NeutralPrefix)] != NeutralPrefix || a == b {
		t.Errorf("neutral names %q, %q", a, b)
	}
}
