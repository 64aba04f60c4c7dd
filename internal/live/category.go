package live

import (
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/rating"
)

// Category returns the rating category of a game with time control tc; ok
// is false for a game without a clock, which is never rated.
func Category(tc clock.TimeControl) (c rating.Category, ok bool) { return rating.ForTimeControl(tc) }

// tcString writes tc as docs/api.md does: "" for no clock.
func tcString(tc clock.TimeControl) string {
	if tc.Kind() == clock.Unlimited {
		return ""
	}
	return tc.String()
}
