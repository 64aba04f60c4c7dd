package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
)

// gameOp is a request to act in a running game that is not a socket's
// message: the bot and board API's moves, resignations, draws and chat
// (Act, PlayPly) and an arbiter's decisions (Adjudicate, AdjustClock).
// It is plain data, so that a node that does not own the game sends it to
// the owner over the bus (toguz.node.N.op) and the owner runs it as its
// own.
type gameOp struct {
	Op   string    `json:"op"` // opAct, opPly, opAdjudicate, opAdjust
	Game string    `json:"game"`
	Who  Chatter   `json:"who,omitzero"`
	Msg  ClientMsg `json:"msg,omitzero"`
	// Ply is PlayPly's move as the score sheet writes it.
	Ply string `json:"ply,omitempty"`
	// Result is Adjudicate's (toguz.Result's text).
	Result string `json:"result,omitempty"`
	// Player and Delta are AdjustClock's.
	Player toguz.Player  `json:"player,omitempty"`
	Delta  time.Duration `json:"delta,omitempty"`
}

const (
	opAct        = "act"
	opPly        = "ply"
	opAdjudicate = "adjudicate"
	opAdjust     = "adjust"
)

type opResp struct {
	Err *Error `json:"err,omitempty"`
}

// errMoving is the retryable refusal of a request whose game is changing
// nodes, or whose node did not answer.
func errMoving(id string, why error) *Error {
	if why != nil {
		return errorf(apierr.CodeGameMoving, "game %s is moving between nodes (%v); try again", id, why)
	}
	return errorf(apierr.CodeGameMoving, "game %s is moving between nodes; try again", id)
}

// runOp runs op where its game runs: here, or on the owner over the bus.
func (h *Hub) runOp(ctx context.Context, op gameOp) error {
	g, err := h.lookup(ctx, op.Game)
	if e := (*elsewhere)(nil); errors.As(err, &e) {
		return h.cl.remoteOp(ctx, e.node, op)
	}
	if err != nil {
		return err
	}
	return h.applyOn(ctx, g, op)
}

// runOpLocal runs op, sent by another node, on a game this node owns; a
// game it does not own (any more) is refused as moving: the sender
// retries, and then finds the owner.
func (h *Hub) runOpLocal(ctx context.Context, op gameOp) error {
	h.mu.Lock()
	g, ok := h.games[op.Game]
	h.mu.Unlock()
	if !ok {
		var err error
		if g, err = h.lookup(ctx, op.Game); isElsewhere(err) {
			return errMoving(op.Game, nil)
		} else if err != nil {
			return err
		}
	}
	return h.applyOn(ctx, g, op)
}

// applyOn runs op on g's goroutine and waits for it.
func (h *Hub) applyOn(ctx context.Context, g *actor, op gameOp) error {
	if err, ok := ask(ctx, g, func() error { return g.apply(op) }); ok {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return errorf(apierr.CodeGameOver, "the game is over")
}

// apply runs op on the game goroutine.
func (g *actor) apply(op gameOp) error {
	switch op.Op {
	case opAct:
		return g.apiAct(op.Who, op.Msg)
	case opPly:
		y, err := toguz.ParsePly(op.Ply)
		if err != nil {
			return errorf(apierr.CodeIllegalMove, "%v", err)
		}
		return g.apiPly(op.Who, y)
	case opAdjudicate:
		res, err := toguz.ParseResult(op.Result)
		if err != nil {
			return errorf(apierr.CodeBadRequest, "%v", err)
		}
		return g.adjudicate(res)
	case opAdjust:
		if op.Player != toguz.White && op.Player != toguz.Black {
			return errorf(apierr.CodeBadRequest, "no player %d", op.Player)
		}
		return g.adjustClock(op.Player, op.Delta)
	}
	return errorf(apierr.CodeBadRequest, "unknown operation %q", op.Op)
}

// remoteOp sends op to owner and returns its answer; an owner that does
// not answer within a lease's time is a game moving (it stopped or died,
// and another node takes the game over).
func (cl *cluster) remoteOp(ctx context.Context, owner string, op gameOp) error {
	req, _ := json.Marshal(op)
	rctx, cancel := context.WithTimeout(ctx, cl.ttl)
	defer cancel()
	b, err := cl.request(rctx, subjNode+owner+".op", req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errMoving(op.Game, err)
	}
	var resp opResp
	if err := json.Unmarshal(b, &resp); err != nil {
		return fmt.Errorf("live: answer of %s to %s: %w", owner, op.Op, err)
	}
	if resp.Err != nil {
		return resp.Err
	}
	return nil
}

func (cl *cluster) onOp(_ string, data []byte, reply func([]byte)) {
	var op gameOp
	if err := json.Unmarshal(data, &op); err != nil {
		return
	}
	go func() {
		var resp opResp
		ctx, cancel := context.WithTimeout(cl.h.ctx, cl.ttl)
		defer cancel()
		if err := cl.h.runOpLocal(ctx, op); err != nil && !errors.As(err, &resp.Err) {
			resp.Err = errorf(apierr.CodeInternal, "%v", err)
		}
		b, _ := json.Marshal(resp)
		reply(b)
	}()
}

// errBusDown: the bus is reconnecting, and a request would wait its whole
// timeout for nothing.
var errBusDown = errors.New("the bus (NATS) is down")

// request is Bus.Request, refused at once while a bus that tells its
// connection (internal/bus) is disconnected.
func (cl *cluster) request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	if b, ok := cl.bus.(interface{ Connected() bool }); ok && !b.Connected() {
		return nil, errBusDown
	}
	return cl.bus.Request(ctx, subject, data)
}
