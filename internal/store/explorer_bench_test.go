package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/game"
)

// openingGame is a random legal game's first explorer.MaxPly plies, played
// the way openings are: each position prefers its moves in an order of its
// own (from its key), the first about half the time, so that games share
// lines and transpose as real ones do, and part ways after a few plies.
func openingGame(rng *rand.Rand, moves []toguz.Move) []toguz.Move {
	p := toguz.StartPosition()
	moves = moves[:0]
	for len(moves) < explorer.MaxPly && !p.IsOver() {
		legal := p.LegalMoves().Slice()
		// The position's order of preference: a rotation by its key.
		k := p.Key()
		i := 0
		for i < len(legal)-1 && rng.IntN(2) == 1 {
			i++
		}
		m := legal[(int(k%9)+i)%len(legal)]
		p = p.After(m)
		moves = append(moves, m)
	}
	return moves
}

// explorerBenchGames is how many games BenchmarkExplorer stores: 100,000,
// or TOGUZ_EXPLORER_GAMES (1000000 for the figure).
func explorerBenchGames(b *testing.B) int {
	if v := os.Getenv("TOGUZ_EXPLORER_GAMES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("TOGUZ_EXPLORER_GAMES=%q", v)
		}
		return n
	}
	return 100_000
}

// BenchmarkExplorer builds the site's tree of generated games through the
// path a finished game takes (addExplorer, 2,000 games a transaction of the
// one writer), with a games row for each, then times queries of positions
// of those games (the first 12 plies, where people look), half of them
// with a random filter, and the dearest query (worst-cpu: the start
// position, a date, every category and band). It reports the build's time,
// the database's size and the queries' p50 and p99: of the wall clock, of
// the process's CPU time, and of the wall clock less the time the querying
// thread waited for a CPU (waitless):
//
//	go test -run '^$' -bench 'Explorer$' -benchtime 2000x ./internal/store
//	TOGUZ_EXPLORER_BULK=1 TOGUZ_EXPLORER_GAMES=1000000 TOGUZ_EXPLORER_DB=/tmp/explorer1m.db TOGUZ_EXPLORER_CACHE=131072 \
//		nice -n 19 go test -run '^$' -bench 'Explorer$' -benchtime 3000x -timeout 60m ./internal/store
//
// TOGUZ_EXPLORER_BULK=1 builds the same rows (TestExplorerBulkSame) summed
// in memory and inserted in key order (bulkExplorer), for a million games
// on a loaded machine. TOGUZ_EXPLORER_DB=FILE keeps the database, and a second run with the
// same FILE and TOGUZ_EXPLORER_GAMES times the queries again without the
// build. TOGUZ_EXPLORER_CACHE=131072 gives the writer a 128 MiB page cache (SQLite's
// default is 2 MiB), which shortens the build by a quarter.
//
// Figures (2 shared cores, the cache at 128 MiB): 100,000 games, 1.73 M rows,
// 200 MiB, per query CPU p50 0.35 ms and p99 5.6 ms (the start position's
// 9,049 rows: a position has at most 9 moves × 5 categories × 10 bands ×
// the months of data); 1,000,000 games, 15.7 M rows, 1,845 MiB, wall-clock
// p50 1.7 ms and p99 53 ms at nice 19 with the machine's load at 10 (the
// wall clock counts the waits for a CPU), built in 32 minutes of wall clock.
// Those were before migration 15, when every query read every row of its
// position. After it (explorer_sum, the rekeyed explorer), 100,000 games, the
// two versions' queries of the same games alternated three times on kept
// databases at a load of 7: CPU per query p50 0.27–0.34 ms (before 0.33–0.43),
// p99 1.0–1.3 ms (before 5.9–7.8); wall-clock p50 0.28–0.35 ms, p99 5.3–8.6 ms
// (before 17.8–24.5).
//
// A million games after migration 15, bulk-loaded (8 min 45 s of wall clock
// at nice 19 and a load of 10–16, 163 s of user CPU and 32 s of system, 8.7 GB
// resident at most): 15.7 M rows in explorer, 13.1 M in explorer_sum (most
// deep positions hold one game, so the sums over the months save few rows),
// 3,007 MiB, 13,544 rows of the start position. Seven runs of 3,000 queries
// at nice 19 and a load of 12–16: CPU p50 0.43–0.51 ms, p99 1.3–1.9 ms; wall
// clock less the run queue's wait (five runs) p50 0.42–0.47 ms, p99 1.2–1.9
// ms; wall clock p50 0.45–0.57 ms, p99 12.3–16.3 ms in five runs, 31 and 51
// ms in two (the first was the build's own, with its 8 GB heap): the waits
// for a CPU of a process at nice 19 on a machine loaded 6–8 times its
// cores. The dearest query reads all 13,544 rows in 12.5 ms of CPU (p50;
// p99 14.5 ms), rising with the months of data kept.
//
// Cold, on the idle machine (2 Dec 2026, not niced): after `sync; echo 3 >
// /proc/sys/vm/drop_caches`, a run on the kept million-game file had wall
// p50 0.79 and 0.76 ms, p99 3.50 and 3.55 ms (two runs, each after a drop);
// the run after the first, warm, p50 0.34 ms and p99 1.17 ms; the dearest
// query 9.1–9.5 ms of CPU at p50.
func BenchmarkExplorer(b *testing.B) {
	n := explorerBenchGames(b)
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "explorer.db")
	// TOGUZ_EXPLORER_DB keeps the database built there and, when it is
	// there already (built by the same n), queries it again without the
	// build: the games are generated again for the sample only.
	reuse := false
	if v := os.Getenv("TOGUZ_EXPLORER_DB"); v != "" {
		path = v
		_, err := os.Stat(path)
		reuse = err == nil
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if v := os.Getenv("TOGUZ_EXPLORER_CACHE"); v != "" {
		s.w.ExecContext(ctx, `PRAGMA cache_size = -`+v)
	}
	t0 := time.Now()
	end := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	// The games rows, from SQL alone: the tree's links name them.
	err = s.write(ctx, func(tx *sql.Tx) error {
		if reuse {
			return nil
		}
		_, err := tx.ExecContext(ctx, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $1)
			INSERT INTO games (id, white_name, black_name, rules, time_control, status, result, created_ms, date_ms)
			SELECT printf('b%07d', i), 'w' || (i % 5000), 'b' || (i % 4999), 'standard', '3+2', 'ended',
				CASE i % 20 WHEN 0 THEN '1/2-1/2' ELSE CASE i % 2 WHEN 0 THEN '1-0' ELSE '0-1' END END, $2, $2 FROM n`,
			n, end.UnixMilli())
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	rowsTime := time.Since(t0)
	rng := rand.New(rand.NewPCG(7, 9))
	results := [...]toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw}
	var sample [][]toguz.Move
	var moves []toguz.Move
	const batch = 2000
	var bulk *bulkExplorer
	if os.Getenv("TOGUZ_EXPLORER_BULK") == "1" && !reuse {
		bulk = newBulkExplorer()
	}
	t1 := time.Now()
	for i := 0; i < n; i += batch {
		gs := make([]explorerGame, 0, batch)
		for j := i; j < min(i+batch, n); j++ {
			moves = openingGame(rng, moves)
			date := end.AddDate(0, -rng.IntN(36), rng.IntN(28))
			g := explorerGame{id: "b" + pad7(j+1), start: toguz.StartPosition(), moves: slices.Clone(moves),
				result: results[min(rng.IntN(20)/9, 2)], cat: rng.IntN(5), dateMS: date.UnixMilli(), month: explorer.Month(date)}
			if rng.IntN(10) < 7 {
				g.rating = int(max(600, min(2800, 1500+rng.NormFloat64()*300)))
			}
			gs = append(gs, g)
			if j%(n/1000+1) == 0 {
				sample = append(sample, g.moves)
			}
		}
		if reuse {
			continue
		}
		if bulk != nil {
			for _, g := range gs {
				bulk.add(g)
			}
			continue
		}
		err := s.write(ctx, func(tx *sql.Tx) error {
			for _, g := range gs {
				if err := s.addExplorer(ctx, tx, g); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if bulk != nil {
		if err := bulk.write(ctx, s); err != nil {
			b.Fatal(err)
		}
		bulk = nil
	}
	build := time.Since(t1)
	if _, err := s.w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	// The queries: a position of a sampled game, a filter half the time.
	qrng := rand.New(rand.NewPCG(3, 4))
	// Wall-clock and CPU time per query: on a shared machine the wall clock
	// counts the waits for a CPU, the CPU time (of the process, in which
	// nothing else runs meanwhile) does not.
	// The wall clock's excess over the CPU time is mostly the time the
	// query waited for a CPU on a loaded machine: the queries run on one
	// locked thread (the driver runs SQLite on its caller's), and waitless
	// is the wall clock less that thread's wait in the run queue.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, haveWait := threadWait()
	var lat, cpu, waitless []time.Duration
	type slow struct {
		cpu   time.Duration
		plies int
		f     explorer.Filter
		moves int
	}
	var slowest []slow
	for b.Loop() {
		g := sample[qrng.IntN(len(sample))]
		p := toguz.StartPosition()
		plies := qrng.IntN(min(12, len(g)))
		for _, m := range g[:plies] {
			p = p.After(m)
		}
		var f explorer.Filter
		if qrng.IntN(2) == 1 {
			f = explorer.Filter{MinRating: 1200 + 200*qrng.IntN(4), Cats: []int{1 + qrng.IntN(4)},
				FromMonth: explorer.Month(end.AddDate(0, -qrng.IntN(24), 0))}
		}
		w0, _ := threadWait()
		q0, c0 := time.Now(), cputime.Process()
		a, err := s.Explorer(ctx, ExplorerQuery{Pos: p.Key(), Filter: f})
		if err == nil {
			ids := make([]string, 0, 8)
			for _, r := range slices.Concat(a.Top, a.Recent) {
				ids = append(ids, r.ID)
			}
			_, err = s.GamesByID(ctx, ids)
		}
		wall, c := time.Since(q0), cputime.Process()-c0
		w1, _ := threadWait()
		lat, cpu, waitless = append(lat, wall), append(cpu, c), append(waitless, wall-(w1-w0))
		if err != nil {
			b.Fatal(err)
		}
		slowest = append(slowest, slow{c, plies, f, len(a.Moves)})
		slices.SortFunc(slowest, func(x, y slow) int { return cmp.Compare(y.cpu, x.cpu) })
		slowest = slowest[:min(len(slowest), 3)]
	}
	// Counted after the queries: the count reads the whole table, which
	// would bring a kept database into the page cache before them (a run
	// after dropping the caches measures them cold).
	var rows int64
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM explorer`).Scan(&rows)
	b.Logf("%d games: games rows %v, tree %v (%d rows), file %.0f MiB", n, rowsTime.Round(time.Millisecond),
		build.Round(time.Millisecond), rows, float64(fi.Size())/(1<<20))
	for _, q := range slowest {
		b.Logf("slow: CPU %v, ply %d, filter %+v, %d moves", q.cpu.Round(time.Microsecond), q.plies, q.f, q.moves)
	}
	// The dearest query one can ask: the start position with a date, so
	// that it reads explorer, every category and band, every month: every
	// row of the position (start-rows).
	var worst []time.Duration
	for range 50 {
		c0 := cputime.Process()
		if _, err := s.Explorer(ctx, ExplorerQuery{Pos: toguz.StartPosition().Key(), Filter: explorer.Filter{FromMonth: 1}}); err != nil {
			b.Fatal(err)
		}
		worst = append(worst, cputime.Process()-c0)
	}
	slices.Sort(worst)
	slices.Sort(lat)
	slices.Sort(cpu)
	slices.Sort(waitless)
	q := func(d []time.Duration, f float64) float64 {
		return float64(d[int(f*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(lat, 0.5), "p50-ms")
	b.ReportMetric(q(lat, 0.99), "p99-ms")
	b.ReportMetric(q(cpu, 0.5), "cpu-p50-ms")
	b.ReportMetric(q(cpu, 0.99), "cpu-p99-ms")
	if haveWait {
		b.ReportMetric(q(waitless, 0.5), "waitless-p50-ms")
		b.ReportMetric(q(waitless, 0.99), "waitless-p99-ms")
	}
	b.ReportMetric(q(worst, 0.5), "worst-cpu-p50-ms")
	b.ReportMetric(q(worst, 0.99), "worst-cpu-p99-ms")
	var startRows int64
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM explorer WHERE tree = 0 AND pos = $1`, int64(toguz.StartPosition().Key())).Scan(&startRows)
	b.ReportMetric(float64(startRows), "start-rows")
	if !reuse {
		b.ReportMetric(build.Seconds(), "build-s")
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
	b.ReportMetric(float64(rows), "rows")
}

// threadWait is the time the calling thread has waited for a CPU, from
// Linux's /proc/thread-self/schedstat (its second field), and whether
// there is one to read.
func threadWait() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(f[1], 10, 64)
	return time.Duration(ns), err == nil
}

func pad7(i int) string {
	s := strconv.Itoa(i)
	for len(s) < 7 {
		s = "0" + s
	}
	return s
}

// BenchmarkExplorerFinish times what the explorer adds to a game's end, the
// price the live site pays: FinishGame of a game between two accounts
// (counted in the site's tree and in both players' trees: 3 trees × 20
// positions × 2 tables upserted) against FinishGame of the same moves
// played against the engine (never counted), alternated, on the database
// that BenchmarkExplorer kept at TOGUZ_EXPLORER_DB (else on an empty one):
//
//	TOGUZ_EXPLORER_DB=/tmp/explorer1m.db go test -run '^$' -bench ExplorerFinish -benchtime 300x ./internal/store
//
// The games are unrated, so that the two differ by the explorer alone; their
// moves are the generator's (openingGame), so they meet the rows of the
// kept tree. The database keeps the games it adds (0.06% of a million per
// 300; a second run plays the same games, so it updates rows only). ns/op
// counts the games' creation and moves too: read the metrics.
//
// Figures (2 shared cores, nice 19, a load of 9–12, 300 games of each kind a
// run): on the million games' tree (15.7 M rows, three runs), FinishGame of
// a counted game CPU p50 2.2–2.8 ms, p99 7.8–10.6 ms, wall p50 2.2–3.2 ms,
// p99 22–32 ms; of an uncounted one CPU p50 0.58–0.70 ms, p99 1.5–6.1 ms,
// wall p50 0.57–0.70 ms, p99 7.4–15.4 ms. The explorer's 120 upserts add
// 1.6–2.1 ms of CPU to a game's end at p50 (1.2–1.3 ms on an empty tree, two
// runs: counted 1.76–1.96 ms, uncounted 0.57–0.63 ms), in the one writer.
func BenchmarkExplorerFinish(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "explorer.db")
	if v := os.Getenv("TOGUZ_EXPLORER_DB"); v != "" {
		path = v
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var rows int64
	s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM explorer`).Scan(&rows)
	var users []int64
	for i := range 20 {
		name := "finish" + strconv.Itoa(i)
		u, err := s.CreateUser(ctx, name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA")
		if errors.Is(err, ErrDuplicateName) { // a kept database's second run
			u, err = s.UserByName(ctx, name)
		}
		if err != nil {
			b.Fatal(err)
		}
		users = append(users, u.ID)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	blitz := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	var moves []toguz.Move
	// play stores a started game with the moves and times its end.
	play := func(sides [2]game.Seat) (wall, cpu time.Duration) {
		g, err := s.CreateGame(ctx, Game{Players: sides, Rules: toguz.Standard(), TimeControl: blitz, Status: game.Playing}, nil)
		if err != nil {
			b.Fatal(err)
		}
		for k, m := range moves {
			if err := s.AppendMove(ctx, g.ID, Move{Ply: k + 1, Hole: m}, nil); err != nil {
				b.Fatal(err)
			}
		}
		t0, c0 := time.Now(), cputime.Process()
		if _, err := s.FinishGame(ctx, g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation}); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0), cputime.Process() - c0
	}
	var lat, cpu, engLat, engCPU []time.Duration
	for i := 0; b.Loop(); i++ {
		moves = openingGame(rng, moves)
		a := rng.IntN(len(users))
		c := (a + 1 + rng.IntN(len(users)-1)) % len(users)
		people := [2]game.Seat{{UserID: users[a]}, {UserID: users[c]}}
		engine := [2]game.Seat{{UserID: users[a]}, {Engine: 3}}
		// Alternated, so that neither kind always runs first (on a warmer
		// cache, or a quieter machine).
		for k := range 2 {
			if (i+k)%2 == 0 {
				w, c := play(people)
				lat, cpu = append(lat, w), append(cpu, c)
			} else {
				w, c := play(engine)
				engLat, engCPU = append(engLat, w), append(engCPU, c)
			}
		}
	}
	q := func(d []time.Duration, f float64) float64 {
		d = slices.Sorted(slices.Values(d))
		return float64(d[int(f*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.Logf("%d explorer rows; FinishGame counted in 3 trees against not counted, %d each", rows, len(lat))
	b.ReportMetric(q(lat, 0.5), "p50-ms")
	b.ReportMetric(q(lat, 0.99), "p99-ms")
	b.ReportMetric(q(cpu, 0.5), "cpu-p50-ms")
	b.ReportMetric(q(cpu, 0.99), "cpu-p99-ms")
	b.ReportMetric(q(engLat, 0.5), "engine-p50-ms")
	b.ReportMetric(q(engLat, 0.99), "engine-p99-ms")
	b.ReportMetric(q(engCPU, 0.5), "engine-cpu-p50-ms")
	b.ReportMetric(q(engCPU, 0.99), "engine-cpu-p99-ms")
	b.ReportMetric(float64(rows), "rows")
}
