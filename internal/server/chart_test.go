package server

import (
	"encoding/xml"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
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

var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

func chartHistory() []RatingPoint {
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.UTC) }
	return []RatingPoint{
		{Category: "blitz", At: day(1, 10), Rating: 1500},
		{Category: "blitz", At: day(2, 3), Rating: 1562},
		{Category: "blitz", At: day(3, 21), Rating: 1538},
		{Category: "blitz", At: day(6, 20), Rating: 1611},
		{Category: "rapid", At: day(4, 2), Rating: 1480},
	}
}

// TestRatingChartGolden: the chart's SVG, in English and Kazakh, is the
// golden file's (go test -run TestRatingChartGolden -update rewrites them).
func TestRatingChartGolden(t *testing.T) {
	cat := i18n.New()
	for _, lang := range []string{"en", "kk"} {
		got := string(ratingChart(chartHistory(), func(k string, a ...any) string { return cat.T(lang, k, a...) }))
		path := filepath.Join("testdata", "rating-chart."+lang+".svg")
		if *updateGolden {
			if err := os.MkdirAll("testdata", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got+"\n" != string(want) {
			t.Errorf("%s: the chart differs from %s:\n%s", lang, path, got)
		}
		// Well-formed, labelled, and every tick label in the language.
		if err := xml.Unmarshal([]byte(got), new(struct{})); err != nil {
			t.Errorf("%s: not well-formed XML: %v", lang, err)
		}
		for _, want := range []string{`role="img"`, `aria-labelledby="rating-chart-title"`, `viewBox="0 0 360 220"`, `width="100%"`,
			">" + cat.T(lang, "archive.month.3") + "<", ">2026<", ">1500<", ">1600<", cat.T(lang, "archive.cat.blitz")} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: no %q in the chart", lang, want)
			}
		}
	}
	if ratingChart(nil, nil) != "" {
		t.Error("a chart of no history")
	}
}

func TestDateTicks(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name   string
		t0, t1 time.Time
		want   []string
	}{
		{"five months", d(2026, 1, 10), d(2026, 6, 20), []string{"2026-02-01*", "2026-03-01", "2026-04-01", "2026-05-01", "2026-06-01"}},
		{"two years", d(2025, 3, 5), d(2027, 2, 1), []string{"2025-07-01*", "2026-01-01*", "2026-07-01", "2027-01-01*"}},
		{"ten days", d(2026, 12, 28), d(2027, 1, 7), []string{"2026-12-28*", "2026-12-30", "2027-01-01*", "2027-01-03", "2027-01-05", "2027-01-07"}},
		{"a week", d(2026, 3, 1), d(2026, 3, 4), []string{"2026-03-01*", "2026-03-02", "2026-03-03", "2026-03-04"}},
	} {
		var got []string
		for _, tk := range dateTicks(tc.t0, tc.t1) {
			s := tk.at.Format(time.DateOnly)
			if tk.year {
				s += "*"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if len(got) > 8 {
			t.Errorf("%s: %d ticks", tc.name, len(got))
		}
	}
}

func TestNiceStep(t *testing.T) {
	for _, tc := range []struct{ span, want float64 }{{111, 25}, {0, 10}, {40, 10}, {900, 200}, {3, 1}} {
		if got := niceStep(tc.span, 5); got != tc.want {
			t.Errorf("niceStep(%v) = %v, want %v", tc.span, got, tc.want)
		}
	}
}

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
	_, chart, _ := strings.Cut(page, `<svg class="chart"`)
	for _, m := range []int{3, 4} {
		if !strings.Contains(chart, ">"+cat.T("kk", "archive.month."+strconv.Itoa(m))+"<") {
			t.Errorf("the chart has no tick for month %d in Kazakh: %s", m, chart)
		}
	}
}
