package store

import (
	"errors"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
)

// latestVersion is the number of the last migration of SQLite's folder.
func latestVersion(t *testing.T) int64 {
	t.Helper()
	names := migrationNames(t, "migrations")
	// The number of the last file, not the count: numbers are handed out
	// to branches ahead of their merge, so a branch may lack some.
	v, err := strconv.ParseInt(strings.SplitN(names[len(names)-1], "_", 2)[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func migrationNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// TestMigrationTwins: PostgreSQL's migrations are the twins of SQLite's,
// the same numbers and names, so that a migration added to one folder
// without the other fails here.
func TestMigrationTwins(t *testing.T) {
	sq, pg := migrationNames(t, "migrations"), migrationNames(t, "migrations/postgres")
	if !slices.Equal(sq, pg) {
		t.Errorf("migrations/ has %v\nmigrations/postgres/ has %v", sq, pg)
	}
}

// TestMigrateFromPrevious opens a database an older server left at the
// previous schema version, with an account, a finished rated game, its
// moves and ratings: Open migrates it to the latest, keeps every row, and
// the store reads and writes it as a new one. Then down one version and
// up again keeps the data too.
func TestMigrateFromPrevious(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		latest := latestVersion(t)
		dsn := be.db(t)
		db := rawDB(t, be, dsn)
		migrateTo(t, be, db, latest-1)
		for _, q := range []string{
			`INSERT INTO users (id, name, name_key, password_hash, created_ms) VALUES (7, 'Abai', 'abai', 'h', 1000), (8, 'Bolat', 'bolat', 'h', 1000)`,
			`INSERT INTO games (id, white_user_id, black_user_id, rules, time_control, rated, status, result, created_ms, date_ms, white_key, black_key)
				VALUES ('old00001', 7, 8, 'standard', '3+2', 1, 'ended', '1-0', 2000, 2000, '', '')`,
			`INSERT INTO moves (game_id, ply, hole, played_ms) VALUES ('old00001', 1, 7, 2001), ('old00001', 2, 3, 2002)`,
			`INSERT INTO ratings (user_id, category, rating, rd, volatility, games, updated_ms) VALUES (7, 'blitz', 1612.5, 80.25, 0.06, 1, 3000)`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		s, err := Open(t.Context(), dsn, Options{Now: func() time.Time { return t0 }})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if v, err := s.SchemaVersion(t.Context()); err != nil || v != latest {
			t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, latest)
		}
		u, err := s.UserByName(t.Context(), "ABAI")
		if err != nil || u.ID != 7 || u.Name != "Abai" {
			t.Errorf("the old account: %+v, %v", u, err)
		}
		g, err := s.Game(t.Context(), "old00001")
		if err != nil || g.Status != game.Ended || g.Result != toguz.WhiteWins || g.Plies != 2 || g.Players[0].UserID != 7 {
			t.Errorf("the old game: %+v, %v", g, err)
		}
		if p, err := s.Perf(t.Context(), 7, rating.Blitz); err != nil || p.Rating.Rating != 1612.5 || p.RD != 80.25 || p.Volatility != 0.06 || p.Games != 1 {
			t.Errorf("the old rating: %+v, %v", p, err)
		}
		// A new account after the old ones whose ids were given: the
		// identity (PostgreSQL) or rowid (SQLite) does not reuse them.
		if n, err := s.CreateUser(t.Context(), "Shokan", "h"); err != nil && !errors.Is(err, ErrConflict) {
			t.Errorf("a new account: %v", err)
		} else if err == nil && (n.ID == 7 || n.ID == 8) {
			t.Errorf("a new account took an old id %d", n.ID)
		}
		s.Close()
		// Down to the previous version and up again.
		db = rawDB(t, be, dsn)
		p := newProvider(t, be, db)
		if _, err := p.DownTo(t.Context(), latest-1); err != nil {
			t.Fatalf("down to %d: %v", latest-1, err)
		}
		if _, err := p.Up(t.Context()); err != nil {
			t.Fatalf("up again: %v", err)
		}
		var n int
		if err := db.QueryRow(`SELECT COUNT(*) FROM moves WHERE game_id = 'old00001'`).Scan(&n); err != nil || n != 2 {
			t.Errorf("after down and up: %d moves, %v", n, err)
		}
	})
}

// TestTwoStoresOneDatabase: two Stores on one PostgreSQL database, as two
// server processes would have, write the same game and the same players'
// ratings at once: exactly one move per ply is stored, no move slips in
// beside a game's end, and no rating update is lost (each FinishGame's read of the ratings and write of the
// new ones is one serialisable transaction).
func TestTwoStoresOneDatabase(t *testing.T) {
	dsn := postgresBackend.db(t)
	ctx := t.Context()
	var stores [2]*Store
	for i := range stores {
		s, err := Open(ctx, dsn, Options{Now: func() time.Time { return t0 }})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	a, b := mustUser(t, stores[0], "abai"), mustUser(t, stores[1], "bolat")
	g := mustGame(t, stores[0], Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), Status: game.Playing})
	for ply := 1; ply <= 20; ply++ {
		var errs [8]error
		var wg sync.WaitGroup
		for i := range errs {
			wg.Go(func() {
				errs[i] = stores[i%2].AppendMove(ctx, g.ID, Move{Ply: ply, Hole: toguz.Move(1 + i)}, nil)
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrConflict):
				t.Fatalf("ply %d: %v", ply, err)
			}
		}
		if ok != 1 {
			t.Fatalf("ply %d: %d moves stored, want 1", ply, ok)
		}
	}
	// A move and the game's end at once, one on each store: either the
	// move is refused (the game had ended), or the game ended with it (its
	// opening, written by FinishGame from the moves, has it).
	for range 20 {
		g := mustGame(t, stores[0], Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), Status: game.Playing})
		if err := stores[0].AppendMove(ctx, g.ID, Move{Ply: 1, Hole: 7}, nil); err != nil {
			t.Fatal(err)
		}
		var errMove, errFinish error
		var wg sync.WaitGroup
		wg.Go(func() { errMove = stores[0].AppendMove(ctx, g.ID, Move{Ply: 2, Hole: 3}, nil) })
		wg.Go(func() {
			_, errFinish = stores[1].FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.Draw, Termination: toguz.ByKazan, At: t0})
		})
		wg.Wait()
		if errFinish != nil {
			t.Fatal(errFinish)
		}
		var opening string
		if err := stores[0].r.QueryRowContext(ctx, `SELECT opening FROM games WHERE id = $1`, g.ID).Scan(&opening); err != nil {
			t.Fatal(err)
		}
		moves, _ := stores[0].Moves(ctx, g.ID)
		switch {
		case errMove == nil && (opening != "7 3 " || len(moves) != 2):
			t.Fatalf("the move was stored, the game ended with opening %q and %d moves", opening, len(moves))
		case errMove != nil && (!errors.Is(errMove, ErrConflict) || opening != "7 " || len(moves) != 1):
			t.Fatalf("the move was refused (%v), the game ended with opening %q and %d moves", errMove, opening, len(moves))
		}
	}

	// Rated games of the same two players, finished on both stores at once.
	const n = 16
	tc := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	games := make([]Game, n)
	for i := range games {
		games[i] = mustGame(t, stores[i%2], Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
			TimeControl: tc, Rated: true, Status: game.Playing})
	}
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Go(func() {
			if _, err := stores[i%2].FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.Draw, Termination: toguz.ByKazan, At: t0}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// The ratings are those of the n draws one after the other: a game
	// rated from ratings another had already replaced would leave others.
	want := [2]Perf{{Rating: rating.Default()}, {Rating: rating.Default()}}
	for range n {
		per := [2]float64{rating.Periods(want[0].Updated, t0), rating.Periods(want[1].Updated, t0)}
		want[0].Rating, want[1].Rating = rating.Lichess().Game(want[0].Rating, want[1].Rating, 0.5, per)
		want[0].Updated, want[1].Updated = t0, t0
	}
	for pl, u := range []User{a, b} {
		p, err := stores[0].Perf(ctx, u.ID, rating.Blitz)
		h, _ := stores[1].RatingHistory(ctx, u.ID, rating.Blitz)
		if err != nil || p.Games != n || len(h) != n {
			t.Errorf("%s: %d games, %d history rows, %v; want %d", u.Name, p.Games, len(h), err, n)
		}
		if p.Rating != want[pl].Rating {
			t.Errorf("%s: rating %.3f RD %.3f, want %.3f RD %.3f (an update was lost)", u.Name,
				p.Rating.Rating, p.RD, want[pl].Rating.Rating, want[pl].RD)
		}
	}
}

// TestRedact: a PostgreSQL URL is logged without its password.
func TestRedact(t *testing.T) {
	for _, tt := range []struct{ dsn, want string }{
		{"toguz.db", "toguz.db"},
		{"postgres://toguz:secret@db:5432/toguz?sslmode=disable", "postgres://toguz:xxxxx@db:5432/toguz?sslmode=disable"},
		{"postgresql://db/toguz?password=secret&user=toguz", "postgresql://db/toguz?password=xxxxx&user=toguz"},
	} {
		if got := Redact(tt.dsn); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.dsn, got, tt.want)
		}
	}
}

// TestManyGamesEndAtOnce: a hundred games end at the same moment, each
// queueing its review and counted by the explorer, as when a load test or
// an arena stops: every ending is stored (on PostgreSQL the writer lock
// keeps the serialisable endings from refusing one another until they run
// out of tries).
func TestManyGamesEndAtOnce(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		ctx := t.Context()
		s, err := Open(ctx, be.db(t), Options{Now: func() time.Time { return t0 }, Reviews: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		const n = 100
		ids := make([]string, n)
		for i := range ids {
			g := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "a"}, {Name: "b"}}, Rules: toguz.Standard(), Status: game.Playing})
			for ply, hole := range []toguz.Move{7, 3} {
				if err := s.AppendMove(ctx, g.ID, Move{Ply: ply + 1, Hole: hole}, nil); err != nil {
					t.Fatal(err)
				}
			}
			ids[i] = g.ID
		}
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Go(func() {
				_, errs[i] = s.FinishGame(ctx, id, Finish{Status: game.Ended, Result: toguz.BlackWins, Termination: toguz.ByResignation, At: t0})
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		var pending int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM reviews WHERE status = 'pending'`).Scan(&pending); err != nil || pending != n {
			t.Errorf("%d reviews pending, %v; want %d", pending, err, n)
		}
	})
}
