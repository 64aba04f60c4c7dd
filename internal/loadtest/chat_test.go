package loadtest

import (
	"context"
	"testing"
	"time"
)

// TestRunWithChat mixes chat into the load (Config.ChatEvery): the chat
// messages come back to their senders, those past the server's chat rate
// limits are counted apart, and the moves go on without errors.
func TestRunWithChat(t *testing.T) {
	s := startServer(t)
	cfg := Config{URL: s.URL, Games: 2, Interval: 20 * time.Millisecond, Duration: 3 * time.Second, Seed: 3, ChatEvery: 2}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d moves, %d chats (%d refused), chat round trip %v", r.Moves, r.Chats, r.ChatRefused, r.ChatLatency)
	if r.Errors != 0 {
		t.Errorf("%d errors: %v %v", r.Errors, r.ErrorKinds, r.ErrorSample)
	}
	if r.Chats == 0 || r.ChatLatency.N != r.Chats || r.Moves == 0 {
		t.Errorf("%d chats, %d latencies, %d moves", r.Chats, r.ChatLatency.N, r.Moves)
	}
	// Each player may send 5 at once then 1 a second: at a ply every 20
	// ms, many of his messages are refused.
	if r.ChatRefused == 0 {
		t.Errorf("no chat message refused at %d a second per player", 1000/40)
	}
}
