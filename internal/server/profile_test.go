package server

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/store"
)

// TestProfileRatings: the profile's ratings are a table with a heading per
// column and a row per category, and its chart is in the page's language.
func TestProfileRatings(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ctx := t.Context()
	a, _ := s.st.CreateUser(ctx, "Abai", "x")
	b, _ := s.st.CreateUser(ctx, "Shokan", "x")
	at := time.Date(2026, 2, 3, 12, 0, 0, 0, time.UTC)
	for i := range 3 {
		g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
			TimeControl: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}, Rated: true, Status: game.Playing}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation,
			At: at.AddDate(0, 2*i, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	cat := i18n.New()
	req, _ := http.NewRequest("GET", s.URL+"/@/Abai", nil)
	req.AddCookie(&http.Cookie{Name: langCookie, Value: "kk"})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	page := string(body)
	_, table, _ := strings.Cut(page, `id="ratings"`)
	table, _, _ = strings.Cut(table, "</table>")
	for _, want := range []string{cat.T("kk", "archive.col.category"), cat.T("kk", "archive.col.rating"), cat.T("kk", "archive.col.rd"),
		cat.T("kk", "archive.col.games"), cat.T("kk", "archive.col.provisional"), `<th scope="row">` + cat.T("kk", "archive.cat.blitz") + `</th>`} {
		if !strings.Contains(table, want) {
			t.Errorf("the ratings table lacks %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, `<th scope="col">`); n != 5 {
		t.Errorf("%d column headings, want 5", n)
	}
	_, chart, _ := strings.Cut(page, `id="rating-chart"`)
	for _, m := range []int{3, 4} {
		if !strings.Contains(chart, ">"+cat.T("kk", "archive.month."+strconv.Itoa(m))+"<") {
			t.Errorf("the chart has no tick for month %d in Kazakh: %s", m, chart)
		}
	}
}
