package explorer

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
)

// The masters' games, copied from ../shared/data: masters-2018.pgn (gzip -9)
// and master-app-sample.tgk. Embedded so that `toguz serve` has them on a
// fresh clone.
//
//go:embed masters/masters-2018.pgn.gz masters/master-app-sample.tgk
var mastersFS embed.FS

// MasterGame is one game of the masters' database.
type MasterGame struct {
	N            int // 1-based, its id in links (/explorer/masters/{n})
	White, Black string
	Event, Site  string
	Date         time.Time // zero when the record gives none
	Year         string    // the record's Date as written when it gives no day ("2018")
	Rating       int       // the average of the records' ELO tags; 0 when absent
	Result       toguz.Result
	Moves        []toguz.Move
	Record       *toguz.Game
}

// defaultMasters reads the embedded games once; the database is immutable.
var defaultMasters = sync.OnceValues(LoadMasters)

// DefaultMasters returns the embedded masters' database, read on first use.
func DefaultMasters() (*Masters, error) { return defaultMasters() }

// Masters is the masters' database: immutable, safe for concurrent use.
type Masters struct {
	games []MasterGame
	// index maps a position's key to its games' entries.
	index map[uint64][]entry
}

type entry struct {
	game int32 // index in games
	move toguz.Move
}

// LoadMasters reads the embedded masters' games.
func LoadMasters() (*Masters, error) {
	var recs []*toguz.Game
	for _, f := range []struct {
		name string
		gz   bool
		fmt  toguz.Format
	}{{"masters/masters-2018.pgn.gz", true, toguz.FormatToguz}, {"masters/master-app-sample.tgk", false, toguz.FormatTGK}} {
		data, err := mastersFS.ReadFile(f.name)
		if err != nil {
			return nil, fmt.Errorf("explorer: masters: %w", err)
		}
		if f.gz {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return nil, fmt.Errorf("explorer: masters %s: %w", f.name, err)
			}
			if data, err = io.ReadAll(zr); err != nil {
				return nil, fmt.Errorf("explorer: masters %s: %w", f.name, err)
			}
		}
		gs, err := toguz.ParseGames(f.name, data, f.fmt)
		if err != nil {
			return nil, fmt.Errorf("explorer: masters: %w", err)
		}
		recs = append(recs, gs...)
	}
	return NewMasters(recs)
}

// NewMasters builds a masters' database from records.
func NewMasters(recs []*toguz.Game) (*Masters, error) {
	m := &Masters{index: map[uint64][]entry{}}
	for _, g := range recs {
		start, err := g.StartPosition()
		if err != nil {
			return nil, fmt.Errorf("explorer: masters: %w", err)
		}
		mg := MasterGame{N: len(m.games) + 1, White: g.Tag("White"), Black: g.Tag("Black"), Event: g.Tag("Event"),
			Site: g.Tag("Site"), Result: g.Result, Moves: g.Moves(), Record: g}
		mg.Date, mg.Year = recordDate(g.Tag("Date"))
		var sum, n int
		for _, t := range []string{"WhiteELO", "BlackELO", "WhiteElo", "BlackElo"} {
			if v, err := strconv.Atoi(g.Tag(t)); err == nil && v > 0 {
				sum, n = sum+v, n+1
			}
		}
		if n == 2 {
			mg.Rating = sum / 2
		}
		i := int32(len(m.games))
		m.games = append(m.games, mg)
		Walk(start, mg.Moves, func(key uint64, mv toguz.Move) {
			m.index[key] = append(m.index[key], entry{game: i, move: mv})
		})
	}
	return m, nil
}

// recordDate reads a record's Date: "2023.02.01", "2023-02-01" or a year.
func recordDate(s string) (time.Time, string) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006.01.02", time.DateOnly, "02.01.2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, ""
		}
	}
	if y, err := strconv.Atoi(s); err == nil && y > 1900 && y < 3000 {
		return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), s
	}
	return time.Time{}, ""
}

// Len returns the number of games.
func (m *Masters) Len() int { return len(m.games) }

// Game returns game n (1-based); ok is false when there is none.
func (m *Masters) Game(n int) (MasterGame, bool) {
	if n < 1 || n > len(m.games) {
		return MasterGame{}, false
	}
	return m.games[n-1], true
}

// MasterID is a master game's id in Refs ("m12"): not a site game's id,
// which has 8 characters.
func MasterID(n int) string { return "m" + strconv.Itoa(n) }

// ParseMasterID reads a MasterID; ok is false for anything else.
func ParseMasterID(id string) (int, bool) {
	if !strings.HasPrefix(id, "m") {
		return 0, false
	}
	n, err := strconv.Atoi(id[1:])
	return n, err == nil && n > 0
}

// Query returns the moves played from the position of key in the games
// that pass f. The masters' records have no time control: a filter on
// categories selects them only when it includes 0 (none).
func (m *Masters) Query(key uint64, f Filter) Answer {
	var by [toguz.MaxHoles + 1]Stats
	for _, e := range m.index[key] {
		g := &m.games[e.game]
		if !f.Selects(0, Band(g.Rating), Month(g.Date)) {
			continue
		}
		s := &by[e.move]
		s.Move = e.move
		w, d, b := Counts(g.Result)
		s.Games, s.White, s.Draws, s.Black = s.Games+1, s.White+w, s.Draws+d, s.Black+b
		if g.Rating > 0 {
			s.RatingSum, s.Rated = s.RatingSum+int64(g.Rating), s.Rated+1
		}
		ref := Ref{ID: MasterID(g.N), Rating: g.Rating, DateMS: g.Date.UnixMilli()}
		if g.Date.IsZero() {
			ref.DateMS = 0
		}
		s.Top, s.Last = max(s.Top, ref.TopKey()), max(s.Last, ref.LastKey())
	}
	var a Answer
	for _, s := range by {
		if s.Games > 0 {
			a.Moves = append(a.Moves, s)
		}
	}
	a.Finish()
	return a
}
