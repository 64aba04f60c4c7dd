package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/toguz/toguz/internal/atomicfile"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/systems"
)

// tournamentCommands are the subcommands of `toguz tournament`, the
// arbiter's table offline. The event file is TRF-16 (docs/tournaments.md).
var tournamentCommands = []command{
	{"new", "create an event file", tnNew},
	{"add", "add a player (a late entry after the first round)", tnAdd},
	{"pair", "pair the next round and print it as pairing programs do (-p)", tnPair},
	{"result", "enter or correct a game's result", tnResult},
	{"bye", "record a half-, zero- or full-point bye requested for a round", tnBye},
	{"withdraw", "take a player out of the rounds not yet paired", tnWithdraw},
	{"standings", "show the standings with the event's tie-breaks", tnStandings},
	{"print", "pairings and standings as HTML for printing, or CSV", tnPrint},
	{"export", "write the event as TRF, or the rating list's CSV", tnExport},
	{"check", "pair every round again and report each difference (FIDE's checker)", tnCheck},
	{"generate", "make a random tournament as TRF (FIDE's random tournament generator)", tnGenerate},
	{"team", "add a team of a team Swiss, or set its boards and colour rules", tnTeam},
}

func runTournament(ctx context.Context, e env) error {
	if len(e.args) == 0 || e.args[0] == "-h" || e.args[0] == "--help" || e.args[0] == "help" {
		w := e.stderr
		fmt.Fprintln(w, "Usage: toguz tournament COMMAND [flags] FILE.trf ...\n\nCommands:")
		for _, c := range tournamentCommands {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
		fmt.Fprintln(w, "\nRun 'toguz tournament COMMAND -h' for the flags of a command.")
		if len(e.args) == 0 {
			return errUsage
		}
		return flag.ErrHelp
	}
	for _, c := range tournamentCommands {
		if c.name == e.args[0] {
			sub := e
			sub.args = e.args[1:]
			return c.run(ctx, sub)
		}
	}
	return fmt.Errorf("unknown command %q (toguz tournament help)", e.args[0])
}

// updateEvent reads an event file, changes it with change and writes it
// back; nothing is written when change fails.
func updateEvent(file string, change func(*tournament.Event) error) error {
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	if err := change(ev); err != nil {
		return err
	}
	return saveEvent(file, ev)
}

// loadEvent reads an event file.
func loadEvent(name string) (*tournament.Event, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	ev, err := tournament.ReadTRF(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ev, nil
}

func saveEvent(name string, ev *tournament.Event) error {
	return atomicfile.Write(name, ev.WriteTRF)
}

// oneFile parses the flags and returns the event file argument and the
// rest.
func oneFile(fs *flag.FlagSet, args []string, more int) (string, []string, error) {
	if err := parseFlags(fs, args); err != nil {
		return "", nil, err
	}
	if fs.NArg() != 1+more {
		fs.Usage()
		return "", nil, errUsage
	}
	return fs.Arg(0), fs.Args()[1:], nil
}

func tnNew(_ context.Context, e env) error {
	fs := newFlags(e, "tournament new", "FILE.trf", "Creates an event file (TRF-16 with toguz's XX lines); it must not exist.")
	name := fs.String("name", "", "the event's name")
	city := fs.String("city", "", "city")
	fed := fs.String("federation", "", "the organising federation (three letters)")
	start := fs.String("start", "", "start date, YYYY/MM/DD")
	end := fs.String("end", "", "end date, YYYY/MM/DD")
	arbiter := fs.String("arbiter", "", "chief arbiter")
	tc := fs.String("time", "", "time control, in words")
	system := fs.String("system", "dutch", "pairing system: roundrobin, double, knockout, dutch, baku (Dutch with the Baku acceleration), teamswiss (FIDE's team Swiss), doubleswiss (FIDE Double-Swiss), dubov, burstein")
	rounds := fs.Int("rounds", 0, "rounds (a Swiss: required; a round robin: from the players; doubleswiss: matches, two rounds of the file each)")
	tbs := fs.String("tiebreaks", "", `tie-breaks in order, C.07's acronyms: "DE BH/C1 BH SB WIN" (DE WIN WON BPG BWG GE BH SB ARO PS KS, /C1 /C2 /M1)`)
	ko := fs.String("knockout", "2 rapid:2 blitz:2 armageddon", "a knock-out's match: classical games, then tie-break stages kind:games")
	scoring := fs.String("scoring", "", "points other than FIDE's, e.g. PAB=0.5 (W D L FW FL PAB HPB FPB ZPB)")
	rep := fs.Int("repetition", 0, "draw a game at the Nth occurrence of a position (0: off)")
	colour := fs.String("colour", "white1", "the top seed's colour in round 1: white1 or black1")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	sys, err := tournament.ParseSystem(*system)
	if err != nil {
		return err
	}
	if sys.Swiss() && *rounds < 1 {
		return errors.New("-rounds: a Swiss needs its number of rounds")
	}
	if *rep < 0 || *rep == 1 {
		return errors.New("-repetition: 2 or more, or 0 for off")
	}
	if sys == tournament.DoubleSwiss {
		*rounds *= 2 // the file has two rounds a match
	}
	ev := tournament.New(*name, sys, *rounds)
	ev.City, ev.Federation, ev.StartDate, ev.EndDate, ev.ChiefArbiter, ev.TimeControl = *city, *fed, *start, *end, *arbiter, *tc
	ev.Colour, ev.Repetition = *colour, *rep
	if *colour != "white1" && *colour != "black1" {
		return fmt.Errorf("-colour %q: white1 or black1", *colour)
	}
	if ev.TieBreaks, err = tournament.ParseTieBreaks(*tbs); err != nil {
		return err
	}
	if sys == tournament.Knockout {
		if ev.Knockout, err = tournament.ParseKnockout(*ko); err != nil {
			return err
		}
	}
	if *scoring != "" {
		if ev.Scoring, err = tournament.ParseScoring(*scoring, ev.Scoring); err != nil {
			return fmt.Errorf("-scoring: %w", err)
		}
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer closeInto(f, &err)
	return ev.WriteTRF(f)
}

func tnAdd(_ context.Context, e env) error {
	fs := newFlags(e, "tournament add", "FILE.trf", "Adds a player with the next start number. After the first round (a Swiss only)\nthe rounds missed get -late.")
	name := fs.String("name", "", `the player's name, "Lastname, Firstname"`)
	rating := fs.Int("rating", 0, "rating (0: unrated)")
	fed := fs.String("fed", "", "federation (three letters)")
	sex := fs.String("sex", "", "m or w")
	title := fs.String("title", "", "title")
	birth := fs.String("birth", "", "birth date YYYY/MM/DD")
	id := fs.String("id", "", "the federation's player number")
	late := fs.String("late", "Z", "a late entry's missed rounds: Z (zero-point byes) or H (half-point)")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	if *sex != "" && *sex != "m" && *sex != "w" {
		return fmt.Errorf("-sex %q: m or w", *sex)
	}
	if len(*name) > 33 || len(*fed) > 3 || len(*title) > 3 || len(*id) > 11 || len(*birth) > 10 || *rating < 0 || *rating > 9999 {
		return errors.New("a field is longer than TRF's column (name 33, fed 3, title 3, id 11, birth 10, rating 4 digits)")
	}
	p := tournament.Player{Name: *name, Rating: *rating, Federation: *fed, Title: *title, Birth: *birth, ID: *id}
	if *sex != "" {
		p.Sex = (*sex)[0]
	}
	if len(*late) != 1 {
		return fmt.Errorf("-late %q: Z or H", *late)
	}
	added, err := ev.AddPlayer(p, tournament.Code((*late)[0]))
	if err != nil {
		return err
	}
	if err := saveEvent(file, ev); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d %s\n", added.Start, added.Name)
	return nil
}

func tnPair(_ context.Context, e env) error {
	fs := newFlags(e, "tournament pair", "FILE.trf", "Pairs the next round and prints it the way the FIDE-endorsed pairing programs\ndo with -p: the number of pairs, then one pair a line, White's and Black's start\nnumbers, 0 for the bye. The round is written into the file unless -dry-run.")
	system := fs.String("system", "", "pairing system (roundrobin, double, knockout, dutch, baku, teamswiss, doubleswiss, dubov, burstein); default the file's XXY")
	dry := fs.Bool("dry-run", false, "print the pairing, leave the file as it is")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	if *system != "" {
		if ev.System, err = tournament.ParseSystem(*system); err != nil {
			return err
		}
	}
	if ev.System == "" {
		return errors.New("the file names no system (XXY): give -system")
	}
	if ev.System == tournament.TeamSwiss {
		return pairTeams(e.stdout, file, ev, *dry)
	}
	p, err := tournament.PairerFor(ev.System, systems.Swiss())
	if err != nil {
		return err
	}
	r, pairs, err := tournament.PairNext(ev, p)
	if err != nil {
		return err
	}
	if ev.System == tournament.DoubleSwiss && r%2 == 1 {
		// A match is its two games: the second round of the file too.
		if _, _, err := tournament.PairNext(ev, p); err != nil {
			return err
		}
	}
	if !*dry {
		if err := saveEvent(file, ev); err != nil {
			return err
		}
	}
	return tournament.WritePairs(e.stdout, pairs)
}

func tnResult(_ context.Context, e env) error {
	fs := newFlags(e, "tournament result", "FILE.trf ROUND PLAYER RESULT", "Enters the result of the game PLAYER (either start number) plays in ROUND,\nWhite's result first: 1-0, 0-1, 1/2, +- and -+ (forfeits), -- (double forfeit),\nW-L, L-W, D-D (games not rated: a knock-out's rapid and blitz tie-breaks).")
	file, rest, err := oneFile(fs, e.args, 3)
	if err != nil {
		return err
	}
	r, err1 := strconv.Atoi(rest[0])
	s, err2 := strconv.Atoi(rest[1])
	if err1 != nil || err2 != nil {
		return fmt.Errorf("ROUND and PLAYER are numbers, not %q %q", rest[0], rest[1])
	}
	res, err := tournament.ParseResult(rest[2])
	if err != nil {
		return err
	}
	return updateEvent(file, func(ev *tournament.Event) error { return ev.SetResult(r, s, res) })
}

func tnBye(_ context.Context, e env) error {
	fs := newFlags(e, "tournament bye", "FILE.trf PLAYER ROUND H|Z|F", "Records a bye the player asked for in advance: H half a point, Z none, F a full\npoint. The round's entry is written before it is paired, so the pairing leaves\nthe player out (the pairing programs' convention).")
	file, rest, err := oneFile(fs, e.args, 3)
	if err != nil {
		return err
	}
	s, err1 := strconv.Atoi(rest[0])
	r, err2 := strconv.Atoi(rest[1])
	if err1 != nil || err2 != nil || len(rest[2]) != 1 {
		return fmt.Errorf("PLAYER ROUND H|Z|F, not %s", strings.Join(rest, " "))
	}
	return updateEvent(file, func(ev *tournament.Event) error { return ev.RequestBye(s, r, tournament.Code(rest[2][0])) })
}

func tnWithdraw(_ context.Context, e env) error {
	fs := newFlags(e, "tournament withdraw", "FILE.trf PLAYER", "Takes a player out of the rounds not yet paired (a Swiss leaves him out; a\nround robin's games are lost by forfeit).")
	file, rest, err := oneFile(fs, e.args, 1)
	if err != nil {
		return err
	}
	s, err := strconv.Atoi(rest[0])
	if err != nil {
		return fmt.Errorf("PLAYER is a start number, not %q", rest[0])
	}
	return updateEvent(file, func(ev *tournament.Event) error { return ev.Withdraw(s) })
}

func tnStandings(_ context.Context, e env) error {
	fs := newFlags(e, "tournament standings", "FILE.trf", "Shows the standings after the last round with every result (or -after), ranked\nby points and the event's tie-breaks in order (FIDE C.07).")
	after := fs.Int("after", 0, "the standings after this round")
	csvOut := fs.Bool("csv", false, "CSV instead of a table")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	if *csvOut {
		return ev.WriteStandingsCSV(e.stdout)
	}
	if ev.System == tournament.TeamSwiss {
		return teamStandings(e.stdout, ev, *after)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	head := "Rank\tNo\tName\tFed\tRating\tPts\t"
	for _, t := range ev.TieBreaks {
		head += t.String() + "\t"
	}
	fmt.Fprintln(tw, strings.TrimSuffix(head, "\t"))
	for _, s := range ev.Standings(*after) {
		rating := ""
		if s.Player.Rating > 0 {
			rating = strconv.Itoa(s.Player.Rating)
		}
		line := fmt.Sprintf("%d\t%d\t%s\t%s\t%s\t%s\t", s.Rank, s.Player.Start, s.Player.Name, s.Player.Federation, rating, strconv.FormatFloat(s.Points, 'f', 1, 64))
		for j, v := range s.Values {
			line += tournament.ValueText(ev.TieBreaks[j], v) + "\t"
		}
		fmt.Fprintln(tw, strings.TrimSuffix(line, "\t"))
	}
	return tw.Flush()
}

func tnPrint(_ context.Context, e env) error {
	fs := newFlags(e, "tournament print", "FILE.trf", "Writes the pairings of a round (default the last paired) and the standings as an\nHTML page for printing, or one of them as CSV.")
	round := fs.Int("round", 0, "the round's pairings (default the last paired; -1 for none)")
	csvOut := fs.String("csv", "", "CSV instead of HTML: pairings or standings")
	out := fs.String("o", "", "write to this file instead of stdout")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	r := *round
	if r == 0 {
		r = ev.Played()
	}
	if r > ev.Played() {
		return fmt.Errorf("-round %d: %d rounds are paired", r, ev.Played())
	}
	write := func(w io.Writer) error {
		switch *csvOut {
		case "":
			var rounds []int
			if r > 0 {
				rounds = []int{r}
			}
			return ev.WriteHTML(w, rounds, true)
		case "pairings":
			if r < 1 {
				return errors.New("no round is paired")
			}
			return ev.WritePairingsCSV(w, r)
		case "standings":
			return ev.WriteStandingsCSV(w)
		}
		return fmt.Errorf("-csv %q: pairings or standings", *csvOut)
	}
	if *out != "" {
		return atomicfile.Write(*out, write)
	}
	return write(e.stdout)
}

func tnExport(_ context.Context, e env) error {
	fs := newFlags(e, "tournament export", "FILE.trf", "Writes the event as TRF-16 for the federation's software (points and ranks\ncomputed), or with -rating the CSV of each player's FIDE-style rating change.")
	rating := fs.Bool("rating", false, "the rating list's CSV: games, score, expected score, K, change")
	out := fs.String("o", "", "write to this file instead of stdout")
	file, _, err := oneFile(fs, e.args, 0)
	if err != nil {
		return err
	}
	ev, err := loadEvent(file)
	if err != nil {
		return err
	}
	write := ev.WriteTRF
	if *rating {
		write = func(w io.Writer) error { return ev.WriteRatingCSV(w, nil) }
	}
	if *out != "" {
		return atomicfile.Write(*out, write)
	}
	return write(e.stdout)
}
