package lessons

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
)

// TestExercises plays every exercise's right answer and its two wrong ones
// through the judge, which asks the rules library; each verdict says why.
func TestExercises(t *testing.T) {
	n := 0
	for _, l := range All() {
		for _, x := range l.Exercises {
			n++
			id := ProgressID(l, x)
			v, err := x.Judge(x.Answer)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if !v.Right || len(v.Lines) == 0 {
				t.Errorf("%s: the right answer %q judged %+v", id, x.Answer, v)
			}
			for _, w := range x.Wrong {
				if w == x.Answer {
					t.Errorf("%s: wrong answer %q is the answer", id, w)
				}
				v, err := x.Judge(w)
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				if v.Right || len(v.Lines) == 0 {
					t.Errorf("%s: the wrong answer %q judged %+v", id, w, v)
				}
			}
		}
	}
	if n != Count() || n < 20 {
		t.Errorf("%d exercises, Count %d", n, Count())
	}
}

// TestBoardAnswers: for every board exercise, the moves the judge takes
// are exactly the legal moves that do what the goal says, found here
// independently from the position after each move.
func TestBoardAnswers(t *testing.T) {
	for _, l := range All() {
		for _, x := range l.Exercises {
			if x.Goal.Kind() != KindBoard {
				continue
			}
			p, _, err := toguz.ParseFEN(x.FEN, toguz.Standard())
			if err != nil {
				t.Fatal(err)
			}
			me := p.Turn()
			for h := 1; h <= 9; h++ {
				m := toguz.Move(h)
				v, err := x.Judge(fmt.Sprint(h))
				if err != nil {
					t.Fatal(err)
				}
				if p.CheckMove(m) != nil {
					if v.Right {
						t.Errorf("%s/%s: illegal %d judged right", l.ID, x.ID, h)
					}
					continue
				}
				next := p.After(m)
				side, land := p.Landing(m)
				var want bool
				switch x.Goal {
				case GoalHole:
					want = h == x.Hole
				case GoalLand:
					want = side == x.Side && land == x.Land
				case GoalCapture:
					want = side != me && next.Stones(side, land) == 0 && !next.IsTuzdik(side, land) &&
						next.Tuzdik(me) == p.Tuzdik(me)
				case GoalTuzdik:
					want = p.Tuzdik(me) == 0 && next.Tuzdik(me) != 0
				case GoalWin:
					want = next.Outcome().Result == toguz.WinFor(me)
				case GoalPly:
					n, _ := p.Notation(m)
					want = n == x.Ply
				}
				if v.Right != want {
					t.Errorf("%s/%s: move %d judged %v, want %v (%+v)", l.ID, x.ID, h, v.Right, want, v.Lines)
				}
			}
		}
	}
}

// TestEffects: what the last stone does in the course's positions, each
// limit of the tuzdik (docs/rules.md §2.4 a–c) among them.
func TestEffects(t *testing.T) {
	for _, tc := range []struct {
		fen   string
		m     toguz.Move
		e     Effect
		count int
	}{
		{Start, 7, EffectCapture, 10},
		{Start, 1, EffectOwn, 10},
		{after76, 9, EffectOdd, 11},
		{seed2, 7, EffectTuzdik, 3},
		{three, 9, EffectCapture, 6},
		{nine, 8, EffectNine, 3},  // (b) not the opponent's hole 9
		{same, 9, EffectSame, 3},  // (c) not the number of his tuzdik
		{one, 7, EffectHave, 3},   // (a) one per player
		{lap, 2, EffectOwn, 3},    // 22 stones: round the board to White's 5
		{single, 4, EffectOwn, 1}, // a single stone moves to the next hole
		{one, 4, EffectOwn, 1},    //
		{seed3, 9, EffectOdd, 1},  //
		{extra, 9, EffectOdd, 1},  // Black feeds White's empty row
		{win82, 8, EffectCapture, 6},
	} {
		p, _, err := toguz.ParseFEN(tc.fen, toguz.Standard())
		if err != nil {
			t.Fatal(err)
		}
		e, _, _, count, _ := MoveEffect(p, tc.m)
		if e != tc.e || count != tc.count {
			t.Errorf("%s move %d: effect %d count %d, want %d %d", tc.fen, tc.m, e, count, tc.e, tc.count)
		}
	}
}

// TestSeedExamples: the exercises citing docs/rules.md §5 and §6 are those
// examples: their positions and results as docs/rules.md gives them.
func TestSeedExamples(t *testing.T) {
	play := func(fen string, moves ...toguz.Move) toguz.Position {
		t.Helper()
		p, _, err := toguz.ParseFEN(fen, toguz.Standard())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range moves {
			if p, err = p.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	// Example 1: from the start White plays 7; the result is after76.
	if got := play(Start, 7).FEN(); got != after76 {
		t.Errorf("example 1: %s, want %s", got, after76)
	}
	// Example 2: Black plays 7, White's 7 becomes Black's tuzdik.
	want2 := "1S,11S,1S,1S,11S,11S,11S,11S,11S/11S,11S,11S,11S,11S,11S,t,11S,1S 12 3 S 2"
	if got := toguz.FormatFEN(play(seed2, 7), 2); got != want2 {
		t.Errorf("example 2: %s, want %s", got, want2)
	}
	// Example 3: 9, 1, 9, 1 and White has no move: 76–86.
	if o := play(seed3, 9, 1, 9, 1).Outcome(); o.Termination != toguz.ByAtsyrau || o.Score != [2]int{76, 86} {
		t.Errorf("example 3: %+v", o)
	}
	// §6: 1. 76 98.
	p := play(Start)
	n1, _ := p.Notation(7)
	n2, _ := play(Start, 7).Notation(9)
	if n1+" "+n2 != "76 98" {
		t.Errorf("§6: %s %s", n1, n2)
	}
	cited := 0
	for _, l := range All() {
		for _, x := range l.Exercises {
			if x.Seed != "" {
				cited++
				if !strings.HasPrefix(x.SeedKey(), "learn.seed.") {
					t.Errorf("%s: seed %q", x.ID, x.Seed)
				}
			}
		}
	}
	if cited < 5 {
		t.Errorf("%d exercises cite the seeds", cited)
	}
}

// TestTexts: every key the course and the judge use is in the catalog (in
// every language: TestCatalogComplete checks the others against en).
func TestTexts(t *testing.T) {
	c := i18n.New()
	need := func(key string) {
		t.Helper()
		if !c.Has(key) {
			t.Errorf("no text %s", key)
		}
	}
	ids := map[string]bool{}
	for _, l := range All() {
		if ids[l.ID] {
			t.Errorf("lesson %s twice", l.ID)
		}
		ids[l.ID] = true
		need(l.TitleKey())
		need(l.SummaryKey())
		for i := range l.Steps {
			need(l.StepKey(i))
		}
		for _, x := range l.Exercises {
			if ids[ProgressID(l, x)] {
				t.Errorf("exercise %s twice", ProgressID(l, x))
			}
			ids[ProgressID(l, x)] = true
			need(x.Key(l))
			if x.Seed != "" {
				need(x.SeedKey())
			}
			for _, o := range x.Options() {
				need("learn.option." + o)
			}
			answers := append([]string{x.Answer, "", "0", "garbage"}, x.Wrong[:]...)
			for _, a := range answers {
				v, err := x.Judge(a)
				if err != nil {
					t.Fatal(err)
				}
				for _, ln := range v.Lines {
					need(ln.Key)
				}
			}
		}
	}
	if !Valid("board/hole9") || Valid("board/nope") || Valid("") {
		t.Error("Valid")
	}
}
