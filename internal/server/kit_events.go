package server

import "github.com/toguz/toguz/internal/events"

// eventsWeb is the site's side of the events (internal/events) over the
// server's Config.Events and EventUser.
func (s *Server) eventsWeb() *events.Web {
	return events.NewWeb(events.WebConfig{Kit: s, Manager: s.cfg.Events, Pages: s.pages, User: s.cfg.EventUser})
}
