package server

import "github.com/toguz/toguz/internal/analysisboard"

// boardConfig is the analysis board's (internal/analysisboard) part of the
// server's Config, with the live games and the archive's records.
func (s *Server) boardConfig() analysisboard.Config {
	return analysisboard.Config{Games: s.cfg.Hub, Record: s.archive.Record, Analysis: s.cfg.Analysis, AnalysesPerMinute: s.cfg.AnalysesPerMinute,
		Tablebase: s.cfg.Tablebase, Pages: s.pages, RulesError: rulesError}
}
