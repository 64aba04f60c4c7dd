package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func openTest(t *testing.T, be backend) (*Store, string) {
	t.Helper()
	path := be.db(t)
	s, err := Open(t.Context(), path, Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func mustUser(t *testing.T, s *Store, name string) User {
	t.Helper()
	u, err := s.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func mustGame(t *testing.T, s *Store, g Game) Game {
	t.Helper()
	g, err := s.CreateGame(t.Context(), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestMigrations(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, path := openTest(t, be)
		v, err := s.SchemaVersion(t.Context())
		if want := latestVersion(t); err != nil || v != want {
			t.Fatalf("SchemaVersion = %d, %v; want %d", v, err, latestVersion(t))
		}
		s.Close()
		// Opening again applies nothing and keeps the data.
		s2, err := Open(t.Context(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		if v, _ := s2.SchemaVersion(t.Context()); v != latestVersion(t) {
			t.Errorf("after reopening: version %d", v)
		}
		if be.name == "postgres" {
			// A commit waits for the disk (synchronous_commit on).
			if mode, err := s2.Synchronous(t.Context()); err != nil || mode != 2 {
				t.Errorf("Synchronous = %d, %v; want 2", mode, err)
			}
			return
		}
		var fk, busy int
		var mode string
		s2.r.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
		s2.r.QueryRow(`PRAGMA busy_timeout`).Scan(&busy)
		s2.r.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
		var sync int
		s2.r.QueryRow(`PRAGMA synchronous`).Scan(&sync)
		if fk != 1 || busy != 10000 || mode != "wal" || sync != 1 {
			t.Errorf("pragmas: foreign_keys %d, busy_timeout %d, journal_mode %s, synchronous %d", fk, busy, mode, sync)
		}
		if _, err := s2.r.Exec(`DELETE FROM users`); err == nil {
			t.Error("the read pool accepted a write")
		}
	})
}

func TestUsers(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		names := []string{
			"Abai",
			"Robert'); DROP TABLE users;--",
			`x" OR 1=1 --`,
			"Қобыланды",
			"%_\\",
		}
		for _, name := range names {
			u := mustUser(t, s, name)
			got, err := s.UserByName(ctx, name)
			if err != nil || got != u || got.Name != name {
				t.Errorf("UserByName(%q) = %+v, %v; want %+v", name, got, err, u)
			}
			if got, err := s.UserByID(ctx, u.ID); err != nil || got.Name != name {
				t.Errorf("UserByID(%d) = %+v, %v", u.ID, got, err)
			}
		}
		for _, dup := range []string{"abai", "ABAI", "қобыланды"} {
			if _, err := s.CreateUser(ctx, dup, "h"); !errors.Is(err, ErrDuplicateName) {
				t.Errorf("CreateUser(%q) = %v, want ErrDuplicateName", dup, err)
			}
		}
		if u, err := s.UserByName(ctx, "aBaI"); err != nil || u.Name != "Abai" {
			t.Errorf("case-insensitive lookup: %+v, %v", u, err)
		}
		if _, err := s.UserByName(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
			t.Errorf("UserByName(nobody) = %v, want ErrNotFound", err)
		}
		if _, err := s.UserByID(ctx, 999); !errors.Is(err, ErrNotFound) {
			t.Errorf("UserByID(999) = %v, want ErrNotFound", err)
		}
		if err := s.SetPasswordHash(ctx, 1, "new"); err != nil {
			t.Fatal(err)
		}
		if u, _ := s.UserByID(ctx, 1); u.PasswordHash != "new" {
			t.Errorf("SetPasswordHash: %q", u.PasswordHash)
		}
		if err := s.SetPasswordHash(ctx, 999, "new"); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetPasswordHash(999) = %v, want ErrNotFound", err)
		}
	})
}

func TestSessions(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		u := mustUser(t, s, "abai")
		sess := Session{TokenHash: "ab12", UserID: u.ID, Created: t0, Expires: t0.Add(time.Hour)}
		if err := s.CreateSession(ctx, sess); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSession(ctx, sess); !errors.Is(err, ErrConflict) {
			t.Errorf("duplicate token: %v, want ErrConflict", err)
		}
		if err := s.CreateSession(ctx, Session{TokenHash: "cd", UserID: 999, Expires: t0}); !errors.Is(err, ErrNotFound) {
			t.Errorf("session of a missing user: %v, want ErrNotFound", err)
		}
		got, err := s.SessionByTokenHash(ctx, "ab12")
		if err != nil || got != sess {
			t.Errorf("SessionByTokenHash = %+v, %v; want %+v", got, err, sess)
		}
		s.CreateSession(ctx, Session{TokenHash: "old", UserID: u.ID, Created: t0, Expires: t0.Add(-time.Second)})
		if n, err := s.DeleteExpiredSessions(ctx, t0); n != 1 || err != nil {
			t.Errorf("DeleteExpiredSessions = %d, %v; want 1", n, err)
		}
		if err := s.DeleteSession(ctx, "ab12"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SessionByTokenHash(ctx, "ab12"); !errors.Is(err, ErrNotFound) {
			t.Errorf("after logout: %v, want ErrNotFound", err)
		}
		s.CreateSession(ctx, Session{TokenHash: "a", UserID: u.ID, Expires: t0.Add(time.Hour)})
		s.CreateSession(ctx, Session{TokenHash: "b", UserID: u.ID, Expires: t0.Add(time.Hour)})
		if err := s.DeleteUserSessions(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SessionByTokenHash(ctx, "b"); !errors.Is(err, ErrNotFound) {
			t.Errorf("after logout everywhere: %v", err)
		}
	})
}

func TestGameLifecycle(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		tc := clock.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}
		g := mustGame(t, s, Game{
			Players:     [2]game.Seat{{UserID: a.ID}},
			Rules:       toguz.Standard(),
			TimeControl: tc,
			Rated:       true,
		})
		if len(g.ID) != 8 || g.Status != game.Created || !g.Created.Equal(t0) || g.Players[0].Name != "abai" || !g.Players[1].IsEmpty() {
			t.Fatalf("created game: %+v", g)
		}
		if err := s.StartGame(ctx, g.ID, t0, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("start with an empty seat: %v, want ErrConflict", err)
		}
		if _, err := s.JoinGame(ctx, g.ID, toguz.White, game.Seat{UserID: b.ID}); !errors.Is(err, ErrConflict) {
			t.Errorf("join a taken seat: %v, want ErrConflict", err)
		}
		if _, err := s.JoinGame(ctx, "nope", toguz.Black, game.Seat{UserID: b.ID}); !errors.Is(err, ErrNotFound) {
			t.Errorf("join a missing game: %v, want ErrNotFound", err)
		}
		// Two players race for the seat: exactly one gets it.
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				_, errs[i] = s.JoinGame(ctx, g.ID, toguz.Black, game.Seat{Name: "Guest-" + string(rune('a'+i))})
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrConflict):
				t.Errorf("join race: %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d players took the seat, want 1", won)
		}
		clk := clock.New(tc, toguz.White, func() time.Time { return t0 })
		st := clk.State()
		if err := s.StartGame(ctx, g.ID, t0, &st); err != nil {
			t.Fatal(err)
		}
		if err := s.StartGame(ctx, g.ID, t0, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("start twice: %v, want ErrConflict", err)
		}
		g, _ = s.Game(ctx, g.ID)
		if g.Status != game.Playing || !g.Started.Equal(t0) {
			t.Errorf("started game: %+v", g)
		}
		if got, _ := s.GamesByStatus(ctx, game.Playing); len(got) != 1 || got[0].ID != g.ID {
			t.Errorf("GamesByStatus(started) = %+v", got)
		}
		f := Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation, At: t0.Add(time.Minute)}
		ended, err := s.FinishGame(ctx, g.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		if ended.Status != game.Ended || ended.Result != toguz.WhiteWins || ended.Termination != toguz.ByResignation || !ended.Ended.Equal(f.At) {
			t.Errorf("ended game: %+v", ended)
		}
		// A guest was Black: no rating change.
		if ended.RatingDiff != [2]int{} {
			t.Errorf("a game against a guest changed ratings: %v", ended.RatingDiff)
		}
		if _, err := s.FinishGame(ctx, g.ID, f); !errors.Is(err, ErrConflict) {
			t.Errorf("finishing twice: %v, want ErrConflict", err)
		}
		if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Aborted, Result: toguz.Draw}); err == nil {
			t.Error("an aborted game with a result was accepted")
		}
		if _, err := s.FinishGame(ctx, "missing", f); !errors.Is(err, ErrNotFound) {
			t.Errorf("finish a missing game: %v, want ErrNotFound", err)
		}
		for _, id := range []string{"' OR '1'='1", "x; DROP TABLE games", ""} {
			if _, err := s.Game(ctx, id); !errors.Is(err, ErrNotFound) {
				t.Errorf("Game(%q) = %v, want ErrNotFound", id, err)
			}
		}
		if _, err := s.CreateGame(ctx, Game{ID: g.ID, Rules: toguz.Standard()}, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("duplicate id: %v, want ErrConflict", err)
		}
		if _, err := s.CreateGame(ctx, Game{Players: [2]game.Seat{{UserID: 999}}, Rules: toguz.Standard()}, nil); !errors.Is(err, ErrNotFound) {
			t.Errorf("game of a missing user: %v, want ErrNotFound", err)
		}
	})
}

func TestGameFieldsRoundTrip(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		u := mustUser(t, s, "abai")
		start, err := toguz.NewPosition(toguz.Bestemshe())
		if err != nil {
			t.Fatal(err)
		}
		want := Game{
			ID:          "custom01",
			Players:     [2]game.Seat{game.EngineSeat(3, "Engine level 3"), game.UserSeat(u.ID, "abai")},
			Rules:       toguz.Bestemshe(),
			StartFEN:    start.FEN(),
			TimeControl: clock.TimeControl{Days: 3},
			Status:      game.Playing,
			Created:     t0,
			Started:     t0,
			Source:      SourcePlay,
			Date:        t0,
		}
		got := mustGame(t, s, want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
		list, err := s.GamesByUser(t.Context(), u.ID, 10, 0)
		if err != nil || len(list) != 1 || list[0].ID != want.ID {
			t.Errorf("GamesByUser = %+v, %v", list, err)
		}
	})
}

func TestMoves(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		g := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "g1"}, {Name: "g2"}}, Rules: toguz.Standard(), Status: game.Playing})
		if err := s.AppendMove(ctx, g.ID, Move{Ply: 2, Hole: 3}, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("skipped ply: %v, want ErrConflict", err)
		}
		var st clock.State
		for ply := 1; ply <= 3; ply++ {
			st = clock.State{Remaining: [2]time.Duration{time.Duration(ply) * time.Second, time.Minute}, Turn: toguz.Player(ply % 2), Running: true, Since: t0.Add(time.Duration(ply) * time.Second)}
			if err := s.AppendMove(ctx, g.ID, Move{Ply: ply, Hole: toguz.Move(ply), Played: st.Since, Clock: time.Duration(ply) * time.Second}, &st); err != nil {
				t.Fatal(err)
			}
		}
		for _, ply := range []int{1, 3} {
			if err := s.AppendMove(ctx, g.ID, Move{Ply: ply, Hole: 1}, nil); !errors.Is(err, ErrConflict) {
				t.Errorf("stale ply %d: %v, want ErrConflict", ply, err)
			}
		}
		if err := s.AppendMove(ctx, g.ID, Move{Ply: 4, Hole: 10}, nil); err == nil {
			t.Error("hole 10 accepted")
		}
		if err := s.AppendMove(ctx, "missing", Move{Ply: 1, Hole: 1}, nil); !errors.Is(err, ErrNotFound) {
			t.Errorf("move in a missing game: %v", err)
		}
		moves, err := s.Moves(ctx, g.ID)
		if err != nil || len(moves) != 3 {
			t.Fatalf("Moves = %+v, %v", moves, err)
		}
		if m := moves[2]; m.Ply != 3 || m.Hole != 3 || m.Clock != 3*time.Second || !m.Played.Equal(t0.Add(3*time.Second)) {
			t.Errorf("third move = %+v", m)
		}
		got, err := s.Clock(ctx, g.ID)
		if err != nil || got != st {
			t.Errorf("Clock = %+v, %v; want %+v", got, err, st)
		}
		if g, _ := s.Game(ctx, g.ID); g.Plies != 3 {
			t.Errorf("Plies = %d", g.Plies)
		}
		s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.Draw, Termination: toguz.ByAgreement})
		if err := s.AppendMove(ctx, g.ID, Move{Ply: 4, Hole: 1}, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("move after the end: %v, want ErrConflict", err)
		}
	})
}

// TestConcurrentMoves sends many moves for the same ply at once, over and
// over: exactly one is stored each time.
func TestConcurrentMoves(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		g := mustGame(t, s, Game{Players: [2]game.Seat{{Name: "g1"}, {Name: "g2"}}, Rules: toguz.Standard(), Status: game.Playing})
		const plies, writers = 20, 8
		for ply := 1; ply <= plies; ply++ {
			var wg sync.WaitGroup
			errs := make([]error, writers)
			for w := range writers {
				wg.Go(func() {
					errs[w] = s.AppendMove(ctx, g.ID, Move{Ply: ply, Hole: toguz.Move(w + 1)}, &clock.State{Turn: toguz.Player(ply % 2)})
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
		moves, _ := s.Moves(ctx, g.ID)
		if len(moves) != plies {
			t.Errorf("%d moves stored, want %d", len(moves), plies)
		}
	})
}

func TestRatedGame(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		tc := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second} // blitz
		play := func(white, black User, res toguz.Result, at time.Time) Game {
			g := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: white.ID}, {UserID: black.ID}}, Rules: toguz.Standard(),
				TimeControl: tc, Rated: true, Status: game.Playing})
			g, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: res, Termination: toguz.ByKazan, At: at})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		g := play(a, b, toguz.WhiteWins, t0)
		wantW, wantB := rating.Lichess().Game(rating.Default(), rating.Default(), 1, [2]float64{1, 1})
		if g.RatingBefore != [2]int{1500, 1500} || g.RatingDiff != [2]int{wantW.Int() - 1500, wantB.Int() - 1500} || g.RatingDiff[0] <= 0 {
			t.Errorf("rating fields: before %v diff %v; want diff %d %d", g.RatingBefore, g.RatingDiff, wantW.Int()-1500, wantB.Int()-1500)
		}
		pa, err := s.Perf(ctx, a.ID, rating.Blitz)
		if err != nil || pa.Rating != wantW || pa.Games != 1 || !pa.Updated.Equal(t0) {
			t.Errorf("Perf(a) = %+v, %v; want %+v", pa, err, wantW)
		}
		// The next day, with rating periods for one day's absence.
		next := t0.Add(24 * time.Hour)
		play(b, a, toguz.Draw, next)
		per := rating.Periods(t0, next)
		w2, b2 := rating.Lichess().Game(wantB, wantW, 0.5, [2]float64{per, per})
		perfs, err := s.Perfs(ctx, a.ID)
		if err != nil || perfs[rating.Blitz].Rating != b2 || perfs[rating.Blitz].Games != 2 || perfs[rating.Rapid].Rating != rating.Default() {
			t.Errorf("Perfs(a) = %+v, %v; want blitz %+v", perfs, err, b2)
		}
		h, err := s.RatingHistory(ctx, b.ID, rating.Blitz)
		if err != nil || len(h) != 2 || h[0].Rating != wantB || h[1].Rating != w2 || h[1].GameID == "" {
			t.Errorf("RatingHistory(b) = %+v, %v", h, err)
		}
		board, err := s.Leaderboard(ctx, rating.Blitz, rating.MaxRD, 10)
		if err != nil || len(board) != 2 || board[0].Name != "abai" || board[1].Name != "bolat" {
			t.Errorf("Leaderboard = %+v, %v", board, err)
		}
		if board, _ := s.Leaderboard(ctx, rating.Blitz, rating.RankableRD, 10); len(board) != 0 {
			t.Errorf("provisional players on the rankable leaderboard: %+v", board)
		}
		// Unrated and aborted games leave ratings alone.
		g2 := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), TimeControl: tc, Status: game.Playing})
		s.FinishGame(ctx, g2.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan})
		g3 := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), TimeControl: tc, Rated: true, Status: game.Playing})
		s.FinishGame(ctx, g3.ID, Finish{Status: game.Aborted})
		g4 := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: a.ID}}, Rules: toguz.Standard(), TimeControl: tc, Rated: true, Status: game.Playing})
		s.FinishGame(ctx, g4.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan})
		if p, _ := s.Perf(ctx, a.ID, rating.Blitz); p.Games != 2 {
			t.Errorf("unrated, aborted or self-played games were rated: %d games", p.Games)
		}
	})
}

// TestConcurrentRatedGames finishes many rated games of the same two players
// at once: every one is counted (no update is lost).
func TestConcurrentRatedGames(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		const n = 10
		ids := make([]string, n)
		for i := range ids {
			ids[i] = mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
				TimeControl: clock.TimeControl{Days: 1}, Rated: true, Status: game.Playing}).ID
		}
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Go(func() {
				if _, err := s.FinishGame(ctx, id, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByTime}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		p, _ := s.Perf(ctx, a.ID, rating.Correspondence)
		h, _ := s.RatingHistory(ctx, a.ID, rating.Correspondence)
		if p.Games != n || len(h) != n {
			t.Errorf("%d games, %d history rows; want %d", p.Games, len(h), n)
		}
	})
}

// TestRestart writes everything, drops the store without closing it (as a
// killed process would) and reads it all back from a second Store on the file.
func TestRestart(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		path := be.db(t)
		ctx := context.Background()
		s, err := Open(ctx, path, Options{Now: func() time.Time { return t0 }})
		if err != nil {
			t.Fatal(err)
		}
		u := mustUser(t, s, "abai")
		s.CreateSession(ctx, Session{TokenHash: "tok", UserID: u.ID, Created: t0, Expires: t0.Add(time.Hour)})
		g := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: u.ID}, {Name: "Guest-1"}}, Rules: toguz.Standard(),
			TimeControl: clock.TimeControl{Base: time.Minute}, Status: game.Playing})
		st := clock.State{Remaining: [2]time.Duration{59 * time.Second, time.Minute}, Turn: toguz.Black, Running: true, Since: t0.Add(time.Second)}
		if err := s.AppendMove(ctx, g.ID, Move{Ply: 1, Hole: 7, Played: st.Since, Clock: 59 * time.Second}, &st); err != nil {
			t.Fatal(err)
		}
		// No Close: a second process opens the same file while the first still
		// holds its connections, then the first vanishes.
		s2, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		if got, err := s2.UserByName(ctx, "ABAI"); err != nil || got != u {
			t.Errorf("user after restart: %+v, %v", got, err)
		}
		if _, err := s2.SessionByTokenHash(ctx, "tok"); err != nil {
			t.Errorf("session after restart: %v", err)
		}
		got, err := s2.Game(ctx, g.ID)
		if err != nil || got.Status != game.Playing || got.Plies != 1 {
			t.Errorf("game after restart: %+v, %v", got, err)
		}
		moves, _ := s2.Moves(ctx, g.ID)
		if len(moves) != 1 || moves[0].Hole != 7 {
			t.Errorf("moves after restart: %+v", moves)
		}
		if cst, err := s2.Clock(ctx, g.ID); err != nil || cst != st {
			t.Errorf("clock after restart: %+v, %v; want %+v", cst, err, st)
		}
		// The second store writes while the first is still open: busy_timeout
		// and the immediate transactions keep them correct.
		if err := s2.AppendMove(ctx, g.ID, Move{Ply: 2, Hole: 1}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendMove(ctx, g.ID, Move{Ply: 2, Hole: 2}, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("the first store's stale move: %v, want ErrConflict", err)
		}
		s.Close()
	})
}

// BenchmarkAppendMove times one move (and its clock) of one game after
// another, on both back ends: each a commit of its own.
func BenchmarkAppendMove(b *testing.B) {
	benchBackends(b, func(b *testing.B, be backend) {
		s, err := Open(b.Context(), be.db(b), Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		g, err := s.CreateGame(b.Context(), Game{Players: [2]game.Seat{{Name: "a"}, {Name: "b"}}, Rules: toguz.Standard(), Status: game.Playing}, nil)
		if err != nil {
			b.Fatal(err)
		}
		st := clock.State{Remaining: [2]time.Duration{time.Minute, time.Minute}, Running: true, Since: t0}
		ply := 0
		b.ReportAllocs()
		for b.Loop() {
			ply++
			if err := s.AppendMove(b.Context(), g.ID, Move{Ply: ply, Hole: 1}, &st); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFinishGame times the end of rated games of 40 plies between
// the same two accounts: the ratings and their history, the opening, the
// explorer's 20 plies in three trees, the clock, in one transaction; one
// game at a time, and 16 at once, which SQLite's writer commits together,
// each in its savepoint (op: the 16).
func BenchmarkFinishGame(b *testing.B) {
	benchBackends(b, func(b *testing.B, be backend) {
		for _, together := range []int{1, 16} {
			b.Run(fmt.Sprintf("together=%d", together), func(b *testing.B) {
				ctx := b.Context()
				s, err := Open(ctx, be.db(b), Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				var users [2]User
				for i, name := range []string{"abai", "bolat"} {
					if users[i], err = s.CreateUser(ctx, name, "h"); err != nil {
						b.Fatal(err)
					}
				}
				tc := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
				rng := rand.New(rand.NewPCG(1, 2))
				st := clock.State{Remaining: [2]time.Duration{time.Minute, time.Minute}, Stopped: true}
				ids := make([]string, together)
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					for k := range ids {
						g, err := s.CreateGame(ctx, Game{Players: [2]game.Seat{{UserID: users[0].ID}, {UserID: users[1].ID}}, Rules: toguz.Standard(),
							TimeControl: tc, Rated: true, Status: game.Playing}, nil)
						if err != nil {
							b.Fatal(err)
						}
						moves := randomGame(rng)
						for i, m := range moves[:min(len(moves), 40)] {
							if err := s.AppendMove(ctx, g.ID, Move{Ply: i + 1, Hole: m, Played: t0}, nil); err != nil {
								b.Fatal(err)
							}
						}
						ids[k] = g.ID
					}
					b.StartTimer()
					var wg sync.WaitGroup
					for _, id := range ids {
						wg.Go(func() {
							if _, err := s.FinishGame(ctx, id, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan, At: t0, Clock: &st}); err != nil {
								b.Error(err)
							}
						})
					}
					wg.Wait()
				}
			})
		}
	})
}

// TestGroupCommit writes from many goroutines at once: writes are committed
// together, and a failing write (a duplicate name) undoes none of the others.
func TestGroupCommit(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		const n = 200
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, errs[i] = s.CreateUser(ctx, fmt.Sprintf("user%d", i/2), "h") // every name twice
			})
		}
		wg.Wait()
		dups := 0
		for _, err := range errs {
			switch {
			case errors.Is(err, ErrDuplicateName):
				dups++
			case err != nil:
				t.Fatal(err)
			}
		}
		if dups != n/2 {
			t.Errorf("%d duplicates refused, want %d", dups, n/2)
		}
		for i := range n / 2 {
			if _, err := s.UserByName(ctx, fmt.Sprintf("USER%d", i)); err != nil {
				t.Errorf("user%d: %v", i, err)
			}
		}
		if c := s.commits.Load(); c >= n {
			t.Errorf("%d commits for %d writes: nothing was grouped", c, n)
		} else {
			t.Logf("%d writes in %d commits", n, c)
		}
		// A cancelled context is refused before it is written.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := s.CreateUser(cctx, "late", "h"); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled write: %v", err)
		}
		s.Close()
		if _, err := s.CreateUser(ctx, "closed", "h"); !errors.Is(err, ErrClosed) {
			t.Errorf("write after Close: %v, want ErrClosed", err)
		}
	})
}

// TestGroupCommitMoves plays moves of many games at once, each ply sent
// twice, so that batches hold refused moves beside accepted ones and the
// statements bound once a batch (txStmt) run after a rollback to a
// savepoint: every game keeps each ply once, with its clock.
func TestGroupCommitMoves(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		const games, plies = 16, 6
		ids := make([]string, games)
		for i := range ids {
			g, err := s.CreateGame(ctx, Game{Players: [2]game.Seat{{Name: "a"}, {Name: "b"}}, Rules: toguz.Standard(), Status: game.Playing}, nil)
			if err != nil {
				t.Fatal(err)
			}
			ids[i] = g.ID
		}
		before := s.commits.Load()
		var refused atomic.Int64
		var wg sync.WaitGroup
		for _, id := range ids {
			for range 2 {
				wg.Go(func() {
					for ply := 1; ply <= plies; ply++ {
						st := clock.State{Remaining: [2]time.Duration{time.Duration(ply) * time.Second, time.Minute}, Stopped: true}
						err := s.AppendMove(ctx, id, Move{Ply: ply, Hole: toguz.Move(ply), Played: t0}, &st)
						switch {
						case errors.Is(err, ErrConflict):
							refused.Add(1)
						case err != nil:
							t.Error(err)
							return
						}
					}
				})
			}
		}
		wg.Wait()
		// Each ply is sent twice, by two goroutines that each send the
		// next only once the last is stored: one of the two is stored.
		if n := refused.Load(); n != games*plies {
			t.Errorf("%d moves refused, want %d", n, games*plies)
		}
		for _, id := range ids {
			ms, err := s.Moves(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != plies {
				t.Fatalf("game %s: %d moves stored, want %d", id, len(ms), plies)
			}
			for i, m := range ms {
				if m.Ply != i+1 || int(m.Hole) != i+1 {
					t.Errorf("game %s: move %d is ply %d hole %d", id, i, m.Ply, m.Hole)
				}
			}
			st, err := s.Clock(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if st.Remaining[0] != plies*time.Second {
				t.Errorf("game %s: clock %v, want the last ply's %v", id, st.Remaining[0], plies*time.Second)
			}
		}
		if !s.pg {
			t.Logf("%d writes in %d commits", 2*games*plies, s.commits.Load()-before)
		}
	})
}

// BenchmarkAppendMoveParallel times moves of 64 games at once, as on a
// busy server: SQLite commits them in groups, PostgreSQL in concurrent
// transactions.
func BenchmarkAppendMoveParallel(b *testing.B) {
	benchBackends(b, func(b *testing.B, be backend) {
		s, err := Open(b.Context(), be.db(b), Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		b.SetParallelism(64) // many games moving at once, as on a busy server
		b.ReportAllocs()
		b.ResetTimer() // not Open's migrations
		b.RunParallel(func(pb *testing.PB) {
			g, err := s.CreateGame(b.Context(), Game{Players: [2]game.Seat{{Name: "a"}, {Name: "b"}}, Rules: toguz.Standard(), Status: game.Playing}, nil)
			if err != nil {
				b.Error(err)
				return
			}
			st := clock.State{Remaining: [2]time.Duration{time.Minute, time.Minute}, Running: true, Since: t0}
			for ply := 1; pb.Next(); ply++ {
				if err := s.AppendMove(b.Context(), g.ID, Move{Ply: ply, Hole: 1}, &st); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

func TestOpenPaths(t *testing.T) {
	for _, name := range []string{"with space.db", "percent%20.db", "hash#.db", "ask?.db", "наш.db"} {
		path := filepath.Join(t.TempDir(), name)
		s, err := Open(t.Context(), path, Options{})
		if err != nil {
			t.Errorf("Open(%q): %v", name, err)
			continue
		}
		mustUser(t, s, "abai")
		s.Close()
		if _, err := os.Stat(path); err != nil {
			t.Errorf("Open(%q) wrote elsewhere: %v", name, err)
		}
	}
	// The default of toguz serve: a file in the working directory.
	t.Chdir(t.TempDir())
	s, err := Open(t.Context(), "toguz.db", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat("toguz.db"); err != nil {
		t.Errorf("relative path: %v", err)
	}
	if _, err := Open(t.Context(), filepath.Join(t.TempDir(), "no", "such", "dir.db"), Options{}); err == nil {
		t.Error("Open in a missing directory did not fail")
	}
}

// TestSweepSessions: an open store deletes the expired sessions by itself,
// every SessionSweep, in bounded batches, and keeps the others.
func TestSweepSessions(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		path := be.db(t)
		synctest.Test(t, func(t *testing.T) {
			ctx := context.Background()
			s, err := Open(ctx, path, Options{Readers: 1, SessionSweep: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			u, err := s.CreateUser(ctx, "abai", "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			const expired = 1200                        // more than one batch
			err = s.write(ctx, func(tx *sql.Tx) error { // in one transaction: quicker
				for i := range expired {
					if _, err := tx.Exec(`INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)`,
						fmt.Sprintf("old%d", i), u.ID, ms(now), ms(now.Add(30*time.Minute))); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			s.CreateSession(ctx, Session{TokenHash: "live", UserID: u.ID, Created: now, Expires: now.Add(2 * time.Hour)})
			count := func() (n int) {
				s.r.QueryRow(`SELECT COUNT(*) FROM sessions`).Scan(&n)
				return n
			}
			time.Sleep(time.Hour - time.Millisecond)
			synctest.Wait()
			if n := count(); n != expired+1 {
				t.Fatalf("before the first sweep: %d sessions", n)
			}
			time.Sleep(time.Millisecond)
			synctest.Wait()
			if n := count(); n != 1 {
				t.Fatalf("after the sweep: %d sessions, want 1", n)
			}
			if _, err := s.SessionByTokenHash(ctx, "live"); err != nil {
				t.Errorf("the live session: %v", err)
			}
			// SweepSessions by hand, in batches of 2.
			for i := range 5 {
				s.CreateSession(ctx, Session{TokenHash: fmt.Sprintf("b%d", i), UserID: u.ID, Created: now, Expires: now})
			}
			if n, err := s.SweepSessions(ctx, time.Now(), 2); n != 5 || err != nil {
				t.Errorf("SweepSessions = %d, %v; want 5", n, err)
			}
		})
	})
}

// TestSyncFull: Options.SyncFull reaches the writer connection (PRAGMA
// synchronous 2, FULL); the default is NORMAL (1).
func TestSyncFull(t *testing.T) {
	for _, tt := range []struct {
		full bool
		want int
	}{{false, 1}, {true, 2}} {
		s, err := Open(t.Context(), sqliteBackend.db(t), Options{SyncFull: tt.full})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Synchronous(t.Context())
		s.Close()
		if err != nil || got != tt.want {
			t.Errorf("SyncFull %v: PRAGMA synchronous = %d, %v; want %d", tt.full, got, err, tt.want)
		}
	}
}
