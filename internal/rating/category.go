package rating

import (
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/clock"
)

// Category is a time-control category; each has its own rating.
type Category uint8

const (
	Bullet Category = iota
	Blitz
	Rapid
	Classical
	Correspondence
	// The bots' categories (the bot API, docs/api.md): a rated game with a
	// bot on either side is rated in these, so that a bot's rating and a
	// person's against bots stay apart from the people's.
	BotBullet
	BotBlitz
	BotRapid
	BotClassical
	BotCorrespondence
)

// Categories lists every category of the people's games, fastest first.
var Categories = [...]Category{Bullet, Blitz, Rapid, Classical, Correspondence}

// BotCategories lists the bots' categories, fastest first.
var BotCategories = [...]Category{BotBullet, BotBlitz, BotRapid, BotClassical, BotCorrespondence}

var categoryNames = [...]string{"bullet", "blitz", "rapid", "classical", "correspondence",
	"bot_bullet", "bot_blitz", "bot_rapid", "bot_classical", "bot_correspondence"}

// IsBot reports whether c is one of the bots' categories.
func (c Category) IsBot() bool { return c >= BotBullet && c <= BotCorrespondence }

// Bot returns the bots' category of the same time control as c (c itself
// when it is one).
func (c Category) Bot() Category {
	if c <= Correspondence {
		return c + BotBullet
	}
	return c
}

func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

// ParseCategory reads the names Category.String writes.
func ParseCategory(s string) (Category, error) {
	for i, n := range categoryNames {
		if s == n {
			return Category(i), nil
		}
	}
	return 0, fmt.Errorf("unknown rating category %q: want bullet, blitz, rapid, classical or correspondence (bot_… for the bots')", s)
}

// EstimatedDuration is lichess's estimate of one player's time in a game:
// the base time plus 40 increments.
func EstimatedDuration(base, increment time.Duration) time.Duration {
	return base + 40*increment
}

// Categorize places a real-time control (base time and Fischer increment) in
// its category by [EstimatedDuration]: under 3 minutes bullet (lichess's
// ultrabullet, under 30 s, is folded in), under 8 blitz, under 25 rapid,
// otherwise classical. Correspondence (days per move) is the caller's choice,
// not a duration.
func Categorize(base, increment time.Duration) Category {
	switch d := EstimatedDuration(base, increment); {
	case d < 3*time.Minute:
		return Bullet
	case d < 8*time.Minute:
		return Blitz
	case d < 25*time.Minute:
		return Rapid
	default:
		return Classical
	}
}

// ForTimeControl returns the category of tc; ok is false for a game without
// clock, which is never rated.
func ForTimeControl(tc clock.TimeControl) (c Category, ok bool) {
	switch tc.Kind() {
	case clock.Unlimited:
		return 0, false
	case clock.Correspondence:
		return Correspondence, true
	}
	return Categorize(tc.Base, tc.Increment), true
}
