package tournament

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
)

// The FIDE rating regulations (B.02, "Rating Regulations effective from 1
// January 2024" and their predecessors since 2014) for a rated player:
// each rated game's expected score PD comes from table 8.1(b) by the
// rating difference, a difference of more than 400 points counting as 400;
// the change is K × Σ(score − PD), rounded, 0.5 away from zero.

// pdTable is FIDE table 8.1(b): pdTable[i] is the highest difference D
// for which the higher-rated player's PD is 0.50 + i/100.
var pdTable = [...]int{3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153,
	162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411,
	432, 456, 484, 517, 559, 619, 735}

// ExpectedScore returns PD in hundredths for a player rated own against
// one rated opp, by table 8.1(b) and the 400-point rule.
func ExpectedScore(own, opp int) int {
	d := own - opp
	if d > 400 {
		d = 400
	} else if d < -400 {
		d = -400
	}
	a := d
	if a < 0 {
		a = -a
	}
	pd := 100
	for i, top := range pdTable {
		if a <= top {
			pd = 50 + i
			break
		}
	}
	if d < 0 {
		return 100 - pd
	}
	return pd
}

// KFactor returns FIDE's development coefficient: 40 for a player new to
// the list until he has completed 30 games, and for a player under 18
// (at the end of the year) while his rating stays under 2300; 10 once his
// published rating has reached 2400; otherwise 20. Games, under18 and
// reached2400 are the player's record on the rating list.
func KFactor(rating, games int, under18, reached2400 bool) int {
	switch {
	case games < 30:
		return 40
	case under18 && rating < 2300:
		return 40
	case reached2400:
		return 10
	}
	return 20
}

// RatingChange is one player's rated games of an event and the change.
type RatingChange struct {
	Player         *Player
	Games          int     // rated games against rated opponents
	Score          float64 // points in them
	Expected       float64 // Σ PD
	K              int
	Change         int
	OpponentsAvg   int
	ScoreAllRounds float64 // the event points, for the list
}

// RatingRecord is what the rating list knows of a player beyond the TRF
// line: his rated games before the event, whether he is under 18, whether
// his rating has reached 2400. The zero record counts as an established
// adult (K 20, or 10 from 2400).
type RatingRecord struct {
	Games       int
	Under18     bool
	Reached2400 bool
	Known       bool // false: take Games as 30 and Reached2400 from the rating
}

// RatingChanges computes each rated player's change for the event's rated
// games (results 1, =, 0 played over the board; forfeits, byes and the W D
// L games do not count) against rated opponents. records gives the list's
// record of each start number (absent: an established player, under 18 by
// his birth date and the event's date). K × n is
// held to 700 as the regulations say for a rating period: K is lowered to
// the largest whole number with K × n ≤ 700.
func (e *Event) RatingChanges(records map[int]RatingRecord) []RatingChange {
	var out []RatingChange
	for i := range e.Players {
		p := &e.Players[i]
		c := RatingChange{Player: p, ScoreAllRounds: e.Score(p, e.Played())}
		if p.Rating > 0 {
			sum := 0
			for _, en := range p.Rounds {
				if !en.Rated() {
					continue
				}
				q := e.Player(en.Opponent)
				if q.Rating == 0 {
					continue
				}
				c.Games++
				c.Score += e.Scoring.Points(Entry{Code: en.Code, Opponent: en.Opponent}) / max(e.Scoring.Win, 1e-9)
				c.Expected += float64(ExpectedScore(p.Rating, q.Rating)) / 100
				sum += q.Rating
			}
			if c.Games > 0 {
				rec, ok := records[p.Start]
				if !ok || !rec.Known {
					rec = RatingRecord{Games: max(rec.Games, 30), Reached2400: p.Rating >= 2400, Under18: e.under18(p)}
				}
				c.K = KFactor(p.Rating, rec.Games, rec.Under18, rec.Reached2400)
				if c.K*c.Games > 700 {
					c.K = 700 / c.Games
				}
				c.OpponentsAvg = int(math.Floor(float64(sum)/float64(c.Games) + 0.5))
				c.Change = roundAway(float64(c.K) * (c.Score - c.Expected))
			}
		}
		out = append(out, c)
	}
	return out
}

// under18 reports whether the event (its end date, else its start) falls
// in or before the year of the player's 18th birthday: FIDE's K 40 for the
// young lasts until the end of that year.
func (e *Event) under18(p *Player) bool {
	by, _, _, ok := parseDate(p.Birth)
	date := e.EndDate
	if date == "" {
		date = e.StartDate
	}
	ey, _, _, ok2 := parseDate(date)
	return ok && ok2 && ey <= by+18
}

// roundAway rounds to the nearest whole number, halves away from zero,
// after removing the float noise of sums of hundredths.
func roundAway(x float64) int {
	x = math.Round(x*1e6) / 1e6
	if x < 0 {
		return -int(math.Floor(-x + 0.5))
	}
	return int(math.Floor(x + 0.5))
}

// WriteRatingCSV writes the event for a federation's rating list: one
// line a player: start number, name, federation, id, rating, rated games,
// score in them, expected score, K, change, the event's points.
func (e *Event) WriteRatingCSV(w io.Writer, records map[int]RatingRecord) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"start", "name", "federation", "id", "rating", "games", "score", "expected", "k", "change", "points"})
	for _, c := range e.RatingChanges(records) {
		p := c.Player
		rating := ""
		if p.Rating > 0 {
			rating = strconv.Itoa(p.Rating)
		}
		cw.Write([]string{strconv.Itoa(p.Start), p.Name, p.Federation, p.ID, rating, strconv.Itoa(c.Games),
			strconv.FormatFloat(c.Score, 'f', -1, 64), fmt.Sprintf("%.2f", c.Expected), strconv.Itoa(c.K),
			fmt.Sprintf("%+d", c.Change), strconv.FormatFloat(c.ScoreAllRounds, 'f', -1, 64)})
	}
	cw.Flush()
	return cw.Error()
}
