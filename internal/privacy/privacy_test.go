package privacy

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
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
	check("friends: not followed", me, Message, -1, "privacy.refused.friends")
	if err := st.Follow(ctx, me, other); err != nil {
		t.Fatal(err)
	}
	check("friends: one way", me, Message, -1, "privacy.refused.friends")
	if err := st.Follow(ctx, other, me); err != nil {
		t.Fatal(err)
	}
	check("friends: both ways", me, Message, -1, "")
	check("friends: a guest", 0, Message, -1, "privacy.refused.friends")
	if err := st.Unfollow(ctx, other, me); err != nil {
		t.Fatal(err)
	}
	check("friends: unfollowed", me, Message, -1, "privacy.refused.friends")
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

// countingStore is the store, counting the pages of games read and
// noting how much of the archive was written when each was asked for.
type countingStore struct {
	*store.Store
	out     *bytes.Buffer
	written []int
}

func (c *countingStore) GamesByUser(ctx context.Context, userID int64, limit, offset int) ([]store.Game, error) {
	c.written = append(c.written, c.out.Len())
	return c.Store.GamesByUser(ctx, userID, limit, offset)
}

// TestExportStreams: an account with more games than a page writes
// every game, and the archive is written as the pages are read (more of
// it has gone out before each later page is asked for), not built whole
// first.
func TestExportStreams(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	me, other := user(t, st, "Aigerim"), user(t, st, "Bolat")
	const n = 2*exportGamesPage + 50
	for range n {
		if _, err := st.CreateGame(ctx, store.Game{Players: [2]game.Seat{game.UserSeat(me, "Aigerim"), game.UserSeat(other, "Bolat")},
			Rules: toguz.Standard(), Status: game.Playing}, nil); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	cs := &countingStore{Store: st, out: &out}
	// Each game a different random line of up to 80 plies, as real
	// records are: they do not compress to nothing.
	rng := rand.New(rand.NewPCG(1, 2))
	s := New(Config{Store: cs, Record: func(ctx context.Context, id string) (*toguz.Game, error) {
		p := toguz.StartPosition()
		var moves []toguz.Move
		for range 80 {
			legal := p.LegalMoves().Slice()
			if p.IsOver() || len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			moves = append(moves, m)
			p = p.After(m)
		}
		g, err := toguz.NewGame(toguz.StartPosition(), moves...)
		if err == nil {
			g.SetTag("ID", id)
		}
		return g, err
	}})
	u, err := st.UserByID(ctx, me)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.WriteExport(ctx, &out, u); err != nil {
		t.Fatal(err)
	}
	if len(cs.written) != 3 {
		t.Fatalf("%d pages of games read, want 3", len(cs.written))
	}
	for i := 1; i < len(cs.written); i++ {
		if cs.written[i] <= cs.written[i-1] {
			t.Errorf("nothing more written before page %d: %v", i+1, cs.written)
		}
	}
	z, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range z.File {
		if f.Name != "games.pgn" {
			continue
		}
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if got := strings.Count(string(b), "[ID "); got != n {
			t.Errorf("games.pgn holds %d games, want %d", got, n)
		}
	}
}

// TestExportCommunity: the archive holds the players the account follows,
// its conversations both ways and its notices.
func TestExportCommunity(t *testing.T) {
	st := openStore(t)
	ctx := t.Context()
	me, other := user(t, st, "abai"), user(t, st, "bolat")
	if err := st.Follow(ctx, me, other); err != nil {
		t.Fatal(err)
	}
	for _, m := range []store.Message{{SenderID: me, RecipientID: other, Body: "Сәлем"}, {SenderID: other, RecipientID: me, Body: "Иә, ойнайық"}} {
		if _, err := st.AddMessage(ctx, m, store.MessageLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.AddNotification(ctx, store.Notification{UserID: me, ActorID: other, Kind: "message", Key: "notify.message", Args: `["bolat"]`, URL: "/inbox/bolat"}); err != nil {
		t.Fatal(err)
	}
	s := New(Config{Store: st})
	u, _ := st.UserByID(ctx, me)
	var out bytes.Buffer
	if err := s.WriteExport(ctx, &out, u); err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range z.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	for name, want := range map[string][]string{
		"following.json":     {`"name": "bolat"`},
		"messages.json":      {`"with": "bolat"`, `"text": "Сәлем"`, `"text": "Иә, ойнайық"`, `"mine": true`},
		"notifications.json": {`"text": "notify.message"`, `"url": "/inbox/bolat"`},
		"README.txt":         {"messages.json"},
	} {
		for _, w := range want {
			if !strings.Contains(files[name], w) {
				t.Errorf("%s lacks %s:\n%s", name, w, files[name])
			}
		}
	}
}
