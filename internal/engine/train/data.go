package train

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/engine/eval"
)

// Labelled is one training position: the game's result and, for the
// positions the self-play engine searched, the score of that search.
type Labelled struct {
	Pos    toguz.Position
	Result float32 // 1 the side to move won, 0 lost, 0.5 draw
	Score  int32   // search score from the side to move's view (hundredths of a stone)
	Scored bool    // Score is set
	Game   int32   // number of its game in the data set
	Hold   bool    // validation set (every tenth game)
}

// Target returns the training label of l: the game result blended with the
// logistic of the search score at scale k, blend the share of the result.
// A proven score counts as the result it proves.
func (l *Labelled) Target(blend, k float64) float64 {
	if !l.Scored {
		return float64(l.Result)
	}
	var q float64
	switch s := engine.Score(l.Score); {
	case s.IsMate() && s > 0:
		q = 1
	case s.IsMate():
		q = 0
	default:
		q = sigmoid(k * float64(s))
	}
	return blend*float64(l.Result) + (1-blend)*q
}

// readGames reads the recorded games of files, every tenth game (counted
// over all files) held out, the first skip plies of each dropped. Every
// game must be of the ruleset rules (PlayOut aside).
func readGames(files []string, rules toguz.Rules, skip int, log io.Writer) ([]Labelled, int, error) {
	var out []Labelled
	game := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, 0, err
		}
		games, err := toguz.ParseGames(file, data, 0)
		if err != nil {
			return nil, 0, fmt.Errorf("reading games: %w", err)
		}
		used := 0
		for i, g := range games {
			ps, err := g.Positions()
			if err != nil {
				return nil, 0, fmt.Errorf("replaying games: %w", err)
			}
			if r := ps[0].Rules(); !sameBoard(r, rules) {
				return nil, 0, fmt.Errorf("%s: game %d is played under %s, not the %s being trained", file, i+1, r, rules)
			}
			res := g.Result
			if final := ps[len(ps)-1]; final.IsOver() {
				res = final.Outcome().Result
			}
			if res == toguz.NoResult {
				continue
			}
			out = addGame(out, ps, nil, res, skip, game)
			game++
			used++
		}
		fmt.Fprintf(log, "%s: %d games, %d with a result\n", file, len(games), used)
	}
	return out, game, nil
}

// sameBoard says whether a and b differ in PlayOut alone.
func sameBoard(a, b toguz.Rules) bool {
	a.PlayOut, b.PlayOut = false, false
	return a == b
}

// addGame adds the positions of one game with result res, from ply skip on;
// scores, when not nil, are the search scores of the positions.
// Every tenth game is held out for validation.
func addGame(out []Labelled, ps []toguz.Position, scores []int32, res toguz.Result, skip, game int) []Labelled {
	for i, p := range ps {
		if i < skip || p.IsOver() {
			continue
		}
		l := Labelled{Pos: p, Result: 0.5, Game: int32(game), Hold: game%10 == 9}
		switch res {
		case toguz.WinFor(p.Turn()):
			l.Result = 1
		case toguz.WinFor(p.Turn().Other()):
			l.Result = 0
		}
		if scores != nil {
			l.Score, l.Scored = scores[i], true
		}
		out = append(out, l)
	}
	return out
}

// selfPlay plays games games of the engine with weights w against itself
// under rules at nodes a move on one thread, the first 2–9 plies drawn at
// random for variety, and returns the positions the engine searched with
// their scores. Game numbers (for the held-out tenth) continue from first.
// It writes a line of progress to log every tenth of the games.
func selfPlay(ctx context.Context, w *eval.Weights, rules toguz.Rules, games int, nodes, seed uint64, first int, log io.Writer) ([]Labelled, error) {
	rng := rand.New(rand.NewPCG(seed, 0x73656c66))
	opts := engine.DefaultOptions()
	opts.HashMB = 16
	opts.Eval = w
	opts.Neural = false // the linear weights w alone, whatever is embedded
	e, err := engine.New(opts)
	if err != nil {
		return nil, err
	}
	start, err := toguz.NewPosition(rules)
	if err != nil {
		return nil, fmt.Errorf("self-play: %w", err)
	}
	began := time.Now()
	var out []Labelled
	game := first
	for i := range games {
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		if step := max(games/10, 1); i > 0 && i%step == 0 {
			fmt.Fprintf(log, "self-play: %d of %d games, %d positions, %v\n", i, games, len(out), time.Since(began).Round(time.Second))
		}
		e.NewGame()
		p := start
		ps := []toguz.Position{p}
		scores := []int32{0}
		random := 2 + rng.IntN(8)
		for ply := 0; !p.IsOver() && ply < 400; ply++ {
			var m toguz.Move
			var s int32
			if ply < random {
				ms := p.LegalMoves().Slice()
				m = ms[rng.IntN(len(ms))]
			} else {
				r := e.Search(ctx, p, engine.Limits{Nodes: nodes}, nil)
				m, s = r.Best, int32(r.Score)
			}
			scores[len(scores)-1] = s
			p = p.After(m)
			ps = append(ps, p)
			scores = append(scores, 0)
		}
		if !p.IsOver() {
			continue
		}
		out = addGame(out, ps, scores, p.Outcome().Result, random, game)
		game++
	}
	return out, nil
}

// dataHeader is the first line of a self-play cache file; key says what
// made the data, so that a cache made otherwise is not reused.
const dataHeader = "# toguz self-play positions: "

// writeData writes self-play positions to path, one a line: FEN, result
// (1, 0.5, 0 for the side to move), search score, game number.
func writeData(path, key string, k float64, data []Labelled) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	fmt.Fprintf(bw, "%s%s\nK %v\n", dataHeader, key, k)
	for i := range data {
		l := &data[i]
		fmt.Fprintf(bw, "%s\t%v\t%d\t%d\n", l.Pos.FEN(), l.Result, l.Score, l.Game)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readData reads what writeData wrote, positions under rules, with
// ok=false when path does not exist or was made with another key.
func readData(path, key string, rules toguz.Rules) (data []Labelled, k float64, ok bool, err error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, 0, false, nil
	}
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() || sc.Text() != dataHeader+key {
		return nil, 0, false, sc.Err()
	}
	if !sc.Scan() {
		return nil, 0, false, fmt.Errorf("%s: no K line", path)
	}
	if k, err = strconv.ParseFloat(strings.TrimPrefix(sc.Text(), "K "), 64); err != nil {
		return nil, 0, false, fmt.Errorf("%s:2: %w", path, err)
	}
	for line := 3; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 4 {
			return nil, 0, false, fmt.Errorf("%s:%d: want 4 fields, got %d", path, line, len(fields))
		}
		p, _, err := toguz.ParseFEN(fields[0], rules)
		if err != nil {
			return nil, 0, false, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		res, err1 := strconv.ParseFloat(fields[1], 32)
		score, err2 := strconv.ParseInt(fields[2], 10, 32)
		game, err3 := strconv.ParseInt(fields[3], 10, 32)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, 0, false, fmt.Errorf("%s:%d: bad result, score or game", path, line)
		}
		data = append(data, Labelled{Pos: p, Result: float32(res), Score: int32(score), Scored: true, Game: int32(game), Hold: game%10 == 9})
	}
	return data, k, true, sc.Err()
}
