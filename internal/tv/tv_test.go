package tv

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
)

// playing is the games being played, in the hub's order (the first is
// the TV's).
type playing []live.LiveGame

func (p playing) Games() []live.LiveGame { return p }

func (p playing) TV() (live.LiveGame, bool) {
	if len(p) == 0 {
		return live.LiveGame{}, false
	}
	return p[0], true
}

func games(n int) playing {
	p := make(playing, n)
	for i := range p {
		p[i] = live.LiveGame{ID: "g" + strconv.Itoa(i)}
	}
	return p
}

// TestLiveGamesLimit: GET /api/games/live lists at most maxListed games,
// fewer when ?limit= asks, the first ones, with how many are played.
func TestLiveGamesLimit(t *testing.T) {
	for _, tc := range []struct {
		played int
		query  string
		want   int
	}{
		{150, "", maxListed}, {150, "?limit=3", 3}, {150, "?limit=0", maxListed}, {150, "?limit=x", maxListed},
		{150, "?limit=500", maxListed}, {40, "", 40}, {40, "?limit=60", 40}, {0, "", 0},
	} {
		s := NewSite(nil, Config{Games: games(tc.played)})
		w := httptest.NewRecorder()
		if err := s.apiLiveGames(w, httptest.NewRequest("GET", "/api/games/live"+tc.query, nil)); err != nil {
			t.Fatal(err)
		}
		var got liveGamesJSON
		if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Games) != tc.want || got.Total != tc.played || (tc.want > 0 && got.Games[0].ID != "g0") {
			t.Errorf("%d played, %q: %d listed of %d, want %d of %d", tc.played, tc.query, len(got.Games), got.Total, tc.want, tc.played)
		}
	}
}

// TestTV: GET /tv is the game page of the TV's game and GET /api/tv the
// game; with none played, /api/tv is a 404 no_tv_game.
func TestTV(t *testing.T) {
	var shown string
	page := func(_ http.ResponseWriter, r *http.Request) error { shown = r.PathValue("id"); return nil }
	s := NewSite(nil, Config{Games: games(3), GamePage: page})
	if err := s.pageTV(httptest.NewRecorder(), httptest.NewRequest("GET", "/tv", nil)); err != nil || shown != "g0" {
		t.Errorf("/tv showed the page of %q (%v), want g0", shown, err)
	}
	w := httptest.NewRecorder()
	if err := s.apiTV(w, httptest.NewRequest("GET", "/api/tv", nil)); err != nil {
		t.Fatal(err)
	}
	var tv live.LiveGame
	if err := json.Unmarshal(w.Body.Bytes(), &tv); err != nil || tv.ID != "g0" {
		t.Errorf("/api/tv: %s (%v)", w.Body, err)
	}
	s = NewSite(nil, Config{Games: games(0), GamePage: page})
	var e *apierr.Error
	if err := s.apiTV(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/tv", nil)); !errors.As(err, &e) ||
		e.Status != http.StatusNotFound || e.Key != "apierr.no_tv_game" {
		t.Errorf("/api/tv with no game: %v", err)
	}
}
