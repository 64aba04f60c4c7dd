// Package systems connects every Swiss pairing system the build has to
// package tournament's events: the one place that names them all, used by
// the server (live events, the championships' desk) and the command line
// alike, so that a system added here is paired everywhere the same way.
//
// The Double-Swiss and the round robins need no entry: PairerFor pairs
// them in package tournament itself.
package systems

import (
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/burstein"
	"github.com/toguz/toguz/internal/tournament/dubov"
	"github.com/toguz/toguz/internal/tournament/dutch"
	"github.com/toguz/toguz/internal/tournament/teamswiss"
)

// Swiss returns the Swiss pairer: each event paired by its own system's
// package (the Dutch, with or without the Baku acceleration, Dubov,
// Burstein, the team Swiss).
func Swiss() tournament.BySystem {
	return tournament.BySystem{
		tournament.Dutch:     dutch.Pairer{},
		tournament.DutchBaku: dutch.Pairer{},
		tournament.Dubov:     dubov.Pairer{},
		tournament.Burstein:  burstein.Pairer{},
		tournament.TeamSwiss: teamswiss.Pairer{},
	}
}
