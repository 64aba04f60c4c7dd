package fairplay

import (
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
)

// Record is a game of a record file with the evidence about its moves and
// its context: the players, their ratings, the time control, the event.
type Record struct {
	File        string    `json:"file"`
	Index       int       `json:"index"` // 1-based, in its file
	Names       [2]string `json:"names"` // White's and Black's
	Ratings     [2]int    `json:"ratings"`
	Event       string    `json:"event,omitempty"`
	Round       string    `json:"round,omitempty"`
	Date        string    `json:"date,omitempty"`
	TimeControl string    `json:"tc,omitempty"`
	Moves       []Move    `json:"moves"`
}

// Side returns the moves of pl.
func (r *Record) Side(pl toguz.Player) []Move {
	var out []Move
	for _, m := range r.Moves {
		if m.Mover == pl {
			out = append(out, m)
		}
	}
	return out
}

// HeldOut reports whether the game belongs to the held-out part of its
// corpus, which the fit never sees: four games in ten, by a hash of the
// game's tags (so the split does not depend on the order of the file).
func (r *Record) HeldOut() bool {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s|%s|%s|%s|%s|%d", r.Event, r.Round, r.Date, r.Names[0], r.Names[1], len(r.Moves))
	return h.Sum32()%10 < 4
}

// Context returns a game's context as its tags say.
func Context(g *toguz.Game) (names [2]string, ratings [2]int, event, round, date, tc string) {
	names = [2]string{g.Tag("White"), g.Tag("Black")}
	for i, tag := range []string{"WhiteElo", "BlackElo"} {
		ratings[i], _ = strconv.Atoi(strings.TrimSpace(g.Tag(tag)))
	}
	return names, ratings, g.Tag("Event"), g.Tag("Round"), g.Tag("Date"), g.Tag("TimeControl")
}

var clk = regexp.MustCompile(`\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]`)

// Times returns each ply's time from the records' clock comments
// ([%clk h:mm:ss] after each ply) and the time control's increment
// ("600+5"); nil when the record has no clocks.
func Times(g *toguz.Game) []time.Duration {
	inc := time.Duration(0)
	if _, after, ok := strings.Cut(g.Tag("TimeControl"), "+"); ok {
		if s, err := strconv.ParseFloat(after, 64); err == nil {
			inc = time.Duration(s * float64(time.Second))
		}
	}
	base := time.Duration(0)
	if before, _, _ := strings.Cut(g.Tag("TimeControl"), "+"); before != "" {
		if s, err := strconv.ParseFloat(before, 64); err == nil {
			base = time.Duration(s * float64(time.Second))
		}
	}
	left := [2]time.Duration{base, base}
	out := make([]time.Duration, len(g.Plies))
	found := false
	for i, p := range g.Plies {
		sm := clk.FindStringSubmatch(p.Comment)
		if sm == nil {
			continue
		}
		h, _ := strconv.Atoi(sm[1])
		m, _ := strconv.Atoi(sm[2])
		s, _ := strconv.ParseFloat(sm[3], 64)
		now := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s*float64(time.Second))
		mover := i % 2
		if left[mover] > 0 {
			out[i] = max(left[mover]+inc-now, time.Millisecond)
		}
		left[mover] = now
		found = true
	}
	if !found {
		return nil
	}
	return out
}

// AnalyzeGame returns the record of g, the index-th game of file.
func (a *Analyzer) AnalyzeGame(ctx context.Context, file string, index int, g *toguz.Game) (Record, error) {
	r := Record{File: filepath.Base(file), Index: index}
	r.Names, r.Ratings, r.Event, r.Round, r.Date, r.TimeControl = Context(g)
	start, err := g.StartPosition()
	if err != nil {
		return r, fmt.Errorf("%s: game %d: %w", file, index, err)
	}
	if r.Moves, err = a.Analyze(ctx, start, g.Moves(), Times(g)); err != nil {
		return r, fmt.Errorf("%s: game %d: %w", file, index, err)
	}
	return r, nil
}

// cacheVersion changes whenever the evidence of a move does.
const cacheVersion = 1

// AnalyzeFile returns the records of every game of a record file. With a
// cache directory, the records of a file already analysed at the same
// Depth are read from it and new ones written to it (gzipped JSON named by
// the file's hash): the corpus of the fit is analysed once. progress, if
// not nil, is called after each game.
func (a *Analyzer) AnalyzeFile(ctx context.Context, file, cache string, progress func(done, total int)) ([]Record, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	cached := ""
	if cache != "" {
		cached = filepath.Join(cache, fmt.Sprintf("%s-d%d-v%d.json.gz", hex.EncodeToString(sum[:8]), Depth, cacheVersion))
		if recs, err := readCache(cached); err == nil {
			return recs, nil
		}
	}
	games, err := toguz.ParseGames(file, data, 0)
	if err != nil {
		return nil, err
	}
	recs := make([]Record, 0, len(games))
	for i, g := range games {
		r, err := a.AnalyzeGame(ctx, file, i+1, g)
		if err != nil {
			return nil, err
		}
		recs = append(recs, r)
		if progress != nil {
			progress(i+1, len(games))
		}
	}
	if cached != "" {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			return nil, err
		}
		err := atomicfile.Write(cached, func(w io.Writer) error {
			z := gzip.NewWriter(w)
			if err := json.NewEncoder(z).Encode(recs); err != nil {
				return err
			}
			return z.Close()
		})
		if err != nil {
			return nil, err
		}
	}
	return recs, nil
}

func readCache(name string) ([]Record, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var recs []Record
	if err := json.NewDecoder(z).Decode(&recs); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return recs, nil
}
