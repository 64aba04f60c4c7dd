package fairplay

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toguz/toguz"
)

// SiteFile is the File of the records of the site's own games.
const SiteFile = "site"

// SiteGame is a rated game played on the site between two people, as the
// fit and the measurement read it from the server's database.
type SiteGame struct {
	ID          string
	Names       [2]string // White's and Black's accounts
	Ratings     [2]int    // before the game
	Date        time.Time
	TimeControl string
	Moves       []toguz.Move // from the standard start position
	// Times is each ply's thinking time (ClockTimes); nil without a clock.
	Times []time.Duration
}

// AnalyzeSite returns the record of the site's game g, the index-th read.
// Its Round is the game's id, so that HeldOut splits the site's games by
// game, as it does the PlayOK games.
func (a *Analyzer) AnalyzeSite(ctx context.Context, index int, g SiteGame) (Record, error) {
	r := Record{File: SiteFile, Index: index, Names: g.Names, Ratings: g.Ratings, Event: "toguz rated game",
		Round: g.ID, Date: g.Date.UTC().Format("2006.01.02"), TimeControl: g.TimeControl}
	var err error
	if r.Moves, err = a.Analyze(ctx, toguz.StartPosition(), g.Moves, g.Times); err != nil {
		return r, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return r, nil
}

// ClockTimes returns each ply's thinking time from the mover's time left
// after it (left; first moves first, the sides alternating) under a clock
// of base and increment inc: what the mover had before, plus the
// increment, less what was left, and at least a millisecond.
func ClockTimes(base, inc time.Duration, first toguz.Player, left []time.Duration) []time.Duration {
	had := [2]time.Duration{base, base}
	out := make([]time.Duration, len(left))
	pl := first
	for i, l := range left {
		out[i] = max(had[pl]+inc-l, time.Millisecond)
		had[pl] = l
		pl = pl.Other()
	}
	return out
}

// RecordCache keeps analysed records in a file of JSON lines, one record
// a line, each appended as soon as it is done, so that an interrupted run
// loses nothing and the next finds them by key. It is not safe for
// concurrent use.
type RecordCache struct {
	key  func(*Record) string
	done map[string]Record
	f    *os.File // nil: kept in memory only
}

// OpenRecordCache reads the cache file path, creating it if needed (""
// keeps the records in memory only); key names a record. Close it when
// done.
func OpenRecordCache(path string, key func(*Record) string) (*RecordCache, error) {
	c := &RecordCache{key: key, done: map[string]Record{}}
	if path == "" {
		return c, nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r Record
		if json.Unmarshal(sc.Bytes(), &r) == nil { // a line cut short by an interrupted run is done again
			c.done[key(&r)] = r
		}
	}
	if err := sc.Err(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.f = f
	return c, nil
}

// Get returns the record kept under key.
func (c *RecordCache) Get(key string) (Record, bool) {
	r, ok := c.done[key]
	return r, ok
}

// Put keeps r and appends it to the file.
func (c *RecordCache) Put(r Record) error {
	c.done[c.key(&r)] = r
	if c.f == nil {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := c.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("%s: %w", c.f.Name(), err)
	}
	return nil
}

// Close closes the file.
func (c *RecordCache) Close() error {
	if c.f == nil {
		return nil
	}
	return c.f.Close()
}

// SiteKey is the key of a site's game's record in a RecordCache: the
// game's id and its number of plies (SiteGameKey before it is read).
func SiteKey(r *Record) string { return SiteGameKey(r.Round, len(r.Moves)) }

// SiteGameKey is the key that the record of the site's game id of plies
// plies has in a RecordCache.
func SiteGameKey(id string, plies int) string { return fmt.Sprintf("%s|%s|%d", SiteFile, id, plies) }

// SiteCacheFile is the file in the cache directory dir that keeps the
// site's games analysed ("" when dir is).
func SiteCacheFile(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, fmt.Sprintf("site-d%d-v%d.jsonl", Depth, cacheVersion))
}
