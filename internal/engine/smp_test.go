package engine

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/toguz/toguz"
)

// smpOff returns o with every Lazy SMP switch off.
func smpOff(o Options) Options {
	o.SMPSkip, o.SMPVote, o.SMPOrder, o.SMPDefer = false, false, false, false
	return o
}

// TestSMPOptionsLeaveOneThreadAlone: on one thread the Lazy SMP switches
// change nothing, node for node, at fixed depth.
func TestSMPOptionsLeaveOneThreadAlone(t *testing.T) {
	on, err := New(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	off, err := New(smpOff(DefaultOptions()))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	p := toguz.StartPosition()
	for i := range 6 {
		on.NewGame()
		off.NewGame()
		a := on.Search(context.Background(), p, Limits{Depth: 9}, nil)
		b := off.Search(context.Background(), p, Limits{Depth: 9}, nil)
		if a.Nodes != b.Nodes || a.Score != b.Score || a.Best != b.Best {
			t.Errorf("position %d %s: SMP options on: %d nodes, %v %v; off: %d nodes, %v %v",
				i, p.FEN(), a.Nodes, a.Score, a.Best, b.Nodes, b.Score, b.Best)
		}
		ms := p.LegalMoves().Slice()
		p = p.After(ms[rng.IntN(len(ms))])
	}
}

func TestSkips(t *testing.T) {
	tests := []struct {
		id   int
		skip bool // SMPSkip
		want string
	}{
		// depths 1..12, "x" where the worker skips it
		{0, true, "............"},
		{1, true, "x.x.x.x.x.x."},
		{2, true, ".x.x.x.x.x.x"},
		{3, true, ".xx..xx..xx."},
		{4, true, "xx..xx..xx.."},
		{7, true, "..xxx...xxx."},
		{21, true, "x.x.x.x.x.x."}, // the rows repeat after 20 helpers
		{0, false, "............"},
		{1, false, "x..........."},
		{2, false, "............"},
		{3, false, "x..........."},
	}
	for _, tt := range tests {
		o := DefaultOptions()
		o.SMPSkip = tt.skip
		w := &worker{id: tt.id, opts: &o}
		got := make([]byte, len(tt.want))
		for d := range got {
			got[d] = '.'
			if w.skips(d + 1) {
				got[d] = 'x'
			}
		}
		if string(got) != tt.want {
			t.Errorf("worker %d, SMPSkip %v: skips %s, want %s", tt.id, tt.skip, got, tt.want)
		}
	}
}

func TestBusyTable(t *testing.T) {
	b := new(busyTable)
	const k = 0xabc0000000000005
	if b.searching(k) {
		t.Fatal("empty table: searching")
	}
	b.enter(k)
	b.enter(k) // a second worker on the same position
	if !b.searching(k) {
		t.Fatal("entered: not searching")
	}
	// Keys of the same set fill its ways; one more overwrites the first.
	others := []uint64{k + busySets, k + 2*busySets, k + 3*busySets}
	for _, o := range others {
		b.enter(o)
	}
	for _, o := range append(others, k) {
		if !b.searching(o) {
			t.Errorf("%#x: not searching in a full set", o)
		}
	}
	extra := uint64(k + 4*busySets)
	b.enter(extra)
	if !b.searching(extra) || b.searching(k) {
		t.Errorf("a full set: the new key searching %v, the first way's %v; want true, false", b.searching(extra), b.searching(k))
	}
	b.leave(extra)
	if b.searching(extra) || !b.searching(others[0]) {
		t.Errorf("after leave: searching %v; the others %v", b.searching(extra), b.searching(others[0]))
	}
}

func TestVote(t *testing.T) {
	mk := func(completed, pvLen int) *worker {
		w := &worker{completed: completed, nroot: 1}
		w.root[0].pvLen = pvLen
		return w
	}
	tests := []struct {
		name    string
		workers []*worker
		want    int
	}{
		{"main alone", []*worker{mk(5, 1)}, 0},
		{"a deeper helper", []*worker{mk(5, 1), mk(6, 3)}, 1},
		{"the deepest helper", []*worker{mk(5, 1), mk(6, 3), mk(8, 2), mk(7, 1)}, 2},
		{"a tie goes to main", []*worker{mk(6, 1), mk(6, 3)}, 0},
		{"a shallower helper", []*worker{mk(9, 1), mk(8, 3)}, 0},
		{"a helper without a line", []*worker{mk(5, 1), mk(7, 0)}, 0},
	}
	for _, tt := range tests {
		if got := vote(tt.workers); got != tt.workers[tt.want] {
			t.Errorf("%s: voted another worker than %d", tt.name, tt.want)
		}
	}
}

// TestDeferralKeepsScores marks every other child of the root's
// grandchildren as searched by another worker, so that at the nodes of ply
// 2 those moves are deferred: proven endings keep their exact scores, and from the start
// position the tree is another one (the deferral happened).
func TestDeferralKeepsScores(t *testing.T) {
	e, err := New(allFeatures())
	if err != nil {
		t.Fatal(err)
	}
	w := e.workers[0]
	run := func(p toguz.Position, depth int, deferring bool) (Score, uint64) {
		var b *busyTable
		if deferring {
			b = new(busyTable)
		}
		mark := func() {
			for r := range p.LegalMoves().All() {
				c := p.After(r)
				for q := range c.LegalMoves().All() {
					g := c.After(q)
					for m := range g.LegalMoves().All() {
						if m%2 == 0 {
							b.enter(g.After(m).Key())
						}
					}
				}
			}
		}
		e.NewGame()
		w.start(&shared{start: time.Now(), workers: e.workers[:1], busy: b}, p)
		for d := 1; d <= depth; d++ {
			// A deferred move's search clears its mark: set them again.
			if deferring {
				mark()
			}
			w.iteration(d, 1)
		}
		return w.root[0].score, w.nodes
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for checked := 0; checked < 12; {
		p := randomEnding(rng, 4+rng.IntN(5))
		ref := minimax(p, 8)
		if !ref.known {
			continue
		}
		checked++
		plain, _ := run(p, 11, false)
		deferred, _ := run(p, 11, true)
		if plain != ref.score || deferred != ref.score {
			t.Errorf("%s: score %v, with deferral %v, minimax %v", p.FEN(), plain, deferred, ref.score)
		}
	}
	_, plain := run(toguz.StartPosition(), 12, false)
	_, deferred := run(toguz.StartPosition(), 12, true)
	if plain == deferred {
		t.Errorf("start position, depth 12: %d nodes with and without deferral", plain)
	}
}
