package store

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestOAuthCodes: a code is redeemed once, for a token of its user with its
// scopes and app; a refused check leaves it whole; a second redemption
// revokes the token; an expired code is not found; an app's token past its
// expiry is not found either, and the personal list never shows apps'.
func TestOAuthCodes(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a := mustUser(t, s, "abai")
		code := OAuthCode{UserID: a.ID, ClientID: "app", RedirectURI: "https://app.example/cb", Scopes: []string{"board:play"},
			Challenge: "c", Created: t0, Expires: t0.Add(time.Minute)}
		if err := s.AddOAuthCode(ctx, "k1", code); err != nil {
			t.Fatal(err)
		}
		refuse := errors.New("wrong verifier")
		if _, _, err := s.RedeemOAuthCode(ctx, "k1", func(OAuthCode) error { return refuse }, AppToken{Hash: "t0", Expires: t0.Add(time.Hour)}); err != refuse {
			t.Fatalf("refused check: %v", err)
		}
		got, id, err := s.RedeemOAuthCode(ctx, "k1", func(c OAuthCode) error {
			if c.ClientID != "app" || c.RedirectURI != code.RedirectURI || c.Challenge != "c" || fmt.Sprint(c.Scopes) != "[board:play]" {
				return fmt.Errorf("code read back as %+v", c)
			}
			return nil
		}, AppToken{Hash: "t1", Expires: t0.Add(time.Hour)})
		if err != nil || id == 0 || got.UserID != a.ID {
			t.Fatalf("redeem: %+v %d %v", got, id, err)
		}
		tok, err := s.TokenByHash(ctx, "t1")
		if err != nil || tok.ID != id || tok.App != "app" || !tok.Expires.Equal(t0.Add(time.Hour)) || fmt.Sprint(tok.Scopes) != "[board:play]" {
			t.Fatalf("the app's token: %+v %v", tok, err)
		}
		if ts, err := s.AppTokens(ctx, a.ID); err != nil || len(ts) != 1 || ts[0].ID != id {
			t.Fatalf("AppTokens = %+v, %v", ts, err)
		}
		if ts, err := s.Tokens(ctx, a.ID); err != nil || len(ts) != 0 {
			t.Fatalf("Tokens (personal) = %+v, %v", ts, err)
		}
		if _, _, err := s.RedeemOAuthCode(ctx, "k1", func(OAuthCode) error { return nil }, AppToken{Hash: "t2", Expires: t0.Add(time.Hour)}); !errors.Is(err, ErrCodeReused) {
			t.Fatalf("second redemption: %v", err)
		}
		if _, err := s.TokenByHash(ctx, "t1"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("the token of a code redeemed twice: %v", err)
		}
		if _, _, err := s.RedeemOAuthCode(ctx, "nosuch", func(OAuthCode) error { return nil }, AppToken{Hash: "t3"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown code: %v", err)
		}
		expired := code
		expired.Expires = t0
		if err := s.AddOAuthCode(ctx, "k2", expired); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.RedeemOAuthCode(ctx, "k2", func(OAuthCode) error { return nil }, AppToken{Hash: "t4"}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("expired code: %v", err)
		}
		if err := s.AddOAuthCode(ctx, "k3", code); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.RedeemOAuthCode(ctx, "k3", func(OAuthCode) error { return nil }, AppToken{Hash: "t5", Expires: t0}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TokenByHash(ctx, "t5"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("an expired app token: %v", err)
		}
		if ts, err := s.AppTokens(ctx, a.ID); err != nil || len(ts) != 0 {
			t.Fatalf("AppTokens lists an expired token: %+v, %v", ts, err)
		}
		for i := range MaxOAuthCodes - 2 { // k1 and k3 wait until they expire
			if err := s.AddOAuthCode(ctx, fmt.Sprint("n", i), code); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddOAuthCode(ctx, "over", code); !errors.Is(err, ErrTooMany) {
			t.Fatalf("past MaxOAuthCodes: %v", err)
		}
	})
}
