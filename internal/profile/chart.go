package profile

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/rating"
)

// The rating chart's geometry, in SVG user units: the viewBox is as wide
// as a 360 px phone, so that its text is read at its size there, and the
// svg is 100% wide (style.css), shrinking nowhere below that.
const (
	chartW, chartH = 360.0, 220.0
	chartLeft      = 40.0 // room for the rating labels
	chartRight     = 10.0
	chartTop       = 24.0 // room for the legend
	chartBottom    = 34.0 // room for the date labels
)

var chartColors = map[string]string{"bullet": "#b3261e", "blitz": "#1f6f8b", "rapid": "#2e7d32", "classical": "#6a1b9a", "correspondence": "#8a5a2b"}

// ratingChart draws the rating history as an inline SVG, in the page's
// language (t is the catalog for it): one line per category over dated
// axes, the dates' ticks labelled with the catalog's month names, the
// ratings' ticks with round numbers, and a title that tells a screen
// reader what the chart shows. Only numbers and catalog texts (escaped) go
// into the markup.
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
	first, last, rMin, rMax := t0, t1, lo, hi
	if !t1.After(t0.Add(24 * time.Hour)) {
		// One day or less: a day either side, so that the axis has a span.
		t0, t1 = t0.Add(-24*time.Hour), t1.Add(24*time.Hour)
	}
	step := niceStep(hi-lo, 5)
	lo, hi = math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if hi == lo {
		lo, hi = lo-step, hi+step
	}
	plotW, plotH := chartW-chartLeft-chartRight, chartH-chartTop-chartBottom
	x := func(at time.Time) float64 {
		return chartLeft + plotW*float64(at.Sub(t0))/float64(t1.Sub(t0))
	}
	y := func(r float64) float64 { return chartTop + plotH*(hi-r)/(hi-lo) }
	esc := template.HTMLEscapeString
	month := func(at time.Time) string { return t(fmt.Sprintf("archive.month.%d", int(at.Month()))) }
	day := func(at time.Time) string { return fmt.Sprintf("%d %s %d", at.Day(), month(at), at.Year()) }

	var b strings.Builder
	label := t("archive.chart.label", day(first), day(last), int(math.Round(rMin)), int(math.Round(rMax)))
	fmt.Fprintf(&b, `<svg class="chart" id="rating-chart" viewBox="0 0 %.0f %.0f" width="100%%" role="img" aria-labelledby="rating-chart-title">`, chartW, chartH)
	fmt.Fprintf(&b, `<title id="rating-chart-title">%s</title>`, esc(label))
	// The rating axis: a grid line and a label at each tick.
	b.WriteString(`<g class="axis y" aria-hidden="true">`)
	for r := lo; r <= hi+step/2; r += step {
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, chartLeft, y(r), chartW-chartRight, y(r))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%.0f</text>`, chartLeft-4, y(r)+4, r)
	}
	b.WriteString(`</g>`)
	// The date axis: ticks at the first of a month (or at days, for a
	// history of a few weeks), labelled in the page's language.
	fmt.Fprintf(&b, `<g class="axis x" aria-hidden="true"><line class="base" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`,
		chartLeft, chartTop+plotH, chartW-chartRight, chartTop+plotH)
	for _, tk := range dateTicks(t0, t1) {
		text := month(tk.at)
		if tk.days {
			text = fmt.Sprintf("%d %s", tk.at.Day(), month(tk.at))
		}
		xx := x(tk.at)
		fmt.Fprintf(&b, `<line class="tick" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`, xx, chartTop+plotH, xx, chartTop+plotH+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, xx, chartTop+plotH+16, esc(text))
		if tk.year {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`, xx, chartTop+plotH+28, tk.at.Year())
		}
	}
	b.WriteString(`</g>`)
	chartLines(&b, h, x, y, t)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// chartLines draws a line of the history h for each rating category, x
// and y placing a point, and the legend naming them (t: the catalog).
func chartLines(b *strings.Builder, h []RatingPoint, x func(time.Time) float64, y func(float64) float64, t func(key string, args ...any) string) {
	esc := template.HTMLEscapeString
	legend := chartLeft
	for _, c := range rating.Categories {
		var pts []RatingPoint
		for _, p := range h {
			if p.Category == c.String() {
				pts = append(pts, p)
			}
		}
		if len(pts) == 0 {
			continue
		}
		color := chartColors[c.String()]
		fmt.Fprintf(b, `<polyline class="line" stroke="%s" points="`, color)
		for k, p := range pts {
			if k > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(b, "%.1f,%.1f", x(p.At), y(p.Rating))
		}
		b.WriteString(`"/>`)
		if len(pts) == 1 {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, x(pts[0].At), y(pts[0].Rating), color)
		}
		name := t("archive.cat." + c.String())
		fmt.Fprintf(b, `<rect x="%.1f" y="6" width="10" height="10" fill="%s" aria-hidden="true"/><text x="%.1f" y="15">%s</text>`,
			legend, color, legend+13, esc(name))
		legend += 13 + 7*float64(len([]rune(name))) + 12
	}
}

// niceStep returns a round step (1, 2, 2.5 or 5 times a power of ten) that
// cuts span into at most n parts.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 10
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			return math.Max(m*mag, 1)
		}
	}
	return 10 * mag
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
