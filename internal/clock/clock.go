package clock

import (
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz"
)

// Errors of Clock.Press.
var (
	ErrFlagged     = errors.New("clock: out of time")
	ErrNotYourTurn = errors.New("clock: not this player's turn")
	ErrStopped     = errors.New("clock: stopped")
)

// State is a clock as it is stored: enough to rebuild it after a restart.
type State struct {
	// Remaining holds each player's time, White first. The running player's
	// entry is his time at Since; the other's is exact.
	Remaining [2]time.Duration
	Turn      toguz.Player // whose clock runs, or will run when it starts
	Running   bool
	Since     time.Time // when the running clock started; zero when not running
	Stopped   bool      // the game is over; the clock never runs again
}

// RestartAt returns s with the running clock restarted at t, so that the
// time between s.Since and t (a server's downtime) is not charged to the
// player to move. A state that is not running is returned unchanged.
func (s State) RestartAt(t time.Time) State {
	if s.Running {
		s.Since = t
	}
	return s
}

// ResumeAt returns s rebuilt after the server stopped at stopped and started
// again at now: the running player is charged the time he used from s.Since
// to stopped (never less than nothing, never more than he had), and his clock
// runs again from now, so that exactly the downtime between stopped and now is
// forgiven. stopped is the instant of a clean stop, or after a crash the
// server's last heartbeat. A zero stopped (not known) charges nothing, as
// RestartAt. A state that is not running is returned unchanged.
func (s State) ResumeAt(stopped, now time.Time) State {
	if !s.Running {
		return s
	}
	if !stopped.IsZero() {
		used := max(stopped.Sub(s.Since), 0)
		s.Remaining[s.Turn] = max(s.Remaining[s.Turn]-used, 0)
	}
	s.Since = now
	return s
}

// Clock is the two clocks of one game.
type Clock struct {
	tc  TimeControl
	now func() time.Time
	st  State
}

// New returns a clock for tc that is not started; first is the player to move.
// now is the time source (time.Now in production).
func New(tc TimeControl, first toguz.Player, now func() time.Time) *Clock {
	c := &Clock{tc: tc, now: now, st: State{Turn: first}}
	full := tc.Base
	if tc.Kind() == Correspondence {
		full = tc.perMove()
	}
	c.st.Remaining = [2]time.Duration{full, full}
	return c
}

// Restore rebuilds a clock from its stored state. A running clock keeps
// running from st.Since: the time since then is charged to the player to move
// (use State.RestartAt first to forgive it).
func Restore(tc TimeControl, st State, now func() time.Time) *Clock {
	return &Clock{tc: tc, now: now, st: st}
}

func (tc TimeControl) perMove() time.Duration { return time.Duration(tc.Days) * 24 * time.Hour }

// TimeControl returns the clock's time control.
func (c *Clock) TimeControl() TimeControl { return c.tc }

// State returns the clock as it is stored.
func (c *Clock) State() State { return c.st }

// Turn returns the player whose clock runs or will run.
func (c *Clock) Turn() toguz.Player { return c.st.Turn }

// Running reports whether a clock runs.
func (c *Clock) Running() bool { return c.st.Running }

// Start starts the clock of the player to move. Starting a running or stopped
// clock does nothing.
func (c *Clock) Start() {
	if c.st.Running || c.st.Stopped || c.tc.Kind() == Unlimited {
		return
	}
	c.st.Running = true
	c.st.Since = c.now()
}

// Remaining returns pl's time now, never below zero; zero when the game has no clock.
func (c *Clock) Remaining(pl toguz.Player) time.Duration {
	return c.remainingAt(pl, c.now())
}

func (c *Clock) remainingAt(pl toguz.Player, t time.Time) time.Duration {
	r := c.st.Remaining[pl]
	if c.st.Running && pl == c.st.Turn {
		r -= t.Sub(c.st.Since)
	}
	return max(r, 0)
}

// Deadline returns the instant the running player runs out of time; ok is
// false when no clock runs.
func (c *Clock) Deadline() (at time.Time, ok bool) {
	if !c.st.Running {
		return time.Time{}, false
	}
	return c.st.Since.Add(c.st.Remaining[c.st.Turn]), true
}

// Flagged reports whether the running player is out of time now, and the
// instant his time ran out.
func (c *Clock) Flagged() (pl toguz.Player, at time.Time, ok bool) {
	d, running := c.Deadline()
	if !running || c.now().Before(d) {
		return 0, time.Time{}, false
	}
	return c.st.Turn, d, true
}

// Press ends pl's move now: his clock stops, he receives the increment (a
// correspondence clock is set back to the full days per move) and the
// opponent's clock starts. It returns the time the move took. A move made at
// or after the flag is refused with ErrFlagged and the clock stops at zero.
// On a clock that is not started Press only passes the turn: the game
// decides when clocks start (see Start).
func (c *Clock) Press(pl toguz.Player) (time.Duration, error) {
	switch {
	case c.st.Stopped:
		return 0, ErrStopped
	case pl != c.st.Turn:
		return 0, fmt.Errorf("%w: %v pressed, %v to move", ErrNotYourTurn, pl, c.st.Turn)
	}
	now := c.now()
	next := pl.Other()
	if !c.st.Running {
		c.st.Turn = next
		return 0, nil
	}
	used := now.Sub(c.st.Since)
	if used >= c.st.Remaining[pl] {
		c.st.Remaining[pl] = 0
		c.st.Running, c.st.Stopped = false, true
		return used, fmt.Errorf("%w: %v after %v", ErrFlagged, pl, used)
	}
	switch c.tc.Kind() {
	case Correspondence:
		c.st.Remaining[pl] = c.tc.perMove()
	default:
		c.st.Remaining[pl] += c.tc.Increment - used
	}
	c.st.Turn, c.st.Since = next, now
	return used, nil
}

// Stop stops the clock for good (the game is over), charging the running
// player the time he used.
func (c *Clock) Stop() {
	c.Pause()
	c.st.Stopped = true
}

// Pause stops the running clock, charging its player the time used, and
// returns the state; Start resumes it. A server shutting down cleanly pauses
// its clocks so that the downtime is charged to nobody.
func (c *Clock) Pause() State {
	if c.st.Running {
		t := c.now()
		c.st.Remaining[c.st.Turn] = c.remainingAt(c.st.Turn, t)
		c.st.Running, c.st.Since = false, time.Time{}
	}
	return c.st
}

// AddTime gives pl d more time (d may be negative), never leaving less than zero.
func (c *Clock) AddTime(pl toguz.Player, d time.Duration) {
	c.st.Remaining[pl] = max(c.st.Remaining[pl]+d, 0)
}
