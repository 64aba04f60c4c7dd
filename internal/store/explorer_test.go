package store

import (
	"database/sql"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
)

// counts is a move's line of the explorer: games, White's wins, draws,
// Black's wins.
type counts struct {
	Games, White, Draws, Black int64
}

func answerCounts(a explorer.Answer) map[toguz.Move]counts {
	out := map[toguz.Move]counts{}
	for _, m := range a.Moves {
		out[m.Move] = counts{m.Games, m.White, m.Draws, m.Black}
	}
	return out
}

// playFinished stores a game with moves and ends it with res.
func playFinished(t *testing.T, s *Store, g Game, res toguz.Result, moves ...toguz.Move) Game {
	t.Helper()
	g.Status, g.Rules = game.Playing, toguz.Standard()
	g = mustGame(t, s, g)
	for k, m := range moves {
		if err := s.AppendMove(t.Context(), g.ID, Move{Ply: k + 1, Hole: m}, nil); err != nil {
			t.Fatal(err)
		}
	}
	g, err := s.FinishGame(t.Context(), g.ID, Finish{Status: game.Ended, Result: res, Termination: toguz.ByResignation})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestExplorerCounts checks the explorer's counts on a small hand-made set
// of games against the counts worked out by hand, for every tree and
// filter.
func TestExplorerCounts(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "abai"), mustUser(t, s, "bolat")
		blitz := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
		g1 := playFinished(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, TimeControl: blitz, Rated: true}, toguz.WhiteWins, 7, 3, 2)
		g2 := playFinished(t, s, Game{Players: [2]game.Seat{{UserID: b.ID}, {UserID: a.ID}}, TimeControl: blitz, Rated: true}, toguz.BlackWins, 7, 5)
		g3 := playFinished(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {Name: "Guest-x"}}}, toguz.Draw, 2, 3)
		// Not in the tree: a game against the engine, an aborted one, one
		// being played.
		playFinished(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {Engine: 3}}}, toguz.WhiteWins, 7, 3)
		ab := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), Status: game.Playing})
		s.AppendMove(ctx, ab.ID, Move{Ply: 1, Hole: 7}, nil)
		if _, err := s.FinishGame(ctx, ab.ID, Finish{Status: game.Aborted}); err != nil {
			t.Fatal(err)
		}
		live := mustGame(t, s, Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(), Status: game.Playing})
		s.AppendMove(ctx, live.ID, Move{Ply: 1, Hole: 7}, nil)
		may2018 := time.Date(2018, 5, 1, 0, 0, 0, 0, time.UTC)
		st, err := s.ImportGames(ctx, "a:1", 0, []Import{
			{Players: [2]string{"Майра", "Бауыржан"}, Rules: toguz.Standard(), Moves: []toguz.Move{7, 3, 4}, Result: toguz.BlackWins, Date: may2018},
			{Players: [2]string{"Майра", "Бауыржан"}, Rules: toguz.Bestemshe(), Moves: []toguz.Move{1}, Result: toguz.WhiteWins},
		})
		if err != nil {
			t.Fatal(err)
		}
		start := toguz.StartPosition()
		bestemshe, _ := toguz.NewPosition(toguz.Bestemshe())
		blitzCode := 1 + int(rating.Blitz)
		nov := explorer.Month(t0)
		for _, c := range []struct {
			name string
			tree int64
			pos  toguz.Position
			f    explorer.Filter
			want map[toguz.Move]counts
		}{
			{"start", SiteTree, start, explorer.Filter{}, map[toguz.Move]counts{7: {3, 1, 0, 2}, 2: {1, 0, 1, 0}}},
			{"after 7", SiteTree, start.After(7), explorer.Filter{}, map[toguz.Move]counts{3: {2, 1, 0, 1}, 5: {1, 0, 0, 1}}},
			{"after 7 3", SiteTree, start.After(7).After(3), explorer.Filter{}, map[toguz.Move]counts{2: {1, 1, 0, 0}, 4: {1, 0, 0, 1}}},
			{"blitz", SiteTree, start, explorer.Filter{Cats: []int{blitzCode}}, map[toguz.Move]counts{7: {2, 1, 0, 1}}},
			{"no time control", SiteTree, start, explorer.Filter{Cats: []int{0}}, map[toguz.Move]counts{7: {1, 0, 0, 1}, 2: {1, 0, 1, 0}}},
			{"rated 1400+", SiteTree, start, explorer.Filter{MinRating: 1400}, map[toguz.Move]counts{7: {2, 1, 0, 1}}},
			{"rated up to 1300", SiteTree, start, explorer.Filter{MaxRating: 1300}, map[toguz.Move]counts{}},
			{"this month", SiteTree, start, explorer.Filter{FromMonth: nov}, map[toguz.Move]counts{7: {2, 1, 0, 1}, 2: {1, 0, 1, 0}}},
			{"up to 2018", SiteTree, start, explorer.Filter{ToMonth: explorer.Month(may2018)}, map[toguz.Move]counts{7: {1, 0, 0, 1}}},
			{"abai as White", PlayerTree(a.ID, toguz.White), start, explorer.Filter{}, map[toguz.Move]counts{7: {1, 1, 0, 0}, 2: {1, 0, 1, 0}}},
			{"abai as Black", PlayerTree(a.ID, toguz.Black), start, explorer.Filter{}, map[toguz.Move]counts{7: {1, 0, 0, 1}}},
			{"abai as Black after 7", PlayerTree(a.ID, toguz.Black), start.After(7), explorer.Filter{}, map[toguz.Move]counts{5: {1, 0, 0, 1}}},
			{"bolat as White", PlayerTree(b.ID, toguz.White), start, explorer.Filter{}, map[toguz.Move]counts{7: {1, 0, 0, 1}}},
			{"bestemshe", SiteTree, bestemshe, explorer.Filter{}, map[toguz.Move]counts{1: {1, 1, 0, 0}}},
		} {
			got, err := s.Explorer(ctx, ExplorerQuery{Pos: c.pos.Key(), Tree: c.tree, Filter: c.f})
			if err != nil {
				t.Fatal(err)
			}
			if gc := answerCounts(got); fmt.Sprint(gc) != fmt.Sprint(c.want) {
				t.Errorf("%s: %v, want %v", c.name, gc, c.want)
			}
		}
		// The average rating and the games of the start position.
		got, err := s.Explorer(ctx, ExplorerQuery{Pos: start.Key()})
		if err != nil {
			t.Fatal(err)
		}
		avg := func(g Game) int64 { return int64(g.RatingBefore[0]+g.RatingBefore[1]+1) / 2 }
		if m := got.Moves[0]; m.Move != 7 || m.Rated != 2 || m.RatingSum != avg(g1)+avg(g2) {
			t.Errorf("move 7: rated %d, rating sum %d; want 2 and %d", m.Rated, m.RatingSum, avg(g1)+avg(g2))
		}
		var ids []string
		for _, r := range slices.Concat(got.Top, got.Recent) {
			ids = append(ids, r.ID)
		}
		// Each move names its highest rated and its most recent game: g3 for
		// 2, two of g1, g2 and the import for 7.
		want := []string{g1.ID, g2.ID, g3.ID, st[0].ID}
		if len(ids) != 2 || !slices.Contains(ids, g3.ID) || slices.ContainsFunc(ids, func(id string) bool { return !slices.Contains(want, id) }) {
			t.Errorf("games listed %v, want g3 %s and one of %v", ids, g3.ID, want)
		}
		if len(got.Top) == 0 || (got.Top[0].ID != g1.ID && got.Top[0].ID != g2.ID) {
			t.Errorf("the highest rated game is %v, want a rated one", got.Top)
		}
		gs, err := s.GamesByID(ctx, ids)
		if err != nil || len(gs) != len(ids) {
			t.Errorf("GamesByID: %d games, %v", len(gs), err)
		}
	})
}

// TestExplorerBackfill opens a database from before the explorer: its
// finished games are added to the tree when it opens.
func TestExplorerBackfill(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		path := be.db(t)
		db := rawDB(t, be, path)
		p := newProvider(t, be, db)
		if _, err := p.UpTo(t.Context(), 4); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO games (id, white_name, black_name, rules, time_control, status, result, created_ms, date_ms) VALUES
			('old00001', 'Guest-ab', 'Guest-cd', 'standard', '-', 'ended', '1-0', 1000, 1000),
			('old00002', 'Guest-ab', 'x', 'standard', '-', 'started', '*', 2000, 2000)`,
			`INSERT INTO moves (game_id, ply, hole, played_ms) VALUES ('old00001', 2, 3, 1), ('old00001', 1, 7, 1),
			('old00002', 1, 7, 1)`,
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
		defer s.Close()
		start := toguz.StartPosition()
		for _, c := range []struct {
			pos  toguz.Position
			want map[toguz.Move]counts
		}{{start, map[toguz.Move]counts{7: {1, 1, 0, 0}}}, {start.After(7), map[toguz.Move]counts{3: {1, 1, 0, 0}}}} {
			a, err := s.Explorer(t.Context(), ExplorerQuery{Pos: c.pos.Key()})
			if err != nil || fmt.Sprint(answerCounts(a)) != fmt.Sprint(c.want) {
				t.Errorf("after the backfill: %v, %v; want %v", answerCounts(a), err, c.want)
			}
		}
	})
}

// TestExplorerFiltersAgree stores random games through addExplorer and
// checks every answer, with and without dates (explorer_sum or explorer),
// against the answer worked out from the games themselves by
// explorer.Filter.Selects: counts, ratings and the games shown.
func TestExplorerFiltersAgree(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		rng := rand.New(rand.NewPCG(5, 6))
		end := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
		results := [...]toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw}
		var games []explorerGame
		var moves []toguz.Move
		for i := range 300 {
			moves = openingGame(rng, moves)
			date := end.AddDate(0, -rng.IntN(30), rng.IntN(28))
			g := explorerGame{id: fmt.Sprintf("r%07d", i), start: toguz.StartPosition(), moves: slices.Clone(moves[:4+rng.IntN(8)]),
				result: results[rng.IntN(3)], cat: rng.IntN(explorer.Cats), dateMS: date.UnixMilli(), month: explorer.Month(date)}
			if rng.IntN(4) == 0 {
				g.dateMS, g.month = 0, 0
			}
			if rng.IntN(3) > 0 {
				g.rating = 800 + rng.IntN(1800)
			}
			games = append(games, g)
		}
		if err := s.write(ctx, func(tx *sql.Tx) error {
			for _, g := range games {
				if err := s.addExplorer(ctx, tx, g); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// The answer from the games, one by one.
		want := func(pos uint64, f explorer.Filter) explorer.Answer {
			by := map[toguz.Move]*explorer.Stats{}
			for _, g := range games {
				if !f.Selects(g.cat, explorer.Band(g.rating), g.month) {
					continue
				}
				seen := map[uint64]bool{}
				explorer.Walk(g.start, g.moves, func(key uint64, m toguz.Move) {
					if key != pos || seen[key] {
						return
					}
					seen[key] = true
					st := by[m]
					if st == nil {
						st = &explorer.Stats{Move: m}
						by[m] = st
					}
					w, d, b := explorer.Counts(g.result)
					one := explorer.Stats{Move: m, Games: 1, White: w, Draws: d, Black: b}
					if g.rating > 0 {
						one.RatingSum, one.Rated = int64(g.rating), 1
					}
					ref := explorer.Ref{ID: g.id, Rating: g.rating, DateMS: g.dateMS}
					one.Top, one.Last = ref.TopKey(), ref.LastKey()
					st.Add(one)
				})
			}
			var a explorer.Answer
			for _, st := range by {
				a.Moves = append(a.Moves, *st)
			}
			a.Finish()
			return a
		}
		filters := []explorer.Filter{{}, {Cats: []int{2}}, {Cats: []int{0, 3}}, {MinRating: 1400}, {MaxRating: 1300},
			{MinRating: 1200, MaxRating: 2000, Cats: []int{1, 4}},
			{FromMonth: explorer.Month(end.AddDate(0, -12, 0))}, {ToMonth: explorer.Month(end.AddDate(0, -20, 0))},
			{FromMonth: explorer.Month(end.AddDate(0, -24, 0)), ToMonth: explorer.Month(end.AddDate(0, -6, 0)), MinRating: 1500, Cats: []int{5, 1}}}
		checked := 0
		for _, g := range games[:40] {
			p := toguz.StartPosition()
			for _, m := range g.moves[:rng.IntN(4)] {
				p = p.After(m)
			}
			for _, f := range filters {
				got, err := s.Explorer(ctx, ExplorerQuery{Pos: p.Key(), Filter: f})
				if err != nil {
					t.Fatal(err)
				}
				w := want(p.Key(), f)
				if fmt.Sprint(got) != fmt.Sprint(w) {
					t.Fatalf("position %x, filter %+v:\n got %v\nwant %v", p.Key(), f, got, w)
				}
				checked += len(w.Moves)
			}
		}
		if checked < 200 {
			t.Fatalf("only %d moves checked: the games share too little", checked)
		}
	})
}

// TestExplorerRekey opens a database of migration 11, whose explorer rows
// are keyed by move first: migration 12 keeps every row and sums them into
// explorer_sum, so that answers with and without dates are unchanged.
func TestExplorerRekey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v11.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_foreign_keys=1")
	if err != nil {
		t.Fatal(err)
	}
	fsys, _ := fs.Sub(migrations, "migrations")
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(t.Context(), 11); err != nil {
		t.Fatal(err)
	}
	start := int64(toguz.StartPosition().Key())
	// Move 7 in two months of blitz at band 3, move 2 once unrated.
	if _, err := db.Exec(`INSERT INTO explorer (tree, pos, move, cat, band, month, games, white, draws, black, rating_sum, rated, top, last) VALUES
		(0, $1, 7, 2, 3, 24300, 2, 1, 1, 0, 2500, 2, 'top-a', 'last-a'),
		(0, $1, 7, 2, 3, 24310, 1, 0, 0, 1, 1300, 1, 'top-b', 'last-b'),
		(0, $1, 2, 0, 0, 24310, 1, 1, 0, 0, 0, 0, 'top-c', 'last-c')`, start); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var sums int
	if err := s.r.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM explorer_sum`).Scan(&sums); err != nil || sums != 2 {
		t.Fatalf("explorer_sum: %d rows, %v; want 2", sums, err)
	}
	for _, c := range []struct {
		f    explorer.Filter
		want map[toguz.Move]counts
	}{
		{explorer.Filter{}, map[toguz.Move]counts{7: {3, 1, 1, 1}, 2: {1, 1, 0, 0}}},
		{explorer.Filter{FromMonth: 24305}, map[toguz.Move]counts{7: {1, 0, 0, 1}, 2: {1, 1, 0, 0}}},
		{explorer.Filter{Cats: []int{2}, ToMonth: 24305}, map[toguz.Move]counts{7: {2, 1, 1, 0}}},
	} {
		a, err := s.Explorer(t.Context(), ExplorerQuery{Pos: uint64(start), Filter: c.f})
		if err != nil || fmt.Sprint(answerCounts(a)) != fmt.Sprint(c.want) {
			t.Errorf("filter %+v after migration 12: %v, %v; want %v", c.f, answerCounts(a), err, c.want)
		}
	}
}

// TestExplorerPlanSeeks: SQLite's plan of every kind of query seeks on the
// key down to the buckets the filter selects (the categories and bands, and
// with dates the month range), or reads explorer_sum's few rows of the
// position when nothing is filtered, instead of reading every row of the position, which made
// the explorer's slowest answers.
func TestExplorerPlanSeeks(t *testing.T) {
	s, _ := openTest(t, sqliteBackend)
	for _, c := range []struct {
		f    explorer.Filter
		want string
	}{
		{explorer.Filter{}, "explorer_sum USING PRIMARY KEY (tree=? AND pos=?)"},
		{explorer.Filter{MinRating: 1400, Cats: []int{2}}, "explorer_sum USING PRIMARY KEY (tree=? AND pos=? AND cat=? AND band>? AND band<?)"},
		{explorer.Filter{MaxRating: 1400}, "explorer_sum USING PRIMARY KEY (tree=? AND pos=? AND cat=? AND band>? AND band<?)"},
		{explorer.Filter{FromMonth: 24300}, "explorer USING PRIMARY KEY (tree=? AND pos=? AND cat=? AND band=? AND month>? AND month<?)"},
		{explorer.Filter{ToMonth: 24300, MaxRating: 2000, Cats: []int{1, 3}}, "explorer USING PRIMARY KEY (tree=? AND pos=? AND cat=? AND band=? AND month>? AND month<?)"},
	} {
		query, args := explorerSQL(ExplorerQuery{Pos: 12345, Filter: c.f})
		rows, err := s.r.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if !slices.ContainsFunc(plan, func(d string) bool { return strings.Contains(d, "SEARCH "+c.want) }) {
			t.Errorf("filter %+v: plan %q, want SEARCH %s", c.f, plan, c.want)
		}
	}
}
