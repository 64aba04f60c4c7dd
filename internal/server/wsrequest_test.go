package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestDetached: a websocket's goroutine keeps the upgrade request's path,
// {id} and context values, and not its end: the handler's return cancels
// the request's context, the socket goes on.
func TestDetached(t *testing.T) {
	type key struct{}
	r := httptest.NewRequest(http.MethodGet, "/api/games/ABC/ws", nil)
	r.SetPathValue("id", "ABC")
	ctx, cancel := context.WithCancel(context.WithValue(r.Context(), key{}, "v"))
	r = r.WithContext(ctx)
	d := detached(r)
	cancel()
	if d.path != "/api/games/ABC/ws" || d.id != "ABC" {
		t.Errorf("path %q, id %q", d.path, d.id)
	}
	if d.ctx.Err() != nil {
		t.Error("the socket's context ended with the request's")
	}
	if v, _ := d.ctx.Value(key{}).(string); v != "v" {
		t.Errorf("the context's value is %q, want v", v)
	}
}
