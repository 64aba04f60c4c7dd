package fairplay

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/toguz/toguz"
)

// Deepener gives records of standard games the deeper evidence: their
// moves analysed again (the evidence at Depth with its order of moves)
// and every ply searched at DeepDepth, as the site's review does. With a
// cache file, the records already done are read from it and each new one
// is appended as soon as it is done, so that an interrupted run loses
// nothing. It is not safe for concurrent use.
type Deepener struct {
	a     *Analyzer
	d     *DeepSearcher
	cache *RecordCache
}

// NewDeepener returns a deepener caching in the file cache ("": none);
// close the returned closer when done.
func NewDeepener(cache string) (*Deepener, io.Closer, error) {
	a, err := NewAnalyzer()
	if err != nil {
		return nil, nil, err
	}
	d, err := NewDeepSearcher()
	if err != nil {
		return nil, nil, err
	}
	c, err := OpenRecordCache(cache, deepKey)
	if err != nil {
		return nil, nil, err
	}
	return &Deepener{a: a, d: d, cache: c}, c, nil
}

func deepKey(r *Record) string {
	return fmt.Sprintf("%s|%d|%s|%s|%s|%d", r.File, r.Index, r.Names[0], r.Names[1], r.Round, len(r.Moves))
}

// Deepen returns r with the deeper evidence.
func (dp *Deepener) Deepen(ctx context.Context, r Record) (Record, error) {
	if d, ok := dp.cache.Get(deepKey(&r)); ok {
		return d, nil
	}
	out, err := dp.Fresh(ctx, r)
	if err != nil {
		return out, err
	}
	return out, dp.cache.Put(out)
}

// Fresh returns r with the deeper evidence, never from the cache.
func (dp *Deepener) Fresh(ctx context.Context, r Record) (Record, error) {
	moves := make([]toguz.Move, len(r.Moves))
	times := make([]time.Duration, len(r.Moves))
	for i, m := range r.Moves {
		moves[i], times[i] = m.Played, m.Time
	}
	start := toguz.StartPosition()
	ev, err := dp.a.Analyze(ctx, start, moves, times)
	if err != nil {
		return r, fmt.Errorf("%s game %d: %w", r.File, r.Index, err)
	}
	if err := dp.d.Deepen(ctx, start, ev); err != nil {
		return r, fmt.Errorf("%s game %d: %w", r.File, r.Index, err)
	}
	out := r
	out.Moves = ev
	return out, nil
}
