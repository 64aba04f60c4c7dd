// Package chart draws the site's pictures (line charts and bar charts) as
// inline SVG, on the server, so that no chart library runs in the page.
//
// # Index
//
//   - Line: several series over numeric axes with a few round ticks (or
//     the caller's), an optional zero line and filled area, points that
//     can be links (a keyboard or a click goes to what they stand for).
//   - Bars: a bar chart or histogram, bars that can be links.
//   - Ticks: round ticks (1, 2, 2.5, 5 times a power of ten) over a span.
//
// Invariants: the output depends only on the chart's fields, so it is
// compared byte for byte with golden files; it is well-formed XML (every
// caller text is escaped) with a <title> and, when given, a <desc>, and
// role="img" with the title as aria-label unless points are links (then
// role="group", so that a screen reader reaches them). The caller passes
// every text in the page's language: the package holds no words. The
// drawing scales to its container (a viewBox, width 100%); its colours
// are CSS classes (s0…s5 for the series, bar, zero, grid, …) that the
// page's style sheet colours from its custom properties, so that the
// light and dark schemes both apply.
package chart

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Tick is a mark of an axis: where, and its label.
type Tick struct {
	At    float64
	Label string
	// Sub, when not empty, is a second line under the label (a date
	// axis's year); only the x axis draws it.
	Sub string
}

// A Point is one point of a series.
type Point struct {
	X, Y float64
	// Label, when not empty, is the point's own title: its tooltip and
	// what a screen reader says of it.
	Label string
	// Href, when not empty, makes the point a link; Key is written as its
	// data-key attribute, for the page's script to find what it stands
	// for (the game page: the ply).
	Href, Key string
	// Data says the label is data (notation and numbers), not words:
	// the point is marked translate="no", as the page's notation is.
	Data bool
	// Class, when not empty, marks the point with a dot of that CSS class
	// (a review's mistake, say) even when the series has no dots.
	Class string
}

// A Series is one line of a Line chart.
type Series struct {
	Name string // in the legend ("" when the chart has one series)
	// NameData says the name is data (a player's name), not words: its
	// legend text is marked translate="no".
	NameData bool
	Class    string // its CSS class; "" is s<index>
	Points   []Point
	// Area fills between the line and the zero line (or the bottom).
	Area bool
	// Dots draws a dot at every point (a series of few points).
	Dots bool
	// Step draws the line in steps: each value holds until the next point.
	Step bool
}

// Geometry, in SVG user units: the viewBox is as wide as a 360 px phone,
// so that its text reads at its size there, and scales up on wider pages.
const (
	defaultW, defaultH = 360.0, 200.0
	padLeft            = 42.0 // room for the value labels
	padRight           = 10.0
	padTop             = 8.0
	legendH            = 16.0
	padBottom          = 22.0 // room for the labels of the x axis
)

// Line is a line chart.
type Line struct {
	ID, Class   string // the svg's id and extra classes
	Title, Desc string // the text alternative, in the page's language
	Series      []Series
	// XTicks and YTicks, when not nil, are the axes' ticks; nil computes
	// a few round ones labelled by XFormat and YFormat (nil: the number).
	XTicks, YTicks   []Tick
	XFormat, YFormat func(float64) string
	// FixY fixes the value axis to YMin..YMax (values beyond are clamped
	// to its edge); otherwise it spans the values, widened to round ticks.
	FixY       bool
	YMin, YMax float64
	// FixX fixes the x axis to XMin..XMax (a date axis wider than its
	// points); otherwise it spans the points.
	FixX       bool
	XMin, XMax float64
	// Zero draws the line of the value 0 when it is within the axis.
	Zero bool
	// Width and Height of the viewBox; 0 is 360 × 200.
	Width, Height float64
}

// Bar is one bar of a Bars chart.
type Bar struct {
	Label string  // under the bar (the axis may skip some when crowded)
	Value float64 // its height, 0 or more
	// Title is the bar's own text alternative ("1500–1550: 12 players").
	Title string
	Href  string // when not empty, the bar is a link
	Class string // extra CSS class (the reader's own bar, say)
	// Text, when not empty, is written at a horizontal bar's end instead
	// of its value ("—" for a category with nothing to count).
	Text string
}

// Bars is a bar chart or a histogram.
type Bars struct {
	ID, Class     string
	Title, Desc   string
	Bars          []Bar
	YFormat       func(float64) string
	Width, Height float64
	// Max, when above 0, is the top of the value axis (100 for shares in
	// per cent); otherwise a round value above the highest bar.
	Max float64
	// Edges writes each label at its bar's left edge, not under its
	// middle: a histogram's bands, labelled by where they start.
	Edges bool
	// Horizontal draws a bar per row, its label on its left and its value
	// (YFormat) at its end: for a few named categories, whose names would
	// not fit under upright bars. Height then follows from the rows.
	Horizontal bool
}

// Ticks returns round ticks from lo to hi, at most about n of them: lo
// rounded down and hi up to the step, and the step.
func Ticks(lo, hi float64, n int) (ticks []float64, step float64) {
	return ticks1(lo, hi, n, 0)
}

// ticks1 is Ticks with a step of at least least (1 for an axis of whole
// numbers: no tick between two plies).
func ticks1(lo, hi float64, n int, least float64) (ticks []float64, step float64) {
	if hi < lo {
		lo, hi = hi, lo
	}
	step = math.Max(least, niceStep(hi-lo, n))
	a, b := math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if a == b {
		b = a + step
	}
	for k := 0; ; k++ {
		v := a + float64(k)*step
		if v > b+step/2 {
			break
		}
		ticks = append(ticks, clean(v))
	}
	return ticks, step
}

// niceStep returns 1, 2, 2.5 or 5 times a power of ten that cuts span into
// at most n parts.
func niceStep(span float64, n int) float64 {
	if n < 1 {
		n = 1
	}
	if span <= 0 || math.IsNaN(span) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// clean drops the float noise of a tick (0.30000000000000004).
func clean(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if r == 0 {
		return 0 // not -0
	}
	return r
}

func number(v float64) string { return strconv.FormatFloat(clean(v), 'f', -1, 64) }

// f writes a coordinate with one decimal.
func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

var esc = template.HTMLEscapeString

func (c *Line) size() (w, h float64) {
	w, h = c.Width, c.Height
	if w <= 0 {
		w = defaultW
	}
	if h <= 0 {
		h = defaultH
	}
	return w, h
}

// SVG draws the chart. A chart without a point draws its axes alone.
func (c *Line) SVG() template.HTML {
	fr := c.frame()
	var b strings.Builder
	open(&b, c.ID, "chart chart-line "+c.Class, fr.w, fr.h, c.Title, c.Desc, fr.links)
	fr.axes(&b)
	if c.Zero && fr.ymin < 0 && fr.ymax > 0 {
		fmt.Fprintf(&b, `<line class="zero" x1="%s" y1="%s" x2="%s" y2="%s" aria-hidden="true"/>`, f(padLeft), f(fr.Y(0)), f(fr.w-padRight), f(fr.Y(0)))
	}
	legend := padLeft
	for i, s := range c.Series {
		fr.series(&b, i, s, &legend)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// lineFrame is where a line chart draws: its size, the plot's place and
// ranges, and the axes' ticks.
type lineFrame struct {
	w, h, top, pw, ph      float64
	xmin, xmax, ymin, ymax float64
	xt, yt                 []Tick
	links                  bool // a point is a link
}

// X and Y place a value in the plot (Y within the range).
func (fr *lineFrame) X(v float64) float64 { return padLeft + fr.pw*(v-fr.xmin)/(fr.xmax-fr.xmin) }
func (fr *lineFrame) Y(v float64) float64 {
	v = math.Max(fr.ymin, math.Min(fr.ymax, v))
	return fr.top + fr.ph*(fr.ymax-v)/(fr.ymax-fr.ymin)
}

// frame measures c: the points' ranges (or the fixed ones), the ticks,
// and the room the legend and the ticks' second lines take.
func (c *Line) frame() *lineFrame {
	fr := &lineFrame{}
	fr.w, fr.h = c.size()
	xmin, xmax, ymin, ymax, whole, links := c.extent()
	fr.links = links
	if c.FixX {
		xmin, xmax = c.XMin, c.XMax
	}
	if c.Zero && !c.FixY {
		ymin, ymax = math.Min(ymin, 0), math.Max(ymax, 0)
	}
	yt := c.YTicks
	if c.FixY {
		ymin, ymax = c.YMin, c.YMax
		if yt == nil {
			vs, _ := Ticks(ymin, ymax, 4)
			yt = labelled(vs, c.YFormat)
		}
	} else if yt == nil {
		vs, _ := Ticks(ymin, ymax, 4)
		yt = labelled(vs, c.YFormat)
		ymin, ymax = vs[0], vs[len(vs)-1]
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	xt := c.XTicks
	if xt == nil {
		vs, _ := ticks1(xmin, xmax, 6, whole)
		var in []float64
		for _, v := range vs {
			if v >= xmin && v <= xmax {
				in = append(in, v)
			}
		}
		xt = labelled(in, c.XFormat)
	}
	if xmax <= xmin {
		xmin, xmax = xmin-1, xmax+1
	}
	fr.xmin, fr.xmax, fr.ymin, fr.ymax, fr.xt, fr.yt = xmin, xmax, ymin, ymax, xt, yt
	fr.top = padTop
	if slices.ContainsFunc(c.Series, func(s Series) bool { return s.Name != "" }) {
		fr.top += legendH
	}
	bottom := padBottom
	if slices.ContainsFunc(xt, func(t Tick) bool { return t.Sub != "" }) {
		bottom += 12
	}
	fr.pw, fr.ph = fr.w-padLeft-padRight, fr.h-fr.top-bottom
	return fr
}

// extent returns the points' ranges ([0, 1] each without a point),
// whether every x is whole (1) or not (0), and whether a point is a link.
func (c *Line) extent() (xmin, xmax, ymin, ymax, whole float64, links bool) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	whole = 1.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.X != math.Trunc(p.X) {
				whole = 0
			}
			xmin, xmax = math.Min(xmin, p.X), math.Max(xmax, p.X)
			ymin, ymax = math.Min(ymin, p.Y), math.Max(ymax, p.Y)
			links = links || p.Href != ""
		}
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax, ymin, ymax = 0, 1, 0, 1
	}
	return xmin, xmax, ymin, ymax, whole, links
}

// axes draws the grid, the value axis' labels, the base line and the
// x axis' ticks and labels.
func (fr *lineFrame) axes(b *strings.Builder) {
	b.WriteString(`<g class="axis" aria-hidden="true">`)
	for _, t := range fr.yt {
		if t.At < fr.ymin || t.At > fr.ymax {
			continue
		}
		y := f(fr.Y(t.At))
		fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(padLeft), y, f(fr.w-padRight), y)
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end">%s</text>`, f(padLeft-4), f(fr.Y(t.At)+3.5), esc(t.Label))
	}
	base := f(fr.top + fr.ph)
	fmt.Fprintf(b, `<line class="base" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(padLeft), base, f(fr.w-padRight), base)
	for _, t := range fr.xt {
		if t.At < fr.xmin || t.At > fr.xmax {
			continue
		}
		x := f(fr.X(t.At))
		fmt.Fprintf(b, `<line class="tick" x1="%s" y1="%s" x2="%s" y2="%s"/>`, x, base, x, f(fr.top+fr.ph+4))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, x, f(fr.top+fr.ph+15), esc(t.Label))
		if t.Sub != "" {
			fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, x, f(fr.top+fr.ph+27), esc(t.Sub))
		}
	}
	b.WriteString(`</g>`)
}

// series draws series i: its key in the legend (at *legend, moved past
// it), its line (and area) and its points.
func (fr *lineFrame) series(b *strings.Builder, i int, s Series, legend *float64) {
	cls := s.Class
	if cls == "" {
		cls = "s" + strconv.Itoa(i%6)
	}
	fmt.Fprintf(b, `<g class="series %s">`, esc(cls))
	if s.Name != "" {
		no := ""
		if s.NameData {
			no = ` translate="no"`
		}
		fmt.Fprintf(b, `<rect class="key" x="%s" y="%s" width="10" height="10" aria-hidden="true"/><text x="%s" y="%s"%s>%s</text>`,
			f(*legend), f(padTop), f(*legend+13), f(padTop+9), no, esc(s.Name))
		*legend += 13 + 6.5*float64(len([]rune(s.Name))) + 12
	}
	if len(s.Points) > 0 {
		var pts strings.Builder
		for k, p := range s.Points {
			if k > 0 {
				pts.WriteByte(' ')
				if s.Step {
					fmt.Fprintf(&pts, "%s,%s ", f(fr.X(p.X)), f(fr.Y(s.Points[k-1].Y)))
				}
			}
			fmt.Fprintf(&pts, "%s,%s", f(fr.X(p.X)), f(fr.Y(p.Y)))
		}
		if s.Area {
			edge := math.Max(fr.ymin, math.Min(fr.ymax, 0))
			fmt.Fprintf(b, `<polygon class="area" points="%s,%s %s %s,%s" aria-hidden="true"/>`,
				f(fr.X(s.Points[0].X)), f(fr.Y(edge)), pts.String(), f(fr.X(s.Points[len(s.Points)-1].X)), f(fr.Y(edge)))
		}
		fmt.Fprintf(b, `<polyline class="line" points="%s" aria-hidden="true"/>`, pts.String())
	}
	for _, p := range s.Points {
		point(b, p, fr.X(p.X), fr.Y(p.Y), s.Dots)
	}
	b.WriteString(`</g>`)
}

// point draws one point: a dot when asked, a larger transparent target
// when it is a link (a finger finds it on a phone).
func point(b *strings.Builder, p Point, x, y float64, dots bool) {
	dot := dots || p.Class != ""
	if !dot && p.Href == "" {
		return
	}
	if p.Href != "" {
		fmt.Fprintf(b, `<a class="point" href="%s"`, esc(p.Href))
		if p.Data {
			b.WriteString(` translate="no"`)
		}
		if p.Key != "" {
			fmt.Fprintf(b, ` data-key="%s"`, esc(p.Key))
		}
		if p.Label != "" {
			fmt.Fprintf(b, ` aria-label="%s"`, esc(p.Label))
		}
		b.WriteString(`>`)
		if p.Label != "" {
			fmt.Fprintf(b, `<title>%s</title>`, esc(p.Label))
		}
		fmt.Fprintf(b, `<circle class="hit" cx="%s" cy="%s" r="6"/>`, f(x), f(y))
	}
	if dot {
		cls := "dot"
		if p.Class != "" {
			cls += " " + p.Class
		}
		fmt.Fprintf(b, `<circle class="%s" cx="%s" cy="%s" r="3">`, esc(cls), f(x), f(y))
		if p.Href == "" && p.Label != "" {
			fmt.Fprintf(b, `<title>%s</title>`, esc(p.Label))
		}
		b.WriteString(`</circle>`)
	}
	if p.Href != "" {
		b.WriteString(`</a>`)
	}
}

func labelled(vs []float64, format func(float64) string) []Tick {
	if format == nil {
		format = number
	}
	ts := make([]Tick, len(vs))
	for i, v := range vs {
		ts[i] = Tick{At: v, Label: format(v)}
	}
	return ts
}

// open writes the svg element with its text alternative.
func open(b *strings.Builder, id, class string, w, h float64, title, desc string, links bool) {
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg"`)
	if id != "" {
		fmt.Fprintf(b, ` id="%s"`, esc(id))
	}
	role := "img"
	if links {
		role = "group"
	}
	fmt.Fprintf(b, ` class="%s" viewBox="0 0 %s %s" width="100%%" role="%s" aria-label="%s">`,
		esc(strings.TrimSpace(class)), number(w), number(h), role, esc(title))
	fmt.Fprintf(b, `<title>%s</title>`, esc(title))
	if desc != "" {
		fmt.Fprintf(b, `<desc>%s</desc>`, esc(desc))
	}
}

// SVG draws the bar chart: the bars side by side from the left, the value
// axis from 0 with a few round ticks, and as many of the bars' labels as
// fit under them.
func (c *Bars) SVG() template.HTML {
	w, h := c.Width, c.Height
	if w <= 0 {
		w = defaultW
	}
	if h <= 0 {
		h = defaultH
	}
	top := padTop
	pw, ph := w-padLeft-padRight, h-top-padBottom
	hi := 0.0
	links := false
	for _, bar := range c.Bars {
		hi = math.Max(hi, bar.Value)
		links = links || bar.Href != ""
	}
	if c.Horizontal {
		if c.Width <= 0 {
			w = rowsW
		}
		return c.horizontal(w, hi, links)
	}
	vs, _ := Ticks(0, math.Max(hi, 1), 4)
	if hi < 1 {
		vs = []float64{0, 1}
	}
	if c.Max > 0 {
		vs, _ = Ticks(0, c.Max, 4)
	}
	ymax := vs[len(vs)-1]
	Y := func(v float64) float64 { return top + ph*(ymax-math.Max(0, v))/ymax }
	var b strings.Builder
	open(&b, c.ID, "chart chart-bars "+c.Class, w, h, c.Title, c.Desc, links)
	b.WriteString(`<g class="axis" aria-hidden="true">`)
	for _, t := range labelled(vs, c.YFormat) {
		y := f(Y(t.At))
		fmt.Fprintf(&b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(padLeft), y, f(w-padRight), y)
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end">%s</text>`, f(padLeft-4), f(Y(t.At)+3.5), esc(t.Label))
	}
	base := f(top + ph)
	fmt.Fprintf(&b, `<line class="base" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(padLeft), base, f(w-padRight), base)
	n := len(c.Bars)
	if n == 0 {
		b.WriteString(`</g></svg>`)
		return template.HTML(b.String())
	}
	slot := pw / float64(n)
	c.labels(&b, slot, top+ph+15)
	b.WriteString(`</g>`)
	gap := math.Min(2, slot*.15)
	for i, bar := range c.Bars {
		x, y := padLeft+slot*float64(i)+gap/2, Y(bar.Value)
		drawBar(&b, bar, x, y, slot-gap, top+ph-y)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// labels writes the bars' labels at y, every k-th one at about 6.5
// units a letter, so that they do not run into each other; under the
// bars' middles, or their left edges (Edges).
func (c *Bars) labels(b *strings.Builder, slot, y float64) {
	longest := 1
	for _, bar := range c.Bars {
		longest = max(longest, len([]rune(bar.Label)))
	}
	every := max(1, int(math.Ceil((6.0*float64(longest)+6)/slot)))
	for i, bar := range c.Bars {
		if i%every != 0 || bar.Label == "" {
			continue
		}
		x := padLeft + slot*(float64(i)+.5)
		if c.Edges {
			x = padLeft + slot*float64(i)
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`, f(x), f(y), esc(bar.Label))
	}
}

// drawBar draws one bar at x, y of width and height, a link when it has
// one.
func drawBar(b *strings.Builder, bar Bar, x, y, width, height float64) {
	if bar.Href != "" {
		fmt.Fprintf(b, `<a href="%s"`, esc(bar.Href))
		if bar.Title != "" {
			fmt.Fprintf(b, ` aria-label="%s"`, esc(bar.Title))
		}
		b.WriteString(`>`)
	}
	cls := "bar"
	if bar.Class != "" {
		cls += " " + bar.Class
	}
	fmt.Fprintf(b, `<rect class="%s" x="%s" y="%s" width="%s" height="%s">`, esc(cls), f(x), f(y), f(width), f(height))
	if bar.Title != "" {
		fmt.Fprintf(b, `<title>%s</title>`, esc(bar.Title))
	}
	b.WriteString(`</rect>`)
	if bar.Href != "" {
		b.WriteString(`</a>`)
	}
}

// The rows of a horizontal bar chart.
const (
	rowsW   = 280.0 // the default width: narrower, so its text reads larger
	rowH    = 22.0
	valueW  = 40.0 // room for a value after the longest bar
	barFill = 0.7  // of a row's height
)

// horizontal draws c as rows, one bar each, from its label on the left.
func (c *Bars) horizontal(w, hi float64, links bool) template.HTML {
	top := math.Max(hi, 1)
	if c.Max > 0 {
		top = c.Max
	}
	format := c.YFormat
	if format == nil {
		format = number
	}
	h := padTop*2 + rowH*float64(len(c.Bars))
	// Room for the longest name (about 6.2 units a letter at 10 px, wide
	// Cyrillic included), at most half the width.
	longest := 0
	for _, bar := range c.Bars {
		longest = max(longest, len([]rune(bar.Label)))
	}
	labelW := math.Min(w/2, 6.2*float64(longest)+12)
	var b strings.Builder
	open(&b, c.ID, "chart chart-bars chart-rows "+c.Class, w, h, c.Title, c.Desc, links)
	pw := w - labelW - valueW - padRight
	fmt.Fprintf(&b, `<line class="base" x1="%s" y1="%s" x2="%s" y2="%s" aria-hidden="true"/>`, f(labelW), f(padTop), f(labelW), f(h-padTop))
	for i, bar := range c.Bars {
		y := padTop + rowH*float64(i)
		fmt.Fprintf(&b, `<text x="%s" y="%s" text-anchor="end" aria-hidden="true">%s</text>`, f(labelW-6), f(y+rowH/2+3.5), esc(bar.Label))
		if bar.Href != "" {
			fmt.Fprintf(&b, `<a href="%s"`, esc(bar.Href))
			if bar.Title != "" {
				fmt.Fprintf(&b, ` aria-label="%s"`, esc(bar.Title))
			}
			b.WriteString(`>`)
		}
		cls := "bar"
		if bar.Class != "" {
			cls += " " + bar.Class
		}
		bw := pw * math.Max(0, math.Min(bar.Value, top)) / top
		fmt.Fprintf(&b, `<rect class="%s" x="%s" y="%s" width="%s" height="%s">`, esc(cls), f(labelW), f(y+rowH*(1-barFill)/2), f(bw), f(rowH*barFill))
		if bar.Title != "" {
			fmt.Fprintf(&b, `<title>%s</title>`, esc(bar.Title))
		}
		b.WriteString(`</rect>`)
		if bar.Href != "" {
			b.WriteString(`</a>`)
		}
		text := bar.Text
		if text == "" {
			text = format(bar.Value)
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s" aria-hidden="true">%s</text>`, f(labelW+bw+4), f(y+rowH/2+3.5), esc(text))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}
