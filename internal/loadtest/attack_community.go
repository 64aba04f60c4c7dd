package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
)

// community: two new accounts from one address (127.0.2.71) at the write
// rate write everywhere the community lets them: the forum's topics and
// replies, private messages, teams made and the leaders' message to all
// members. Each kind starts with a burst of concurrent requests, so that
// a bound checked apart from its write would let several through; then
// they go on one by one. Meanwhile requests to join a team, each dropped
// and made again, come from 127.0.2.72. Every write must be answered ok or refused within its bound (429
// rate_limited), never more than the bound let through.
func (a *attacker) community(ctx context.Context, t *tally) {
	src := &source{http: newHTTPClient(64, attackAddr(70)), lim: writePace()}
	author := &client{base: a.cfg.URL, src: src}
	peer := &client{base: a.cfg.URL, src: src}
	for _, c := range []*client{author, peer} {
		var who struct{ Token, Name string }
		c.name = fmt.Sprintf("writer%06d", rand.N(1000000))
		if err := c.call(ctx, http.MethodPost, "/api/signup", map[string]string{"name": c.name, "password": "correct horse battery"}, &who); err != nil {
			t.note("a writer's sign-up: %v", err)
			return
		}
		c.token = who.Token
	}
	// The peer's topic, and his team that one joins on request (he leads
	// it: his are the leaders' messages).
	var topic struct{ ID int64 }
	if err := peer.call(ctx, http.MethodPost, "/api/forum/general", map[string]string{"title": "Тоғызқұмалақ", "text": "Сәлем!"}, &topic); err != nil {
		t.note("the peer's topic: %v", err)
		return
	}
	var team struct{ ID string }
	if err := peer.call(ctx, http.MethodPost, "/api/team", map[string]string{"name": "Kyzylorda " + peer.name, "joinMode": "request"}, &team); err != nil {
		t.note("the peer's team: %v", err)
		return
	}
	writes := []write{
		{"reply", func(i int) error {
			return author.call(ctx, http.MethodPost, fmt.Sprintf("/api/forum/general/%d", topic.ID), map[string]string{"text": fmt.Sprintf("Жауап %d", i)}, nil)
		}},
		{"topic", func(i int) error {
			return author.call(ctx, http.MethodPost, "/api/forum/general", map[string]string{"title": fmt.Sprintf("Тақырып %d", i), "text": "Мәтін"}, nil)
		}},
		{"message", func(i int) error {
			return author.call(ctx, http.MethodPost, "/api/inbox/"+peer.name, map[string]string{"text": fmt.Sprintf("Хат %d", i)}, nil)
		}},
		{"team", func(i int) error {
			return author.call(ctx, http.MethodPost, "/api/team", map[string]string{"name": fmt.Sprintf("Team %d %s", i, author.name), "joinMode": "open"}, nil)
		}},
		{"leaders", func(i int) error {
			return peer.call(ctx, http.MethodPost, "/api/team/"+team.ID+"/message", map[string]string{"message": fmt.Sprintf("Жаттығу %d", i)}, nil)
		}},
	}
	// The requests to join, made and dropped one by one (a request made
	// again counts again) up to their bound a day, from an address of
	// their own so that they reach it within the attack.
	joiner := &client{base: a.cfg.URL, src: &source{http: newHTTPClient(8, attackAddr(71)), lim: writePace()}, token: author.token}
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			err := joiner.call(ctx, http.MethodPost, "/api/team/"+team.ID+"/join", map[string]string{"message": "Алыңыз"}, nil)
			if ctx.Err() != nil {
				return
			}
			t.add("join: " + answerOf(err))
			if err == nil {
				joiner.call(ctx, http.MethodPost, "/api/team/"+team.ID+"/decline", nil, nil)
			}
		}
	})
	defer wg.Wait()
	const burst = 12 // more than the largest bound a minute (10 messages)
	for _, w := range writes {
		if ctx.Err() != nil {
			return
		}
		var wg sync.WaitGroup
		for i := range burst {
			wg.Go(func() {
				if err := w.send(i); ctx.Err() == nil {
					t.add(w.kind + ": " + answerOf(err))
				}
			})
		}
		wg.Wait()
	}
	for i := burst; ctx.Err() == nil; i++ {
		w := writes[i%len(writes)]
		if err := w.send(i); ctx.Err() == nil {
			t.add(w.kind + ": " + answerOf(err))
		}
	}
}

// write is one kind of the community's writes: send sends the i-th.
type write struct {
	kind string
	send func(i int) error
}
