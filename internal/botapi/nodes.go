package botapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site"
)

// Several nodes (docs/architecture.md, "Several nodes"): a bot's event
// stream, its challenges and its games may each be on another node behind
// the balancer. With JoinNodes:
//   - every event is published on toguz.bot.event and each node queues it
//     on its own streams of the user (a node's own are queued at once);
//   - a challenge lives on the node it was made on (its home), which
//     publishes it on toguz.bot.challenge when it opens and when it goes
//     (accepted, declined, cancelled, expired, withdrawn); every node keeps
//     copies, so that any node lists it and finds its home;
//   - accepting, declining or cancelling a copy asks the home to take it
//     (toguz.bot.N.take), so that a challenge is answered once; the game
//     of an accepted challenge is made, and owned, by the node that was
//     asked (live runs its moves wherever they are sent).
//
// The bound on open challenges per challenger counts each node's own.
// A challenge answered on a node that has not received its copy yet (it
// was made a moment ago on another) is not found; its event reaches the
// streams after the copy, as both are published in that order.

const (
	subjBotEvent     = "toguz.bot.event"
	subjBotChallenge = "toguz.bot.challenge"
	subjBotNode      = "toguz.bot." // + node + ".take"
)

type busEvent struct {
	From string          `json:"from"`
	UID  int64           `json:"uid"`
	Msg  json.RawMessage `json:"msg"`
}

// challengeWire is a challenge as the nodes send it.
type challengeWire struct {
	ID       string        `json:"id"`
	Home     string        `json:"home"`
	By       challengeUser `json:"by"`
	To       challengeUser `json:"to"`
	TC       string        `json:"tc"`
	Rated    bool          `json:"rated"`
	Color    string        `json:"color"`
	Rules    string        `json:"rules"`
	Created  time.Time     `json:"created"`
	Status   string        `json:"status"`
	GameID   string        `json:"game_id,omitempty"`
	Declined string        `json:"declined,omitempty"`
}

func wireOf(c *challenge) challengeWire {
	return challengeWire{ID: c.ID, Home: c.Home, By: c.By, To: c.To, TC: c.TC.String(), Rated: c.Rated, Color: c.Color,
		Rules: c.Rules.String(), Created: c.Created, Status: c.Status, GameID: c.GameID, Declined: c.Declined}
}

func (w challengeWire) challenge() (*challenge, error) {
	tc, err := clock.ParseStored(w.TC)
	if err != nil {
		return nil, err
	}
	rules, err := site.ParseRuleset(w.Rules)
	if err != nil {
		return nil, err
	}
	return &challenge{ID: w.ID, Home: w.Home, By: w.By, To: w.To, TC: tc, Rated: w.Rated, Color: w.Color, Rules: rules,
		Created: w.Created, Status: w.Status, GameID: w.GameID, Declined: w.Declined}, nil
}

type challengeNote struct {
	Op   string         `json:"op"` // open, gone, withdraw
	From string         `json:"from"`
	Ch   *challengeWire `json:"ch,omitempty"`
	ID   string         `json:"id,omitempty"`
	UID  int64          `json:"uid,omitempty"` // withdraw's
}

type takeReq struct {
	ID   string `json:"id"`
	UID  int64  `json:"uid"`
	What string `json:"what"` // accept, decline, cancel
}

type takeResp struct {
	Ch *challengeWire `json:"ch,omitempty"` // nil: not found (or not the asker's)
}

// botNodes is the bot API's part in a cluster of nodes.
type botNodes struct {
	bus  live.Bus
	node string
}

// JoinNodes makes the API one node of several sharing bus (the hub's):
// events, challenges and their answers reach every node. Called once,
// before the API serves.
func (a *API) JoinNodes(bus live.Bus, node string) error {
	n := &botNodes{bus: bus, node: node}
	subs := []struct {
		subj string
		f    func(string, []byte, func([]byte))
	}{
		{subjBotEvent, a.onBusEvent},
		{subjBotChallenge, a.onChallengeNote},
		{subjBotNode + node + ".take", a.onTake},
	}
	for _, s := range subs {
		if _, err := bus.Subscribe(s.subj, s.f); err != nil {
			return fmt.Errorf("botapi: subscribe %s: %w", s.subj, err)
		}
	}
	a.events.mu.Lock()
	a.events.nodes = n
	a.events.mu.Unlock()
	a.chals.mu.Lock()
	a.chals.nodes = n
	a.chals.mu.Unlock()
	return nil
}

func (a *API) onBusEvent(_ string, data []byte, _ func([]byte)) {
	var ev busEvent
	if json.Unmarshal(data, &ev) != nil || ev.From == a.events.node() {
		return
	}
	a.events.deliver(ev.UID, ev.Msg)
}

func (a *API) onChallengeNote(_ string, data []byte, _ func([]byte)) {
	var n challengeNote
	if json.Unmarshal(data, &n) != nil {
		return
	}
	cs := a.chals
	if n.Op == "withdraw" {
		if n.From != a.events.node() {
			a.withdrawLocal(n.UID)
		}
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.nodes == nil || n.From == cs.nodes.node {
		return
	}
	switch n.Op {
	case "open":
		if n.Ch == nil {
			return
		}
		if c, err := n.Ch.challenge(); err == nil {
			cs.copies[c.ID] = c
		}
	case "gone":
		delete(cs.copies, n.ID)
		cs.endLocked(n.ID)
	}
}

// onTake answers another node's request to take one of this node's
// challenges.
func (a *API) onTake(_ string, data []byte, reply func([]byte)) {
	var req takeReq
	if json.Unmarshal(data, &req) != nil {
		return
	}
	var resp takeResp
	if c, err := a.chals.takeLocal(req.ID, mineCheck(req.ID, req.UID, req.What)); err == nil {
		w := wireOf(c)
		resp.Ch = &w
	}
	b, _ := json.Marshal(resp)
	reply(b)
}

// mineCheck allows uid to answer challenge id with what: the challenged
// accepts or declines, the challenger cancels. As lichess: another's
// challenge is not found.
func mineCheck(id string, uid int64, what string) func(*challenge) error {
	return func(ch *challenge) error {
		mine := ch.To.ID
		if what == "cancel" {
			mine = ch.By.ID
		}
		if mine != uid {
			return errNoChallenge(id)
		}
		return nil
	}
}

func errNoChallenge(id string) error {
	return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.bot.no_challenge", site.Excerpt(id))
}

// publishNote tells the other nodes of a challenge's change (a cluster
// only).
func (n *botNodes) publishNote(note challengeNote) {
	if n == nil {
		return
	}
	note.From = n.node
	b, _ := json.Marshal(note)
	n.bus.Publish(subjBotChallenge, b)
}

// takeRemote asks home to take challenge id for uid's answer what.
func (n *botNodes) takeRemote(ctx context.Context, home, id string, uid int64, what string) (*challenge, error) {
	req, _ := json.Marshal(takeReq{ID: id, UID: uid, What: what})
	rctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	b, err := n.bus.Request(rctx, subjBotNode+home+".take", req)
	if err != nil {
		// Its home stopped: the challenge went with it, as a seek does.
		return nil, errNoChallenge(id)
	}
	var resp takeResp
	if err := json.Unmarshal(b, &resp); err != nil {
		return nil, fmt.Errorf("botapi: answer of %s: %w", home, err)
	}
	if resp.Ch == nil {
		return nil, errNoChallenge(id)
	}
	return resp.Ch.challenge()
}
