package profile

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/live"
)

// TestCategory: the leaderboard's ?category= is blitz when absent, and a
// name rating does not know is a 400 bad_category that quotes it.
func TestCategory(t *testing.T) {
	for q, want := range map[string]string{"": "blitz", "?category=rapid": "rapid", "?category=classical": "classical"} {
		c, err := category(httptest.NewRequest("GET", "/leaderboard"+q, nil))
		if err != nil || c.String() != want {
			t.Errorf("%q: %v, %v; want %s", q, c, err, want)
		}
	}
	_, err := category(httptest.NewRequest("GET", "/api/leaderboard?category=chess", nil))
	var e *apierr.Error
	if !errors.As(err, &e) || e.Status != http.StatusBadRequest || e.Key != "apierr.bad_category" || fmt.Sprint(e.Args) != "[chess]" {
		t.Errorf("an unknown category: %v", err)
	}
}

// TestPlayerError: the store's not found is a 404 no_player naming the
// player; any other error is the store's.
func TestPlayerError(t *testing.T) {
	var e *apierr.Error
	err := playerError(fmt.Errorf("%w: no user", live.ErrNotFound), "Abai")
	if !errors.As(err, &e) || e.Status != http.StatusNotFound || e.Key != "apierr.no_player" || fmt.Sprint(e.Args) != "[Abai]" {
		t.Errorf("not found: %v", err)
	}
	other := errors.New("disk full")
	if err := playerError(other, "Abai"); err != other {
		t.Errorf("another error became %v", err)
	}
}
