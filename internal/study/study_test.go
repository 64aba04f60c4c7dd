package study

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/toguz/toguz"
)

// line returns the main line of c as notation, variations in parentheses.
func line(n *toguz.Node) string {
	var b strings.Builder
	for len(n.Children) > 0 {
		main := n.Children[0]
		b.WriteString(" " + main.Ply.String() + main.Mark.String())
		for _, v := range n.Children[1:] {
			b.WriteString(" (" + strings.TrimSpace(v.Ply.String()+v.Mark.String()+" "+line(v)) + ")")
		}
		n = main
	}
	return strings.TrimSpace(b.String())
}

func TestApply(t *testing.T) {
	type step struct {
		op      Op
		wantErr error
	}
	mv := func(h int, path ...int) step { return step{op: Op{Op: "move", Path: path, Hole: h}} }
	tests := []struct {
		name  string
		steps []step
		want  string // the tree after, as line writes it
	}{
		{"a main line", []step{mv(7), mv(1, 7)}, "76 11"},
		{"a variation", []step{mv(7), mv(1, 7), mv(3)}, "76 (32) 11"},
		{"a move already there is no change", []step{mv(7), mv(7)}, "76"},
		{"delete a variation", []step{mv(7), mv(3), {op: Op{Op: "delete", Path: []int{3}}}}, "76"},
		{"delete the main line promotes the variation", []step{mv(7), mv(3), {op: Op{Op: "delete", Path: []int{7}}}}, "32"},
		{"promote a deep variation", []step{mv(7), mv(1, 7), mv(3), mv(1, 3), {op: Op{Op: "promote", Path: []int{3, 1}}}}, "32 (76 11) 11"},
		{"mark", []step{mv(7), {op: Op{Op: "mark", Path: []int{7}, Mark: "!?"}}}, "76!?"},
		{"a bad mark", []step{mv(7), {op: Op{Op: "mark", Path: []int{7}, Mark: "!!!"}, wantErr: ErrBadOp}}, "76"},
		{"an illegal hole", []step{{op: Op{Op: "move", Hole: 10}, wantErr: ErrIllegal}}, ""},
		{"no such move", []step{{op: Op{Op: "delete", Path: []int{5}}, wantErr: ErrNoNode}}, ""},
		{"the start cannot be deleted", []step{{op: Op{Op: "delete"}, wantErr: ErrBadOp}}, ""},
		{"no such chapter", []step{{op: Op{Op: "move", Chapter: 3, Hole: 1}, wantErr: ErrNoChapter}}, ""},
		{"an unknown op", []step{mv(7), {op: Op{Op: "fly", Path: []int{7}}, wantErr: ErrBadOp}}, "76"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewChapter("x", toguz.Standard(), "")
			if err != nil {
				t.Fatal(err)
			}
			cs := []*Chapter{c}
			for _, s := range tt.steps {
				cs, _, err = Apply(cs, s.op)
				if !errors.Is(err, s.wantErr) {
					t.Fatalf("%+v: error %v, want %v", s.op, err, s.wantErr)
				}
			}
			if got := line(cs[0].Tree.Root); got != tt.want {
				t.Errorf("tree %q, want %q", got, tt.want)
			}
		})
	}
}

// TestShapesRoundTrip: comments, marks, marked holes and arrows survive
// the record format with variations.
func TestShapesRoundTrip(t *testing.T) {
	c, _ := NewChapter("x", toguz.Standard(), "")
	cs := []*Chapter{c}
	for _, op := range []Op{
		{Op: "move", Hole: 7}, {Op: "move", Path: []int{7}, Hole: 1}, {Op: "move", Hole: 3},
		{Op: "comment", Path: []int{7}, Text: "the usual start"},
		{Op: "shapes", Path: []int{7}, Shapes: Shapes{Holes: []string{"w7", "b3", "w7"}, Arrows: []string{"w7b5"}}},
		{Op: "shapes", Path: []int{3}, Shapes: Shapes{Arrows: []string{"w3b9"}}},
		{Op: "mark", Path: []int{7, 1}, Mark: "?"},
		{Op: "comment", Path: []int{7, 1}, Text: "too slow [%csl w1]"}, // shapes in text are not taken
	} {
		var err error
		if cs, _, err = Apply(cs, op); err != nil {
			t.Fatalf("%+v: %v", op, err)
		}
	}
	rec, err := cs[0].Record()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadChapter("x", rec)
	if err != nil {
		t.Fatalf("%v in\n%s", err, rec)
	}
	got, _ := json.Marshal(back.JSON())
	want, _ := json.Marshal(cs[0].JSON())
	if string(got) != string(want) {
		t.Errorf("after the record\n%s\nwant\n%s\nrecord\n%s", got, want, rec)
	}
	j := back.JSON()
	n := j.Root.Children[0]
	if n.Comment != "the usual start" || strings.Join(n.Holes, ",") != "b3,w7" || strings.Join(n.Arrows, ",") != "w7b5" {
		t.Errorf("move 76: %+v", n)
	}
	if j.Root.Children[0].Children[0].Comment != "too slow" {
		t.Errorf("67's comment %q", j.Root.Children[0].Children[0].Comment)
	}
	if !strings.Contains(rec, "[%csl b3,w7][%cal w7b5]") {
		t.Errorf("record without the shapes syntax:\n%s", rec)
	}
}

// TestCommentsRoundTrip: any comment text reads back as written from the
// stored record (braces, backslashes, lines, a shape's syntax in words).
func TestCommentsRoundTrip(t *testing.T) {
	for _, text := range []string{"}", "a } b", `\`, `ends in \`, `\}`, "two\nlines", "{nested}", "[%cal is words]x", "тұздық!", "(76)"} {
		c, _ := NewChapter("x", toguz.Standard(), "")
		cs, _, err := Apply([]*Chapter{c}, Op{Op: "move", Hole: 7})
		if err != nil {
			t.Fatal(err)
		}
		if cs, _, err = Apply(cs, Op{Op: "comment", Path: []int{7}, Text: text}); err != nil {
			t.Fatal(err)
		}
		want := cs[0].JSON().Root.Children[0].Comment
		rec, _ := cs[0].Record()
		back, err := ReadChapter("x", rec)
		if err != nil {
			t.Errorf("%q: %v in\n%s", text, err, rec)
			continue
		}
		if got := back.JSON().Root.Children[0].Comment; got != want {
			t.Errorf("comment %q reads back as %q", want, got)
		}
	}
}

func TestBounds(t *testing.T) {
	c, _ := NewChapter("x", toguz.Bestemshe(), "")
	cs := []*Chapter{c}
	for i := 1; i < MaxChapters; i++ {
		var err error
		if cs, _, err = Apply(cs, Op{Op: "chapter", Name: "c", Ruleset: "bestemshe"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := Apply(cs, Op{Op: "chapter", Name: "c"}); !errors.Is(err, ErrTooMany) {
		t.Errorf("chapter %d: %v", MaxChapters+1, err)
	}
	if _, _, err := Apply(cs, Op{Op: "move", Hole: 6}); !errors.Is(err, ErrIllegal) {
		t.Errorf("hole 6 of Bestemshe: %v", err)
	}
	if _, _, err := Apply(cs, Op{Op: "rename", Name: strings.Repeat("x", MaxName+1)}); !errors.Is(err, ErrBadOp) {
		t.Errorf("a long name: %v", err)
	}
	if _, _, err := Apply(cs[:1], Op{Op: "chapter", Name: " "}); !errors.Is(err, ErrBadOp) {
		t.Errorf("a chapter with no name: %v", err)
	}
	cs, _, _ = Apply(cs, Op{Op: "move", Hole: 1})
	if _, _, err := Apply(cs, Op{Op: "comment", Path: []int{1}, Text: strings.Repeat("x", MaxComment+1)}); !errors.Is(err, ErrTooMany) {
		t.Errorf("a long comment: %v", err)
	}
	if _, _, err := Apply(cs, Op{Op: "shapes", Path: []int{1}, Shapes: Shapes{Holes: []string{"w6"}}}); !errors.Is(err, ErrBadOp) {
		t.Errorf("hole 6 of Bestemshe marked: %v", err)
	}
	many := Shapes{}
	for i := 0; i <= MaxShapes; i++ {
		many.Arrows = append(many.Arrows, "w1b2")
	}
	if _, _, err := Apply(cs, Op{Op: "shapes", Path: []int{1}, Shapes: many}); !errors.Is(err, ErrTooMany) {
		t.Errorf("%d shapes: %v", MaxShapes+1, err)
	}
	// Moves per chapter: play on until the bound (a long game of Standard).
	s, _ := NewChapter("long", toguz.Standard(), "")
	ch := []*Chapter{s}
	var path []int
	n := s.Tree.Root
	for s.Moves() < MaxMoves && !n.Position.IsOver() {
		m := n.Position.LegalMoves().All()
		var h int
		for x := range m {
			h = int(x)
			break
		}
		var err error
		if ch, _, err = Apply(ch, Op{Op: "move", Path: path, Hole: h}); err != nil {
			t.Fatal(err)
		}
		path = append(path, h)
		n, _, _ = s.Find(path)
		if n.Position.IsOver() && s.Moves() < MaxMoves {
			// Branch off at the start to go on counting.
			path, n = nil, s.Tree.Root
			break
		}
	}
	if s.Moves() == MaxMoves {
		for x := range n.Position.LegalMoves().All() {
			if _, _, err := Apply(ch, Op{Op: "move", Path: path, Hole: int(x)}); !errors.Is(err, ErrTooMany) {
				t.Errorf("move %d: %v", MaxMoves+1, err)
			}
			break
		}
	}
}

// memStore is a Store in memory, for the hub's tests; the store's own
// tests (internal/store) check the database.
type memStore struct {
	mu       sync.Mutex
	names    []string
	records  []string
	failNext bool
}

func (m *memStore) Chapters(context.Context, string) ([]string, []string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string{}, m.names...), append([]string{}, m.records...), nil
}

func (m *memStore) SaveChapter(_ context.Context, _ string, i int, name, rec string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.failNext {
		m.failNext = false
		return errors.New("disk full")
	}
	if i == len(m.names) {
		m.names, m.records = append(m.names, name), append(m.records, rec)
	} else {
		m.names[i], m.records[i] = name, rec
	}
	return nil
}

func TestHub(t *testing.T) {
	ctx := context.Background()
	st := &memStore{}
	h := NewHub(st)
	if err := h.Edit(ctx, "s", "coach", Op{Op: "chapter", Name: "one"}); err != nil {
		t.Fatal(err)
	}
	a, err := h.Join(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Type     string
		Chapters []ChapterJSON
	}
	json.Unmarshal(<-a.Out(), &snap)
	if snap.Type != "study" || len(snap.Chapters) != 1 || snap.Chapters[0].Name != "one" {
		t.Fatalf("snapshot %+v", snap)
	}
	if err := h.Edit(ctx, "s", "coach", Op{Op: "move", Hole: 7}); err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Type    string
		Chapter ChapterJSON
		At      At
	}
	json.Unmarshal(<-a.Out(), &msg)
	if msg.Type != "chapter" || len(msg.Chapter.Root.Children) != 1 || msg.At.Path[0] != 7 {
		t.Errorf("after the move %+v", msg)
	}
	if err := h.Goto("s", "coach", At{Path: []int{}}); err != nil {
		t.Fatal(err)
	}
	if b := <-a.Out(); !strings.Contains(string(b), `"type":"position"`) {
		t.Errorf("goto: %s", b)
	}
	if err := h.Goto("s", "coach", At{Path: []int{4}}); !errors.Is(err, ErrNoNode) {
		t.Errorf("goto a move not there: %v", err)
	}
	// A write the store refuses changes nothing.
	st.failNext = true
	if err := h.Edit(ctx, "s", "coach", Op{Op: "delete", Path: []int{7}}); err == nil {
		t.Error("a failed store write was not reported")
	}
	if names, recs, _ := st.Chapters(ctx, "s"); len(names) != 1 || !strings.Contains(recs[0], "76") {
		t.Errorf("stored %q", recs)
	}
	b, _ := h.Join(ctx, "s")
	json.Unmarshal(<-b.Out(), &snap)
	if len(snap.Chapters[0].Root.Children) != 1 {
		t.Errorf("the room lost the move after a failed write: %+v", snap.Chapters[0].Root)
	}
	// A follower who does not read is dropped, not waited for.
	for range subBuffer + 2 {
		h.Goto("s", "coach", At{Path: []int{7}})
	}
	if !h.Dropped("s", b) {
		t.Error("a follower who reads nothing was not dropped")
	}
	h.Leave("s", a)
	h.Leave("s", b)
	if len(h.rooms) != 0 {
		t.Errorf("rooms left: %d", len(h.rooms))
	}
	// Followers per study.
	var subs []*Sub
	for range MaxFollowers {
		s, err := h.Join(ctx, "s")
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, s)
	}
	if _, err := h.Join(ctx, "s"); !errors.Is(err, ErrTooMany) {
		t.Errorf("follower %d: %v", MaxFollowers+1, err)
	}
	for _, s := range subs {
		h.Leave("s", s)
	}
}
