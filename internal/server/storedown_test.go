package server

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
)

// TestRetryableGameErrors: the hub's retryable refusals (a game between
// nodes, a store that did not take the move) reach the client as 503 with
// Retry-After, in the API's and the pages' JSON alike.
func TestRetryableGameErrors(t *testing.T) {
	s := &Server{}
	for _, code := range []apierr.Code{apierr.CodeGameMoving, apierr.CodeStoreUnavailable} {
		for _, path := range []string{"/api/board/game/g1/move/7", "/game/g1/move"} {
			e := s.AsError(httptest.NewRequest("POST", path, nil), &live.Error{Code: code, Message: "try again"})
			w := httptest.NewRecorder()
			setBoundHeaders(w, e)
			if e.Status != http.StatusServiceUnavailable || e.Code != code || w.Header().Get("Retry-After") != "1" {
				t.Errorf("%s at %s: %d %s, Retry-After %q; want 503 with Retry-After 1", code, path, e.Status, e.Code, w.Header().Get("Retry-After"))
			}
		}
	}
}
