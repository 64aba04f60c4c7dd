package live

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
)

// Seat is one side of a game: a user, a guest or the engine.
type Seat struct {
	// ID identifies the person across connections: "u:<user id>" for a user,
	// "g:<guest id>" for a guest, "engine" for the engine.
	ID     string
	UserID int64 // 0 for a guest or the engine
	Name   string
	Guest  bool
	Engine int // the engine's level, 0 for a person
	Rating int // the rating when the game started, 0 if none
}

// IsEngine reports whether the seat is the engine's.
func (s Seat) IsEngine() bool { return s.Engine > 0 }

// UserSeat returns the seat of a user.
func UserSeat(userID int64, name string) Seat {
	return Seat{ID: "u:" + strconv.FormatInt(userID, 10), UserID: userID, Name: name}
}

// GuestSeat returns the seat of a guest (his name is his id).
func GuestSeat(name string) Seat { return Seat{ID: "g:" + name, Name: name, Guest: true} }

// EngineSeat returns the seat of the engine playing at a level.
func EngineSeat(level int, name string) Seat { return Seat{ID: "engine", Name: name, Engine: level} }

// Spec is what a game is created with.
type Spec struct {
	ID       string
	Rules    toguz.Rules
	StartFEN string // the starting position; "" for the rules' start
	White    Seat
	Black    Seat
	TC       clock.TimeControl
	Rated    bool
	Created  time.Time
	// Repetition is an event's rule: the position (board, kazans, tuzdiks,
	// side to move) seen for the Repetition-th time ends the game as a draw
	// by adjudication, as the match runner and replay report it (0: off).
	Repetition int
}

// Seat returns pl's seat.
func (s *Spec) Seat(pl toguz.Player) Seat {
	if pl == toguz.White {
		return s.White
	}
	return s.Black
}

// Start returns the starting position of the game and its full-move number
// (the last field of StartFEN, 1 for the rules' start).
func (s *Spec) Start() (toguz.Position, int, error) {
	if s.StartFEN == "" {
		p, err := toguz.NewPosition(s.Rules)
		return p, 1, err
	}
	return toguz.ParseFEN(s.StartFEN, s.Rules)
}

// PlayedMove is one ply as stored: the hole, both clocks after it, and when
// it was made.
type PlayedMove struct {
	By    toguz.Player // the mover (filled in by the game)
	Hole  toguz.Move
	Clock [2]time.Duration // White's and Black's time left after the move
	At    time.Time
}

// Status is where a game stands.
type Status uint8

const (
	Playing Status = iota
	Ended
	Aborted
)

var statusNames = [...]string{"playing", "ended", "aborted"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Ending is how a game ended.
type Ending struct {
	Status      Status // Ended or Aborted
	Result      toguz.Result
	Termination toguz.Termination
	// Reason says why an adjudication ended the game: ReasonRepetition or
	// ReasonArbiter ("" otherwise; not stored: the store keeps the
	// termination).
	Reason string
	Score  [2]int
	Clock  [2]time.Duration
	At     time.Time
}

// Saved is a game as the store holds it: the moves are the source of truth.
type Saved struct {
	Spec
	Moves []PlayedMove
	End   *Ending // nil while the game is played
	// Clock is the stored clock state of a timed game (nil: none stored):
	// after a restart it says since when the running clock runs.
	Clock *clock.State
}

// ErrNotFound is returned (wrapped) by a Store for an unknown game.
var ErrNotFound = errors.New("no such game")

// Store is what the hub needs from the database. Every method must have made
// its write durable when it returns nil: the hub tells the players only then.
type Store interface {
	// CreateGame stores a new game.
	CreateGame(ctx context.Context, s Spec) error
	// AddMove stores ply number ply (1-based) of game id.
	AddMove(ctx context.Context, id string, ply int, m PlayedMove) error
	// EndGame stores the ending of g (and the rating changes of a rated game).
	EndGame(ctx context.Context, g Saved) error
	// Game loads one game, or an error wrapping ErrNotFound.
	Game(ctx context.Context, id string) (Saved, error)
	// LiveGames loads every game still being played.
	LiveGames(ctx context.Context) ([]Saved, error)

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

// EngineRequest is what the engine gets to choose a move.
type EngineRequest struct {
	Position toguz.Position
	Level    int
	Time     [2]time.Duration // the clocks, White first; zero: no clock
	Inc      time.Duration
	// User is whose search it is (the human opponent's Seat.ID): the
	// engine serves the users' searches in turns.
	User string
	// Started, if not nil, is called by Move on its own goroutine, at most
	// once, when the search starts (it may first wait for a free engine):
	// the engine's clock is charged from then.
	Started func(at time.Time)
}

// Engine chooses the engine's moves. Move must return a legal move of
// r.Position unless ctx is cancelled first (then it may return an error).
type Engine interface {
	Move(ctx context.Context, r EngineRequest) (toguz.Move, error)
}
