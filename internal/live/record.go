package live

import (
	"context"
	"errors"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// ErrNotFound is returned (wrapped) by a Store for an unknown game.
var ErrNotFound = errors.New("no such game")

// Store is what the hub needs from the database. Every method must have made
// its write durable when it returns nil: the hub tells the players only then.
type Store interface {
	// CreateGame stores a new game.
	CreateGame(ctx context.Context, s game.Spec) error
	// AddMove stores ply number ply (1-based) of game id.
	AddMove(ctx context.Context, id string, ply int, m game.PlayedMove) error
	// EndGame stores the ending of g and, for a rated game, the rating
	// changes it made (nil when it made none).
	EndGame(ctx context.Context, g game.Saved) (ratingDiff *[2]int, err error)
	// Game loads one game, or an error wrapping ErrNotFound.
	Game(ctx context.Context, id string) (game.Saved, error)
	// LiveGames loads every game still being played.
	LiveGames(ctx context.Context) ([]game.Saved, error)

	// EndAbandoned aborts at the instant at, without loading them, the
	// games being played that a says were abandoned by the instant by, and
	// returns how many (the start-up sweep of Hub.Resume).
	EndAbandoned(ctx context.Context, a Abandonment, by, at time.Time) (int, error)
	// LastAlive returns the instant last recorded by MarkAlive (zero: never).
	LastAlive(ctx context.Context) (time.Time, error)
	// MarkAlive records that the server ran at t: a heartbeat, or the
	// instant of a clean stop.
	MarkAlive(ctx context.Context, t time.Time) error
	// TakeBack keeps the first plies moves of game id being played and
	// removes the others, storing clk (nil: no clock) as its clock state,
	// in one transaction (a takeback, social.go).
	TakeBack(ctx context.Context, id string, plies int, clk *clock.State) error
	// SaveClocks stores the clocks of games as a restart rebuilt them, and
	// marks the server alive at alive, in one transaction.
	SaveClocks(ctx context.Context, clocks map[string]clock.State, alive time.Time) error
}

// Engine chooses the engine's moves. Move must return a legal move of
// r.Position unless ctx is cancelled first (then it may return an error).
type Engine interface {
	Move(ctx context.Context, r game.EngineRequest) (toguz.Move, error)
}
