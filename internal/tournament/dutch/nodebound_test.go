package dutch

import (
	"math/rand/v2"
	"testing"
)

// TestNodeBoundKeepsThePairing: nodeC7's bounds only prune; on random
// events of 20-80 players every round is paired the same with and without
// them, and they run in some of those rounds (so the comparison means
// something).
func TestNodeBoundKeepsThePairing(t *testing.T) {
	events := 600
	if testing.Short() {
		events = 40
	}
	bounded := 0
	for i := range events {
		r := rand.New(rand.NewPCG(uint64(i), 28))
		n := 20 + r.IntN(61)
		_, err := runSim(n, 5+r.IntN(5), r, 20, func(round int, in Input, pr Pairing) error {
			e := prepared(in)
			e.noNodeBound = true
			pairs, bye, err := e.run()
			if err != nil {
				return err
			}
			want := Pairing{Pairs: e.boards(pairs)}
			if bye >= 0 {
				want.Bye = e.ps[bye].id
			}
			if Format(want) != Format(pr) {
				t.Errorf("event %d (%d players) round %d: with the bounds\n%swithout\n%s", i, n, round, Format(pr), Format(want))
			}
			_, st, _ := PairRoundStats(in)
			bounded += st.NodeC7
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d events, %d nodes bounded", events, bounded)
	if bounded == 0 {
		t.Error("no node was bounded: the comparison shows nothing")
	}
}
