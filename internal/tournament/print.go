package tournament

import (
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"strconv"
)

// Printing for the arbiter's table: the pairings of a round and the
// standings, as a self-contained HTML page to print (or pin on the wall)
// and as CSV for a spreadsheet. The headings are English: this is the
// offline tool's output, like its flags.

var printPage = template.Must(template.New("print").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Event.Name}}</title>
<style>
body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin-bottom:1.5em}
th,td{border:1px solid #888;padding:.2em .5em;text-align:left}td.n{text-align:right}
@media print{body{margin:0}h2{break-before:page}h2:first-of-type{break-before:auto}}
</style></head><body>
<h1 translate="no">{{.Event.Name}}</h1>
{{if .Event.City}}<p translate="no">{{.Event.City}} {{.Event.StartDate}}</p>{{end}}
{{range .Rounds}}<h2>Round {{.Round}}</h2>
<table><thead><tr><th>Board</th><th>No.</th><th>White</th><th>Result</th><th>No.</th><th>Black</th></tr></thead><tbody>
{{range .Boards}}<tr><td class="n">{{.Board}}</td><td class="n">{{.White}}</td><td translate="no">{{.WhiteName}}</td><td>{{.Result}}</td><td class="n">{{if .Black}}{{.Black}}{{end}}</td><td translate="no">{{.BlackName}}</td></tr>
{{end}}</tbody></table>
{{end}}{{if .Standings}}<h2>Standings after round {{.After}}</h2>
<table><thead><tr><th>Rank</th><th>No.</th><th>Name</th><th>Fed</th><th>Rating</th><th>Points</th>{{range .TieBreaks}}<th>{{.}}</th>{{end}}</tr></thead><tbody>
{{range .Standings}}<tr><td class="n">{{.Rank}}</td><td class="n">{{.Start}}</td><td translate="no">{{.Name}}</td><td translate="no">{{.Federation}}</td><td class="n">{{.Rating}}</td><td class="n">{{.Points}}</td>{{range .Values}}<td class="n">{{.}}</td>{{end}}</tr>
{{end}}</tbody></table>
{{end}}</body></html>
`))

type board struct {
	Board, White, Black  int
	WhiteName, BlackName string
	Result               string
}

type printRound struct {
	Round  int
	Boards []board
}

type printStanding struct {
	Rank, Start              int
	Name, Federation, Rating string
	Points                   string
	Values                   []string
}

// resultText is a game's result as printed: 1-0, ½-½, +-, "bye (1)".
func (e *Event) resultText(p Pair, r int) string {
	w := e.Player(p.White).Entry(r)
	if p.Black == 0 {
		return "bye " + formatScore(e.Scoring.Points(w))
	}
	b := e.Player(p.Black).Entry(r)
	if w.Code == Pending {
		return ""
	}
	switch w.Code {
	case ForfeitWin, ForfeitLoss:
		return string(rune(w.Code)) + string(rune(b.Code))
	}
	return formatScore(e.Scoring.Points(w)) + "-" + formatScore(e.Scoring.Points(b))
}

func formatScore(x float64) string {
	if x == 0.5 {
		return "½"
	}
	whole := float64(int(x))
	if x-whole == 0.5 {
		return strconv.Itoa(int(x)) + "½"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

func (e *Event) boards(r int) []board {
	var out []board
	for i, p := range e.Pairs(r) {
		b := board{Board: i + 1, White: p.White, Black: p.Black, WhiteName: e.Player(p.White).Name, Result: e.resultText(p, r)}
		if p.Black != 0 {
			b.BlackName = e.Player(p.Black).Name
		}
		out = append(out, b)
	}
	return out
}

func (e *Event) printStandings(after int) []printStanding {
	var out []printStanding
	for _, s := range e.Standings(after) {
		ps := printStanding{Rank: s.Rank, Start: s.Player.Start, Name: s.Player.Name, Federation: s.Player.Federation, Points: formatScore(s.Points)}
		if s.Player.Rating > 0 {
			ps.Rating = strconv.Itoa(s.Player.Rating)
		}
		for j, v := range s.Values {
			ps.Values = append(ps.Values, ValueText(e.TieBreaks[j], v))
		}
		out = append(out, ps)
	}
	return out
}

// WriteHTML writes a printable page with the pairings of the given rounds
// and, if standings, the standings after the last round with results.
func (e *Event) WriteHTML(w io.Writer, rounds []int, standings bool) error {
	data := struct {
		Event     *Event
		Rounds    []printRound
		Standings []printStanding
		After     int
		TieBreaks []string
	}{Event: e}
	for _, r := range rounds {
		data.Rounds = append(data.Rounds, printRound{r, e.boards(r)})
	}
	if standings {
		data.Standings = e.printStandings(0)
		data.After = e.resultRounds()
		for _, t := range e.TieBreaks {
			data.TieBreaks = append(data.TieBreaks, t.String())
		}
	}
	return printPage.Execute(w, data)
}

// resultRounds is the number of rounds the standings count.
func (e *Event) resultRounds() int {
	r := e.Played()
	if r > 0 && !e.Complete(r) {
		r--
	}
	return r
}

// WritePairingsCSV writes round r's boards as CSV.
func (e *Event) WritePairingsCSV(w io.Writer, r int) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"round", "board", "white_no", "white", "result", "black_no", "black"})
	for _, b := range e.boards(r) {
		black := ""
		if b.Black != 0 {
			black = strconv.Itoa(b.Black)
		}
		cw.Write([]string{strconv.Itoa(r), strconv.Itoa(b.Board), strconv.Itoa(b.White), b.WhiteName, b.Result, black, b.BlackName})
	}
	cw.Flush()
	return cw.Error()
}

// WriteStandingsCSV writes the standings as CSV, one column a tie-break.
func (e *Event) WriteStandingsCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"rank", "start", "name", "federation", "rating", "points"}
	for _, t := range e.TieBreaks {
		head = append(head, t.String())
	}
	cw.Write(head)
	for _, s := range e.printStandings(0) {
		row := []string{strconv.Itoa(s.Rank), strconv.Itoa(s.Start), s.Name, s.Federation, s.Rating, s.Points}
		cw.Write(append(row, s.Values...))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("standings: %w", err)
	}
	return nil
}
