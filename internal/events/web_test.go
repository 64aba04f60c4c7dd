package events

import (
	"fmt"
	"testing"

	"github.com/toguz/toguz/internal/site"
)

// TestPageOf: the pages of the finished events, FinishedListed a page,
// and the newer and older pages' numbers.
func TestPageOf(t *testing.T) {
	list := func(n int) []*Event {
		out := make([]*Event, n)
		for i := range out {
			out[i] = &Event{ID: fmt.Sprint(i)}
		}
		return out
	}
	const L = FinishedListed
	for _, c := range []struct {
		n, page                  int
		first, len, newer, older int
	}{
		{n: 0, page: 1, len: 0},
		{n: L, page: 1, len: L},
		{n: L + 1, page: 1, len: L, older: 2},
		{n: L + 1, page: 2, first: L, len: 1, newer: 1},
		{n: 2*L + 20, page: 2, first: L, len: L, newer: 1, older: 3},
		{n: 2*L + 20, page: 3, first: 2 * L, len: 20, newer: 2},
		{n: 2*L + 20, page: 0, len: L, older: 2},
		{n: 2*L + 20, page: -5, len: L, older: 2},
		{n: 2*L + 20, page: 9, len: 0, newer: 3},
		{n: 0, page: 4, len: 0, newer: 1},
		{n: 2*L + 20, page: 1 << 62, len: 0, newer: 3},
	} {
		shown, newer, older := site.PageOf(list(c.n), c.page, FinishedListed)
		first := -1
		if len(shown) > 0 {
			fmt.Sscan(shown[0].ID, &first)
		} else {
			first = 0
		}
		if len(shown) != c.len || first != c.first || newer != c.newer || older != c.older {
			t.Errorf("%d events, page %d: %d from %d, newer %d, older %d; want %d from %d, newer %d, older %d",
				c.n, c.page, len(shown), first, newer, older, c.len, c.first, c.newer, c.older)
		}
	}
}

// TestPointsExact: scores and tie-breaks are shown exactly; a
// Sonneborn-Berger with draws has quarters, which one decimal rounded.
func TestPointsExact(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0"}, {2, "2"}, {0.5, "0.5"}, {0.25, "0.25"}, {12.75, "12.75"}, {47.5, "47.5"}} {
		if got := points(c.v); got != c.want {
			t.Errorf("points(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
