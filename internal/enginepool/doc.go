// Package enginepool runs the engine (internal/engine) for the site: a
// LivePlayer plays the engine's moves of the live games (it is a
// live.Engine) and an AnalysisPool runs the analyses the server makes for
// its users, each on engines of its own.
//
// Invariants: a pool never searches on more engines than it was given (one
// search per engine at a time); the searches waiting for an engine are
// served in turns across users (scheduler.go), so that one user's many
// games or requests delay another's by at most one search per engine; an
// analysis never takes a live game's engine. On Linux either pool may search
// at the lowest priority of the OS (Background), below the server.
package enginepool
