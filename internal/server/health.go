package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// readyTimeout bounds a readiness check: a store that does not answer
// within it is not ready.
const readyTimeout = 2 * time.Second

// healthz is GET /healthz: 200 while the process serves requests at all
// (a liveness probe; it looks at nothing else, so that a slow store does
// not get the process restarted).
func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeProbe(w, http.StatusOK, "ok", "")
}

// readyz is GET /readyz: 200 when this node can take traffic (Config.Ready:
// the store reachable and migrated, the hub accepting games, the server not
// shutting down), else 503 with the reason, so that a load balancer sends
// it nothing new. The reason is for operators, in English.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if err := s.cfg.Ready(ctx); err != nil {
			writeProbe(w, http.StatusServiceUnavailable, "unready", err.Error())
			return
		}
	}
	writeProbe(w, http.StatusOK, "ready", "")
}

func writeProbe(w http.ResponseWriter, status int, word, reason string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(struct {
		Status string `json:"status"`
		Reason string `json:"reason,omitempty"`
	}{word, reason})
}
