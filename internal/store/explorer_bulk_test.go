package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/explorer"
)

// bulkExplorer builds the site's tree of many generated games (no
// accounts: the site's tree alone) as addExplorer would one by one, but
// summed in memory and inserted in key order, many rows a statement:
// BenchmarkExplorer's TOGUZ_EXPLORER_BULK=1, since on the shared 2-core
// machine at a load of 30 the one-by-one path added 2,500 games a minute.
// TestExplorerBulkSame checks that both give the same rows.
//
// The rows are values in a slice and the map holds their indexes, so that
// the collector never scans the 15.7 million rows of a million games.
type bulkExplorer struct {
	ids  []string
	idx  map[bulkKey]int32
	rows []bulkRow
}

type bulkKey struct {
	pos                    int64
	cat, band, month, move int32
}

// bulkRow is a row's sums; its top and last games by index in ids, kept as
// numbers (explorer.Ref's keys are made at insert time).
type bulkRow struct {
	games, white, draws, black, ratingSum, rated int64
	topRating, lastRating                        int32
	topDate, lastDate                            int64
	top, last                                    int32
}

func newBulkExplorer() *bulkExplorer { return &bulkExplorer{idx: map[bulkKey]int32{}} }

// refLess orders two games as Ref.TopKey (by rating, date, id) or, with
// last, as Ref.LastKey (date, rating, id).
func (bk *bulkExplorer) refLess(r1 int32, d1 int64, i1 int32, r2 int32, d2 int64, i2 int32, last bool) bool {
	a, b := cmp.Compare(r1, r2), cmp.Compare(d1, d2)
	if last {
		a, b = b, a
	}
	if a != 0 {
		return a < 0
	}
	if b != 0 {
		return b < 0
	}
	return bk.ids[i1] < bk.ids[i2]
}

func (bk *bulkExplorer) add(g explorerGame) {
	if g.users != [2]int64{} {
		panic("bulkExplorer: the site's tree only")
	}
	idx := int32(len(bk.ids))
	bk.ids = append(bk.ids, g.id)
	w, d, b := explorer.Counts(g.result)
	band := int32(explorer.Band(g.rating))
	var rsum, rated int64
	if g.rating > 0 {
		rsum, rated = int64(g.rating), 1
	}
	var seen [explorer.MaxPly]uint64
	n := 0
	explorer.Walk(g.start, g.moves, func(key uint64, m toguz.Move) {
		if slices.Contains(seen[:n], key) {
			return
		}
		seen[n] = key
		n++
		k := bulkKey{int64(key), int32(g.cat), band, int32(g.month), int32(m)}
		i, ok := bk.idx[k]
		if !ok {
			i = int32(len(bk.rows))
			bk.idx[k] = i
			bk.rows = append(bk.rows, bulkRow{topRating: int32(g.rating), topDate: g.dateMS, top: idx,
				lastRating: int32(g.rating), lastDate: g.dateMS, last: idx})
		}
		r := &bk.rows[i]
		if ok {
			if bk.refLess(r.topRating, r.topDate, r.top, int32(g.rating), g.dateMS, idx, false) {
				r.topRating, r.topDate, r.top = int32(g.rating), g.dateMS, idx
			}
			if bk.refLess(r.lastRating, r.lastDate, r.last, int32(g.rating), g.dateMS, idx, true) {
				r.lastRating, r.lastDate, r.last = int32(g.rating), g.dateMS, idx
			}
		}
		r.games++
		r.white += w
		r.draws += d
		r.black += b
		r.ratingSum += rsum
		r.rated += rated
	})
}

// merge adds o's sums to r (the same position, bucket but month, move).
func (bk *bulkExplorer) merge(r, o *bulkRow) {
	if bk.refLess(r.topRating, r.topDate, r.top, o.topRating, o.topDate, o.top, false) {
		r.topRating, r.topDate, r.top = o.topRating, o.topDate, o.top
	}
	if bk.refLess(r.lastRating, r.lastDate, r.last, o.lastRating, o.lastDate, o.last, true) {
		r.lastRating, r.lastDate, r.last = o.lastRating, o.lastDate, o.last
	}
	r.games += o.games
	r.white += o.white
	r.draws += o.draws
	r.black += o.black
	r.ratingSum += o.ratingSum
	r.rated += o.rated
}

// bulkPerStmt and bulkPerTx are how many rows one INSERT and one
// transaction of the writer carry.
const bulkPerStmt, bulkPerTx = 64, 200_000

// write inserts the rows of both tables in key order, bulkPerStmt rows a
// statement, prepared once a transaction. The parameters are positional
// (?): with numbered ones ($1 … $896) SQLite's parser and the driver's bind
// look each name up in a list, a cost quadratic in the statement's
// parameters that took 7 minutes of the 100,000 games' build and most of
// an hour of a million's.
func (bk *bulkExplorer) write(ctx context.Context, s *Store) error {
	type keyed struct {
		k bulkKey
		i int32
	}
	keys := make([]keyed, 0, len(bk.idx))
	for k, i := range bk.idx {
		keys = append(keys, keyed{k, i})
	}
	bk.idx = nil // the keys are in keys now; the map's memory goes back
	slices.SortFunc(keys, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.k.pos, b.k.pos), cmp.Compare(a.k.cat, b.k.cat), cmp.Compare(a.k.band, b.k.band),
			cmp.Compare(a.k.month, b.k.month), cmp.Compare(a.k.move, b.k.move))
	})
	type sumKey struct {
		pos             int64
		cat, band, move int32
	}
	// The sums over the months: the rows of one (pos, cat, band) are
	// consecutive in keys, months before moves, so each group's moves are
	// summed in a small array and come out in the order of the moves.
	var sums []sumKey
	var sumRows []bulkRow
	for lo := 0; lo < len(keys); {
		k0 := keys[lo].k
		var byMove [10]bulkRow
		var have [10]bool
		hi := lo
		for ; hi < len(keys) && keys[hi].k.pos == k0.pos && keys[hi].k.cat == k0.cat && keys[hi].k.band == k0.band; hi++ {
			m, r := keys[hi].k.move, &bk.rows[keys[hi].i]
			if have[m] {
				bk.merge(&byMove[m], r)
			} else {
				byMove[m], have[m] = *r, true
			}
		}
		for m := range byMove {
			if have[m] {
				sums = append(sums, sumKey{k0.pos, k0.cat, k0.band, int32(m)})
				sumRows = append(sumRows, byMove[m])
			}
		}
		lo = hi
	}
	refs := func(r *bulkRow) (string, string) {
		top := explorer.Ref{ID: bk.ids[r.top], Rating: int(r.topRating), DateMS: r.topDate}
		last := explorer.Ref{ID: bk.ids[r.last], Rating: int(r.lastRating), DateMS: r.lastDate}
		return top.TopKey(), last.LastKey()
	}
	insert := func(table, cols string, n int, row func(i int, args []any) []any) error {
		ncols := strings.Count(cols, ",") + 1
		stmt := func(rows int) string {
			one := "(" + strings.Repeat("?,", ncols-1) + "?)"
			return `INSERT INTO ` + table + ` (` + cols + `) VALUES ` + strings.Repeat(one+",", rows-1) + one
		}
		full := stmt(bulkPerStmt)
		args := make([]any, 0, bulkPerStmt*ncols)
		for lo := 0; lo < n; lo += bulkPerTx {
			err := s.write(ctx, func(tx *sql.Tx) error {
				st, err := tx.PrepareContext(ctx, full)
				if err != nil {
					return fmt.Errorf("bulk %s: %w", table, err)
				}
				defer st.Close()
				for i := lo; i < min(lo+bulkPerTx, n); i += bulkPerStmt {
					args = args[:0]
					j := i
					for ; j < min(i+bulkPerStmt, n, lo+bulkPerTx); j++ {
						args = row(j, args)
					}
					if j-i == bulkPerStmt {
						_, err = st.ExecContext(ctx, args...)
					} else {
						_, err = tx.ExecContext(ctx, stmt(j-i), args...)
					}
					if err != nil {
						return fmt.Errorf("bulk %s: %w", table, err)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	err := insert("explorer", "tree, pos, cat, band, month, move, games, white, draws, black, rating_sum, rated, top, last", len(keys), func(i int, args []any) []any {
		k := keys[i].k
		r := &bk.rows[keys[i].i]
		top, last := refs(r)
		return append(args, int64(SiteTree), k.pos, int64(k.cat), int64(k.band), int64(k.month), int64(k.move),
			r.games, r.white, r.draws, r.black, r.ratingSum, r.rated, top, last)
	})
	if err != nil {
		return err
	}
	return insert("explorer_sum", "tree, pos, cat, band, move, games, white, draws, black, rating_sum, rated, top, last", len(sums), func(i int, args []any) []any {
		k := sums[i]
		r := &sumRows[i]
		top, last := refs(r)
		return append(args, int64(SiteTree), k.pos, int64(k.cat), int64(k.band), int64(k.move),
			r.games, r.white, r.draws, r.black, r.ratingSum, r.rated, top, last)
	})
}

// TestExplorerBulkSame: the benchmark's bulk load gives the same rows of
// both tables as addExplorer game by game.
func TestExplorerBulkSame(t *testing.T) {
	one, _ := openTest(t, sqliteBackend)
	bulk, _ := openTest(t, sqliteBackend)
	ctx := t.Context()
	rng := rand.New(rand.NewPCG(1, 2))
	end := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	results := [...]toguz.Result{toguz.WhiteWins, toguz.BlackWins, toguz.Draw}
	bk := newBulkExplorer()
	var moves []toguz.Move
	var games []explorerGame
	for i := range 1500 {
		moves = openingGame(rng, moves)
		date := end.AddDate(0, -rng.IntN(6), rng.IntN(28))
		g := explorerGame{id: "b" + pad7(i+1), start: toguz.StartPosition(), moves: slices.Clone(moves),
			result: results[rng.IntN(3)], cat: rng.IntN(explorer.Cats), dateMS: date.UnixMilli(), month: explorer.Month(date)}
		if rng.IntN(10) < 7 {
			g.rating = 600 + rng.IntN(2200)
		}
		games = append(games, g)
		bk.add(g)
	}
	if err := one.write(ctx, func(tx *sql.Tx) error {
		for _, g := range games {
			if err := one.addExplorer(ctx, tx, g); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := bk.write(ctx, bulk); err != nil {
		t.Fatal(err)
	}
	dump := func(s *Store, q string) []string {
		rows, err := s.r.QueryContext(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out []string
		for rows.Next() {
			vs := make([]any, len(cols))
			ps := make([]any, len(cols))
			for i := range vs {
				ps[i] = &vs[i]
			}
			if err := rows.Scan(ps...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vs...))
		}
		return out
	}
	for _, q := range []string{`SELECT * FROM explorer ORDER BY tree, pos, cat, band, month, move`,
		`SELECT * FROM explorer_sum ORDER BY tree, pos, cat, band, move`} {
		a, b := dump(one, q), dump(bulk, q)
		if len(a) < 1000 || !slices.Equal(a, b) {
			t.Errorf("%s: %d rows one by one, %d in bulk, equal %v", q, len(a), len(b), slices.Equal(a, b))
		}
	}
}
