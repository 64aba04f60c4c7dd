package events

import (
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestSwissSystem: a Swiss event chooses its pairing system (the Dutch or
// Burstein); the choice is refused for a round robin and with the Baku
// acceleration, and the event pairs by it.
func TestSwissSystem(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     Settings
		ok    bool
		store string
		sys   tournament.System
	}{
		{"burstein", Settings{Kind: Swiss, System: "burstein"}, true, "burstein", tournament.Burstein},
		{"dutch is the default", Settings{Kind: Swiss, System: "dutch"}, true, "", tournament.Dutch},
		{"none", Settings{Kind: Swiss}, true, "", tournament.Dutch},
		{"baku", Settings{Kind: Swiss, Acceleration: "baku"}, true, "", tournament.DutchBaku},
		{"round robin", Settings{Kind: RoundRobin, System: "burstein"}, false, "", ""},
		{"with baku", Settings{Kind: Swiss, System: "burstein", Acceleration: "baku"}, false, "", ""},
		{"unknown", Settings{Kind: Swiss, System: "monrad"}, false, "", ""},
		{"not a swiss", Settings{Kind: Swiss, System: "knockout"}, false, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := c.s
			s.Rules, s.TC, s.Rounds = "standard", "5+3", 5
			err := s.Check()
			if (err == nil) != c.ok {
				t.Fatalf("Check: %v", err)
			}
			if !c.ok {
				return
			}
			if s.System != c.store {
				t.Errorf("stored system %q, want %q", s.System, c.store)
			}
			if got := systemOf(s); got != c.sys {
				t.Errorf("systemOf %q, want %q", got, c.sys)
			}
		})
	}
}
