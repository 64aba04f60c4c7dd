// Package tui plays Toguz Kumalak in a terminal, line by line: `toguz play`.
//
// # Index
//
//   - Play runs one game between a person and an Engine, or two people at
//     the same keyboard, reading commands from a reader (a hole number to
//     move, u to undo, h for a hint, f to flip the board, q to quit) and
//     drawing the board after every move; it returns the Game for the record.
//   - DrawBoard draws a position in ANSI colour or plain text: Black's row on
//     top from the last hole down to 1, White's below from 1 up, kazans,
//     tuzdiks, the last move highlighted, stones as numbers and optional dots,
//     and optionally the holes' traditional names under the board
//     (Style.HoleNames, HoleGlosses).
//   - NewPly and ScoreSheet write moves in score-sheet notation ("76", "36x").
//
// The loop is line oriented rather than a full-screen program so that it
// works on any terminal, over a pipe, and in tests that feed it text.
package tui

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
)

// Engine chooses moves: the opponent, and the source of hints.
type Engine interface {
	// BestMove returns a legal move for the side to move in p, which is not
	// over, or an error (ctx cancelled).
	BestMove(ctx context.Context, p toguz.Position) (toguz.Move, error)
}

// Config is one game of Play.
type Config struct {
	In  io.Reader // commands, one a line
	Out io.Writer // the board and messages

	Start    toguz.Position // the position the game starts from
	Fullmove int            // the move number of Start (1 for a new game)

	// Opponent plays the side EngineSide; nil: two people play.
	Opponent   Engine
	EngineSide toguz.Player
	// Hints answers h; nil: no hints.
	Hints Engine

	Style Style
	// Clear clears the screen before each board, for a terminal.
	Clear bool
	// Names of the players, for the messages.
	White, Black string
}

// Game is what Play returns: enough for a record.
type Game struct {
	Start    toguz.Position
	Fullmove int
	Plies    []Ply
	Final    toguz.Position
	// Outcome is the rules' outcome of Final; its Termination is
	// Unterminated when the game was left before its end.
	Outcome toguz.Outcome
}

// Moves returns the moves of g in order.
func (g Game) Moves() []toguz.Move {
	ms := make([]toguz.Move, len(g.Plies))
	for i, pl := range g.Plies {
		ms[i] = pl.Move
	}
	return ms
}

// ErrQuit is returned by Play when the player quit before the end (q, or
// the end of the input).
var ErrQuit = errors.New("game left before its end")

const help = "Commands: a hole number to move, u undo, h hint, f flip the board, q quit."

// Play runs one game until it ends, the player quits (ErrQuit) or ctx is
// cancelled (its error). The Game it returns holds the moves played in
// every case, so that the caller can save the record.
func Play(ctx context.Context, c Config) (Game, error) {
	if c.Fullmove < 1 {
		c.Fullmove = 1
	}
	c.White, c.Black = cmp.Or(c.White, "White"), cmp.Or(c.Black, "Black")
	s := session{Config: c, pos: c.Start, lines: make(chan string), done: make(chan struct{})}
	defer close(s.done)
	go s.read()
	err := s.loop(ctx)
	g := Game{Start: c.Start, Fullmove: c.Fullmove, Plies: s.plies, Final: s.pos}
	if s.pos.IsOver() {
		g.Outcome = s.pos.Outcome()
	}
	return g, err
}

// session is the state of one game in Play.
type session struct {
	Config
	pos      toguz.Position
	history  []toguz.Position // positions before each ply
	plies    []Ply
	lines    chan string   // input lines; closed at the end of the input
	done     chan struct{} // closed when Play returns, to stop read
	message  string        // shown under the next board
	inputErr error
}

// read sends the input lines to s.lines until the input ends or Play
// returns. On a terminal it stays blocked in Read after Play returns, until
// the process exits; a reader that ends (a file, a pipe) lets it finish.
func (s *session) read() {
	defer close(s.lines)
	sc := bufio.NewScanner(s.In)
	for sc.Scan() {
		select {
		case s.lines <- sc.Text():
		case <-s.done:
			return
		}
	}
	s.inputErr = sc.Err()
}

func (s *session) name(pl toguz.Player) string {
	if pl == toguz.White {
		return s.White
	}
	return s.Black
}

// who names pl's player and side: "White", or "Ayan (White)".
func (s *session) who(pl toguz.Player) string {
	if n := s.name(pl); n != sideName(pl) {
		return n + " (" + sideName(pl) + ")"
	}
	return sideName(pl)
}

func (s *session) engineToMove() bool {
	return s.Opponent != nil && s.pos.Turn() == s.EngineSide
}

func (s *session) loop(ctx context.Context) error {
	for {
		if err := s.draw(); err != nil {
			return err
		}
		if s.pos.IsOver() {
			return s.printResult()
		}
		if s.engineToMove() {
			fmt.Fprintf(s.Out, "%s thinks...\n", s.who(s.pos.Turn()))
			m, err := s.Opponent.BestMove(ctx, s.pos)
			if err != nil {
				return fmt.Errorf("engine: %w", err)
			}
			if err := s.play(m); err != nil {
				return fmt.Errorf("engine played %v: %w", m, err)
			}
			continue
		}
		fmt.Fprintf(s.Out, "%s to move [1-%d, u, h, f, q]: ", s.who(s.pos.Turn()), s.pos.Holes())
		var line string
		select {
		case <-ctx.Done():
			fmt.Fprintln(s.Out)
			return ctx.Err()
		case l, ok := <-s.lines:
			if !ok {
				fmt.Fprintln(s.Out)
				if s.inputErr != nil {
					return fmt.Errorf("reading commands: %w", s.inputErr)
				}
				return ErrQuit
			}
			line = l
		}
		quit, err := s.command(ctx, strings.TrimSpace(line))
		if err != nil {
			return err
		}
		if quit {
			return ErrQuit
		}
	}
}

// command carries out one input line; it reports whether the player quit.
func (s *session) command(ctx context.Context, cmd string) (quit bool, err error) {
	switch strings.ToLower(cmd) {
	case "":
		s.message = help
	case "q", "quit", "exit":
		return true, nil
	case "f", "flip":
		s.Style.Flip = !s.Style.Flip
	case "u", "undo":
		s.undo()
	case "h", "hint":
		if s.Hints == nil {
			s.message = "No hints in this game."
			break
		}
		fmt.Fprintln(s.Out, "Looking for the best move...")
		m, err := s.Hints.BestMove(ctx, s.pos)
		if err != nil {
			return false, fmt.Errorf("hint: %w", err)
		}
		s.message = fmt.Sprintf("Hint: play %d (%s).", m, NewPly(s.pos, m))
	case "?", "help":
		s.message = help
	default:
		n, err := strconv.Atoi(cmd)
		if err != nil {
			s.message = fmt.Sprintf("%q is not a command. %s", cmd, help)
			break
		}
		if err := s.play(toguz.Move(min(max(n, 0), 255))); err != nil {
			var ill *toguz.IllegalMoveError
			if errors.As(err, &ill) {
				s.message = fmt.Sprintf("You cannot play %d: %s.", n, ill.Reason)
			} else {
				s.message = err.Error()
			}
		}
	}
	return false, nil
}

// play plays m, checked.
func (s *session) play(m toguz.Move) error {
	if err := s.pos.CheckMove(m); err != nil {
		return err
	}
	pl := NewPly(s.pos, m)
	s.history = append(s.history, s.pos)
	s.plies = append(s.plies, pl)
	s.pos = s.pos.After(m)
	return nil
}

// undo takes back the last ply, and against an engine also the engine's
// reply, so that it is the person's turn again.
func (s *session) undo() {
	if len(s.plies) == 0 {
		s.message = "Nothing to undo."
		return
	}
	for len(s.plies) > 0 {
		k := len(s.plies) - 1
		s.pos = s.history[k]
		s.history, s.plies = s.history[:k], s.plies[:k]
		if !s.engineToMove() {
			break
		}
	}
	s.message = "Move taken back."
}

func (s *session) draw() error {
	if s.Clear {
		io.WriteString(s.Out, "\x1b[H\x1b[2J")
	} else {
		fmt.Fprintln(s.Out)
	}
	var last LastMove
	if k := len(s.plies); k > 0 {
		pl := s.plies[k-1]
		last = LastMove{Player: pl.Player, Hole: int(pl.Move), Landing: pl.Landing}
	}
	if err := DrawBoard(s.Out, s.pos, last, s.Style); err != nil {
		return err
	}
	if sheet := ScoreSheet(s.plies, s.Fullmove, 72); sheet != "" {
		fmt.Fprintf(s.Out, "\n%s", sheet)
	}
	if s.message != "" {
		fmt.Fprintf(s.Out, "\n%s\n", s.message)
		s.message = ""
	}
	_, err := fmt.Fprintln(s.Out)
	return err
}

func (s *session) printResult() error {
	o := s.pos.Outcome()
	what := "Draw"
	switch o.Result {
	case toguz.WhiteWins:
		what = s.who(toguz.White) + " wins"
	case toguz.BlackWins:
		what = s.who(toguz.Black) + " wins"
	}
	_, err := fmt.Fprintf(s.Out, "Game over: %s by %s, %d-%d. Result %s.\n", what, o.Termination, o.Score[toguz.White], o.Score[toguz.Black], o.Result)
	return err
}
