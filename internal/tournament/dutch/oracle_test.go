package dutch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestOracle compares the pairing with a FIDE-endorsed program at scale,
// both ways, as the endorsement's checks do:
//
//   - the oracle's Random Tournament Generator makes tournaments (-g, with
//     draws, forfeits, requested half-point byes and retirements) and
//     tournament.Check pairs every round of them again with this package;
//   - tournament.Generate makes tournaments with this package (draws,
//     forfeits, requested H, Z and F byes, withdrawals, late entries; one in
//     three with the Baku acceleration, given to the oracle as XXA lines)
//     and the oracle's checker (-c) pairs every round of them again.
//
// TOGUZ_ORACLE names the oracle's binary: bbpPairings (github.com/
// BieremaBoyzProgramming/bbpPairings), built outside the repository; the
// test is skipped without it. TOGUZ_ORACLE_ROUNDS is the number of rounds
// to compare each way (default 10,000); TOGUZ_ORACLE_SEED the first seed
// (default 1). Sizes run from 5 to 300 players; tournaments of more than
// 120 players come one in ten. docs/tournaments-dutch.md gives the last
// result and the command.
func TestOracle(t *testing.T) {
	bin := os.Getenv("TOGUZ_ORACLE")
	if bin == "" {
		t.Skip("TOGUZ_ORACLE not set: it names a bbpPairings binary built outside the repository (docs/tournaments-dutch.md)")
	}
	target := 10000
	if s := os.Getenv("TOGUZ_ORACLE_ROUNDS"); s != "" {
		target, _ = strconv.Atoi(s)
	}
	seed := uint64(1)
	if s := os.Getenv("TOGUZ_ORACLE_SEED"); s != "" {
		n, _ := strconv.Atoi(s)
		seed = uint64(n)
	}
	dir := t.TempDir()
	if keep := os.Getenv("TOGUZ_ORACLE_KEEP"); keep != "" {
		dir = keep
	}
	out, _ := exec.Command(bin).CombinedOutput()
	t.Logf("oracle: %s", strings.TrimSpace(string(out)))
	t.Run("theirs", func(t *testing.T) { oracleGenerates(t, bin, dir, target, seed) })
	t.Run("ours", func(t *testing.T) { oracleChecks(t, bin, dir, target, seed) })
}

// size draws a tournament's players and rounds.
func size(rng *rand.Rand) (players, rounds int) {
	if rng.IntN(10) == 0 {
		players = 121 + rng.IntN(180)
	} else {
		players = 5 + rng.IntN(116)
	}
	rounds = 3 + rng.IntN(9)
	for rounds >= players {
		rounds--
	}
	return players, rounds
}

func oracleGenerates(t *testing.T, bin, dir string, target int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	rounds, diffs, events, skipped := 0, 0, 0, 0
	for s := seed; rounds < target; s++ {
		n, r := size(rng)
		cfg := fmt.Sprintf("PlayersNumber=%d\nRoundsNumber=%d\nDrawPercentage=%d\nForfeitRate=%d\nRetiredRate=%d\nHalfPointByeRate=%d\nHighestRating=2700\nLowestRating=1000\n",
			n, r, rng.IntN(60), 8+rng.IntN(40), 20+rng.IntN(80), 8+rng.IntN(40))
		cf := filepath.Join(dir, fmt.Sprintf("cfg%d", s))
		trf := filepath.Join(dir, fmt.Sprintf("theirs%d.trf", s))
		if err := os.WriteFile(cf, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(bin, "--dutch", "-g", cf, "-o", trf, "-s", strconv.FormatUint(s, 10)).CombinedOutput(); err != nil {
			if bytes.Contains(out, []byte("No valid pairing exists")) {
				skipped++ // a field too small for its rounds: the generator gives up
				continue
			}
			t.Fatalf("generator, seed %d: %v\n%s", s, err, out)
		}
		data, err := os.ReadFile(trf)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := tournament.ReadTRF(bytes.NewReader(bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))))
		if err != nil {
			t.Fatalf("%s: %v", trf, err)
		}
		res, err := tournament.Check(ev, Pairer{})
		if err != nil {
			t.Fatalf("%s: %v", trf, err)
		}
		events++
		for _, c := range res {
			rounds++
			if !c.Same() {
				diffs++
				if diffs <= 20 {
					t.Errorf("%s round %d (%d players):\n ours   %s %v\n oracle %s", trf, c.Round, n, tournament.PairsText(c.Ours), c.Err, tournament.PairsText(c.File))
				}
			}
		}
	}
	t.Logf("the oracle's %d tournaments (%d more it could not pair to the end): %d rounds paired again, %d differ", events, skipped, rounds, diffs)
}

func oracleChecks(t *testing.T, bin, dir string, target int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 2))
	rounds, diffs, events, baku := 0, 0, 0, 0
	for s := seed; rounds < target; s++ {
		n, r := size(rng)
		cfg := tournament.GenerateConfig{
			Players: n, Rounds: r, DrawRate: rng.Float64() * 0.6,
			ForfeitRate: rng.Float64() * 0.08, ByeRate: rng.Float64() * 0.08,
			WithdrawRate: rng.Float64() * 0.03, LateRate: rng.Float64() * 0.15,
			Seed: s,
		}
		if s%3 == 0 {
			cfg.System = tournament.DutchBaku
		}
		ev, err := tournament.Generate(cfg, Pairer{})
		if err != nil {
			t.Fatalf("generate %+v: %v", cfg, err)
		}
		if ev.System == tournament.DutchBaku {
			// The oracle reads the acceleration as XXA lines.
			ev.Extra = append(ev.Extra, ev.BakuXXA(ev.Rounds)...)
			baku += ev.Played()
		}
		trf := filepath.Join(dir, fmt.Sprintf("ours%d.trf", s))
		var b bytes.Buffer
		if err := ev.WriteTRF(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(trf, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "--dutch", trf, "-c").CombinedOutput()
		if err != nil {
			t.Fatalf("checker, %s: %v\n%s", trf, err, out)
		}
		events++
		rounds += ev.Played()
		// The checker names every round and, under a round that differs,
		// prints the two pairings side by side.
		var bad []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "Checker pairings") {
				diffs++
				bad = append(bad, l)
			}
		}
		if len(bad) > 0 && diffs <= 20 {
			t.Errorf("%s (%d players, %d rounds): the oracle pairs otherwise:\n%s", trf, n, r, out)
		}
	}
	t.Logf("our %d tournaments: %d rounds (%d with the Baku acceleration) paired again by the oracle, %d differ", events, rounds, baku, diffs)
}
