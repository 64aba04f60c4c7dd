package broadcast

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/store"
)

// TestFeedBounds: one address may hold maxBroadcastViewersPerAddr
// streams and no more (429, too many spectators), another address is not
// counted with it, and a closed stream frees its place; the last viewer
// gone, nothing of the broadcast is kept.
func TestFeedBounds(t *testing.T) {
	var f feed
	var chs []chan struct{}
	for range maxBroadcastViewersPerAddr {
		ch, err := f.subscribe(1, "a")
		if err != nil {
			t.Fatal(err)
		}
		chs = append(chs, ch)
	}
	_, err := f.subscribe(1, "a")
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Status != http.StatusTooManyRequests || ae.Code != apierr.CodeTooManySpectators {
		t.Fatalf("past the bound of an address: %v, want 429 %s", err, apierr.CodeTooManySpectators)
	}
	other, err := f.subscribe(1, "b")
	if err != nil {
		t.Fatalf("another address: %v", err)
	}
	f.unsubscribe(1, "a", chs[0])
	if chs[0], err = f.subscribe(1, "a"); err != nil {
		t.Fatalf("after a stream closed: %v", err)
	}
	f.keep(&store.Broadcast{ID: 1}, 0)
	for _, ch := range chs {
		f.unsubscribe(1, "a", ch)
	}
	f.unsubscribe(1, "b", other)
	if b, _ := f.cached(1); b != nil || len(f.subs) != 0 || len(f.byAddr) != 0 || len(f.state) != 0 {
		t.Errorf("after the last viewer: cached %v, %d broadcasts, %d addresses, %d states", b, len(f.subs), len(f.byAddr), len(f.state))
	}
}

// TestFeedFolds: the first change is told at once; the changes within
// broadcastGap after it are folded into one told at its end; a write
// forgets the kept state, and a load older than the write is not kept.
func TestFeedFolds(t *testing.T) {
	var f feed
	ch, err := f.subscribe(7, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer f.unsubscribe(7, "a", ch)
	f.publish(8) // nobody watches broadcast 8
	b, gen := f.cached(7)
	if b != nil {
		t.Fatalf("kept before any load: %v", b)
	}
	f.keep(&store.Broadcast{ID: 7, Name: "loaded"}, gen)
	if b, _ := f.cached(7); b == nil || b.Name != "loaded" {
		t.Fatalf("kept after a load: %v", b)
	}
	start := time.Now()
	f.publish(7)
	select {
	case <-ch:
	default:
		t.Fatal("the first change was not told at once")
	}
	if b, _ := f.cached(7); b != nil {
		t.Errorf("the write kept the old state %v", b)
	}
	_, gen = f.cached(7)
	f.publish(7)
	f.publish(7)
	f.keep(&store.Broadcast{ID: 7, Name: "stale"}, gen)
	if b, _ := f.cached(7); b != nil {
		t.Errorf("a load older than the last write was kept: %v", b)
	}
	select {
	case <-ch:
		t.Fatal("a change within the gap was told at once")
	default:
	}
	select {
	case <-ch:
		if d := time.Since(start); d < broadcastGap {
			t.Errorf("told after %v, within the gap %v", d, broadcastGap)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the changes within the gap were never told")
	}
	select {
	case <-ch:
		t.Error("two changes within the gap told twice")
	case <-time.After(2 * broadcastGap):
	}
}

// TestResultStandings: a win is 1, a draw ½, by the players' names;
// rounds after the one shown do not count, the players of a game without
// a result are listed, and no result at all is no table.
func TestResultStandings(t *testing.T) {
	games := []store.BroadcastGame{
		{Round: 1, White: "A", Black: "B", Result: "0-1"},
		{Round: 1, White: "C", Black: "D", Result: "1/2-1/2"},
		{Round: 1, White: "E", Black: "F"},
		{Round: 2, White: "B", Black: "C", Result: "0-1"},
	}
	for _, tc := range []struct {
		r    int
		want string
	}{
		{1, "[{1 B 1} {2 C 0.5} {3 D 0.5} {4 A 0} {5 E 0} {6 F 0}]"},
		{2, "[{1 C 1.5} {2 B 1} {3 D 0.5} {4 A 0} {5 E 0} {6 F 0}]"},
	} {
		if got := fmt.Sprint(resultStandings(games, tc.r)); got != tc.want {
			t.Errorf("round %d: %s, want %s", tc.r, got, tc.want)
		}
	}
	if got := resultStandings(games[2:3], 1); len(got) != 0 {
		t.Errorf("no result entered: %v, want none", got)
	}
}
