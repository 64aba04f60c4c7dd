package server

import (
	"context"
	"net/http"

	"github.com/toguz/toguz/internal/study"
)

// CheckGuest refuses a guest token this server did not sign (site.Kit).
func (s *Server) CheckGuest(r *http.Request) error { return s.forgedGuest(r) }

// studyConfig is what the studies' pages are built from: the stores of
// cfg, and the archive's games of a class's students.
func (s *Server) studyConfig() study.Config {
	c := study.Config{Studies: s.cfg.Studies, Progress: s.cfg.Progress, Puzzles: s.cfg.Puzzles,
		MessageRate: s.cfg.MessageRate, MessageBurst: s.cfg.MessageBurst, Notify: senderOf(s.cfg.Notifications)}
	if a := s.cfg.Archive; a != nil {
		c.Games = func(ctx context.Context, name string, limit int) ([]study.Game, error) {
			games, err := a.UserGames(ctx, name, limit)
			if err != nil {
				return nil, err
			}
			out := make([]study.Game, len(games))
			for i, g := range games {
				out[i] = study.Game{ID: g.ID, White: g.White, Black: g.Black, Result: g.Result}
			}
			return out, nil
		}
	}
	return c
}
