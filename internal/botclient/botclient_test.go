package botclient

import (
	"testing"
	"time"
)

// TestPolicy: each flag of the policy declines what it should, with
// lichess's reason.
func TestPolicy(t *testing.T) {
	ch := func(rated bool, title, tcType string, limit int, ruleset string) challengeJSON {
		c := challengeJSON{Rated: rated, Ruleset: ruleset}
		c.Challenger.Title = title
		c.TimeControl.Type, c.TimeControl.Limit = tcType, limit
		return c
	}
	all := DefaultPolicy()
	for _, tc := range []struct {
		name string
		p    Policy
		c    challengeJSON
		want string
	}{
		{"default: a bot's rated blitz", all, ch(true, "BOT", "clock", 180, "standard"), ""},
		{"default: a person's casual game", all, ch(false, "", "clock", 600, ""), ""},
		{"default: no clock", all, ch(false, "", "unlimited", 0, "standard"), "timeControl"},
		{"default: another ruleset", all, ch(false, "", "clock", 180, "bestemshe"), "variant"},
		{"casual only", Policy{Casual: true, Bots: true, People: true}, ch(true, "BOT", "clock", 180, ""), "casual"},
		{"rated only", Policy{Rated: true, Bots: true, People: true}, ch(false, "BOT", "clock", 180, ""), "rated"},
		{"people only", Policy{Rated: true, Casual: true, People: true}, ch(true, "BOT", "clock", 180, ""), "noBot"},
		{"bots only", Policy{Rated: true, Casual: true, Bots: true}, ch(true, "", "clock", 180, ""), "onlyBot"},
		{"too fast", Policy{Rated: true, Casual: true, Bots: true, People: true, MinBase: time.Minute}, ch(true, "", "clock", 30, ""), "tooFast"},
		{"too slow", Policy{Rated: true, Casual: true, Bots: true, People: true, MaxBase: 5 * time.Minute}, ch(true, "", "clock", 600, ""), "tooSlow"},
		{"correspondence past a longest base", Policy{Rated: true, Casual: true, Bots: true, People: true, MaxBase: 5 * time.Minute}, ch(true, "", "correspondence", 0, ""), "tooSlow"},
		{"unlimited allowed", Policy{Casual: true, Bots: true, People: true, Unlimited: true}, ch(false, "", "unlimited", 0, ""), ""},
		{"another ruleset allowed", Policy{Casual: true, Bots: true, People: true, Rulesets: []string{"standard", "bestemshe"}}, ch(false, "", "clock", 180, "bestemshe"), ""},
	} {
		if got := tc.p.decide(tc.c); got != tc.want {
			t.Errorf("%s: decide = %q, want %q", tc.name, got, tc.want)
		}
	}
}
