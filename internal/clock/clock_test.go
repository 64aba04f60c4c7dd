package clock

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
)

const (
	W = toguz.White
	B = toguz.Black
)

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		kind Kind
		out  string
	}{
		{"-", TimeControl{}, Unlimited, "-"},
		{"5+3", TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, Fischer, "5+3"},
		{"10", TimeControl{Base: 10 * time.Minute}, SuddenDeath, "10+0"},
		{"10+0", TimeControl{Base: 10 * time.Minute}, SuddenDeath, "10+0"},
		{"0.5+0", TimeControl{Base: 30 * time.Second}, SuddenDeath, "0.5+0"},
		{"0+5", TimeControl{Increment: 5 * time.Second}, Fischer, "0+5"},
		{"3d", TimeControl{Days: 3}, Correspondence, "3d"},
	}
	for _, tt := range tests {
		got, err := ParseTimeControl(tt.in)
		if err != nil || got != tt.want || got.Kind() != tt.kind || got.String() != tt.out {
			t.Errorf("ParseTimeControl(%q) = %+v (%v, %q), %v; want %+v (%v, %q)", tt.in, got, got.Kind(), got.String(), err, tt.want, tt.kind, tt.out)
		}
	}
	for _, bad := range []string{"x", "5+x", "-5+0", "181+0", "5+181", "0d", "15d", "xd", "0+1", "5+-1"} {
		if tc, err := ParseTimeControl(bad); err == nil {
			t.Errorf("ParseTimeControl(%q) = %+v, want an error", bad, tc)
		}
	}
}

// TestTimeControlMinimum: a clock written as one must be one that a game
// can be played with (base + 40 × increment ≥ 15 s); the error names what
// was too short.
func TestTimeControlMinimum(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0+0", "base time 0s + 40 × increment 0s = 0s: want at least 15s"},
		{"0.001+0", "base time 0s + 40 × increment 0s = 0s: want at least 15s"},
		{"0", "want at least 15s"},
		{"0.2+0", "base time 12s + 40 × increment 0s = 12s: want at least 15s"},
		{"0+-1", "increment -1s"},
		{"0d", "want 1 to 14 days"},
		{"15d", "want 1 to 14"},
		{"5+181", "increment 3m1s: want 0 to 3m0s"},
	} {
		tc, err := ParseTimeControl(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want an error with %q", tt.in, tc, err, tt.want)
		}
	}
	for _, ok := range []string{"0.25+0", "0+3", "1+0", "-", "", "1d", "14d"} {
		if _, err := ParseTimeControl(ok); err != nil {
			t.Errorf("ParseTimeControl(%q): %v", ok, err)
		}
	}
	if err := (TimeControl{Base: 14 * time.Second}).Validate(); err == nil {
		t.Error("Validate accepted 14s+0")
	}
	// A game stored with a shorter clock still loads; a bad form does not.
	if tc, err := ParseStored("0.05+0"); err != nil || tc.Base != 3*time.Second {
		t.Errorf("ParseStored(0.05+0) = %+v, %v", tc, err)
	}
	for _, bad := range []string{"x", "181+0", "5+181", "15d"} {
		if _, err := ParseStored(bad); err == nil {
			t.Errorf("ParseStored(%q) accepted", bad)
		}
	}
}

// TestResumeAt: the example, a 1+0 game whose player to move had
// 57.8 s at the last move and 35.0 s when the server stopped: restarted
// after any downtime, he has 35.0 s, and his clock runs from the restart.
func TestResumeAt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tc := TimeControl{Base: time.Minute}
		c := New(tc, W, time.Now)
		c.Start()
		time.Sleep(2200 * time.Millisecond)
		c.Press(W) // White 57.8 s; Black's clock runs
		time.Sleep(time.Second)
		c.Press(B)
		saved := c.State() // stored with the move: White to move, 57.8 s
		if saved.Remaining[W] != 57800*time.Millisecond {
			t.Fatalf("White at the move: %v", saved.Remaining[W])
		}
		time.Sleep(22800 * time.Millisecond)
		stopped := time.Now() // White has 35.0 s
		time.Sleep(10 * time.Minute)
		r := Restore(tc, saved.ResumeAt(stopped, time.Now()), time.Now)
		if got := r.Remaining(W); got != 35*time.Second {
			t.Errorf("White after the restart: %v, want 35s", got)
		}
		time.Sleep(5 * time.Second)
		if got := r.Remaining(W); got != 30*time.Second {
			t.Errorf("White 5s after the restart: %v, want 30s", got)
		}
		// Stopped after he had flagged: nothing left, not negative.
		if got := saved.ResumeAt(stopped.Add(time.Hour), time.Now()).Remaining[W]; got != 0 {
			t.Errorf("stopped after the flag: %v", got)
		}
		// A heartbeat older than the move charges nothing.
		if got := saved.ResumeAt(saved.Since.Add(-time.Second), time.Now()).Remaining[W]; got != saved.Remaining[W] {
			t.Errorf("stopped before the move: %v", got)
		}
		// Unknown stop: nothing charged (as RestartAt).
		if got := saved.ResumeAt(time.Time{}, time.Now()); got != saved.RestartAt(time.Now()) {
			t.Errorf("unknown stop: %+v", got)
		}
		// Correspondence: the deadline moves later by the downtime only.
		cc := New(TimeControl{Days: 3}, W, time.Now)
		cc.Start()
		d0, _ := cc.Deadline()
		time.Sleep(7 * time.Hour)
		stopped = time.Now()
		time.Sleep(2 * time.Hour)
		cr := Restore(cc.TimeControl(), cc.State().ResumeAt(stopped, time.Now()), time.Now)
		if d, _ := cr.Deadline(); d.Sub(d0) != 2*time.Hour {
			t.Errorf("deadline moved by %v, want the 2h downtime", d.Sub(d0))
		}
	})
}

func TestFischer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(TimeControl{Base: time.Minute, Increment: 2 * time.Second}, W, time.Now)
		// Before Start, presses only pass the turn.
		if _, err := c.Press(W); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		if c.Remaining(B) != time.Minute {
			t.Fatalf("a clock that is not started ran: %v", c.Remaining(B))
		}
		c.Start()
		time.Sleep(5 * time.Second)
		if got := c.Remaining(B); got != 55*time.Second {
			t.Errorf("Black after 5s: %v, want 55s", got)
		}
		used, err := c.Press(B)
		if err != nil || used != 5*time.Second {
			t.Fatalf("Press(B) = %v, %v", used, err)
		}
		if got := c.Remaining(B); got != 57*time.Second {
			t.Errorf("Black after the increment: %v, want 57s", got)
		}
		if _, err := c.Press(B); !errors.Is(err, ErrNotYourTurn) {
			t.Errorf("Press out of turn: %v, want ErrNotYourTurn", err)
		}
		time.Sleep(30 * time.Second)
		if got, want := c.Remaining(W), 30*time.Second; got != want {
			t.Errorf("White after 30s: %v, want %v", got, want)
		}
		if _, err := c.Press(W); err != nil {
			t.Fatal(err)
		}
		if got := c.Remaining(W); got != 32*time.Second {
			t.Errorf("White after the increment: %v, want 32s", got)
		}
	})
}

func TestFlag(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		c := New(TimeControl{Base: 10 * time.Second}, W, time.Now)
		c.Start()
		d, ok := c.Deadline()
		if !ok || !d.Equal(start.Add(10*time.Second)) {
			t.Fatalf("Deadline = %v, %v", d, ok)
		}
		time.Sleep(9 * time.Second)
		if _, _, flagged := c.Flagged(); flagged {
			t.Fatal("flagged with 1s left")
		}
		// A server timer waits for the deadline, as the live game does.
		time.Sleep(time.Until(d))
		pl, at, flagged := c.Flagged()
		if !flagged || pl != W || !at.Equal(d) {
			t.Fatalf("Flagged = %v, %v, %v; want White at %v", pl, at, flagged, d)
		}
		if c.Remaining(W) != 0 {
			t.Errorf("Remaining after the flag = %v", c.Remaining(W))
		}
		time.Sleep(time.Second)
		if _, err := c.Press(W); !errors.Is(err, ErrFlagged) {
			t.Fatalf("a move after the flag: %v, want ErrFlagged", err)
		}
		if _, err := c.Press(W); !errors.Is(err, ErrStopped) {
			t.Errorf("a move after the game: %v, want ErrStopped", err)
		}
		if c.Remaining(W) != 0 || c.Remaining(B) != 10*time.Second {
			t.Errorf("after the flag: %v / %v", c.Remaining(W), c.Remaining(B))
		}
	})
}

func TestSuddenDeathNoIncrement(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(TimeControl{Base: time.Minute}, W, time.Now)
		c.Start()
		for range 3 {
			time.Sleep(7 * time.Second)
			if _, err := c.Press(c.Turn()); err != nil {
				t.Fatal(err)
			}
		}
		if w, b := c.Remaining(W), c.Remaining(B); w != 46*time.Second || b != 53*time.Second {
			t.Errorf("remaining %v / %v, want 46s / 53s", w, b)
		}
	})
}

func TestCorrespondence(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		day := 24 * time.Hour
		c := New(TimeControl{Days: 2}, W, time.Now)
		c.Start()
		time.Sleep(47 * time.Hour)
		if got := c.Remaining(W); got != time.Hour {
			t.Errorf("White after 47h: %v, want 1h", got)
		}
		if _, err := c.Press(W); err != nil {
			t.Fatal(err)
		}
		if got := c.Remaining(W); got != 2*day {
			t.Errorf("White's clock after his move: %v, want the full 48h again", got)
		}
		d, _ := c.Deadline()
		if want := time.Now().Add(2 * day); !d.Equal(want) {
			t.Errorf("Black's deadline %v, want %v", d, want)
		}
		time.Sleep(2*day + time.Minute)
		if pl, at, ok := c.Flagged(); !ok || pl != B || !at.Equal(d) {
			t.Errorf("Flagged = %v %v %v, want Black at the deadline", pl, at, ok)
		}
		if _, err := c.Press(B); !errors.Is(err, ErrFlagged) {
			t.Errorf("a move after the deadline: %v, want ErrFlagged", err)
		}
	})
}

func TestUnlimited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(TimeControl{}, W, time.Now)
		c.Start()
		time.Sleep(1000 * time.Hour)
		if _, ok := c.Deadline(); ok {
			t.Error("a game without clock has a deadline")
		}
		if _, _, ok := c.Flagged(); ok {
			t.Error("a game without clock flagged")
		}
		if _, err := c.Press(W); err != nil {
			t.Error(err)
		}
	})
}

func TestRestoreAfterRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tc := TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
		c := New(tc, W, time.Now)
		c.Start()
		time.Sleep(10 * time.Second)
		c.Press(W)
		saved := c.State() // as stored with the move
		time.Sleep(20 * time.Second)
		// A crash: the clock is rebuilt from the stored state 20s later.
		charged := Restore(tc, saved, time.Now)
		if got := charged.Remaining(B); got != 160*time.Second {
			t.Errorf("Black charged for the downtime: %v, want 2m40s", got)
		}
		forgiven := Restore(tc, saved.RestartAt(time.Now()), time.Now)
		if got := forgiven.Remaining(B); got != 3*time.Minute {
			t.Errorf("Black forgiven the downtime: %v, want 3m", got)
		}
		if got := forgiven.Remaining(W); got != 172*time.Second {
			t.Errorf("White: %v, want 2m52s", got)
		}
		// A clean shutdown pauses; nothing runs while paused.
		time.Sleep(5 * time.Second)
		st := forgiven.Pause()
		if st.Running || st.Remaining[B] != 175*time.Second {
			t.Errorf("Pause = %+v", st)
		}
		time.Sleep(time.Hour)
		r := Restore(tc, st, time.Now)
		r.Start()
		time.Sleep(time.Second)
		if got := r.Remaining(B); got != 174*time.Second {
			t.Errorf("after resume: %v, want 2m54s", got)
		}
		r.Stop()
		time.Sleep(time.Minute)
		if got := r.Remaining(B); got != 174*time.Second || r.Running() {
			t.Errorf("a stopped clock ran: %v", got)
		}
		r.Start()
		if r.Running() {
			t.Error("a stopped clock started again")
		}
	})
}

func TestAddTime(t *testing.T) {
	c := New(TimeControl{Base: time.Minute}, W, time.Now)
	c.AddTime(B, 15*time.Second)
	c.AddTime(W, -2*time.Minute)
	if c.Remaining(B) != 75*time.Second || c.Remaining(W) != 0 {
		t.Errorf("AddTime: %v / %v", c.Remaining(W), c.Remaining(B))
	}
}
