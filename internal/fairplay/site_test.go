package fairplay

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/toguz/toguz"
)

func TestClockTimes(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name      string
		base, inc time.Duration
		first     toguz.Player
		left      []time.Duration
		want      []time.Duration
	}{
		{"no increment", 60 * s, 0, toguz.White, []time.Duration{58 * s, 55 * s, 50 * s, 54 * s}, []time.Duration{2 * s, 5 * s, 8 * s, 1 * s}},
		{"increment", 60 * s, 2 * s, toguz.White, []time.Duration{61 * s, 57 * s, 60 * s}, []time.Duration{1 * s, 5 * s, 3 * s}},
		// From a set-up position with Black to move: the same times.
		{"black first", 60 * s, 2 * s, toguz.Black, []time.Duration{61 * s, 57 * s, 60 * s}, []time.Duration{1 * s, 5 * s, 3 * s}},
		// A clock that gained more than the increment (time given by the
		// opponent) is a move of no time, never a negative one.
		{"time given", 60 * s, 0, toguz.White, []time.Duration{75 * s}, []time.Duration{time.Millisecond}},
		{"none", 60 * s, 0, toguz.White, nil, []time.Duration{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ClockTimes(tc.base, tc.inc, tc.first, tc.left); !slices.Equal(got, tc.want) {
				t.Errorf("ClockTimes(%v, %v, %v) = %v, want %v", tc.base, tc.inc, tc.left, got, tc.want)
			}
		})
	}
}

// TestRecordCache: records put are found again after the file is opened
// anew, a line cut short by an interrupted run is skipped, and a cache
// without a file keeps them in memory.
func TestRecordCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "site.jsonl")
	c, err := OpenRecordCache(path, SiteKey)
	if err != nil {
		t.Fatal(err)
	}
	key := SiteGameKey("abc", 2)
	r := Record{File: SiteFile, Index: 1, Round: "abc", Names: [2]string{"abai", "bolat"}, Ratings: [2]int{1500, 1600}, Moves: []Move{{Rank: 0}, {Rank: 1}}}
	if _, ok := c.Get(key); ok {
		t.Fatal("an empty cache has the record")
	}
	if err := c.Put(r); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"file": "site", "round": "cut`)
	f.Close()
	c, err = OpenRecordCache(path, SiteKey)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, ok := c.Get(key)
	if !ok || got.Names != r.Names || got.Ratings != r.Ratings || len(got.Moves) != 2 || got.Moves[1].Rank != 1 {
		t.Errorf("Get after reopening = %+v, %v; want %+v", got, ok, r)
	}
	if len(c.done) != 1 {
		t.Errorf("%d records read, want 1 (the cut line skipped)", len(c.done))
	}
	mem, _ := OpenRecordCache("", SiteKey)
	mem.Put(r)
	if _, ok := mem.Get(key); !ok {
		t.Error("a cache without a file lost the record")
	}
}
