package loadtest

import (
	"testing"
	"time"
)

func TestWorstSecond(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	// second returns n moves acknowledged in second s, each with round trip rtt.
	second := func(s, n int, rtt time.Duration) (at, rtts []time.Duration) {
		for i := range n {
			at = append(at, time.Duration(s)*time.Second+time.Duration(i)*time.Second/time.Duration(n))
			rtts = append(rtts, rtt)
		}
		return at, rtts
	}
	tests := []struct {
		name string
		secs [][3]int // second, moves, round trip in ms
		from int
		p99  int
	}{
		{"one second", [][3]int{{3, 100, 5}}, 3, 5},
		{"the slow second", [][3]int{{1, 100, 5}, {2, 100, 300}, {3, 100, 7}}, 2, 300},
		{"a short last second is not counted", [][3]int{{1, 100, 5}, {2, 100, 9}, {3, 100, 7}, {4, 10, 2000}}, 2, 9},
		{"half the median is enough", [][3]int{{1, 100, 5}, {2, 100, 9}, {3, 50, 70}}, 3, 70},
		{"a tie goes to the earlier", [][3]int{{5, 100, 8}, {4, 100, 8}}, 4, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var at, rtts []time.Duration
			for _, s := range tt.secs {
				a, r := second(s[0], s[1], ms(s[2]))
				at, rtts = append(at, a...), append(rtts, r...)
			}
			w := worstSecond(at, rtts)
			if w.From != time.Duration(tt.from)*time.Second || w.P99 != ms(tt.p99) {
				t.Errorf("worst second from %v, p99 %v; want from %ds, p99 %dms", w.From, w.P99, tt.from, tt.p99)
			}
		})
	}
	if w := worstSecond(nil, nil); w.N != 0 {
		t.Errorf("no moves: %+v", w)
	}
}
