package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/explorer"
)

// openingPlies is how many plies of a game the archive's search by
// opening sees.
const openingPlies = 20

// Opening returns the opening column of moves: the first openingPlies
// holes, each followed by a space ("7 3 2 "), so that a prefix of the
// holes is a prefix of the text.
func Opening(moves []toguz.Move) string {
	var b strings.Builder
	for i, m := range moves {
		if i == openingPlies {
			break
		}
		b.WriteString(strconv.Itoa(int(m)))
		b.WriteByte(' ')
	}
	return b.String()
}

// Import is a game read from a record, to be stored in the archive.
type Import struct {
	Players     [2]string // the names the record gives White and Black ("" when none)
	Rules       toguz.Rules
	StartFEN    string // "" for the start position of Rules
	Moves       []toguz.Move
	Result      toguz.Result
	Termination toguz.Termination
	Date        time.Time // when it was played, from the record; zero when it does not say
	// Tags are the record's tag pairs, given back by its export.
	Tags []toguz.Tag
}

// Hash returns the canonical hash of the game: its ruleset, start
// position and moves, and its players and date when the record gives them.
// The same game imported twice, from any format, has the same hash.
func (im Import) Hash() string {
	var b strings.Builder
	b.WriteString("toguz-import-1\n")
	b.WriteString(im.Rules.String())
	b.WriteByte('\n')
	b.WriteString(im.StartFEN)
	b.WriteByte('\n')
	for _, m := range im.Moves {
		b.WriteString(strconv.Itoa(int(m)))
		b.WriteByte(' ')
	}
	for _, p := range im.Players {
		b.WriteByte('\n')
		b.WriteString(strconv.Quote(strings.TrimSpace(p)))
	}
	b.WriteByte('\n')
	if !im.Date.IsZero() {
		b.WriteString(im.Date.UTC().Format(time.DateOnly))
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Stored is what ImportGames did with one game: its id, and whether the
// archive held it already (then ID is the first import's).
type Stored struct {
	ID        string
	Duplicate bool
}

// QuotaError is ImportGames' refusal of games beyond what one importer may
// store in a day; nothing of the import was stored.
type QuotaError struct {
	Limit  int // games an importer may store in 24 hours
	Stored int // games it stored in the last 24 hours
	New    int // games the import would have added
}

func (e *QuotaError) Error() string {
	return fmt.Sprintf("store: import of %d new games refused: %d stored in the last 24 hours, at most %d a day", e.New, e.Stored, e.Limit)
}

// ImportGames stores the games of one import in one transaction: all or
// none. A game whose hash is stored already (by anyone, or earlier in the
// same import) is not stored again: its Stored names the first. by names
// the importer ("u:<id>" for an account, "a:<address>" otherwise); an
// importer may store at most perDay new games in 24 hours (perDay <= 0:
// no bound), beyond which the whole import is refused with a *QuotaError.
func (s *Store) ImportGames(ctx context.Context, by string, perDay int, games []Import) ([]Stored, error) {
	now := s.now().UTC().Truncate(time.Millisecond)
	type prepared struct {
		Import
		id, hash, tags, holes string
	}
	ps := make([]prepared, len(games))
	for i, im := range games {
		for _, m := range im.Moves {
			if m < 1 || m > 9 {
				return nil, fmt.Errorf("store: import game %d: hole %d out of range 1..9", i+1, m)
			}
		}
		id, err := s.newID()
		if err != nil {
			return nil, err
		}
		tags := ""
		if len(im.Tags) > 0 {
			b, err := json.Marshal(im.Tags)
			if err != nil {
				return nil, fmt.Errorf("store: import game %d: tags: %w", i+1, err)
			}
			tags = string(b)
		}
		ints := make([]int, len(im.Moves)) // not []Move: a []uint8 is written as base64
		for k, m := range im.Moves {
			ints[k] = int(m)
		}
		holes, err := json.Marshal(ints)
		if err != nil {
			return nil, fmt.Errorf("store: import game %d: moves: %w", i+1, err)
		}
		ps[i] = prepared{Import: im, id: id, hash: im.Hash(), tags: tags, holes: string(holes)}
	}
	out := make([]Stored, len(games))
	err := s.write(ctx, func(tx *sql.Tx) error {
		// Each statement prepared once for the import's up to 1,000 games.
		var stmts [3]*sql.Stmt
		for k, q := range [...]string{sqlImportedHash, sqlImportGame, s.dialect(sqlImportMoves, sqlImportMovesPG)} {
			st, err := tx.PrepareContext(ctx, q)
			if err != nil {
				return fmt.Errorf("store: import: %w", err)
			}
			defer st.Close()
			stmts[k] = st
		}
		byHash, insertGame, insertMoves := stmts[0], stmts[1], stmts[2]
		added := 0
		for i, p := range ps {
			var first string
			err := byHash.QueryRowContext(ctx, p.hash).Scan(&first)
			switch {
			case err == nil:
				out[i] = Stored{ID: first, Duplicate: true}
				continue
			case !errors.Is(err, sql.ErrNoRows):
				return fmt.Errorf("store: import: %w", err)
			}
			date, ended := ms(p.Date), ms(p.Date)
			if ended == 0 {
				ended = ms(now)
			}
			_, err = insertGame.ExecContext(ctx, p.id, p.Players[0], p.Players[1], p.Rules.String(), p.StartFEN, clock.TimeControl{}.String(),
				p.Result.String(), p.Termination.String(), ms(now), ended, p.hash, by,
				date, nameKey(p.Players[0]), nameKey(p.Players[1]), Opening(p.Moves), p.tags)
			if unique, _ := constraint(err); unique {
				return fmt.Errorf("game %s: id taken: %w", p.id, ErrConflict)
			}
			if err != nil {
				return fmt.Errorf("store: import: %w", err)
			}
			// All the moves of a game in one statement, from a JSON array:
			// a statement per move made a large import hold the one writer
			// (and every live game's moves behind it) several times longer.
			if len(p.Moves) > 0 {
				if _, err := insertMoves.ExecContext(ctx, p.id, p.holes); err != nil {
					return fmt.Errorf("store: import: moves of %s: %w", p.id, err)
				}
			}
			if p.Result != toguz.NoResult {
				g := Game{ID: p.id, Rules: p.Rules, StartFEN: p.StartFEN}
				start, err := startPosition(g)
				if err != nil {
					return err
				}
				err = s.addExplorer(ctx, tx, explorerGame{id: p.id, start: start, moves: p.Moves, result: p.Result,
					dateMS: ms(p.Date), month: explorer.Month(p.Date)})
				if err != nil {
					return err
				}
			}
			out[i] = Stored{ID: p.id}
			added++
		}
		if perDay > 0 && added > 0 {
			// Counted after the inserts, inside the transaction: two imports
			// of one importer at once cannot both pass.
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE imported_by = $1 AND created_ms > $2`,
				by, ms(now.Add(-24*time.Hour))).Scan(&n); err != nil {
				return fmt.Errorf("store: import: %w", err)
			}
			if n > perDay {
				return &QuotaError{Limit: perDay, Stored: n - added, New: added}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// The statements of ImportGames.
const (
	sqlImportedHash = `SELECT id FROM games WHERE import_hash = $1`
	sqlImportGame   = `INSERT INTO games (id, white_name, black_name, rules, start_fen, time_control,
		status, result, termination, created_ms, started_ms, ended_ms, source, import_hash, imported_by,
		date_ms, white_key, black_key, opening, tags)
		VALUES ($1, $2, $3, $4, $5, $6, 'ended', $7, $8, $9, $9, $10, 'import', $11, $12, $13, $14, $15, $16, $17)`
	sqlImportMoves = `INSERT INTO moves (game_id, ply, hole, played_ms, clock_ms)
		SELECT $1, key + 1, value, 0, -1 FROM json_each($2)`
	sqlImportMovesPG = `INSERT INTO moves (game_id, ply, hole, played_ms, clock_ms)
		SELECT $1, o.n, o.v::integer, 0, -1 FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS o (v, n)`
)

// Tags returns the tags an imported game's record had (none for a played game).
func (s *Store) Tags(ctx context.Context, id string) ([]toguz.Tag, error) {
	var text string
	err := s.r.QueryRowContext(ctx, `SELECT tags FROM games WHERE id = $1`, id).Scan(&text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, fmt.Errorf("game %q: %w", id, ErrNotFound)
	case err != nil:
		return nil, fmt.Errorf("store: tags of %s: %w", id, err)
	case text == "":
		return nil, nil
	}
	var tags []toguz.Tag
	if err := json.Unmarshal([]byte(text), &tags); err != nil {
		return nil, fmt.Errorf("store: tags of %s are corrupt: %w", id, err)
	}
	return tags, nil
}

// Search is a query of the archive: the finished games (played here or
// imported) that match every filter set.
type Search struct {
	Player   string        // a player's name, either side, in any case ("" : any)
	From, To time.Time     // the date in [From, To) (zero: unbounded)
	Result   *toguz.Result // nil: any
	Rules    *toguz.Rules  // nil: any
	Opening  []toguz.Move  // the first moves (at most openingPlies are compared)
	Source   Source        // "" : both
	Limit    int           // games per page (1..MaxSearchLimit)
	Offset   int           // games skipped (at most MaxSearchOffset)
}

// The bounds of a search: a page holds at most MaxSearchLimit games and
// starts at most MaxSearchOffset games in, so that no query reads far.
const (
	MaxSearchLimit  = 100
	MaxSearchOffset = 10000
)

// SearchGames returns a page of the games that match q, the most recently
// played first (the same date: the greater id first), and whether more
// follow. Each filter has its index; filters that match few of the games
// an index gives read many of them, so callers bound the search's time
// with ctx.
func (s *Store) SearchGames(ctx context.Context, q Search) ([]Game, bool, error) {
	where, args, err := searchSQL(q)
	if err != nil {
		return nil, false, err
	}
	gs, err := s.queryGames(ctx, where, args...)
	if err != nil {
		return nil, false, err
	}
	if len(gs) > q.Limit {
		return gs[:q.Limit], true, nil
	}
	return gs, false, nil
}

// searchSQL returns the WHERE, ORDER BY and LIMIT of q and their arguments.
func searchSQL(q Search) (string, []any, error) {
	if q.Limit < 1 || q.Limit > MaxSearchLimit {
		return "", nil, fmt.Errorf("store: search: limit %d out of 1..%d", q.Limit, MaxSearchLimit)
	}
	if q.Offset < 0 || q.Offset > MaxSearchOffset {
		return "", nil, fmt.Errorf("store: search: offset %d out of 0..%d", q.Offset, MaxSearchOffset)
	}
	where := []string{`g.status = 'ended'`}
	var args []any
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if p := strings.TrimSpace(q.Player); p != "" {
		k := arg(nameKey(p))
		// An account's games name it by id, a guest's or an imported
		// game's by name: either matches, on either side.
		// Each term repeats status = 'ended' so that it alone can use
		// its partial index (the OR is planned as a union of lookups).
		// A closed account's old name finds none of its games.
		u := `(SELECT id FROM users WHERE name_key = ` + k + ` AND id NOT IN (SELECT user_id FROM closed_accounts))`
		where = append(where, `((g.white_key = `+k+` AND g.status = 'ended') OR (g.black_key = `+k+` AND g.status = 'ended')`+
			` OR (g.white_user_id = `+u+` AND g.status = 'ended') OR (g.black_user_id = `+u+` AND g.status = 'ended'))`)
	}
	if !q.From.IsZero() {
		where = append(where, `g.date_ms >= `+arg(ms(q.From)))
	}
	if !q.To.IsZero() {
		where = append(where, `g.date_ms < `+arg(ms(q.To)), `g.date_ms > 0`)
	}
	if q.Result != nil {
		where = append(where, `g.result = `+arg(q.Result.String()))
	}
	if q.Rules != nil {
		where = append(where, `g.rules = `+arg(q.Rules.String()))
	}
	switch p := Opening(q.Opening); {
	case len(q.Opening) >= 3:
		// A long prefix is rare: a range of the index on opening
		// ("7 3 2 " <= opening < "7 3 2!") finds its few games.
		where = append(where, `g.opening >= `+arg(p), `g.opening < `+arg(p[:len(p)-1]+"!"))
	case len(q.Opening) > 0:
		// One or two moves match a game in 9 or 81: reading the games in
		// date order finds a page soonest, so the test is one no index
		// serves.
		where = append(where, `substr(g.opening, 1, `+arg(len(p))+`) = `+arg(p))
	}
	if q.Source != "" {
		where = append(where, `g.source = `+arg(string(q.Source)))
	}
	return `WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY g.date_ms DESC, g.id DESC LIMIT ` + arg(q.Limit+1) + ` OFFSET ` + arg(q.Offset), args, nil
}
