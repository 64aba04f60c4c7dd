package fairplay

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
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
	a    *Analyzer
	d    *DeepSearcher
	done map[string]Record
	w    io.Writer
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
	dp := &Deepener{a: a, d: d, done: map[string]Record{}}
	if cache == "" {
		return dp, io.NopCloser(nil), nil
	}
	f, err := os.OpenFile(cache, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, nil, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r Record
		if json.Unmarshal(sc.Bytes(), &r) == nil { // a line cut short by an interrupted run is done again
			dp.done[deepKey(&r)] = r
		}
	}
	if err := sc.Err(); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", cache, err)
	}
	dp.w = f
	return dp, f, nil
}

func deepKey(r *Record) string {
	return fmt.Sprintf("%s|%d|%s|%s|%s|%d", r.File, r.Index, r.Names[0], r.Names[1], r.Round, len(r.Moves))
}

// Deepen returns r with the deeper evidence.
func (dp *Deepener) Deepen(ctx context.Context, r Record) (Record, error) {
	if d, ok := dp.done[deepKey(&r)]; ok {
		return d, nil
	}
	out, err := dp.Fresh(ctx, r)
	if err != nil {
		return out, err
	}
	dp.done[deepKey(&r)] = out
	if dp.w != nil {
		b, err := json.Marshal(out)
		if err != nil {
			return out, err
		}
		if _, err := dp.w.Write(append(b, '\n')); err != nil {
			return out, err
		}
	}
	return out, nil
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
