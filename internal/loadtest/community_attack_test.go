package loadtest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/forum"
	"github.com/toguz/toguz/internal/inbox"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/team"
)

// The community attack's answers: each kind of write let through and
// refused by its bound, none failing otherwise.
var (
	communityWant = []string{"reply: ok", "reply: 429 rate_limited", "topic: 429 rate_limited", "message: ok", "message: 429 rate_limited",
		"team: ok", "team: 429 rate_limited", "join: ok", "leaders: ok", "leaders: 429 rate_limited"}
	communityNever = []string{"topic: ok"} // the author's one post of the minute is his reply
)

// checkCommunityCounts holds the community attack to its bounds: never
// more writes let through than the bound allows, whatever came at once,
// and no answer but ok and 429.
func checkCommunityCounts(t *testing.T, a AttackTally) {
	t.Helper()
	for answer, n := range a.Answers {
		if _, what, _ := strings.Cut(answer, ": "); what != "ok" && what != "429 rate_limited" {
			t.Errorf("community: %d× %q: %v %v", n, answer, a.Answers, a.Notes)
		}
	}
	// Each request to join is dropped before the next: every one let
	// through counts, and one past the bound must have been refused.
	if ok, refused := a.Answers["join: ok"], a.Answers["join: 429 rate_limited"]; ok > team.RequestsPerDay || ok+refused > team.RequestsPerDay && refused == 0 {
		t.Errorf("community: %d requests to join let through and %d refused, the bound is %d a day", ok, refused, team.RequestsPerDay)
	}
	for _, b := range []struct {
		kinds []string
		max   int
	}{
		{[]string{"reply: ok", "topic: ok"}, forum.NewPostsPerMinute},
		{[]string{"team: ok"}, team.CreatedPerDay},
		{[]string{"leaders: ok"}, team.MessagesPerDay},
		// The per-minute bound refills one message every 6 s.
		{[]string{"message: ok"}, inbox.PerMinute + 2},
	} {
		n := 0
		for _, k := range b.kinds {
			n += a.Answers[k]
		}
		if n > b.max {
			t.Errorf("community: %d× %v, over the bound %d: %v", n, b.kinds, b.max, a.Answers)
		}
	}
}

// TestCommunityAttack runs the community attack alone against a server at
// its default bounds: every forum, inbox and team write is let through
// within its bound or refused with 429, bursts included.
func TestCommunityAttack(t *testing.T) {
	if testing.Short() {
		t.Skip("a server attacked for 8 s")
	}
	s, err := server.StartLocal(context.Background(), server.Options{DB: filepath.Join(t.TempDir(), "toguz.db"), ReviewWorkers: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, err := Attack(context.Background(), AttackConfig{URL: s.URL, Duration: 8 * time.Second, Only: []string{"community"}})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.WriteTo(&b)
	t.Log(b.String())
	a := r.Attacks[0]
	for _, w := range append(communityWant, "join: 429 rate_limited") {
		if a.Answers[w] == 0 {
			t.Errorf("community: no %q among %v %v", w, a.Answers, a.Notes)
		}
	}
	for _, n := range communityNever {
		if a.Answers[n] != 0 {
			t.Errorf("community: %d× %q: %v", a.Answers[n], n, a.Answers)
		}
	}
	checkCommunityCounts(t, a)
}
