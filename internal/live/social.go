package live

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// What players expect from lichess around a game: chat (chat.go), rematch,
// takeback by consent, and the list of the games being played (Games, the
// TV). Everything here runs on the game goroutine, as the rest of the
// game's messages do.
//
// Rematch: once the game is over either player offers it and the other
// accepts (or offers too) or declines; accepting creates the new game
// (same ruleset, start position, time control and ratedness, colours
// swapped, ratings as they are now) and every connection, spectators too,
// gets a `rematch` message with its id. Against the engine the offer is
// accepted at once.
//
// Takeback: only in casual games. A player proposes, his opponent accepts
// or declines; the engine accepts at once. Accepting removes the
// proposer's last ply and every ply after it (one ply, or two when the
// opponent has replied since), so that it is the proposer's turn again:
// the moves are cut in the store first (Store.TakeBack) and the position
// is rebuilt by replaying the kept moves with the rules library, as a
// restart would. The clocks are not given back (as on lichess): each side
// keeps the time it has now, and the proposer's clock runs from the
// takeback on. An offer stands until it is answered, the game ends, or a
// takeback happens.

// offer is a pending offer of one player (on: there is one).
type offer struct {
	by toguz.Player
	on bool
}

// rematchMsg tells every connection where the rematch is played.
type rematchMsg struct {
	Type   string `json:"type"` // "rematch"
	GameID string `json:"game_id"`
}

type takebackMsg struct {
	Type string `json:"type"` // "takeback"
	By   string `json:"by"`   // the proposer
	Ply  int    `json:"ply"`  // the plies left
}

// socialFields are the game's fields of this file, owned by its goroutine.
type socialFields struct {
	chat     chatLog // the players' room
	rematch  offer
	rematchG string // the rematch's game id, once created
	takeback offer
}

// handleSocial handles the messages of this file; false for any other.
func (g *actor) handleSocial(c *Conn, m ClientMsg) (bool, *Error) {
	switch m.Type {
	case "chat":
		return true, g.onChat(c, m)
	case "chat_history":
		g.send(c, g.chat.historyAll(RoomPlayers))
		return true, nil
	case "rematch_offer":
		return true, g.onRematchOffer(c)
	case "rematch_accept", "rematch_decline":
		return true, g.onRematchAnswer(c, m.Type == "rematch_accept")
	case "takeback_offer":
		return true, g.onTakebackOffer(c)
	case "takeback_accept", "takeback_decline":
		return true, g.onTakebackAnswer(c, m.Type == "takeback_accept")
	}
	return false, nil
}

// ---- chat ----

func (g *actor) onChat(c *Conn, m ClientMsg) *Error {
	if c.color < 0 {
		return errorf(apierr.CodeNotAPlayer, "you are not playing in this game")
	}
	who := c.who
	who.ID, who.Name = g.spec.Seat(toguz.Player(c.color)).ID, g.spec.Seat(toguz.Player(c.color)).Name
	msg, err := g.hub.post(who, RoomPlayers, m.Text)
	if err != nil {
		return err
	}
	if g.chat.max == 0 {
		g.chat.max = g.hub.cfg.ChatHistory
	}
	g.chat.add(msg)
	b := mustJSON(msg)
	for o := range g.conns {
		g.send(o, b)
	}
	return nil
}

// sendChatHistory sends c the players' recent messages.
func (g *actor) sendChatHistory(c *Conn) {
	if b := g.chat.history(RoomPlayers); b != nil {
		g.send(c, b)
	}
}

// postChat posts a spectator's message to the spectators' room. It runs on the
// spectator's own goroutine, never the game's.
func (f *fanout) postChat(c *Conn, text string) *Error {
	msg, err := f.g.hub.post(c.who, RoomSpectators, text)
	if err != nil {
		return err
	}
	b := mustJSON(msg)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	if len(f.events) >= maxFanEvents {
		return errorf(apierr.CodeChatRateLimited, "the spectators' room is busy: try again in a moment")
	}
	if f.chat.max == 0 {
		f.chat.max = f.g.hub.cfg.ChatHistory
	}
	f.chat.add(msg)
	f.pushLocked(fanEvent{kind: fanAll, msg: b})
	return nil
}

// ---- rematch ----

func (g *actor) mustBeOver(c *Conn) *Error {
	switch {
	case c.color < 0:
		return errorf(apierr.CodeNotAPlayer, "you are not playing in this game")
	case !c.control:
		return errorf(apierr.CodeNotInControl, "another tab of yours is in control of this game; take control to play here")
	case g.status == game.Playing:
		return errorf(apierr.CodeNotOver, "the game is still being played")
	}
	return nil
}

func (g *actor) onRematchOffer(c *Conn) *Error {
	if err := g.mustBeOver(c); err != nil {
		return err
	}
	me := toguz.Player(c.color)
	switch {
	case g.rematchG != "":
		g.send(c, mustJSON(rematchMsg{Type: "rematch", GameID: g.rematchG}))
		return nil
	case g.spec.Seat(me.Other()).IsEngine(), g.rematch.on && g.rematch.by != me:
		return g.createRematch(c)
	case g.rematch.on:
		return nil // offered already
	}
	g.rematch = offer{by: me, on: true}
	g.broadcast(mustJSON(byMsg{Type: "rematch_offer", By: colorName(me)}))
	return nil
}

func (g *actor) onRematchAnswer(c *Conn, accept bool) *Error {
	if err := g.mustBeOver(c); err != nil {
		return err
	}
	me := toguz.Player(c.color)
	if !g.rematch.on || g.rematch.by == me {
		return errorf(apierr.CodeNoOffer, "your opponent has not offered a rematch")
	}
	if accept {
		return g.createRematch(c)
	}
	g.rematch = offer{}
	g.broadcast(mustJSON(byMsg{Type: "rematch_declined", By: colorName(me)}))
	return nil
}

// createRematch creates the rematch (c accepted it) and sends everyone
// there.
func (g *actor) createRematch(c *Conn) *Error {
	s := g.spec
	spec := game.Spec{Rules: s.Rules, From: s.From, White: s.Black, Black: s.White, TC: s.TC, Rated: s.Rated}
	if f := g.hub.cfg.SeatRating; f != nil {
		for _, seat := range []*game.Seat{&spec.White, &spec.Black} {
			if !seat.IsEngine() {
				seat.Rating = f(g.storeCtx(), *seat, s.TC)
			}
		}
	}
	id, err := g.hub.CreateFrom(g.storeCtx(), spec, c.who.Addr)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return e
		}
		g.log.Error("rematch", "err", err)
		return errorf(apierr.CodeInternal, "the rematch could not be created; try again")
	}
	g.rematch, g.rematchG = offer{}, id
	g.broadcast(mustJSON(rematchMsg{Type: "rematch", GameID: id}))
	return nil
}

// ---- takeback ----

func (g *actor) onTakebackOffer(c *Conn) *Error {
	if err := g.mustPlay(c); err != nil {
		return err
	}
	me := toguz.Player(c.color)
	switch {
	case g.spec.Rated:
		return errorf(apierr.CodeCannotTakeBack, "moves cannot be taken back in a rated game")
	case !slices.ContainsFunc(g.moves, func(m moveEntry) bool { return m.by == me }):
		return errorf(apierr.CodeCannotTakeBack, "you have no move to take back")
	case g.spec.Seat(me.Other()).IsEngine():
		return g.takeBack(me)
	case g.takeback.on && g.takeback.by != me:
		return g.takeBack(g.takeback.by) // both want it: the first proposal is granted
	case g.takeback.on:
		return nil
	}
	g.takeback = offer{by: me, on: true}
	g.broadcast(mustJSON(byMsg{Type: "takeback_offer", By: colorName(me)}))
	return nil
}

func (g *actor) onTakebackAnswer(c *Conn, accept bool) *Error {
	if err := g.mustPlay(c); err != nil {
		return err
	}
	me := toguz.Player(c.color)
	if !g.takeback.on || g.takeback.by == me {
		return errorf(apierr.CodeNoOffer, "your opponent has not proposed a takeback")
	}
	if accept {
		return g.takeBack(g.takeback.by)
	}
	g.takeback = offer{}
	g.broadcast(mustJSON(byMsg{Type: "takeback_declined", By: colorName(me)}))
	return nil
}

// takeBack removes pl's last ply and the plies after it, in the store and
// then here, and sends everyone the state.
func (g *actor) takeBack(pl toguz.Player) *Error {
	keep := -1
	for i, m := range g.moves {
		if m.by == pl {
			keep = i
		}
	}
	if keep < 0 {
		g.takeback = offer{}
		return errorf(apierr.CodeCannotTakeBack, "there is no move to take back")
	}
	now := time.Now()
	// The clocks as they are now (the running one charged until now), the
	// proposer's running from now: no time is given back.
	cur := clock.State{Remaining: [2]time.Duration{g.clock.Remaining(toguz.White), g.clock.Remaining(toguz.Black)},
		Turn: pl, Running: true, Since: now}
	saved := game.Saved{Spec: g.spec, Clock: &cur, Moves: playedMoves(g.moves[:keep])}
	// The position is rebuilt as a restart rebuilds it: the kept moves
	// replayed from the start with the rules library (newGame).
	ng, err := newGame(g.hub, saved, nil)
	if err != nil {
		g.log.Error("takeback replay", "err", err)
		return errorf(apierr.CodeInternal, "the takeback failed: %v", err)
	}
	var clk *clock.State
	if g.spec.TC.Kind() != clock.Unlimited {
		st := ng.clock.State()
		clk = &st
	}
	if err := g.hub.cfg.Store.TakeBack(g.storeCtx(), g.spec.ID, keep, clk); err != nil {
		g.log.Error("store takeback", "plies", keep, "err", err)
		return errStore("takeback")
	}
	g.stopEngine()
	g.engineHeld = false
	g.pos, g.moves, g.clock, g.activity = ng.pos, ng.moves, ng.clock, now
	g.lastActive.Store(now.UnixMilli())
	g.drawOffer, g.takeback = -1, offer{}
	g.log.Info("takeback", "by", pl, "plies", keep)
	b := mustJSON(takebackMsg{Type: "takeback", By: colorName(pl), Ply: keep})
	for c := range g.conns {
		g.send(c, b)
		g.send(c, g.stateJSON(c))
	}
	if g.fan.watched() {
		st := g.stateJSON(nil)
		g.fan.publish(b, st)
		g.fan.publish(st, st)
	}
	g.afterChange()
	return nil
}

// ---- the games being played ----

// LiveGame is a game being played as the list of live games and the TV
// show it.
type LiveGame struct {
	ID         string    `json:"id"`
	White      SeatJSON  `json:"white"`
	Black      SeatJSON  `json:"black"`
	TC         string    `json:"tc"`
	Ruleset    string    `json:"ruleset"`
	Rated      bool      `json:"rated"`
	Category   string    `json:"category"`
	Spectators int       `json:"spectators"`
	URL        string    `json:"url"`
	Created    time.Time `json:"created"`
}

// rank is what the TV picks by: the sum of the ratings (an engine counts
// nothing), then the spectators, then the newer game.
func (lg LiveGame) rank() int { return lg.White.Rating + lg.Black.Rating }

// ListIdle is how long an untimed game may go without a move and still be
// listed among the games being played (Hub.Games, so /games and the TV): a
// game nobody plays is not worth watching, though it is not over until its
// abandonment limit (Abandonment) has passed.
const ListIdle = 15 * time.Minute

// Games returns the games being played, the highest rated first (the
// TV's order): each with its seats, time control, ruleset and spectators;
// an untimed game only while someone has moved within ListIdle. On one
// node of several it lists every node's games: its own and those the
// others published last (gamelist.go). It reads only what any goroutine
// may (the spec, the fan-out's count, the last activity), so listing
// costs the games nothing.
func (h *Hub) Games() []LiveGame {
	out := h.localGames()
	if h.cl != nil {
		out = h.cl.mergeGames(out)
	}
	return out
}

// localGames is Games of this node's own games.
func (h *Hub) localGames() []LiveGame {
	idle := time.Now().Add(-ListIdle).UnixMilli()
	h.mu.Lock()
	gs := make([]*actor, 0, len(h.games))
	for _, g := range h.games {
		if g.over.Load() || g.spec.TC.Kind() == clock.Unlimited && g.lastActive.Load() < idle {
			continue
		}
		gs = append(gs, g)
	}
	h.mu.Unlock()
	out := make([]LiveGame, len(gs))
	for i, g := range gs {
		s := g.spec
		lg := LiveGame{ID: s.ID, White: seatJSON(s.White), Black: seatJSON(s.Black), TC: tcString(s.TC),
			Ruleset: s.Rules.String(), Rated: s.Rated, Spectators: g.fan.count(), URL: "/game/" + s.ID, Created: s.Created}
		if cat, ok := Category(s.TC); ok {
			lg.Category = cat.String()
		}
		out[i] = lg
	}
	sortGames(out)
	return out
}

// sortGames puts gs in the TV's order.
func sortGames(gs []LiveGame) {
	slices.SortFunc(gs, func(a, b LiveGame) int {
		return cmp.Or(cmp.Compare(b.rank(), a.rank()), cmp.Compare(b.Spectators, a.Spectators),
			b.Created.Compare(a.Created), cmp.Compare(a.ID, b.ID))
	})
}

// TV returns the game the TV shows: the highest rated being played.
func (h *Hub) TV() (LiveGame, bool) {
	gs := h.Games()
	if len(gs) == 0 {
		return LiveGame{}, false
	}
	return gs[0], true
}

// ChatSaid reports whether by wrote text among the recent messages of a
// room of game id (RoomPlayers or RoomSpectators) while its actor runs: a
// report of it can then be trusted (server's reports).
func (h *Hub) ChatSaid(ctx context.Context, id, room, by, text string) bool {
	h.mu.Lock()
	g, ok := h.games[id]
	h.mu.Unlock()
	if !ok {
		return false
	}
	if room == RoomSpectators {
		g.fan.mu.Lock()
		defer g.fan.mu.Unlock()
		return g.fan.chat.has(by, text)
	}
	said, _ := ask(ctx, g, func() bool { return g.chat.has(by, text) })
	return said
}
