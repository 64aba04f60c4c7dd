package sections

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"codeberg.org/go-pdf/fpdf"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/papers"
	"github.com/toguz/toguz/internal/tournament"
)

// Paper is one of the papers a championship prints.
type Paper string

// The papers.
const (
	Pairings     Paper = "pairings"     // a section's round: boards, names, results
	Standings    Paper = "standings"    // a section's standings with tie-breaks
	CrossTable   Paper = "crosstable"   // a section's cross table
	ScoreSheets  Paper = "scoresheets"  // a score sheet for every board of a round
	Certificates Paper = "certificates" // the places of a section
	RatingReport Paper = "report"       // a discipline's rated games for the federation
	NormsPaper   Paper = "norms"        // the ranks' norms the players earned
)

// Papers lists the papers of a section, in the desk's order.
var Papers = []Paper{Pairings, Standings, CrossTable, ScoreSheets, Certificates}

// PaperRequest says what to print: Section and Round for a section's
// papers (Round 0: the current one), Discipline for the report, Places
// for the certificates (0: 3).
type PaperRequest struct {
	Paper      Paper
	Section    string
	Round      int
	Discipline federation.Discipline
	Places     int
	// Earned is what the norms' paper prints (Desk.Earned).
	Earned []EarnedOf
}

// printer writes one paper in one language.
type printer struct {
	c    *Championship
	cat  *i18n.Catalog
	lang string
	d    *fpdf.Fpdf
}

func (p *printer) t(key string, args ...any) string { return p.cat.T(p.lang, key, args...) }

// WritePaper writes the paper req asks for as a PDF in lang.
func (c *Championship) WritePaper(w io.Writer, cat *i18n.Catalog, lang string, req PaperRequest) error {
	p := &printer{c: c, cat: cat, lang: lang}
	var s *Section
	if req.Paper != RatingReport && req.Paper != NormsPaper {
		if s = c.Section(req.Section); s == nil {
			return bad("sections.err_no_such_section", req.Section)
		}
		if req.Round <= 0 || req.Round > s.Round() {
			req.Round = s.Round()
		}
		if req.Round == 0 && (req.Paper == Pairings || req.Paper == ScoreSheets) {
			return conflict("sections.err_no_round", s.Name)
		}
	}
	o := papers.Portrait
	if req.Paper == CrossTable || req.Paper == Certificates {
		o = papers.Landscape
	}
	d, err := papers.New(o, c.Settings.Name)
	if err != nil {
		return err
	}
	p.d = d
	d.SetMargins(12, 12, 12)
	d.SetAutoPageBreak(true, 14)
	d.SetFooterFunc(func() {
		d.SetY(-10)
		d.SetFont(papers.Font, "", 7)
		d.CellFormat(0, 4, c.Settings.Name+" · "+strconv.Itoa(d.PageNo()), "", 0, "C", false, 0, "")
	})
	switch req.Paper {
	case Pairings:
		p.pairings(s, req.Round)
	case Standings:
		p.standings(s)
	case CrossTable:
		p.crossTable(s)
	case ScoreSheets:
		p.scoreSheets(s, req.Round)
	case Certificates:
		places := req.Places
		if places <= 0 || places > 10 {
			places = 3
		}
		p.certificates(s, places)
	case RatingReport:
		if !contains(c.Disciplines(), req.Discipline) {
			return bad("sections.err_discipline", string(req.Discipline))
		}
		p.report(req.Discipline)
	case NormsPaper:
		p.norms(req.Earned)
	default:
		return notFound(string(req.Paper))
	}
	return papers.Write(w, d)
}

func contains[T comparable](s []T, v T) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// head writes a page's heading: the championship, then the paper's title.
func (p *printer) head(title, sub string) {
	d := p.d
	d.AddPage()
	d.SetFont(papers.Font, "B", 13)
	d.CellFormat(0, 6, p.c.Settings.Name, "", 1, "C", false, 0, "")
	d.SetFont(papers.Font, "", 9)
	where := strings.TrimSpace(strings.Join(nonEmpty(p.c.Settings.City, p.dates()), " · "))
	if where != "" {
		d.CellFormat(0, 5, where, "", 1, "C", false, 0, "")
	}
	d.SetFont(papers.Font, "B", 11)
	d.CellFormat(0, 7, title, "", 1, "C", false, 0, "")
	if sub != "" {
		d.SetFont(papers.Font, "", 9)
		d.CellFormat(0, 5, sub, "", 1, "C", false, 0, "")
	}
	d.Ln(2)
	d.SetFont(papers.Font, "", 9)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

func (p *printer) dates() string {
	if p.c.Settings.End != "" && p.c.Settings.End != p.c.Settings.Start {
		return p.c.Settings.Start + " – " + p.c.Settings.End
	}
	return p.c.Settings.Start
}

// sectionLine names a section with its discipline and time control.
func (p *printer) sectionLine(s *Section) string {
	return strings.Join(nonEmpty(s.Name, p.t("sections.disc_"+string(s.Discipline)), s.TC), " · ")
}

// row writes one table row; widths in mm, aligns "L", "C" or "R".
func (p *printer) row(widths []float64, aligns string, cells []string, bold, fill bool) {
	d := p.d
	style, size := "", 8.0
	if bold {
		style, size = "B", 6.5
	}
	d.SetFont(papers.Font, style, size)
	if fill {
		d.SetFillColor(230, 230, 230)
	}
	for i, w := range widths {
		txt := cells[i]
		// A name too long for its column is cut, not wrapped.
		for d.GetStringWidth(txt) > w-1.5 && len([]rune(txt)) > 1 {
			r := []rune(txt)
			txt = string(r[:len(r)-1])
		}
		d.CellFormat(w, 5.5, txt, "1", 0, string(aligns[i]), fill, 0, "")
	}
	d.Ln(-1)
}

func (p *printer) name(s *Section, start int) string {
	return p.c.Name(s.ID(start), p.lang)
}

func points(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if s == "0.5" {
		return "½"
	}
	return strings.Replace(s, ".5", "½", 1)
}

func (p *printer) pairings(s *Section, r int) {
	p.head(p.t("sections.paper_pairings_round", r), p.sectionLine(s))
	e := s.Event
	widths := []float64{12, 10, 56, 12, 10, 16, 10, 56, 12}
	p.row(widths, "CCLRCCCLR", []string{p.t("sections.col_board"), p.t("sections.col_no"), p.t("sections.col_white"), p.t("sections.col_rating"),
		p.t("sections.col_pts"), p.t("sections.col_result"), p.t("sections.col_pts"), p.t("sections.col_black"), p.t("sections.col_rating")}, true, true)
	for _, b := range s.Boards(r) {
		w := e.Player(b.White)
		cells := []string{strconv.Itoa(b.N), strconv.Itoa(b.White), p.name(s, b.White), rating(w.Rating), points(e.Score(w, r-1))}
		if b.Black == 0 {
			cells = append(cells, "", "", p.t("sections.bye"), "")
		} else {
			bl := e.Player(b.Black)
			cells = append(cells, resultText(b.Result), points(e.Score(bl, r-1)), p.name(s, b.Black)+" ("+strconv.Itoa(b.Black)+")", rating(bl.Rating))
		}
		p.row(widths, "CCLRCCCLR", cells, false, false)
	}
	// Those not paired: a bye they asked for, a withdrawal.
	var out []string
	for i := range e.Players {
		pl := &e.Players[i]
		en := pl.Entry(r)
		if en.Opponent == 0 && en.Code != tournament.PairingBye && !en.None() {
			out = append(out, fmt.Sprintf("%s (%d): %s", p.name(s, pl.Start), pl.Start, p.t(byeKey(en.Code))))
		}
	}
	if len(out) > 0 {
		p.d.Ln(3)
		p.d.SetFont(papers.Font, "B", 9)
		p.d.CellFormat(0, 5, p.t("sections.not_paired"), "", 1, "L", false, 0, "")
		p.d.SetFont(papers.Font, "", 8)
		for _, l := range out {
			p.d.CellFormat(0, 4.5, l, "", 1, "L", false, 0, "")
		}
	}
}

func byeKey(c tournament.Code) string {
	switch c {
	case tournament.HalfBye:
		return "sections.bye_half"
	case tournament.ZeroBye:
		return "sections.bye_zero"
	case tournament.FullBye:
		return "sections.bye_full"
	}
	return "sections.absent"
}

func rating(r int) string {
	if r == 0 {
		return ""
	}
	return strconv.Itoa(r)
}

// resultText is a board's result as the papers print it.
func resultText(res string) string {
	switch tournament.Result(res) {
	case tournament.WhiteWins:
		return "1 – 0"
	case tournament.BlackWins:
		return "0 – 1"
	case tournament.Drawn:
		return "½ – ½"
	case tournament.WhiteForfeit:
		return "+ – −"
	case tournament.BlackForfeit:
		return "− – +"
	case tournament.DoubleForfeit:
		return "− – −"
	}
	return ""
}

// StandingRow is one line of a section's standings for the page and the
// papers.
type StandingRow struct {
	Rank, Start int
	ID, Name    string
	Fed, Club   string
	Rating      int
	Points      string
	Values      []string
}

// StandingRows returns s's standings after its rounds so far, names in
// lang.
func (c *Championship) StandingRows(s *Section, lang string) ([]string, []StandingRow) {
	e := s.Event
	var tbs []string
	for _, k := range e.TieBreaks {
		tbs = append(tbs, k.String())
	}
	var out []StandingRow
	for _, st := range e.Standings(-1) {
		id := s.ID(st.Player.Start)
		reg := c.Players[id]
		row := StandingRow{Rank: st.Rank, Start: st.Player.Start, ID: id, Name: c.Name(id, lang), Fed: reg.Federation, Club: reg.Club,
			Rating: st.Player.Rating, Points: points(st.Points)}
		for j, k := range e.TieBreaks {
			row.Values = append(row.Values, tournament.ValueText(k, st.Values[j]))
		}
		out = append(out, row)
	}
	return tbs, out
}

func (p *printer) standings(s *Section) {
	p.head(p.t("sections.paper_standings_after", s.Round()), p.sectionLine(s))
	tbs, rows := p.c.StandingRows(s, p.lang)
	widths := []float64{10, 10, 58, 22, 13, 13}
	head := []string{p.t("sections.col_rank"), p.t("sections.col_no"), p.t("sections.col_name"), p.t("sections.col_club"), p.t("sections.col_rating"), p.t("sections.col_pts")}
	aligns := "CCLLRC"
	for _, k := range tbs {
		widths = append(widths, 60/float64(max(len(tbs), 4)))
		head = append(head, k)
		aligns += "R"
	}
	p.row(widths, aligns, head, true, true)
	for _, r := range rows {
		cells := []string{strconv.Itoa(r.Rank), strconv.Itoa(r.Start), r.Name, strings.Join(nonEmpty(r.Fed, r.Club), " "), rating(r.Rating), r.Points}
		cells = append(cells, r.Values...)
		p.row(widths, aligns, cells, false, false)
	}
}

// CrossCell is one round of one player in the cross table: the
// opponent's rank, the colour and the result ("12w1", "–", "+").
func crossCell(e *tournament.Event, en tournament.Entry, rankOf map[int]int) string {
	if en.None() {
		return ""
	}
	res := map[tournament.Code]string{tournament.Win: "1", tournament.Loss: "0", tournament.Draw: "½", tournament.ForfeitWin: "+",
		tournament.ForfeitLoss: "−", tournament.PairingBye: "+", tournament.HalfBye: "½", tournament.FullBye: "1", tournament.ZeroBye: "0",
		tournament.Pending: "*"}[en.Code]
	if en.Opponent == 0 {
		return "– " + res
	}
	col := "w"
	if en.Colour == tournament.Black {
		col = "b"
	}
	return fmt.Sprintf("%d%s%s", rankOf[en.Opponent], col, res)
}

// CrossRows returns the cross table of s: a line per player in the
// standings' order, each round's opponent by his rank.
func (c *Championship) CrossRows(s *Section, lang string) []StandingRow {
	_, rows := c.StandingRows(s, lang)
	rankOf := map[int]int{}
	for i, r := range rows {
		rankOf[r.Start] = i + 1
	}
	for i := range rows {
		pl := s.Event.Player(rows[i].Start)
		var cells []string
		for r := 1; r <= s.Round(); r++ {
			cells = append(cells, crossCell(s.Event, pl.Entry(r), rankOf))
		}
		rows[i].Values = cells
	}
	return rows
}

func (p *printer) crossTable(s *Section) {
	p.head(p.t("sections.paper_crosstable"), p.sectionLine(s))
	rows := p.c.CrossRows(s, p.lang)
	n := s.Round()
	cw := min(14.0, 150/float64(max(n, 1)))
	widths := []float64{12, 52, 16}
	head := []string{p.t("sections.col_rank"), p.t("sections.col_name"), p.t("sections.col_rating")}
	aligns := "CLR"
	for r := 1; r <= n; r++ {
		widths = append(widths, cw)
		head = append(head, strconv.Itoa(r))
		aligns += "C"
	}
	widths = append(widths, 12)
	head = append(head, p.t("sections.col_pts"))
	aligns += "C"
	p.row(widths, aligns, head, true, true)
	for i, r := range rows {
		cells := append([]string{strconv.Itoa(i + 1), r.Name, rating(r.Rating)}, r.Values...)
		cells = append(cells, r.Points)
		p.row(widths, aligns, cells, false, false)
	}
	p.d.Ln(2)
	p.d.SetFont(papers.Font, "", 7)
	p.d.MultiCell(0, 4, p.t("sections.crosstable_legend"), "", "L", false)
}

// scoreSheets prints one sheet per board: the heads, the move pairs in
// the federations' notation (a ply is the hole played and the hole where
// the last stone fell, X when it made a tuzdik), two board diagrams to
// write positions in, the result and the signatures.
func (p *printer) scoreSheets(s *Section, r int) {
	d := p.d
	for _, b := range s.Boards(r) {
		if b.Black == 0 {
			continue
		}
		p.head(p.t("sections.paper_scoresheet"), p.sectionLine(s))
		e := s.Event
		d.SetFont(papers.Font, "", 9)
		line := func(label, value string) {
			d.SetFont(papers.Font, "", 8)
			d.CellFormat(28, 6, label, "B", 0, "L", false, 0, "")
			d.SetFont(papers.Font, "B", 10)
			d.CellFormat(65, 6, value, "B", 0, "L", false, 0, "")
		}
		line(p.t("sections.col_round"), strconv.Itoa(r))
		line(p.t("sections.col_board"), strconv.Itoa(b.N))
		d.Ln(7)
		line(p.t("sections.col_white"), p.name(s, b.White))
		line(p.t("sections.col_black"), p.name(s, b.Black))
		d.Ln(7)
		line(p.t("sections.col_id"), s.ID(b.White)+"  "+rating(e.Player(b.White).Rating))
		line(p.t("sections.col_id"), s.ID(b.Black)+"  "+rating(e.Player(b.Black).Rating))
		d.Ln(9)
		d.SetFont(papers.Font, "", 7)
		d.MultiCell(0, 3.5, p.t("sections.scoresheet_notation"), "", "L", false)
		d.Ln(1)
		// Three columns of 30 move pairs: 90 moves, longer than most games.
		const rows, cols = 30, 3
		x0, y0 := d.GetX(), d.GetY()
		colW := (210.0 - 24) / cols
		for col := range cols {
			x := x0 + float64(col)*colW
			d.SetXY(x, y0)
			d.SetFont(papers.Font, "B", 7)
			d.SetFillColor(230, 230, 230)
			d.CellFormat(10, 5, "№", "1", 0, "C", true, 0, "")
			d.CellFormat((colW-12)/2, 5, p.t("sections.col_white"), "1", 0, "C", true, 0, "")
			d.CellFormat((colW-12)/2, 5, p.t("sections.col_black"), "1", 1, "C", true, 0, "")
			d.SetFont(papers.Font, "", 7)
			for i := range rows {
				d.SetX(x)
				d.CellFormat(10, 4.6, strconv.Itoa(col*rows+i+1), "1", 0, "C", false, 0, "")
				d.CellFormat((colW-12)/2, 4.6, "", "1", 0, "C", false, 0, "")
				d.CellFormat((colW-12)/2, 4.6, "", "1", 1, "C", false, 0, "")
			}
		}
		d.Ln(3)
		// Two diagrams: Black's holes 9…1 above, White's 1…9 below, the
		// kazans beside, as the federations' forms draw them.
		y := d.GetY()
		for k := range 2 {
			p.diagram(x0+float64(k)*95, y)
		}
		d.SetXY(x0, y+24)
		d.SetFont(papers.Font, "", 9)
		d.CellFormat(40, 7, p.t("sections.col_result"), "B", 0, "L", false, 0, "")
		d.CellFormat(40, 7, "", "B", 1, "L", false, 0, "")
		d.Ln(4)
		for _, who := range []string{p.t("sections.col_white"), p.t("sections.col_black"), p.t("sections.arbiter")} {
			d.CellFormat(20, 7, who, "", 0, "L", false, 0, "")
			d.CellFormat(40, 7, "", "B", 0, "L", false, 0, "")
			d.CellFormat(2, 7, "", "", 0, "L", false, 0, "")
		}
		d.Ln(-1)
	}
}

// diagram draws an empty position diagram at x, y: 2 rows of 9 cells
// with their hole numbers and a kazan cell for each side.
func (p *printer) diagram(x, y float64) {
	d := p.d
	const cw, ch = 8.0, 7.0
	d.SetFont(papers.Font, "", 6)
	for i := range 9 {
		// Black's row reads 9 to 1 from the left, White's 1 to 9.
		d.SetXY(x+float64(i)*cw, y)
		d.CellFormat(cw, 3, strconv.Itoa(9-i), "", 0, "C", false, 0, "")
		d.Rect(x+float64(i)*cw, y+3, cw, ch, "D")
		d.Rect(x+float64(i)*cw, y+3+ch, cw, ch, "D")
		d.SetXY(x+float64(i)*cw, y+3+2*ch)
		d.CellFormat(cw, 3, strconv.Itoa(i+1), "", 0, "C", false, 0, "")
	}
	d.SetFillColor(220, 220, 220)
	d.Rect(x+9*cw+1, y+3, 12, ch, "FD")
	d.Rect(x+9*cw+1, y+3+ch, 12, ch, "FD")
}

func (p *printer) certificates(s *Section, places int) {
	d := p.d
	_, rows := p.c.StandingRows(s, p.lang)
	for _, r := range rows {
		if r.Rank > places {
			break
		}
		d.AddPage()
		d.SetDrawColor(120, 90, 30)
		d.SetLineWidth(1.2)
		d.Rect(10, 10, 277, 190, "D")
		d.SetLineWidth(0.3)
		d.Rect(14, 14, 269, 182, "D")
		d.SetDrawColor(0, 0, 0)
		d.SetY(32)
		d.SetFont(papers.Font, "B", 30)
		d.CellFormat(0, 14, p.t("sections.certificate"), "", 1, "C", false, 0, "")
		d.Ln(6)
		d.SetFont(papers.Font, "", 13)
		d.CellFormat(0, 8, p.t("sections.certificate_awarded"), "", 1, "C", false, 0, "")
		d.SetFont(papers.Font, "B", 24)
		d.CellFormat(0, 14, r.Name, "", 1, "C", false, 0, "")
		d.SetFont(papers.Font, "", 11)
		d.CellFormat(0, 6, strings.Join(nonEmpty(r.ID, r.Fed, r.Club), " · "), "", 1, "C", false, 0, "")
		d.Ln(6)
		d.SetFont(papers.Font, "B", 18)
		d.CellFormat(0, 10, p.t("sections.certificate_place", r.Rank, s.Name), "", 1, "C", false, 0, "")
		d.SetFont(papers.Font, "", 12)
		d.CellFormat(0, 7, p.t("sections.disc_"+string(s.Discipline))+" · "+p.t("sections.certificate_points", r.Points), "", 1, "C", false, 0, "")
		d.Ln(4)
		d.SetFont(papers.Font, "B", 14)
		d.CellFormat(0, 8, p.c.Settings.Name, "", 1, "C", false, 0, "")
		d.SetFont(papers.Font, "", 11)
		d.CellFormat(0, 6, strings.Join(nonEmpty(p.c.Settings.City, p.dates()), " · "), "", 1, "C", false, 0, "")
		d.SetXY(40, 170)
		d.CellFormat(90, 6, p.t("sections.chief_arbiter"), "T", 0, "C", false, 0, "")
		d.SetX(167)
		d.CellFormat(90, 6, p.c.Settings.ChiefArbiter, "T", 0, "C", false, 0, "")
	}
	if d.PageNo() == 0 {
		p.head(p.t("sections.certificate"), p.sectionLine(s))
		d.CellFormat(0, 6, p.t("sections.no_standings"), "", 1, "C", false, 0, "")
	}
}

// report prints the rating report of discipline disc: the event, its
// sections, each player's rated games, points, the opponents' average
// and the change FIDE's formulas give (the register computes the list
// itself from the games), then the games.
func (p *printer) report(disc federation.Discipline) {
	rep := p.c.Report(disc, p.c.Creator, p.c.Submitted[disc])
	p.head(p.t("sections.paper_report"), p.t("sections.report_sub", p.t("sections.disc_"+string(disc)), p.c.Settings.Federation))
	d := p.d
	d.SetFont(papers.Font, "", 8)
	games, forfeits := 0, 0
	for _, g := range rep.Games {
		if g.Forfeit {
			forfeits++
		} else {
			games++
		}
	}
	d.MultiCell(0, 4.5, p.t("sections.report_counts", games, forfeits, p.c.Settings.ChiefArbiter), "", "L", false)
	if t, ok := p.c.Submitted[disc]; ok {
		d.CellFormat(0, 4.5, p.t("sections.report_submitted", t.Format("2006-01-02 15:04 UTC")), "", 1, "L", false, 0, "")
	}
	d.Ln(2)
	widths := []float64{24, 52, 12, 13, 14, 14, 12, 16, 10, 12}
	aligns := "LLCRRRRRRR"
	head := []string{p.t("sections.col_id"), p.t("sections.col_name"), p.t("sections.col_fed"), p.t("sections.col_birth"), p.t("sections.col_rating"),
		p.t("sections.col_games"), p.t("sections.col_pts"), p.t("sections.col_aro"), "K", "ΔR"}
	for _, s := range p.c.Sections {
		if s.Discipline != disc {
			continue
		}
		d.SetFont(papers.Font, "B", 10)
		d.CellFormat(0, 7, p.sectionLine(s), "", 1, "L", false, 0, "")
		p.row(widths, aligns, head, true, true)
		for _, ch := range s.Event.RatingChanges(nil) {
			id := s.ID(ch.Player.Start)
			reg := p.c.Players[id]
			birth := ""
			if reg.BirthYear > 0 {
				birth = strconv.Itoa(reg.BirthYear)
			}
			k, delta, aro := "", "", ""
			if ch.Player.Rating > 0 && ch.Games > 0 {
				k, delta = strconv.Itoa(ch.K), fmt.Sprintf("%+d", ch.Change)
			}
			if ch.OpponentsAvg > 0 {
				aro = strconv.Itoa(ch.OpponentsAvg)
			}
			p.row(widths, aligns, []string{id, p.c.Name(id, p.lang), reg.Federation, birth, rating(ch.Player.Rating),
				strconv.Itoa(ch.Games), points(ch.Score), aro, k, delta}, false, false)
		}
		d.Ln(2)
	}
	d.SetFont(papers.Font, "", 7)
	d.MultiCell(0, 3.5, p.t("sections.report_legend"), "", "L", false)
}
