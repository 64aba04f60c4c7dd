package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
)

// TestMoveOrderBands checks that the move-ordering bands do not overlap
// whatever the gain or history, that generate and pick try the TT move,
// captures by gain, the killers and then history in that order, and that
// late move reductions (lateQuiet) apply to exactly the history band.
func TestMoveOrderBands(t *testing.T) {
	const maxGain = 162
	if orderCapture+maxGain<<8 >= orderTT {
		t.Errorf("the biggest capture %d reaches the TT move %d", orderCapture+maxGain<<8, orderTT)
	}
	if orderKiller+1 >= orderCapture+1<<8 {
		t.Errorf("the first killer %d reaches the smallest capture %d", orderKiller+1, orderCapture+1<<8)
	}
	if top := historyMax + maxPly*maxPly; top >= orderKiller {
		t.Errorf("history reaches %d, the killers start at %d", top, orderKiller)
	}

	// A position with a capture and at least four quiet moves.
	rng := rand.New(rand.NewPCG(3, 4))
	w := &worker{opts: new(Options)}
	*w.opts = DefaultOptions()
	w.opts.History = true
	f := &w.stack[0]
	for tries := 0; ; tries++ {
		if tries == 10000 {
			t.Fatal("no position with a capture and four quiet moves")
		}
		p := toguz.StartPosition()
		for range rng.IntN(20) {
			if p.IsOver() {
				break
			}
			ms := p.LegalMoves().Slice()
			p = p.After(ms[rng.IntN(len(ms))])
		}
		if p.IsOver() {
			continue
		}
		f.pos = p
		w.generate(f, 0, toguz.NoMove)
		quiet := 0
		for i := range f.n {
			if f.gain[i] == 0 {
				quiet++
			}
		}
		if quiet >= 4 && quiet < f.n {
			break
		}
	}
	var quiet []toguz.Move
	for i := range f.n {
		if f.gain[i] == 0 {
			quiet = append(quiet, f.move[i])
		}
	}
	tt, k0, k1, hist := quiet[0], quiet[1], quiet[2], quiet[3]
	w.killers[0] = [2]toguz.Move{k0, k1}
	me := f.pos.Turn()
	w.history[me][hist] = historyMax
	w.generate(f, 0, tt)
	lastGain := int32(maxGain + 1)
	for i := range f.n {
		f.pick(i)
		m, g := f.move[i], f.gain[i]
		switch {
		case i == 0:
			if m != tt {
				t.Fatalf("move 1: %d, want the TT move %d", m, tt)
			}
		case g > 0:
			if g > lastGain {
				t.Errorf("move %d: capture of %d after one of %d", i+1, g, lastGain)
			}
			lastGain = g
		case m == k0 || m == k1:
			if f.order[i-1] < orderKiller {
				t.Errorf("move %d: killer %d after a history move", i+1, m)
			}
		}
		if g > 0 && f.order[i-1] < orderCapture {
			t.Errorf("move %d: capture %d after a quiet move", i+1, m)
		}
		want := g == 0 && m != tt && m != k0 && m != k1
		if got := f.lateQuiet(i); got != want {
			t.Errorf("move %d (%d, gain %d, key %d): lateQuiet %v, want %v", i+1, m, g, f.order[i], got, want)
		}
	}
}
