package live

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
)

// The lobby of several nodes (cluster.go): each seek lives on the node it
// was made on (its home), which publishes it on subjLobby when it opens
// and again when it goes; every other node keeps a copy, shows it to its
// lobby watchers and finds it for a challenge link. Accepting or
// cancelling a copy is asked of its home over the bus, so that a seek is
// taken once; the game is created, and owned, there. A node that starts
// says hello, and the others publish their open seeks again; the copies
// of a home not heard of for a lease's time go with the next sweep. The
// bounds per person and per address count each node's own seeks.

const subjLobby = "toguz.lobby"

type lobbyMsg struct {
	Op   string `json:"op"` // "add", "remove" or "hello"
	Node string `json:"node"`
	Seek *Seek  `json:"seek,omitempty"`
	ID   string `json:"id,omitempty"`
}

type acceptReq struct {
	ID string    `json:"id"`
	By game.Seat `json:"by"`
}

type cancelReq struct {
	ID string `json:"id"`
	By string `json:"by"`
}

type seekResp struct {
	GameID string `json:"game_id,omitempty"`
	Err    *Error `json:"err,omitempty"`
}

// share subscribes l to the other nodes' seeks and asks them for theirs.
func (l *Lobby) share() error {
	cl := l.hub.cl
	for subj, f := range map[string]func(string, []byte, func([]byte)){
		subjLobby:                      l.onLobby,
		subjLobby + ".find":            l.onFind,
		subjNode + cl.node + ".accept": l.onAccept,
		subjNode + cl.node + ".cancel": l.onCancel,
	} {
		un, err := cl.bus.Subscribe(subj, f)
		if err != nil {
			return err
		}
		go func() {
			<-l.hub.ctx.Done()
			un()
		}()
	}
	b, _ := json.Marshal(lobbyMsg{Op: "hello", Node: cl.node})
	return cl.bus.Publish(subjLobby, b)
}

// publishLocked tells the other nodes of a change to one of l's own seeks.
func (l *Lobby) publishLocked(op string, s *openSeek) {
	cl := l.cluster()
	if cl == nil || s.home != "" {
		return
	}
	m := lobbyMsg{Op: op, Node: cl.node, ID: s.ID}
	if op == "add" {
		m.Seek = &s.Seek
	}
	b, _ := json.Marshal(m)
	if err := cl.bus.Publish(subjLobby, b); err != nil {
		l.hub.log.Error("lobby: publish", "op", op, "seek", s.ID, "err", err)
	}
}

func (l *Lobby) cluster() *cluster {
	if l.hub == nil {
		return nil
	}
	return l.hub.cl
}

func (l *Lobby) onLobby(_ string, data []byte, _ func([]byte)) {
	var m lobbyMsg
	cl := l.cluster()
	if err := json.Unmarshal(data, &m); err != nil || m.Node == cl.node {
		return
	}
	cl.mu.Lock()
	cl.hearLocked(m.Node)
	cl.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	switch m.Op {
	case "hello":
		for _, s := range l.seeks {
			l.publishLocked("add", s)
		}
	case "add":
		if m.Seek == nil {
			return
		}
		if _, ok := l.seeks[m.Seek.ID]; ok {
			return
		}
		s := *m.Seek
		l.seq++
		o := &openSeek{Seek: s, seq: l.seq, home: m.Node}
		l.seeks[s.ID] = o
		if !s.Private {
			l.public = append(l.public, o)
			l.notifyLocked(func(viewer string) []byte {
				return mustJSON(seekAddedMsg{Type: "seek_added", Seek: s.JSONFor(viewer), Total: len(l.public)})
			}, s.By.ID, func(sub *LobbySub) bool { return visible(s, sub.marked) })
		}
	case "remove":
		if o, ok := l.seeks[m.ID]; ok && o.home == m.Node {
			l.removeLocked(o)
		}
	}
}

// acceptRemote asks the home of the copy s to accept it for by.
func (l *Lobby) acceptRemote(ctx context.Context, s *openSeek, by game.Seat) (string, error) {
	req, _ := json.Marshal(acceptReq{ID: s.ID, By: by})
	var resp seekResp
	if err := l.ask(ctx, s.home, "accept", req, &resp); err != nil {
		return "", err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if o, ok := l.seeks[s.ID]; ok && o.home == s.home {
		l.removeLocked(o)
	}
	if resp.Err != nil {
		return "", resp.Err
	}
	l.taken[s.ID] = takenSeek{game: resp.GameID, at: l.cfg.Now()}
	// The creator's lobby watchers here hear of it too; those on its home
	// heard from the home's Accept.
	started := gameStartedMsg(s.ID, resp.GameID)
	for sub := range l.subs {
		if sub.viewer == s.By.ID || sub.viewer == by.ID {
			l.sendLocked(sub, started)
		}
	}
	return resp.GameID, nil
}

// cancelRemote asks the home of the copy s to cancel it for by.
func (l *Lobby) cancelRemote(s *openSeek, by string) error {
	req, _ := json.Marshal(cancelReq{ID: s.ID, By: by})
	var resp seekResp
	if err := l.ask(context.Background(), s.home, "cancel", req, &resp); err != nil {
		return err
	}
	if resp.Err != nil {
		return resp.Err
	}
	return nil
}

// ask sends a request to node's subject op and decodes its answer.
func (l *Lobby) ask(ctx context.Context, node, op string, req []byte, resp any) error {
	cl := l.cluster()
	rctx, cancel := context.WithTimeout(ctx, cl.ttl)
	defer cancel()
	b, err := cl.bus.Request(rctx, subjNode+node+"."+op, req)
	if err == nil {
		err = json.Unmarshal(b, resp)
	}
	if err != nil {
		return errorf(apierr.CodeInternal, "the server holding this seek did not answer (%v); try again", err)
	}
	return nil
}

func (l *Lobby) onAccept(_ string, data []byte, reply func([]byte)) {
	var req acceptReq
	if err := json.Unmarshal(data, &req); err != nil {
		return
	}
	go func() {
		var resp seekResp
		l.mu.Lock()
		o, ok := l.seeks[req.ID]
		l.mu.Unlock()
		if ok && o.home != "" {
			resp.Err = errorf(apierr.CodeNotFound, "there is no open seek %q here", req.ID)
		} else {
			ctx, cancel := context.WithTimeout(l.hub.ctx, 10*time.Second)
			gid, err := l.Accept(ctx, req.ID, req.By)
			cancel()
			resp.GameID = gid
			if err != nil && !errors.As(err, &resp.Err) {
				resp.Err = errorf(apierr.CodeInternal, "%v", err)
			}
		}
		b, _ := json.Marshal(resp)
		reply(b)
	}()
}

func (l *Lobby) onCancel(_ string, data []byte, reply func([]byte)) {
	var req cancelReq
	if err := json.Unmarshal(data, &req); err != nil {
		return
	}
	var resp seekResp
	if err := l.Cancel(req.ID, req.By); err != nil && !errors.As(err, &resp.Err) {
		resp.Err = errorf(apierr.CodeInternal, "%v", err)
	}
	b, _ := json.Marshal(resp)
	reply(b)
}

// find asks the other nodes for seek id, which this node has not heard of
// (yet: a seek is published as it opens, and may be accepted elsewhere
// before its copy arrives); only its home answers, so a seek that is
// nowhere costs the wait (0: a lease's time).
func (l *Lobby) find(ctx context.Context, id string, wait time.Duration) (*openSeek, bool) {
	cl := l.cluster()
	if cl == nil {
		return nil, false
	}
	if wait == 0 {
		wait = cl.ttl
	}
	rctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	b, err := cl.bus.Request(rctx, subjLobby+".find", []byte(id))
	if err != nil {
		return nil, false
	}
	var m lobbyMsg
	if err := json.Unmarshal(b, &m); err != nil || m.Seek == nil || m.Seek.ID != id || m.Node == cl.node {
		return nil, false
	}
	return &openSeek{Seek: *m.Seek, home: m.Node}, true
}

func (l *Lobby) onFind(_ string, data []byte, reply func([]byte)) {
	l.mu.Lock()
	o, ok := l.seeks[string(data)]
	l.mu.Unlock()
	if !ok || o.home != "" {
		return // not ours: its home answers
	}
	b, _ := json.Marshal(lobbyMsg{Op: "add", Node: l.cluster().node, Seek: &o.Seek})
	reply(b)
}

// alive reports whether node was heard of within a lease's time.
func (cl *cluster) alive(node string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	at, ok := cl.heard[node]
	return ok && time.Since(at) <= cl.ttl
}

func gameStartedMsg(seek, game string) []byte {
	return mustJSON(struct {
		Type   string `json:"type"`
		SeekID string `json:"seek_id"`
		GameID string `json:"game_id"`
	}{"game_started", seek, game})
}
