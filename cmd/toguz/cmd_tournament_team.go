package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/teamswiss"
)

// tnTeam adds a team (a TRF 013 line) and sets the team rules (XXT).
func tnTeam(_ context.Context, e env) error {
	fs := newFlags(e, "tournament team", "FILE.trf [NAME START...]", "Adds a team of a team Swiss (-system teamswiss): its name and its players'\nstart numbers, the first board first (a TRF 013 line); players beyond the boards\nare reserves, who play when one before them is absent. The flags set the team\nrules (an XXT line): the boards of a match, the colour preferences and the\nprimary score (FIDE C.04.6 1.2, 1.7).")
	boards := fs.Int("boards", 0, "the boards of a match (default: the smallest team's players)")
	colours := fs.String("colours", "", "colour preferences: A (simple, FIDE's default), B (strong and mild) or none")
	score := fs.String("score", "", "primary score: MP (match points, the default) or GP (game points)")
	if err := fs.Parse(e.args); err != nil {
		return err
	}
	args := fs.Args()
	if len(args) == 0 {
		return errors.New("give FILE.trf [NAME START...]")
	}
	file := args[0]
	return updateEvent(file, func(ev *tournament.Event) error {
		if ev.System != tournament.TeamSwiss {
			return fmt.Errorf("%s is a %s event; teams are for -system teamswiss", file, ev.System)
		}
		if len(args) == 2 {
			return errors.New("a team needs its players' start numbers after its name")
		}
		if len(args) > 2 {
			r := teamswiss.Roster{Name: args[1]}
			if len(r.Name) > 32 {
				return fmt.Errorf("team name %q: at most 32 characters (TRF columns 5-36)", r.Name)
			}
			for _, a := range args[2:] {
				s, err := strconv.Atoi(a)
				if err != nil {
					return fmt.Errorf("START %q is not a start number", a)
				}
				r.Members = append(r.Members, s)
			}
			ev.Extra = append(ev.Extra, teamswiss.RosterLine(r))
			if _, err := teamswiss.Rosters(ev); err != nil {
				return err
			}
		}
		if *boards != 0 || *colours != "" || *score != "" {
			rosters, err := teamswiss.Rosters(ev)
			if err != nil {
				return err
			}
			cur, err := teamswiss.SettingsOf(ev, rosters)
			if err != nil {
				return err
			}
			line := setXXT(cur, *boards, *colours, *score)
			ev.Extra = slices.DeleteFunc(ev.Extra, func(l string) bool { return strings.HasPrefix(l, "XXT") })
			ev.Extra = append(ev.Extra, line)
			if _, err := teamswiss.SettingsOf(ev, rosters); err != nil {
				return err
			}
		}
		return nil
	})
}

func setXXT(cur teamswiss.Settings, boards int, colours, score string) string {
	if boards != 0 {
		cur.Boards = boards
	}
	col := map[teamswiss.PreferenceType]string{teamswiss.TypeA: "A", teamswiss.TypeB: "B", teamswiss.NoPreferences: "none"}[cur.Preferences]
	if colours != "" {
		col = colours
	}
	sc := "MP"
	if cur.GamePoints {
		sc = "GP"
	}
	if score != "" {
		sc = score
	}
	return fmt.Sprintf("XXT %d %s %s", cur.Boards, col, sc)
}

// pairTeams pairs a team Swiss's next round, writes its boards into the
// file (unless dry) and prints the teams' pairing as the pairing programs
// do: the number of matches, then the team with White on board 1 and the
// other, one match a line, "team 0" for the bye.
func pairTeams(w io.Writer, file string, ev *tournament.Event, dry bool) error {
	res, pairs, err := teamswiss.Pairer{}.PairTeams(ev)
	if err != nil {
		return err
	}
	if err := ev.Apply(ev.Played()+1, pairs); err != nil {
		return err
	}
	if !dry {
		if err := saveEvent(file, ev); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, teamswiss.Format(res))
	return err
}

// teamStandings prints a team Swiss's standings: match points, then game
// points.
func teamStandings(w io.Writer, ev *tournament.Event, after int) error {
	st, err := teamswiss.Standings(ev, after)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Rank\tNo\tTeam\tMatches\tMP\tGP")
	for _, s := range st {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%d\t%s\n", s.Rank, s.Team, s.Name, s.Matches, s.MP, strconv.FormatFloat(s.GP, 'f', 1, 64))
	}
	return tw.Flush()
}
