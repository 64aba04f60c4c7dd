package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The federations' register (internal/federation gives the rows their
// meaning; migration 00027). Dates are ISO days, "YYYY-MM-DD".

// Federation is a body of the register with its configuration as the
// federation package writes it (JSON).
type Federation struct {
	Code    string
	Level   string // world, national, regional
	Parent  string // "" none
	Names   string // JSON: language → name
	Founded int
	Ranks   string // JSON, "" the defaults
	Rules   string // JSON, "" the defaults
	Created time.Time
}

// FedClub is a club of a federation.
type FedClub struct {
	Federation, Code, Name, City string
}

// FedPlayer is a register entry.
type FedPlayer struct {
	ID         string
	Federation string
	NameCyrl   string
	NameLatn   string
	BirthYear  int
	Sex        string
	Club       string
	Title      string
	UserID     int64 // the linked account, 0 none
	Created    time.Time
}

// FedRank is a rank a player holds: when and by which event.
type FedRank struct {
	Player, Rank, Awarded, Event string
}

// FedReport is an event's report as submitted.
type FedReport struct {
	Federation, Event, Discipline, Name string
	StartDay, EndDay                    string
	Arbiter                             int64
	Games                               string // JSON
	Version                             int
	Submitted                           time.Time
}

// FedList is a published rating list.
type FedList struct {
	Federation, Discipline, Day string
	Imported                    bool
	Published                   time.Time
}

// FedListEntry is a player's line of a list.
type FedListEntry struct {
	Federation, Discipline, Day, Player string
	Rating, Change, Period, Games, K    int
	Reached                             bool
}

// FedPlayerFilter selects register entries; zero fields select all.
type FedPlayerFilter struct {
	Federation string
	Club       string
	Sex        string
	Rank       string // holds this rank
	BornFrom   int    // birth year at least
	BornTo     int    // birth year at most
	Query      string // a part of an id or a name, any case of Latin letters
	Limit      int    // at most; 0: 100
	Offset     int
}

// ErrPublished is returned for a list already published: a published list
// never changes.
var ErrPublished = errors.New("store: the list is already published")

// PutFederation creates or updates a federation (its names, level,
// parent and founding year; not its configuration: SetFederationConfig).
func (s *Store) PutFederation(ctx context.Context, f Federation) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_federations (code, level, parent, names, founded, ranks, rules, created_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (code) DO UPDATE SET level = excluded.level, parent = excluded.parent, names = excluded.names,
				founded = excluded.founded`,
			f.Code, f.Level, f.Parent, f.Names, f.Founded, f.Ranks, f.Rules, ms(s.now()))
		return err
	})
}

// SetFederationConfig replaces a federation's ranks and rating rules.
func (s *Store) SetFederationConfig(ctx context.Context, code, ranks, rules string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE fed_federations SET ranks = $2, rules = $3 WHERE code = $1`, code, ranks, rules)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("federation %q: %w", code, ErrNotFound)
		}
		return nil
	})
}

const fedCols = `code, level, parent, names, founded, ranks, rules, created_ms`

func scanFederation(sc interface{ Scan(...any) error }) (Federation, error) {
	var f Federation
	var created int64
	err := sc.Scan(&f.Code, &f.Level, &f.Parent, &f.Names, &f.Founded, &f.Ranks, &f.Rules, &created)
	f.Created = fromMS(created)
	return f, err
}

// FederationByCode returns a federation, or ErrNotFound.
func (s *Store) FederationByCode(ctx context.Context, code string) (Federation, error) {
	f, err := scanFederation(s.r.QueryRowContext(ctx, `SELECT `+fedCols+` FROM fed_federations WHERE code = $1`, code))
	if errors.Is(err, sql.ErrNoRows) {
		return Federation{}, fmt.Errorf("federation %q: %w", code, ErrNotFound)
	}
	return f, err
}

// Federations returns every federation by code.
func (s *Store) Federations(ctx context.Context) ([]Federation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+fedCols+` FROM fed_federations ORDER BY code`)
	if err != nil {
		return nil, fmt.Errorf("store: federations: %w", err)
	}
	defer rows.Close()
	var out []Federation
	for rows.Next() {
		f, err := scanFederation(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// SetFedOfficer grants (on) or revokes account userID's office in a
// federation.
func (s *Store) SetFedOfficer(ctx context.Context, code string, userID int64, on bool) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if !on {
			_, err := tx.ExecContext(ctx, `DELETE FROM fed_officers WHERE federation = $1 AND user_id = $2`, code, userID)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_officers (federation, user_id, granted_ms) VALUES ($1, $2, $3)
			ON CONFLICT (federation, user_id) DO NOTHING`, code, userID, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("federation %q or user %d: %w", code, userID, ErrNotFound)
		}
		return err
	})
}

// FedOfficers returns the accounts (id, name) of a federation's officers,
// by name.
func (s *Store) FedOfficers(ctx context.Context, code string) ([]User, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT u.id, u.name FROM fed_officers o JOIN users u ON u.id = o.user_id
		WHERE o.federation = $1 ORDER BY u.name`, code)
	if err != nil {
		return nil, fmt.Errorf("store: officers of %q: %w", code, err)
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Name); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// FedOffices returns the codes of the federations account userID is an
// officer of.
func (s *Store) FedOffices(ctx context.Context, userID int64) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT federation FROM fed_officers WHERE user_id = $1 ORDER BY federation`, userID)
	if err != nil {
		return nil, fmt.Errorf("store: offices of %d: %w", userID, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// PutFedClub creates or renames a club.
func (s *Store) PutFedClub(ctx context.Context, c FedClub) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_clubs (federation, code, name, city) VALUES ($1, $2, $3, $4)
			ON CONFLICT (federation, code) DO UPDATE SET name = excluded.name, city = excluded.city`,
			c.Federation, c.Code, c.Name, c.City)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("federation %q: %w", c.Federation, ErrNotFound)
		}
		return err
	})
}

// FedClubs returns a federation's clubs by name.
func (s *Store) FedClubs(ctx context.Context, code string) ([]FedClub, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT federation, code, name, city FROM fed_clubs WHERE federation = $1 ORDER BY name`, code)
	if err != nil {
		return nil, fmt.Errorf("store: clubs of %q: %w", code, err)
	}
	defer rows.Close()
	var out []FedClub
	for rows.Next() {
		var c FedClub
		if err := rows.Scan(&c.Federation, &c.Code, &c.Name, &c.City); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func putFedPlayerTx(ctx context.Context, tx *sql.Tx, p FedPlayer, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO fed_players (id, federation, name_cyrl, name_latn, birth_year, sex, club, title, created_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (id) DO UPDATE SET federation = excluded.federation, name_cyrl = excluded.name_cyrl,
			name_latn = excluded.name_latn, birth_year = excluded.birth_year, sex = excluded.sex, club = excluded.club,
			title = excluded.title`,
		p.ID, p.Federation, p.NameCyrl, p.NameLatn, p.BirthYear, p.Sex, p.Club, p.Title, ms(now))
	if _, fk := constraint(err); fk {
		return fmt.Errorf("player %s: federation %q: %w", p.ID, p.Federation, ErrNotFound)
	}
	return err
}

// PutFedPlayer creates or updates a register entry (not its linked
// account: LinkFedPlayer).
func (s *Store) PutFedPlayer(ctx context.Context, p FedPlayer) error {
	return s.write(ctx, func(tx *sql.Tx) error { return putFedPlayerTx(ctx, tx, p, s.now()) })
}

const fedPlayerCols = `p.id, p.federation, p.name_cyrl, p.name_latn, p.birth_year, p.sex, p.club, p.title, p.user_id, p.created_ms`

func scanFedPlayer(sc interface{ Scan(...any) error }) (FedPlayer, error) {
	var p FedPlayer
	var created int64
	err := sc.Scan(&p.ID, &p.Federation, &p.NameCyrl, &p.NameLatn, &p.BirthYear, &p.Sex, &p.Club, &p.Title, &p.UserID, &created)
	p.Created = fromMS(created)
	return p, err
}

// FedPlayerByID returns a register entry, or ErrNotFound.
func (s *Store) FedPlayerByID(ctx context.Context, id string) (FedPlayer, error) {
	p, err := scanFedPlayer(s.r.QueryRowContext(ctx, `SELECT `+fedPlayerCols+` FROM fed_players p WHERE p.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return FedPlayer{}, fmt.Errorf("player %q: %w", id, ErrNotFound)
	}
	return p, err
}

// FedPlayerOfUser returns the entry linked to account userID, or
// ErrNotFound.
func (s *Store) FedPlayerOfUser(ctx context.Context, userID int64) (FedPlayer, error) {
	p, err := scanFedPlayer(s.r.QueryRowContext(ctx, `SELECT `+fedPlayerCols+` FROM fed_players p WHERE p.user_id = $1`, userID))
	if errors.Is(err, sql.ErrNoRows) || userID == 0 {
		return FedPlayer{}, fmt.Errorf("player of user %d: %w", userID, ErrNotFound)
	}
	return p, err
}

// FedPlayers returns the entries f selects, by Latin name, and how many
// it selects in all.
func (s *Store) FedPlayers(ctx context.Context, f FedPlayerFilter) ([]FedPlayer, int, error) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, strings.ReplaceAll(cond, "?", fmt.Sprintf("$%d", len(args))))
	}
	if f.Federation != "" {
		add("p.federation = ?", f.Federation)
	}
	if f.Club != "" {
		add("p.club = ?", f.Club)
	}
	if f.Sex != "" {
		add("p.sex = ?", f.Sex)
	}
	if f.BornFrom > 0 {
		add("p.birth_year >= ?", f.BornFrom)
	}
	if f.BornTo > 0 {
		add("p.birth_year <= ? AND p.birth_year > 0", f.BornTo)
	}
	if f.Rank != "" {
		add("EXISTS (SELECT 1 FROM fed_player_ranks r WHERE r.player = p.id AND r.rank = ?)", f.Rank)
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		// SQLite's LOWER folds only ASCII letters: a Cyrillic name is also
		// matched as typed and with its first letter a capital.
		esc := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`)
		var forms []string
		for _, v := range []string{strings.ToLower(q), q, capitalize(q)} {
			if !slices.Contains(forms, v) {
				forms = append(forms, v)
			}
		}
		var ors []string
		for i, v := range forms {
			args = append(args, "%"+esc.Replace(v)+"%")
			n := fmt.Sprintf("$%d", len(args))
			if i == 0 {
				ors = append(ors, "LOWER(p.id) LIKE "+n+` ESCAPE '\'`, "LOWER(p.name_latn) LIKE "+n+` ESCAPE '\'`)
			}
			ors = append(ors, "p.name_cyrl LIKE "+n+` ESCAPE '\'`)
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM fed_players p`+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: counting players: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+fedPlayerCols+` FROM fed_players p`+cond+
		fmt.Sprintf(` ORDER BY p.name_latn, p.id LIMIT %d OFFSET %d`, limit, max(f.Offset, 0)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: players: %w", err)
	}
	defer rows.Close()
	var out []FedPlayer
	for rows.Next() {
		p, err := scanFedPlayer(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, p)
	}
	return out, total, rows.Err()
}

// AwardFedRank records that player holds rank since awarded, earned at
// event ("" none); a rank awarded again keeps its latest date.
func (s *Store) AwardFedRank(ctx context.Context, r FedRank) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_player_ranks (player, rank, awarded, event) VALUES ($1, $2, $3, $4)
			ON CONFLICT (player, rank) DO UPDATE SET awarded = excluded.awarded, event = excluded.event`,
			r.Player, r.Rank, r.Awarded, r.Event)
		if _, fk := constraint(err); fk {
			return fmt.Errorf("player %q: %w", r.Player, ErrNotFound)
		}
		return err
	})
}

// RevokeFedRank removes a rank from a player's record.
func (s *Store) RevokeFedRank(ctx context.Context, player, rank string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM fed_player_ranks WHERE player = $1 AND rank = $2`, player, rank)
		return err
	})
}

// FedRanks returns the ranks of the given players (all players' of a
// federation when players is empty and federation is not), by date.
func (s *Store) FedRanks(ctx context.Context, federation string, players ...string) ([]FedRank, error) {
	q := `SELECT r.player, r.rank, r.awarded, r.event FROM fed_player_ranks r JOIN fed_players p ON p.id = r.player`
	var args []any
	if len(players) > 0 {
		ph := make([]string, len(players))
		for i, p := range players {
			args = append(args, p)
			ph[i] = fmt.Sprintf("$%d", i+1)
		}
		q += ` WHERE r.player IN (` + strings.Join(ph, ", ") + `)`
	} else {
		args = append(args, federation)
		q += ` WHERE p.federation = $1`
	}
	rows, err := s.r.QueryContext(ctx, q+` ORDER BY r.awarded, r.player`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: ranks: %w", err)
	}
	defer rows.Close()
	var out []FedRank
	for rows.Next() {
		var r FedRank
		if err := rows.Scan(&r.Player, &r.Rank, &r.Awarded, &r.Event); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ClaimFedPlayer records account userID's claim to be player.
func (s *Store) ClaimFedPlayer(ctx context.Context, player string, userID int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_claims (player, user_id, created_ms) VALUES ($1, $2, $3)
			ON CONFLICT (player, user_id) DO NOTHING`, player, userID, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("player %q or user %d: %w", player, userID, ErrNotFound)
		}
		return err
	})
}

// FedClaim is an account's claim to a register entry.
type FedClaim struct {
	Player   string
	UserID   int64
	UserName string
	Created  time.Time
}

// FedClaims returns the open claims to a federation's players, oldest
// first.
func (s *Store) FedClaims(ctx context.Context, federation string) ([]FedClaim, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.player, c.user_id, u.name, c.created_ms FROM fed_claims c
		JOIN fed_players p ON p.id = c.player JOIN users u ON u.id = c.user_id
		WHERE p.federation = $1 ORDER BY c.created_ms, c.player`, federation)
	if err != nil {
		return nil, fmt.Errorf("store: claims of %q: %w", federation, err)
	}
	defer rows.Close()
	var out []FedClaim
	for rows.Next() {
		var c FedClaim
		var created int64
		if err := rows.Scan(&c.Player, &c.UserID, &c.UserName, &created); err != nil {
			return nil, err
		}
		c.Created = fromMS(created)
		out = append(out, c)
	}
	return out, rows.Err()
}

// DecideFedClaim approves (links the entry to the account and drops every
// other claim to the entry and of the account) or rejects a claim.
// ErrNotFound: no such claim; ErrConflict: the entry or the account is
// already linked.
func (s *Store) DecideFedClaim(ctx context.Context, player string, userID int64, approve bool) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM fed_claims WHERE player = $1 AND user_id = $2`, player, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("claim of user %d to %q: %w", userID, player, ErrNotFound)
		}
		if !approve {
			return nil
		}
		res, err = tx.ExecContext(ctx, `UPDATE fed_players SET user_id = $2 WHERE id = $1 AND user_id = 0`, player, userID)
		if unique, _ := constraint(err); unique {
			return fmt.Errorf("user %d is linked to another entry: %w", userID, ErrConflict)
		}
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("player %q is linked to another account: %w", player, ErrConflict)
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM fed_claims WHERE player = $1 OR user_id = $2`, player, userID)
		return err
	})
}

// UnlinkFedPlayer removes the link of an entry to its account.
func (s *Store) UnlinkFedPlayer(ctx context.Context, player string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE fed_players SET user_id = 0 WHERE id = $1`, player)
		return err
	})
}

// SubmitFedReport keeps an event's report; a report of the same event and
// discipline replaces the earlier one as its next version.
func (s *Store) SubmitFedReport(ctx context.Context, r FedReport) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_reports (federation, event, discipline, name, start_day, end_day, arbiter, games, version, submitted_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9)
			ON CONFLICT (federation, event, discipline) DO UPDATE SET name = excluded.name, start_day = excluded.start_day,
				end_day = excluded.end_day, arbiter = excluded.arbiter, games = excluded.games,
				version = fed_reports.version + 1, submitted_ms = excluded.submitted_ms`,
			r.Federation, r.Event, r.Discipline, r.Name, r.StartDay, r.EndDay, r.Arbiter, r.Games, ms(s.now()))
		if _, fk := constraint(err); fk {
			return fmt.Errorf("federation %q: %w", r.Federation, ErrNotFound)
		}
		return err
	})
}

// FedReports returns a federation's reports of a discipline that ended on
// or after from and before to ("" no bound), by end day.
func (s *Store) FedReports(ctx context.Context, federation, discipline, from, to string) ([]FedReport, error) {
	if to == "" {
		to = "9999-12-31"
	}
	rows, err := s.r.QueryContext(ctx, `SELECT federation, event, discipline, name, start_day, end_day, arbiter, games, version, submitted_ms
		FROM fed_reports WHERE federation = $1 AND discipline = $2 AND end_day >= $3 AND end_day < $4
		ORDER BY end_day, event`, federation, discipline, from, to)
	if err != nil {
		return nil, fmt.Errorf("store: reports of %q: %w", federation, err)
	}
	defer rows.Close()
	var out []FedReport
	for rows.Next() {
		var r FedReport
		var sub int64
		if err := rows.Scan(&r.Federation, &r.Event, &r.Discipline, &r.Name, &r.StartDay, &r.EndDay, &r.Arbiter, &r.Games, &r.Version, &sub); err != nil {
			return nil, err
		}
		r.Submitted = fromMS(sub)
		out = append(out, r)
	}
	return out, rows.Err()
}

// PublishFedList stores a list with its entries and, in the same
// transaction, the register entries given (an imported list's players).
// ErrPublished: a list of that federation, discipline and day exists.
func (s *Store) PublishFedList(ctx context.Context, l FedList, players []FedPlayer, entries []FedListEntry) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		now := s.now()
		for _, p := range players {
			if err := putFedPlayerTx(ctx, tx, p, now); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO fed_lists (federation, discipline, day, imported, published_ms) VALUES ($1, $2, $3, $4, $5)`,
			l.Federation, l.Discipline, l.Day, boolInt(l.Imported), ms(now))
		if unique, fk := constraint(err); unique {
			return fmt.Errorf("%s %s %s: %w", l.Federation, l.Discipline, l.Day, ErrPublished)
		} else if fk {
			return fmt.Errorf("federation %q: %w", l.Federation, ErrNotFound)
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			_, err := tx.ExecContext(ctx, `INSERT INTO fed_list_entries (federation, discipline, day, player, rating, change, period, games, k, reached)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				l.Federation, l.Discipline, l.Day, e.Player, e.Rating, e.Change, e.Period, e.Games, e.K, boolInt(e.Reached))
			if err != nil {
				return fmt.Errorf("entry %s: %w", e.Player, err)
			}
		}
		return nil
	})
}

// FedLists returns a federation's published lists of a discipline ("" all
// disciplines), newest first.
func (s *Store) FedLists(ctx context.Context, federation, discipline string) ([]FedList, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT federation, discipline, day, imported, published_ms FROM fed_lists
		WHERE federation = $1 AND ($2 = '' OR discipline = $2) ORDER BY day DESC, discipline`, federation, discipline)
	if err != nil {
		return nil, fmt.Errorf("store: lists of %q: %w", federation, err)
	}
	defer rows.Close()
	var out []FedList
	for rows.Next() {
		var l FedList
		var imp int
		var pub int64
		if err := rows.Scan(&l.Federation, &l.Discipline, &l.Day, &imp, &pub); err != nil {
			return nil, err
		}
		l.Imported, l.Published = imp != 0, fromMS(pub)
		out = append(out, l)
	}
	return out, rows.Err()
}

const fedEntryCols = `federation, discipline, day, player, rating, change, period, games, k, reached`

func scanFedEntries(rows *sql.Rows) ([]FedListEntry, error) {
	defer rows.Close()
	var out []FedListEntry
	for rows.Next() {
		var e FedListEntry
		var reached int
		if err := rows.Scan(&e.Federation, &e.Discipline, &e.Day, &e.Player, &e.Rating, &e.Change, &e.Period, &e.Games, &e.K, &reached); err != nil {
			return nil, err
		}
		e.Reached = reached != 0
		out = append(out, e)
	}
	return out, rows.Err()
}

// FedListEntries returns a list's entries, highest rating first.
func (s *Store) FedListEntries(ctx context.Context, federation, discipline, day string) ([]FedListEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+fedEntryCols+` FROM fed_list_entries
		WHERE federation = $1 AND discipline = $2 AND day = $3 ORDER BY rating DESC, player`, federation, discipline, day)
	if err != nil {
		return nil, fmt.Errorf("store: list %s %s %s: %w", federation, discipline, day, err)
	}
	return scanFedEntries(rows)
}

// FedPlayerEntries returns a player's lines in every published list, by
// day then federation and discipline.
func (s *Store) FedPlayerEntries(ctx context.Context, player string) ([]FedListEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+fedEntryCols+` FROM fed_list_entries WHERE player = $1
		ORDER BY day, federation, discipline`, player)
	if err != nil {
		return nil, fmt.Errorf("store: lists of player %q: %w", player, err)
	}
	return scanFedEntries(rows)
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// FedClaimsOf returns how many open claims account userID has.
func (s *Store) FedClaimsOf(ctx context.Context, userID int64) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM fed_claims WHERE user_id = $1`, userID).Scan(&n)
	return n, err
}

// FedPlayersByIDs returns the entries of ids that exist, in no order.
func (s *Store) FedPlayersByIDs(ctx context.Context, ids []string) ([]FedPlayer, error) {
	var out []FedPlayer
	for chunk := range slices.Chunk(ids, 500) {
		ph := make([]string, len(chunk))
		args := make([]any, len(chunk))
		for i, id := range chunk {
			ph[i], args[i] = fmt.Sprintf("$%d", i+1), id
		}
		rows, err := s.r.QueryContext(ctx, `SELECT `+fedPlayerCols+` FROM fed_players p WHERE p.id IN (`+strings.Join(ph, ", ")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("store: players by id: %w", err)
		}
		for rows.Next() {
			p, err := scanFedPlayer(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, p)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}
