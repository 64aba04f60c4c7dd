package teamswiss

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toguz/toguz/internal/tournament"
)

// A team event in TRF: the players' 001 lines hold the boards' games as in
// any event; a 013 line a team names its players (TRF-16's team record:
// the name in columns 5-36, then the players' start numbers, four columns
// each with a blank between, the first board first); the extension line
//
//	XXT 4 A MP
//
// gives the boards of a match, the colour preferences (A, B or none, 1.7)
// and the primary score (MP match points or GP game points, 1.2). Without
// it: as many boards as the smallest team has players, Type A, match
// points. The teams' pairing numbers are the order of their 013 lines
// (1.1: the competition numbers them).
//
// What a round is for a team is derived from its players' entries: the
// opponent team is the team of its players' opponents; the game points
// are its boards' points (a win 1, a draw ½, a forfeit won 1); the match
// points 2, 1, 0 as the game points compare (C.07's match points); its
// colour is the colour of its first player paired that round (its first
// board, 1.6.1), where at least one game of the match was played. A match
// where no game was played was forfeited: no meeting ([C1]), no colour,
// and its winner may not have the bye ([C2]). The pairing-allocated bye
// (its players' U) scores as a drawn match (1.4): 1 match point and half
// the boards in game points.

// Roster is one team of the event: its name and its players' start
// numbers, the first board first.
type Roster struct {
	Name    string
	Members []int
}

// Settings are the team rules the XXT line gives.
type Settings struct {
	Boards      int
	Preferences PreferenceType
	// GamePoints: game points are the primary score (1.2).
	GamePoints bool
}

// Rosters reads the event's 013 lines.
func Rosters(e *tournament.Event) ([]Roster, error) {
	var out []Roster
	in := map[int]string{}
	for _, l := range e.Extra {
		if !strings.HasPrefix(l, "013") {
			continue
		}
		name := strings.TrimSpace(l[min(4, len(l)):min(36, len(l))])
		r := Roster{Name: name}
		if name == "" {
			return nil, fmt.Errorf("013 %q: a team needs a name (columns 5-36)", l)
		}
		if len(l) > 36 {
			for _, f := range strings.Fields(l[36:]) {
				s, err := strconv.Atoi(f)
				if err != nil || e.Player(s) == nil {
					return nil, fmt.Errorf("team %s: %q is not a player's start number", name, f)
				}
				if t, ok := in[s]; ok {
					return nil, fmt.Errorf("player %d is in two teams, %s and %s", s, t, name)
				}
				in[s] = name
				r.Members = append(r.Members, s)
			}
		}
		if len(r.Members) == 0 {
			return nil, fmt.Errorf("team %s has no players", name)
		}
		out = append(out, r)
	}
	return out, nil
}

// RosterLine writes a team's 013 line.
func RosterLine(r Roster) string {
	var b strings.Builder
	fmt.Fprintf(&b, "013 %-32.32s", r.Name)
	for i, s := range r.Members {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%4d", s)
	}
	return b.String()
}

// SettingsOf reads the XXT line (the defaults without one).
func SettingsOf(e *tournament.Event, rosters []Roster) (Settings, error) {
	s := Settings{}
	for _, r := range rosters {
		if s.Boards == 0 || len(r.Members) < s.Boards {
			s.Boards = len(r.Members)
		}
	}
	for _, l := range e.Extra {
		if !strings.HasPrefix(l, "XXT") {
			continue
		}
		for i, f := range strings.Fields(l[3:]) {
			switch strings.ToUpper(f) {
			case "A":
				s.Preferences = TypeA
			case "B":
				s.Preferences = TypeB
			case "NONE":
				s.Preferences = NoPreferences
			case "MP":
				s.GamePoints = false
			case "GP":
				s.GamePoints = true
			default:
				n, err := strconv.Atoi(f)
				if i != 0 || err != nil || n < 1 || n > 100 {
					return s, fmt.Errorf("XXT %q: the boards (1-100), then A, B or none, then MP or GP", strings.TrimSpace(l[3:]))
				}
				s.Boards = n
			}
		}
	}
	for _, r := range rosters {
		if len(r.Members) < s.Boards {
			return s, fmt.Errorf("team %s has %d players for %d boards", r.Name, len(r.Members), s.Boards)
		}
	}
	return s, nil
}

// Round is one team's round as its players' entries make it.
type Round struct {
	Opponent int    // the opponent team's number, 0 for none
	Colour   Colour // the first board's colour in a match played, else None
	First    Colour // the first board's colour as paired, played or not
	Played   bool   // at least one game of the match was played
	Bye      bool   // the pairing-allocated bye
	MP, GP   int    // match points; game points in half points
	Pending  bool   // a game of the match has no result yet
}

// History is every team's rounds, teams in order, rounds from 1.
type History struct {
	Rosters  []Roster
	Settings Settings
	Rounds   [][]Round // Rounds[t][r-1]: team t+1's round r
}

// HistoryOf derives the teams' rounds from the event's entries.
func HistoryOf(e *tournament.Event) (*History, error) {
	rosters, err := Rosters(e)
	if err != nil {
		return nil, err
	}
	if len(rosters) < 2 {
		return nil, fmt.Errorf("a team event needs at least two teams (013 lines), not %d", len(rosters))
	}
	set, err := SettingsOf(e, rosters)
	if err != nil {
		return nil, err
	}
	teamOf := map[int]int{}
	for t, r := range rosters {
		for _, s := range r.Members {
			teamOf[s] = t + 1
		}
	}
	// A player in no team is not paired (one added before his team, a late
	// entry not yet in it); one who played for none is an error.
	for i := range e.Players {
		p := &e.Players[i]
		if teamOf[p.Start] != 0 {
			continue
		}
		for r, en := range p.Rounds {
			if en.Opponent > 0 || en.Code == tournament.PairingBye {
				return nil, fmt.Errorf("player %d (%s) played round %d but is in no team (013)", p.Start, p.Name, r+1)
			}
		}
	}
	played := e.Played()
	h := &History{Rosters: rosters, Settings: set, Rounds: make([][]Round, len(rosters))}
	for t, ro := range rosters {
		h.Rounds[t] = make([]Round, played)
		for r := 1; r <= played; r++ {
			var tr Round
			for _, s := range ro.Members {
				en := e.Player(s).Entry(r)
				if en.Code == tournament.PairingBye {
					tr.Bye = true
				}
				if en.Opponent == 0 {
					continue
				}
				o := teamOf[en.Opponent]
				if tr.Opponent != 0 && o != tr.Opponent {
					return nil, fmt.Errorf("round %d: team %s's players face players of two teams, %s and %s", r, ro.Name, rosters[tr.Opponent-1].Name, rosters[o-1].Name)
				}
				if o == t+1 {
					return nil, fmt.Errorf("round %d: team %s's players face each other", r, ro.Name)
				}
				if tr.Opponent == 0 { // the first board: the first player paired
					tr.Colour = colourOf(en.Colour)
					tr.First = tr.Colour
				}
				tr.Opponent = o
				switch en.Code {
				case tournament.Win, tournament.WinUnrated, tournament.ForfeitWin:
					tr.GP += 2
				case tournament.Draw, tournament.DrawUnrated:
					tr.GP++
				case tournament.Pending:
					tr.Pending = true
				}
				if en.Played() {
					tr.Played = true
				}
			}
			if tr.Opponent != 0 {
				tr.Bye = false
			} else if tr.Bye {
				tr.MP, tr.GP = 1, set.Boards
			}
			h.Rounds[t][r-1] = tr
		}
	}
	// Match points as the game points compare; a colour only for a match
	// actually played (1.6.1).
	for t := range h.Rounds {
		for r, tr := range h.Rounds[t] {
			if tr.Opponent == 0 || tr.Pending {
				continue
			}
			og := h.Rounds[tr.Opponent-1][r].GP
			switch {
			case tr.GP > og:
				h.Rounds[t][r].MP = 2
			case tr.GP == og:
				h.Rounds[t][r].MP = 1
			}
			if !tr.Played {
				h.Rounds[t][r].Colour = None
			}
		}
	}
	return h, nil
}

func colourOf(c tournament.Colour) Colour {
	switch c {
	case tournament.White:
		return White
	case tournament.Black:
		return Black
	}
	return None
}

// scores are a team's match and game points after round r.
func (h *History) scores(t, r int) (mp, gp int) {
	for _, tr := range h.Rounds[t][:min(r, len(h.Rounds[t]))] {
		mp += tr.MP
		gp += tr.GP
	}
	return mp, gp
}

func (h *History) primary(t, r int) int {
	mp, gp := h.scores(t, r)
	if h.Settings.GamePoints {
		return gp
	}
	return mp
}

// lineup is a team's players in round r: the first Boards of its players
// available (not withdrawn, no bye asked for), in roster order; absent
// when none is; an error when some are but too few for the boards.
func (h *History) lineup(e *tournament.Event, t, r int) ([]int, bool, error) {
	avail := map[int]bool{}
	for _, s := range e.Available(r) {
		avail[s] = true
	}
	var out []int
	for _, s := range h.Rosters[t].Members {
		if avail[s] && len(out) < h.Settings.Boards {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, true, nil
	}
	if len(out) < h.Settings.Boards {
		return nil, false, fmt.Errorf("round %d: team %s has %d players available for %d boards", r, h.Rosters[t].Name, len(out), h.Settings.Boards)
	}
	return out, false, nil
}

// InputFor builds the input of the event's next round.
func InputFor(e *tournament.Event) (Input, *History, error) {
	h, err := HistoryOf(e)
	if err != nil {
		return Input{}, nil, err
	}
	r := e.Played() + 1
	in := Input{Round: r, Rounds: e.Rounds, Preferences: h.Settings.Preferences, InitialColour: White}
	if e.Colour == "black1" {
		in.InitialColour = Black
	}
	for t := range h.Rosters {
		tm := Team{ID: t + 1}
		mp, gp := h.scores(t, r-1)
		tm.Primary, tm.Secondary = mp, gp
		if h.Settings.GamePoints {
			tm.Primary, tm.Secondary = gp, mp
		}
		for i, tr := range h.Rounds[t] {
			if tr.Pending {
				return Input{}, nil, fmt.Errorf("round %d: team %s's match has a game without a result", i+1, h.Rosters[t].Name)
			}
			tm.Colours = append(tm.Colours, tr.Colour)
			if tr.Played {
				tm.Opponents = append(tm.Opponents, tr.Opponent)
				tm.Matches++
			}
			if tr.Bye || tr.Opponent != 0 && !tr.Played && tr.MP == 2 {
				tm.ByeBarred = true
			}
			if tr.Bye || tr.Opponent != 0 {
				tm.PairedBefore = true
			}
		}
		if r >= 2 {
			if last := h.Rounds[t][r-2]; last.Played {
				tm.Floated = h.primary(t, r-2) != h.primary(last.Opponent-1, r-2)
			}
		}
		_, absent, err := h.lineup(e, t, r)
		if err != nil {
			return Input{}, nil, err
		}
		tm.Absent = absent
		in.Teams = append(in.Teams, tm)
	}
	return in, h, nil
}

// Pairer pairs the next round of a team event by C.04.6; it implements
// tournament.Pairer, returning the boards: on board b the players b of the
// two teams' lineups, the team with White on the first board White on the
// odd boards and Black on the even ones; the bye team's players each with
// the pairing-allocated bye.
type Pairer struct{ MaxNodes int }

var _ tournament.Pairer = Pairer{}

// Pair implements tournament.Pairer.
func (p Pairer) Pair(e *tournament.Event) ([]tournament.Pair, error) {
	_, pairs, err := p.PairTeams(e)
	return pairs, err
}

// PairTeams pairs the next round and returns the teams' pairing with the
// boards.
func (p Pairer) PairTeams(e *tournament.Event) (Pairing, []tournament.Pair, error) {
	in, h, err := InputFor(e)
	if err != nil {
		return Pairing{}, nil, err
	}
	in.MaxNodes = p.MaxNodes
	res, err := PairRound(in)
	if err != nil {
		return Pairing{}, nil, fmt.Errorf("round %d: %w", in.Round, err)
	}
	var out []tournament.Pair
	for _, m := range res.Matches {
		w, _, _ := h.lineup(e, m.White-1, in.Round)
		b, _, _ := h.lineup(e, m.Black-1, in.Round)
		for i := range w {
			if i%2 == 0 {
				out = append(out, tournament.Pair{White: w[i], Black: b[i]})
			} else {
				out = append(out, tournament.Pair{White: b[i], Black: w[i]})
			}
		}
	}
	if res.Bye != 0 {
		l, _, _ := h.lineup(e, res.Bye-1, in.Round)
		for _, s := range l {
			out = append(out, tournament.Pair{White: s})
		}
	}
	return res, out, nil
}

// Standing is one team's line of the standings.
type Standing struct {
	Rank, Team int
	Name       string
	MP         int     // match points
	GP         float64 // game points
	Matches    int     // matches with a result (the bye included)
}

// Standings ranks the teams after round r (all rounds when r <= 0) by
// match points, then game points (C.07's primary and first secondary
// score for teams; game points first where they are the primary score),
// teams level sharing a rank.
func Standings(e *tournament.Event, r int) ([]Standing, error) {
	h, err := HistoryOf(e)
	if err != nil {
		return nil, err
	}
	if r <= 0 || r > e.Played() {
		r = e.Played()
	}
	var out []Standing
	for t, ro := range h.Rosters {
		mp, gp := 0, 0
		n := 0
		for _, tr := range h.Rounds[t][:r] {
			if tr.Pending {
				continue
			}
			mp += tr.MP
			gp += tr.GP
			if tr.Opponent != 0 || tr.Bye {
				n++
			}
		}
		out = append(out, Standing{Team: t + 1, Name: ro.Name, MP: mp, GP: float64(gp) / 2, Matches: n})
	}
	key := func(s Standing) [2]float64 {
		if h.Settings.GamePoints {
			return [2]float64{s.GP, float64(s.MP)}
		}
		return [2]float64{float64(s.MP), s.GP}
	}
	slices.SortStableFunc(out, func(a, b Standing) int {
		ka, kb := key(a), key(b)
		if c := slices.Compare(kb[:], ka[:]); c != 0 {
			return c
		}
		return a.Team - b.Team
	})
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && key(out[i]) == key(out[i-1]) {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out, nil
}
