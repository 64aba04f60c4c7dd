package events

import (
	"strings"

	"github.com/toguz/toguz/internal/tournament"
)

// checkBurstein validates the Burstein system (C.04.4.2): for a Swiss,
// without an acceleration and not with another system ("burstein+…" from
// the form); else the others (checkPairing).
func (s *Settings) checkBurstein() error {
	if s.Pairing == string(tournament.Burstein) || strings.HasPrefix(s.Pairing, string(tournament.Burstein)+"+") {
		if s.Pairing == string(tournament.Burstein) && s.Kind == Swiss && s.Acceleration == "" {
			return nil
		}
		return bad("apierr.event_burstein")
	}
	return s.checkPairing()
}
