package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/openings"
)

// Config is a match between two engines.
type Config struct {
	Engines     [2]EngineSpec
	Rules       toguz.Rules
	Openings    []openings.Opening // played in order, each twice with colours swapped
	Games       int                // games to play; an odd number is rounded up to whole pairs
	Concurrency int                // games played at once (at least 1)
	Adjudication
	// TimeMargin is how far past its clock an engine may go before it loses
	// on time (pipes and process scheduling cost a few milliseconds).
	TimeMargin time.Duration
	SPRT       *SPRT     // stop as soon as the test decides; nil: play every game
	Records    io.Writer // every game's record, as it ends; nil: none
	Progress   io.Writer // a progress bar; nil: none
}

// Report is the outcome of a match, from the first engine's view.
type Report struct {
	Counts
	Elo          EloEstimate
	LLR          float64 // of the SPRT on pentanomial counts, when there is one
	Lower        float64 // the SPRT's bounds
	Upper        float64
	Decision     Decision
	Terminations map[toguz.Termination]int
	Finished     []Game // every game, in the order they ended
}

// Validate reports whether the configuration can be played.
func (c *Config) Validate() error {
	if c.Repetition < 0 || c.Repetition == 1 {
		return fmt.Errorf("repetition %d: the occurrence that draws is 2 or more (0: off)", c.Repetition)
	}
	for _, e := range c.Engines {
		if len(e.Cmd) == 0 {
			return fmt.Errorf("engine %q has no command", e.Name)
		}
		tc := e.TC
		kinds := 0
		for _, set := range []bool{tc.Base > 0, tc.MoveTime > 0, tc.Depth > 0, tc.Nodes > 0} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			return fmt.Errorf("engine %q: give exactly one of a clock (tc=), a time per move (st=), depth= or nodes=", e.Name)
		}
	}
	if c.Engines[0].Name == c.Engines[1].Name {
		return fmt.Errorf("both engines are named %q", c.Engines[0].Name)
	}
	if len(c.Openings) == 0 {
		return errors.New("no openings")
	}
	for i, o := range c.Openings {
		if r := o.Position.Rules(); r != c.Rules {
			return fmt.Errorf("opening %d is played under %s, the match under %s", i+1, r, c.Rules)
		}
	}
	if c.Games < 1 {
		return errors.New("no games to play")
	}
	if c.SPRT != nil {
		return c.SPRT.Validate()
	}
	return nil
}

// Run plays the match. It returns when every game is played, when the SPRT
// decides (games under way are finished), or when ctx is cancelled (with
// ctx's error and the games that ended).
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.Validate(); err != nil {
		return Report{}, err
	}
	announceRules(&cfg)
	pairs := (cfg.Games + 1) / 2
	rep := Report{Terminations: make(map[toguz.Termination]int)}
	if cfg.SPRT != nil {
		rep.Lower, rep.Upper = cfg.SPRT.Bounds()
	}
	bar := newBar(&cfg, pairs)

	stop := make(chan struct{}) // closed when the SPRT has decided
	results := playPairs(ctx, &cfg, pairs, stop)

	var firstErr error
	stopped := false
	for d := range results {
		if d.err != nil {
			if firstErr == nil && !errors.Is(d.err, context.Canceled) {
				firstErr = d.err
			}
			continue
		}
		if err := rep.addPair(&cfg, d.games); err != nil && firstErr == nil {
			firstErr = err
		}
		if rep.test(&cfg) && !stopped {
			stopped = true
			close(stop)
		}
		if bar != nil {
			describe(bar, &cfg, &rep)
			bar.Add(2)
		}
	}
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(cfg.Progress)
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	return rep, firstErr
}

// announceRules tells the engines the ruleset of the positions they will
// get, when it is not the standard one.
func announceRules(cfg *Config) {
	if cfg.Rules == toguz.Standard() {
		return
	}
	for i := range cfg.Engines {
		e := &cfg.Engines[i]
		e.Options = append([][2]string{{"Ruleset", cfg.Rules.String()}}, e.Options...)
	}
}

// test updates the SPRT's LLR and decision, if there is an SPRT, and says
// whether it has decided.
func (rep *Report) test(cfg *Config) bool {
	if cfg.SPRT == nil {
		return false
	}
	rep.LLR = cfg.SPRT.LLRPentanomial(rep.Counts)
	rep.Decision = cfg.SPRT.Decide(rep.LLR)
	return rep.Decision != Continue
}

// newBar returns the progress bar on cfg.Progress, or nil without one.
func newBar(cfg *Config, pairs int) *progressbar.ProgressBar {
	if cfg.Progress == nil {
		return nil
	}
	return progressbar.NewOptions(2*pairs, progressbar.OptionSetWriter(cfg.Progress),
		progressbar.OptionShowCount(), progressbar.OptionSetWidth(30),
		progressbar.OptionSetDescription(cfg.Engines[0].Name+" vs "+cfg.Engines[1].Name))
}

// pairDone is one played pair, or the error that stopped it.
type pairDone struct {
	pair  int
	games [2]Game
	err   error
}

// playPairs hands the pairs to cfg.Concurrency workers until all are played,
// stop is closed or ctx is done; the channel closes when every worker ends.
func playPairs(ctx context.Context, cfg *Config, pairs int, stop <-chan struct{}) <-chan pairDone {
	workers := min(max(cfg.Concurrency, 1), pairs)
	jobs := make(chan int)
	results := make(chan pairDone)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := &worker{cfg: cfg}
			defer w.close()
			for pair := range jobs {
				gs, err := w.playPair(ctx, pair)
				results <- pairDone{pair, gs, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for pair := range pairs {
			select {
			case jobs <- pair:
			case <-stop:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// addPair counts the two games of a pair and writes their records, returning
// the first error writing them.
func (rep *Report) addPair(cfg *Config, games [2]Game) error {
	var firstErr error
	pairScore := 0 // in half points, for the first engine
	for _, g := range games {
		rep.Finished = append(rep.Finished, g)
		rep.Terminations[g.Termination]++
		first := toguz.White
		if g.White != cfg.Engines[0].Name {
			first = toguz.Black
		}
		switch g.Result {
		case toguz.WinFor(first):
			rep.Wins++
			pairScore += 2
		case toguz.Draw:
			rep.Draws++
			pairScore++
		default:
			rep.Losses++
		}
		if cfg.Records != nil {
			if err := g.WriteRecord(cfg.Records); err != nil && firstErr == nil {
				firstErr = err
			}
		}
	}
	rep.Pairs[pairScore]++
	rep.Elo = EloFromCounts(rep.Counts)
	return firstErr
}

// describe puts the score so far on the bar.
func describe(bar *progressbar.ProgressBar, cfg *Config, rep *Report) {
	desc := fmt.Sprintf("%s vs %s  +%d =%d -%d  Elo %s", cfg.Engines[0].Name, cfg.Engines[1].Name,
		rep.Wins, rep.Draws, rep.Losses, rep.Elo)
	if cfg.SPRT != nil {
		desc += fmt.Sprintf("  LLR %.2f (%.2f, %.2f)", rep.LLR, rep.Lower, rep.Upper)
	}
	bar.Describe(desc)
}

// worker plays pairs of games with its own engine processes, restarting an
// engine that failed.
type worker struct {
	cfg *Config
	pl  [2]*player // by engine index
}

func (w *worker) close() {
	for _, p := range w.pl {
		if p != nil {
			p.close()
		}
	}
}

// playPair plays the two games of an opening, the first engine White in the
// first.
func (w *worker) playPair(ctx context.Context, pair int) ([2]Game, error) {
	var gs [2]Game
	opening := w.cfg.Openings[pair%len(w.cfg.Openings)]
	for k := range 2 {
		for i, p := range w.pl {
			if p == nil {
				np, err := startPlayer(ctx, w.cfg.Engines[i])
				if err != nil {
					return gs, err
				}
				w.pl[i] = np
			}
		}
		white, black := k, 1-k
		g := &gs[k]
		*g = Game{
			Round:       2*pair + k + 1,
			White:       w.cfg.Engines[white].Name,
			Black:       w.cfg.Engines[black].Name,
			Rules:       w.cfg.Rules,
			Opening:     opening,
			TimeControl: [2]TimeControl{w.cfg.Engines[white].TC, w.cfg.Engines[black].TC},
		}
		if err := playGame(ctx, g, [2]*player{w.pl[white], w.pl[black]}, w.cfg.Adjudication, w.cfg.TimeMargin); err != nil {
			return gs, err
		}
		for side, idx := range [2]int{white, black} {
			if g.failed[side] {
				w.pl[idx].close()
				w.pl[idx] = nil
			}
		}
	}
	return gs, nil
}
