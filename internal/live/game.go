package live

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/posjson"
)

// actor is one game's actor. Its goroutine (run) owns every field below the
// line; other goroutines reach them only through do, which runs a function
// on that goroutine. There is no lock: the channel is the lock.
type actor struct {
	hub  *Hub
	spec game.Spec
	log  *slog.Logger
	cmds chan func()   // functions to run on the game goroutine
	done chan struct{} // closed once, when the goroutine has exited
	fan  *fanout       // the spectators (fanout.go)
	// leased is when the node took the game's lease (set before the
	// actor runs; several nodes only); kill, closed once, stops the actor
	// when another node has taken the lease.
	leased   time.Time
	kill     chan struct{}
	killOnce sync.Once
	// handoff: kill was closed to hand the game to this node, which takes
	// its lease once the actor has handed it over (handover.go).
	handoff atomic.Pointer[string]

	// ---- owned by the game goroutine ----
	start     toguz.Position
	startMove int // the full-move number of start
	pos       toguz.Position
	moves     []moveEntry
	clock     *clock.Clock
	status    game.Status
	end       *game.Ending
	drawOffer int8 // the player offering a draw, or -1
	conns     map[*Conn]struct{}
	present   [2]int       // connections of each player
	gone      [2]time.Time // when each player's last connection closed
	activity  time.Time    // last move or game start (abandonment), shifted by any downtime
	timer     *time.Timer
	timerOn   bool
	thinking  int // ply count the engine is thinking on, or -1
	cancelEng context.CancelFunc
	// engineHeld: the engine's clock is held while its search waits for
	// a searcher; engineDone charges it from the search's start.
	engineHeld   bool
	socialFields // chat, rematch, takeback (social.go)

	over atomic.Bool // the game has ended: any goroutine may read it (Hub.Games)
	// lastActive is activity as Unix milliseconds, written by the game's
	// goroutine with activity, read by any (Hub.Games).
	lastActive atomic.Int64
}

// moveEntry is a ply as the game keeps it. It holds no pointer (no string,
// no time.Time, whose location is one), so a game's moves, which every live
// game keeps whole, are memory the collector does not scan: the notation,
// the landing's side and the time are made when a message needs them.
type moveEntry struct {
	ply      toguz.Ply // the hole, where its last stone fell, a tuzdik made
	by       toguz.Player
	landSide toguz.Player
	captured int
	clock    [2]time.Duration // White's and Black's time left after the move
	at       int64            // when it was played, Unix ns; 0 for the zero time
	// after is the position after the move: its FEN and board are made
	// when a message needs them.
	after toguz.Position
}

func (e moveEntry) played() game.PlayedMove {
	m := game.PlayedMove{By: e.by, Hole: e.ply.Move, Clock: e.clock}
	if e.at != 0 {
		m.At = time.Unix(0, e.at)
	}
	return m
}

// playedMoves returns the moves as the store keeps them (nil for none).
func playedMoves(moves []moveEntry) []game.PlayedMove {
	if len(moves) == 0 {
		return nil
	}
	out := make([]game.PlayedMove, len(moves))
	for i, m := range moves {
		out[i] = m.played()
	}
	return out
}

func (e moveEntry) notation() string { return e.ply.String() }

func (e moveEntry) landing() LandingJSON { return landingJSON(e.landSide, e.ply.Land) }

// newGame builds the actor of a stored game (no moves for a new one). It
// replays the moves with the rules library; a stored game that does not
// replay is an error. rs is set when a restarted hub resumes the game (see
// Hub.Resume); without it a running clock runs on from its stored state.
func newGame(h *Hub, s game.Saved, rs *resumed) (*actor, error) {
	start, startMove, err := s.Start()
	if err != nil {
		return nil, err
	}
	g := &actor{
		hub: h, spec: s.Spec,
		log:       h.log.With("game", s.ID),
		cmds:      make(chan func(), 64),
		done:      make(chan struct{}),
		kill:      make(chan struct{}),
		start:     start,
		startMove: startMove,
		pos:       start,
		status:    game.Playing, // until s.End says otherwise
		clock:     clock.New(s.TC, start.Turn(), time.Now),
		drawOffer: -1,
		conns:     map[*Conn]struct{}{},
		thinking:  -1,
		timer:     time.NewTimer(time.Hour),
	}
	g.fan = newFanout(g)
	g.timer.Stop()
	now := time.Now()
	for i, m := range s.Moves {
		e, next, err := g.entry(g.pos, m)
		if err != nil {
			return nil, errorf(apierr.CodeInternal, "game %s, ply %d: %v", s.ID, i+1, err)
		}
		g.moves = append(g.moves, e)
		g.pos = next
	}
	g.gone = [2]time.Time{now, now}
	g.activity = s.Created
	st := g.clock.State()
	if n := len(s.Moves); n > 0 {
		st.Remaining = s.Moves[n-1].Clock
		st.Since = s.Moves[n-1].At
		g.activity = s.Moves[n-1].At
	}
	if g.activity.IsZero() {
		g.activity = now
	}
	st.Turn = g.pos.Turn()
	// The clocks run from each side's first move on.
	st.Running = s.End == nil && len(s.Moves) >= 2 && s.TC.Kind() != clock.Unlimited
	if c := s.Clock; st.Running && c != nil && c.Running && !c.Stopped && c.Turn == st.Turn {
		// The stored state, rebuilt by an earlier restart, is the newer.
		st.Remaining, st.Since = c.Remaining, c.Since
	}
	if !st.Running {
		st.Since = time.Time{}
	}
	if rs != nil {
		// Charged until the server stopped, running again from now: only
		// the downtime is forgiven, to the clocks and to the abandonment
		// limits alike. The engine to move is charged nothing: its clock
		// was held while its search waited, and a search under way is
		// lost; the next one is charged from its start (maybeEngine).
		stopped := rs.stopped
		if g.spec.Seat(st.Turn).IsEngine() {
			stopped = time.Time{}
		}
		st = st.ResumeAt(stopped, rs.now)
		switch {
		case rs.stopped.IsZero():
			g.activity = rs.now // not known: the limits start again
		case g.activity.Before(rs.stopped):
			g.activity = g.activity.Add(rs.now.Sub(rs.stopped))
		default:
			g.activity = rs.now
		}
	}
	if s.End != nil {
		g.over.Store(true)
		g.status, g.end = s.End.Status, s.End
		st.Remaining, st.Stopped = s.End.Clock, true
	}
	g.clock = clock.Restore(s.TC, st, time.Now)
	g.lastActive.Store(g.activity.UnixMilli())
	return g, nil
}

// entry checks and describes move m played from p, the position after the
// moves so far. The move is checked and sown once: Position.Ply gives the
// position after it and its score-sheet ply together.
func (g *actor) entry(p toguz.Position, m game.PlayedMove) (moveEntry, toguz.Position, error) {
	if err := p.CheckMove(m.Hole); err != nil {
		return moveEntry{}, p, err
	}
	y, next := p.Ply(m.Hole)
	mover := p.Turn()
	landSide, _ := p.Landing(m.Hole)
	e := moveEntry{ply: y, by: mover, landSide: landSide, captured: next.Kazan(mover) - p.Kazan(mover),
		clock: m.Clock, after: next}
	if !m.At.IsZero() {
		e.at = m.At.UnixNano()
	}
	return e, next, nil
}

// do runs f on the game goroutine and reports whether it was queued; it
// returns false once the game has exited.
func (g *actor) do(f func()) bool {
	select {
	case g.cmds <- f:
		return true
	case <-g.done:
		return false
	}
}

// ask runs f on the game goroutine and waits for its value. ok is false
// when the game exited without running it, or ctx ended first. A value
// sent before the exit wins: a finished game's goroutine exits right after
// the command it was asked, so a plain select on the value and the exit
// often finds both ready and picks the exit half of the time.
func ask[T any](ctx context.Context, g *actor, f func() T) (v T, ok bool) {
	ch := make(chan T, 1)
	if !g.do(func() { ch <- f() }) {
		return v, false
	}
	select {
	case v = <-ch:
		return v, true
	case <-g.done:
		select {
		case v = <-ch:
			return v, true
		default:
			return v, false
		}
	case <-ctx.Done():
		return v, false
	}
}

// run is the game goroutine. It exits when the hub stops, or when the game
// has ended, nobody watches it any more and no command waits.
func (g *actor) run(ctx context.Context) {
	defer g.exit()
	if g.status == game.Playing && g.pos.IsOver() {
		// The server stopped between storing the last move and storing
		// the ending it made: end the game now, as the rules say.
		o := g.pos.Outcome()
		g.finish(game.Ending{Status: game.Ended, Result: o.Result, Termination: o.Termination, Score: o.Score}, time.Now())
	}
	g.afterChange()
	for {
		var timerC <-chan time.Time
		if g.timerOn {
			timerC = g.timer.C
		}
		select {
		case f := <-g.cmds:
			f()
		case <-timerC:
			g.timerOn = false
			g.onTimer()
		case <-ctx.Done():
			return
		case <-g.kill:
			return
		}
		// Not while commands wait: their callers would find the game gone
		// and each start another actor (a finished game's page asked by
		// several at once failed after three such rounds).
		if g.status != game.Playing && len(g.conns) == 0 && g.fan.count() == 0 && len(g.cmds) == 0 {
			return
		}
	}
}

// exit removes the game from the hub, stops the engine and closes every
// connection's channel. The hub entry goes first so that a Join that finds
// the game closed looks it up again and reloads it from the store.
func (g *actor) exit() {
	if g.hub.cl != nil {
		// Before the hub forgets the actor: a Join after that takes the
		// lease again for the next one.
		g.hub.cl.release(g)
	}
	g.hub.remove(g)
	g.hub.engineGames.release(g.spec.ID)
	g.stopEngine()
	g.timer.Stop()
	for c := range g.conns {
		delete(g.conns, c)
		c.close()
	}
	g.fan.close()
	close(g.done)
}

// afterChange starts the engine when it is to move and arms the timer for
// the next deadline: a flag, or the first-move timeout.
func (g *actor) afterChange() {
	if g.status != game.Playing {
		g.timer.Stop()
		g.timerOn = false
		return
	}
	g.maybeEngine() // first: it holds the engine's clock, which moves the deadline
	var next time.Time
	if d, ok := g.clock.Deadline(); ok {
		next = d
	}
	if d, ok := g.hub.abandonment().At(&g.spec, len(g.moves), g.activity); ok && (next.IsZero() || d.Before(next)) {
		next = d
	}
	g.timer.Stop()
	g.timerOn = !next.IsZero()
	if g.timerOn {
		g.timer.Reset(time.Until(next))
	}
}

func (g *actor) onTimer() {
	now := time.Now()
	if g.status != game.Playing {
		return
	}
	if pl, _, flagged := g.clock.Flagged(); flagged {
		g.finishWin(pl.Other(), toguz.ByTime, now)
		return
	}
	if d, ok := g.hub.abandonment().At(&g.spec, len(g.moves), g.activity); ok && !now.Before(d) {
		g.log.Info("game abandoned", "plies", len(g.moves), "idle", now.Sub(g.activity).Round(time.Second))
		g.finish(game.Ending{Status: game.Aborted, Result: toguz.NoResult, Termination: toguz.Unterminated}, now)
		return
	}
	g.afterChange()
}

// handle runs a client's message on the game goroutine.
func (g *actor) handle(c *Conn, m ClientMsg) {
	if _, ok := g.conns[c]; !ok {
		return // the connection was dropped meanwhile
	}
	if err := g.act(c, m); err != nil {
		var ply *int
		if m.Type == "move" {
			n := len(g.moves)
			ply = &n
		}
		g.send(c, EncodeError(err, ply))
	}
}

// act runs a client's message on the game goroutine and returns its
// refusal, if any.
func (g *actor) act(c *Conn, m ClientMsg) *Error {
	var err *Error
	switch m.Type {
	case "move":
		err = g.onMove(c, m)
	case "resign":
		if err = g.mustPlay(c); err == nil {
			err = g.finishWin(toguz.Player(c.color).Other(), toguz.ByResignation, time.Now())
		}
	case "draw_offer":
		err = g.onDrawOffer(c)
	case "draw_accept":
		if err = g.mustPlay(c); err == nil {
			if g.drawOffer != int8(toguz.Player(c.color).Other()) {
				err = errorf(apierr.CodeNoDrawOffer, "your opponent has not offered a draw")
			} else {
				err = g.finishDraw(time.Now())
			}
		}
	case "draw_decline":
		if err = g.mustPlay(c); err == nil {
			if g.drawOffer != int8(toguz.Player(c.color).Other()) {
				err = errorf(apierr.CodeNoDrawOffer, "your opponent has not offered a draw")
			} else {
				g.drawOffer = -1
				g.broadcast(mustJSON(byMsg{Type: "draw_declined", By: colorOf(c.color)}))
			}
		}
	case "abort":
		if err = g.mustPlay(c); err == nil {
			if !g.canAbort(toguz.Player(c.color)) {
				err = errorf(apierr.CodeCannotAbort, "a game can only be aborted before your first move")
			} else {
				err = g.finish(game.Ending{Status: game.Aborted, Result: toguz.NoResult, Termination: toguz.Unterminated}, time.Now())
			}
		}
	case "claim_win":
		err = g.onClaim(c)
	case "take_control":
		if c.color < 0 {
			err = errorf(apierr.CodeNotAPlayer, "spectators have nothing to control")
		} else {
			g.giveControl(c)
		}
	case "sync":
		g.send(c, g.stateJSON(c))
	default:
		var ok bool
		if ok, err = g.handleSocial(c, m); !ok {
			err = errorf(apierr.CodeBadMessage, "unknown message type %q", m.Type)
		}
	}
	return err
}

// mustPlay checks that c may act for a player in a game being played.
func (g *actor) mustPlay(c *Conn) *Error {
	switch {
	case c.color < 0:
		return errorf(apierr.CodeNotAPlayer, "you are not playing in this game")
	case !c.control:
		return errorf(apierr.CodeNotInControl, "another tab of yours is in control of this game; take control to play here")
	case g.status != game.Playing:
		return errorf(apierr.CodeGameOver, "the game is over")
	}
	return nil
}

func (g *actor) canAbort(pl toguz.Player) bool {
	if g.status != game.Playing {
		return false
	}
	for _, m := range g.moves {
		if m.by == pl {
			return false
		}
	}
	return true
}

func (g *actor) onMove(c *Conn, m ClientMsg) *Error {
	if err := g.mustPlay(c); err != nil {
		return err
	}
	if m.Ply == nil {
		return errorf(apierr.CodeBadMessage, "a move needs the ply number (the count of plies you have seen)")
	}
	n, ply := len(g.moves), *m.Ply
	me := toguz.Player(c.color)
	switch {
	case ply < 0:
		return errorf(apierr.CodeBadMessage, "ply %d is negative", ply)
	case ply < n:
		if g.moves[ply].by == me && int(g.moves[ply].ply.Move) == m.Hole {
			return errorf(apierr.CodeDuplicateMove, "move %d (hole %d) was already played; the game is at ply %d", ply+1, m.Hole, n)
		}
		return errorf(apierr.CodeStaleMove, "your move was made at ply %d but the game is at ply %d", ply, n)
	case ply > n:
		return errorf(apierr.CodeFuturePly, "ply %d is ahead of the game, which is at ply %d", ply, n)
	case g.pos.Turn() != me:
		return errorf(apierr.CodeNotYourTurn, "it is %s's turn", g.pos.Turn())
	case m.Hole < 1 || m.Hole > g.pos.Holes():
		return errorf(apierr.CodeIllegalMove, "there is no hole %d (holes are 1..%d)", m.Hole, g.pos.Holes())
	}
	return g.play(toguz.Move(m.Hole), time.Now())
}

// play checks, stores, applies and broadcasts the move of the player to move.
func (g *actor) play(mv toguz.Move, now time.Time) *Error {
	if pl, _, flagged := g.clock.Flagged(); flagged {
		g.finishWin(pl.Other(), toguz.ByTime, now)
		return errorf(apierr.CodeGameOver, "%s's time ran out", pl)
	}
	n := len(g.moves)
	mover := g.pos.Turn()
	e, next, err := g.entry(g.pos, game.PlayedMove{Hole: mv, At: now})
	if err != nil {
		return errorf(apierr.CodeIllegalMove, "%v", err)
	}
	// Press a copy of the clock: the game's clock changes only once the move
	// is stored.
	clk := clock.Restore(g.spec.TC, g.clock.State(), time.Now)
	if _, err := clk.Press(mover); errors.Is(err, clock.ErrFlagged) {
		g.finishWin(mover.Other(), toguz.ByTime, now)
		return errorf(apierr.CodeGameOver, "%s's time ran out", mover)
	} else if err != nil {
		g.log.Error("clock", "ply", n+1, "err", err)
		return errorf(apierr.CodeInternal, "the clock refused the move: %v", err)
	}
	if n+1 == 2 {
		clk.Start() // both sides have moved: the clocks run from now on
	}
	e.clock = [2]time.Duration{clk.Remaining(toguz.White), clk.Remaining(toguz.Black)}
	// The move is durable before anyone hears of it.
	if err := g.hub.cfg.Store.AddMove(g.storeCtx(), g.spec.ID, n+1, e.played()); err != nil {
		g.log.Error("store move", "ply", n+1, "err", err)
		return errStore("move")
	}
	trail := Trail(g.pos, mv)
	g.clock, g.pos, g.activity = clk, next, now
	g.lastActive.Store(now.UnixMilli())
	g.moves = append(g.moves, e)
	g.drawOffer = -1
	full := g.fullMove(n + 1)
	g.broadcast(mustJSON(moveMsg{Type: "move", Ply: n + 1, Hole: int(mv), By: colorName(e.by),
		Notation: e.notation(), FEN: toguz.FormatFEN(next, full), Board: posjson.Of(next, full), Clock: g.clockJSON(), Captured: e.captured,
		Landing: e.landing(), Legal: g.legalHoles(), Trail: trail, AbortInMS: g.abortIn(now)}))
	if next.IsOver() {
		o := next.Outcome()
		g.finish(game.Ending{Status: game.Ended, Result: o.Result, Termination: o.Termination, Score: o.Score}, now)
		return nil
	}
	if g.repeated() {
		g.finish(game.Ending{Status: game.Ended, Result: toguz.Draw, Termination: toguz.ByAdjudication, Reason: game.ReasonRepetition,
			Score: [2]int{next.Kazan(toguz.White), next.Kazan(toguz.Black)}}, now)
		return nil
	}
	g.afterChange()
	if f := g.hub.cfg.OnYourMove; f != nil && g.spec.TC.Kind() == clock.Correspondence && g.present[next.Turn()] == 0 {
		// A player watching the game sees the move: no notice.
		f(g.spec.ID, g.spec.Seat(next.Turn()), g.spec.Seat(mover))
	}
	return nil
}

// repeated reports whether the current position has now occurred for the
// Spec.Repetition-th time (toguz.Repetitions' rule: the start and the
// position after each ply count). It counts from the moves kept, so a
// takeback takes its positions back too.
func (g *actor) repeated() bool {
	if g.spec.Repetition < 2 {
		return false
	}
	k := g.pos.Key()
	n := 0
	if g.start.Key() == k {
		n++
	}
	for _, m := range g.moves {
		if m.after.Key() == k {
			n++
		}
	}
	return n >= g.spec.Repetition
}

// storeCtx is the context of store writes: they are not cut short by the
// hub stopping, since a half-made write would lose a move.
func (g *actor) storeCtx() context.Context { return context.WithoutCancel(g.hub.ctx) }

func (g *actor) onDrawOffer(c *Conn) *Error {
	if err := g.mustPlay(c); err != nil {
		return err
	}
	me := toguz.Player(c.color)
	switch g.drawOffer {
	case int8(me.Other()):
		return g.finishDraw(time.Now())
	case int8(me):
		return nil // already offered
	}
	if g.spec.Seat(me.Other()).IsEngine() {
		// The engine plays every game out.
		g.broadcast(mustJSON(byMsg{Type: "draw_declined", By: colorName(me.Other())}))
		return nil
	}
	g.drawOffer = int8(me)
	g.broadcast(mustJSON(byMsg{Type: "draw_offer", By: colorName(me)}))
	return nil
}

func (g *actor) onClaim(c *Conn) *Error {
	if err := g.mustPlay(c); err != nil {
		return err
	}
	me := toguz.Player(c.color)
	opp := me.Other()
	now := time.Now()
	switch {
	case g.spec.Seat(opp).IsEngine():
		return errorf(apierr.CodeCannotClaim, "the engine never leaves")
	case g.spec.TC.Kind() == clock.Correspondence:
		return errorf(apierr.CodeCannotClaim, "in correspondence the clock decides: wait for your opponent's deadline")
	case g.present[opp] > 0:
		return errorf(apierr.CodeCannotClaim, "your opponent is connected")
	case now.Sub(g.gone[opp]) < g.hub.cfg.Grace:
		return errorf(apierr.CodeCannotClaim, "your opponent left %s ago; you can claim after %s",
			now.Sub(g.gone[opp]).Round(time.Second), g.hub.cfg.Grace)
	}
	return g.finishWin(me, toguz.ByAdjudication, now)
}

func (g *actor) finishWin(winner toguz.Player, t toguz.Termination, now time.Time) *Error {
	return g.finish(game.Ending{Status: game.Ended, Result: toguz.WinFor(winner), Termination: t,
		Score: [2]int{g.pos.Kazan(toguz.White), g.pos.Kazan(toguz.Black)}}, now)
}

func (g *actor) finishDraw(now time.Time) *Error {
	return g.finish(game.Ending{Status: game.Ended, Result: toguz.Draw, Termination: toguz.ByAgreement,
		Score: [2]int{g.pos.Kazan(toguz.White), g.pos.Kazan(toguz.Black)}}, now)
}

// finish stores the ending, then tells everyone. If the store fails the
// game goes on (a flag is retried by the timer a second later) and the
// refusal says so, for the player who resigned, agreed or aborted to try
// again.
func (g *actor) finish(e game.Ending, now time.Time) *Error {
	clk := clock.Restore(g.spec.TC, g.clock.State(), time.Now)
	clk.Stop()
	e.Clock, e.At = clk.State().Remaining, now
	saved := g.saved()
	saved.End = &e
	diff, err := g.hub.cfg.Store.EndGame(g.storeCtx(), saved)
	if err != nil {
		g.log.Error("store ending", "err", err)
		g.timer.Reset(time.Second)
		g.timerOn = true
		return errStore("ending")
	}
	e.RatingDiff = diff
	g.clock, g.status, g.end, g.drawOffer = clk, e.Status, &e, -1
	g.takeback = offer{}
	g.over.Store(true)
	g.stopEngine()
	g.hub.engineGames.release(g.spec.ID)
	g.afterChange()
	g.log.Info("game over", "status", e.Status, "result", e.Result, "termination", e.Termination, "plies", len(g.moves))
	end := endMsg{Type: "end", Status: e.Status.String(), Result: e.Result.String(),
		Termination: e.Termination.String(), Reason: e.Reason, Score: e.Score, Clock: g.clockJSON(), RatingDiff: e.RatingDiff}
	end.Collected, end.FinalFEN = g.atsyrau()
	end.FinalBoard = g.finalBoard(end.FinalFEN)
	g.broadcast(mustJSON(end))
	if f := g.hub.cfg.OnEnd; f != nil {
		f(g.saved())
	}
	return nil
}

func (g *actor) saved() game.Saved {
	return game.Saved{Spec: g.spec, End: g.end, Moves: playedMoves(g.moves)}
}

// maybeEngine starts the engine on its own goroutine when it is to move.
// The engine's clock is held meanwhile (not charged, no flag): the search may
// wait for a searcher behind other users' searches, and engineDone charges
// the engine the time from its search's start to its move.
func (g *actor) maybeEngine() {
	n := len(g.moves)
	seat := g.spec.Seat(g.pos.Turn())
	if g.status != game.Playing || !seat.IsEngine() || g.thinking == n || g.hub.cfg.Engine == nil {
		return
	}
	g.stopEngine()
	ctx, cancel := context.WithCancel(g.hub.ctx)
	g.cancelEng, g.thinking = cancel, n
	if st := g.clock.State(); st.Running && st.Turn == g.pos.Turn() {
		// Held exactly at the opponent's press (Since): nothing is charged.
		st.Running, st.Since = false, time.Time{}
		g.clock, g.engineHeld = clock.Restore(g.spec.TC, st, time.Now), true
	}
	user, _ := engineOpponent(g.spec)
	if user == "" {
		user = g.spec.ID // the engine against itself: a user of its own
	}
	req := game.EngineRequest{Position: g.pos, Level: seat.Engine, Inc: g.spec.TC.Increment, User: user}
	if k := g.spec.TC.Kind(); k == clock.SuddenDeath || k == clock.Fischer {
		req.Time = [2]time.Duration{g.clock.Remaining(toguz.White), g.clock.Remaining(toguz.Black)}
	}
	go func() {
		var started time.Time // written by Move on this goroutine
		r := req
		r.Started = func(at time.Time) { started = at }
		mv, err := g.hub.cfg.Engine.Move(ctx, r)
		g.do(func() { g.engineDone(n, mv, started, err) })
	}()
}

// engineDone plays the engine's move mv for ply, whose search started at
// started (zero: it never started). A held clock runs again from started,
// so that the move's press charges the engine the search's time only (and
// the time to bring its move here, microseconds).
func (g *actor) engineDone(ply int, mv toguz.Move, started time.Time, err error) {
	if g.thinking != ply {
		return
	}
	g.thinking = -1
	if g.status != game.Playing || len(g.moves) != ply {
		return
	}
	if g.engineHeld {
		g.engineHeld = false
		st := g.clock.State()
		if started.IsZero() {
			started = time.Now()
		}
		st.Running, st.Since = true, started
		g.clock = clock.Restore(g.spec.TC, st, time.Now)
	}
	if err != nil || !g.pos.LegalMoves().Has(mv) {
		if errors.Is(err, context.Canceled) {
			return
		}
		// Never leave a game hanging: log the failure loudly and play the
		// first legal move.
		g.log.Error("engine failed", "ply", ply, "move", mv, "err", err)
		mv = g.pos.LegalMoves().First()
	}
	if e := g.play(mv, time.Now()); e != nil {
		g.log.Error("engine move refused", "ply", ply, "move", mv, "err", e)
	}
}

func (g *actor) stopEngine() {
	if g.cancelEng != nil {
		g.cancelEng()
		g.cancelEng = nil
	}
	g.thinking = -1
}

// ---- connections ----

// join adds c to the game; the newest connection of a player takes control.
func (g *actor) join(c *Conn) {
	c.color = -1
	for pl := toguz.White; pl <= toguz.Black; pl++ {
		if s := g.spec.Seat(pl); s.ID == c.viewer && !s.IsEngine() {
			c.color = int8(pl)
		}
	}
	g.conns[c] = struct{}{}
	if c.color < 0 {
		g.send(c, g.stateJSON(c))
		return
	}
	for o := range g.conns {
		if o != c && o.color == c.color && o.control {
			o.control = false
			g.send(o, mustJSON(controlMsg{Type: "control", InControl: false}))
		}
	}
	c.control = true
	g.present[c.color]++
	g.send(c, g.stateJSON(c)) // the state comes first, and says the connection is in control
	g.sendChatHistory(c)
	if g.present[c.color] == 1 {
		g.broadcastPresence()
	}
}

// giveControl makes c the one connection in control for its player.
func (g *actor) giveControl(c *Conn) {
	for o := range g.conns {
		if o != c && o.color == c.color && o.control {
			o.control = false
			g.send(o, mustJSON(controlMsg{Type: "control", InControl: false}))
		}
	}
	if !c.control {
		c.control = true
		g.send(c, mustJSON(controlMsg{Type: "control", InControl: true}))
	}
}

// leave removes c. When the player in control leaves, his newest other
// connection takes control.
func (g *actor) leave(c *Conn) {
	if _, ok := g.conns[c]; !ok {
		return
	}
	g.drop(c)
}

// drop removes c and closes its channel (the only place that closes it,
// besides exit).
func (g *actor) drop(c *Conn) {
	delete(g.conns, c)
	c.close()
	if c.color < 0 {
		return
	}
	g.present[c.color]--
	if g.present[c.color] == 0 {
		g.gone[c.color] = time.Now()
		g.broadcastPresence()
		return
	}
	if c.control {
		var newest *Conn
		for o := range g.conns {
			if o.color == c.color && (newest == nil || o.seq > newest.seq) {
				newest = o
			}
		}
		g.giveControl(newest)
	}
}

// send queues b for c without blocking; a connection too slow to keep up
// is dropped (its client reconnects and resyncs).
func (g *actor) send(c *Conn, b []byte) {
	if _, ok := g.conns[c]; !ok {
		return
	}
	if !c.queue(b) {
		g.log.Warn("dropping a slow connection")
		g.drop(c)
	}
}

// broadcast sends b to the players' connections, then hands it to the
// spectators' fan-out with their state after it.
func (g *actor) broadcast(b []byte) {
	for c := range g.conns {
		g.send(c, b)
	}
	if g.fan.watched() {
		g.fan.publish(b, g.stateJSON(nil))
	}
}

// plays reports whether viewer (a Seat.ID) has a seat in the game; the
// seats never change, so any goroutine may ask.
func (g *actor) plays(viewer string) bool {
	for _, s := range [2]game.Seat{g.spec.White, g.spec.Black} {
		if viewer != "" && s.ID == viewer && !s.IsEngine() {
			return true
		}
	}
	return false
}

func (g *actor) broadcastPresence() {
	now := time.Now()
	m := presenceMsg{Type: "presence", White: g.present[0] > 0, Black: g.present[1] > 0}
	for pl := range 2 {
		if g.present[pl] == 0 {
			m.LeftMS[pl] = now.Sub(g.gone[pl]).Milliseconds()
		}
	}
	g.broadcast(mustJSON(m))
}

// ---- the state ----

func (g *actor) clockJSON() ClockJSON {
	if g.spec.TC.Kind() == clock.Unlimited {
		return ClockJSON{}
	}
	c := ClockJSON{WhiteMS: g.clock.Remaining(toguz.White).Milliseconds(),
		BlackMS: g.clock.Remaining(toguz.Black).Milliseconds()}
	if g.clock.Running() {
		c.Running = colorName(g.clock.Turn())
		if d, ok := g.clock.Deadline(); ok && g.spec.TC.Kind() == clock.Correspondence {
			c.DeadlineMS = d.UnixMilli()
		}
	}
	return c
}

// State returns the game as the API shows it to c (nil: to nobody in
// particular).
func (g *actor) state(c *Conn) State {
	s := State{Type: "state", ID: g.spec.ID, Ruleset: g.spec.Rules.String(), StartFEN: toguz.FormatFEN(g.start, g.startMove),
		FEN: toguz.FormatFEN(g.pos, g.fullMove(len(g.moves))), Ply: len(g.moves), Moves: make([]MoveJSON, len(g.moves)),
		Positions: make([]string, len(g.moves)+1), Boards: make([]posjson.Position, len(g.moves)+1),
		Turn: colorName(g.pos.Turn()), Status: g.status.String(),
		White: seatJSON(g.spec.White), Black: seatJSON(g.spec.Black),
		TC: tcString(g.spec.TC), Rated: g.spec.Rated, Clock: g.clockJSON(),
		DrawOffer: colorOf(g.drawOffer), Result: toguz.NoResult.String(), Termination: toguz.Unterminated.String(),
		Score: [2]int{g.pos.Kazan(toguz.White), g.pos.Kazan(toguz.Black)}, GraceMS: g.hub.cfg.Grace.Milliseconds(),
		Created: g.spec.Created}
	if cat, ok := Category(g.spec.TC); ok {
		s.Category = cat.String()
	}
	s.Positions[0] = s.StartFEN
	s.Boards[0] = posjson.Of(g.start, g.startMove)
	s.Legal = g.legalHoles()
	// The plies' notations and FENs are written into one buffer and made
	// one string, each a substring of it: one allocation for all of them
	// (this runs after every move of a watched game).
	text := make([]byte, 0, 51*len(g.moves))
	ends := make([]int, 2*len(g.moves)) // each ply's notation's end, then its FEN's
	for i, m := range g.moves {
		s.Moves[i] = MoveJSON{Hole: int(m.ply.Move), By: colorName(m.by), Captured: m.captured, Landing: m.landing()}
		full := g.fullMove(i + 1)
		text, _ = m.ply.AppendText(text)
		ends[2*i] = len(text)
		text = toguz.AppendFEN(text, m.after, full)
		ends[2*i+1] = len(text)
		s.Boards[i+1] = posjson.Of(m.after, full)
	}
	all, from := string(text), 0
	for i := range g.moves {
		s.Moves[i].Notation, s.Positions[i+1], from = all[from:ends[2*i]], all[ends[2*i]:ends[2*i+1]], ends[2*i+1]
	}
	if g.end != nil {
		s.Result, s.Termination, s.Reason, s.Score = g.end.Result.String(), g.end.Termination.String(), g.end.Reason, g.end.Score
		s.Collected, s.FinalFEN = g.atsyrau()
		s.FinalBoard = g.finalBoard(s.FinalFEN)
		if d := g.end.RatingDiff; d != nil {
			s.White.RatingDiff, s.Black.RatingDiff = &d[0], &d[1]
		}
	}
	s.AbortInMS = g.abortIn(time.Now())
	s.Rematch = g.rematchG
	if g.rematch.on {
		s.RematchOffer = colorName(g.rematch.by)
	}
	if g.takeback.on {
		s.TakebackOffer = colorName(g.takeback.by)
	}
	if c != nil && c.color >= 0 {
		s.You, s.Control = colorOf(c.color), c.control
		s.CanAbort = g.canAbort(toguz.Player(c.color))
	}
	return s
}

// atsyrau returns, for a game the rules ended by atsyrau, the stones
// collected and the board after it; nil and "" otherwise.
func (g *actor) atsyrau() (*CollectedJSON, string) {
	if g.end == nil || g.end.Termination != toguz.ByAtsyrau {
		return nil, ""
	}
	c, fen, ok := Atsyrau(g.pos, g.fullMove(len(g.moves)))
	if !ok {
		return nil, ""
	}
	return &c, fen
}

// finalBoard is the board of atsyrau's final FEN (nil for "").
func (g *actor) finalBoard(fen string) *posjson.Position {
	if fen == "" {
		return nil
	}
	p, err := posjson.Parse(fen, g.spec.Rules)
	if err != nil {
		return nil // cannot happen: atsyrau wrote it in these rules
	}
	return &p
}

// abortIn returns the time left at now before the first-move timeout
// aborts the game, in milliseconds, so that the board counts it down; 0
// when no such timeout runs (the clocks run, a correspondence, untimed or
// engine game, whose longer limits are no countdown).
func (g *actor) abortIn(now time.Time) int64 {
	kind := g.spec.TC.Kind()
	if g.status != game.Playing || len(g.moves) >= 2 || kind == clock.Unlimited || kind == clock.Correspondence ||
		g.spec.White.IsEngine() || g.spec.Black.IsEngine() {
		return 0
	}
	at, ok := g.hub.abandonment().At(&g.spec, len(g.moves), g.activity)
	if !ok {
		return 0
	}
	return max(at.Sub(now).Milliseconds(), 1)
}

// legalHoles returns the holes the side to move may play now: none unless
// the game is being played (a resigned game's position may have moves).
func (g *actor) legalHoles() []int {
	if g.status != game.Playing {
		return []int{}
	}
	return LegalHoles(g.pos)
}

func (g *actor) stateJSON(c *Conn) []byte { return mustJSON(g.state(c)) }

// fullMove is the full-move number of the position after ply plies.
func (g *actor) fullMove(ply int) int { return toguz.FullMove(g.start.Turn(), g.startMove, ply) }
