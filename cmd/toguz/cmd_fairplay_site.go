package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/store"
)

// siteCorpus returns the analysed records of the rated games between
// people of the server's database db (store.FairPlayFitGames), in the
// order played; the games of another ruleset or from a set-up position,
// which the model does not judge, are left out. The analysis is cached in
// the cache directory's site file.
func siteCorpus(ctx context.Context, e env, db, cache string) ([]fairplay.Record, error) {
	st, err := store.Open(ctx, db, store.Options{Readers: 1})
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if cache != "" {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
	}
	c, err := fairplay.OpenRecordCache(fairplay.SiteCacheFile(cache), fairplay.SiteKey)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	a, err := fairplay.NewAnalyzer()
	if err != nil {
		return nil, err
	}
	const page = 500
	var recs []fairplay.Record
	other, analysed := 0, 0
	afterMS, afterID := int64(0), ""
	for {
		gs, err := st.FairPlayFitGames(ctx, afterMS, afterID, page)
		if err != nil {
			return nil, err
		}
		for _, g := range gs {
			if g.Rules != toguz.Standard() || g.StartFEN != "" {
				other++
				continue
			}
			r, ok := c.Get(fairplay.SiteGameKey(g.ID, g.Plies))
			if !ok {
				sg, err := siteGame(ctx, st, g)
				if err != nil {
					return nil, err
				}
				if r, err = a.AnalyzeSite(ctx, len(recs)+1, sg); err != nil {
					return nil, fmt.Errorf("%s: %w", store.Redact(db), err)
				}
				if err := c.Put(r); err != nil {
					return nil, err
				}
				if analysed++; analysed%100 == 0 {
					fmt.Fprintf(e.stderr, "site: %d games analysed\n", analysed)
				}
			}
			r.Index = len(recs) + 1
			recs = append(recs, r)
		}
		if len(gs) < page {
			break
		}
		last := gs[len(gs)-1]
		afterMS, afterID = last.Date.UnixMilli(), last.ID
	}
	fmt.Fprintf(e.stderr, "site: %d rated games between people (%d analysed now), %d of another ruleset or position left out\n",
		len(recs), analysed, other)
	return recs, nil
}

// siteGame reads the moves of the stored game g (from the standard start:
// White first) with the time each took.
func siteGame(ctx context.Context, st *store.Store, g store.Game) (fairplay.SiteGame, error) {
	ms, err := st.Moves(ctx, g.ID)
	if err != nil {
		return fairplay.SiteGame{}, err
	}
	sg := fairplay.SiteGame{ID: g.ID, Names: [2]string{g.Players[0].Name, g.Players[1].Name}, Ratings: g.RatingBefore,
		Date: g.Date, Moves: make([]toguz.Move, len(ms))}
	if g.TimeControl.Kind() != clock.Unlimited {
		sg.TimeControl = g.TimeControl.String()
	}
	left := make([]time.Duration, len(ms))
	timed := g.TimeControl.Days == 0 && g.TimeControl.Base+g.TimeControl.Increment > 0
	for i, m := range ms {
		sg.Moves[i], left[i] = m.Hole, m.Clock
		timed = timed && m.Clock >= 0
	}
	if timed && len(ms) > 0 {
		sg.Times = fairplay.ClockTimes(g.TimeControl.Base, g.TimeControl.Increment, toguz.White, left)
	}
	return sg, nil
}
