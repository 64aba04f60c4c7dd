package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// legalMoves plays the holes of want from the start where they are legal
// and the next legal hole where not, so that any pattern gives a game.
func legalMoves(t testing.TB, want ...toguz.Move) []toguz.Move {
	t.Helper()
	p, err := toguz.NewPosition(toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	var out []toguz.Move
	for _, m := range want {
		for k := range toguz.Move(9) {
			try := (m-1+k)%9 + 1
			if q, err := p.Play(try); err == nil {
				p, out = q, append(out, try)
				break
			}
		}
	}
	return out
}

// archiveFixture fills a store with played and imported games whose
// attributes cycle, and returns the ids of the games of each kind.
func archiveFixture(t *testing.T, s *Store) (played, imported []string) {
	t.Helper()
	ctx := t.Context()
	abai := mustUser(t, s, "Abai")
	results := []toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw}
	for i := range 60 {
		g := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: abai.ID}, {Name: fmt.Sprintf("Guest-%d", i%3)}},
			Rules: toguz.Standard(), Status: game.Playing, Created: t0.Add(time.Duration(i) * time.Hour)})
		for k, m := range legalMoves(t, toguz.Move(i%9+1), 3, 2) {
			if err := s.AppendMove(ctx, g.ID, Move{Ply: k + 1, Hole: m}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: results[i%3], Termination: toguz.ByResignation}); err != nil {
			t.Fatal(err)
		}
		played = append(played, g.ID)
	}
	// Not in the archive: a game still played and an aborted one.
	mustGame(t, s, Game{Players: [2]game.Seat{{UserID: abai.ID}, {Name: "x"}}, Rules: toguz.Standard(), Status: game.Playing})
	ab := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: abai.ID}, {Name: "x"}}, Rules: toguz.Standard(), Status: game.Playing})
	if _, err := s.FinishGame(ctx, ab.ID, Finish{Status: game.Aborted}); err != nil {
		t.Fatal(err)
	}
	var ims []Import
	for i := range 240 {
		rules := toguz.Standard()
		if i%4 == 3 {
			rules = toguz.Bestemshe()
		}
		im := Import{Players: [2]string{fmt.Sprintf("Майра %d", i%5), "Бауыржан"}, Rules: rules,
			Result: results[i%3], Termination: toguz.ByKazan, Date: time.Date(2018, time.Month(i%12+1), 1+i/12, 0, 0, 0, 0, time.UTC)}
		if rules == toguz.Standard() {
			im.Moves = legalMoves(t, 7, toguz.Move(i%9+1), 2, toguz.Move(i%7+1))
		} else {
			im.Moves = []toguz.Move{toguz.Move(i%5 + 1)}
		}
		ims = append(ims, im)
	}
	st, err := s.ImportGames(ctx, "a:1.2.3.4", 0, ims)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range st {
		if g.Duplicate {
			t.Fatalf("a duplicate among distinct games: %+v", g)
		}
		imported = append(imported, g.ID)
	}
	return played, imported
}

func TestSearchGames(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		played, imported := archiveFixture(t, s)
		ctx := t.Context()
		draw, bwins := toguz.Draw, toguz.BlackWins
		best := toguz.Bestemshe()
		// all returns every game of q, page by page.
		all := func(q Search) []Game {
			var out []Game
			q.Limit = 37
			for {
				page, more, err := s.SearchGames(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, page...)
				if !more {
					return out
				}
				q.Offset += q.Limit
			}
		}
		for _, tc := range []struct {
			name string
			q    Search
			want int
			each func(Game) bool
		}{
			{"everything", Search{}, 300, nil},
			{"played here", Search{Source: SourcePlay}, 60, func(g Game) bool { return g.Source == SourcePlay }},
			{"imported", Search{Source: SourceImport}, 240, func(g Game) bool { return g.Source == SourceImport }},
			{"account, any case", Search{Player: "aBAI"}, 60, func(g Game) bool { return g.Players[0].Name == "Abai" }},
			{"guest as black", Search{Player: "guest-1"}, 20, func(g Game) bool { return g.Players[1].Name == "Guest-1" }},
			{"imported white, Cyrillic in any case", Search{Player: "МАЙРА 2"}, 48, func(g Game) bool { return g.Players[0].Name == "Майра 2" }},
			{"imported black", Search{Player: "бауыржан"}, 240, nil},
			{"nobody", Search{Player: "nobody"}, 0, nil},
			{"draws", Search{Result: &draw}, 100, func(g Game) bool { return g.Result == toguz.Draw }},
			{"ruleset", Search{Rules: &best}, 60, func(g Game) bool { return g.Rules == best }},
			{"date range", Search{From: time.Date(2018, 3, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2018, 5, 1, 0, 0, 0, 0, time.UTC)}, 40,
				func(g Game) bool { return g.Date.Month() == 3 || g.Date.Month() == 4 }},
			{"from a date", Search{From: t0.Add(50 * time.Hour)}, 10, func(g Game) bool { return !g.Date.Before(t0.Add(50 * time.Hour)) }},
			{"opening 7", Search{Opening: []toguz.Move{7}}, 180 + 6, nil},
			{"opening 7 3 2, played", Search{Opening: []toguz.Move{7, 3, 2}, Source: SourcePlay}, 6, nil},
			{"player and result", Search{Player: "Abai", Result: &bwins}, 20, func(g Game) bool { return g.Result == toguz.BlackWins }},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := all(tc.q)
				if len(got) != tc.want {
					t.Errorf("%d games, want %d", len(got), tc.want)
				}
				for i, g := range got {
					if tc.each != nil && !tc.each(g) {
						t.Errorf("game %s does not match: %+v", g.ID, g)
					}
					if i > 0 && got[i-1].Date.Before(g.Date) {
						t.Errorf("not newest first at %d", i)
					}
				}
				ids := make([]string, len(got))
				for i, g := range got {
					ids[i] = g.ID
				}
				slices.Sort(ids)
				if len(slices.Compact(ids)) != len(got) {
					t.Errorf("a game on two pages")
				}
			})
		}
		// Played games are dated 2026, the imported ones 2018: the newest first.
		if page, _, err := s.SearchGames(ctx, Search{Limit: 1}); err != nil || len(page) != 1 || page[0].ID != played[len(played)-1] {
			t.Errorf("first game %+v, %v; want the last played, %s", page, err, played[len(played)-1])
		}
		if g, err := s.Game(ctx, imported[0]); err != nil || g.Source != SourceImport {
			t.Errorf("imported game %s: %+v, %v", imported[0], g, err)
		}
		for _, bad := range []Search{{Limit: 0}, {Limit: MaxSearchLimit + 1}, {Limit: 10, Offset: -1}, {Limit: 10, Offset: MaxSearchOffset + 1}} {
			if _, _, err := s.SearchGames(ctx, bad); err == nil {
				t.Errorf("SearchGames(%+v): no error", bad)
			}
		}
	})
}

// TestSearchUsesIndexes checks the query plans of the searches: each
// filter is served by an index, never a scan of every game.
//
// SQLite only: PostgreSQL's planner chooses by the table's statistics,
// and the same indexes serve it (migrations/postgres/00003_archive.sql).
func TestSearchUsesIndexes(t *testing.T) {
	s, _ := openTest(t, sqliteBackend)
	best, draw := toguz.Bestemshe(), toguz.Draw
	plan := func(query string, args ...any) string {
		rows, err := s.r.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out strings.Builder
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			out.WriteString(detail + "\n")
		}
		return out.String()
	}
	// ordered: the page is read in date order from the index, without
	// sorting every game that matches.
	for _, tc := range []struct {
		q       Search
		index   []string
		ordered bool
	}{
		{Search{}, []string{"games_archive"}, true},
		{Search{Rules: &best}, []string{"games_rules"}, true},
		{Search{Result: &draw}, []string{"games_result"}, true},
		{Search{Opening: []toguz.Move{7, 3, 2}}, []string{"games_opening"}, false},
		{Search{Opening: []toguz.Move{7, 3}}, []string{"games_archive"}, true},
		{Search{Player: "abai"}, []string{"games_white_key", "games_black_key", "games_white_date", "games_black_date"}, false},
		{Search{From: t0, To: t0.Add(time.Hour)}, []string{"games_archive"}, true},
	} {
		tc.q.Limit = 10
		where, args, err := searchSQL(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		p := plan(`SELECT g.id FROM games g `+where, args...)
		for _, ix := range tc.index {
			if !strings.Contains(p, "INDEX "+ix) {
				t.Errorf("%+v: plan\n%swant index %s", tc.q, p, ix)
			}
		}
		if strings.Contains(p, "SCAN g\n") || (tc.ordered && strings.Contains(p, "TEMP B-TREE")) {
			t.Errorf("%+v: a scan of every game:\n%s", tc.q, p)
		}
	}
	for query, ix := range map[string]string{
		`SELECT id FROM games WHERE imported_by = 'a:x' AND created_ms > 5`: "games_imported_by",
		`SELECT id FROM games g WHERE g.status = 'started'`:                 "games_started",
		`SELECT id FROM games g WHERE g.status = 'created'`:                 "games_created",
	} {
		if p := plan(query); !strings.Contains(p, ix) {
			t.Errorf("%s: plan\n%swant %s", query, p, ix)
		}
	}
}

func TestImportGames(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a := Import{Players: [2]string{"Abai", "Shokan"}, Rules: toguz.Standard(), Moves: legalMoves(t, 7, 3, 2),
			Result: toguz.WhiteWins, Termination: toguz.ByResignation, Date: time.Date(2018, 5, 1, 0, 0, 0, 0, time.UTC),
			Tags: []toguz.Tag{{Name: "Event", Value: "Кубок РК"}}}
		b := a
		b.Date = time.Time{} // a different game: no date
		first, err := s.ImportGames(ctx, "a:x", 0, []Import{a, b, a})
		if err != nil {
			t.Fatal(err)
		}
		if first[0].Duplicate || first[1].Duplicate || !first[2].Duplicate || first[2].ID != first[0].ID || first[1].ID == first[0].ID {
			t.Fatalf("first import: %+v", first)
		}
		again, err := s.ImportGames(ctx, "u:7", 0, []Import{b})
		if err != nil || !again[0].Duplicate || again[0].ID != first[1].ID {
			t.Fatalf("importing again: %+v, %v; want a link to %s", again, err, first[1].ID)
		}
		g, err := s.Game(ctx, first[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Source != SourceImport || g.Status != game.Ended || g.Players[0].Name != "Abai" || g.Plies != 3 || !g.Date.Equal(a.Date) || g.Result != toguz.WhiteWins {
			t.Errorf("stored game: %+v", g)
		}
		moves, _ := s.Moves(ctx, g.ID)
		if len(moves) != 3 || moves[0].Hole != a.Moves[0] {
			t.Errorf("moves: %+v", moves)
		}
		if tags, err := s.Tags(ctx, g.ID); err != nil || len(tags) != 1 || tags[0].Value != "Кубок РК" {
			t.Errorf("tags: %+v, %v", tags, err)
		}
	})
}

func TestImportAllOrNothing(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		good := Import{Players: [2]string{"A", "B"}, Rules: toguz.Standard(), Moves: legalMoves(t, 1)}
		bad := good
		bad.Players[0] = "C"
		bad.Moves = []toguz.Move{10} // fails before anything is written
		if _, err := s.ImportGames(ctx, "a:x", 0, []Import{good, bad}); err == nil {
			t.Fatal("no error")
		}
		// A failure inside the transaction, after the first game's insert: a
		// cancelled context between statements.
		ctx2, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.ImportGames(ctx2, "a:x", 0, []Import{good}); err == nil {
			t.Fatal("cancelled: no error")
		}
		if gs, _, _ := s.SearchGames(ctx, Search{Limit: 10}); len(gs) != 0 {
			t.Errorf("a failed import stored %d games", len(gs))
		}
	})
}

func TestImportQuota(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		var ims []Import
		for i := range 5 {
			ims = append(ims, Import{Players: [2]string{fmt.Sprint(i), "B"}, Rules: toguz.Standard(), Moves: legalMoves(t, 1)})
		}
		if _, err := s.ImportGames(ctx, "a:x", 4, ims[:3]); err != nil {
			t.Fatal(err)
		}
		_, err := s.ImportGames(ctx, "a:x", 4, ims[2:]) // one duplicate, two new: 5 > 4
		var qe *QuotaError
		if !errors.As(err, &qe) || qe.Stored != 3 || qe.New != 2 || qe.Limit != 4 {
			t.Fatalf("over the quota: %v", err)
		}
		if gs, _, _ := s.SearchGames(ctx, Search{Limit: 10}); len(gs) != 3 {
			t.Errorf("the refused import stored something: %d games", len(gs))
		}
		// Duplicates cost nothing; another importer has his own quota.
		if _, err := s.ImportGames(ctx, "a:x", 4, ims[:3]); err != nil {
			t.Errorf("duplicates only: %v", err)
		}
		if _, err := s.ImportGames(ctx, "a:y", 4, ims[3:]); err != nil {
			t.Errorf("another importer: %v", err)
		}
	})
}

func TestSetLang(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		u := mustUser(t, s, "abai")
		if u2, _ := s.UserByID(t.Context(), u.ID); u2.Lang != "" {
			t.Errorf("new account's language %q", u2.Lang)
		}
		if err := s.SetLang(t.Context(), u.ID, "kk"); err != nil {
			t.Fatal(err)
		}
		if u2, _ := s.UserByName(t.Context(), "ABAI"); u2.Lang != "kk" {
			t.Errorf("language %q, want kk", u2.Lang)
		}
		if err := s.SetLang(t.Context(), 999, "kk"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown user: %v", err)
		}
	})
}

// TestMigrationKeepsGames: the archive's migration (3) fills its columns
// for the games stored before it: their date, their players' keys and the
// opening of the finished ones, so that the search finds them.
func TestMigrationKeepsGames(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		path := be.db(t)
		db := rawDB(t, be, path)
		p := newProvider(t, be, db)
		if _, err := p.UpTo(t.Context(), 2); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO games (id, white_name, black_name, rules, time_control, status, result, created_ms) VALUES
			('old00001', 'Guest-ab', 'Engine', 'standard', '-', 'ended', '1-0', 1000),
			('old00002', 'Guest-ab', 'x', 'standard', '-', 'started', '*', 2000)`,
			`INSERT INTO moves (game_id, ply, hole, played_ms) VALUES ('old00001', 2, 3, 1), ('old00001', 1, 7, 1), ('old00001', 3, 2, 1)`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		s, err := Open(t.Context(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		gs, _, err := s.SearchGames(t.Context(), Search{Player: "GUEST-AB", Opening: []toguz.Move{7, 3, 2}, Limit: 10})
		if err != nil || len(gs) != 1 || gs[0].ID != "old00001" || gs[0].Source != SourcePlay || gs[0].Date.UnixMilli() != 1000 {
			t.Errorf("the old finished game found as %+v, %v", gs, err)
		}
		s.Close()
		// Down and up again keeps the games.
		db = rawDB(t, be, path)
		defer db.Close()
		p = newProvider(t, be, db)
		if _, err := p.DownTo(t.Context(), 2); err != nil {
			t.Fatalf("down to 2: %v", err)
		}
		if _, err := p.Up(t.Context()); err != nil {
			t.Fatalf("up again: %v", err)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM games WHERE opening = '7 3 2 '`).Scan(&n); err != nil || n != 1 {
			t.Errorf("after down and up: %d games with their opening, %v", n, err)
		}
	})
}

// BenchmarkSearchGames times the searches of an archive of 50,000
// imported games (go test -bench SearchGames -run ^$ ./internal/store).
func BenchmarkSearchGames(b *testing.B) {
	s, err := Open(b.Context(), filepath.Join(b.TempDir(), "bench.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for batch := range 50 {
		ims := make([]Import, 1000)
		for i := range ims {
			n := batch*1000 + i
			ims[i] = Import{Players: [2]string{fmt.Sprintf("player %d", n%997), fmt.Sprintf("player %d", n%991)}, Rules: toguz.Standard(),
				Moves: legalMoves(b, toguz.Move(1+n%9), toguz.Move(1+n/9%9), toguz.Move(1+n/81%9), toguz.Move(1+n/729%9)), Result: toguz.Result(1 + n%3), Date: time.Date(2000+n%25, time.Month(1+n%12), 1+n%28, 0, 0, 0, 0, time.UTC)}
		}
		if _, err := s.ImportGames(b.Context(), fmt.Sprint("a:", batch), 0, ims); err != nil {
			b.Fatal(err)
		}
	}
	draw, best := toguz.Draw, toguz.Bestemshe()
	for _, bc := range []struct {
		name string
		q    Search
	}{
		{"all", Search{}},
		{"player", Search{Player: "player 5"}},
		{"dates", Search{From: time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2010, 2, 1, 0, 0, 0, 0, time.UTC)}},
		{"result", Search{Result: &draw}},
		{"opening of one move", Search{Opening: []toguz.Move{7}}},
		{"opening of four", Search{Opening: []toguz.Move{7, 3, 2, 5}}},
		{"ruleset, none", Search{Rules: &best}},
		{"player and opening, deep page", Search{Player: "player 5", Opening: []toguz.Move{7}, Offset: 20}},
	} {
		bc.q.Limit = 50
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := s.SearchGames(b.Context(), bc.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
