package explorer

import (
	"errors"
	"net/url"
	"slices"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/rating"
)

// TestParseExplorer: every field of a request is read into the filter
// and the position, and each bad field is answered with its message.
func TestParseExplorer(t *testing.T) {
	v, _ := url.ParseQuery("player=Aru&color=black&moves=7,3&min=1400&max=1799&tc=blitz,none&tc=blitz&from=2024-01&to=2024-12")
	req, err := parseExplorer(v)
	if err != nil {
		t.Fatal(err)
	}
	want := toguz.StartPosition().After(7).After(3)
	if req.DB != "player" || req.Q.DB != "player" || req.Color != toguz.Black || req.Pos != want || len(req.Path) != 2 {
		t.Errorf("read %+v", req)
	}
	f := req.Filter
	if f.MinRating != 1400 || f.MaxRating != 1799 || !slices.Equal(f.Cats, []int{1 + int(rating.Blitz), 0}) ||
		f.FromMonth == 0 || f.ToMonth-f.FromMonth != 11 {
		t.Errorf("filter %+v", f)
	}
	if req, err := parseExplorer(url.Values{}); err != nil || req.DB != "masters" || req.Pos != toguz.StartPosition() {
		t.Errorf("an empty request: %+v, %v", req, err)
	}
	for _, c := range []struct{ query, key string }{
		{"db=nope", "explorer.bad.db"},
		{"db=player", "explorer.bad.player"},
		{"color=green", "explorer.bad.color"},
		{"ruleset=nope", "apierr.bad_ruleset"},
		{"moves=7,x", "explorer.bad.moves"},
		{"moves=10", "explorer.bad.moves"},
		{"min=4001", "explorer.bad.rating"},
		{"max=-1", "explorer.bad.rating"},
		{"tc=fast", "explorer.bad.tc"},
		{"from=2024-13", "explorer.bad.month"},
		{"to=2024-1", "explorer.bad.month"},
	} {
		v, _ := url.ParseQuery(c.query)
		_, err := parseExplorer(v)
		var e *apierr.Error
		if !errors.As(err, &e) || e.Key != c.key || e.Status != 400 {
			t.Errorf("%s: %v, want %s", c.query, err, c.key)
		}
	}
}
