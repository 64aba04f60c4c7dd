package toguz

import (
	"runtime"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/cputime"
)

// reportLeaves reports leaves per second of wall time, and per second of
// the process's CPU time, which stays meaningful on a shared machine.
func reportLeaves(b *testing.B, leaves uint64, cpu0 time.Duration) {
	total := float64(leaves) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "leaves/s")
	if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
		b.ReportMetric(total/cpu, "leaves/cpu-s")
	}
}

// BenchmarkPerft9 makes every move of perft(9) from the start (210,521,787
// leaves), on one thread: the figure the rules library is held to.
func BenchmarkPerft9(b *testing.B) {
	p := StartPosition()
	var n uint64
	cpu0 := cputime.Process()
	for b.Loop() {
		n = Perft(p, 9)
	}
	reportLeaves(b, n, cpu0)
}

// BenchmarkPerftBulk9 is perft(9) with the counting shortcut at the last ply.
func BenchmarkPerftBulk9(b *testing.B) {
	p := StartPosition()
	var n uint64
	cpu0 := cputime.Process()
	for b.Loop() {
		n = PerftBulk(p, 9)
	}
	reportLeaves(b, n, cpu0)
}

// BenchmarkMakeMove plays one legal move of a middlegame position (all of
// them in turn) and reports its cost and allocations, which must be zero.
func BenchmarkMakeMove(b *testing.B) {
	p, _, err := ParseFEN("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4", Standard())
	if err != nil {
		b.Fatal(err)
	}
	moves := p.LegalMoves().Slice()
	b.ReportAllocs()
	var sink Position
	i := 0
	for b.Loop() {
		sink = p.After(moves[i])
		if i++; i == len(moves) {
			i = 0
		}
	}
	_ = sink
}

// BenchmarkPerft8 is BenchmarkPerft9 one ply shorter (25,166,174 leaves),
// for a loaded machine.
func BenchmarkPerft8(b *testing.B) {
	p := StartPosition()
	var n uint64
	cpu0 := cputime.Process()
	for b.Loop() {
		n = Perft(p, 8)
	}
	reportLeaves(b, n, cpu0)
}

// BenchmarkPerftMakeMove is perft's own make-move at the last ply: every
// legal move of the middlegame position of BenchmarkMakeMove, made and
// folded, per move.
func BenchmarkPerftMakeMove(b *testing.B) {
	p, _, err := ParseFEN("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4", Standard())
	if err != nil {
		b.Fatal(err)
	}
	r := newPerftRun(p)
	moves := p.LegalMoves()
	b.ReportAllocs()
	var n, fold uint64
	cpu0 := cputime.Process()
	for b.Loop() {
		c, f := r.leavesTuzdik(p, moves)
		n += c
		fold ^= f
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/move")
	b.ReportMetric(float64((cputime.Process()-cpu0).Nanoseconds())/float64(n), "cpu-ns/move")
	runtime.KeepAlive(fold)
}

// BenchmarkPlay is the checked Play of a legal move.
func BenchmarkPlay(b *testing.B) {
	p := StartPosition()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Play(7); err != nil {
			b.Fatal(err)
		}
	}
}
