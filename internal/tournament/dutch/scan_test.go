package dutch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// statsPairer pairs like Pairer and calls note with each round's statistics.
type statsPairer struct {
	note func(in Input, st Stats)
}

func (p statsPairer) Pair(e *tournament.Event) ([]tournament.Pair, error) {
	in, err := InputFor(e)
	if err != nil {
		return nil, err
	}
	res, st, err := PairRoundStats(in)
	p.note(in, st)
	if err != nil {
		return nil, err
	}
	out := make([]tournament.Pair, 0, len(res.Pairs)+1)
	for _, pr := range res.Pairs {
		out = append(out, tournament.Pair{White: pr.White, Black: pr.Black})
	}
	if res.Bye != 0 {
		out = append(out, tournament.Pair{White: res.Bye})
	}
	return out, nil
}

// TestBudgetScan walks the big tournaments of TestOracle's two halves (the
// same seeds and sizes) and logs every round whose search ran into the node
// budget. TOGUZ_BUDGET_SCAN names the number of seeds; TOGUZ_ORACLE the
// oracle, needed for its generator's half.
func TestBudgetScan(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TOGUZ_BUDGET_SCAN"))
	if n == 0 {
		t.Skip("TOGUZ_BUDGET_SCAN not set")
	}
	bin := os.Getenv("TOGUZ_ORACLE")
	dir := os.Getenv("TOGUZ_ORACLE_KEEP")
	if dir == "" {
		dir = t.TempDir()
	}
	hits := 0
	note := func(name string, round int) func(Input, Stats) {
		return func(in Input, st Stats) {
			if st.BudgetHits > 0 || st.C7Approx > 0 {
				hits++
				t.Logf("%s round %d (%d players): %+v", name, in.Round, len(in.Players), st)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for s := uint64(1); s <= uint64(n) && bin != "" && os.Getenv("TOGUZ_SCAN_ONLY") == ""; s++ {
		np, r := size(rng)
		cfg := fmt.Sprintf("PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=%d\nForfeitRate=%d\nRetiredRate=%d\nHalfPointByeRate=%d\nHighestRating=2700\nLowestRating=1000\n",
			np, r, rng.IntN(60), 8+rng.IntN(40), 20+rng.IntN(80), 8+rng.IntN(40))
		if np <= 120 {
			continue
		}
		cf := filepath.Join(dir, fmt.Sprintf("cfg%d", s))
		trf := filepath.Join(dir, fmt.Sprintf("theirs%d.trf", s))
		if err := os.WriteFile(cf, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := exec.Command(bin, "--dutch", "-g", cf, "-o", trf, "-s", strconv.FormatUint(s, 10)).CombinedOutput(); err != nil {
			continue
		}
		data, _ := os.ReadFile(trf)
		ev, err := tournament.ReadTRF(bytes.NewReader(bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))))
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; k <= ev.Played(); k++ {
			if _, err := (statsPairer{note(trf, k)}).Pair(ev.Before(k)); err != nil {
				t.Logf("%s round %d: %v", trf, k, err)
			}
		}
	}
	rng = rand.New(rand.NewPCG(1, 2))
	for s := uint64(1); s <= uint64(n); s++ {
		np, r := size(rng)
		cfg := tournament.GenerateConfig{
			Players: np, Rounds: r, DrawRate: rng.Float64() * 0.6,
			ForfeitRate: rng.Float64() * 0.08, ByeRate: rng.Float64() * 0.08,
			WithdrawRate: rng.Float64() * 0.03, LateRate: rng.Float64() * 0.15,
			Seed: s,
		}
		if s%3 == 0 {
			cfg.System = tournament.DutchBaku
		}
		if np <= 120 {
			continue
		}
		if only := os.Getenv("TOGUZ_SCAN_ONLY"); only != "" && only != strconv.FormatUint(s, 10) {
			continue
		}
		name := fmt.Sprintf("ours%d", s)
		ev, err := tournament.Generate(cfg, statsPairer{note(name, 0)})
		if err != nil {
			t.Logf("generate %s: %v", name, err)
			continue
		}
		if ev.System == tournament.DutchBaku {
			ev.Extra = append(ev.Extra, ev.BakuXXA(ev.Rounds)...)
		}
		var b bytes.Buffer
		if err := ev.WriteTRF(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".trf"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d rounds over the budget", hits)
}

// TestScanOne pairs round TOGUZ_SCAN_ROUND of the TRF file TOGUZ_SCAN_TRF
// again and logs the search's statistics and the difference from the file.
func TestScanOne(t *testing.T) {
	f := os.Getenv("TOGUZ_SCAN_TRF")
	if f == "" {
		t.Skip("TOGUZ_SCAN_TRF not set")
	}
	k, _ := strconv.Atoi(os.Getenv("TOGUZ_SCAN_ROUND"))
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := tournament.ReadTRF(bytes.NewReader(bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))))
	if err != nil {
		t.Fatal(err)
	}
	in, err := InputFor(ev.Before(k))
	if err != nil {
		t.Fatal(err)
	}
	if s := os.Getenv("TOGUZ_SCAN_NODES"); s != "" {
		in.MaxNodes, _ = strconv.Atoi(s)
	}
	p, st, err := PairRoundStats(in)
	t.Logf("%+v %v", st, err)
	res, _ := tournament.Check(ev, Pairer{MaxNodes: in.MaxNodes})
	c := res[k-1]
	t.Logf("same as the file: %v\n ours %s\n file %s", c.Same(), tournament.PairsText(c.Ours), tournament.PairsText(c.File))
	_ = p
}
