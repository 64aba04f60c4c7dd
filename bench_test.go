package toguz

import "testing"

// BenchmarkPerft9 makes every move of perft(9) from the start; leaves/s is
// the figure the issue asks for.
func BenchmarkPerft9(b *testing.B) {
	p := StartPosition()
	var n uint64
	for b.Loop() {
		n = Perft(p, 9)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkPerftBulk9 is perft(9) with the counting shortcut at the last ply.
func BenchmarkPerftBulk9(b *testing.B) {
	p := StartPosition()
	var n uint64
	for b.Loop() {
		n = PerftBulk(p, 9)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "leaves/s")
}

// BenchmarkMakeMove plays every legal move of a middlegame position.
func BenchmarkMakeMove(b *testing.B) {
	p, _, err := ParseFEN("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4", Standard)
	if err != nil {
		b.Fatal(err)
	}
	moves := p.LegalMoves()
	b.ReportAllocs()
	for b.Loop() {
		for m := range moves.All() {
			c := p
			c.MakeMove(m)
		}
	}
}
