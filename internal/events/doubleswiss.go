package events

import "github.com/toguz/toguz/internal/tournament"

// checkPairing validates a Swiss's pairing system: the Dutch ("") or the
// Double-Swiss, which has no acceleration here (C.04.7 does not say
// whether its virtual points are a game's or a match's).
func (s *Settings) checkPairing() error {
	switch s.Pairing {
	case "":
		return nil
	case string(tournament.DoubleSwiss):
		if s.Kind == Swiss && s.Acceleration == "" {
			return nil
		}
	}
	return bad("apierr.event_pairing")
}
