package federation

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/papers"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// The list's files: CSV in both directions (an export imports again), the
// federations' TRF-16 player lines and a printable PDF.

// csvColumns are a list file's columns; an import needs id and the names
// or the id of a player already in the register, and reads the others
// when present. change, period and k are written, not read.
var csvColumns = []string{"id", "federation", "name_cyrl", "name_latn", "birth_year", "sex", "club", "title",
	"rank", "rank_date", "rating", "games", "change", "period", "k"}

// maxImportLines bounds an imported list.
const maxImportLines = 50000

// ImportError names the line and field of an imported list that is wrong.
type ImportError struct {
	Line  int
	Field string
	Err   error
}

func (e *ImportError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("line %d: %v", e.Line, e.Err)
	}
	return fmt.Sprintf("line %d, field %s: %v", e.Line, e.Field, e.Err)
}

func (e *ImportError) Unwrap() error { return e.Err }

// Import reads an existing list of federation code (CSV with a header
// line naming its columns) and publishes it as the imported list of day:
// its players are created or updated in the register, their ranks
// awarded, and the next lists start from its ratings. Nothing is stored
// when a line is wrong. A player with no rating is registered, not listed;
// games blank counts as an established player's.
func (s *Service) Import(ctx context.Context, code string, d Discipline, day time.Time, r io.Reader) (int, error) {
	if !slices.Contains(Disciplines, d) {
		return 0, invalid("discipline %q", d)
	}
	dayS, err := listDay(day)
	if err != nil {
		return 0, err
	}
	f, err := s.Federation(ctx, code)
	if err != nil {
		return 0, err
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	col, err := readHeader(cr)
	if err != nil {
		return 0, err
	}
	var players []store.FedPlayer
	var entries []store.FedListEntry
	var ranks []store.FedRank
	seen := map[string]int{}
	for n := 2; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, &ImportError{Line: n, Err: err}
		}
		if n > maxImportLines {
			return 0, &ImportError{Line: n, Err: fmt.Errorf("more than %d lines", maxImportLines-1)}
		}
		im, err := s.importRecord(ctx, code, f, d, dayS, importLine{n: n, rec: rec, col: col}, seen)
		if err != nil {
			return 0, err
		}
		players = append(players, im.player)
		if im.rank != nil {
			ranks = append(ranks, *im.rank)
		}
		if im.entry != nil {
			entries = append(entries, *im.entry)
		}
	}
	if err := s.publishImport(ctx, code, d, dayS, players, entries); err != nil {
		return 0, err
	}
	for _, rk := range ranks {
		if err := s.st.AwardFedRank(ctx, rk); err != nil {
			return 0, err
		}
	}
	return len(players), nil
}

// imported is what a line of a list adds: a player, his rank (nil: none)
// and his entry in the list (nil: none).
type imported struct {
	player store.FedPlayer
	rank   *store.FedRank
	entry  *store.FedListEntry
}

// importRecord reads line l of federation code's (f's) list of discipline
// d on dayS; seen holds the line of each player id read before it.
func (s *Service) importRecord(ctx context.Context, code string, f Federation, d Discipline, dayS string, l importLine, seen map[string]int) (imported, error) {
	var im imported
	id, _ := l.get("id")
	if !utf8.ValidString(strings.Join(l.rec, "")) {
		return im, &ImportError{Line: l.n, Err: errors.New("not UTF-8 text")}
	}
	if first, dup := seen[id]; dup {
		return im, l.bad("id", "%q is on line %d already", id, first)
	}
	seen[id] = l.n
	p, err := s.importPlayer(ctx, code, id, l)
	if err != nil {
		return im, err
	}
	im.player = toStorePlayer(p)
	if im.rank, err = s.importRank(ctx, code, f, p, l); err != nil {
		return im, err
	}
	im.entry, err = importEntry(code, f, d, dayS, id, l)
	return im, err
}

// readHeader reads a list's header line: each column's index by name.
func readHeader(cr *csv.Reader) (map[string]int, error) {
	head, err := cr.Read()
	if err != nil {
		return nil, &ImportError{Line: 1, Err: fmt.Errorf("no header line: %w", err)}
	}
	col := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		if !slices.Contains(csvColumns, h) {
			return nil, &ImportError{Line: 1, Field: h, Err: fmt.Errorf("not a column of a list (%s)", strings.Join(csvColumns, ", "))}
		}
		if _, dup := col[h]; dup {
			return nil, &ImportError{Line: 1, Field: h, Err: errors.New("twice")}
		}
		col[h] = i
	}
	if _, ok := col["id"]; !ok {
		return nil, &ImportError{Line: 1, Field: "id", Err: errors.New("the column is missing")}
	}
	return col, nil
}

// importLine is line n of an imported list, its fields by column.
type importLine struct {
	n   int
	rec []string
	col map[string]int
}

// get returns the field of column name, trimmed; false when the list has
// no such column or the line is short of it.
func (l importLine) get(name string) (string, bool) {
	i, ok := l.col[name]
	if !ok || i >= len(l.rec) {
		return "", false
	}
	return strings.TrimSpace(l.rec[i]), true
}

// bad is the error of field on the line.
func (l importLine) bad(field string, format string, a ...any) error {
	return &ImportError{Line: l.n, Field: field, Err: fmt.Errorf(format, a...)}
}

// importPlayer returns the player id of the line, registered in
// federation code unless the line names another: one already in the
// register keeps what the line leaves out.
func (s *Service) importPlayer(ctx context.Context, code, id string, l importLine) (Player, error) {
	p := Player{ID: id, Federation: code, Sex: Male}
	if old, err := s.st.FedPlayerByID(ctx, id); err == nil {
		p = Player{ID: id, Federation: old.Federation, NameCyrl: old.NameCyrl, NameLatn: old.NameLatn,
			BirthYear: old.BirthYear, Sex: Sex(old.Sex), Club: old.Club, Title: old.Title}
	} else if !errors.Is(err, store.ErrNotFound) {
		return p, err
	}
	if v, ok := l.get("federation"); ok && v != "" {
		p.Federation = v
	}
	for name, field := range map[string]*string{"name_cyrl": &p.NameCyrl, "name_latn": &p.NameLatn, "club": &p.Club, "title": &p.Title} {
		if v, ok := l.get(name); ok {
			*field = v
		}
	}
	if err := l.birthAndSex(&p); err != nil {
		return p, err
	}
	if err := CheckPlayer(p); err != nil {
		return p, &ImportError{Line: l.n, Err: err}
	}
	if p.Federation != code {
		if _, err := s.Federation(ctx, p.Federation); err != nil {
			return p, l.bad("federation", "%q is not a federation of the register", p.Federation)
		}
	}
	return p, nil
}

// birthAndSex sets p's birth year and sex from the line's columns, where
// it has them.
func (l importLine) birthAndSex(p *Player) error {
	if v, ok := l.get("birth_year"); ok {
		p.BirthYear = 0
		if v != "" {
			var err error
			if p.BirthYear, err = strconv.Atoi(v); err != nil || p.BirthYear < 1900 || p.BirthYear > 2100 {
				return l.bad("birth_year", "%q is not a year", v)
			}
		}
	}
	if v, ok := l.get("sex"); ok {
		switch strings.ToLower(v) {
		case "m", "":
			p.Sex = Male
		case "f", "w":
			p.Sex = Female
		default:
			return l.bad("sex", "%q is not m or f", v)
		}
	}
	return nil
}

// importRank returns the rank the line awards p (nil: none), one of his
// federation's ranks (f's, code's, or the one the line names).
func (s *Service) importRank(ctx context.Context, code string, f Federation, p Player, l importLine) (*store.FedRank, error) {
	rk, _ := l.get("rank")
	if rk == "" {
		return nil, nil
	}
	pf := f
	if p.Federation != code {
		pf, _ = s.Federation(ctx, p.Federation)
	}
	if pf.Ranks.Order(rk) == 0 {
		return nil, l.bad("rank", "%q is not one of federation %s's ranks", rk, pf.Code)
	}
	date, _ := l.get("rank_date")
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return nil, l.bad("rank_date", "%q is not a date YYYY-MM-DD", date)
	}
	return &store.FedRank{Player: p.ID, Rank: rk, Awarded: date}, nil
}

// importEntry returns the line's entry in the list of federation code (f)
// of discipline d on dayS (nil: the line has no rating, or 0); games
// blank counts as an established player's.
func importEntry(code string, f Federation, d Discipline, dayS, id string, l importLine) (*store.FedListEntry, error) {
	rv, _ := l.get("rating")
	if rv == "" {
		return nil, nil
	}
	rating, err := strconv.Atoi(rv)
	if err != nil || rating < 0 || rating > 3500 {
		return nil, l.bad("rating", "%q is not a rating", rv)
	}
	if rating == 0 {
		return nil, nil
	}
	games := f.Rules.NewGames
	if gv, _ := l.get("games"); gv != "" {
		if games, err = strconv.Atoi(gv); err != nil || games < 0 {
			return nil, l.bad("games", "%q is not a number of games", gv)
		}
	}
	return &store.FedListEntry{Federation: code, Discipline: string(d), Day: dayS, Player: id,
		Rating: rating, Games: games, Reached: rating >= f.Rules.TopFrom,
		K: f.Rules.KFactor(rating, games, false, rating >= f.Rules.TopFrom)}, nil
}

// publishImport publishes the imported list of code's discipline d on
// dayS with its players and entries, unless a list of that day or later
// is published already.
func (s *Service) publishImport(ctx context.Context, code string, d Discipline, dayS string, players []store.FedPlayer, entries []store.FedListEntry) error {
	lists, err := s.st.FedLists(ctx, code, string(d))
	if err != nil {
		return err
	}
	if len(lists) > 0 && lists[0].Day >= dayS {
		if lists[0].Day == dayS {
			return fmt.Errorf("%w: %s %s %s", ErrPublished, code, d, dayS)
		}
		return invalid("the %s list of %s is published already, after %s", lists[0].Day, code, dayS)
	}
	err = s.st.PublishFedList(ctx, store.FedList{Federation: code, Discipline: string(d), Day: dayS, Imported: true}, players, entries)
	if errors.Is(err, store.ErrPublished) {
		return fmt.Errorf("%w: %s %s %s", ErrPublished, code, d, dayS)
	}
	return err
}

// WriteCSV writes a published list in the columns Import reads.
func WriteCSV(w io.Writer, lines []ListLine) error {
	cw := csv.NewWriter(w)
	cw.Write(csvColumns)
	for _, l := range lines {
		p := l.Player
		rank, rankDate := "", ""
		for _, r := range p.Ranks {
			if r.Rank == p.Rank {
				rank, rankDate = r.Rank, r.Awarded
			}
		}
		by := ""
		if p.BirthYear > 0 {
			by = strconv.Itoa(p.BirthYear)
		}
		cw.Write([]string{p.ID, p.Federation, p.NameCyrl, p.NameLatn, by, string(p.Sex), p.Club, p.Title, rank, rankDate,
			strconv.Itoa(l.Rating), strconv.Itoa(l.Games), strconv.Itoa(l.Change), strconv.Itoa(l.Period), strconv.Itoa(l.K)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteTRF writes a published list as TRF-16: the header names the list,
// and each player is a 001 line with his rating, federation, id and birth
// year (no rounds).
func WriteTRF(w io.Writer, f Federation, d Discipline, day string, lines []ListLine) error {
	e := tournament.New(fmt.Sprintf("%s %s %s", f.Name("en"), d, day), tournament.Dutch, 0)
	e.Federation, e.StartDate, e.EndDate = f.Code, day, day
	for i, l := range lines {
		p := l.Player
		name := p.NameLatn
		if name == "" {
			name = p.NameCyrl
		}
		sex := byte('m')
		if p.Sex == Female {
			sex = 'w'
		}
		birth := ""
		if p.BirthYear > 0 {
			birth = strconv.Itoa(p.BirthYear)
		}
		e.Players = append(e.Players, tournament.Player{Start: i + 1, Sex: sex, Title: p.Title, Name: name,
			Rating: l.Rating, Federation: p.Federation, ID: p.ID, Birth: birth})
	}
	return e.WriteTRF(w)
}

// PDFText are the printed list's words in the reader's language.
type PDFText struct {
	Title                                                string // "Rating list, classic, 1 March 2026"
	No, ID, Name, Birth, Club, Rank, Rating, Change, Gms string
	Lang                                                 string // the ranks' language
}

// WritePDF writes a published list as a printable A4 paper.
func WritePDF(w io.Writer, f Federation, t PDFText, lines []ListLine) error {
	doc, err := papers.New(papers.Landscape, t.Title)
	if err != nil {
		return err
	}
	doc.SetMargins(12, 12, 12)
	doc.SetAutoPageBreak(true, 14)
	widths := []float64{10, 28, 80, 22, 30, 50, 18, 18, 17} // 273 mm: A4 across, less the margins
	head := []string{t.No, t.ID, t.Name, t.Birth, t.Club, t.Rank, t.Rating, t.Change, t.Gms}
	header := func() {
		doc.SetFont(papers.Font, "B", 8)
		for i, h := range head {
			align := "L"
			if i == 0 || i >= 6 {
				align = "R"
			}
			doc.CellFormat(widths[i], 6, h, "B", 0, align, false, 0, "")
		}
		doc.Ln(-1)
		doc.SetFont(papers.Font, "", 8)
	}
	doc.SetHeaderFunc(func() {
		doc.SetFont(papers.Font, "B", 12)
		doc.CellFormat(0, 7, f.Name(t.Lang), "", 1, "L", false, 0, "")
		doc.SetFont(papers.Font, "", 10)
		doc.CellFormat(0, 6, t.Title, "", 1, "L", false, 0, "")
		doc.Ln(2)
		header()
	})
	doc.SetFooterFunc(func() {
		doc.SetY(-10)
		doc.SetFont(papers.Font, "", 7)
		doc.CellFormat(0, 4, strconv.Itoa(doc.PageNo()), "", 0, "C", false, 0, "")
	})
	doc.AddPage()
	for i, l := range lines {
		p := l.Player
		name := p.NameCyrl
		if t.Lang == "en" || t.Lang == "kk-Latn" || name == "" {
			name = p.NameLatn
		}
		by, change := "", ""
		if p.BirthYear > 0 {
			by = strconv.Itoa(p.BirthYear)
		}
		if l.Change != 0 {
			change = fmt.Sprintf("%+d", l.Change)
		}
		rank := ""
		if p.Rank != "" {
			rank = f.Ranks.Name(p.Rank, t.Lang)
		}
		cells := []string{strconv.Itoa(i + 1), p.ID, name, by, p.Club, rank, strconv.Itoa(l.Rating), change, strconv.Itoa(l.Period)}
		fill := i%2 == 1
		doc.SetFillColor(240, 240, 240)
		for j, c := range cells {
			align := "L"
			if j == 0 || j >= 6 {
				align = "R"
			}
			// A long name or rank is cut to its cell rather than overflowing.
			for doc.GetStringWidth(c) > widths[j]-1 && utf8.RuneCountInString(c) > 1 {
				r := []rune(c)
				c = string(r[:len(r)-2]) + "…"
			}
			doc.CellFormat(widths[j], 5, c, "", 0, align, fill, 0, "")
		}
		doc.Ln(-1)
	}
	return papers.Write(w, doc)
}
