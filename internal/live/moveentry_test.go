package live

import (
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// pointerFree reports whether values of t hold no pointer, so that a slice
// of them is memory the garbage collector does not scan.
func pointerFree(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		for f := range t.Fields() {
			if !pointerFree(f.Type) {
				return false
			}
		}
		return true
	case reflect.Array:
		return t.Len() == 0 || pointerFree(t.Elem())
	case reflect.Pointer, reflect.UnsafePointer, reflect.String, reflect.Slice, reflect.Map,
		reflect.Chan, reflect.Func, reflect.Interface:
		return false
	}
	return true
}

// TestMoveEntryUnscanned: every live game keeps all its plies, so they
// must not be memory the collector marks (docs/architecture.md, the live
// server under load), and what they give back must be what was played.
func TestMoveEntryUnscanned(t *testing.T) {
	if !pointerFree(reflect.TypeFor[moveEntry]()) {
		t.Fatal("moveEntry holds a pointer (a string, a time.Time, a slice…): every game's moves would be scanned")
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[time.Time](), reflect.TypeFor[[2]LandingJSON]()} {
		if pointerFree(typ) {
			t.Fatalf("pointerFree(%v) = true", typ)
		}
	}

	s := game.Saved{Spec: game.Spec{ID: "entries", Rules: toguz.Standard(), Created: time.Unix(0, 0)}}
	p, err := toguz.NewPosition(toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 6, 18, 0, 0, 123456789, time.Local)
	for i := 0; i < 40 && !p.IsOver(); i++ {
		m := p.LegalMoves().First()
		pm := game.PlayedMove{By: p.Turn(), Hole: m, Clock: [2]time.Duration{time.Duration(i) * time.Second, time.Minute}}
		if i != 3 { // one ply without a time: it stays without one
			pm.At = at.Add(time.Duration(i) * time.Second)
		}
		s.Moves = append(s.Moves, pm)
		p = p.After(m)
	}
	g, err := newGame(&Hub{log: slog.New(slog.DiscardHandler)}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := g.saved().Moves
	if len(got) != len(s.Moves) {
		t.Fatalf("%d moves given back, want %d", len(got), len(s.Moves))
	}
	st := g.state(nil) // its notations and FENs are substrings of one string
	q, _ := toguz.NewPosition(toguz.Standard())
	for i, want := range s.Moves {
		m := got[i]
		if m.By != want.By || m.Hole != want.Hole || m.Clock != want.Clock || !m.At.Equal(want.At) || m.At.IsZero() != want.At.IsZero() {
			t.Errorf("ply %d: got %+v, want %+v", i+1, m, want)
		}
		y, next := q.Ply(want.Hole)
		e := g.moves[i]
		if e.notation() != y.String() || e.landing() != Landing(q, want.Hole) || e.after != next {
			t.Errorf("ply %d: notation %q, landing %+v; want %q, %+v", i+1, e.notation(), e.landing(), y.String(), Landing(q, want.Hole))
		}
		if sm := st.Moves[i]; sm.Notation != y.String() || sm.Landing != Landing(q, want.Hole) || st.Positions[i+1] != toguz.FormatFEN(next, g.fullMove(i+1)) {
			t.Errorf("ply %d in the state: %+v, FEN %q", i+1, sm, st.Positions[i+1])
		}
		q = next
	}
}
