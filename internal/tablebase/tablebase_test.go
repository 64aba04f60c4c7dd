package tablebase

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/toguz/toguz"
)

// solved holds tables of up to 4, 5 and 6 stones, with distances, each
// solved once per test binary.
var solved = map[int]func() (*Tables, error){
	4: sync.OnceValues(func() (*Tables, error) { return Solve(context.Background(), 4, 4, 2, nil) }),
	5: sync.OnceValues(func() (*Tables, error) { return Solve(context.Background(), 5, 5, 2, nil) }),
	6: sync.OnceValues(func() (*Tables, error) { return Solve(context.Background(), 6, 6, 2, nil) }),
}

func tables(t testing.TB, n int) *Tables {
	t.Helper()
	tb, err := solved[n]()
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// randomPosition is randomBoard of the standard game for the tests, which
// fail on an error.
func randomPosition(t testing.TB, rng *rand.Rand, k, c int, turn toguz.Player, a int) toguz.Position {
	t.Helper()
	return randomPositionOf(t, standard, rng, k, c, turn, a)
}

// randomPositionOf is randomBoard for the tests.
func randomPositionOf(t testing.TB, g *geometry, rng *rand.Rand, k, c int, turn toguz.Player, a int) toguz.Position {
	t.Helper()
	p, err := randomBoard(rng, g, k, c, turn, a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// positionOf is setupOf for the tests, which fail on an error.
func positionOf(t testing.TB, g *geometry, f frame, tz tuzdiks, turn toguz.Player, a, b int) toguz.Position {
	t.Helper()
	p, err := setupOf(g, f, tz, turn, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// rulesets lists the geometry of every ruleset with tables.
var rulesets = []*geometry{standard, geometryOf(toguz.Bestemshe()), geometryOf(toguz.Seven())}

// randomFrame returns a board of g with k stones in configuration c: the
// stones spread at random or, one time in four, most of them in one hole,
// so that moves that go round the board more than once come up.
func randomFrame(rng *rand.Rand, g *geometry, k, c int) frame {
	cf := &g.config[c]
	f := frame{t: cf.t, h: int8(g.holes), tz: g.rules.Tuzdik}
	heap := 0
	if rng.IntN(4) == 0 {
		heap = k - rng.IntN(3)
	}
	hole := cf.free[rng.IntN(cf.nfree)]
	for s := range k {
		if s < heap {
			f.b[hole]++
			continue
		}
		f.b[cf.free[rng.IntN(cf.nfree)]]++
	}
	return f
}

func TestRankIsABijection(t *testing.T) {
	for _, g := range rulesets {
		for k := range 4 {
			for c := range g.nconf {
				n := g.blockSize(k, c)
				seen := make([]bool, n)
				// Every board of k stones, by counting in base k+1 over
				// the free holes would be too many; unrank then rank
				// instead, and check that the boards are distinct and
				// valid.
				boards := map[[maxRing]int8]bool{}
				cf := &g.config[c]
				for r := range n {
					var b [maxRing]int8
					unrank(&b, r, k, cf)
					sum := 0
					for h, v := range b {
						if v < 0 || (int8(h) == cf.t.my || int8(h) == cf.t.opp || h >= g.ring) && v != 0 {
							t.Fatalf("%s k=%d c=%d r=%d: bad board %v", g.name, k, c, r, b)
						}
						sum += int(v)
					}
					if sum != k || boards[b] {
						t.Fatalf("%s k=%d c=%d r=%d: board %v has %d stones or repeats", g.name, k, c, r, b, sum)
					}
					boards[b] = true
					got := rank(&b, cf)
					if got != r || seen[got] {
						t.Fatalf("%s k=%d c=%d: rank(unrank(%d)) = %d", g.name, k, c, r, got)
					}
					seen[got] = true
				}
			}
		}
	}
}

func TestRankRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, g := range rulesets {
		for range 20000 {
			k, c := rng.IntN(g.limit+1), rng.IntN(g.nconf)
			f := randomFrame(rng, g, k, c)
			r := rank(&f.b, &g.config[c])
			if r < 0 || r >= g.blockSize(k, c) {
				t.Fatalf("%s: rank %d out of [0,%d)", g.name, r, g.blockSize(k, c))
			}
			var got [maxRing]int8
			unrank(&got, r, k, &g.config[c])
			if got != f.b {
				t.Fatalf("%s: unrank(rank(%v)) = %v", g.name, f.b, got)
			}
		}
	}
}

func TestConfigs(t *testing.T) {
	for _, g := range rulesets {
		want := 1
		if g.rules.Tuzdik {
			want = 1 + (g.holes-1)*g.holes
		}
		if g.nconf != want {
			t.Errorf("%s: %d tuzdik configurations, want %d", g.name, g.nconf, want)
		}
		for c := range g.nconf {
			if got := g.configOf(g.config[c].t); got != c {
				t.Errorf("%s: configOf(%+v) = %d, want %d", g.name, g.config[c].t, got, c)
			}
		}
	}
	if g := geometryOf(toguz.Pre1949()); g != nil {
		t.Errorf("tables for the older sowing: %s", g.name)
	}
}

// TestPlayMatchesRules checks the generator's move against the rules
// library's on random positions of every ruleset and tuzdik configuration.
func TestPlayMatchesRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 60000 {
		g := rulesets[n%len(rulesets)]
		k := rng.IntN(g.limit + 1)
		c := n / len(rulesets) % g.nconf
		turn := toguz.Player(rng.IntN(2))
		fr := randomFrame(rng, g, k, c)
		p := positionOf(t, g, fr, fr.t, turn, g.win-2-k/2, g.total-k-(g.win-2-k/2))
		f, stones := frameOf(&p)
		if stones != k || f != fr {
			t.Fatalf("%s frameOf: %+v, %d stones; want %+v, %d", g.name, f, stones, fr, k)
		}
		for m := range p.LegalMoves().All() {
			q := p.After(m)
			child, gMe, gOpp := f.play(int(m) - 1)
			want, wantStones := frameOf(&q)
			if child != want || stones-gMe-gOpp != wantStones ||
				q.Kazan(turn)-p.Kazan(turn) != gMe || q.Kazan(turn.Other())-p.Kazan(turn.Other()) != gOpp {
				t.Fatalf("%s move %d: play gives %+v (+%d, +%d), rules give %+v (%d stones)",
					p.FEN(), m, child, gMe, gOpp, want, wantStones)
			}
		}
	}
}

// TestProbeMatchesReference compares the tables with the reference on random
// boards of every tuzdik configuration, each under every kazan split where
// the game is not over, so that both stored counts are checked at every
// threshold.
func TestProbeMatchesReference(t *testing.T) {
	maxK, boards := 6, 2*numConfigs
	if testing.Short() {
		maxK, boards = 5, numConfigs
	}
	checkAgainstReference(t, tables(t, maxK), maxK, boards, 5)
}

// checkAgainstReference compares tb with the reference on boards random
// boards of up to maxK stones, each under every kazan split where the game
// is not over.
func checkAgainstReference(t *testing.T, tb *Tables, maxK, boards int, seed uint64) {
	g := tb.lay.g
	rng := rand.New(rand.NewPCG(seed, 6))
	ref := &reference{id: map[toguz.Position]int32{}}
	var roots []int32
	for n := range boards {
		k := 1 + n%maxK
		c := n % g.nconf
		turn := toguz.Player(rng.IntN(2))
		f := randomFrame(rng, g, k, c)
		for a := g.win - 1 - k; a <= g.win-1; a++ {
			p := positionOf(t, g, f, f.t, turn, a, g.total-k-a)
			roots = append(roots, ref.add(p))
		}
	}
	val := ref.solve()
	dist := ref.distances(val)
	counts := map[WDL]int{}
	longest := 0
	for _, i := range roots {
		p := ref.pos[i]
		got, ok := tb.ProbeWDL(p)
		if !ok {
			t.Fatalf("%s: not in the tables", p.FEN())
		}
		if got != val[i] {
			a, d, _ := tb.Value(p)
			t.Errorf("%s: tables say %s (mover %d, opponent %d), reference %s", p.FEN(), got, a, d, val[i])
		}
		counts[got]++
		res, plies, ok := tb.ProbeDTM(p)
		if want := max(dist[i], 0); !ok || res != val[i] || plies != want {
			t.Errorf("%s: ProbeDTM %s in %d (%v), reference %s in %d", p.FEN(), res, plies, ok, val[i], want)
		}
		longest = max(longest, plies)
	}
	t.Logf("longest: %d plies", longest)
	t.Logf("%d positions checked (%v), reference graph of %d", len(roots), counts, len(ref.pos))
	if counts[Win] == 0 || counts[Loss] == 0 || counts[Draw] == 0 {
		t.Errorf("results %v: want every result among the checked positions", counts)
	}
}

// TestProbeEveryReachablePosition checks the tables on every position the
// reference reached, not only the roots, from a few 6-stone positions.
func TestProbeEveryReachablePosition(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	tb := tables(t, 6)
	rng := rand.New(rand.NewPCG(7, 8))
	ref := &reference{id: map[toguz.Position]int32{}}
	for n := range 40 {
		k := 6
		ref.add(randomPosition(t, rng, k, rng.IntN(numConfigs), toguz.Player(n%2), 81-k+rng.IntN(k+1)))
	}
	val := ref.solve()
	dist := ref.distances(val)
	for i, p := range ref.pos {
		got, ok := tb.ProbeWDL(p)
		if !ok {
			t.Fatalf("%s: not in the tables", p.FEN())
		}
		if got != val[i] {
			t.Fatalf("%s: tables say %s, reference %s", p.FEN(), got, val[i])
		}
		if res, plies, ok := tb.ProbeDTM(p); !ok || res != got || plies != max(dist[i], 0) {
			t.Fatalf("%s: ProbeDTM %s in %d, reference %s in %d", p.FEN(), res, plies, val[i], dist[i])
		}
	}
	t.Logf("%d positions checked", len(ref.pos))
}

func TestProbeOutside(t *testing.T) {
	tb := tables(t, 4)
	if _, ok := tb.ProbeWDL(toguz.StartPosition()); ok {
		t.Error("the start position is in a 4-stone table")
	}
	p, err := toguz.NewPosition(toguz.Bestemshe())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tb.ProbeWDL(p); ok {
		t.Error("a Bestemshe position is in a standard table")
	}
}

func TestProbeDoesNotAllocate(t *testing.T) {
	tb := tables(t, 4)
	p := randomPosition(t, rand.New(rand.NewPCG(1, 1)), 4, 40, toguz.Black, 79)
	for name, probe := range map[string]func(){
		"ProbeWDL": func() { tb.ProbeWDL(p) },
		"ProbeDTM": func() { tb.ProbeDTM(p) },
		"Value":    func() { tb.Value(p) },
	} {
		if n := testing.AllocsPerRun(100, probe); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}

func TestFileRoundTrip(t *testing.T) {
	tb := tables(t, 4)
	path := filepath.Join(t.TempDir(), FileName("standard", 4))
	if err := tb.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	got, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.MaxStones() != 4 || got.DistanceStones() != 4 || !bytes.Equal(got.data, tb.data) || !bytes.Equal(got.dist, tb.dist) {
		t.Errorf("read back %d stones, %d bytes; want 4, %d", got.MaxStones(), len(got.data), len(tb.data))
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil || len(entries) != 1 {
		t.Errorf("directory holds %v (%v), want only the table", entries, err)
	}
}

func TestGenerateWritesFile(t *testing.T) {
	dir := t.TempDir()
	calls := 0
	path, err := Generate(context.Background(), dir, Options{Stones: 3, DistanceStones: 3, Workers: 2,
		Progress: func(stage string, stones int, done, total int64) {
			if done > total || stones > 3 {
				t.Errorf("progress %d/%d on layer %d", done, total, stones)
			}
			calls++
		}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	want := tables(t, 4)
	if !bytes.Equal(got.data, want.data[:len(got.data)]) || !bytes.Equal(got.dist, want.dist[:len(got.dist)]) || calls == 0 {
		t.Errorf("a 3-stone table is not the start of the 4-stone one (%d progress calls)", calls)
	}
}

func TestSolveCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, 4, 4, 2, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve with a cancelled context: %v", err)
	}
}

func TestOpenCorrupt(t *testing.T) {
	var good bytes.Buffer
	if _, err := tables(t, 4).WriteTo(&good); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good.Bytes())) }
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"truncated", good.Bytes()[:good.Len()-1]},
		{"too long", append(bytes.Clone(good.Bytes()), 0)},
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"version", edit(func(b []byte) []byte { b[8] = 9; return b })},
		{"stones", edit(func(b []byte) []byte { b[12] = 3; return b })},
		{"too many stones", edit(func(b []byte) []byte { b[12] = 99; return b })},
		{"distance stones", edit(func(b []byte) []byte { b[16] = 4; return b })},
		{"distances beyond values", edit(func(b []byte) []byte { b[16] = 9; return b })},
		{"ruleset", edit(func(b []byte) []byte { b[40] = 'X'; return b })},
		{"value", edit(func(b []byte) []byte { b[headerSize+1000] ^= 0x10; return b })},
		{"distance", edit(func(b []byte) []byte { b[len(b)-100] ^= 0x01; return b })},
		{"checksum", edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.tgtb")
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(path); !errors.Is(err, ErrCorrupt) {
				t.Errorf("Open: %v, want ErrCorrupt", err)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); err == nil || errors.Is(err, ErrCorrupt) {
		t.Errorf("Open of a missing file: %v", err)
	}
}

func BenchmarkProbe(b *testing.B) {
	tb := tables(b, 5)
	rng := rand.New(rand.NewPCG(9, 9))
	ps := make([]toguz.Position, 1024)
	for i := range ps {
		k := 1 + rng.IntN(5)
		ps[i] = randomPosition(b, rng, k, rng.IntN(numConfigs), toguz.Player(i%2), 81-rng.IntN(k+1))
	}
	probes := []struct {
		name  string
		probe func(toguz.Position)
	}{
		{"WDL", func(p toguz.Position) { tb.ProbeWDL(p) }},
		{"DTM", func(p toguz.Position) { tb.ProbeDTM(p) }},
	}
	for _, pr := range probes {
		b.Run(pr.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				pr.probe(ps[i&1023])
				i++
			}
		})
	}
}

// BenchmarkSolve solves the values on one worker and on two: the second
// shows what the parallel passes of solveLayer give.
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{6, 7, 8} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%d/workers=%d", n, workers), func(b *testing.B) {
				for b.Loop() {
					t, err := Solve(context.Background(), n, -1, workers, nil)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(t.Positions()), "positions")
				}
			})
		}
	}
}

// TestParentsInvertQuietMoves checks that parents lists exactly the
// positions with a quiet move to a position.
func TestParentsInvertQuietMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := range 60000 {
		g := rulesets[n%len(rulesets)]
		k, c := rng.IntN(g.limit+1), n/len(rulesets)%g.nconf
		f := randomFrame(rng, g, k, c)
		for ms := f.moves(); ms != 0; ms &= ms - 1 {
			i := bits.TrailingZeros16(ms)
			child, gMe, gOpp := f.play(i)
			found := false
			child.parents(func(p *frame) { found = found || *p == f })
			if quiet := gMe == 0 && gOpp == 0; found != quiet {
				t.Fatalf("%+v move %d (gains %d, %d): among the parents of the child: %v", f, i, gMe, gOpp, found)
			}
		}
		f.parents(func(p *frame) {
			ok := false
			for ms := p.moves(); ms != 0; ms &= ms - 1 {
				child, gMe, gOpp := p.play(bits.TrailingZeros16(ms))
				ok = ok || child == f && gMe == 0 && gOpp == 0
			}
			if !ok {
				t.Fatalf("%+v is given as a parent of %+v, but has no quiet move to it", *p, f)
			}
		})
	}
}

func BenchmarkSolveDistances(b *testing.B) {
	for _, n := range []int{5, 6, 7} {
		b.Run(string(rune('0'+n)), func(b *testing.B) {
			for b.Loop() {
				if _, err := Solve(context.Background(), n, n, 2, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestVerify: Verify passes solved tables and catches tables whose values
// were damaged.
func TestVerify(t *testing.T) {
	tb := tables(t, 5)
	rep, err := Verify(context.Background(), tb, VerifyOptions{Roots: 6, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Roots != 6 || rep.Positions < rep.Roots || rep.Distances != rep.Positions {
		t.Errorf("report %+v: want 6 roots, every position reached with its distance checked", rep)
	}
	rep, err = Verify(context.Background(), tb, VerifyOptions{Roots: 3, Stones: 3, Seed: 2})
	if err != nil || rep.Roots != 3 || rep.Positions < 3 {
		t.Errorf("roots of 3 stones: %+v, %v", rep, err)
	}
	if _, err := Verify(context.Background(), tb, VerifyOptions{Roots: 3, Stones: 6}); err == nil {
		t.Error("roots of 6 stones in a table of 5: no error")
	}
	damaged := *tb
	damaged.data = make([]byte, len(tb.data)) // nobody can gain a stone: wins become draws
	if _, err := Verify(context.Background(), &damaged, VerifyOptions{Roots: 6, Seed: 1}); !errors.Is(err, ErrMismatch) {
		t.Errorf("damaged tables: %v, want ErrMismatch", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, tb, VerifyOptions{Roots: 6, Seed: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRulesetsMatchReference checks the tables of Bestemshe (wide values:
// 16 stones, some boards with more stones in a hole than the ring has
// holes) and of the 2×7 board against the reference, results and
// distances, under every kazan split.
func TestRulesetsMatchReference(t *testing.T) {
	tests := []struct {
		rules             toguz.Rules
		stones, distances int
		maxK, boards      int
	}{
		{toguz.Bestemshe(), 16, 12, 11, 16},
		{toguz.Seven(), 6, 6, 6, 2 * 43},
	}
	if testing.Short() {
		// The reference graph of 11-stone Bestemshe roots has millions of
		// positions; TestParentsInvertQuietMoves covers moves that go
		// round the board more than once.
		tests[0].maxK, tests[0].boards = 9, 20
		tests[1].maxK = 5
	}
	for _, tt := range tests {
		t.Run(tt.rules.String(), func(t *testing.T) {
			tb, err := SolveWith(context.Background(), Options{Rules: tt.rules, Stones: tt.stones,
				DistanceStones: tt.distances, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if tb.Rules() != tt.rules || tb.w != valueWidth(tt.stones) {
				t.Fatalf("tables of %s, %d bytes a value", tb.Rules(), tb.w)
			}
			checkAgainstReference(t, tb, tt.maxK, tt.boards, 15)
		})
	}
}

// TestWorkersAgree solves the same tables on one, two and three workers:
// the values must be the same bytes, whatever order the parallel passes
// place the positions in. Two tables cover both widths of a value.
func TestWorkersAgree(t *testing.T) {
	tests := []struct {
		rules  toguz.Rules
		stones int
	}{
		{toguz.Standard(), 5},
		{toguz.Bestemshe(), 16}, // two bytes a value above 15 stones
	}
	if testing.Short() {
		tests = tests[:1] // the race detector makes the second a matter of minutes
	}
	for _, tt := range tests {
		t.Run(tt.rules.String(), func(t *testing.T) {
			var want []byte
			for _, workers := range []int{1, 2, 3} {
				tb, err := SolveWith(context.Background(), Options{Rules: tt.rules, Stones: tt.stones,
					DistanceStones: -1, Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				if want == nil {
					want = tb.data
					continue
				}
				if i := firstDifference(tb.data, want); i >= 0 {
					t.Fatalf("%d workers: byte %d of %d is %#x, one worker gave %#x", workers, i, len(want), tb.data[i], want[i])
				}
			}
		})
	}
}

func firstDifference(a, b []byte) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestCheckpointsResume stops a generation in the middle and runs it again:
// the second run solves only the layers the first did not finish, and the
// tables are those of a run never stopped. A damaged checkpoint is an error.
func TestCheckpointsResume(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o := Options{Rules: toguz.Bestemshe(), Stones: 8, DistanceStones: 6, Workers: 2, Checkpoints: dir,
		Progress: func(stage string, stones int, done, total int64) {
			if stage == "distances" && stones == 4 {
				cancel()
			}
		}}
	if _, err := SolveWith(ctx, o); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	solved := map[string]bool{}
	o.Progress = func(stage string, stones int, done, total int64) { solved[stage+string(rune('0'+stones))] = true }
	got, err := SolveWith(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= 8; k++ {
		if solved["values"+string(rune('0'+k))] {
			t.Errorf("values of layer %d solved again", k)
		}
	}
	for k := 1; k <= 6; k++ {
		if again := solved["distances"+string(rune('0'+k))]; again != (k >= 4) {
			t.Errorf("distances of layer %d solved in the second run: %v, want %v", k, again, k >= 4)
		}
	}
	want, err := SolveWith(context.Background(), Options{Rules: toguz.Bestemshe(), Stones: 8, DistanceStones: 6, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.data, want.data) || !bytes.Equal(got.dist, want.dist) {
		t.Fatal("resumed tables differ from tables solved at once")
	}

	// Generate removes its checkpoints once the table is written.
	out := t.TempDir()
	if _, err := Generate(context.Background(), out, Options{Rules: toguz.Bestemshe(), Stones: 8, DistanceStones: 6,
		Checkpoints: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("checkpoints left after Generate: %v", err)
	}

	// A damaged checkpoint is reported, not trusted.
	cp := checkpointer{dir: dir, t: want}
	if err := cp.save(stageValues, 5); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(cp.name(stageValues, 5))
	if err != nil {
		t.Fatal(err)
	}
	b[checkpointHeader+3] ^= 1
	if err := os.WriteFile(cp.name(stageValues, 5), b, 0o644); err != nil {
		t.Fatal(err)
	}
	o.Progress = nil
	if _, err := SolveWith(context.Background(), o); !errors.Is(err, ErrCorrupt) {
		t.Errorf("damaged checkpoint: %v, want ErrCorrupt", err)
	}
}
