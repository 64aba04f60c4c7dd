package fairplay

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
)

// MeasureConfig says what Measure measures.
type MeasureConfig struct {
	Levels []int     // the cheater's engine levels
	Shares []float64 // the shares of the cheater's moves the engine plays
	// Accounts is the number of simulated cheating accounts per level and
	// share, each playing AccountGames games.
	Accounts, AccountGames int
	// MastersRating is the rating the master games (which have none) are
	// judged at.
	MastersRating int
	Seed          uint64
	Workers       int
	// Games, when not nil, holds simulated games saved by an earlier run
	// (ReadSimulated): a job whose game is there is not simulated again.
	// Save, when not nil, gets every game simulated (WriteSimulated's
	// lines), so that another statistic can be measured on the same games.
	Games map[SimKey]Simulated
	Save  io.Writer
	// Judged, when not nil, are the held-out PlayOK games to judge as
	// human games (with the deeper evidence, or a part of them); nil: the
	// held-out games of playok. The simulated games start from playok's
	// held-out games either way.
	Judged []Record
	// SavedOnly measures the saved games (Games) alone: nothing is
	// simulated, and an account with a game missing is left out of its
	// row's count of accounts.
	SavedOnly bool
	// Site holds the site's own rated games between people (AnalyzeSite):
	// its held-out games are judged as human games too, and its accounts
	// as human accounts.
	Site []Record
}

// sideRow returns the account row of a judged side, as the store keeps it.
func sideRow(v Verdict, rating, n int) game.FairPlay {
	return game.FairPlay{Moves: v.Moves, Score: v.Score, Strength: v.Strength, IPR: v.IPR, Rating: rating, Rated: true,
		Computed: time.Unix(int64(n), 0)}
}

// upper95 returns the one-sided 95% upper confidence bound of a share of
// k in n (Clopper–Pearson).
func upper95(k, n int) float64 {
	if n == 0 {
		return 1
	}
	// P(X ≤ k | p) = 0.05, by bisection on p.
	lo, hi := float64(k)/float64(n), 1.0
	for range 60 {
		mid := (lo + hi) / 2
		if binomAtMost(n, k, mid) > 0.05 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// binomAtMost returns P(X ≤ k) for X ~ Binomial(n, p), each term from its
// logarithm: the product form's first term, (1−p)^n, underflows to 0 for
// a few hundred trials at p near 1.
func binomAtMost(n, k int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n || p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	lf := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	ln, lp, lq := lf(n), math.Log(p), math.Log1p(-p)
	s := 0.0
	for i := 0; i <= k; i++ {
		s += math.Exp(ln - lf(i) - lf(n-i) + float64(i)*lp + float64(n-i)*lq)
	}
	return min(s, 1)
}

// interval95 returns the two-sided 95% Clopper–Pearson interval of a
// share of k in n.
func interval95(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	// bisect returns the p at which f crosses 0.025, f falling in p.
	bisect := func(f func(float64) float64) float64 {
		a, b := 0.0, 1.0
		for range 60 {
			if m := (a + b) / 2; f(m) > 0.025 {
				a = m
			} else {
				b = m
			}
		}
		return (a + b) / 2
	}
	lo, hi = 0, 1
	if k > 0 {
		// P(X ≥ k | lo) = 0.025: P(X ≤ k−1 | lo) = 0.975.
		lo = bisect(func(p float64) float64 { return binomAtMost(n, k-1, p) - 0.95 })
	}
	if k < n {
		hi = bisect(func(p float64) float64 { return binomAtMost(n, k, p) })
	}
	return lo, hi
}

// within returns whether the account of some prefix of at most n of rows
// (in order) is flagged at threshold (Account): an account checked after
// each game.
func within(rows []game.FairPlay, n int, threshold float64) (bool, int) {
	for i := range min(n, len(rows)) {
		if Account(rows[:i+1], threshold).Flag {
			return true, i + 1
		}
	}
	return false, 0
}

// Measure measures m's error rates at its default threshold and writes
// them to w: on the held-out PlayOK games and the master games (human
// games, never fit on), per game and side and per account (the games of a
// name), and on simulated games from held-out positions where one side is
// a Cheater, per game and per account of AccountGames games.
func Measure(ctx context.Context, playok, masters []Record, m Model, cfg MeasureConfig, w io.Writer) error {
	th := m.Threshold
	_, held := Split(playok)
	fmt.Fprintf(w, "model: threshold %.2f, spread %.3f; evidence depth %d", th, m.Spread, Depth)
	if m.DeepWeight > 0 {
		fmt.Fprintf(w, ", deeper evidence at depth %d, weight %g, spread %.3f", DeepDepth, m.DeepWeight, m.DeepSpread)
	}
	fmt.Fprintf(w, "\n\n")

	// Human games, per side.
	type tally struct {
		n, flagged        int
		scores, strengths []float64
	}
	var scores []float64
	humans := func(recs []Record, rating func(r *Record, pl int) int) tally {
		var t tally
		for i := range recs {
			r := &recs[i]
			for pl := range 2 {
				rt := rating(r, pl)
				if rt <= 0 {
					continue
				}
				v := m.Judge(r.Side(toguz.Player(pl)), float64(rt), th)
				if v.Moves < MinMoves {
					continue
				}
				t.n++
				scores = append(scores, v.Score)
				t.scores = append(t.scores, v.Score)
				t.strengths = append(t.strengths, v.Strength)
				if v.Flag {
					t.flagged++
				}
			}
		}
		return t
	}
	judged := held
	if cfg.Judged != nil {
		judged = cfg.Judged
	}
	own := func(r *Record, pl int) int { return r.Ratings[pl] }
	_, site := Split(cfg.Site)
	rows := []struct {
		name string
		recs int
		t    tally
	}{
		{"PlayOK held out", len(judged), humans(judged, own)},
		{fmt.Sprintf("masters 2018 at rating %d", cfg.MastersRating), len(masters), humans(masters, func(*Record, int) int { return cfg.MastersRating })},
		{"the site's held out", len(cfg.Site), humans(site, own)},
	}
	mean, sd := meanSD(scores)
	fmt.Fprintf(w, "human sides (at least %d judged moves):\n", MinMoves)
	k, n := 0, 0
	for _, t := range rows {
		if t.recs == 0 {
			continue // a corpus not read
		}
		mean, sd := meanSD(t.t.scores)
		smean, ssd := meanSD(t.t.strengths)
		fmt.Fprintf(w, "  %s: %d flagged of %d; scores mean %.2f, sd %.2f, max %.2f; strength mean %.2f, sd %.2f, max %.2f\n",
			t.name, t.t.flagged, t.t.n, mean, sd, maxOf(t.t.scores), smean, ssd, maxOf(t.t.strengths))
		k, n = k+t.t.flagged, n+t.t.n
	}
	fmt.Fprintf(w, "  together: %d of %d = %.4f%%, 95%% upper bound %.4f%%; scores mean %.2f, sd %.2f, max %.2f\n\n",
		k, n, 100*float64(k)/float64(max(n, 1)), 100*upper95(k, n), mean, sd, maxOf(scores))

	// Human accounts: the held-out games of each name, in the order read.
	accounts := func(what string, recs []Record) {
		byName := map[string][]game.FairPlay{}
		var names []string
		for i := range recs {
			r := &recs[i]
			for pl := range 2 {
				if r.Ratings[pl] <= 0 {
					continue
				}
				v := m.Judge(r.Side(toguz.Player(pl)), float64(r.Ratings[pl]), th)
				if v.Moves < MinMoves {
					continue
				}
				name := r.Names[pl]
				if _, ok := byName[name]; !ok {
					names = append(names, name)
				}
				byName[name] = append(byName[name], sideRow(v, r.Ratings[pl], r.Index))
			}
		}
		var acc, accFlag, acc10, multi int
		for _, name := range names {
			rows := byName[name]
			acc++
			if len(rows) > 1 {
				multi++
			}
			if Account(rows, th).Flag {
				accFlag++
			}
			if ok, _ := within(rows, 10, th); ok {
				acc10++
			}
		}
		fmt.Fprintf(w, "human accounts (%s, held-out games): %d accounts (%d with several games)\n", what, acc, multi)
		fmt.Fprintf(w, "  flagged on all their games: %d (95%% upper bound %.2f%%); flagged after some game of their first 10: %d (%.2f%%)\n\n",
			accFlag, 100*upper95(accFlag, acc), acc10, 100*upper95(acc10, acc))
	}
	if len(judged) > 0 {
		accounts("PlayOK names", judged)
	}
	if len(cfg.Site) > 0 {
		accounts("the site's accounts", site)
	}
	// Simulated cheaters.
	type job struct {
		level   int
		share   float64
		account int
		game    int
	}
	var jobs []job
	// The shares outermost: a run cut short has the rows of every move.
	for _, s := range cfg.Shares {
		for _, l := range cfg.Levels {
			for a := range cfg.Accounts {
				for g := range cfg.AccountGames {
					jobs = append(jobs, job{l, s, a, g})
				}
			}
		}
	}
	var usable []int
	for i := range held {
		if held[i].Ratings[0] > 0 && held[i].Ratings[1] > 0 && len(held[i].Moves) > BookPlies {
			usable = append(usable, i)
		}
	}
	if len(usable) == 0 && len(jobs) > 0 {
		return fmt.Errorf("fairplay: no held-out rated game to start the simulated games from")
	}

	if len(jobs) == 0 {
		return nil
	}
	results := make([]Verdict, len(jobs))
	missing := make([]bool, len(jobs))
	perRow := cfg.Accounts * cfg.AccountGames
	rowDone := make([]int, len(jobs)/max(perRow, 1)+1)
	fmt.Fprintf(w, "simulated cheaters (from held-out PlayOK openings; %d accounts of %d games per row):\n", cfg.Accounts, cfg.AccountGames)
	fmt.Fprintf(w, "  %-6s %-6s %-22s %-10s %-10s %-10s %-24s\n", "level", "share", "games flagged", "mean z", "strength", "mean IPR", "accounts flagged ≤ N games")
	// row writes the line of the row of jobs [first, first+perRow).
	row := func(first int) {
		var games, flagged, accFlagged, accounts int
		var zsum, ssum, iprSum float64
		for a := range cfg.Accounts {
			from, to := first+a*cfg.AccountGames, first+(a+1)*cfg.AccountGames
			if slices.Contains(missing[from:to], true) {
				continue
			}
			accounts++
			var rows []game.FairPlay
			for _, v := range results[from:to] {
				if v.Moves < MinMoves {
					continue
				}
				games++
				zsum += v.Score
				ssum += v.Strength
				iprSum += float64(v.IPR)
				if v.Flag {
					flagged++
				}
				rows = append(rows, sideRow(v, 0, len(rows)))
			}
			if ok, _ := within(rows, cfg.AccountGames, th); ok {
				accFlagged++
			}
		}
		j := jobs[first]
		lo, hi := interval95(accFlagged, accounts)
		fmt.Fprintf(w, "  %-6d %-6.2f %4d of %4d = %5.1f%%  %-10.2f %-10.2f %-10.0f %d of %d = %.0f%% (95%%: %.0f%%–%.0f%%)\n", j.level, j.share, flagged, games,
			100*float64(flagged)/float64(max(games, 1)), zsum/float64(max(games, 1)), ssum/float64(max(games, 1)), iprSum/float64(max(games, 1)),
			accFlagged, accounts, 100*float64(accFlagged)/float64(max(accounts, 1)), 100*lo, 100*hi)
	}
	var mu sync.Mutex
	var firstErr error
	next := 0
	var wg sync.WaitGroup
	for range max(cfg.Workers, 1) {
		wg.Go(func() {
			a, err := NewAnalyzer()
			var eng *engine.Engine
			var deep *DeepSearcher
			if err == nil {
				eng, err = newCheatEngine()
			}
			if err == nil {
				deep, err = NewDeepSearcher()
			}
			for {
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				i := next
				next++
				stop := firstErr != nil || i >= len(jobs)
				mu.Unlock()
				if stop {
					return
				}
				j := jobs[i]
				key := SimKey{Seed: cfg.Seed, Job: i, Level: j.level, Share: j.share, Account: j.account, Game: j.game}
				sim, ok := cfg.Games[key]
				if ok && !hasOrder(sim.Record.Moves) {
					// Saved before the evidence kept its order of moves:
					// analysed again, with the deeper evidence.
					ev, serr := reanalyze(ctx, a, deep, sim.Record.Moves)
					if serr != nil {
						err = serr
						continue
					}
					sim.Record.Moves, ok = ev, false
				}
				if !ok && cfg.SavedOnly {
					mu.Lock()
					missing[i] = true
					r := i / perRow
					if rowDone[r]++; rowDone[r] == perRow {
						row(r * perRow)
					}
					mu.Unlock()
					continue
				}
				if !ok && sim.Record.Moves == nil {
					rng := newRand(cfg.Seed, uint64(i))
					rec := held[usable[rng.IntN(len(usable))]]
					side := toguz.Player(rng.IntN(2))
					simRec, serr := a.Simulate(ctx, rec, side, Cheater{Level: j.level, Share: j.share}, m, eng, deep, rng)
					if serr != nil {
						err = serr
						continue
					}
					sim = Simulated{SimKey: key, Side: side, Rating: rec.Ratings[side], Record: simRec}
				}
				v := m.Judge(sim.Record.Side(sim.Side), float64(sim.Rating), th)
				mu.Lock()
				if !ok && cfg.Save != nil {
					if serr := WriteSimulated(cfg.Save, sim); serr != nil && firstErr == nil {
						firstErr = serr
					}
				}
				results[i] = v
				r := i / perRow
				if rowDone[r]++; rowDone[r] == perRow {
					row(r * perRow)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return firstErr
}

// hasOrder reports whether the evidence keeps its order of moves (and so
// the deeper evidence): saved games from before it do not.
func hasOrder(ev []Move) bool {
	for _, m := range ev {
		if m.Judged() {
			return m.Order != nil
		}
	}
	return true
}

// reanalyze returns the evidence of ev's moves (a standard game's) again,
// with the deeper evidence.
func reanalyze(ctx context.Context, a *Analyzer, deep *DeepSearcher, ev []Move) ([]Move, error) {
	moves := make([]toguz.Move, len(ev))
	times := make([]time.Duration, len(ev))
	for i, m := range ev {
		moves[i], times[i] = m.Played, m.Time
	}
	out, err := a.Analyze(ctx, toguz.StartPosition(), moves, times)
	if err != nil {
		return nil, err
	}
	// The simulated game's book plies stay as they were played and marked.
	for i := range out {
		out[i].Book = out[i].Book || ev[i].Book
	}
	return out, deep.Deepen(ctx, toguz.StartPosition(), out)
}

func maxOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return slices.Max(xs)
}
