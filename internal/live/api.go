package live

import (
	"context"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
)

// The bot and board API (internal/botapi) acts in a game by HTTP
// requests, not through a connection: Act runs one message as the player
// would send it on his socket, on the game's goroutine, and GamesOf lists
// a player's games being played.

// Act runs m in game id for the player whose Seat.ID is viewer, as his
// connection in control would, and returns its refusal: CodeNotAPlayer when
// viewer has no seat in the game. A move without a ply is played at the
// game's current ply ("my move now", as the API's move endpoint means it).
// who chats for a chat message (its ID is viewer).
func (h *Hub) Act(ctx context.Context, id string, who Chatter, m ClientMsg) error {
	return h.runOp(ctx, gameOp{Op: opAct, Game: id, Who: who, Msg: m})
}

// apiAct is Act on the game goroutine.
func (g *actor) apiAct(who Chatter, m ClientMsg) error {
	c, err := g.apiConn(who)
	if err != nil {
		return err
	}
	if m.Type == "move" && m.Ply == nil {
		n := len(g.moves)
		m.Ply = &n
	}
	if err := g.act(c, m); err != nil {
		return err
	}
	return nil
}

// GamesOf returns the specs of the games being played in which viewer (a
// Seat.ID) has a seat. It reads only the games' fixed specs and their over flags.
func (h *Hub) GamesOf(viewer string) []game.Spec {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []game.Spec
	for _, g := range h.games {
		if !g.over.Load() && g.plays(viewer) {
			out = append(out, g.spec)
		}
	}
	return out
}

// PlayPly plays the move y, written as the score sheet writes it ("76",
// "48x", or the hole alone, "7"), for the player whose Seat.ID is who.ID
// at the game's current ply: the landing and the tuzdik mark, when
// written, must be the rules' (CodeIllegalMove otherwise, saying what the
// rules give). Its other refusals are Act's.
func (h *Hub) PlayPly(ctx context.Context, id string, who Chatter, y toguz.Ply) error {
	return h.runOp(ctx, gameOp{Op: opPly, Game: id, Who: who, Ply: y.String()})
}

// apiPly is PlayPly on the game goroutine.
func (g *actor) apiPly(who Chatter, y toguz.Ply) error {
	if g.plays(who.ID) && g.status == game.Playing && g.spec.Seat(g.pos.Turn()).ID == who.ID {
		if _, err := g.pos.PlayPly(y); err != nil {
			return errorf(apierr.CodeIllegalMove, "%v", err)
		}
	}
	c, err := g.apiConn(who)
	if err != nil {
		return err
	}
	n := len(g.moves)
	if err := g.act(c, ClientMsg{Type: "move", Ply: &n, Hole: int(y.Move)}); err != nil {
		return err
	}
	return nil
}

// apiConn returns a connection in control for who, which no message
// reaches: the API's requests act through it. CodeNotAPlayer when who has
// no seat in the game.
func (g *actor) apiConn(who Chatter) (*Conn, *Error) {
	c := &Conn{g: g, viewer: who.ID, color: -1, control: true, who: who}
	for pl := range 2 {
		if s := g.spec.Seat(toguz.Player(pl)); s.ID == who.ID && !s.IsEngine() {
			c.color = int8(pl)
		}
	}
	if c.color < 0 {
		return nil, errorf(apierr.CodeNotAPlayer, "you are not playing in this game")
	}
	return c, nil
}
