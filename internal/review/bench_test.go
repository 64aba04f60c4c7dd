package review

import (
	"context"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/shareddata"
)

// BenchmarkReview reviews real games (the masters of 2018) one after the
// other on one thread at DefaultDepth, as one worker does, and reports the
// throughput in games per minute on one core:
//
//	go test -run '^$' -bench Review -benchtime 20x ./internal/review
func BenchmarkReview(b *testing.B) {
	games, err := toguz.ParseGames("masters-2018.pgn", shareddata.Read(b, "masters-2018.pgn"), 0)
	if err != nil {
		b.Fatal(err)
	}
	e, err := newEngine()
	if err != nil {
		b.Fatal(err)
	}
	plies := 0
	start := time.Now()
	b.ResetTimer()
	for i := range b.N {
		g := games[i%len(games)]
		p, err := g.StartPosition()
		if err != nil {
			b.Fatal(err)
		}
		moves := g.Moves()
		if _, err := Analyze(context.Background(), e, p, moves, DefaultDepth, false); err != nil {
			b.Fatal(err)
		}
		plies += len(moves)
	}
	el := time.Since(start)
	b.ReportMetric(float64(b.N)/el.Minutes(), "games/min")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
}
