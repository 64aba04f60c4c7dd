package simul

import (
	"context"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// The tests run the Hall as the server does, on a real store (SQLite in a
// temp dir), a real hub and the real templates, behind sitetest's Kit: a
// request's bearer token is a guest's name; its language is English.

// testSite is a Hall served on loopback with its store and hub.
type testSite struct {
	t    testing.TB
	URL  string
	st   *store.Store
	hub  *live.Hub
	hall *Hall
	n    atomic.Int64 // guests made
}

type siteOpts struct {
	db string // the store's file ("": a new one)
	// wrap, where set, wraps the store as the Hall's Store.
	wrap func(Store) Store
	now  func() time.Time // the Hall's clock (nil: time.Now)
}

// newTestSite serves a Hall on a store and a hub, stopped at the test's
// end (the hub stopped cleanly, as a server's, so that a site opened on
// the same file after it resumes its games).
func newTestSite(t testing.TB, o siteOpts) *testSite {
	t.Helper()
	ctx := context.Background()
	st := sitetest.OpenStore(t, o.db, store.Options{})
	hub := live.NewHub(ctx, live.Config{Store: store.LiveStore{S: st}, FirstMoveTimeout: -1})
	if _, err := hub.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	var ss Store = st
	if o.wrap != nil {
		ss = o.wrap(st)
	}
	kit := sitetest.NewKit(t)
	kit.Who, kit.Anonymous = sitetest.GuestToken, site.Identity{Guest: "anonymous"}
	hall, err := New(ctx, Config{Games: hub, Store: ss, Kit: kit, Now: o.now})
	if err != nil {
		t.Fatal(err)
	}
	rt := sitetest.NewRouter(kit)
	hall.Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	s := &testSite{t: t, URL: ts.URL, st: st, hub: hub, hall: hall}
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
		if err := hub.Stop(ctx); err != nil {
			t.Error(err)
		}
	})
	return s
}

// guest returns the token of a new guest: his name.
func (s *testSite) guest() string { return "guest" + strconv.FormatInt(s.n.Add(1), 10) }

// do sends a JSON request as token and decodes the JSON answer.
func (s *testSite) do(method, path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	r := sitetest.Client{T: s.t, URL: s.URL, Follow: true}.Do(method, path, token, body)
	return r.Status, r.JSON()
}

// get GETs a page as token.
func (s *testSite) get(path, token string) (int, string) {
	s.t.Helper()
	r := sitetest.Client{T: s.t, URL: s.URL, Follow: true}.Do("GET", path, token, nil)
	return r.Status, string(r.Body)
}

// resign resigns game id as the guest of token.
func (s *testSite) resign(id, token string) {
	s.t.Helper()
	seat := game.GuestSeat(token)
	if err := s.hub.Act(context.Background(), id, live.Chatter{ID: seat.ID, Name: seat.Name}, live.ClientMsg{Type: "resign"}); err != nil {
		s.t.Fatalf("resign %s as %s: %v", id, token, err)
	}
}
