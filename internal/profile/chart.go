package profile

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"time"

	"github.com/toguz/toguz/internal/chart"
	"github.com/toguz/toguz/internal/rating"
)

// ratingChart draws the rating history with internal/chart, in the
// page's language (t is the catalog for it): one line per category over
// dated axes, the dates' ticks labelled with the catalog's month names,
// the ratings' ticks with round numbers, each point's date and rating
// its tooltip, and a title that tells a screen reader what the chart
// shows. Each category keeps its colour (its series class) whichever
// others the player has.
func ratingChart(h []RatingPoint, t func(key string, args ...any) string) template.HTML {
	if len(h) == 0 {
		return ""
	}
	t0, t1 := h[0].At, h[0].At
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range h {
		if p.At.Before(t0) {
			t0 = p.At
		}
		if p.At.After(t1) {
			t1 = p.At
		}
		lo, hi = math.Min(lo, p.Rating), math.Max(hi, p.Rating)
	}
	first, last := t0, t1
	if !t1.After(t0.Add(24 * time.Hour)) {
		// One day or less: a day either side, so that the axis has a span.
		t0, t1 = t0.Add(-24*time.Hour), t1.Add(24*time.Hour)
	}
	days := func(at time.Time) float64 { return float64(at.Unix()) / 86400 }
	month := func(at time.Time) string { return t(fmt.Sprintf("archive.month.%d", int(at.Month()))) }
	day := func(at time.Time) string { return fmt.Sprintf("%d %s %d", at.Day(), month(at), at.Year()) }
	var xt []chart.Tick
	for _, tk := range dateTicks(t0, t1) {
		text := month(tk.at)
		if tk.days {
			text = fmt.Sprintf("%d %s", tk.at.Day(), month(tk.at))
		}
		ct := chart.Tick{At: days(tk.at), Label: text}
		if tk.year {
			ct.Sub = strconv.Itoa(tk.at.Year())
		}
		xt = append(xt, ct)
	}
	c := chart.Line{ID: "rating-chart", Height: 220, XTicks: xt, FixX: true, XMin: days(t0), XMax: days(t1),
		Title: t("archive.chart.label", day(first), day(last), int(math.Round(lo)), int(math.Round(hi)))}
	for i, cat := range rating.Categories {
		s := chart.Series{Name: t("archive.cat." + cat.String()), Class: "s" + strconv.Itoa(i)}
		for _, p := range h {
			if p.Category == cat.String() {
				s.Points = append(s.Points, chart.Point{X: days(p.At), Y: p.Rating,
					Label: fmt.Sprintf("%s: %.0f", day(p.At), p.Rating)})
			}
		}
		if len(s.Points) == 0 {
			continue
		}
		s.Dots = len(s.Points) == 1
		c.Series = append(c.Series, s)
	}
	return c.SVG()
}

// A dateTick is a tick of the date axis: a day (days) or the first of a
// month, and whether the year is written under it (the first tick and
// each January).
type dateTick struct {
	at         time.Time
	days, year bool
}

// dateTicks returns at most about six ticks between t0 and t1: the first
// of every 1, 2, 3, 6 or 12 months, or, over less than two months, every
// 1, 2, 7 or 14 days.
func dateTicks(t0, t1 time.Time) []dateTick {
	t0, t1 = t0.UTC(), t1.UTC()
	span := t1.Sub(t0)
	if span < 60*24*time.Hour {
		return dayTicks(t0, t1)
	}
	var out []dateTick
	months := int(span.Hours()/24/30) + 1
	step := 12
	for _, m := range []int{1, 2, 3, 6, 12} {
		if months <= m*6 {
			step = m
			break
		}
	}
	if months > 72 {
		step = 12 * (months/72 + 1)
	}
	at := time.Date(t0.Year(), t0.Month(), 1, 0, 0, 0, 0, time.UTC)
	if at.Before(t0) {
		at = at.AddDate(0, 1, 0)
	}
	// Ticks on months that step divides (January, April, July, October
	// for 3), so that the axis reads like a calendar.
	for (int(at.Month())-1)%min(step, 12) != 0 {
		at = at.AddDate(0, 1, 0)
	}
	for ; !at.After(t1); at = at.AddDate(0, step, 0) {
		out = append(out, dateTick{at: at, year: len(out) == 0 || at.Month() == 1})
	}
	return out
}

// dayTicks returns the ticks of less than two months between t0 and t1
// (UTC): every 1, 2, 7 or 14 days.
func dayTicks(t0, t1 time.Time) []dateTick {
	var out []dateTick
	span := t1.Sub(t0)
	stepDays := 14
	for _, d := range []int{1, 2, 7, 14} {
		if span <= time.Duration(d*6)*24*time.Hour {
			stepDays = d
			break
		}
	}
	at := time.Date(t0.Year(), t0.Month(), t0.Day(), 0, 0, 0, 0, time.UTC)
	if at.Before(t0) {
		at = at.AddDate(0, 0, 1)
	}
	for ; !at.After(t1); at = at.AddDate(0, 0, stepDays) {
		out = append(out, dateTick{at: at, days: true, year: len(out) == 0 || (at.Month() == 1 && at.Day() <= stepDays)})
	}
	return out
}

// histogramBand is the width of the leaderboard histogram's bands in
// rating points, before they are merged to fit (maxBars).
const (
	histogramBand = 50.0
	maxBars       = 24
)

// ratingHistogram draws how many players (counts, in bands of
// histogramBand points from lo) each rating band holds, with
// internal/chart: each bar's title says its band and count, and the
// chart's title the category (name), the whole span and the players. t
// and n are the page's catalog (n with plural forms). It returns the
// number of players too; "" and 0 when there is none.
func ratingHistogram(lo float64, counts []int, t func(key string, args ...any) string, n func(key string, count int, args ...any) string, name string) (template.HTML, int) {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return "", 0
	}
	// An empty band either side: the shape reads as a distribution even
	// when all players are in one band.
	lo -= histogramBand
	counts = append(append([]int{0}, counts...), 0)
	// Bands of 50, 100, 200, … points, so that no more than maxBars are
	// drawn, starting at a multiple of the band.
	width := histogramBand
	for math.Ceil(float64(len(counts))*histogramBand/width) > maxBars {
		width *= 2
	}
	start := math.Floor(lo/width) * width
	merged := make([]int, int(math.Ceil((lo+float64(len(counts))*histogramBand-start)/width)))
	for i, c := range counts {
		merged[int((lo+float64(i)*histogramBand-start)/width)] += c
	}
	c := chart.Bars{ID: "rating-histogram", Edges: true}
	for i, k := range merged {
		from := int(start + float64(i)*width)
		c.Bars = append(c.Bars, chart.Bar{Label: strconv.Itoa(from), Value: float64(k),
			Title: n("chart.hist.bar", k, from, from+int(width)-1, k)})
	}
	end := int(start+float64(len(merged))*width) - 1
	c.Title = t("chart.hist.title", name, n("chart.hist.bar", total, int(start), end, total))
	return c.SVG(), total
}
