package profile

import (
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/i18n"
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
		for _, want := range []string{`role="img"`, `id="rating-chart"`, `viewBox="0 0 360 220"`, `width="100%"`,
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

// TestRatingHistogram: the bands are merged to at most maxBars, start at
// a multiple of their width, and keep every player.
func TestRatingHistogram(t *testing.T) {
	cat := i18n.New()
	tr := func(k string, a ...any) string { return cat.T("en", k, a...) }
	n := func(k string, c int, a ...any) string { return cat.N("en", k, c, a...) }
	many := make([]int, 60) // 1000..3999 in bands of 50
	for i := range many {
		many[i] = i % 7
	}
	for _, tc := range []struct {
		name          string
		lo            float64
		counts        []int
		bars, players int
		first         string
	}{
		{"none", 1500, nil, 0, 0, ""},
		{"one band", 1500, []int{3}, 3, 3, "1450–1499: 0 players"},
		{"sixty bands", 1000, many, 17, 174, "800–999: 0 players"},
	} {
		svg, players := ratingHistogram(tc.lo, tc.counts, tr, n, "Blitz")
		if players != tc.players || strings.Count(string(svg), `class="bar"`) != tc.bars || (tc.first != "" && !strings.Contains(string(svg), "<title>"+tc.first+"</title>")) {
			t.Errorf("%s: %d players, want %d; want %d bars, the first %q:\n%s", tc.name, players, tc.players, tc.bars, tc.first, svg)
		}
	}
}
