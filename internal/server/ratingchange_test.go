package server

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestRatingChangeAtEnd: a rated game's end tells both players their rating
// changes, and the game as loaded afterwards (a late spectator, a reload,
// GET /api/games/{id}) still shows each seat's rating with its change.
func TestRatingChangeAtEnd(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	white, black, id := s.game(s.signup("aigul"), s.signup("bolat"), "5+0", true)
	w, b := s.dial(id, white), s.dial(id, black)
	w.until("state")
	b.until("state")
	w.move(0, 7)
	b.until("move")
	b.move(1, 7)
	w.until("move")
	w.send(`{"type":"resign"}`)
	type seat struct {
		Rating     int  `json:"rating"`
		RatingDiff *int `json:"rating_diff"`
	}
	var end struct {
		RatingDiff *[2]int `json:"rating_diff"`
	}
	if err := json.Unmarshal([]byte(b.until("end").Raw), &end); err != nil || end.RatingDiff == nil || end.RatingDiff[0] >= 0 || end.RatingDiff[1] <= 0 {
		t.Fatalf("end: rating_diff %v, %v; want White's down and Black's up", end.RatingDiff, err)
	}
	var g struct{ White, Black seat }
	code, m := s.do("GET", "/api/games/"+id, "", nil)
	if code != http.StatusOK {
		t.Fatalf("GET /api/games/%s: %d %v", id, code, m)
	}
	raw, _ := json.Marshal(m)
	json.Unmarshal(raw, &g)
	if g.White.Rating == 0 || g.Black.Rating == 0 || g.White.RatingDiff == nil || g.Black.RatingDiff == nil ||
		*g.White.RatingDiff != end.RatingDiff[0] || *g.Black.RatingDiff != end.RatingDiff[1] {
		t.Errorf("the ended game's seats: %+v %+v, want their ratings and changes %v", g.White, g.Black, *end.RatingDiff)
	}
}
