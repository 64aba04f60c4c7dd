package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
)

// The games table's status column holds a game.Status as a word of its
// own: "created", "started" (game.Playing), "ended", "aborted". The store
// writes and reads it here only.
var statusWords = [...]string{game.Created: "created", game.Playing: "started", game.Ended: "ended", game.Aborted: "aborted"}

// statusText returns st as the status column holds it.
func statusText(st game.Status) string {
	if int(st) < len(statusWords) {
		return statusWords[st]
	}
	return st.String()
}

// parseStatus reads the status column.
func parseStatus(text string) (game.Status, error) {
	for st, w := range statusWords {
		if w == text {
			return game.Status(st), nil
		}
	}
	return 0, fmt.Errorf("unknown status %q", text)
}

// Game is a game's record without its moves (see Store.Moves).
type Game struct {
	ID string
	// Players are the seats, indexed by toguz.Player (White first): read
	// back as game.UserSeat, GuestSeat or EngineSeat, without the rating
	// (see RatingBefore); the zero Seat is one nobody has taken yet.
	Players     [2]game.Seat
	Rules       toguz.Rules
	StartFEN    string // "" for the start position of Rules
	TimeControl clock.TimeControl
	Rated       bool
	// Repetition is an event's repetition rule: the Nth occurrence of a
	// position draws (0: off).
	Repetition  int
	Status      game.Status
	Result      toguz.Result
	Termination toguz.Termination
	// RatingBefore and RatingDiff are set when a rated game ends: each
	// player's rating before the game and its change, rounded.
	RatingBefore, RatingDiff [2]int
	Created, Started, Ended  time.Time
	Plies                    int // moves played (read only)
	// Source is where the game comes from: SourcePlay for a game played
	// on this server, SourceImport for an imported record (read only;
	// ImportGames stores those).
	Source Source
	// Date is when the game was played: Created for a played game, the
	// record's Date for an imported one (zero: unknown) (read only).
	Date time.Time
}

// Source is where a stored game comes from.
type Source string

const (
	SourcePlay   Source = "play"   // played on this server
	SourceImport Source = "import" // an imported record
)

// Category returns the rating category of the game; ok is false when it has none.
func (g Game) Category() (rating.Category, bool) { return rating.ForTimeControl(g.TimeControl) }

const idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newID returns an 8-character random id: 62^8 ≈ 2^47 values, hard to guess
// for a challenge link, short to read.
func (s *Store) newID() (string, error) {
	var b [8]byte
	if _, err := s.rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("store: game id: %w", err)
	}
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b[:]), nil
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

// CreateGame stores a new game and, if clk is not nil, its clock. It fills in
// the id (when empty), the creation time (when zero) and the status
// (game.Created when zero), and returns the game. ErrNotFound when a
// player's account does not exist; ErrConflict when the id is taken.
func (s *Store) CreateGame(ctx context.Context, g Game, clk *clock.State) (Game, error) {
	if g.ID == "" {
		id, err := s.newID()
		if err != nil {
			return Game{}, err
		}
		g.ID = id
	}
	if g.Created.IsZero() {
		g.Created = s.now()
	}
	g.Created = g.Created.UTC().Truncate(time.Millisecond)
	if g.Status == game.Playing && g.Started.IsZero() {
		g.Started = g.Created
	}
	err := s.writeGame(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO games (id, white_user_id, white_name, white_engine,
			black_user_id, black_name, black_engine, rules, start_fen, time_control, rated, status, result,
			termination, created_ms, started_ms, ended_ms, date_ms, white_key, black_key, repetition)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
			g.ID, nullID(g.Players[0].UserID), sideName(g.Players[0]), g.Players[0].Engine,
			nullID(g.Players[1].UserID), sideName(g.Players[1]), g.Players[1].Engine,
			g.Rules.String(), g.StartFEN, g.TimeControl.String(), boolInt(g.Rated), statusText(g.Status),
			g.Result.String(), g.Termination.String(), ms(g.Created), ms(g.Started), ms(g.Ended),
			ms(g.Created), nameKey(sideName(g.Players[0])), nameKey(sideName(g.Players[1])), g.Repetition)
		switch unique, fk := constraint(err); {
		case fk:
			return fmt.Errorf("game: a player's account: %w", ErrNotFound)
		case unique:
			return fmt.Errorf("game %s: id taken: %w", g.ID, ErrConflict)
		case err != nil:
			return fmt.Errorf("store: create game: %w", err)
		}
		if clk != nil {
			return s.saveClock(ctx, tx, g.ID, *clk)
		}
		return nil
	})
	if err != nil {
		return Game{}, err
	}
	return s.Game(ctx, g.ID)
}

// sideName is the stored label: accounts are named by the users table.
func sideName(s game.Seat) string {
	if s.UserID != 0 {
		return ""
	}
	return s.Name
}

// A closed account's games show its neutral name (closed_accounts).
const gameSelect = `SELECT g.id, g.white_user_id, COALESCE(wc.neutral_name, wu.name, g.white_name), g.white_engine,
	g.black_user_id, COALESCE(bc.neutral_name, bu.name, g.black_name), g.black_engine, g.rules, g.start_fen,
	g.time_control, g.rated, g.status, g.result, g.termination, g.white_rating, g.white_diff,
	g.black_rating, g.black_diff, g.created_ms, g.started_ms, g.ended_ms,
	(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.source, g.date_ms, g.repetition
	FROM games g LEFT JOIN users wu ON wu.id = g.white_user_id LEFT JOIN users bu ON bu.id = g.black_user_id
	LEFT JOIN closed_accounts wc ON wc.user_id = g.white_user_id LEFT JOIN closed_accounts bc ON bc.user_id = g.black_user_id `

type scanner interface{ Scan(...any) error }

func scanGame(row scanner) (Game, error) {
	var g Game
	var wid, bid sql.NullInt64
	var rules, tc, status, result, term string
	var rated int
	var created, started, ended, date int64
	err := row.Scan(&g.ID, &wid, &g.Players[0].Name, &g.Players[0].Engine, &bid, &g.Players[1].Name,
		&g.Players[1].Engine, &rules, &g.StartFEN, &tc, &rated, &status, &result, &term,
		&g.RatingBefore[0], &g.RatingDiff[0], &g.RatingBefore[1], &g.RatingDiff[1], &created, &started, &ended, &g.Plies,
		&g.Source, &date, &g.Repetition)
	if err != nil {
		return Game{}, err
	}
	g.Date = fromMS(date)
	g.Players[0], g.Players[1] = seatOf(wid.Int64, g.Players[0].Name, g.Players[0].Engine), seatOf(bid.Int64, g.Players[1].Name, g.Players[1].Engine)
	g.Rated = rated != 0
	g.Created, g.Started, g.Ended = fromMS(created), fromMS(started), fromMS(ended)
	var errs [5]error
	g.Status, errs[4] = parseStatus(status)
	g.Rules, errs[0] = toguz.ParseRules(rules)
	g.TimeControl, errs[1] = clock.ParseStored(tc)
	g.Result, errs[2] = toguz.ParseResult(result)
	g.Termination, errs[3] = toguz.ParseTermination(term)
	if err := errors.Join(errs[:]...); err != nil {
		return Game{}, fmt.Errorf("store: game %s is corrupt: %w", g.ID, err)
	}
	return g, nil
}

// seatOf returns the seat of a player as the games table holds it: an
// account, the engine at a level, a guest, or nobody yet.
func seatOf(userID int64, name string, engine int) game.Seat {
	switch {
	case userID != 0:
		return game.UserSeat(userID, name)
	case engine > 0:
		return game.EngineSeat(engine, name)
	case name != "":
		return game.GuestSeat(name)
	}
	return game.Seat{}
}

// Game returns the game with that id, or ErrNotFound.
func (s *Store) Game(ctx context.Context, id string) (Game, error) {
	g, err := scanGame(s.r.QueryRowContext(ctx, gameSelect+`WHERE g.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	return g, err
}

func (s *Store) queryGames(ctx context.Context, where string, args ...any) ([]Game, error) {
	rows, err := s.r.QueryContext(ctx, gameSelect+where, args...)
	if err != nil {
		return nil, fmt.Errorf("store: games: %w", err)
	}
	defer rows.Close()
	var gs []Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}

// GamesByUser returns a user's games, newest first, skipping offset and
// returning at most limit.
func (s *Store) GamesByUser(ctx context.Context, userID int64, limit, offset int) ([]Game, error) {
	return s.queryGames(ctx, `WHERE g.white_user_id = $1 OR g.black_user_id = $1
		ORDER BY g.created_ms DESC, g.id LIMIT $2 OFFSET $3`, userID, limit, offset)
}

// GamesByStatus returns the games in any of the statuses, oldest first: the
// games to resume after a restart (game.Playing) or the open challenges
// (game.Created).
func (s *Store) GamesByStatus(ctx context.Context, statuses ...game.Status) ([]Game, error) {
	var out []Game
	for _, st := range statuses {
		// One query per status with the status written out, so that each
		// uses its partial index (games_created, games_started).
		var where string
		switch st {
		case game.Created:
			where = `WHERE g.status = 'created'`
		case game.Playing:
			where = `WHERE g.status = 'started'`
		case game.Ended:
			where = `WHERE g.status = 'ended'`
		case game.Aborted:
			where = `WHERE g.status = 'aborted'`
		default:
			return nil, fmt.Errorf("store: games by status: unknown status %q", st)
		}
		gs, err := s.queryGames(ctx, where)
		if err != nil {
			return nil, err
		}
		out = append(out, gs...)
	}
	slices.SortFunc(out, func(a, b Game) int {
		return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

// JoinGame seats side as pl in a game that is still game.Created and whose
// seat is empty: of two players taking the same seat exactly one succeeds,
// the other gets ErrConflict.
func (s *Store) JoinGame(ctx context.Context, id string, pl toguz.Player, side game.Seat) (Game, error) {
	col := [2]string{"white", "black"}[pl]
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET `+col+`_user_id = $1, `+col+`_name = $2, `+col+`_engine = $3, `+col+`_key = $5
			WHERE id = $4 AND status = 'created' AND `+col+`_user_id IS NULL AND `+col+`_name = '' AND `+col+`_engine = 0`,
			nullID(side.UserID), sideName(side), side.Engine, id, nameKey(sideName(side)))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("join game %s: account %d: %w", id, side.UserID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: join game %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.whyNot(ctx, tx, id, "join: the seat is taken or the game has started")
		}
		return nil
	})
	if err != nil {
		return Game{}, err
	}
	return s.Game(ctx, id)
}

// whyNot returns ErrNotFound for a missing game, ErrConflict otherwise.
func (s *Store) whyNot(ctx context.Context, tx *sql.Tx, id, what string) error {
	var status string
	err := tx.QueryRowContext(ctx, `SELECT status FROM games WHERE id = $1`, id).Scan(&status)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("store: game %s: %w", id, err)
	}
	return fmt.Errorf("game %s (%s): %s: %w", id, status, what, ErrConflict)
}

// StartGame moves a game from game.Created to game.Playing at the instant
// at, saving its clock if clk is not nil. ErrConflict when it is not waiting
// to start or a seat is empty.
func (s *Store) StartGame(ctx context.Context, id string, at time.Time, clk *clock.State) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET status = 'started', started_ms = $1
			WHERE id = $2 AND status = 'created'
			AND NOT (white_user_id IS NULL AND white_name = '' AND white_engine = 0)
			AND NOT (black_user_id IS NULL AND black_name = '' AND black_engine = 0)`, ms(at), id)
		if err != nil {
			return fmt.Errorf("store: start game %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return s.whyNot(ctx, tx, id, "start: not waiting to start, or a seat is empty")
		}
		if clk != nil {
			return s.saveClock(ctx, tx, id, *clk)
		}
		return nil
	})
}

// Finish is how a game ends.
type Finish struct {
	Status      game.Status // game.Ended, or game.Aborted (then Result must be NoResult)
	Result      toguz.Result
	Termination toguz.Termination
	At          time.Time
	Clock       *clock.State // the stopped clock to save, if any
}

// FinishGame ends a game that is created or started, once: a second ending
// (a flag racing a resignation) gets ErrConflict. When the game is rated,
// between two accounts, and ends with a result, both players' ratings in its
// category are updated in the same transaction (never for a game against
// oneself) (lichess's Glicko-2, see
// package rating), a rating history row is added for each, and the game
// records the ratings before and their changes. It returns the game as stored.
func (s *Store) FinishGame(ctx context.Context, id string, f Finish) (Game, error) {
	switch {
	case f.Status != game.Ended && f.Status != game.Aborted:
		return Game{}, fmt.Errorf("finish game %s: status %q is not an ending", id, statusText(f.Status))
	case f.Status == game.Aborted && f.Result != toguz.NoResult:
		return Game{}, fmt.Errorf("finish game %s: an aborted game has no result, not %v", id, f.Result)
	}
	if f.At.IsZero() {
		f.At = s.now()
	}
	err := s.write(ctx, func(tx *sql.Tx) error { return s.finishTx(ctx, tx, id, f) })
	if err != nil {
		return Game{}, err
	}
	return s.Game(ctx, id)
}

// finishTx is FinishGame's transaction: the game's ending and its
// rating, then learnFinished.
func (s *Store) finishTx(ctx context.Context, tx *sql.Tx, id string, f Finish) error {
	g, err := scanGame(tx.QueryRowContext(ctx, gameSelect+`WHERE g.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("game %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return err
	}
	if g.Status != game.Created && g.Status != game.Playing {
		return fmt.Errorf("game %s is already %s: %w", id, statusText(g.Status), ErrConflict)
	}
	before, diff, err := rateFinish(ctx, tx, id, g, f)
	if err != nil {
		return err
	}
	// The opening is written once the game is over: the archive
	// searches only finished games.
	_, err = tx.ExecContext(ctx, `UPDATE games SET status = $1, result = $2, termination = $3, ended_ms = $4,
		white_rating = $5, white_diff = $6, black_rating = $7, black_diff = $8,
		opening = COALESCE((SELECT `+s.dialect("group_concat", "string_agg")+`(CAST(hole AS TEXT) || ' ', '' ORDER BY ply) FROM moves m
			WHERE m.game_id = $9 AND m.ply <= $10), '') WHERE id = $9`,
		statusText(f.Status), f.Result.String(), f.Termination.String(), ms(f.At),
		before[0], diff[0], before[1], diff[1], id, openingPlies)
	if err != nil {
		return fmt.Errorf("store: finish game %s: %w", id, err)
	}
	return s.learnFinished(ctx, tx, id, g, f, before)
}

// learnFinished is the end of FinishGame's transaction: it queues the
// review of a game played, adds an ended game to the explorer, and saves
// the stopped clock; before are the players' ratings before the game.
func (s *Store) learnFinished(ctx context.Context, tx *sql.Tx, id string, g Game, f Finish, before [2]int) error {
	if f.Status == game.Ended && s.reviews && g.Plies > 0 {
		if err := queueReview(ctx, tx, id, priorityPlayed, "", f.At, s.maxReviews); err != nil {
			return err
		}
	}
	// The opening explorer's trees learn the game in the same
	// transaction: a query never sees a game ended but not counted.
	if f.Status == game.Ended && explorerCounts(g, f.Result) {
		g.Result = f.Result
		eg, err := explorerGameOf(ctx, tx, g, averageRating(before))
		if err != nil {
			return err
		}
		if err := s.addExplorer(ctx, tx, eg); err != nil {
			return err
		}
	}
	if f.Clock != nil {
		return s.saveClock(ctx, tx, id, *f.Clock)
	}
	return nil
}

// rateFinish updates the ratings of the players of a rated game between
// two accounts that ends with a result (FinishGame), and returns their
// ratings before and their changes; zero for a game not rated.
func rateFinish(ctx context.Context, tx *sql.Tx, id string, g Game, f Finish) (before, diff [2]int, err error) {
	cat, timed := g.Category()
	if f.Status != game.Ended || !g.Rated || !timed || f.Result == toguz.NoResult || !twoAccounts(g) {
		return before, diff, nil
	}
	// A game with a bot on either side is rated in the bots'
	// categories (the bot API).
	var bots int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM users WHERE id IN ($1, $2) AND bot = 1`,
		g.Players[0].UserID, g.Players[1].UserID).Scan(&bots); err != nil {
		return before, diff, fmt.Errorf("store: finish game %s: %w", id, err)
	}
	if bots > 0 {
		cat = cat.Bot()
	}
	return rate(ctx, tx, g, cat, f)
}

// twoAccounts reports whether g is played between two accounts (not a
// guest, not oneself).
func twoAccounts(g Game) bool {
	a, b := g.Players[0].UserID, g.Players[1].UserID
	return a != 0 && b != 0 && a != b
}
