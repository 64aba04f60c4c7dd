package botapi

import (
	"testing"
	"time"
)

// TestToldAlready: a queued event that the stream's first lines told
// already is left out once; other events, and the same one again, pass.
func TestToldAlready(t *testing.T) {
	told := map[toldKey]bool{{"gameStart", "g1"}: true, {"challenge", "c1"}: true}
	for _, tt := range []struct {
		ev   string
		skip bool
	}{
		{`{"type":"challenge","challenge":{"id":"c2"}}`, false},
		{`{"type":"challengeCanceled","challenge":{"id":"c1"}}`, false},
		{`{"type":"challenge","challenge":{"id":"c1"}}`, true},
		{`{"type":"challenge","challenge":{"id":"c1"}}`, false},
		{`{"type":"gameFinish","game":{"id":"g1"}}`, false},
		{`{"type":"gameStart","game":{"id":"g2"}}`, false},
		{`{"type":"gameStart","game":{"id":"g1"}}`, true},
		{`{"type":"gameStart","game":{"id":"g1"}}`, false},
		{`not json`, false},
	} {
		if got := toldAlready(told, []byte(tt.ev)); got != tt.skip {
			t.Errorf("toldAlready(%s) = %v, want %v", tt.ev, got, tt.skip)
		}
	}
	if toldAlready(nil, []byte(`{"type":"gameStart","game":{"id":"g1"}}`)) {
		t.Error("nothing told: an event is left out")
	}
}

// TestEndedBy: a challenge that ended before the open ones were listed is
// stale for a stream that listed them; one that ended after is not, nor
// one still open.
func TestEndedBy(t *testing.T) {
	cs := newChallenges(10, time.Hour, time.Now)
	var ids []string
	for range 3 {
		c := &challenge{By: challengeUser{ID: 1}, To: challengeUser{ID: 2}}
		if ok, _ := cs.add(c); !ok {
			t.Fatal("not added")
		}
		ids = append(ids, c.ID)
	}
	allow := func(*challenge) error { return nil }
	if _, err := cs.takeLocal(ids[0], allow); err != nil {
		t.Fatal(err)
	}
	open, seq := cs.ofNow(2)
	if len(open) != 2 {
		t.Fatalf("%d open, want 2", len(open))
	}
	if _, err := cs.takeLocal(ids[1], allow); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, false} {
		if got := cs.endedBy(ids[i], seq); got != want {
			t.Errorf("challenge %d: endedBy = %v, want %v", i, got, want)
		}
	}
}
