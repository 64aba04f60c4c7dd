package book

import (
	"testing"

	"github.com/toguz/toguz"
)

// TestDefaultSet: the embedded books are one per ruleset that has one,
// each of its own rules and small; a position is answered by its own
// ruleset's book alone, and a ruleset without a book gets nothing.
func TestDefaultSet(t *testing.T) {
	s, err := DefaultSet()
	if err != nil {
		t.Fatal(err)
	}
	std, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if s.For(toguz.Standard()) != std {
		t.Error("the set's standard book is not Default")
	}
	for _, tc := range []struct {
		rules toguz.Rules
		data  []byte
	}{{toguz.Bestemshe(), bestemsheData}, {toguz.Seven(), sevenData}} {
		b := s.For(tc.rules)
		if b == nil {
			t.Fatalf("%s: no book", tc.rules)
		}
		info := b.Info()
		start, err := toguz.NewPosition(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		if info.Rules != tc.rules || info.Positions < 20 || len(tc.data) >= 1<<20 {
			t.Errorf("%s book: %+v, %d bytes", tc.rules, info, len(tc.data))
		}
		m, ok := s.Pick(start, nil, Best)
		if want, _ := b.Pick(start, nil, Best); !ok || m != want {
			t.Errorf("%s: the set picks %d, %v; its book %d", tc.rules, m, ok, want)
		}
		if len(s.Moves(start)) == 0 || std.Moves(start) != nil {
			t.Errorf("%s start: %d moves in the set, %d in the standard book", tc.rules, len(s.Moves(start)), len(std.Moves(start)))
		}
		t.Logf("%s: %d positions, %d moves, %d bytes; %s", tc.rules, info.Positions, info.Moves, len(tc.data), info.Description)
	}
	for _, r := range []toguz.Rules{toguz.Pre1949(), {Holes: 6, Stones: 6, OriginSowing: true}} {
		start, err := toguz.NewPosition(r)
		if err != nil {
			t.Fatal(err)
		}
		if s.For(r) != nil || s.Moves(start) != nil {
			t.Errorf("%s: a book", r)
		}
		if m, ok := s.Pick(start, nil, Varied); ok {
			t.Errorf("%s: the set picks %d", r, m)
		}
	}
	if _, err := NewSet(std, s.For(toguz.Bestemshe()), std); err == nil {
		t.Error("NewSet took two standard books")
	}
	p := toguz.StartPosition().After(7)
	if n := testing.AllocsPerRun(100, func() { s.Pick(p, nil, Best) }); n != 0 {
		t.Errorf("Set.Pick allocates %v times", n)
	}
}
