package store

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/pgtest"
)

// copyLeftEmpty are the tables TestCopyToPostgres does not fill: each must
// be empty in the source, so that filling one (or adding a table) means
// taking it off this list, and a new table the test does not cover fails
// (explorer_pending is a queue that the commit which fills it empties).
var copyLeftEmpty = []string{
	"broadcast_games", "broadcast_plies", "broadcast_rounds", "broadcasts",
	"class_students", "classes", "event_arbiters", "explorer_pending", "event_entries", "event_log",
	"event_pairings", "event_rounds", "events", "game_leases", "puzzle_attempts",
	"puzzle_players", "puzzle_ratings", "simul_players", "simuls", "study_chapters",
	"study_members", "studies",
	// Events with sections: written whole by package sections.
	"championships",
	// The accounts' tables filled only by their flows (links, changes,
	// devices, the mail queue, second factors' steps), closing, the
	// export, and the moderators' tables besides the role.
	"account_links", "closed_accounts", "data_exports", "email_changes", "known_devices", "mail_queue",
	"mod_accounts", "mod_appeals", "mod_notes", "mod_refunds", "mod_reports", "mod_voided",
	"mod_warnings", "privacy_settings", "recovery_codes", "session_devices", "twofactor_failures", "twofactor_pending",
	// The forum's (its own tests fill them on both databases).
	"forum_categories", "forum_edits", "forum_posts", "forum_reports", "forum_topics",
	// The teams' tables (internal/team's own tests fill them).
	"team_battle_players", "team_battle_teams", "team_battles", "team_invites", "team_match_games", "team_match_players", "team_matches", "team_members", "team_broadcasts", "team_requests", "team_writes", "teams",
	// The federations' register (internal/federation tests it on both databases' schemas).
	"fed_claims", "fed_clubs", "fed_federations", "fed_list_entries", "fed_lists", "fed_officers", "fed_player_ranks",
	"fed_players", "fed_reports",
	// The community's: notices, their choices, push subscriptions, follows, messages.
	"follows", "message_reports", "messages", "notifications", "notify_prefs", "push_subscriptions",
}

// TestCopyToPostgres fills an SQLite store through its API, copies it to
// a PostgreSQL schema, and checks every table's rows equal, that the
// PostgreSQL store serves a copied game, that a new account gets a fresh
// id, and that a second copy into the now full target is refused.
func TestCopyToPostgres(t *testing.T) {
	to := pgtest.Schema(t)
	ctx := t.Context()
	from := filepath.Join(t.TempDir(), "toguz.db")
	s, err := Open(ctx, from, Options{Now: func() time.Time { return t0 }, Reviews: true})
	if err != nil {
		t.Fatal(err)
	}
	a, b := mustUser(t, s, "Abai"), mustUser(t, s, "Bolat")
	tc := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	g := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), TimeControl: tc, Rated: true, Status: game.Playing})
	moves := legalMoves(t, 7, 3, 2, 5)
	for k, m := range moves {
		clk := clock.State{Remaining: [2]time.Duration{time.Minute, 2 * time.Minute}, Turn: toguz.Player((k + 1) % 2), Running: true, Since: t0}
		if err := s.AppendMove(ctx, g.ID, Move{Ply: k + 1, Hole: m, Played: t0.Add(time.Duration(k) * time.Second), Clock: time.Minute}, &clk); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation, At: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	live := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {Name: "Guest-x"}}, Rules: toguz.Standard(), Status: game.Playing})
	importedGames(t, s, 2)
	if err := s.CreateSession(ctx, Session{TokenHash: strings.Repeat("ab", 32), UserID: a.ID, Created: t0, Expires: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkAlive(ctx, t0); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkExercise(ctx, b.ID, "tuzdik-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Secret(ctx, "cookie", func() ([]byte, error) { return []byte{0, 1, 2, 255}, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddReport(ctx, Report{GameID: live.ID, Reporter: fmt.Sprintf("u:%d", a.ID), ReporterName: "Abai", Reported: "Guest-x", Room: "players", Message: "rude"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddToken(ctx, a.ID, "tokenhash", "my bot", []string{"bot:play"}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddOAuthCode(ctx, "codehash", OAuthCode{UserID: b.ID, ClientID: "app", RedirectURI: "https://app.example/cb", Scopes: []string{"board:play"},
		Challenge: "c", Created: t0, Expires: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.RedeemOAuthCode(ctx, "codehash", func(OAuthCode) error { return nil }, AppToken{Hash: "apphash", Expires: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	// The accounts' and fair play's own tables, through their APIs.
	if err := s.PutFairPlay(ctx, game.FairPlay{GameID: g.ID, Side: "white", UserID: a.ID, Rating: 1500, Moves: 30, Agree1: 0.5,
		Agree3: 0.75, MeanLoss: 1.5, Score: 0.25, IPR: 1480, Computed: t0, Rated: true, Deep: 28, AgreeDeep: 0.5, Strength: -0.75}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEmail(ctx, a.ID, "abai@example.org", t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddPasskey(ctx, Passkey{User: a.ID, CredentialID: []byte{1, 2, 3}, Name: "phone", Credential: []byte("{}"), Created: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutTOTP(ctx, b.ID, []byte{9, 8, 7}); err != nil {
		t.Fatal(err)
	}
	if err := s.Block(ctx, b.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.SetModerator(ctx, b.ID, true); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	before, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	var reported []string
	counts, err := CopyToPostgres(ctx, from, to, func(table string, rows int64, done bool) {
		if done {
			reported = append(reported, table)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(from); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the copy changed the source file (%v)", err)
	}
	src := rawDB(t, sqliteBackend, from)
	dst := pgtest.Open(t, to)
	tables, err := sqliteTables(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != len(tables) || len(reported) != len(tables) {
		t.Fatalf("%d tables counted, %d reported, the schema has %d", len(counts), len(reported), len(tables))
	}
	for i, tb := range tables {
		want := tableRows(t, src, tb)
		got := tableRows(t, dst, tb)
		if counts[i].Table != tb.name || counts[i].Rows != int64(len(want)) {
			t.Errorf("count %+v; want %s %d", counts[i], tb.name, len(want))
		}
		if empty := slices.Contains(copyLeftEmpty, tb.name); empty != (len(want) == 0) {
			t.Errorf("table %s has %d rows in the source; on the list of tables left empty: %v (fill it in the test, or list it)", tb.name, len(want), empty)
		}
		if !slices.Equal(got, want) {
			t.Errorf("table %s:\n got %q\nwant %q", tb.name, got, want)
		}
	}

	pg, err := Open(ctx, to, Options{Now: func() time.Time { return t0 }, SessionSweep: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	cg, err := pg.Game(ctx, g.ID)
	if err != nil || cg.Status != game.Ended || cg.Result != toguz.WhiteWins || cg.Plies != len(moves) || cg.Players[0].UserID != a.ID || !cg.Rated {
		t.Errorf("the copied game: %+v, %v", cg, err)
	}
	n := mustUser(t, pg, "Shokan")
	if n.ID <= b.ID {
		t.Errorf("a new account after the copy got id %d; the copied ones are %d and %d", n.ID, a.ID, b.ID)
	}
	if _, err := CopyToPostgres(ctx, from, to, nil); err == nil || !strings.Contains(err.Error(), "already holds rows") {
		t.Errorf("a copy into a full target: %v; want a refusal", err)
	}
}

// tableRows returns the rows of tb's columns in db, each printed, sorted;
// PostgreSQL's INTEGER (int32) prints as SQLite's int64.
func tableRows(t *testing.T, db *sql.DB, tb sqliteTable) []string {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), `SELECT `+quoteIdents(tb.cols)+` FROM `+quoteIdent(tb.name))
	if err != nil {
		t.Fatalf("%s: %v", tb.name, err)
	}
	defer rows.Close()
	vals := make([]any, len(tb.cols))
	ptrs := make([]any, len(tb.cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out []string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("%s: %v", tb.name, err)
		}
		for i, v := range vals {
			switch v := v.(type) {
			case int32:
				vals[i] = int64(v)
			case int16:
				vals[i] = int64(v)
			}
		}
		out = append(out, fmt.Sprintf("%#v", vals))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", tb.name, err)
	}
	slices.Sort(out)
	return out
}

// TestCopyRefusals: CopyToPostgres refuses a source at another schema
// version (naming both), a missing source, a target that is not
// PostgreSQL and a source that is, and leaves the target empty.
func TestCopyRefusals(t *testing.T) {
	to := pgtest.Schema(t)
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	migrateTo(t, sqliteBackend, rawDB(t, sqliteBackend, old), previousVersion(t))
	cur := filepath.Join(dir, "cur.db")
	s, err := Open(t.Context(), cur, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"older source", old, to, fmt.Sprintf("schema version %d, this program's is %d", previousVersion(t), latestVersion(t))},
		{"missing source", filepath.Join(dir, "none.db"), to, "none.db"},
		{"SQLite target", cur, filepath.Join(dir, "x.db"), "not a postgres:// URL"},
		{"PostgreSQL source", to, to, "must be an SQLite file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CopyToPostgres(t.Context(), tc.from, tc.to, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("CopyToPostgres(%s, %s) = %v; want an error with %q", tc.from, tc.to, err, tc.want)
			}
		})
	}
	var users int
	if err := pgtest.Open(t, to).QueryRow(`SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'users'`).Scan(&users); err != nil || users != 0 {
		t.Errorf("the refused copies made the target's tables: %d, %v", users, err)
	}
}
