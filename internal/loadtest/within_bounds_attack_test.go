package loadtest

// This file sorts after loadtest_test.go on purpose (TestIdle: see
// within_bounds_test.go).

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/server"
)

// TestAttackWithinBounds runs every abuse attack at the server's
// default bounds (its read and idle timeouts shortened so that their
// closes come within the test) while a load plays from other addresses:
// each attack gets the documented refusal, the account's owner still logs
// in at his own address, and the load's games go on without an error.
//
// Every attack at once takes both CPUs of the machine for its seconds, so
// the test runs alone: .ci/run runs it in a step of its own with
// TOGUZ_ATTACK_TEST=1; beside other packages' tests (go test ./... runs two
// at a time) the slowest attacks do not reach their bounds in time.
func TestAttackWithinBounds(t *testing.T) {
	if os.Getenv("TOGUZ_ATTACK_TEST") == "" {
		t.Skip("every attack at once takes the CPUs: run alone with TOGUZ_ATTACK_TEST=1, as .ci/run does")
	}
	s, err := server.StartLocal(context.Background(), server.Options{
		DB: filepath.Join(t.TempDir(), "toguz.db"), ReadTimeout: 3 * time.Second, IdleTimeout: 2 * time.Second, ReviewWorkers: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	acfg := AttackConfig{URL: s.URL, Duration: 7 * time.Second, LoginSources: 2, IdleConns: 30, SlowBodies: 4, EngineLevel: 2}
	lcfg := Config{URL: s.URL, Games: 20, Sources: 2, Interval: 500 * time.Millisecond, Duration: 6 * time.Second, TC: "10+5", Seed: 7}
	var wg sync.WaitGroup
	var load Report
	var loadErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		load, loadErr = Run(context.Background(), lcfg)
	}()
	r, err := Attack(context.Background(), acfg)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	r.WriteTo(&b)
	t.Logf("%s\nload: %v, %d errors %v", b.String(), load.Latency, load.Errors, load.ErrorSample)
	if loadErr != nil || load.Errors != 0 || load.Moves == 0 {
		t.Errorf("the load during the attacks: %d moves, %d errors %v (%v)", load.Moves, load.Errors, load.ErrorSample, loadErr)
	}
	got := map[string]AttackTally{}
	for _, a := range r.Attacks {
		got[a.Name] = a
	}
	tests := []struct {
		attack string
		want   []string // answers that must have come
		never  []string // answers that must not
	}{
		{"logins", []string{"401 bad_credentials", "owner ok"}, []string{"owner 429 rate_limited", "owner 401 bad_credentials", "500", "503 busy"}},
		{"bodies", []string{"65536 B: 400", "65537 B: 413"}, []string{"65536 B: 413", "65536 B: 429"}},
		{"connections", nil, []string{"dial error"}},
		{"seeks", []string{"create: ok", "create: 429 too_many_seeks", "cancel: ok"}, []string{"create: 429 rate_limited"}},
		{"spectators", []string{"watching", "over the cap: ws error too_many_spectators", "over the cap: ws 1013"}, []string{"player's move: "}},
		{"imports", []string{"413"}, []string{"500", "200"}},
		{"engine", []string{"create: ok", "ninth: 429 too_many_engine_games", "fourth: 429 too_many_engine_games"}, []string{"fourth: ok", "create: 429 rate_limited"}},
		{"accounts", []string{"report: ok", "report: 429 rate_limited", "insights: ok", "insights: 429"}, []string{"report: 500", "insights: 500"}},
		{"community", communityWant, communityNever},
	}
	for _, tt := range tests {
		a, ok := got[tt.attack]
		if !ok {
			t.Errorf("no attack %q", tt.attack)
			continue
		}
		for _, w := range tt.want {
			if a.Answers[w] == 0 {
				t.Errorf("%s: no %q among %v %v", tt.attack, w, a.Answers, a.Notes)
			}
		}
		for _, n := range tt.never {
			if a.Answers[n] != 0 {
				t.Errorf("%s: %d× %q: %v %v", tt.attack, a.Answers[n], n, a.Answers, a.Notes)
			}
		}
	}
	checkCommunityCounts(t, got["community"])
	// The server closes the idle connections after its idle timeout (2 s)
	// and the slow bodies after its read timeout (3 s), give or take a
	// second of a busy machine.
	for _, c := range []struct {
		prefix string
		max    int
	}{{"idle: closed by the server after 401 after ", 3}, {"slow body: closed by the server after 400 after ", 4}} {
		n := 0
		for k, v := range got["connections"].Answers {
			if secs, ok := strings.CutPrefix(k, c.prefix); ok {
				n += v
				if s, err := strconv.Atoi(strings.TrimSuffix(secs, "s")); err != nil || s > c.max {
					t.Errorf("connections: %d× %q, want at most %ds", v, k, c.max)
				}
			}
		}
		if n == 0 {
			t.Errorf("connections: none %q…: %v", c.prefix, got["connections"].Answers)
		}
	}
	// The login limit (10 an address, then one per 6 s) refuses only once an
	// address has tried more than 10: on a loaded machine, where each
	// argon2 hash waits for its slot, 7 s may not reach it.
	lg := got["logins"].Answers
	if tries := lg["401 bad_credentials"] + lg["429 rate_limited"]; tries > 10*acfg.LoginSources && lg["429 rate_limited"] == 0 {
		t.Errorf("logins: %d wrong tries from %d addresses and no 429 rate_limited: %v", tries, acfg.LoginSources, lg)
	}
	// Never more than the cap; fewer only by the dials the run's end cut
	// short (a loaded machine: CI runs other packages beside this one).
	sp := got["spectators"].Answers
	if n, cut := sp["watching"], sp["dial: cancelled"]; n > 2*50 || n+cut < 2*50 {
		t.Errorf("spectators: %d watching and %d dials cut short by the run's end, want the cap, 50, from each of 2 addresses", n, cut)
	}
}
