package engine

import (
	"context"
	"testing"

	"github.com/toguz/toguz"
)

// TestYieldStops: Limits.Yield is called while the search runs, and a stop
// that arrives during it (as the browser's does) ends an infinite search.
func TestYieldStops(t *testing.T) {
	e, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	lim := Limits{Infinite: true, Yield: func() {
		if calls++; calls == 200 {
			cancel()
		}
	}}
	res := e.Search(ctx, toguz.StartPosition(), lim, nil)
	if calls < 200 || res.Best == toguz.NoMove {
		t.Errorf("yield called %d times, best %v", calls, res.Best)
	}
}
