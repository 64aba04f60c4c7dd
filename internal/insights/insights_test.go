package insights

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// countingStore is the real store, counting the page's reads.
type countingStore struct {
	*store.Store
	games, reviews atomic.Int32
}

func (c *countingStore) GamesByUser(ctx context.Context, userID int64, limit, offset int) ([]store.Game, error) {
	c.games.Add(1)
	return c.Store.GamesByUser(ctx, userID, limit, offset)
}

func (c *countingStore) ReviewsOf(ctx context.Context, ids []string) (map[string]store.Review, error) {
	c.reviews.Add(1)
	return c.Store.ReviewsOf(ctx, ids)
}

// TestPageReadsTwice: a view of /insights reads the games once and their
// reviews once, however many games there are; a visitor is sent to log in.
func TestPageReadsTwice(t *testing.T) {
	st := sitetest.OpenStore(t, "", store.Options{})
	ctx := t.Context()
	u, err := st.CreateUser(ctx, "Aisulu", "x")
	if err != nil {
		t.Fatal(err)
	}
	const n = 12
	for i := range n {
		seats := [2]game.Seat{{UserID: u.ID, Name: u.Name}, {Name: "Guest-b"}}
		if i%2 == 1 {
			seats[0], seats[1] = seats[1], seats[0]
		}
		g, err := st.CreateGame(ctx, store.Game{Players: seats, Rules: toguz.Standard(), Status: game.Playing}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan}); err != nil {
			t.Fatal(err)
		}
	}
	cs := &countingStore{Store: st}
	kit := sitetest.NewKit(t)
	rt := sitetest.NewRouter(kit)
	New(kit, cs).Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)
	c := sitetest.Client{T: t, URL: ts.URL}
	if r := c.Do("GET", "/insights", "", nil); r.Status != http.StatusSeeOther || r.Location != "/login" {
		t.Errorf("a visitor: %d %q", r.Status, r.Location)
	}
	r := c.Do("GET", "/insights", sitetest.Token(u), nil)
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "<svg") {
		t.Fatalf("the page: %d", r.Status)
	}
	if g, rv := cs.games.Load(), cs.reviews.Load(); g != 1 || rv != 1 {
		t.Errorf("%d games read and %d reviews read for %d games, want one each", g, rv, n)
	}
}
