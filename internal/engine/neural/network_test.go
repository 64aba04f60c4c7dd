package neural

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

// positions returns the positions of a few random games.
func positions(games int, seed uint64) []toguz.Position {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []toguz.Position
	for range games {
		p := toguz.StartPosition()
		for !p.IsOver() {
			out = append(out, p)
			ms := p.LegalMoves().Slice()
			p = p.After(ms[rng.IntN(len(ms))])
		}
	}
	return out
}

// dense returns p's inputs as a vector of 0 and 1, the slow obvious way.
func dense(p *toguz.Position) *[NumInputs]int32 {
	var x [NumInputs]int32
	me := p.Turn()
	for h := 1; h <= 9; h++ {
		x[(h-1)*Counts+min(p.Stones(me, h), Counts-1)] = 1
		x[(9+h-1)*Counts+min(p.Stones(me.Other(), h), Counts-1)] = 1
	}
	if t := p.Tuzdik(me); t != 0 {
		x[tuzdikInputs+t-1] = 1
	}
	if t := p.Tuzdik(me.Other()); t != 0 {
		x[tuzdikInputs+8+t-1] = 1
	}
	x[kazanInputs+min(p.Kazan(me)/4, KazanBuckets-1)] = 1
	x[kazanInputs+KazanBuckets+min(p.Kazan(me.Other())/4, KazanBuckets-1)] = 1
	return &x
}

// reference evaluates nw the slow obvious way: from the dense input vector.
func reference(nw *Network, p *toguz.Position) int32 {
	x := dense(p)
	var out int64
	for j := range Hidden {
		a := int32(nw.B1[j])
		for i, v := range x {
			a += v * int32(nw.W1[i][j])
		}
		out += int64(min(max(a, 0), QA)) * int64(nw.W2[j])
	}
	return int32(out/(QA*QB)) + nw.B2
}

// checkEvaluate checks Evaluate against the reference, and active's inputs
// (training's) against the dense vector's ones.
func checkEvaluate(t *testing.T, nw *Network, p *toguz.Position) {
	t.Helper()
	if got, want := nw.Evaluate(p), reference(nw, p); got != want {
		t.Fatalf("%s: Evaluate %d, reference %d", p.FEN(), got, want)
	}
	var in [maxActive]uint16
	n, _ := active(p, &in)
	var x [NumInputs]int32
	for _, i := range in[:n] {
		x[i]++
	}
	if x != *dense(p) {
		t.Fatalf("%s: active inputs %v are not the dense vector's ones", p.FEN(), in[:n])
	}
}

func TestEvaluateMatchesReference(t *testing.T) {
	nw := Embedded()
	for _, p := range positions(20, 1) {
		checkEvaluate(t, nw, &p)
	}
	seven, err := toguz.NewPosition(toguz.Seven())
	if err != nil {
		t.Fatal(err)
	}
	if got := nw.Evaluate(&seven); got != 0 {
		t.Errorf("Evaluate on a 7-hole board: %d, want 0", got)
	}
}

func TestEvaluateAllocs(t *testing.T) {
	p := toguz.StartPosition()
	nw := Embedded()
	if n := testing.AllocsPerRun(100, func() { nw.Evaluate(&p) }); n != 0 {
		t.Errorf("Evaluate allocates %v times", n)
	}
}

func TestWriteParse(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, Embedded(), []string{"a header"}); err != nil {
		t.Fatal(err)
	}
	nw, err := Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if *nw != *Embedded() {
		t.Error("the network read back differs from the one written")
	}
	big := *Embedded()
	big.B1[0] = maxB1 + 1
	buf.Reset()
	if err := Write(&buf, &big, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(&buf); !errors.Is(err, errRange) {
		t.Errorf("a bias past the packed range: error %v, want %v", err, errRange)
	}
	for _, tt := range []struct{ name, text, want string }{
		{"empty", "", "unexpected EOF"},
		{"shape", "hidden 8 inputs 490\n", "this build wants"},
		{"label", "hidden 32 inputs 490\nw2 1\n", `want "b1"`},
		{"value", "hidden 32 inputs 490\nb1" + strings.Repeat(" 1", Hidden-1) + " x\n", "b1 value 32"},
		{"range", "hidden 32 inputs 490\nb1" + strings.Repeat(" 1", Hidden-1) + " 40000\n", "out of range"},
		{"short", "hidden 32 inputs 490\nb1" + strings.Repeat(" 0", Hidden) + "\nw2" + strings.Repeat(" 0", Hidden) + "\nb2 0\n", "unexpected EOF"},
	} {
		if _, err := Parse(strings.NewReader(tt.text)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestTrainLearns trains on labels that a linear base cannot explain (the
// mover wins when his hole 9 holds more than 10 stones) and checks that the
// network learns them and survives quantisation.
func TestTrainLearns(t *testing.T) {
	ps := positions(60, 2)
	ex := make([]Example, len(ps))
	for i, p := range ps {
		ex[i] = Example{Pos: p, Target: 0.2, Hold: i%10 == 9}
		if p.Stones(p.Turn(), 9) > 10 {
			ex[i].Target = 0.8
		}
	}
	cfg := DefaultConfig(0.001)
	cfg.Epochs, cfg.Batch, cfg.Rate = 10, 64, 1e-2
	nw, rep, err := Train(context.Background(), ex, cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if rep.FloatLoss > rep.BaseLoss-0.05 || rep.QuantLoss > rep.FloatLoss+0.005 {
		t.Errorf("validation loss %.4f without the network, %.4f with it, %.4f quantised", rep.BaseLoss, rep.FloatLoss, rep.QuantLoss)
	}
	for _, p := range ps[:50] {
		checkEvaluate(t, nw, &p)
	}
}

func BenchmarkEvaluate(b *testing.B) {
	p := toguz.StartPosition()
	p = p.After(7).After(3).After(5)
	nw := Embedded()
	var s int32
	b.ReportAllocs()
	for b.Loop() {
		s += nw.Evaluate(&p)
	}
}
