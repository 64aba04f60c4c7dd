package puzzle

import (
	"html/template"
	"slices"

	"github.com/toguz/toguz/internal/chart"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/store"
)

// dashboard is an account's puzzle results by theme: a bar chart of the
// share solved of each theme's puzzles tried (internal/chart), and the
// same figures as a table beside it.
type dashboard struct {
	Chart template.HTML
	Rows  []themeRow
}

// themeRow is one theme's line of the dashboard.
type themeRow struct {
	ID, Label     string
	Tried, Solved int    // puzzles tried, and solved (at the first try: the one recorded)
	Percent       string // of the puzzles tried, "" when none
}

// themeDashboard counts res (an account's attempts per puzzle) by the
// themes of ps's puzzles, in lang; nil when no puzzle was tried.
func themeDashboard(cat *i18n.Catalog, lang string, ps *set, res []store.PuzzleResult) *dashboard {
	var d dashboard
	rows := make(map[Theme]*themeRow, len(AllThemes))
	for _, t := range AllThemes {
		d.Rows = append(d.Rows, themeRow{ID: string(t), Label: cat.T(lang, "puzzles.theme."+string(t))})
	}
	for i := range d.Rows {
		rows[Theme(d.Rows[i].ID)] = &d.Rows[i]
	}
	tried := 0
	for _, r := range res {
		i, ok := ps.byID[r.PuzzleID]
		if !ok || r.Attempts == 0 {
			continue // a puzzle no longer shipped
		}
		tried++
		for _, t := range ps.all[i].Themes {
			if row := rows[t]; row != nil {
				row.Tried++
				if r.Solved > 0 {
					row.Solved++
				}
			}
		}
	}
	if tried == 0 {
		return nil
	}
	c := chart.Bars{ID: "puzzle-dashboard", Horizontal: true, Title: cat.N(lang, "chart.puzzles.title", tried, tried),
		YFormat: func(v float64) string { return cat.T(lang, "chart.percent", int(v)) }}
	for i := range d.Rows {
		row := &d.Rows[i]
		bar := chart.Bar{Label: row.Label, Href: "/puzzles?theme=" + row.ID,
			Title: cat.T(lang, "chart.puzzles.none", row.Label), Text: "—"}
		if row.Tried > 0 {
			pc := 100 * row.Solved / row.Tried
			row.Percent = cat.T(lang, "chart.percent", pc)
			bar.Value, bar.Text = float64(pc), ""
			bar.Title = cat.N(lang, "chart.puzzles.bar", row.Tried, row.Label, row.Solved, row.Tried, pc)
		}
		c.Bars = append(c.Bars, bar)
	}
	// The chart's scale is always 0–100 %: a bar at 100 % fills it.
	c.Max = 100
	d.Chart = c.SVG()
	d.Rows = slices.Clip(d.Rows)
	return &d
}
