package store

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
)

func TestTokens(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		id, err := s.AddToken(ctx, a.ID, "h1", "my bot", []string{"bot:play", "challenge:read"})
		if err != nil {
			t.Fatal(err)
		}
		tok, err := s.TokenByHash(ctx, "h1")
		if err != nil || tok.ID != id || tok.UserID != a.ID || tok.UserName != "abai" || tok.Bot ||
			fmt.Sprint(tok.Scopes) != "[bot:play challenge:read]" || tok.Description != "my bot" || !tok.Created.Equal(t0) {
			t.Fatalf("TokenByHash = %+v, %v", tok, err)
		}
		if _, err := s.TokenByHash(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("TokenByHash(nope) = %v, want ErrNotFound", err)
		}
		if err := s.TokenUsed(ctx, id, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		if ts, err := s.Tokens(ctx, a.ID); err != nil || len(ts) != 1 || !ts[0].Used.Equal(t0.Add(time.Minute)) {
			t.Errorf("Tokens = %+v, %v", ts, err)
		}
		// Another's token cannot be revoked.
		if err := s.RevokeToken(ctx, b.ID, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("RevokeToken by another = %v, want ErrNotFound", err)
		}
		if err := s.RevokeToken(ctx, a.ID, id); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TokenByHash(ctx, "h1"); !errors.Is(err, ErrNotFound) {
			t.Errorf("a revoked token is found: %v", err)
		}
		for i := range MaxTokens {
			if _, err := s.AddToken(ctx, b.ID, fmt.Sprint("b", i), "", nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.AddToken(ctx, b.ID, "one more", "", nil); !errors.Is(err, ErrTooMany) {
			t.Errorf("token %d = %v, want ErrTooMany", MaxTokens+1, err)
		}
	})
}

// TestBots upgrades accounts to bots (refused after a game, as lichess
// does) and rates a game with a bot in the bots' category, never the
// people's.
func TestBots(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b, p, q := mustUser(t, s, "alpha"), mustUser(t, s, "beta"), mustUser(t, s, "person"), mustUser(t, s, "quasi")
		tc := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second} // blitz
		play := func(white, black User) {
			t.Helper()
			g := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: white.ID}, {UserID: black.ID}}, Rules: toguz.Standard(),
				TimeControl: tc, Rated: true, Status: game.Playing})
			if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan, At: t0}); err != nil {
				t.Fatal(err)
			}
		}
		play(p, q)
		if err := s.UpgradeToBot(ctx, p.ID); !errors.Is(err, ErrConflict) {
			t.Errorf("UpgradeToBot after a game = %v, want ErrConflict", err)
		}
		for _, u := range []User{a, b} {
			if err := s.UpgradeToBot(ctx, u.ID); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.UpgradeToBot(ctx, a.ID); err != nil {
			t.Errorf("upgrading a bot again = %v", err)
		}
		if bot, err := s.IsBot(ctx, a.ID); err != nil || !bot {
			t.Errorf("IsBot(alpha) = %v, %v", bot, err)
		}
		if err := s.SetLadder(ctx, p.ID, true); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetLadder(person) = %v, want ErrNotFound", err)
		}
		if err := s.SetLadder(ctx, b.ID, true); err != nil {
			t.Fatal(err)
		}
		play(a, b) // bot against bot
		play(a, p) // bot against a person
		pa, _ := s.Perf(ctx, a.ID, rating.BotBlitz)
		pp, _ := s.Perf(ctx, p.ID, rating.BotBlitz)
		if pa.Games != 2 || pp.Games != 1 {
			t.Errorf("bot_blitz games: alpha %d, person %d; want 2, 1", pa.Games, pp.Games)
		}
		if h, _ := s.Perf(ctx, p.ID, rating.Blitz); h.Games != 1 {
			t.Errorf("person's blitz games = %d, want 1 (the game against the bot is not one)", h.Games)
		}
		if perfs, err := s.Perfs(ctx, a.ID); err != nil || perfs[rating.Blitz].Games != 0 {
			t.Errorf("Perfs(alpha) = %+v, %v: the people's categories must stay empty", perfs, err)
		}
		bots, err := s.Bots(ctx, false, 10)
		if err != nil || len(bots) != 2 || bots[0].Name != "beta" || !bots[0].Ladder || bots[1].Name != "alpha" ||
			bots[1].Perfs[rating.BotBlitz-rating.BotBullet].Games != 2 || bots[1].Perfs[0].Rating != rating.Default() {
			t.Errorf("Bots = %+v, %v", bots, err)
		}
		if bots, _ := s.Bots(ctx, true, 10); len(bots) != 1 || bots[0].Name != "beta" {
			t.Errorf("Bots(ladder only) = %+v", bots)
		}
	})
}
