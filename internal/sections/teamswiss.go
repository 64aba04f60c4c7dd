package sections

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/teamswiss"
)

// A team Swiss section (system teamswiss) is a Swiss of teams by FIDE's
// Swiss Team Pairing System (C.04.6): its teams are its players' clubs
// (or federations, Spec.TeamsBy), each playing matches of Spec.TeamBoards
// boards. At the first pairing the section's players are seeded as in any
// section (by rating), each team's players in that order (the first board
// first, the players past the boards its reserves, who play when one
// before them is absent), the teams numbered by the mean rating of their
// first boards (C.04.6 1.1 leaves the order to the competition); the
// teams are written into the section's event as TRF 013 lines, the rules
// as XXT (package teamswiss says what they hold). The arbiter enters the
// boards' results as in any section; a match's points and the team
// standings (match points, then game points) come from them.

// MaxBoards bounds the boards of a team match.
const MaxBoards = 10

// checkTeams validates a team Swiss spec.
func (sp *Spec) checkTeams() error {
	if sp.Rounds < 1 || sp.Rounds > MaxRounds {
		return bad("sections.err_rounds", sp.Key, MaxRounds)
	}
	if sp.TeamBoards < 1 || sp.TeamBoards > MaxBoards {
		return bad("teamswiss.err_boards", sp.Key, MaxBoards)
	}
	if sp.TeamsBy == "" {
		sp.TeamsBy = "club"
	}
	if sp.TeamsBy != "club" && sp.TeamsBy != "federation" {
		return bad("sections.err_limits", sp.Key)
	}
	return nil
}

// teamOf is the team a register entry plays for in s ("" none).
func teamOf(s *Section, p federation.Player) string {
	if s.TeamsBy == "federation" {
		return strings.TrimSpace(p.Federation)
	}
	return strings.TrimSpace(p.Club)
}

// teamEligible: a team Swiss takes only players with a team.
// Once it has begun, only players of its teams (a late entry joins his
// team as a reserve).
func (c *Championship) teamEligible(s *Section, p federation.Player) (bool, string) {
	if s.System != tournament.TeamSwiss {
		return true, ""
	}
	name := teamOf(s, p)
	if name == "" {
		return false, "teamswiss.why_team"
	}
	if s.Round() > 0 {
		rosters, err := teamswiss.Rosters(s.Event)
		if err != nil || !slices.ContainsFunc(rosters, func(r teamswiss.Roster) bool { return r.Name == name }) {
			return false, "teamswiss.why_team"
		}
	}
	return true, ""
}

// formTeams writes the teams of a team Swiss section into its event before
// its first round (after the seeding): nothing for another section or a
// later round. A team with fewer players than boards cannot play: the
// error names it, for the arbiter to withdraw its players or enter more.
func (c *Championship) formTeams(s *Section) error {
	if s.System != tournament.TeamSwiss {
		return nil
	}
	if s.Round() > 0 {
		return c.lateMembers(s)
	}
	s.seed()
	e := s.Event
	e.Scoring.PairingBye = 0.5 // the bye is a drawn match (C.04.6 1.4): each board a draw
	type tm struct {
		name    string
		members []int
		mean    float64
	}
	byName := map[string]*tm{}
	var teams []*tm
	for i := range e.Players {
		if slices.Contains(e.Withdrawn, i+1) {
			continue
		}
		name := teamOf(s, c.Players[s.IDs[i]])
		t := byName[name]
		if t == nil {
			t = &tm{name: name}
			byName[name] = t
			teams = append(teams, t)
		}
		t.members = append(t.members, e.Players[i].Start)
	}
	if len(teams) < 2 {
		return conflict("teamswiss.err_teams", s.Name)
	}
	for _, t := range teams {
		if len(t.members) < s.TeamBoards {
			return conflict("teamswiss.err_short", s.Name, t.name, len(t.members), s.TeamBoards)
		}
		sum := 0
		for _, m := range t.members[:s.TeamBoards] {
			sum += e.Player(m).Rating
		}
		t.mean = float64(sum) / float64(s.TeamBoards)
	}
	slices.SortStableFunc(teams, func(a, b *tm) int { return cmp.Or(cmp.Compare(b.mean, a.mean), cmp.Compare(a.name, b.name)) })
	e.Extra = slices.DeleteFunc(e.Extra, func(l string) bool { return strings.HasPrefix(l, "013") || strings.HasPrefix(l, "XXT") })
	for _, t := range teams {
		e.Extra = append(e.Extra, teamswiss.RosterLine(teamswiss.Roster{Name: t.name, Members: t.members}))
	}
	e.Extra = append(e.Extra, fmt.Sprintf("XXT %d A MP", s.TeamBoards))
	return nil
}

// TeamMatch is one match of a team Swiss round as the pages show it.
type TeamMatch struct {
	White string `json:"white"`           // the team with White on the first board
	Black string `json:"black,omitempty"` // the other, "" for the bye
	Score string `json:"score,omitempty"` // "2½–1½", "" while a board has no result
}

// TeamRow is one team's line of a team Swiss's standings.
type TeamRow struct {
	Rank    int    `json:"rank"`
	Name    string `json:"team"`
	Matches int    `json:"matches"`
	MP      int    `json:"match_points"`
	GP      string `json:"game_points"`
}

// TeamRound returns round r's matches of a team Swiss section.
func (s *Section) TeamRound(r int) []TeamMatch {
	if s.System != tournament.TeamSwiss || r < 1 || r > s.Round() {
		return nil
	}
	h, err := teamswiss.HistoryOf(s.Event)
	if err != nil {
		return nil
	}
	team := map[int]int{}
	for t, ro := range h.Rosters {
		for _, m := range ro.Members {
			team[m] = t
		}
	}
	var out, bye []TeamMatch
	seen := map[int]bool{}
	for _, pr := range s.teamOrder(s.Event.Pairs(r)) {
		t := team[pr.White]
		if seen[t] {
			continue
		}
		seen[t] = true
		tr := h.Rounds[t][r-1]
		if pr.Black == 0 {
			bye = append(bye, TeamMatch{White: h.Rosters[t].Name})
			continue
		}
		o := tr.Opponent - 1
		seen[o] = true
		w, b := t, o
		if tr.First != teamswiss.White {
			w, b = o, t
		}
		m := TeamMatch{White: h.Rosters[w].Name, Black: h.Rosters[b].Name}
		if x, y := h.Rounds[w][r-1], h.Rounds[b][r-1]; !x.Pending && !y.Pending {
			m.Score = points(float64(x.GP)/2) + "–" + points(float64(y.GP)/2)
		}
		out = append(out, m)
	}
	return append(out, bye...)
}

// TeamRows returns a team Swiss section's standings: match points, then
// game points.
func (s *Section) TeamRows() []TeamRow {
	if s.System != tournament.TeamSwiss || s.Round() == 0 {
		return nil
	}
	st, err := teamswiss.Standings(s.Event, 0)
	if err != nil {
		return nil
	}
	out := make([]TeamRow, len(st))
	for i, x := range st {
		out[i] = TeamRow{Rank: x.Rank, Name: x.Name, Matches: x.Matches, MP: x.MP, GP: points(x.GP)}
	}
	return out
}

// lateMembers puts the players who entered a team Swiss after its first
// round at the end of their team's roster (reserves); a player whose team
// is not in the section cannot play, and the error names him.
func (c *Championship) lateMembers(s *Section) error {
	e := s.Event
	rosters, err := teamswiss.Rosters(e)
	if err != nil {
		return err
	}
	in := map[int]bool{}
	idx := map[string]int{}
	for i, r := range rosters {
		idx[r.Name] = i
		for _, m := range r.Members {
			in[m] = true
		}
	}
	changed := false
	for i := range e.Players {
		st := e.Players[i].Start
		if in[st] || slices.Contains(e.Withdrawn, st) {
			continue
		}
		name := teamOf(s, c.Players[s.IDs[i]])
		t, ok := idx[name]
		if !ok {
			return conflict("teamswiss.err_no_team", s.Name, c.Name(s.IDs[i], "en"), name)
		}
		rosters[t].Members = append(rosters[t].Members, st)
		changed = true
	}
	if !changed {
		return nil
	}
	n := 0
	for i, l := range e.Extra {
		if strings.HasPrefix(l, "013") {
			e.Extra[i] = teamswiss.RosterLine(rosters[n])
			n++
		}
	}
	return nil
}

// teamOrder puts a team Swiss round's boards match by match, each match's
// first board first (a lineup is its team's players in roster order, so
// the board's two roster places grow with the board); the matches in the
// order their first boards come in pairs, the byes last. Other sections'
// pairs are returned as they are.
func (s *Section) teamOrder(pairs []tournament.Pair) []tournament.Pair {
	if s.System != tournament.TeamSwiss {
		return pairs
	}
	rosters, err := teamswiss.Rosters(s.Event)
	if err != nil {
		return pairs
	}
	team, place := map[int]int{}, map[int]int{}
	for t, ro := range rosters {
		for i, m := range ro.Members {
			team[m], place[m] = t+1, i
		}
	}
	match := map[int]int{} // a team's match's place in the order
	for _, pr := range pairs {
		if pr.Black == 0 {
			continue
		}
		if _, ok := match[team[pr.White]]; !ok {
			n := len(match) / 2
			match[team[pr.White]], match[team[pr.Black]] = n, n
		}
	}
	out := slices.Clone(pairs)
	slices.SortStableFunc(out, func(a, b tournament.Pair) int {
		if (a.Black == 0) != (b.Black == 0) {
			if a.Black == 0 {
				return 1
			}
			return -1
		}
		if a.Black == 0 {
			return cmp.Or(cmp.Compare(team[a.White], team[b.White]), cmp.Compare(place[a.White], place[b.White]))
		}
		return cmp.Or(cmp.Compare(match[team[a.White]], match[team[b.White]]),
			cmp.Compare(place[a.White]+place[a.Black], place[b.White]+place[b.Black]))
	})
	return out
}
