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
	Notes       []string
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
	clock := [2]time.Duration{pl[0].spec.TC.Base, pl[1].spec.TC.Base}
	var moved [2]int
	var info [2]searchInfo
	var losing [2]int // consecutive moves with a resigning score
	startFEN := g.Opening.FEN()
	pos := g.Opening.Position
	reps := toguz.NewRepetitions(adj.Repetition)
	for {
		if pos.IsOver() {
			o := pos.Outcome()
			g.Result, g.Termination, g.Score = o.Result, o.Termination, o.Score
			g.Reason = fmt.Sprintf("%s, %d–%d", o.Termination, o.Score[0], o.Score[1])
			return nil
		}
		if reps.Add(pos) {
			g.Result, g.Termination = toguz.Draw, toguz.ByAdjudication
			g.Reason = fmt.Sprintf("the position occurred %d times (repetition rule)", adj.Repetition)
			return nil
		}
		if adj.MaxPlies > 0 && len(g.Moves) >= adj.MaxPlies {
			g.Result, g.Termination = toguz.Draw, toguz.ByAdjudication
			g.Reason = fmt.Sprintf("move limit of %d plies", adj.MaxPlies)
			return nil
		}
		if adj.Referee != nil {
			if r, ok := adj.Referee.Adjudicate(pos); ok {
				g.Result, g.Termination = r, toguz.ByAdjudication
				g.Reason = "decided by the referee's tablebase"
				return nil
			}
		}
		side := pos.Turn()
		p := pl[side]
		tc := p.spec.TC
		var b strings.Builder
		b.WriteString("position fen " + startFEN)
		if len(g.Moves) > 0 {
			b.WriteString(" moves")
			for _, m := range g.Moves {
				b.WriteString(" " + m.String())
			}
		}
		goCmd, timeout := goCommand(tc, clock, pl, side, moved[side], margin)
		if err := p.send(b.String()); err != nil {
			g.failed[side] = true
			g.forfeit(side, toguz.ByAdjudication, err.Error())
			return nil
		}
		if err := p.send(goCmd); err != nil {
			g.failed[side] = true
			g.forfeit(side, toguz.ByAdjudication, err.Error())
			return nil
		}
		start := time.Now()
		info[side].hasScore = false
		line, err := p.waitFor(ctx, "bestmove", timeout, func(l string) {
			if strings.HasPrefix(l, "info ") {
				parseInfo(l, &info[side])
			}
		})
		elapsed := time.Since(start)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, errTimeout):
			g.failed[side] = true // it may still answer: start afresh
			g.forfeit(side, toguz.ByTime, fmt.Sprintf("%s did not move in %v", p.spec.Name, timeout))
			return nil
		case err != nil:
			g.failed[side] = true
			g.forfeit(side, toguz.ByAdjudication, err.Error())
			return nil
		}
		// The clock.
		switch {
		case tc.Base > 0:
			clock[side] -= elapsed
			if clock[side]+margin < 0 {
				g.forfeit(side, toguz.ByTime, fmt.Sprintf("%s lost on time (%v over)", p.spec.Name, -clock[side].Round(time.Millisecond)))
				return nil
			}
			clock[side] += tc.Inc
			if moved[side]++; tc.Moves > 0 && moved[side]%tc.Moves == 0 {
				clock[side] += tc.Base
			}
		case tc.MoveTime > 0 && elapsed > tc.MoveTime+margin:
			g.forfeit(side, toguz.ByTime, fmt.Sprintf("%s took %v for a move of %v", p.spec.Name, elapsed.Round(time.Millisecond), tc.MoveTime))
			return nil
		}
		// The move, judged by the rules.
		f := strings.Fields(line)
		if len(f) < 2 {
			g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("%s sent %q without a move", p.spec.Name, line))
			return nil
		}
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > pos.Holes() {
			g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("%s sent the move %q, not a hole number", p.spec.Name, f[1]))
			return nil
		}
		next, err := pos.Play(toguz.Move(n))
		if err != nil {
			g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("%s played an illegal move: %v", p.spec.Name, err))
			return nil
		}
		g.Moves = append(g.Moves, toguz.Move(n))
		g.Notes = append(g.Notes, info[side].note(elapsed))
		pos = next
		// Resignation by agreed scores.
		if adj.ResignMoves > 0 {
			if info[side].hasScore && info[side].score <= -adj.ResignScore {
				losing[side]++
			} else {
				losing[side] = 0
			}
			o := side.Other()
			if losing[side] >= adj.ResignMoves && info[o].hasScore && info[o].score >= adj.ResignScore {
				g.forfeit(side, toguz.ByAdjudication, fmt.Sprintf("both engines scored %s lost", p.spec.Name))
				return nil
			}
		}
	}
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
