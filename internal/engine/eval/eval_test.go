package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
)

// TestEvaluateIsDot checks the sparse Evaluate against the dense dot product
// of Extract's features, on the positions of random games under several
// rulesets.
func TestEvaluateIsDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var w Weights
	for i := range w {
		w[i] = rng.Int32N(1<<16) - 1<<15
	}
	playout := toguz.Bestemshe()
	playout.PlayOut = true
	for _, r := range []toguz.Rules{toguz.Standard(), toguz.Bestemshe(), playout, toguz.Pre1949(), toguz.Seven(),
		{Holes: 6, Stones: 6, Tuzdik: true, OriginSowing: true}, {Holes: 9, Stones: 9, Tuzdik: true}} {
		for range 30 {
			p, err := toguz.NewPosition(r)
			if err != nil {
				t.Fatal(err)
			}
			for !p.IsOver() {
				var f Features
				Extract(&p, &f)
				if got, want := w.Evaluate(&p), w.Dot(&f); got != want {
					t.Fatalf("%s %s: Evaluate %d, Dot %d", r, p.FEN(), got, want)
				}
				ms := p.LegalMoves().Slice()
				p = p.After(ms[rng.IntN(len(ms))])
			}
		}
	}
}

// TestCaptureFeatures checks the capture features against the moves
// themselves: MyCapture is the most stones a move puts in the mover's kazan
// by its last stone (a new tuzdik counts its 3).
func TestCaptureFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, r := range []toguz.Rules{toguz.Standard(), toguz.Pre1949(), toguz.Bestemshe()} {
		for range 20 {
			p, _ := toguz.NewPosition(r)
			for !p.IsOver() {
				var f Features
				Extract(&p, &f)
				me := p.Turn()
				var best, count, tuz int32
				for m := range p.LegalMoves().All() {
					c := p.After(m)
					// Stones sown into the mover's own tuzdik are not captures.
					gain := int32(c.Kazan(me) - p.Kazan(me))
					if t := p.Tuzdik(me); t != 0 {
						gain -= int32(sownInto(&p, m, t))
					}
					if c.Tuzdik(me) != p.Tuzdik(me) {
						tuz = 1
					} else if gain > 0 {
						count++
					}
					best = max(best, gain)
				}
				if f[MyCapture] != best || f[MyCaptures] != count || f[MyTuzdikMove] != tuz {
					t.Fatalf("%s %s: capture features %d %d %d, moves say %d %d %d", r, p.FEN(),
						f[MyCapture], f[MyCaptures], f[MyTuzdikMove], best, count, tuz)
				}
				ms := p.LegalMoves().Slice()
				p = p.After(ms[rng.IntN(len(ms))])
			}
		}
	}
}

// sownInto returns how many stones move m sows into the opponent's hole t
// (the mover's tuzdik).
func sownInto(p *toguz.Position, m toguz.Move, t int) int {
	n := p.Holes()
	ring := 2 * n
	from := int(p.Turn())*n + int(m) - 1
	target := int(p.Turn().Other())*n + t - 1
	s := p.Stones(p.Turn(), int(m))
	start := from
	if s == 1 || !p.Rules().OriginSowing {
		start = (from + 1) % ring
	}
	count := 0
	for k := range s {
		if (start+k)%ring == target {
			count++
		}
	}
	return count
}

// TestForRules: the rulesets with weights of their own get them (with or
// without PlayOut), the others the standard weights.
func TestForRules(t *testing.T) {
	playout := toguz.Bestemshe()
	playout.PlayOut = true
	for _, tt := range []struct {
		rules    toguz.Rules
		own      bool
		standard bool // the weights are the standard ones
	}{
		{toguz.Standard(), true, true},
		{toguz.Bestemshe(), true, false},
		{playout, true, false},
		{toguz.Seven(), true, false},
		{toguz.Pre1949(), false, true},
		{toguz.Rules{Holes: 6, Stones: 6, Tuzdik: true, OriginSowing: true}, false, true},
	} {
		w, ok := ForRules(tt.rules)
		if ok != tt.own || (w == Learned()) != tt.standard {
			t.Errorf("%s: own %v, standard %v; want %v, %v", tt.rules, ok, w == Learned(), tt.own, tt.standard)
		}
	}
	b, _ := ForRules(toguz.Bestemshe())
	s, _ := ForRules(toguz.Seven())
	if *b == *s || b[Tuzdik] != 0 || s[Tuzdik] == 0 {
		t.Errorf("Bestemshe's weights (tuzdik %d) and the 2×7 board's (tuzdik %d) are not their own", b[Tuzdik], s[Tuzdik])
	}
}
