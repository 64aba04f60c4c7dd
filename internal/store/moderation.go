package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The moderators' storage (internal/moderation): the moderator role, the
// reports of accounts, each account's marks, notes, warnings, appeals, the
// audit log, and a mark's consequences (voided games, refunded points).
// Every action writes its audit row in the same transaction as its change.

// ErrReportLimit is returned by AddModReport when the reporter or his
// address has filed the most reports a day allows.
var ErrReportLimit = errors.New("too many reports")

// ModReport is a report of an account: by a player (ReporterID) or by a
// detector (ReporterID 0).
type ModReport struct {
	ID           int64
	TargetID     int64
	TargetName   string // read only
	ReporterID   int64  // 0: a detector
	ReporterName string // read only; "" for a detector
	Reason       string // cheating, sandbagging, boosting, abuse, other, forum (a post's: internal/forum)
	Note         string
	GameID       string
	Addr         string // the reporter's address key
	Weight       float64
	Open         bool
	Created      time.Time
}

// ModReportLimits bounds the reports one account and one address file in
// 24 hours (0: no bound).
type ModReportLimits struct {
	PerUser, PerAddr int
}

// AddModReport stores r unless the same reporter already has an open report
// of the same target for the same reason, in which case that one's id is
// returned with collapsed set. ErrReportLimit when the reporter or his
// address is over lim; ErrNotFound when the target does not exist.
func (s *Store) AddModReport(ctx context.Context, r ModReport, lim ModReportLimits) (id int64, collapsed bool, err error) {
	if r.Created.IsZero() {
		r.Created = s.now()
	}
	if r.Weight == 0 {
		r.Weight = 1
	}
	day := ms(r.Created.Add(-24 * time.Hour))
	err = s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT id FROM mod_reports WHERE target_id = $1 AND reporter_id = $2 AND reason = $3 AND open = 1
			ORDER BY id LIMIT 1`, r.TargetID, r.ReporterID, r.Reason).Scan(&id)
		if err == nil {
			collapsed = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if r.ReporterID != 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mod_reports WHERE reporter_id = $1 AND created_ms > $2`,
				r.ReporterID, day).Scan(&n); err != nil {
				return err
			}
			if lim.PerUser > 0 && n >= lim.PerUser {
				return ErrReportLimit
			}
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM mod_reports WHERE addr = $1 AND reporter_id <> 0 AND created_ms > $2`,
				r.Addr, day).Scan(&n); err != nil {
				return err
			}
			if lim.PerAddr > 0 && n >= lim.PerAddr {
				return ErrReportLimit
			}
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO mod_reports (target_id, reporter_id, reason, note, game_id, addr, weight, open, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8) RETURNING id`,
			r.TargetID, r.ReporterID, r.Reason, r.Note, r.GameID, r.Addr, r.Weight, ms(r.Created)).Scan(&id)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("report of user %d: %w", r.TargetID, ErrNotFound)
		}
		return err
	})
	if err != nil && !errors.Is(err, ErrReportLimit) && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("store: add report of user %d: %w", r.TargetID, err)
	}
	return id, collapsed, err
}

const modReportSelect = `SELECT r.id, r.target_id, COALESCE(t.name, ''), r.reporter_id, COALESCE(u.name, ''), r.reason, r.note,
	r.game_id, r.addr, r.weight, r.open, r.created_ms
	FROM mod_reports r LEFT JOIN users t ON t.id = r.target_id LEFT JOIN users u ON u.id = r.reporter_id `

// ModReportsOf returns the reports of an account, the newest first, at most
// limit.
func (s *Store) ModReportsOf(ctx context.Context, userID int64, limit int) ([]ModReport, error) {
	rows, err := s.r.QueryContext(ctx, modReportSelect+`WHERE r.target_id = $1 ORDER BY r.created_ms DESC, r.id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: reports of user %d: %w", userID, err)
	}
	defer rows.Close()
	var out []ModReport
	for rows.Next() {
		var r ModReport
		var open int
		var created int64
		if err := rows.Scan(&r.ID, &r.TargetID, &r.TargetName, &r.ReporterID, &r.ReporterName, &r.Reason, &r.Note,
			&r.GameID, &r.Addr, &r.Weight, &open, &created); err != nil {
			return nil, fmt.Errorf("store: reports of user %d: %w", userID, err)
		}
		r.Open, r.Created = open != 0, fromMS(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// ChatReportsOf returns the chat reports (Report) of the messages shown
// under an account's name, the newest first, at most limit.
func (s *Store) ChatReportsOf(ctx context.Context, name string, limit int) ([]Report, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, reporter, reporter_name, reported, game_id, room, message, verified, created_ms
		FROM reports WHERE lower(reported) = $1 ORDER BY created_ms DESC, id DESC LIMIT $2`, strings.ToLower(name), limit)
	if err != nil {
		return nil, fmt.Errorf("store: chat reports of %s: %w", name, err)
	}
	defer rows.Close()
	var out []Report
	for rows.Next() {
		var r Report
		var created int64
		var verified int
		if err := rows.Scan(&r.ID, &r.Reporter, &r.ReporterName, &r.Reported, &r.GameID, &r.Room, &r.Message, &verified, &created); err != nil {
			return nil, fmt.Errorf("store: chat reports of %s: %w", name, err)
		}
		r.Created, r.Verified = fromMS(created), verified != 0
		out = append(out, r)
	}
	return out, rows.Err()
}

// ModQueueEntry is an account with reports not dealt with yet.
type ModQueueEntry struct {
	UserID  int64
	Name    string
	Reports int     // open reports (players' and detectors')
	Chat    int     // chat reports since the account was last dealt with
	Weight  float64 // the reports' weights summed; a chat report weighs 1 when verified, ½ otherwise
	Reasons []string
	Latest  time.Time
}

// ModQueue returns the accounts with open reports or chat reports newer
// than their last resolution (at most limit, the most recently reported
// first); the moderation package orders them by evidence.
func (s *Store) ModQueue(ctx context.Context, limit int) ([]ModQueueEntry, error) {
	byID := map[int64]*ModQueueEntry{}
	var order []int64
	entry := func(id int64, name string) *ModQueueEntry {
		e, ok := byID[id]
		if !ok {
			e = &ModQueueEntry{UserID: id, Name: name}
			byID[id] = e
			order = append(order, id)
		}
		return e
	}
	rows, err := s.r.QueryContext(ctx, `SELECT r.target_id, u.name, r.reason, count(*), SUM(r.weight), MAX(r.created_ms)
		FROM mod_reports r JOIN users u ON u.id = r.target_id WHERE r.open = 1
		GROUP BY r.target_id, u.name, r.reason ORDER BY MAX(r.created_ms) DESC LIMIT $1`, limit*5)
	if err != nil {
		return nil, fmt.Errorf("store: moderators' queue: %w", err)
	}
	for rows.Next() {
		var id, latest int64
		var name, reason string
		var n int
		var w float64
		if err := rows.Scan(&id, &name, &reason, &n, &w, &latest); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: moderators' queue: %w", err)
		}
		e := entry(id, name)
		e.Reports += n
		e.Weight += w
		e.Reasons = append(e.Reasons, reason)
		if t := fromMS(latest); t.After(e.Latest) {
			e.Latest = t
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: moderators' queue: %w", err)
	}
	rows, err = s.r.QueryContext(ctx, `SELECT u.id, u.name, count(*), SUM(CASE WHEN c.verified = 1 THEN 1.0 ELSE 0.5 END), MAX(c.created_ms)
		FROM reports c JOIN users u ON u.name_key = lower(c.reported) LEFT JOIN mod_accounts a ON a.user_id = u.id
		WHERE c.created_ms > COALESCE(a.resolved_ms, 0)
		GROUP BY u.id, u.name ORDER BY MAX(c.created_ms) DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: moderators' queue: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, latest int64
		var name string
		var n int
		var w float64
		if err := rows.Scan(&id, &name, &n, &w, &latest); err != nil {
			return nil, fmt.Errorf("store: moderators' queue: %w", err)
		}
		e := entry(id, name)
		e.Chat, e.Weight = n, e.Weight+w
		e.Reasons = append(e.Reasons, "chat")
		if t := fromMS(latest); t.After(e.Latest) {
			e.Latest = t
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: moderators' queue: %w", err)
	}
	out := make([]ModQueueEntry, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// ModFlags are an account's marks.
type ModFlags struct {
	Engine, Booster, Closed, Muted bool
	Resolved                       time.Time // reports before this were dealt with
}

// Marked reports whether the account is marked as an engine user or a
// booster: the marks that keep it out of the rated pool.
func (f ModFlags) Marked() bool { return f.Engine || f.Booster }

// ModFlagsOf returns an account's marks (none when it has none).
func (s *Store) ModFlagsOf(ctx context.Context, userID int64) (ModFlags, error) {
	var f ModFlags
	var e, b, c, m int
	var resolved int64
	err := s.r.QueryRowContext(ctx, `SELECT engine, booster, closed, muted, resolved_ms FROM mod_accounts WHERE user_id = $1`, userID).
		Scan(&e, &b, &c, &m, &resolved)
	if errors.Is(err, sql.ErrNoRows) {
		return f, nil
	}
	if err != nil {
		return f, fmt.Errorf("store: marks of user %d: %w", userID, err)
	}
	return ModFlags{Engine: e != 0, Booster: b != 0, Closed: c != 0, Muted: m != 0, Resolved: fromMS(resolved)}, nil
}

// ModSnapshot is what every page and the lobby ask about quickly: the
// moderators and the accounts with marks, the accounts with a warning not
// yet seen.
type ModSnapshot struct {
	Moderators map[int64]bool
	Flags      map[int64]ModFlags // only accounts with a mark
	Warned     map[int64]bool
}

// ModSnapshotNow reads the snapshot.
func (s *Store) ModSnapshotNow(ctx context.Context) (ModSnapshot, error) {
	snap := ModSnapshot{Moderators: map[int64]bool{}, Flags: map[int64]ModFlags{}, Warned: map[int64]bool{}}
	ids := func(q string, into map[int64]bool) error {
		rows, err := s.r.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return err
			}
			into[id] = true
		}
		return rows.Err()
	}
	if err := ids(`SELECT user_id FROM moderators`, snap.Moderators); err != nil {
		return snap, fmt.Errorf("store: moderation snapshot: %w", err)
	}
	if err := ids(`SELECT DISTINCT user_id FROM mod_warnings WHERE seen_ms = 0`, snap.Warned); err != nil {
		return snap, fmt.Errorf("store: moderation snapshot: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT user_id, engine, booster, closed, muted FROM mod_accounts
		WHERE engine = 1 OR booster = 1 OR closed = 1 OR muted = 1`)
	if err != nil {
		return snap, fmt.Errorf("store: moderation snapshot: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var e, b, c, m int
		if err := rows.Scan(&id, &e, &b, &c, &m); err != nil {
			return snap, fmt.Errorf("store: moderation snapshot: %w", err)
		}
		snap.Flags[id] = ModFlags{Engine: e != 0, Booster: b != 0, Closed: c != 0, Muted: m != 0}
	}
	return snap, rows.Err()
}

// SetModerator grants (on) or revokes the moderator role of an account,
// with its audit row (by 0: the operator's command line).
func (s *Store) SetModerator(ctx context.Context, userID int64, on bool) error {
	now := s.now()
	return s.write(ctx, func(tx *sql.Tx) error {
		var err error
		action := "grant_moderator"
		if on {
			_, err = tx.ExecContext(ctx, `INSERT INTO moderators (user_id, granted_ms) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING`, userID, ms(now))
		} else {
			action = "revoke_moderator"
			_, err = tx.ExecContext(ctx, `DELETE FROM moderators WHERE user_id = $1`, userID)
		}
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", userID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: moderator %d: %w", userID, err)
		}
		_, err = insertModAction(ctx, tx, ModAction{UserID: userID, Action: action, Created: now})
		return err
	})
}

// Moderators returns the moderators' accounts, by name.
func (s *Store) Moderators(ctx context.Context) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT u.id, u.name FROM moderators m JOIN users u ON u.id = m.user_id ORDER BY u.name_key`)
	if err != nil {
		return nil, fmt.Errorf("store: moderators: %w", err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Name); err != nil {
			return nil, fmt.Errorf("store: moderators: %w", err)
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// ModAction is a line of the audit log.
type ModAction struct {
	ID       int64
	UserID   int64 // the account acted on
	UserName string
	ModID    int64 // 0: the operator's command line or a detector
	ModName  string
	Action   string
	Reason   string
	Created  time.Time
}

func insertModAction(ctx context.Context, tx *sql.Tx, a ModAction) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO mod_actions (user_id, mod_id, action, reason, created_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		a.UserID, a.ModID, a.Action, a.Reason, ms(a.Created)).Scan(&id)
	if _, fk := constraint(err); fk {
		return 0, fmt.Errorf("user %d: %w", a.UserID, ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("store: audit log: %w", err)
	}
	return id, nil
}

// ModActions returns the audit log, the newest first: an account's (userID
// not 0) or everyone's, at most limit.
func (s *Store) ModActions(ctx context.Context, userID int64, limit int) ([]ModAction, error) {
	q := `SELECT a.id, a.user_id, COALESCE(u.name, ''), a.mod_id, COALESCE(m.name, ''), a.action, a.reason, a.created_ms
		FROM mod_actions a LEFT JOIN users u ON u.id = a.user_id LEFT JOIN users m ON m.id = a.mod_id `
	args := []any{limit}
	if userID != 0 {
		q += `WHERE a.user_id = $2 `
		args = append(args, userID)
	}
	rows, err := s.r.QueryContext(ctx, q+`ORDER BY a.created_ms DESC, a.id DESC LIMIT $1`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: audit log: %w", err)
	}
	defer rows.Close()
	var out []ModAction
	for rows.Next() {
		var a ModAction
		var created int64
		if err := rows.Scan(&a.ID, &a.UserID, &a.UserName, &a.ModID, &a.ModName, &a.Action, &a.Reason, &created); err != nil {
			return nil, fmt.Errorf("store: audit log: %w", err)
		}
		a.Created = fromMS(created)
		out = append(out, a)
	}
	return out, rows.Err()
}

// ModChange is a moderator's action on an account.
type ModChange struct {
	UserID int64
	ModID  int64
	Action string // warn, engine, booster, close, mute, unmute, clear, note, dismiss
	Reason string
	// Set changes the marks (nil: none change).
	Set func(*ModFlags)
	// Warning is the text the user is shown at his next page ("": none).
	Warning string
	// Resolve closes the account's open reports.
	Resolve bool
	// Void voids the account's rated games ended since VoidSince (at most
	// VoidMax of them, the newest) and refunds the points their opponents
	// lost in them.
	Void      bool
	VoidSince time.Time
	VoidMax   int
}

// ModResult is what an action did.
type ModResult struct {
	ActionID int64
	Voided   int // games voided by this action (not those voided before)
	Refunded int // opponents' games refunded by this action
	Points   int // the points refunded, in all
}

// ApplyModChange applies c in one transaction: the marks, the audit row,
// the warning, the reports resolved, the games voided and the refunds. A
// game already voided or an opponent already refunded for a game is
// skipped, so that marking twice never refunds twice; a crash leaves all of
// it or none.
func (s *Store) ApplyModChange(ctx context.Context, c ModChange) (ModResult, error) {
	now := s.now()
	var res ModResult
	err := s.write(ctx, func(tx *sql.Tx) error {
		res = ModResult{}
		var f ModFlags
		var e, b, cl, m int
		var resolved int64
		err := tx.QueryRowContext(ctx, `SELECT engine, booster, closed, muted, resolved_ms FROM mod_accounts WHERE user_id = $1`, c.UserID).
			Scan(&e, &b, &cl, &m, &resolved)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		f = ModFlags{Engine: e != 0, Booster: b != 0, Closed: cl != 0, Muted: m != 0, Resolved: fromMS(resolved)}
		if c.Set != nil {
			c.Set(&f)
		}
		if c.Resolve {
			f.Resolved = now
			if _, err := tx.ExecContext(ctx, `UPDATE mod_reports SET open = 0 WHERE target_id = $1 AND open = 1`, c.UserID); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO mod_accounts (user_id, engine, booster, closed, muted, resolved_ms, updated_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (user_id) DO UPDATE SET engine = excluded.engine, booster = excluded.booster, closed = excluded.closed,
			muted = excluded.muted, resolved_ms = excluded.resolved_ms, updated_ms = excluded.updated_ms`,
			c.UserID, boolInt(f.Engine), boolInt(f.Booster), boolInt(f.Closed), boolInt(f.Muted), ms(f.Resolved), ms(now))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", c.UserID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if res.ActionID, err = insertModAction(ctx, tx, ModAction{UserID: c.UserID, ModID: c.ModID, Action: c.Action, Reason: c.Reason, Created: now}); err != nil {
			return err
		}
		if c.Warning != "" {
			if _, err := tx.ExecContext(ctx, `INSERT INTO mod_warnings (user_id, text, created_ms) VALUES ($1, $2, $3)`, c.UserID, c.Warning, ms(now)); err != nil {
				return err
			}
		}
		if c.Void {
			return voidAndRefund(ctx, tx, c, now, &res)
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("store: moderator's %s of user %d: %w", c.Action, c.UserID, err)
	}
	return res, err
}

// voidAndRefund voids the rated games of c.UserID ended since c.VoidSince
// and gives each opponent back the points the game took from him.
func voidAndRefund(ctx context.Context, tx *sql.Tx, c ModChange, now time.Time, res *ModResult) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, COALESCE(white_user_id, 0), COALESCE(black_user_id, 0), white_diff, black_diff FROM games
		WHERE rated = 1 AND status = 'ended' AND (white_user_id = $1 OR black_user_id = $1) AND ended_ms >= $2
		ORDER BY ended_ms DESC, id LIMIT $3`, c.UserID, ms(c.VoidSince), c.VoidMax)
	if err != nil {
		return err
	}
	type played struct {
		id       string
		opponent int64
		diff     int
	}
	var games []played
	for rows.Next() {
		var p played
		var white, black int64
		var wd, bd int
		if err := rows.Scan(&p.id, &white, &black, &wd, &bd); err != nil {
			rows.Close()
			return err
		}
		p.opponent, p.diff = black, bd
		if black == c.UserID {
			p.opponent, p.diff = white, wd
		}
		games = append(games, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, g := range games {
		r, err := tx.ExecContext(ctx, `INSERT INTO mod_voided (game_id, user_id, created_ms) VALUES ($1, $2, $3) ON CONFLICT (game_id) DO NOTHING`,
			g.id, c.UserID, ms(now))
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n > 0 {
			res.Voided++
		}
		if g.opponent == 0 || g.opponent == c.UserID || g.diff >= 0 {
			continue
		}
		// The category the game was rated in (a bot's game is in the
		// bots' categories): the history row it left.
		var cat string
		err = tx.QueryRowContext(ctx, `SELECT category FROM rating_history WHERE game_id = $1 AND user_id = $2 ORDER BY id LIMIT 1`,
			g.id, g.opponent).Scan(&cat)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		r, err = tx.ExecContext(ctx, `INSERT INTO mod_refunds (game_id, user_id, category, points, created_ms) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (game_id, user_id) DO NOTHING`, g.id, g.opponent, cat, -g.diff, ms(now))
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 {
			continue // refunded by an earlier mark
		}
		if _, err := tx.ExecContext(ctx, `UPDATE ratings SET rating = rating + $1 WHERE user_id = $2 AND category = $3`,
			-g.diff, g.opponent, cat); err != nil {
			return err
		}
		// The rating chart shows the refund as a point of its own.
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_history (user_id, category, game_id, rating, rd, volatility, at_ms)
			SELECT user_id, category, NULL, rating, rd, volatility, $3 FROM ratings WHERE user_id = $1 AND category = $2`,
			g.opponent, cat, ms(now)); err != nil {
			return err
		}
		res.Refunded++
		res.Points += -g.diff
	}
	return nil
}

// ModRefund is the points given back to an opponent for a voided game.
type ModRefund struct {
	GameID   string
	UserID   int64
	UserName string
	Category string
	Points   int
	Created  time.Time
}

// ModRefundsAgainst returns the refunds given for the games of an account
// (the marked one), the newest first, at most limit.
func (s *Store) ModRefundsAgainst(ctx context.Context, userID int64, limit int) ([]ModRefund, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.game_id, f.user_id, COALESCE(u.name, ''), f.category, f.points, f.created_ms
		FROM mod_refunds f JOIN mod_voided v ON v.game_id = f.game_id LEFT JOIN users u ON u.id = f.user_id
		WHERE v.user_id = $1 ORDER BY f.created_ms DESC, f.game_id LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: refunds of user %d's games: %w", userID, err)
	}
	defer rows.Close()
	var out []ModRefund
	for rows.Next() {
		var f ModRefund
		var created int64
		if err := rows.Scan(&f.GameID, &f.UserID, &f.UserName, &f.Category, &f.Points, &created); err != nil {
			return nil, err
		}
		f.Created = fromMS(created)
		out = append(out, f)
	}
	return out, rows.Err()
}

// VoidedGames returns the ids of an account's games its mark voided.
func (s *Store) VoidedGames(ctx context.Context, userID int64) (map[string]bool, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT game_id FROM mod_voided WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: voided games of user %d: %w", userID, err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

// ModNote is a moderator's note on an account.
type ModNote struct {
	ID      int64
	UserID  int64
	ModID   int64
	ModName string
	Text    string
	Created time.Time
}

// AddModNote stores a note (with its audit row).
func (s *Store) AddModNote(ctx context.Context, n ModNote) error {
	now := s.now()
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO mod_notes (user_id, mod_id, text, created_ms) VALUES ($1, $2, $3, $4)`,
			n.UserID, n.ModID, n.Text, ms(now))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("user %d: %w", n.UserID, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: note on user %d: %w", n.UserID, err)
		}
		_, err = insertModAction(ctx, tx, ModAction{UserID: n.UserID, ModID: n.ModID, Action: "note", Created: now})
		return err
	})
}

// ModNotes returns the notes on an account, the newest first.
func (s *Store) ModNotes(ctx context.Context, userID int64, limit int) ([]ModNote, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT n.id, n.user_id, n.mod_id, COALESCE(u.name, ''), n.text, n.created_ms
		FROM mod_notes n LEFT JOIN users u ON u.id = n.mod_id WHERE n.user_id = $1 ORDER BY n.created_ms DESC, n.id DESC LIMIT $2`, userID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: notes on user %d: %w", userID, err)
	}
	defer rows.Close()
	var out []ModNote
	for rows.Next() {
		var n ModNote
		var created int64
		if err := rows.Scan(&n.ID, &n.UserID, &n.ModID, &n.ModName, &n.Text, &created); err != nil {
			return nil, err
		}
		n.Created = fromMS(created)
		out = append(out, n)
	}
	return out, rows.Err()
}

// ModWarning is a warning a moderator gave an account.
type ModWarning struct {
	ID      int64
	Text    string
	Created time.Time
}

// PendingWarning returns the oldest warning the account has not seen; ok
// is false when there is none.
func (s *Store) PendingWarning(ctx context.Context, userID int64) (w ModWarning, ok bool, err error) {
	var created int64
	err = s.r.QueryRowContext(ctx, `SELECT id, text, created_ms FROM mod_warnings WHERE user_id = $1 AND seen_ms = 0 ORDER BY id LIMIT 1`, userID).
		Scan(&w.ID, &w.Text, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("store: warning of user %d: %w", userID, err)
	}
	w.Created = fromMS(created)
	return w, true, nil
}

// SeeWarning records that the account read warning id.
func (s *Store) SeeWarning(ctx context.Context, userID, id int64) error {
	now := s.now()
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE mod_warnings SET seen_ms = $1 WHERE id = $2 AND user_id = $3 AND seen_ms = 0`, ms(now), id, userID)
		if err != nil {
			return fmt.Errorf("store: see warning %d: %w", id, err)
		}
		return nil
	})
}

// ModAppeal is a marked account's appeal against the action that marked
// it.
type ModAppeal struct {
	ID       int64
	UserID   int64
	UserName string
	ActionID int64
	Action   string // the action appealed against (read only)
	Text     string
	Created  time.Time
	Decision string // "", "upheld" or "lifted"
	ModID    int64
	Decided  time.Time
}

// AddAppeal stores an appeal; ErrConflict when the account has already
// appealed against that action, ErrNotFound when the action is not one of
// its marks.
func (s *Store) AddAppeal(ctx context.Context, a ModAppeal) (int64, error) {
	now := s.now()
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		var action string
		err := tx.QueryRowContext(ctx, `SELECT action FROM mod_actions WHERE id = $1 AND user_id = $2`, a.ActionID, a.UserID).Scan(&action)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("action %d of user %d: %w", a.ActionID, a.UserID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO mod_appeals (user_id, action_id, text, created_ms) VALUES ($1, $2, $3, $4) RETURNING id`,
			a.UserID, a.ActionID, a.Text, ms(now)).Scan(&id)
		if unique, _ := constraint(err); unique {
			return fmt.Errorf("appeal of action %d: %w", a.ActionID, ErrConflict)
		}
		if err != nil {
			return err
		}
		_, err = insertModAction(ctx, tx, ModAction{UserID: a.UserID, ModID: a.UserID, Action: "appeal", Created: now})
		return err
	})
	if err != nil && !errors.Is(err, ErrConflict) && !errors.Is(err, ErrNotFound) {
		err = fmt.Errorf("store: appeal of user %d: %w", a.UserID, err)
	}
	return id, err
}

const appealSelect = `SELECT p.id, p.user_id, COALESCE(u.name, ''), p.action_id, COALESCE(a.action, ''), p.text, p.created_ms,
	p.decision, p.mod_id, p.decided_ms FROM mod_appeals p LEFT JOIN users u ON u.id = p.user_id LEFT JOIN mod_actions a ON a.id = p.action_id `

func scanAppeals(rows *sql.Rows) ([]ModAppeal, error) {
	defer rows.Close()
	var out []ModAppeal
	for rows.Next() {
		var a ModAppeal
		var created, decided int64
		if err := rows.Scan(&a.ID, &a.UserID, &a.UserName, &a.ActionID, &a.Action, &a.Text, &created, &a.Decision, &a.ModID, &decided); err != nil {
			return nil, fmt.Errorf("store: appeals: %w", err)
		}
		a.Created, a.Decided = fromMS(created), fromMS(decided)
		out = append(out, a)
	}
	return out, rows.Err()
}

// Appeals returns an account's appeals (userID not 0), or every appeal not
// decided yet (userID 0), the oldest first, at most limit.
func (s *Store) Appeals(ctx context.Context, userID int64, limit int) ([]ModAppeal, error) {
	q, args := appealSelect+`WHERE p.decision = '' ORDER BY p.created_ms, p.id LIMIT $1`, []any{limit}
	if userID != 0 {
		q, args = appealSelect+`WHERE p.user_id = $1 ORDER BY p.created_ms, p.id LIMIT $2`, []any{userID, limit}
	}
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: appeals: %w", err)
	}
	return scanAppeals(rows)
}

// DecideAppeal records a moderator's decision on an appeal ("upheld" or
// "lifted"; lifted takes off the mark appealed against) with its audit
// row; ErrConflict when it was decided already.
func (s *Store) DecideAppeal(ctx context.Context, id, modID int64, decision, reason string) error {
	now := s.now()
	return s.write(ctx, func(tx *sql.Tx) error {
		var user int64
		var action string
		err := tx.QueryRowContext(ctx, `SELECT p.user_id, COALESCE(a.action, '') FROM mod_appeals p
			LEFT JOIN mod_actions a ON a.id = p.action_id WHERE p.id = $1`, id).Scan(&user, &action)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("appeal %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: decide appeal %d: %w", id, err)
		}
		r, err := tx.ExecContext(ctx, `UPDATE mod_appeals SET decision = $1, mod_id = $2, decided_ms = $3 WHERE id = $4 AND decision = ''`,
			decision, modID, ms(now), id)
		if err != nil {
			return fmt.Errorf("store: decide appeal %d: %w", id, err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("appeal %d: %w", id, ErrConflict)
		}
		// The column of each mark (constants, never the client's text).
		if col, ok := map[string]string{"engine": "engine", "booster": "booster", "close": "closed", "mute": "muted"}[action]; ok && decision == "lifted" {
			if _, err := tx.ExecContext(ctx, `UPDATE mod_accounts SET `+col+` = 0, updated_ms = $1 WHERE user_id = $2`,
				ms(now), user); err != nil {
				return fmt.Errorf("store: decide appeal %d: %w", id, err)
			}
		}
		_, err = insertModAction(ctx, tx, ModAction{UserID: user, ModID: modID, Action: "appeal_" + decision, Reason: reason, Created: now})
		return err
	})
}

// JudgedAccount is an account with rated games judged recently (JudgedAccounts).
type JudgedAccount struct {
	UserID int64
	// Resolved is when a moderator last dealt with the account (zero:
	// never): the evidence before it has been read.
	Resolved time.Time
}

// JudgedAccounts returns the accounts with fair-play evidence of rated
// games computed since since and after their last resolution, at most
// limit, the most recent first: the accounts whose combined evidence the
// detector checks again. Bot accounts are left out.
func (s *Store) JudgedAccounts(ctx context.Context, since time.Time, limit int) ([]JudgedAccount, error) {
	return s.recentEvidence(ctx, "judged accounts", "f.rated = 1", since, limit)
}

// FlaggedAccounts returns the accounts with flagged fair-play evidence
// computed since since and after their last resolution, at most limit:
// the detectors' reports to file. Bot accounts, engines by design, are
// left out.
func (s *Store) FlaggedAccounts(ctx context.Context, since time.Time, limit int) ([]int64, error) {
	js, err := s.recentEvidence(ctx, "flagged accounts", "f.flag = 1", since, limit)
	ids := make([]int64, len(js))
	for i, j := range js {
		ids[i] = j.UserID
	}
	return ids, err
}

// recentEvidence returns the accounts, bots left out, with fair-play rows
// that meet where (a constant condition on f, never the client's text)
// computed since since and after their last resolution, at most limit, the
// most recent first; what names the query in its errors.
func (s *Store) recentEvidence(ctx context.Context, what, where string, since time.Time, limit int) ([]JudgedAccount, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT f.user_id, COALESCE(MAX(a.resolved_ms), 0) FROM fairplay f
		JOIN users u ON u.id = f.user_id LEFT JOIN mod_accounts a ON a.user_id = f.user_id
		WHERE `+where+` AND u.bot = 0 AND f.computed_ms > $1 AND f.computed_ms > COALESCE(a.resolved_ms, 0)
		GROUP BY f.user_id ORDER BY MAX(f.computed_ms) DESC LIMIT $2`, ms(since), limit)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []JudgedAccount
	for rows.Next() {
		var j JudgedAccount
		var resolved int64
		if err := rows.Scan(&j.UserID, &resolved); err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		if resolved > 0 {
			j.Resolved = fromMS(resolved)
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}

// RecentRatedPlayers returns the accounts that finished rated games since
// since, at most limit: the sandbagging detector's accounts to look at.
func (s *Store) RecentRatedPlayers(ctx context.Context, since time.Time, limit int) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT u FROM (
		SELECT white_user_id AS u, ended_ms FROM games WHERE rated = 1 AND status = 'ended' AND ended_ms > $1 AND white_user_id IS NOT NULL
		UNION ALL
		SELECT black_user_id AS u, ended_ms FROM games WHERE rated = 1 AND status = 'ended' AND ended_ms > $1 AND black_user_id IS NOT NULL
		) p GROUP BY u ORDER BY MAX(ended_ms) DESC LIMIT $2`, ms(since), limit)
	if err != nil {
		return nil, fmt.Errorf("store: recent rated players: %w", err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// RatedGamesOf returns an account's finished rated games, the newest
// first, at most limit.
func (s *Store) RatedGamesOf(ctx context.Context, userID int64, limit int) ([]Game, error) {
	return s.queryGames(ctx, `WHERE (g.white_user_id = $1 OR g.black_user_id = $1) AND g.rated = 1 AND g.status = 'ended'
		ORDER BY g.ended_ms DESC, g.id LIMIT $2`, userID, limit)
}
