package team

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
)

// TestChat: two members chat in their team's room; a message over the
// chat's bound is refused with its code; neither a stranger nor a member
// in kid mode can open the room, and a muted member cannot post.
func TestChat(t *testing.T) {
	s := newTestSite(t)
	ctx := context.Background()
	muted := map[string]bool{}
	hub := live.NewHub(ctx, live.Config{Store: store.LiveStore{S: s.st}, FirstMoveTimeout: -1, Muted: func(id string) bool { return muted[id] }})
	t.Cleanup(func() { hub.Stop(ctx) })
	rt := sitetest.NewRouter(s.kit)
	NewSite(s.kit, s.svc, hub).Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)

	lead, ann, mia, x, kid := s.user("lead"), s.user("ann"), s.user("mia"), s.user("x"), s.user("kid")
	s.svc.kid = func(_ context.Context, user int64) bool { return user == s.idOf(kid) }
	_, m := s.do("POST", "/api/team", lead, map[string]any{"name": "Aral"})
	id := m["id"].(string)
	s.do("POST", "/api/team/"+id+"/join", ann, nil)
	s.do("POST", "/api/team/"+id+"/join", mia, nil)
	s.do("POST", "/api/team/"+id+"/join", kid, nil)
	muted["u:"+strings.Split(mia, ":")[0]] = true

	dial := func(token string) (*websocket.Conn, *http.Response, error) {
		h := http.Header{}
		h.Set("Authorization", "Bearer "+token)
		return websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/team/"+id+"/chat", &websocket.DialOptions{HTTPHeader: h})
	}
	for who, token := range map[string]string{"a stranger": x, "a member in kid mode": kid} {
		if _, resp, err := dial(token); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s opens the team's chat: %v %v", who, resp, err)
		}
	}
	read := func(c *websocket.Conn) map[string]any {
		t.Helper()
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, b, err := c.Read(rctx)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		return m
	}
	send := func(c *websocket.Conn, text string) {
		b, _ := json.Marshal(map[string]string{"type": "chat", "text": text})
		if err := c.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	cl, _, err := dial(lead)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.CloseNow()
	ca, _, err := dial(ann)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.CloseNow()
	// A ping answered: the connection has joined the room.
	for _, c := range []*websocket.Conn{cl, ca} {
		c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`))
		if m := read(c); m["type"] != "pong" {
			t.Fatalf("the ping's answer: %v", m)
		}
	}
	send(cl, "Training at six")
	for _, c := range []*websocket.Conn{cl, ca} {
		if m := read(c); m["type"] != "chat" || m["text"] != "Training at six" || m["by"] != "lead" {
			t.Errorf("the message read: %v", m)
		}
	}
	send(ca, strings.Repeat("ы", live.MaxChatRunes+1))
	if m := read(ca); m["type"] != "error" || m["code"] != "chat_too_long" {
		t.Errorf("a message too long: %v", m)
	}
	cm, _, err := dial(mia)
	if err != nil {
		t.Fatal(err)
	}
	defer cm.CloseNow()
	if m := read(cm); m["type"] != "chat_history" {
		t.Errorf("the history on joining: %v", m)
	}
	send(cm, "hello")
	if m := read(cm); m["code"] != "chat_muted" {
		t.Errorf("a muted member posts: %v", m)
	}
	_, page := s.get("/team/"+id, ann)
	if strings.Contains(page, `data-chat-url`) {
		t.Errorf("the team page of a site without chat shows one")
	}
}
