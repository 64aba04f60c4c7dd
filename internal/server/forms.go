package server

import "github.com/toguz/toguz/internal/site"

// Choices returns the forms' choices in lang with selected chosen, for a
// viewer with an account or not (site.Kit; site.NewFormChoices).
func (s *Server) Choices(lang, selected string, account bool) site.FormChoices {
	return site.NewFormChoices(s.cat, s.levels, lang, selected, account)
}
