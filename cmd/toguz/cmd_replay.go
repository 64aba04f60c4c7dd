package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/toguz/toguz"
)

func runReplay(ctx context.Context, e env) error {
	fs := newFlags(e, "replay", "FILE...", "Replays every game of each file, checking every ply, landing digit, tuzdik\n"+
		"mark, kazan annotation and result against the rules, and prints per game its\n"+
		"tags, plies, final position (FEN), kazans (the final score), termination\n"+
		"(kazan, draw, atsyrau, or none when the record stops before the end) and\n"+
		"result. The format (toguz, playok, tgk, playstrategy) is detected from the\n"+
		"content. On the first illegal or inconsistent move it stops with an error\n"+
		"naming the file, game, ply and reason.")
	jsonOut := fs.Bool("json", false, "print one JSON object per game and line")
	format := fs.String("format", "", "read this record format instead of detecting it")
	rep := fs.Int("repetition", 0, "the event rule: a position (board, kazans, tuzdiks, side to move) seen for the Nth\ntime is a draw; print the ply where each game reaches it (0: off)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	if *rep < 0 || *rep == 1 {
		return fmt.Errorf("-repetition %d: 2 or more, or 0 for off", *rep)
	}
	var f toguz.Format
	if *format != "" {
		var err error
		if f, err = toguz.ParseFormat(*format); err != nil {
			return err
		}
	}
	games, plies := 0, 0
	for _, name := range fs.Args() {
		n, p, err := replayFile(ctx, e, name, f, *jsonOut, *rep)
		games, plies = games+n, plies+p
		if err != nil {
			return err
		}
	}
	if !*jsonOut {
		fmt.Fprintf(e.stdout, "%d games, %d plies\n", games, plies)
	}
	return nil
}

// replayFile replays the games of one file as it reads them, one at a
// time, so that its memory does not grow with the file, and returns the
// games and plies replayed.
func replayFile(ctx context.Context, e env, name string, f toguz.Format, jsonOut bool, rep int) (games, plies int, err error) {
	file, err := os.Open(name)
	if err != nil {
		return 0, 0, err
	}
	defer file.Close()
	for g, err := range toguz.NewGameReader(file, name, f).All() {
		if err != nil {
			return games, plies, err
		}
		if err := ctx.Err(); err != nil {
			return games, plies, err
		}
		final, err := g.Final()
		if err != nil {
			return games, plies, err
		}
		o, err := g.Outcome()
		if err != nil {
			return games, plies, err
		}
		repPly, repeated, err := g.Repetition(rep)
		if err != nil {
			return games, plies, err
		}
		if !repeated {
			repPly = 0
		}
		if jsonOut {
			err = writeReplayJSON(e, name, games+1, g, final, o, repPly)
		} else {
			err = writeReplayText(e, name, games+1, g, final, o, rep, repPly)
		}
		if err != nil {
			return games, plies, err
		}
		games++
		plies += len(g.Plies)
	}
	// A file with no game is a wrong file name or a truncated download,
	// not a file that checks out.
	if games == 0 {
		return 0, 0, fmt.Errorf("%s: no games", name)
	}
	return games, plies, nil
}

func writeReplayText(e env, file string, index int, g *toguz.Game, final toguz.Position, o toguz.Outcome, rep, repPly int) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, game %d\n", file, index)
	for _, t := range g.Tags {
		fmt.Fprintf(&b, "  %-13s %s\n", t.Name+":", t.Value)
	}
	fmt.Fprintf(&b, "  %-13s %d\n", "plies:", len(g.Plies))
	fmt.Fprintf(&b, "  %-13s %s\n", "fen:", toguz.FormatFEN(final, g.FullMove()))
	fmt.Fprintf(&b, "  %-13s %d %d\n", "kazans:", o.Score[0], o.Score[1])
	fmt.Fprintf(&b, "  %-13s %s\n", "termination:", o.Termination)
	fmt.Fprintf(&b, "  %-13s %s\n", "result:", o.Result)
	if repPly > 0 {
		fmt.Fprintf(&b, "  %-13s a draw after ply %d (the position's occurrence %d)\n", "repetition:", repPly, rep)
	}
	b.WriteString("\n")
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}

// replayJSON is one line of `toguz replay --json`. Tags keep their order in
// tag_order, since a JSON object has none.
type replayJSON struct {
	File        string            `json:"file"`
	Game        int               `json:"game"`
	Tags        map[string]string `json:"tags"`
	TagOrder    []string          `json:"tag_order"`
	Ruleset     string            `json:"ruleset"`
	Plies       int               `json:"plies"`
	FEN         string            `json:"fen"`
	Kazans      [2]int            `json:"kazans"`
	Termination string            `json:"termination"`
	Result      string            `json:"result"`
	// RepetitionPly is the ply after which the game reached the
	// -repetition rule's draw, absent when it did not or the rule is off.
	RepetitionPly int `json:"repetition_ply,omitempty"`
}

func writeReplayJSON(e env, file string, index int, g *toguz.Game, final toguz.Position, o toguz.Outcome, repPly int) error {
	j := replayJSON{File: file, Game: index, Tags: make(map[string]string, len(g.Tags)), TagOrder: make([]string, 0, len(g.Tags)),
		Ruleset: final.Rules().String(), Plies: len(g.Plies), FEN: toguz.FormatFEN(final, g.FullMove()),
		Kazans: o.Score, Termination: o.Termination.String(), Result: o.Result.String(), RepetitionPly: repPly}
	for _, t := range g.Tags {
		if _, dup := j.Tags[t.Name]; !dup {
			j.TagOrder = append(j.TagOrder, t.Name)
			j.Tags[t.Name] = t.Value
		}
	}
	b, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", b)
	return err
}
