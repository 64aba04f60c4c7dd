package live_test

import (
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// lobbyMsgs returns the lobby messages queued for s.
func lobbyMsgs(t *testing.T, s *live.LobbySub) []map[string]any {
	t.Helper()
	var out []map[string]any
	for range len(s.Out()) {
		var m map[string]any
		if err := json.Unmarshal(<-s.Out(), &m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func openSeek(t *testing.T, l *live.Lobby, by game.Seat, addr string) live.Seek {
	t.Helper()
	tc, _ := clock.ParseTimeControl("5+3")
	s, err := l.Add(live.Seek{By: by, TC: tc, Color: "random", Addr: addr})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSeekLifecycle: seeks expire, go when their creator's last lobby
// connection has been gone for the grace period (not while a second tab is
// open), are bounded per person and per address, and watchers hear of each
// change as a delta.
func TestSeekLifecycle(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		l := live.NewLobbyWith(h, live.LobbyConfig{PerAddress: 3, Grace: 10 * time.Second, Expiry: 30 * time.Minute})
		a, b := seats()
		watcher := l.Subscribe("")
		tab1, tab2 := l.Subscribe(a.ID), l.Subscribe(a.ID)
		left := openSeek(t, l, a, "192.0.2.1")
		api := openSeek(t, l, b, "192.0.2.2") // b never opens the lobby socket
		synctest.Wait()
		if ms := lobbyMsgs(t, watcher); len(ms) != 3 || ms[0]["type"] != "seeks" || ms[1]["type"] != "seek_added" {
			t.Fatalf("watcher: %v", ms)
		}

		l.Unsubscribe(tab1)
		time.Sleep(time.Minute)
		if _, _, ok := l.Get(left.ID); !ok {
			t.Fatal("the seek went while its creator still had a tab open")
		}
		l.Unsubscribe(tab2)
		time.Sleep(9 * time.Second)
		if _, _, ok := l.Get(left.ID); !ok {
			t.Fatal("the seek went within the grace period")
		}
		time.Sleep(2 * time.Second)
		if _, _, ok := l.Get(left.ID); ok {
			t.Fatal("the seek outlived its creator's leaving")
		}
		if ms := lobbyMsgs(t, watcher); len(ms) != 1 || ms[0]["type"] != "seek_removed" || ms[0]["id"] != left.ID || ms[0]["total"] != 1.0 {
			t.Fatalf("watcher after the creator left: %v", ms)
		}

		time.Sleep(29 * time.Minute)
		if _, _, ok := l.Get(api.ID); ok {
			t.Fatal("the seek outlived its 30 minutes")
		}
		if n, total := l.Listed(); len(n) != 0 || total != 0 {
			t.Fatalf("after expiry: %v, %d", n, total)
		}

		var le *live.Error
		tc, _ := clock.ParseTimeControl("5+3")
		for i := range 3 {
			openSeek(t, l, game.Seat{ID: "g:x" + string(rune('a'+i)), Guest: true}, "192.0.2.3")
		}
		if _, err := l.Add(live.Seek{By: game.Seat{ID: "g:y", Guest: true}, TC: tc, Color: "white", Addr: "192.0.2.3"}); !errors.As(err, &le) || le.Code != apierr.CodeTooManySeeks {
			t.Fatalf("a fourth seek from one address: %v", err)
		}
		z := game.Seat{ID: "g:z", Guest: true}
		for i := range live.MaxSeeks {
			openSeek(t, l, z, "198.51.100."+string(rune('1'+i)))
		}
		if _, err := l.Add(live.Seek{By: z, TC: tc, Color: "white", Addr: "203.0.113.1"}); !errors.As(err, &le) || le.Code != apierr.CodeTooManySeeks {
			t.Fatalf("a sixth seek of one person: %v", err)
		}
	})
}
