package dutch

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestAccelerationFromXXA: a Swiss paired with the Baku acceleration checks
// the same when the file says Dutch and gives the virtual points as XXA
// lines (as other programs write them), and differs without them; a bad
// XXA line is refused naming it.
func TestAccelerationFromXXA(t *testing.T) {
	ev, err := tournament.Generate(tournament.GenerateConfig{Players: 30, Rounds: 7, System: tournament.DutchBaku,
		DrawRate: 0.3, ForfeitRate: 0.03, ByeRate: 0.03, LateRate: 0.05, Seed: 11}, Pairer{})
	if err != nil {
		t.Fatal(err)
	}
	same := func(e *tournament.Event) int {
		res, err := tournament.Check(e, Pairer{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range res {
			if c.Same() {
				n++
			}
		}
		return n
	}
	if n := same(ev); n != 7 {
		t.Fatalf("the Baku event checks %d of 7 rounds", n)
	}
	var b bytes.Buffer
	plain := *ev
	plain.System = tournament.Dutch
	if err := plain.WriteTRF(&b); err != nil {
		t.Fatal(err)
	}
	noXXA, err := tournament.ReadTRF(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n := same(noXXA); n == 7 {
		t.Error("the acceleration changed no round")
	}
	plain.Extra = append(plain.Extra, ev.BakuXXA(ev.Rounds)...)
	b.Reset()
	if err := plain.WriteTRF(&b); err != nil {
		t.Fatal(err)
	}
	withXXA, err := tournament.ReadTRF(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n := same(withXXA); n != 7 {
		t.Errorf("with the XXA lines %d of 7 rounds check", n)
	}
	withXXA.Extra = append(withXXA.Extra, "XXA    1  0.3")
	if _, err := InputFor(withXXA); err == nil || !strings.Contains(err.Error(), "XXA") {
		t.Errorf("a quarter point in XXA: %v", err)
	}
}
