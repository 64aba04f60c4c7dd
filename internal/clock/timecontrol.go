// Package clock keeps the server's game clocks.
//
// Features:
//   - [TimeControl]: sudden death (base time), Fischer (base + increment per
//     move) and correspondence (days per move), with a text form ("5+3",
//     "10+0", "3d", "-") read by [ParseTimeControl] and written by
//     [TimeControl.String].
//   - [Clock]: the two clocks of one game, read from an injected time source
//     (pass time.Now; tests use testing/synctest). It reports each player's
//     remaining time at any instant ([Clock.Remaining]), when the running
//     player will flag ([Clock.Deadline]) and whether he has ([Clock.Flagged]);
//     [Clock.Press] ends a move, adds the increment, or refuses a move made
//     after the flag with [ErrFlagged].
//   - [State]: a clock as stored — the remaining times as of the instant the
//     running clock started, whose turn it is and whether it runs — so a
//     restarted server rebuilds the clock exactly ([Restore]): after a clean
//     stop or a crash [State.ResumeAt] charges the player to move the time he
//     used until the server stopped and forgives the downtime
//     ([State.RestartAt] forgives all since the clock started).
//   - Limits ([TimeControl.Validate]): a real-time control must last
//     base + 40 × increment ≥ [MinEstimate] (15 s), base up to 3 h, increment
//     0 to 3 min, correspondence 1 to 14 days per move.
//
// A Clock is not safe for concurrent use: the game that owns it serialises
// its calls, as it does the moves.
package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind is the kind of a time control.
type Kind uint8

const (
	Unlimited      Kind = iota // no clock
	SuddenDeath                // a base time for the whole game
	Fischer                    // a base time plus an increment after each move
	Correspondence             // a number of days for each move
)

var kindNames = [...]string{"unlimited", "sudden death", "fischer", "correspondence"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// TimeControl is how a game is timed. The zero value is a game without clock.
type TimeControl struct {
	Base      time.Duration // each player's initial time (real-time games)
	Increment time.Duration // added to a player's clock after each of his moves (Fischer)
	Days      int           // correspondence: days for each move; Base and Increment are then zero
}

// Limits of a valid time control.
const (
	MaxBase      = 3 * time.Hour
	MaxIncrement = 3 * time.Minute
	MaxDays      = 14
	// MinEstimate is the least estimated duration of a real-time game,
	// base + 40 × increment: 15 s, as lichess's shortest ¼+0 (0+1 gives
	// 40 s). "0+0" and "0.001+0" are not games.
	MinEstimate = 15 * time.Second
)

// Estimate is the estimated duration of each player's clock over a game,
// base + 40 × increment (what the rating categories are cut by).
func (tc TimeControl) Estimate() time.Duration { return tc.Base + 40*tc.Increment }

// errTooShort is the error of a real-time control under MinEstimate.
var errTooShort = fmt.Errorf("want at least %v", MinEstimate)

// Kind says which kind of time control tc is.
func (tc TimeControl) Kind() Kind {
	switch {
	case tc.Days > 0:
		return Correspondence
	case tc.Base == 0 && tc.Increment == 0:
		return Unlimited
	case tc.Increment == 0:
		return SuddenDeath
	default:
		return Fischer
	}
}

// Validate reports what is wrong with tc.
func (tc TimeControl) Validate() error {
	switch {
	case tc.Days < 0 || tc.Days > MaxDays:
		return fmt.Errorf("time control: %d days per move: want 1 to %d", tc.Days, MaxDays)
	case tc.Days > 0 && (tc.Base != 0 || tc.Increment != 0):
		return errors.New("time control: correspondence (days per move) takes no base time or increment")
	case tc.Base < 0 || tc.Base > MaxBase:
		return fmt.Errorf("time control: base time %v: want 0 to %v", tc.Base, MaxBase)
	case tc.Increment < 0 || tc.Increment > MaxIncrement:
		return fmt.Errorf("time control: increment %v: want 0 to %v", tc.Increment, MaxIncrement)
	case tc.Days == 0 && (tc.Base != 0 || tc.Increment != 0) && tc.Estimate() < MinEstimate:
		return fmt.Errorf("time control: base time %v + 40 × increment %v = %v: %w", tc.Base, tc.Increment, tc.Estimate(), errTooShort)
	case tc.Base == 0 && tc.Increment > 0 && tc.Increment < 3*time.Second:
		// A player with no base time flags on his first move with less.
		return fmt.Errorf("time control: increment %v without base time: want at least 3s", tc.Increment)
	}
	return nil
}

// String writes tc as ParseTimeControl reads it: "-" without clock, "3d" for
// correspondence, otherwise "base+increment" with the base in minutes
// (fractions allowed: "0.5+0") and the increment in whole seconds.
func (tc TimeControl) String() string {
	switch tc.Kind() {
	case Unlimited:
		return "-"
	case Correspondence:
		return strconv.Itoa(tc.Days) + "d"
	}
	return strconv.FormatFloat(tc.Base.Minutes(), 'f', -1, 64) + "+" + strconv.FormatFloat(tc.Increment.Seconds(), 'f', -1, 64)
}

// ParseTimeControl reads "-" (no clock), "Nd" (N days per move), "M+S" (M
// minutes, S seconds' increment) or "M" (sudden death), and validates it.
func ParseTimeControl(s string) (TimeControl, error) { return parseTimeControl(s, true) }

// ParseStored reads a time control as String wrote it for a game already
// stored: the form and the bounds of Validate, but not the minimum game
// length, so that a game made before that limit (or by a test) still loads.
func ParseStored(s string) (TimeControl, error) { return parseTimeControl(s, false) }

func parseTimeControl(s string, strict bool) (TimeControl, error) {
	s = strings.TrimSpace(s)
	var tc TimeControl
	switch {
	case s == "-" || s == "":
		return tc, nil
	case strings.HasSuffix(s, "d"):
		n, err := strconv.Atoi(strings.TrimSuffix(s, "d"))
		if err != nil {
			return tc, fmt.Errorf("time control %q: days per move is not a number", s)
		}
		tc.Days = n
		if n == 0 {
			return tc, fmt.Errorf("time control %q: want 1 to %d days per move", s, MaxDays)
		}
	default:
		base, inc, _ := strings.Cut(s, "+")
		m, err := strconv.ParseFloat(base, 64)
		if err != nil || m < 0 || m > MaxBase.Minutes() {
			return tc, fmt.Errorf("time control %q: base time %q is not a number of minutes up to %v", s, base, MaxBase.Minutes())
		}
		tc.Base = time.Duration(m * float64(time.Minute)).Round(time.Second)
		if inc != "" {
			n, err := strconv.Atoi(inc)
			if err != nil {
				return tc, fmt.Errorf("time control %q: increment %q is not a whole number of seconds", s, inc)
			}
			tc.Increment = time.Duration(n) * time.Second
		}
		if strict && tc.Base == 0 && tc.Increment == 0 {
			// Written as a clock, it must be one: "0+0" is not "-".
			return TimeControl{}, fmt.Errorf("time control %q: base time %v + 40 × increment %v = 0s: want at least %v (\"-\" for no clock)", s, tc.Base, tc.Increment, MinEstimate)
		}
	}
	err := tc.Validate()
	if !strict && errors.Is(err, errTooShort) {
		err = nil
	}
	if err != nil {
		return TimeControl{}, fmt.Errorf("%q: %w", s, err)
	}
	return tc, nil
}
