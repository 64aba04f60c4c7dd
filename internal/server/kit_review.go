package server

import "github.com/toguz/toguz/internal/review"

// reviewWeb is the site's side of the game review (internal/review) over
// the server's Config.Reviews and its archive's games.
func (s *Server) reviewWeb() *review.Web {
	return review.NewWeb(review.WebConfig{Kit: s, Reviews: s.cfg.Reviews, Games: s.cfg.Archive, Pages: s.pages})
}
