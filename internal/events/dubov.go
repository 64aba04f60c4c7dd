package events

import (
	"strings"

	"github.com/toguz/toguz/internal/tournament"
)

// checkSystem validates a Swiss's pairing system: the Dubov system (for a
// Swiss, without acceleration: C.04.4.1 has none, and not with the
// Double-Swiss, "dubov+…" from the form), else the others (checkPairing).
func (s *Settings) checkSystem() error {
	if s.Pairing == string(tournament.Dubov) || strings.HasPrefix(s.Pairing, string(tournament.Dubov)+"+") {
		if s.Pairing == string(tournament.Dubov) && s.Kind == Swiss && s.Acceleration == "" {
			return nil
		}
		return bad("apierr.event_dubov")
	}
	return s.checkBurstein()
}
