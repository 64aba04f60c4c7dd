package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/rating"
)

// Token is a personal access token of the bot and board API. Only the hex
// SHA-256 of the token is stored: the token itself is shown once, when
// made.
type Token struct {
	ID          int64
	UserID      int64
	UserName    string // the owner's (read only)
	Bot         bool   // the owner is a bot account (read only)
	Description string
	Scopes      []string
	Created     time.Time
	Used        time.Time // the last request it made, to the minute; zero: none
	// App is the client_id of the app the token was granted to by OAuth
	// (oauth.go), "" for a personal token; Expires is when such a token
	// stops working (zero for a personal token, which lasts until revoked).
	App     string
	Expires time.Time
}

// MaxTokens is the most tokens one account may hold.
const MaxTokens = 20

// ErrTooMany is returned when an account holds MaxTokens tokens already.
var ErrTooMany = errors.New("too many")

// AddToken stores a token of user by its hash and returns its id;
// ErrTooMany when he holds MaxTokens already.
func (s *Store) AddToken(ctx context.Context, userID int64, hash, description string, scopes []string) (int64, error) {
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tokens WHERE user_id = $1
			AND id NOT IN (SELECT token_id FROM oauth_grants)`, userID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxTokens {
			return fmt.Errorf("tokens of user %d: %d: %w", userID, n, ErrTooMany)
		}
		return tx.QueryRowContext(ctx, `INSERT INTO tokens (user_id, hash, description, scopes, created_ms)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, userID, hash, description, strings.Join(scopes, " "), ms(s.now())).Scan(&id)
	})
	if err != nil && !errors.Is(err, ErrTooMany) {
		if _, fk := constraint(err); fk {
			return 0, fmt.Errorf("token of user %d: %w", userID, ErrNotFound)
		}
		return 0, fmt.Errorf("store: add token: %w", err)
	}
	return id, err
}

const tokenSelect = `SELECT t.id, t.user_id, u.name, u.bot, t.description, t.scopes, t.created_ms, t.used_ms,
	COALESCE(g.client_id, ''), COALESCE(g.expires_ms, 0)
	FROM tokens t JOIN users u ON u.id = t.user_id LEFT JOIN oauth_grants g ON g.token_id = t.id `

func scanToken(row interface{ Scan(...any) error }) (Token, error) {
	var t Token
	var bot int
	var scopes string
	var created, used, expires int64
	err := row.Scan(&t.ID, &t.UserID, &t.UserName, &bot, &t.Description, &scopes, &created, &used, &t.App, &expires)
	t.Bot, t.Scopes, t.Created, t.Used, t.Expires = bot != 0, strings.Fields(scopes), fromMS(created), fromMS(used), fromMS(expires)
	return t, err
}

// TokenByHash returns the token whose hash is hash, or ErrNotFound; an
// app's token past its expiry is not found.
func (s *Store) TokenByHash(ctx context.Context, hash string) (Token, error) {
	t, err := scanToken(s.r.QueryRowContext(ctx, tokenSelect+`WHERE t.hash = $1 AND (g.expires_ms IS NULL OR g.expires_ms > $2)`, hash, ms(s.now())))
	if errors.Is(err, sql.ErrNoRows) {
		return Token{}, fmt.Errorf("token: %w", ErrNotFound)
	}
	if err != nil {
		return Token{}, fmt.Errorf("store: token: %w", err)
	}
	return t, nil
}

// Tokens returns a user's personal tokens, the newest first (AppTokens
// lists those granted to apps).
func (s *Store) Tokens(ctx context.Context, userID int64) ([]Token, error) {
	rows, err := s.r.QueryContext(ctx, tokenSelect+`WHERE t.user_id = $1 AND g.client_id IS NULL ORDER BY t.id DESC`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: tokens of %d: %w", userID, err)
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

// RevokeToken deletes token id of user; ErrNotFound when he has none such.
func (s *Store) RevokeToken(ctx context.Context, userID, id int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM tokens WHERE id = $1 AND user_id = $2`, id, userID)
		if err != nil {
			return fmt.Errorf("store: revoke token: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("token %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// TokenUsed records that token id made a request at t. The caller records
// it at most once a minute per token: it is for the account's page, not
// an audit.
func (s *Store) TokenUsed(ctx context.Context, id int64, t time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE tokens SET used_ms = $1 WHERE id = $2`, ms(t), id)
		return err
	})
}

// UpgradeToBot makes user a bot account, as lichess does: only an account
// that has played no game (ErrConflict otherwise), and for good (a bot
// cannot be made a person again). Upgrading a bot again is no error.
func (s *Store) UpgradeToBot(ctx context.Context, userID int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		var bot int
		err := tx.QueryRowContext(ctx, `SELECT bot FROM users WHERE id = $1`, userID).Scan(&bot)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("user %d: %w", userID, ErrNotFound)
		}
		if err != nil || bot != 0 {
			return err
		}
		var games int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE (white_user_id = $1 OR black_user_id = $1)
			AND status <> 'aborted'`, userID).Scan(&games); err != nil {
			return err
		}
		if games > 0 {
			return fmt.Errorf("user %d has played %d games: %w", userID, games, ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET bot = 1 WHERE id = $1`, userID)
		return err
	})
}

// IsBot reports whether user is a bot account.
func (s *Store) IsBot(ctx context.Context, userID int64) (bool, error) {
	var bot int
	err := s.r.QueryRowContext(ctx, `SELECT bot FROM users WHERE id = $1`, userID).Scan(&bot)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("user %d: %w", userID, ErrNotFound)
	}
	return bot != 0, err
}

// SetLadder sets whether bot user plays on the computer ladder; ErrNotFound
// when he is no bot.
func (s *Store) SetLadder(ctx context.Context, userID int64, on bool) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE users SET ladder = $1 WHERE id = $2 AND bot = 1`, boolInt(on), userID)
		if err != nil {
			return fmt.Errorf("store: set ladder: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("bot %d: %w", userID, ErrNotFound)
		}
		return nil
	})
}

// Bot is a bot account as the ladder lists it.
type Bot struct {
	ID     int64
	Name   string
	Ladder bool // it opted in to the computer ladder
	// Perfs are its ratings in the bots' categories, indexed by the
	// category less rating.BotBullet; the default when it has no game.
	Perfs [len(rating.BotCategories)]Perf
}

// Bots returns the bot accounts, at most limit, those on the ladder first,
// then by name; ladderOnly keeps only those.
func (s *Store) Bots(ctx context.Context, ladderOnly bool, limit int) ([]Bot, error) {
	q := `SELECT id, name, ladder FROM users WHERE bot = 1`
	if ladderOnly {
		q += ` AND ladder = 1`
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY ladder DESC, name_key LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: bots: %w", err)
	}
	var bots []Bot
	byID := map[int64]int{}
	for rows.Next() {
		var b Bot
		var ladder int
		if err := rows.Scan(&b.ID, &b.Name, &ladder); err != nil {
			rows.Close()
			return nil, err
		}
		b.Ladder = ladder != 0
		for i, c := range rating.BotCategories {
			b.Perfs[i] = Perf{Category: c, Rating: rating.Default()}
		}
		byID[b.ID] = len(bots)
		bots = append(bots, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(bots) == 0 {
		return bots, err
	}
	rows, err = s.r.QueryContext(ctx, `SELECT r.user_id, r.category, r.rating, r.rd, r.volatility, r.games, r.updated_ms
		FROM ratings r JOIN users u ON u.id = r.user_id WHERE u.bot = 1 AND r.category LIKE 'bot\_%' ESCAPE '\'`)
	if err != nil {
		return nil, fmt.Errorf("store: bots' ratings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var uid, updated int64
		var cat string
		var p Perf
		if err := rows.Scan(&uid, &cat, &p.Rating.Rating, &p.RD, &p.Volatility, &p.Games, &updated); err != nil {
			return nil, err
		}
		c, err := rating.ParseCategory(cat)
		i, ok := byID[uid]
		if err != nil || !ok || !c.IsBot() {
			continue
		}
		p.Category, p.Updated = c, fromMS(updated)
		bots[i].Perfs[c-rating.BotBullet] = p
	}
	return bots, rows.Err()
}
