package server

import (
	"context"
	"time"

	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/rating"
)

// Archive is what the pages and the API read from the database besides the
// live games.
type Archive interface {
	// Game loads a stored game (errors wrap live.ErrNotFound).
	Game(ctx context.Context, id string) (live.Saved, error)
	// Profile returns a user's ratings and rating history (errors wrap
	// live.ErrNotFound for an unknown name).
	Profile(ctx context.Context, name string) (Profile, error)
	// UserGames returns a user's games, newest first.
	UserGames(ctx context.Context, name string, limit int) ([]GameSummary, error)
	// Leaderboard returns the best players of a category with a stable
	// (not provisional) rating.
	Leaderboard(ctx context.Context, c rating.Category, limit int) ([]LeaderRow, error)
}

// Profile is a user's public page.
type Profile struct {
	Name    string                `json:"name"`
	Created time.Time             `json:"created"`
	Ratings map[string]RatingInfo `json:"ratings"`
	History []RatingPoint         `json:"history"`
}

// RatingInfo is a rating in one category.
type RatingInfo struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// RatingPoint is one entry of the rating history.
type RatingPoint struct {
	Category string    `json:"category"`
	At       time.Time `json:"at"`
	Rating   float64   `json:"rating"`
}

// GameSummary is a line of a game list.
type GameSummary struct {
	ID          string    `json:"id"`
	White       string    `json:"white"`
	Black       string    `json:"black"`
	Status      string    `json:"status"`
	Result      string    `json:"result"`
	Termination string    `json:"termination"`
	TC          string    `json:"tc"`
	Rated       bool      `json:"rated"`
	Plies       int       `json:"plies"`
	Created     time.Time `json:"created"`
}

// LeaderRow is a line of the leaderboard.
type LeaderRow struct {
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}
