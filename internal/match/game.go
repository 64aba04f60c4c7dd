package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/openings"
)

// Adjudicator decides positions a referee knows the result of, such as
// those in an endgame tablebase: the result with best play, and ok when p is
// decided.
type Adjudicator interface {
	Adjudicate(p toguz.Position) (r toguz.Result, ok bool)
}

// Rules of adjudication. Zero fields turn a rule off.
type Adjudication struct {
	// MaxPlies ends a game that is not over after this many plies as a draw.
	MaxPlies int
	// ResignScore and ResignMoves: a player whose engine reported a score of
	// -ResignScore or worse (hundredths of a stone) on ResignMoves moves in a
	// row, while its opponent's last score was ResignScore or better, loses.
	ResignScore int
	ResignMoves int
	// Referee, if not nil, decides a position as soon as it knows it.
	Referee Adjudicator
	// Repetition draws a game when a position (board, kazans, tuzdiks,
	// side to move) occurs for the Repetition-th time: an event's rule
	// (docs/rules.md §3), off below 2.
	Repetition int
}

// Game is one game played by the referee.
type Game struct {
	Round        int
	White, Black string // engine names
	Rules        toguz.Rules
	Opening      openings.Opening
	Moves        []toguz.Move
	// Notes has, for each move, the engine's last reported score (mover's
	// view, in stones, or "win N"/"loss N" plies), its depth and the time
	// the move took, as cutechess-cli comments its moves: "+1.25/12 0.48s".
	Notes []string
	// Times has each answer's time as the referee measured it, from its go
	// command to its bestmove line, White's and Black's. An answer that
	// lost the game (late, illegal) is its side's last; one the referee
	// stopped waiting for is not there. Late counts, by side too, the
	// answers after the limit (the time per move, the clock left) but
	// within the margin.
	Times       [2][]time.Duration
	Late        [2]int
	Result      toguz.Result
	Termination toguz.Termination
	Reason      string         // why it ended, in words
	Score       [2]int         // the final count per player when the rules ended it
	TimeControl [2]TimeControl // White's, Black's
	Start       time.Time
	Duration    time.Duration
	failed      [2]bool // the engine broke the protocol or crashed: restart it
}

// playGame plays one game from the opening between the players, white
// first, and judges it by the rules library alone.
func playGame(ctx context.Context, g *Game, pl [2]*player, adj Adjudication, margin time.Duration) error {
	g.Start = time.Now()
	defer func() { g.Duration = time.Since(g.Start) }()
	for _, p := range pl {
		if err := p.newGame(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			side := toguz.White
			if p == pl[1] {
				side = toguz.Black
			}
			g.failed[side] = true
			g.forfeit(side, toguz.ByAdjudication, err.Error())
			return nil
		}
	}
	s := &gamePlay{g: g, pl: pl, adj: adj, margin: margin,
		clock:    [2]time.Duration{pl[0].spec.TC.Base, pl[1].spec.TC.Base},
		startFEN: g.Opening.FEN(), pos: g.Opening.Position, reps: toguz.NewRepetitions(adj.Repetition)}
	for !s.adjudicated() {
		side := s.pos.Turn()
		line, elapsed, over, err := s.ask(ctx, side)
		if over {
			return err
		}
		g.Times[side] = append(g.Times[side], elapsed)
		if s.overTime(side, elapsed) || s.play(side, line, elapsed) || s.resigns(side) {
			return nil
		}
	}
	return nil
}

// gamePlay is a game being played by playGame. Its methods that report
// a bool report whether they ended the game (g's result is set then).
type gamePlay struct {
	g        *Game
	pl       [2]*player
	adj      Adjudication
	margin   time.Duration
	clock    [2]time.Duration
	moved    [2]int
	info     [2]searchInfo
	losing   [2]int // consecutive moves with a resigning score
	startFEN string
	pos      toguz.Position
	reps     *toguz.Repetitions
}

// adjudicated ends the game where the position is over by the rules or
// by the adjudication's rules: the repetition, the move limit, the
// referee.
func (s *gamePlay) adjudicated() bool {
	g, adj, pos := s.g, s.adj, s.pos
	if pos.IsOver() {
		o := pos.Outcome()
		g.Result, g.Termination, g.Score = o.Result, o.Termination, o.Score
		g.Reason = fmt.Sprintf("%s, %d–%d", o.Termination, o.Score[0], o.Score[1])
		return true
	}
	if s.reps.Add(pos) {
		g.Result, g.Termination = toguz.Draw, toguz.ByAdjudication
		g.Reason = fmt.Sprintf("the position occurred %d times (repetition rule)", adj.Repetition)
		return true
	}
	if adj.MaxPlies > 0 && len(g.Moves) >= adj.MaxPlies {
		g.Result, g.Termination = toguz.Draw, toguz.ByAdjudication
		g.Reason = fmt.Sprintf("move limit of %d plies", adj.MaxPlies)
		return true
	}
	if adj.Referee != nil {
		if r, ok := adj.Referee.Adjudicate(pos); ok {
			g.Result, g.Termination = r, toguz.ByAdjudication
			g.Reason = "decided by the referee's tablebase"
			return true
		}
	}
	return false
}

// ask sends side's engine the position and the go command and waits for
// its bestmove line and the time it took. over says that the game ended
// (the engine failed: a forfeit) or was cancelled (err).
func (s *gamePlay) ask(ctx context.Context, side toguz.Player) (line string, elapsed time.Duration, over bool, err error) {
	g, p := s.g, s.pl[side]
	var b strings.Builder
	b.WriteString("position fen " + s.startFEN)
	if len(g.Moves) > 0 {
		b.WriteString(" moves")
		for _, m := range g.Moves {
			b.WriteString(" " + m.String())
		}
	}
	goCmd, timeout := goCommand(p.spec.TC, s.clock, s.pl, side, s.moved[side], s.margin)
	if err := p.send(b.String()); err != nil {
		g.failed[side] = true
		g.forfeit(side, toguz.ByAdjudication, err.Error())
		return "", 0, true, nil
	}
	if err := p.send(goCmd); err != nil {
		g.failed[side] = true
		g.forfeit(side, toguz.ByAdjudication, err.Error())
		return "", 0, true, nil
	}
	start := time.Now()
	info := &s.info[side]
	info.hasScore = false
	line, err = p.waitFor(ctx, "bestmove", timeout, func(l string) {
		if strings.HasPrefix(l, "info ") {
			parseInfo(l, info)
		}
	})
	elapsed = time.Since(start)
	switch {
	case ctx.Err() != nil:
		return "", 0, true, ctx.Err()
	case errors.Is(err, errTimeout):
		g.failed[side] = true // it may still answer: start afresh
		g.forfeit(side, toguz.ByTime, fmt.Sprintf("%s did not move in %v", p.spec.Name, timeout))
		return "", 0, true, nil
	case err != nil:
		g.failed[side] = true
		g.forfeit(side, toguz.ByAdjudication, err.Error())
		return "", 0, true, nil
	}
	return line, elapsed, false, nil
}

// overTime runs side's clock for a move that took elapsed, and ends the
// game where it lost on time.
func (s *gamePlay) overTime(side toguz.Player, elapsed time.Duration) bool {
	p := s.pl[side]
	tc := p.spec.TC
	switch {
	case tc.Base > 0:
		s.clock[side] -= elapsed
		if s.clock[side]+s.margin < 0 {
			s.g.forfeit(side, toguz.ByTime, fmt.Sprintf("%s lost on time (%v over)", p.spec.Name, -s.clock[side].Round(time.Millisecond)))
			return true
		}
		if s.clock[side] < 0 {
			s.g.Late[side]++
		}
		s.clock[side] += tc.Inc
		if s.moved[side]++; tc.Moves > 0 && s.moved[side]%tc.Moves == 0 {
			s.clock[side] += tc.Base
		}
	case tc.MoveTime > 0 && elapsed > tc.MoveTime+s.margin:
		s.g.forfeit(side, toguz.ByTime, fmt.Sprintf("%s took %v for a move of %v", p.spec.Name, elapsed.Round(time.Millisecond), tc.MoveTime))
		return true
	case tc.MoveTime > 0 && elapsed > tc.MoveTime:
		s.g.Late[side]++
	}
	return false
}

// play judges side's bestmove line by the rules and plays its move; a
// line without a legal move loses the game.
func (s *gamePlay) play(side toguz.Player, line string, elapsed time.Duration) bool {
	g, name := s.g, s.pl[side].spec.Name
	f := strings.Fields(line)
	if len(f) < 2 {
		g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("%s sent %q without a move", name, line))
		return true
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > s.pos.Holes() {
		g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("%s sent the move %q, not a hole number", name, f[1]))
		return true
	}
	next, err := s.pos.Play(toguz.Move(n))
	if err != nil {
		g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("%s played an illegal move: %v", name, err))
		return true
	}
	g.Moves = append(g.Moves, toguz.Move(n))
	g.Notes = append(g.Notes, s.info[side].note(elapsed))
	s.pos = next
	return false
}

// resigns ends the game by the agreed scores of the adjudication: side
// scored itself lost on ResignMoves moves in a row, and its opponent
// agrees.
func (s *gamePlay) resigns(side toguz.Player) bool {
	adj := s.adj
	if adj.ResignMoves <= 0 {
		return false
	}
	if s.info[side].hasScore && s.info[side].score <= -adj.ResignScore {
		s.losing[side]++
	} else {
		s.losing[side] = 0
	}
	o := side.Other()
	if s.losing[side] >= adj.ResignMoves && s.info[o].hasScore && s.info[o].score >= adj.ResignScore {
		s.g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("both engines scored %s lost", s.pl[side].spec.Name))
		return true
	}
	return false
}

// goCommand returns the go command for the side to move and how long to
// wait for its answer.
func goCommand(tc TimeControl, clock [2]time.Duration, pl [2]*player, side toguz.Player, moved int, margin time.Duration) (string, time.Duration) {
	const slack = 5 * time.Second // beyond the limit, an engine that does not answer has failed
	switch {
	case tc.MoveTime > 0:
		return fmt.Sprintf("go movetime %d", tc.MoveTime.Milliseconds()), tc.MoveTime + margin + slack
	case tc.Depth > 0:
		return fmt.Sprintf("go depth %d", tc.Depth), time.Hour
	case tc.Nodes > 0:
		return fmt.Sprintf("go nodes %d", tc.Nodes), time.Hour
	case tc.Base == 0:
		return "go infinite", time.Hour // never sent by a match: Validate refuses it
	}
	ms := func(d time.Duration) int64 { return max(d.Milliseconds(), 1) }
	var b strings.Builder
	fmt.Fprintf(&b, "go wtime %d btime %d", ms(clock[0]), ms(clock[1]))
	if w, bl := pl[0].spec.TC.Inc, pl[1].spec.TC.Inc; w > 0 || bl > 0 {
		fmt.Fprintf(&b, " winc %d binc %d", w.Milliseconds(), bl.Milliseconds())
	}
	if tc.Moves > 0 {
		fmt.Fprintf(&b, " movestogo %d", tc.Moves-moved%tc.Moves)
	}
	return b.String(), clock[side] + margin
}

// forfeit ends the game with a loss for side.
func (g *Game) forfeit(side toguz.Player, t toguz.Termination, reason string) {
	g.Result, g.Termination, g.Reason = toguz.WinFor(side.Other()), t, reason
}

// Record returns the game as a record of the root package.
func (g *Game) Record() (*toguz.Game, error) {
	r, err := toguz.NewGame(g.Opening.Position, g.Moves...)
	if err != nil {
		return nil, err
	}
	r.StartMove = g.Opening.FullMove
	r.SetTag("Event", "toguz match")
	r.SetTag("Date", g.Start.UTC().Format("2006.01.02"))
	r.SetTag("Round", strconv.Itoa(g.Round))
	r.SetTag("White", g.White)
	r.SetTag("Black", g.Black)
	r.SetTag("TimeControl", g.TimeControl[0].String())
	if g.TimeControl[1] != g.TimeControl[0] {
		r.SetTag("BlackTimeControl", g.TimeControl[1].String())
	}
	r.SetTag("PlyCount", strconv.Itoa(len(g.Moves)))
	if g.Reason != "" {
		r.SetTag("Reason", g.Reason)
	}
	for i, note := range g.Notes {
		r.Plies[i].Comment = note
	}
	r.Result, r.Termination = g.Result, g.Termination
	return r, nil
}

// WriteRecord writes the game in the toguz record format (tags, then the
// plies in score-sheet notation, the result last).
func (g *Game) WriteRecord(w io.Writer) error {
	r, err := g.Record()
	if err != nil {
		return err
	}
	return toguz.WriteGames(w, toguz.FormatToguz, r)
}
