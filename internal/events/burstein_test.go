package events

import (
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestSwissSystem: a Swiss event chooses the Burstein system; the choice
// is refused for a round robin, with the Baku acceleration and with
// another system, and the event pairs by it.
func TestSwissSystem(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     Settings
		ok    bool
		store string
		sys   tournament.System
	}{
		{"burstein", Settings{Kind: Swiss, Pairing: "burstein"}, true, "burstein", tournament.Burstein},
		{"none", Settings{Kind: Swiss}, true, "", tournament.Dutch},
		{"baku", Settings{Kind: Swiss, Acceleration: "baku"}, true, "", tournament.DutchBaku},
		{"round robin", Settings{Kind: RoundRobin, Pairing: "burstein"}, false, "", ""},
		{"with baku", Settings{Kind: Swiss, Pairing: "burstein", Acceleration: "baku"}, false, "", ""},
		{"with dubov", Settings{Kind: Swiss, Pairing: "burstein+dubov"}, false, "", ""},
		{"unknown", Settings{Kind: Swiss, Pairing: "monrad"}, false, "", ""},
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
			if s.Pairing != c.store {
				t.Errorf("stored system %q, want %q", s.Pairing, c.store)
			}
			if got := systemOf(s); got != c.sys {
				t.Errorf("systemOf %q, want %q", got, c.sys)
			}
		})
	}
}
