package live

import (
	"encoding/json"
	"testing"
	"time"
)

// TestReclock checks reclock's splice against decoding the state, moving
// its clock by hand and encoding it again (the slow, obvious way).
func TestReclock(t *testing.T) {
	at := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name    string
		clock   ClockJSON
		abortIn int64
		after   time.Duration
	}{
		{"white runs", ClockJSON{WhiteMS: 60_000, BlackMS: 58_000, Running: "white"}, 0, 11 * time.Second},
		{"black runs", ClockJSON{WhiteMS: 60_000, BlackMS: 58_000, Running: "black"}, 0, 1500 * time.Millisecond},
		{"runs out", ClockJSON{WhiteMS: 3_000, BlackMS: 58_000, Running: "white"}, 0, 5 * time.Second},
		{"none runs", ClockJSON{WhiteMS: 60_000, BlackMS: 60_000}, 0, time.Minute},
		{"countdown", ClockJSON{WhiteMS: 60_000, BlackMS: 60_000}, 30_000, 10 * time.Second},
		{"countdown out", ClockJSON{WhiteMS: 60_000, BlackMS: 60_000}, 3_000, 10 * time.Second},
		{"correspondence", ClockJSON{WhiteMS: 86_400_000, BlackMS: 80_000_000, Running: "black", DeadlineMS: 1}, 0, time.Hour},
		{"no time", ClockJSON{WhiteMS: 60_000, BlackMS: 58_000, Running: "white"}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := State{Type: "state", ID: "x", White: SeatJSON{Name: `a"clock":{"white_ms":1}`}, Black: SeatJSON{Name: "b"},
				Moves: []MoveJSON{{Hole: 1, Notation: "11", By: "white"}}, Clock: tc.clock, AbortInMS: tc.abortIn}
			b := mustJSON(s)
			got := reclock(b, at, at.Add(tc.after))

			want := s
			ms := tc.after.Milliseconds()
			switch tc.clock.Running {
			case "white":
				want.Clock.WhiteMS = max(want.Clock.WhiteMS-ms, 0)
			case "black":
				want.Clock.BlackMS = max(want.Clock.BlackMS-ms, 0)
			}
			if want.AbortInMS > 0 {
				want.AbortInMS = max(want.AbortInMS-ms, 1)
			}
			var gs State
			if err := json.Unmarshal(got, &gs); err != nil {
				t.Fatalf("%v: %s", err, got)
			}
			if string(mustJSON(gs)) != string(mustJSON(want)) {
				t.Errorf("reclock after %v:\n got %s\nwant %s", tc.after, got, mustJSON(want))
			}
			if string(b) != string(mustJSON(s)) {
				t.Error("reclock changed its argument")
			}
		})
	}
}
