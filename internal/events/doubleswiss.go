package events

import "github.com/toguz/toguz/internal/tournament"

// checkSystem validates a Swiss's pairing system (Settings.Pairing): the
// Dutch (""), the Double-Swiss, Dubov or Burstein systems, each for a
// Swiss only and without an acceleration: the Baku method is the Dutch
// system's (C.04.7 does not say whether a Double-Swiss's virtual points
// are a game's or a match's; Dubov and Burstein have none).
func (s *Settings) checkSystem() error {
	switch tournament.System(s.Pairing) {
	case "":
		return nil
	case tournament.DoubleSwiss, tournament.Dubov, tournament.Burstein:
		if s.Kind == Swiss && s.Acceleration == "" {
			return nil
		}
	}
	return bad("apierr.event_pairing")
}
