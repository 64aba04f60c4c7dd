package server

import "github.com/toguz/toguz/internal/events"

// eventsWeb is the site's side of the events (internal/events) over the
// server's Config.Events and EventUser.
func (s *Server) eventsWeb() *events.Web {
	cfg := events.WebConfig{Kit: s, Manager: s.cfg.Events, Pages: s.pages, User: s.cfg.EventUser}
	if mod := s.cfg.Moderation; mod != nil {
		cfg.FairPlay = events.FairPlay{Removed: mod.Marked, IsModerator: mod.IsModerator, Evidence: mod.GameEvidence}
	}
	return events.NewWeb(cfg)
}
