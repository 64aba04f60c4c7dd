package loadtest

import (
	"context"
	"testing"
	"time"
)

// BenchmarkLoad is the load figure of docs/architecture.md at a smaller
// scale than `toguz loadtest -games 2000 -interval 1s -duration 60s`: 2,000
// games in this process (server and clients), a move every second in each,
// for 20 s. It reports the move round trip once all games have started
// (p50-ms, p99-ms) and the errors; it fails on any error. Run it on a quiet
// machine:
//
//	go test -run '^$' -bench Load -benchtime 1x ./internal/loadtest/
func BenchmarkLoad(b *testing.B) {
	s := startServer(b)
	cfg := Config{URL: s.URL, Games: 2000, Interval: time.Second, Duration: 20 * time.Second, TC: "10+5", Seed: 1}
	var r Report
	for b.Loop() {
		var err error
		if r, err = Run(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
		if r.Errors != 0 {
			b.Fatalf("%d errors: %v %v", r.Errors, r.ErrorKinds, r.ErrorSample)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(r.Steady.P50), "p50-ms")
	b.ReportMetric(ms(r.Steady.P99), "p99-ms")
	b.ReportMetric(float64(r.Moves)/r.Elapsed.Seconds(), "moves/s")
	b.ReportMetric(0, "ns/op")
}
