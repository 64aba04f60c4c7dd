package tui

import (
	"time"

	"github.com/toguz/toguz"
)

// Record returns the game record of g (toguz.Game, written with
// toguz.WriteGames): the players, the date, the start position when it is
// not the usual one, the moves, and the result the rules gave, or "*" when
// the game was left before its end.
func Record(g Game, white, black string, date time.Time) (*toguz.Game, error) {
	rec, err := toguz.NewGame(g.Start, g.Moves()...)
	if err != nil {
		return nil, err
	}
	rec.StartMove = g.Fullmove
	rec.Result = g.Outcome.Result
	rec.Termination = g.Outcome.Termination
	rec.SetTag("Event", "toguz play")
	rec.SetTag("Date", date.Format("2006.01.02"))
	rec.SetTag("White", white)
	rec.SetTag("Black", black)
	return rec, nil
}
