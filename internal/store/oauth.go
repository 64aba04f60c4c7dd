package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// OAuthCode is an authorization code of OAuth 2's code flow (internal/oauth):
// what the user approved for an app, waiting for the app to redeem it with
// its PKCE verifier. Only the hex SHA-256 of the code is stored.
type OAuthCode struct {
	UserID      int64
	ClientID    string
	RedirectURI string
	Scopes      []string
	Challenge   string // the S256 code_challenge
	Created     time.Time
	Expires     time.Time
}

// MaxOAuthCodes is the most unexpired codes one account may have waiting;
// MaxAppTokens the most tokens it may have granted to apps.
const (
	MaxOAuthCodes = 50
	MaxAppTokens  = 100
)

// ErrCodeReused is returned by RedeemOAuthCode for a code already redeemed:
// the token it made has been revoked (RFC 6749, 4.1.2).
var ErrCodeReused = errors.New("authorization code used twice")

// AddOAuthCode stores code c under hash; expired codes are forgotten
// first. ErrTooMany when the account has MaxOAuthCodes waiting.
func (s *Store) AddOAuthCode(ctx context.Context, hash string, c OAuthCode) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		// A redeemed code is kept until it expires, so that its second use
		// is seen (ErrCodeReused); after that it is no use to anyone.
		if _, err := tx.ExecContext(ctx, `DELETE FROM oauth_codes WHERE expires_ms <= $1`, ms(s.now())); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM oauth_codes WHERE user_id = $1`, c.UserID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxOAuthCodes {
			return fmt.Errorf("codes of user %d: %d: %w", c.UserID, n, ErrTooMany)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO oauth_codes (hash, user_id, client_id, redirect_uri, scopes, challenge, created_ms, expires_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, hash, c.UserID, c.ClientID, c.RedirectURI, strings.Join(c.Scopes, " "), c.Challenge, ms(c.Created), ms(c.Expires))
		return err
	})
	if err != nil && !errors.Is(err, ErrTooMany) {
		if _, fk := constraint(err); fk {
			return fmt.Errorf("code of user %d: %w", c.UserID, ErrNotFound)
		}
		return fmt.Errorf("store: add oauth code: %w", err)
	}
	return err
}

// AppToken is a token to store for the app that redeemed a code.
type AppToken struct {
	Hash    string // the hex SHA-256 of the token
	Expires time.Time
}

// RedeemOAuthCode redeems the code whose hash is hash, once: check judges
// the stored code against the app's request (its client_id, redirect_uri
// and PKCE verifier) and a nil answer stores tok as a token of the code's
// user for its app, with the code's scopes. It returns the code and the
// token's id. ErrNotFound for an unknown or expired code, ErrCodeReused
// (after revoking the token it made) for one redeemed before, check's
// error as it is, ErrTooMany past MaxAppTokens.
func (s *Store) RedeemOAuthCode(ctx context.Context, hash string, check func(OAuthCode) error, tok AppToken) (OAuthCode, int64, error) {
	var c OAuthCode
	var id int64
	// A second use must revoke the token, and a failing write is rolled
	// back: the outcome travels outside the transaction's error.
	var outcome error
	err := s.write(ctx, func(tx *sql.Tx) error {
		outcome = nil
		var scopes string
		var created, expires, tokenID int64
		err := tx.QueryRowContext(ctx, `SELECT user_id, client_id, redirect_uri, scopes, challenge, token_id, created_ms, expires_ms
			FROM oauth_codes WHERE hash = $1`, hash).Scan(&c.UserID, &c.ClientID, &c.RedirectURI, &scopes, &c.Challenge, &tokenID, &created, &expires)
		if errors.Is(err, sql.ErrNoRows) {
			outcome = fmt.Errorf("oauth code: %w", ErrNotFound)
			return nil
		}
		if err != nil {
			return err
		}
		c.Scopes, c.Created, c.Expires = strings.Fields(scopes), fromMS(created), fromMS(expires)
		now := s.now()
		switch {
		case !c.Expires.After(now):
			outcome = fmt.Errorf("oauth code expired: %w", ErrNotFound)
			_, err := tx.ExecContext(ctx, `DELETE FROM oauth_codes WHERE hash = $1`, hash)
			return err
		case tokenID != 0:
			outcome = ErrCodeReused
			_, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE id = $1`, tokenID)
			return err
		}
		if err := check(c); err != nil {
			outcome = err
			return nil
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM oauth_grants g JOIN tokens t ON t.id = g.token_id
			WHERE t.user_id = $1`, c.UserID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxAppTokens {
			// The expired ones go first; only live ones count against the bound.
			if _, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE user_id = $1 AND id IN
				(SELECT token_id FROM oauth_grants WHERE expires_ms <= $2)`, c.UserID, ms(now)); err != nil {
				return err
			}
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM oauth_grants g JOIN tokens t ON t.id = g.token_id
				WHERE t.user_id = $1`, c.UserID).Scan(&n); err != nil {
				return err
			}
			if n >= MaxAppTokens {
				outcome = fmt.Errorf("app tokens of user %d: %d: %w", c.UserID, n, ErrTooMany)
				return nil
			}
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO tokens (user_id, hash, description, scopes, created_ms)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, c.UserID, tok.Hash, c.ClientID, strings.Join(c.Scopes, " "), ms(now)).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO oauth_grants (token_id, client_id, expires_ms) VALUES ($1, $2, $3)`,
			id, c.ClientID, ms(tok.Expires)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE oauth_codes SET token_id = $1 WHERE hash = $2`, id, hash)
		return err
	})
	if err != nil {
		return OAuthCode{}, 0, fmt.Errorf("store: redeem oauth code: %w", err)
	}
	if outcome != nil {
		return c, 0, outcome
	}
	return c, id, nil
}

// AppTokens returns the unexpired tokens user has granted to apps, the
// newest first.
func (s *Store) AppTokens(ctx context.Context, userID int64) ([]Token, error) {
	rows, err := s.r.QueryContext(ctx, tokenSelect+`WHERE t.user_id = $1 AND g.client_id IS NOT NULL AND g.expires_ms > $2
		ORDER BY t.id DESC`, userID, ms(s.now()))
	if err != nil {
		return nil, fmt.Errorf("store: app tokens of %d: %w", userID, err)
	}
	defer rows.Close()
	var ts []Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, rows.Err()
}
