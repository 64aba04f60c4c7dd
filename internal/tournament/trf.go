package tournament

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// TRF-16 (FIDE's Tournament Report File) in and out. The player lines
// (001) have fixed columns, counted from 1:
//
//	1-3 "001"   5-8 start number   10 sex   11-13 title   15-47 name
//	49-52 rating   54-56 federation   58-68 player id   70-79 birth date
//	81-84 points   86-89 rank
//
// and then one block of 10 columns a round, round r's at 92+10(r-1):
// the opponent's start number (4 columns, 0000 for none), a blank, the
// colour (w, b, -), a blank, the result (1 0 = + - W D L H F U Z, blank
// when the game has no result yet). The header lines 012 … 132 hold text
// from column 5; 132's round dates sit in the rounds' columns.
//
// The pairing programs' extensions read here: XXR (the number of rounds)
// and XXC (the colour of the top seed in round 1, "white1"/"black1", or
// "rank"). toguz adds its own, which other programs ignore:
//
//	XXY system            roundrobin, double, knockout, dutch
//	XXS W=1 D=0.5 ...     the points: W D L FW FL (forfeits) PAB HPB FPB ZPB
//	XXB DE BH/C1 BH SB    the tie-breaks, in order
//	XXK 2 rapid:2 armageddon   a knock-out's match and tie-break games
//	XXW 3 17              the players who withdrew
//	XXD 3                 the repetition draw: the 3rd occurrence of a position
//
// Lines of other kinds (teams, accelerations, comments) are kept as they
// are and written back.

// ParseError is an error in a TRF file, naming the line, the column and
// the field.
type ParseError struct {
	Line, Column int
	Field        string
	Err          error
}

func (e *ParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("line %d, column %d (%s): %v", e.Line, e.Column, e.Field, e.Err)
	}
	return fmt.Sprintf("line %d (%s): %v", e.Line, e.Field, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// MaxTRFLine bounds a line (a 200-round event is 2,091 columns).
const MaxTRFLine = 4096

// roundColumn is the first column of round r's block (its opponent).
func roundColumn(r int) int { return 92 + 10*(r-1) }

// ReadTRF reads a TRF-16 file.
func ReadTRF(r io.Reader) (*Event, error) {
	e := &Event{Scoring: FIDEScoring}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxTRFLine+2)
	sc.Split(scanTRFLines)
	lines := map[int]int{} // start number → line
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if err := e.readLine(line, n, lines); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{n + 1, MaxTRFLine, "line", fmt.Errorf("longer than %d characters", MaxTRFLine)}
		}
		return nil, err
	}
	if err := e.order(lines); err != nil {
		return nil, err
	}
	for _, s := range e.Withdrawn {
		if e.Player(s) == nil {
			return nil, fmt.Errorf("XXW: no player %d", s)
		}
	}
	return e, e.checkRounds(lines)
}

// scanTRFLines splits lines ended by LF, CR LF or a lone CR (some pairing
// programs write CR alone).
func scanTRFLines(data []byte, atEOF bool) (int, []byte, error) {
	for i, b := range data {
		switch b {
		case '\n':
			return i + 1, data[:i], nil
		case '\r':
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil // a CR at the end of the buffer: LF may follow
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// readLine reads line n, not blank, into e; lines maps the start numbers
// read so far to their lines.
func (e *Event) readLine(line string, n int, lines map[int]int) error {
	if len(line) < 3 {
		return &ParseError{n, 1, "line code", fmt.Errorf("%q is not a TRF line", line)}
	}
	code, text := line[:3], ""
	if len(line) > 4 {
		text = strings.TrimSpace(line[4:])
	}
	switch code {
	case "001":
		return e.addPlayer(line, n, lines)
	case "062", "072": // counts, written again from the players
	case "112":
		e.Deputies = append(e.Deputies, text)
	case "132":
		for r := 1; roundColumn(r) <= len(line); r++ {
			c := roundColumn(r)
			e.RoundDates = append(e.RoundDates, strings.TrimSpace(line[c-1:min(c+7, len(line))]))
		}
	case "XXR", "XXY", "XXS", "XXB", "XXK", "XXD":
		return e.readExtension(code, text, n)
	case "XXW":
		return e.readWithdrawn(text, n)
	default:
		if f := e.textField(code); f != nil {
			*f = text
		} else {
			e.Extra = append(e.Extra, line)
		}
	}
	return nil
}

// addPlayer reads the player line n (001).
func (e *Event) addPlayer(line string, n int, lines map[int]int) error {
	p, err := parsePlayer(line, n)
	if err != nil {
		return err
	}
	if l, dup := lines[p.Start]; dup {
		return &ParseError{n, 5, "start number", fmt.Errorf("start number %d is already on line %d", p.Start, l)}
	}
	lines[p.Start] = n
	e.Players = append(e.Players, p)
	return nil
}

// textField returns the field of e that the header line of code holds as
// it is, or nil where code is no such line.
func (e *Event) textField(code string) *string {
	switch code {
	case "012":
		return &e.Name
	case "022":
		return &e.City
	case "032":
		return &e.Federation
	case "042":
		return &e.StartDate
	case "052":
		return &e.EndDate
	case "092":
		return &e.Type
	case "102":
		return &e.ChiefArbiter
	case "122":
		return &e.TimeControl
	case "XXC":
		return &e.Colour
	}
	return nil
}

// readExtension reads the text of the pairing programs' and toguz's
// extension lines that are parsed but XXW (XXR, XXY, XXS, XXB, XXK,
// XXD), line n.
func (e *Event) readExtension(code, text string, n int) error {
	var err error
	switch code {
	case "XXR":
		if e.Rounds, err = strconv.Atoi(text); err != nil || !validRounds(e.Rounds) {
			return &ParseError{n, 5, "XXR rounds", fmt.Errorf("%q is not a number of rounds from 1 to 200", text)}
		}
	case "XXY":
		if e.System, err = ParseSystem(text); err != nil {
			return &ParseError{n, 5, "XXY system", err}
		}
	case "XXS":
		if e.Scoring, err = ParseScoring(text, e.Scoring); err != nil {
			return &ParseError{n, 5, "XXS points", err}
		}
	case "XXB":
		if e.TieBreaks, err = ParseTieBreaks(text); err != nil {
			return &ParseError{n, 5, "XXB tie-breaks", err}
		}
	case "XXK":
		if e.Knockout, err = ParseKnockout(text); err != nil {
			return &ParseError{n, 5, "XXK knock-out", err}
		}
	case "XXD":
		if e.Repetition, err = strconv.Atoi(text); err != nil || !validRepetition(e.Repetition) {
			return &ParseError{n, 5, "XXD repetition", fmt.Errorf("%q: the occurrence that draws, 2 to 100, or 0 for off", text)}
		}
	}
	return nil
}

// validRounds reports whether an XXR line's number of rounds is one that
// is read.
func validRounds(n int) bool { return n >= 1 && n <= 200 }

// validRepetition reports whether an XXD line's occurrence is one that is
// read: 0 (off) or 2 to 100.
func validRepetition(n int) bool { return n == 0 || n >= 2 && n <= 100 }

// readWithdrawn reads the start numbers of an XXW line, line n.
func (e *Event) readWithdrawn(text string, n int) error {
	for _, f := range strings.Fields(text) {
		s, err := strconv.Atoi(f)
		if err != nil || s < 1 {
			return &ParseError{n, 5, "XXW withdrawn", fmt.Errorf("%q is not a start number", f)}
		}
		e.Withdrawn = append(e.Withdrawn, s)
	}
	return nil
}

// order sorts the players by start number and checks that they are 1..n.
func (e *Event) order(lines map[int]int) error {
	ps := make([]Player, len(e.Players))
	for _, p := range e.Players {
		if p.Start > len(ps) {
			return &ParseError{lines[p.Start], 5, "start number", fmt.Errorf("start number %d with %d players: they run from 1 to %d", p.Start, len(ps), len(ps))}
		}
		ps[p.Start-1] = p
	}
	e.Players = ps
	return nil
}

// checkRounds checks every game against the opponent's line and the
// points column against the rounds, naming the line and column.
func (e *Event) checkRounds(lines map[int]int) error {
	played := e.Played()
	for i := range e.Players {
		p := &e.Players[i]
		l := lines[p.Start]
		for r, en := range p.Rounds {
			if err := e.checkGame(p, r+1, en, lines); err != nil {
				return err
			}
		}
		if p.Points >= 0 {
			// The column has one decimal (a Double-Swiss bye's 0.75 a round).
			if s := e.Score(p, played); math.Abs(s-p.Points) > 1e-9 && formatPoints(s) != formatPoints(p.Points) {
				return &ParseError{l, 81, "points", fmt.Errorf("%s points, but the rounds give %s (with the points of an XXS line if the event scores otherwise)", formatPoints(p.Points), formatPoints(s))}
			}
		}
	}
	return nil
}

// checkGame checks p's entry en of round r against the opponent's line.
func (e *Event) checkGame(p *Player, r int, en Entry, lines map[int]int) error {
	l, c := lines[p.Start], roundColumn(r)
	if en.None() || en.Opponent == 0 {
		if en.Opponent == 0 && needsOpponent(en.Code) {
			return &ParseError{l, c + 7, fmt.Sprintf("round %d result", r), fmt.Errorf("%q needs an opponent", en.Code)}
		}
		return nil
	}
	q := e.Player(en.Opponent)
	if q == nil {
		return &ParseError{l, c, fmt.Sprintf("round %d opponent", r), fmt.Errorf("no player %d", en.Opponent)}
	}
	if q == p {
		return &ParseError{l, c, fmt.Sprintf("round %d opponent", r), errors.New("a player cannot play himself")}
	}
	qe := q.Entry(r)
	if qe.Opponent != p.Start {
		return &ParseError{l, c, fmt.Sprintf("round %d opponent", r), fmt.Errorf("player %d plays %d, but %d's line (line %d) has opponent %d: paired twice", p.Start, q.Start, q.Start, lines[q.Start], qe.Opponent)}
	}
	if en.Colour == qe.Colour || en.Colour == NoColor && en.Played() {
		return &ParseError{l, c + 5, fmt.Sprintf("round %d colour", r), fmt.Errorf("players %d and %d have colours %c and %c", p.Start, q.Start, en.Colour, qe.Colour)}
	}
	if !resultsAgree(en.Code, qe.Code) {
		return &ParseError{l, c + 7, fmt.Sprintf("round %d result", r), fmt.Errorf("an impossible result: %c for player %d, %c for player %d (line %d)", en.Code, p.Start, qe.Code, q.Start, lines[q.Start])}
	}
	return nil
}

// needsOpponent reports whether a result is of a game with an opponent
// (a game played, or to play, or a forfeit won).
func needsOpponent(c Code) bool {
	return c == Win || c == Loss || c == Draw || c == Pending || c == ForfeitWin
}

// field returns columns a..b (1-based, inclusive) of line, blank past its end.
func field(line string, a, b int) string {
	if a > len(line) {
		return ""
	}
	return line[a-1 : min(b, len(line))]
}

func parsePlayer(line string, n int) (Player, error) {
	l := trfLine{line, n}
	p := Player{Points: -1}
	if err := l.playerFields(&p); err != nil {
		return p, err
	}
	for r := 1; roundColumn(r) <= len(line); r++ {
		en, err := l.round(r)
		if err != nil {
			return p, err
		}
		p.Rounds = append(p.Rounds, en)
	}
	for len(p.Rounds) > 0 && p.Rounds[len(p.Rounds)-1].None() {
		p.Rounds = p.Rounds[:len(p.Rounds)-1]
	}
	return p, nil
}

// trfLine is a player line being read, with its number for the errors.
type trfLine struct {
	s string
	n int
}

func (l trfLine) bad(col int, name string, err error) error { return &ParseError{l.n, col, name, err} }

// num reads columns a..b as a number, 0 where they are blank and blankOK.
func (l trfLine) num(a, b int, name string, blankOK bool) (int, error) {
	s := strings.TrimSpace(field(l.s, a, b))
	if s == "" && blankOK {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, l.bad(a, name, fmt.Errorf("%q is not a number", s))
	}
	return v, nil
}

// playerFields reads the columns before the rounds into p.
func (l trfLine) playerFields(p *Player) error {
	var err error
	if p.Start, err = l.num(5, 8, "start number", false); err != nil {
		return err
	}
	if p.Start < 1 {
		return l.bad(5, "start number", errors.New("start numbers begin at 1"))
	}
	if p.Sex, err = l.sex(); err != nil {
		return err
	}
	p.Title = strings.TrimSpace(field(l.s, 11, 13))
	p.Name = strings.TrimSpace(field(l.s, 15, 47))
	if p.Name == "" {
		return l.bad(15, "name", errors.New("a player needs a name"))
	}
	if p.Rating, err = l.num(49, 52, "rating", true); err != nil {
		return err
	}
	p.Federation = strings.TrimSpace(field(l.s, 54, 56))
	p.ID = strings.TrimSpace(field(l.s, 58, 68))
	p.Birth = strings.TrimSpace(field(l.s, 70, 79))
	if s := strings.TrimSpace(field(l.s, 81, 84)); s != "" {
		if p.Points, err = strconv.ParseFloat(s, 64); err != nil || p.Points < 0 {
			return l.bad(81, "points", fmt.Errorf("%q is not a score", s))
		}
	}
	p.Rank, err = l.num(86, 89, "rank", true)
	return err
}

// sex reads column 10: m, w (or f, read as w), or 0 where blank.
func (l trfLine) sex() (byte, error) {
	switch s := field(l.s, 10, 10); s {
	case "m", "w":
		return s[0], nil
	case "f":
		return 'w', nil
	case "", " ":
		return 0, nil
	default:
		return 0, l.bad(10, "sex", fmt.Errorf("%q is not m or w", s))
	}
}

// round reads the block of round r.
func (l trfLine) round(r int) (Entry, error) {
	c := roundColumn(r)
	if strings.TrimSpace(field(l.s, c, c+7)) == "" {
		return Entry{}, nil
	}
	if sep := field(l.s, c-2, c-1); strings.TrimSpace(sep) != "" {
		return Entry{}, l.bad(c-2, fmt.Sprintf("round %d", r), fmt.Errorf("%q where the columns between rounds are blank: is a field shifted?", sep))
	}
	var en Entry
	opp := strings.TrimSpace(field(l.s, c, c+3))
	v, err := strconv.Atoi(opp)
	if opp == "" || err != nil || v < 0 {
		return Entry{}, l.bad(c, fmt.Sprintf("round %d opponent", r), fmt.Errorf("%q is not a start number (0000 for none)", opp))
	}
	en.Opponent = v
	if en.Colour, err = l.colour(c, r); err != nil {
		return Entry{}, err
	}
	if en.Code, err = l.result(c, r); err != nil {
		return Entry{}, err
	}
	if en.Opponent == 0 && en.Colour != NoColor {
		return Entry{}, l.bad(c+5, fmt.Sprintf("round %d colour", r), fmt.Errorf("%c without an opponent", en.Colour))
	}
	return en, nil
}

// colour reads the colour of round r's block at column c.
func (l trfLine) colour(c, r int) (Colour, error) {
	switch col := field(l.s, c+5, c+5); col {
	case "w", "b", "-":
		return Colour(col[0]), nil
	case "", " ":
		return NoColor, nil
	default:
		return 0, l.bad(c+5, fmt.Sprintf("round %d colour", r), fmt.Errorf("%q is not w, b or -", col))
	}
}

// result reads the result of round r's block at column c (Pending where
// blank).
func (l trfLine) result(c, r int) (Code, error) {
	switch res := field(l.s, c+7, c+7); {
	case res == "" || res == " ":
		return Pending, nil
	case strings.Contains(validCodes, res) && res != "*":
		return Code(res[0]), nil
	default:
		return 0, l.bad(c+7, fmt.Sprintf("round %d result", r), fmt.Errorf("%q is not one of 1 0 = + - W D L H F U Z", res))
	}
}

// ParseScoring reads the points of an XXS line ("PAB=0.5 HPB=0.5") over sc.
func ParseScoring(s string, sc Scoring) (Scoring, error) {
	fields := map[string]*float64{"W": &sc.Win, "D": &sc.Draw, "L": &sc.Loss, "FW": &sc.ForfeitWin, "FL": &sc.ForfeitLoss,
		"PAB": &sc.PairingBye, "HPB": &sc.HalfBye, "FPB": &sc.FullBye, "ZPB": &sc.ZeroBye}
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		dst := fields[strings.ToUpper(k)]
		x, err := strconv.ParseFloat(v, 64)
		if !ok || dst == nil || err != nil || x < 0 || x > 100 {
			return sc, fmt.Errorf("%q: KEY=POINTS with KEY one of W D L FW FL PAB HPB FPB ZPB", f)
		}
		*dst = x
	}
	return sc, nil
}

func formatPoints(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// WriteTRF writes the event as TRF-16 with the extensions above. The
// points and ranks are computed: points from the rounds with a result,
// ranks from the standings.
func (e *Event) WriteTRF(w io.Writer) error {
	b := bufio.NewWriter(w)
	e.writeHeader(b)
	for _, x := range e.Extra {
		fmt.Fprintln(b, x)
	}
	e.writeExtensions(b)
	rank := map[int]int{}
	for _, s := range e.Standings(0) {
		rank[s.Player.Start] = s.Rank
	}
	played := e.Played()
	for i := range e.Players {
		p := &e.Players[i]
		fmt.Fprintln(b, playerLine(p, e.Score(p, played), rank[p.Start]))
	}
	return b.Flush()
}

// writeText writes a header line of text, none where s is blank.
func writeText(b *bufio.Writer, code, s string) {
	if s = strings.TrimSpace(s); s != "" {
		fmt.Fprintf(b, "%s %s\n", code, s)
	}
}

// writeHeader writes the header lines 012 to 132.
func (e *Event) writeHeader(b *bufio.Writer) {
	writeText(b, "012", e.Name)
	writeText(b, "022", e.City)
	writeText(b, "032", e.Federation)
	writeText(b, "042", e.StartDate)
	writeText(b, "052", e.EndDate)
	rated := 0
	for _, p := range e.Players {
		if p.Rating > 0 {
			rated++
		}
	}
	fmt.Fprintf(b, "062 %d\n072 %d\n", len(e.Players), rated)
	writeText(b, "092", e.Type)
	writeText(b, "102", e.ChiefArbiter)
	for _, d := range e.Deputies {
		writeText(b, "112", d)
	}
	writeText(b, "122", e.TimeControl)
	if len(e.RoundDates) > 0 {
		line := []byte(fmt.Sprintf("%-89s", "132"))
		for _, d := range e.RoundDates {
			line = append(line, fmt.Sprintf("  %-8s", d)...)
		}
		fmt.Fprintf(b, "%s\n", strings.TrimRight(string(line), " "))
	}
}

// writeExtensions writes the XX lines that differ from their defaults.
func (e *Event) writeExtensions(b *bufio.Writer) {
	if e.Rounds > 0 {
		fmt.Fprintf(b, "XXR %d\n", e.Rounds)
	}
	writeText(b, "XXC", e.Colour)
	writeText(b, "XXY", string(e.System))
	if e.Scoring != FIDEScoring {
		s := e.Scoring
		fmt.Fprintf(b, "XXS W=%g D=%g L=%g FW=%g FL=%g PAB=%g HPB=%g FPB=%g ZPB=%g\n", s.Win, s.Draw, s.Loss, s.ForfeitWin, s.ForfeitLoss, s.PairingBye, s.HalfBye, s.FullBye, s.ZeroBye)
	}
	if len(e.TieBreaks) > 0 {
		names := make([]string, len(e.TieBreaks))
		for i, t := range e.TieBreaks {
			names[i] = t.String()
		}
		writeText(b, "XXB", strings.Join(names, " "))
	}
	if e.Knockout.Games > 0 {
		writeText(b, "XXK", e.Knockout.String())
	}
	if len(e.Withdrawn) > 0 {
		s := make([]string, len(e.Withdrawn))
		for i, x := range e.Withdrawn {
			s[i] = strconv.Itoa(x)
		}
		writeText(b, "XXW", strings.Join(s, " "))
	}
	if e.Repetition > 0 {
		fmt.Fprintf(b, "XXD %d\n", e.Repetition)
	}
}

// playerLine returns the 001 line of p, with its points and rank.
func playerLine(p *Player, points float64, rank int) string {
	rating, sex := "", " "
	if p.Rating > 0 {
		rating = strconv.Itoa(p.Rating)
	}
	if p.Sex != 0 {
		sex = string(p.Sex)
	}
	var line strings.Builder
	fmt.Fprintf(&line, "001 %4d %s%3s %-33.33s %4s %-3.3s %11.11s %-10.10s %4s %4d", p.Start, sex, p.Title, p.Name, rating, p.Federation, p.ID, p.Birth, formatPoints(points), rank)
	for _, en := range p.Rounds {
		if en.None() {
			line.WriteString("          ")
			continue
		}
		code := byte(en.Code)
		if en.Code == Pending {
			code = ' '
		}
		col := en.Colour
		if col == 0 {
			col = NoColor
		}
		fmt.Fprintf(&line, "  %04d %c %c", en.Opponent, col, code)
	}
	return strings.TrimRight(line.String(), " ")
}
