package dutch

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBoundsKeepThePairing: nodeC7's bounds and the assignment bound
// (assign.go, here from a search's first node on) only prune; on random
// events of 20-50 players every round is paired the same with and without
// them, and they run in those rounds (so the comparison means something).
func TestBoundsKeepThePairing(t *testing.T) {
	events := 60
	if testing.Short() {
		events = 10
	}
	var st Stats
	for i := range events {
		r := rand.New(rand.NewPCG(uint64(i), 28))
		n := 20 + r.IntN(31)
		_, err := runSim(n, 5+r.IntN(5), r, 20, func(round int, in Input, pr Pairing) error {
			pair := func(bounds bool) (Pairing, error) {
				e := prepared(in)
				if bounds {
					e.assignAfter = 0
					e.st = &st
				} else {
					e.noNodeBound, e.assignAfter = true, math.MaxInt
				}
				pairs, bye, err := e.run()
				if err != nil {
					return Pairing{}, err
				}
				p := Pairing{Pairs: e.boards(pairs)}
				if bye >= 0 {
					p.Bye = e.ps[bye].id
				}
				return p, nil
			}
			with, err1 := pair(true)
			without, err2 := pair(false)
			if (err1 == nil) != (err2 == nil) || Format(with) != Format(without) {
				t.Errorf("event %d (%d players) round %d: with the bounds\n%s%v\nwithout\n%s%v", i, n, round, Format(with), err1, Format(without), err2)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d events: %d nodes bounded by C7/C8's matching, %d by the assignment", events, st.NodeC7, st.Assign)
	if st.NodeC7 == 0 || st.Assign == 0 {
		t.Error("a bound never ran: the comparison shows nothing")
	}
}
