package levels

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/engine"
)

// Config sets up a calibration.
type Config struct {
	Games []*toguz.Game // rated games: WhiteElo and BlackElo tags
	// Reference, when not empty, are unrated games of strong players
	// (named ReferenceName), sampled and measured as one more group and
	// shown beside the bands, off the rating scale: where the levels above
	// the rated players stand.
	Reference     []*toguz.Game
	ReferenceName string
	Source        string // what Games are, for the table
	Command       string // the command line, for the table
	Bands         []Band
	PerBand       int    // positions sampled per band (fewer when a band has fewer)
	Seed          uint64 // of the sample and of the levels' random choices
	// MinPly skips the opening, where players repeat what they learnt.
	MinPly int
	// RefDepth is the deep search's depth; every legal move is searched
	// to it (MultiPV), so that any move's loss is known.
	RefDepth int
	// NPS turns a level's live move time (engine.LevelMoveTime) into the
	// node budget that stands in for it (deterministic, unlike time on a
	// loaded machine), at most MaxNodes.
	NPS, MaxNodes uint64
	Cap           float64 // stones clamp (Stones)
	Jobs          int     // positions searched at once
	Cache         string  // file of deep-search results kept between runs ("" none)
	Progress      io.Writer
}

// DefaultBands are the bands the PlayOK games of ../shared/data support:
// most players are rated 1100–1300, few 1500 or more, none 1800.
func DefaultBands() []Band {
	return []Band{{0, 1200}, {1200, 1300}, {1300, 1400}, {1400, 1500}, {1500, 0}}
}

// sample is one position of a rated game and the move its player chose.
type sample struct {
	band    int
	rating  int
	cluster int // game*2 + side
	game    int
	pos     toguz.Position
	played  toguz.Move
}

// rating returns a side's rating tag, or false.
func rating(g *toguz.Game, side toguz.Player) (int, bool) {
	tag := "WhiteElo"
	if side == toguz.Black {
		tag = "BlackElo"
	}
	r, err := strconv.Atoi(g.Tag(tag))
	return r, err == nil && r > 0
}

// samplePositions draws up to perBand positions per band, spread over as
// many player-games as possible: the player-games in a seeded random order,
// one position of each in turn, again round them while the band needs more.
// The first n positions of a band are the same for every perBand ≥ n.
// With unrated, every side of every game is in the first band, rated 0.
func samplePositions(games []*toguz.Game, bands []Band, perBand, minPly int, seed uint64, unrated bool) ([]sample, error) {
	type side struct {
		game, rating int
		player       toguz.Player
		plies        []int // candidate plies not drawn yet
	}
	perBandSides := make([][]*side, len(bands))
	positions := make([][]toguz.Position, len(games))
	for gi, g := range games {
		for _, pl := range []toguz.Player{toguz.White, toguz.Black} {
			r, ok := rating(g, pl)
			if unrated {
				r, ok = 0, true
			}
			if !ok {
				continue
			}
			b := -1
			for i, band := range bands {
				if band.Contains(r) || unrated {
					b = i
					break
				}
			}
			if b < 0 {
				continue
			}
			if positions[gi] == nil {
				ps, err := g.Positions()
				if err != nil {
					return nil, fmt.Errorf("game %d: %w", gi+1, err)
				}
				positions[gi] = ps
			}
			s := &side{game: gi, rating: r, player: pl}
			ps := positions[gi]
			for i := minPly; i < len(ps)-1 && i < len(g.Plies); i++ {
				if p := ps[i]; p.Turn() == pl && !p.IsOver() && p.LegalMoves().Len() >= 2 {
					s.plies = append(s.plies, i)
				}
			}
			if len(s.plies) > 0 {
				perBandSides[b] = append(perBandSides[b], s)
			}
		}
	}
	var out []sample
	for b, sides := range perBandSides {
		// A source of its own per band, so that a larger sample of one
		// band keeps the positions of a smaller one (and their cache).
		rng := rand.New(rand.NewPCG(seed, 0x6c6576656c73+uint64(b)))
		rng.Shuffle(len(sides), func(i, j int) { sides[i], sides[j] = sides[j], sides[i] })
		n := 0
		for more := true; more && n < perBand; {
			more = false
			for _, s := range sides {
				if n == perBand {
					break
				}
				if len(s.plies) == 0 {
					continue
				}
				more = true
				k := rng.IntN(len(s.plies))
				ply := s.plies[k]
				s.plies[k] = s.plies[len(s.plies)-1]
				s.plies = s.plies[:len(s.plies)-1]
				out = append(out, sample{
					band: b, rating: s.rating, cluster: 2*s.game + int(s.player), game: s.game,
					pos: positions[s.game][ply], played: games[s.game].Moves()[ply],
				})
				n++
			}
		}
	}
	return out, nil
}

// cacheLine is one deep-search result in the cache file.
type cacheLine struct {
	FEN    string         `json:"fen"`
	Depth  int            `json:"depth"`
	Scores map[string]int `json:"scores"` // hole → score
}

func cacheKey(depth int, fen string) string { return strconv.Itoa(depth) + " " + fen }

// readCache returns the deep-search results of path (none when it does not
// exist yet), and whether its last line lacks its newline (a run killed
// while writing it), which the next line must not be glued to.
func readCache(path string) (map[string]Ref, bool, error) {
	refs := map[string]Ref{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return refs, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		var l cacheLine
		if len(line) == 0 || json.Unmarshal(line, &l) != nil {
			// A line cut short by an interrupted run: the rest is
			// searched again.
			continue
		}
		var r Ref
		for k, v := range l.Scores {
			h, err := strconv.Atoi(k)
			if err != nil || h < 1 || h > toguz.MaxHoles {
				return nil, false, fmt.Errorf("%s: bad hole %q", path, k)
			}
			r.Legal |= 1 << (h - 1)
			r.Scores[h] = engine.Score(v)
		}
		refs[cacheKey(l.Depth, l.FEN)] = r
	}
	return refs, len(data) > 0 && data[len(data)-1] != '\n', nil
}

// reference searches every legal move of p to depth.
func reference(ctx context.Context, e *engine.Engine, p toguz.Position, depth int) (Ref, error) {
	e.NewGame()
	var r Ref
	last := 0
	e.Search(ctx, p, engine.Limits{Depth: depth}, func(in engine.Info) {
		if in.Depth != last {
			last, r = in.Depth, Ref{}
		}
		if len(in.PV) > 0 {
			r.Scores[in.PV[0]] = in.Score
			r.Legal |= 1 << (in.PV[0] - 1)
		}
	})
	if err := ctx.Err(); err != nil {
		return Ref{}, err
	}
	if last != depth || r.Legal != p.LegalMoves() {
		return Ref{}, fmt.Errorf("deep search of %s: depth %d, moves %b of %b", p.FEN(), last, r.Legal, p.LegalMoves())
	}
	return r, nil
}

// choice is a level's move in one position.
type choice struct {
	move  toguz.Move
	depth int
}

// NodeBudget is the node budget standing in for level's live move time.
func (c Config) NodeBudget(level int) uint64 {
	n := uint64(engine.LevelMoveTime(level).Seconds() * float64(c.NPS))
	if c.MaxNodes > 0 {
		n = min(n, c.MaxNodes)
	}
	return max(n, 1)
}

// Calibrate measures the bands and the levels and places the levels.
func Calibrate(ctx context.Context, c Config) (Table, error) {
	start := time.Now()
	cpuStart := cputime.Process()
	samples, err := c.allSamples()
	if err != nil {
		return Table{}, err
	}
	l := &calibrationLog{refs: map[string]Ref{}, progress: c.Progress, depth: c.RefDepth, total: len(samples), start: start}
	if c.Cache != "" {
		refs, f, err := openCache(c.Cache)
		if err != nil {
			return Table{}, err
		}
		defer f.Close()
		l.refs, l.cacheW = refs, f
	}
	if l.progress == nil {
		l.progress = io.Discard
	}

	sampleRefs := make([]Ref, len(samples))
	choices := make([][engine.MaxLevel + 1]choice, len(samples))
	if err := c.workAll(ctx, samples, sampleRefs, choices, l); err != nil {
		return Table{}, err
	}
	t := c.compile(samples, sampleRefs, choices)
	t.CPU = fmt.Sprintf("%v of CPU, %v of wall time, %d of %d deep searches from the cache",
		(cputime.Process() - cpuStart).Round(time.Second), time.Since(start).Round(time.Second), l.cached, len(samples))
	return t, nil
}

// allSamples samples the rated games and then the reference games, as one
// more band after the rated ones.
func (c Config) allSamples() ([]sample, error) {
	samples, err := samplePositions(c.Games, c.Bands, c.PerBand, c.MinPly, c.Seed, false)
	if err != nil {
		return nil, err
	}
	if len(c.Reference) > 0 {
		// After the rated samples, so that those keep their indices (and
		// so their levels' seeds) with or without the reference.
		ref, err := samplePositions(c.Reference, []Band{{}}, c.PerBand, c.MinPly, c.Seed, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.ReferenceName, err)
		}
		for _, s := range ref {
			s.band, s.game, s.cluster = len(c.Bands), s.game+len(c.Games), s.cluster+2*len(c.Games)
			samples = append(samples, s)
		}
	}
	return samples, nil
}

// openCache reads the deep searches of the cache file and opens it to
// append more, ending a ragged last line first.
func openCache(path string) (map[string]Ref, *os.File, error) {
	refs, ragged, err := readCache(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if ragged {
		if _, err := f.WriteString("\n"); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return refs, f, nil
}

// calibrationLog is what the workers share: the cache, its file and the
// progress.
type calibrationLog struct {
	mu       sync.Mutex
	refs     map[string]Ref
	cacheW   io.Writer // nil without a cache
	progress io.Writer
	depth    int // of the deep search
	total    int // samples
	start    time.Time
	done     int
	cached   int
}

// record notes sample i's deep search r, appending it to the cache file
// when fresh, and reports the progress.
func (l *calibrationLog) record(i int, fen string, fresh bool, r Ref) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if fresh && l.cacheW != nil {
		cl := cacheLine{FEN: fen, Depth: l.depth, Scores: map[string]int{}}
		for m := range r.Legal.All() {
			cl.Scores[strconv.Itoa(int(m))] = int(r.Scores[m])
		}
		b, _ := json.Marshal(cl)
		if _, err := l.cacheW.Write(append(b, '\n')); err != nil {
			return err
		}
	}
	l.done++
	if !fresh {
		l.cached++
	}
	if l.done%25 == 0 || l.done == l.total {
		fmt.Fprintf(l.progress, "%d/%d positions (%d from the cache), %v\n", l.done, l.total, l.cached, time.Since(l.start).Round(time.Second))
	}
	return nil
}

// lookup returns the cached deep search of fen.
func (l *calibrationLog) lookup(fen string) (Ref, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.refs[cacheKey(l.depth, fen)]
	return r, ok
}

// workAll searches every sample with c.Jobs workers and returns the first
// error of any.
func (c Config) workAll(ctx context.Context, samples []sample, refs []Ref, choices [][engine.MaxLevel + 1]choice, l *calibrationLog) error {
	jobs := make(chan int)
	errs := make(chan error, max(c.Jobs, 1))
	var wg sync.WaitGroup
	for range max(c.Jobs, 1) {
		wg.Go(func() {
			errs <- c.work(ctx, samples, jobs, refs, choices, l.record, l.lookup)
		})
	}
	go func() {
		defer close(jobs)
		for i := range samples {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// work searches the samples whose indices come from jobs with its own two
// engines: one for the deep search, one for the levels.
func (c Config) work(ctx context.Context, samples []sample, jobs <-chan int, refs []Ref, choices [][engine.MaxLevel + 1]choice,
	record func(i int, fen string, fresh bool, r Ref) error, lookup func(fen string) (Ref, bool)) error {
	do := engine.DefaultOptions()
	do.MultiPV = engine.MaxMultiPV
	deep, err := engine.New(do)
	if err != nil {
		return err
	}
	lo := engine.DefaultOptions()
	lo.HashMB = 16 // the levels' searches are small; clearing 64 MiB would cost more than they do
	lev, err := engine.New(lo)
	if err != nil {
		return err
	}
	for i := range jobs {
		s := samples[i]
		fen := s.pos.FEN()
		r, ok := lookup(fen)
		if !ok {
			if r, err = reference(ctx, deep, s.pos, c.RefDepth); err != nil {
				return err
			}
		}
		refs[i] = r
		for level := 1; level <= engine.MaxLevel; level++ {
			o := lev.Options()
			o.Level = level
			// A seed of its own per position and level: the same
			// choices on every run, whatever the order of the jobs.
			o.Seed = int64(c.Seed) ^ int64(i)<<8 ^ int64(level)
			if err := lev.SetOptions(o); err != nil {
				return err
			}
			lev.NewGame()
			res := lev.Search(ctx, s.pos, engine.Limits{Nodes: c.NodeBudget(level)}, nil)
			if err := ctx.Err(); err != nil {
				return err
			}
			if !r.Legal.Has(res.Best) {
				return fmt.Errorf("level %d chose %v in %s: not a legal move of the deep search", level, res.Best, fen)
			}
			choices[i][level] = choice{move: res.Best, depth: res.Depth}
		}
		if err := record(i, fen, !ok, r); err != nil {
			return err
		}
	}
	return nil
}

// compile turns the measurements into the table.
func (c Config) compile(samples []sample, refs []Ref, choices [][engine.MaxLevel + 1]choice) Table {
	t := Table{Command: c.Command, Source: c.Source, RefDepth: c.RefDepth, ClampCap: c.Cap}
	var curve []Point
	groups := len(c.Bands)
	if len(c.Reference) > 0 {
		groups++
	}
	rated := 0 // the samples of the rated bands (the levels' figures are theirs)
	for _, s := range samples {
		if s.band < len(c.Bands) {
			rated++
		}
	}
	t.Positions = rated
	for b := range groups {
		var loss, match []obs
		var mistakes float64
		games, players := map[int]bool{}, map[int]bool{}
		var ratings float64
		for i, s := range samples {
			if s.band != b {
				continue
			}
			l := refs[i].Loss(s.played, c.Cap)
			loss = append(loss, obs{s.cluster, l})
			match = append(match, obs{s.cluster, b2f(s.played == refs[i].Best())})
			mistakes += b2f(l >= MistakeStones)
			games[s.game], players[s.cluster] = true, true
			ratings += float64(s.rating)
		}
		st := BandStat{Games: len(games), Players: len(players), Positions: len(loss)}
		if b < len(c.Bands) {
			st.Band = c.Bands[b]
		}
		if len(loss) > 0 {
			st.MeanRating = ratings / float64(len(loss))
			st.Mistakes = mistakes / float64(len(loss))
			st.Loss, st.LossCI = meanCI(loss)
			st.Match, st.MatchCI = meanCI(match)
		}
		if b == len(c.Bands) {
			t.Reference, t.ReferenceName = &st, c.ReferenceName
			continue
		}
		t.Bands = append(t.Bands, st)
		if len(loss) == 0 {
			continue
		}
		curve = append(curve, Point{Rating: st.MeanRating, Loss: st.Loss, Weight: float64(len(loss))})
	}
	curve = Monotone(curve)
	// perBand divides sums over each band's samples by their number.
	inBand := make([]int, groups)
	for _, s := range samples {
		inBand[s.band]++
	}
	perBand := func(xs []float64) {
		for b := range xs {
			if inBand[b] > 0 {
				xs[b] /= float64(inBand[b])
			}
		}
	}
	t.Random.Agree = make([]float64, groups)
	for i, s := range samples {
		onScale := b2f(s.band < len(c.Bands))
		n := float64(refs[i].Legal.Len())
		best := refs[i].Best()
		for m := range refs[i].Legal.All() {
			l := refs[i].Loss(m, c.Cap)
			t.Random.Loss += onScale * l / n
			t.Random.Mistakes += onScale * b2f(l >= MistakeStones) / n
			t.Random.Match += onScale * b2f(m == best) / n
			t.Random.Agree[s.band] += b2f(m == s.played) / n
		}
	}
	perBand(t.Random.Agree)
	if rated > 0 {
		t.Random.Loss /= float64(rated)
		t.Random.Mistakes /= float64(rated)
		t.Random.Match /= float64(rated)
	}
	for level := 1; level <= engine.MaxLevel; level++ {
		var loss, match, refLoss []obs
		var mistakes float64
		agree := make([]float64, groups)
		depth := 0
		for i, s := range samples {
			m := choices[i][level].move
			l := refs[i].Loss(m, c.Cap)
			agree[s.band] += b2f(m == s.played)
			if s.band == len(c.Bands) {
				refLoss = append(refLoss, obs{s.cluster, l})
				continue
			}
			depth += choices[i][level].depth
			mistakes += b2f(l >= MistakeStones)
			loss = append(loss, obs{s.cluster, l})
			match = append(match, obs{s.cluster, b2f(m == refs[i].Best())})
		}
		perBand(agree)
		st := LevelStat{Level: level, Nodes: c.NodeBudget(level), Agree: agree}
		if rated > 0 {
			st.Depth = float64(depth) / float64(rated)
			st.Mistakes = mistakes / float64(rated)
		}
		st.RefLoss, st.RefLossCI = meanCI(refLoss)
		st.Loss, st.LossCI = meanCI(loss)
		st.Match, st.MatchCI = meanCI(match)
		r, bound := Place(curve, st.Loss)
		st.Rating, st.Bound = Round50(r), bound
		for k, loss := range []float64{st.Loss + st.LossCI, st.Loss - st.LossCI} {
			r, bound := Place(curve, loss)
			st.Range[k] = Placement{Rating: Round50(r), Bound: bound}
		}
		t.Levels = append(t.Levels, st)
	}
	return t
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
