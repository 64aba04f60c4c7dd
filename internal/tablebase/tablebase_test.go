package tablebase

import (
	"bytes"
	"context"
	"errors"
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

// randomPosition is randomBoard for the tests, which fail on an error.
func randomPosition(t testing.TB, rng *rand.Rand, k, c int, turn toguz.Player, a int) toguz.Position {
	t.Helper()
	p, err := randomBoard(rng, k, c, turn, a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// positionOf is setupOf for the tests, which fail on an error.
func positionOf(t testing.TB, f frame, tz tuzdiks, turn toguz.Player, a, b int) toguz.Position {
	t.Helper()
	p, err := setupOf(f, tz, turn, a, b)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRankIsABijection(t *testing.T) {
	for k := range 4 {
		for c := range numConfigs {
			n := blockSize(k, c)
			seen := make([]bool, n)
			// Every board of k stones, by counting in base k+1 over the
			// free holes would be too many; unrank then rank instead,
			// and check that the boards are distinct and valid.
			boards := map[[ringSize]int8]bool{}
			for r := range n {
				var b [ringSize]int8
				unrank(&b, r, k, &configs[c])
				sum := 0
				for h, v := range b {
					if v < 0 || (int8(h) == configs[c].t.my || int8(h) == configs[c].t.opp) && v != 0 {
						t.Fatalf("k=%d c=%d r=%d: bad board %v", k, c, r, b)
					}
					sum += int(v)
				}
				if sum != k || boards[b] {
					t.Fatalf("k=%d c=%d r=%d: board %v has %d stones or repeats", k, c, r, b, sum)
				}
				boards[b] = true
				got := rank(&b, &configs[c])
				if got != r || seen[got] {
					t.Fatalf("k=%d c=%d: rank(unrank(%d)) = %d", k, c, r, got)
				}
				seen[got] = true
			}
		}
	}
}

func TestRankRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		k, c := rng.IntN(MaxStones+1), rng.IntN(numConfigs)
		cf := &configs[c]
		var b [ringSize]int8
		for range k {
			b[cf.free[rng.IntN(cf.nfree)]]++
		}
		r := rank(&b, cf)
		if r < 0 || r >= blockSize(k, c) {
			t.Fatalf("rank %d out of [0,%d)", r, blockSize(k, c))
		}
		var got [ringSize]int8
		unrank(&got, r, k, cf)
		if got != b {
			t.Fatalf("unrank(rank(%v)) = %v", b, got)
		}
	}
}

func TestConfigs(t *testing.T) {
	for c := range numConfigs {
		if got := configOf(configs[c].t); got != c {
			t.Errorf("configOf(%+v) = %d, want %d", configs[c].t, got, c)
		}
	}
}

// TestPlayMatchesRules checks the generator's move against the rules
// library's on random positions of every tuzdik configuration.
func TestPlayMatchesRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 20000 {
		k := rng.IntN(MaxStones + 1)
		c := n % numConfigs
		turn := toguz.Player(rng.IntN(2))
		p := randomPosition(t, rng, k, c, turn, 80-k/2)
		f, stones := frameOf(&p)
		if stones != k || f.t != configs[c].t {
			t.Fatalf("frameOf: %d stones, tuzdiks %+v; want %d, %+v", stones, f.t, k, configs[c].t)
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
	tb := tables(t, maxK)
	rng := rand.New(rand.NewPCG(5, 6))
	ref := &reference{id: map[toguz.Position]int32{}}
	var roots []int32
	for n := range boards {
		k := 1 + n%maxK
		c := n % numConfigs
		turn := toguz.Player(rng.IntN(2))
		base := randomPosition(t, rng, k, c, turn, 81)
		f, _ := frameOf(&base)
		for a := 81 - k; a <= 81; a++ {
			p := positionOf(t, f, configs[c].t, turn, a, 162-k-a)
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
	path := filepath.Join(t.TempDir(), FileName(4))
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
	path, err := Generate(context.Background(), dir, 3, 3, func(stage string, stones int, done, total int64) {
		if done > total || stones > 3 {
			t.Errorf("progress %d/%d on layer %d", done, total, stones)
		}
		calls++
	})
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

func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{6, 7, 8} {
		b.Run(string(rune('0'+n)), func(b *testing.B) {
			for b.Loop() {
				t, err := Solve(context.Background(), n, -1, 2, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(t.Positions()), "positions")
			}
		})
	}
}

// TestParentsInvertQuietMoves checks that parents lists exactly the
// positions with a quiet move to a position.
func TestParentsInvertQuietMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for n := range 20000 {
		k, c := rng.IntN(MaxStones+1), n%numConfigs
		cf := &configs[c]
		f := frame{t: cf.t}
		for range k {
			f.b[cf.free[rng.IntN(cf.nfree)]]++
		}
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
	rep, err := Verify(context.Background(), tb, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Roots != 6 || rep.Positions < rep.Roots || rep.Distances != rep.Positions {
		t.Errorf("report %+v: want 6 roots, every position reached with its distance checked", rep)
	}
	damaged := *tb
	damaged.data = make([]byte, len(tb.data)) // nobody can gain a stone: wins become draws
	if _, err := Verify(context.Background(), &damaged, 6, 1); !errors.Is(err, ErrMismatch) {
		t.Errorf("damaged tables: %v, want ErrMismatch", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, tb, 6, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
