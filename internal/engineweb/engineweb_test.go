package engineweb

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/live"
)

func TestLegalStart(t *testing.T) {
	l, err := Legal(Position{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Over || l.Turn != "white" || len(l.Moves) != 9 {
		t.Fatalf("start: over %v turn %s, %d moves", l.Over, l.Turn, len(l.Moves))
	}
	// Hole 9's nine stones: the first back into hole 9, then Black's 1..8;
	// Black's hole 8 becomes even (10) and is taken.
	m := l.Moves[8]
	want := MoveJSON{Hole: 9, Captured: 10, Notation: "98", Trail: []int{9, -1, -2, -3, -4, -5, -6, -7, -8}}
	if m.Hole != want.Hole || m.Captured != want.Captured || m.Notation != want.Notation ||
		!slices.Equal(m.Trail, want.Trail) || m.Landing.Side != "black" || m.Landing.Hole != 8 {
		t.Errorf("hole 9 = %+v, want %+v landing black 8", m, want)
	}
	if m.FEN != toguz.StartPosition().After(9).FEN() {
		t.Errorf("hole 9's FEN %s", m.FEN)
	}
}

func TestPlay(t *testing.T) {
	tests := []struct {
		name    string
		q       Position
		hole    int
		bad     bool
		fen     string
		turn    string
		notated string
	}{
		{name: "start", q: Position{}, hole: 9, notated: "98", turn: "black",
			fen: toguz.FormatFEN(toguz.StartPosition().After(9), 1)},
		{name: "black's move counts a full move", q: Position{FEN: toguz.StartPosition().After(9).FEN()}, hole: 1, turn: "white",
			fen: toguz.FormatFEN(toguz.StartPosition().After(9).After(1), 2)},
		{name: "hole 0", hole: 0, bad: true},
		{name: "hole 10", hole: 10, bad: true},
		{name: "bad FEN", q: Position{FEN: "nonsense"}, hole: 1, bad: true},
		{name: "bad ruleset", q: Position{Ruleset: "chess"}, hole: 1, bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Play(tc.q, tc.hole)
			if tc.bad {
				if !errors.Is(err, ErrBadRequest) {
					t.Fatalf("err %v, want ErrBadRequest", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.FEN != tc.fen || got.Turn != tc.turn || (tc.notated != "" && got.Notation != tc.notated) || len(got.Legal) == 0 {
				t.Errorf("got fen %s turn %s notation %s, %d legal; want %s %s %s", got.FEN, got.Turn, got.Notation, len(got.Legal), tc.fen, tc.turn, tc.notated)
			}
		})
	}
}

func TestPlayEmptyHole(t *testing.T) {
	s := toguz.Setup{Rules: toguz.Standard()}
	s.Board[0] = []int{0, 9, 9, 9, 9, 9, 9, 9, 18}
	s.Board[1] = []int{9, 9, 9, 9, 9, 9, 9, 9, 9}
	p, err := s.Position()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Play(Position{FEN: p.FEN()}, 1); !errors.Is(err, ErrBadRequest) {
		t.Fatalf("err %v", err)
	}
}

func TestLegalOver(t *testing.T) {
	// White has 82: the game is over, no move is legal.
	s := toguz.Setup{Rules: toguz.Standard(), Kazan: [2]int{82, 0}}
	s.Board[0] = []int{0, 0, 0, 0, 0, 0, 0, 0, 80}
	s.Board[1] = []int{0, 0, 0, 0, 0, 0, 0, 0, 0}
	p, err := s.Position()
	if err != nil {
		t.Fatal(err)
	}
	l, err := Legal(Position{FEN: p.FEN()})
	if err != nil {
		t.Fatal(err)
	}
	if !l.Over || len(l.Moves) != 0 || l.Result != "1-0" || l.Moves == nil {
		t.Errorf("over: %+v", l)
	}
}

func TestLimits(t *testing.T) {
	b := Bounds{MaxDepth: 20, MaxTime: 5 * time.Second}
	tests := []struct {
		r        Request
		b        Bounds
		depth    int
		movetime time.Duration
		infinite bool
		bad      bool
	}{
		{r: Request{}, b: Bounds{}, infinite: true},
		{r: Request{}, b: b, depth: 20, movetime: 5 * time.Second},
		{r: Request{Depth: 99, MoveTime: 60000}, b: b, depth: 20, movetime: 5 * time.Second},
		{r: Request{Depth: 8}, b: b, depth: 8, movetime: 5 * time.Second},
		{r: Request{MoveTime: 300}, b: Bounds{}, movetime: 300 * time.Millisecond},
		{r: Request{MultiPV: 10}, b: b, bad: true},
		{r: Request{Depth: -1}, b: b, bad: true},
	}
	for _, tc := range tests {
		lim, _, err := tc.r.Limits(tc.b)
		if tc.bad != (err != nil) {
			t.Errorf("%+v: err %v", tc.r, err)
			continue
		}
		if !tc.bad && (lim.Depth != tc.depth || lim.MoveTime != tc.movetime || lim.Infinite != tc.infinite) {
			t.Errorf("%+v within %+v: %+v", tc.r, tc.b, lim)
		}
	}
}

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	opts := engine.DefaultOptions()
	opts.HashMB = 4
	e, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestAnalyseMultiPV(t *testing.T) {
	e := newEngine(t)
	var infos []InfoJSON
	best, err := Analyse(context.Background(), EngineSearcher(e), Request{MultiPV: 3, Depth: 4}, Bounds{}, func(in InfoJSON) { infos = append(infos, in) })
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 4 {
		t.Fatalf("%d infos, want one per depth 1..4", len(infos))
	}
	for i, in := range infos {
		if in.Depth != i+1 || in.MultiPV != 3 || len(in.Lines) != 3 || in.Nodes == 0 {
			t.Fatalf("info %d: %+v", i, in)
		}
		for _, l := range in.Lines {
			if len(l.PV) == 0 || len(l.PV) != len(l.Notation) {
				t.Fatalf("line %+v", l)
			}
		}
		if in.Lines[0].Score < in.Lines[2].Score {
			t.Errorf("depth %d: lines not best first: %+v", in.Depth, in.Lines)
		}
	}
	if best.Move == 0 || best.Move != best.Info.Lines[0].PV[0] || best.Notation != best.Info.Lines[0].Notation[0] {
		t.Errorf("best %+v, last lines %+v", best, best.Info.Lines)
	}
}

// TestAnalyseWhitesView: Black to move, the score is still White's.
func TestAnalyseWhitesView(t *testing.T) {
	p := toguz.StartPosition().After(9) // White took 10
	e := newEngine(t)
	res := e.Search(context.Background(), p, engine.Limits{Depth: 3}, nil)
	best, err := Analyse(context.Background(), EngineSearcher(newEngine(t)), Request{Position: Position{FEN: p.FEN()}, Depth: 3}, Bounds{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := best.Info.Lines[0].Score; got != -int(res.Score) {
		t.Errorf("score %d, want %d (the engine's %d for Black)", got, -int(res.Score), res.Score)
	}
}

func TestAnalyseStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan BestJSON)
	go func() {
		best, _ := Analyse(ctx, EngineSearcher(newEngine(t)), Request{}, Bounds{}, nil)
		done <- best
	}()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case best := <-done:
		if best.Move == 0 {
			t.Error("no move after stop")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("an infinite analysis did not stop")
	}
}

func TestAnalyseBad(t *testing.T) {
	_, err := Analyse(context.Background(), EngineSearcher(newEngine(t)), Request{Position: Position{FEN: "x"}}, Bounds{}, nil)
	if !errors.Is(err, ErrBadRequest) {
		t.Errorf("err %v", err)
	}
}

// TestSameAsLive: the landing and trail are the game websocket's, which
// this package copies to keep package live out of the browser's build.
func TestSameAsLive(t *testing.T) {
	p := toguz.StartPosition()
	for ply := 0; ply < 40 && !p.IsOver(); ply++ {
		l, err := Legal(Position{FEN: p.FEN()})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range l.Moves {
			mv := toguz.Move(m.Hole)
			if want := live.Landing(p, mv); m.Landing.Side != want.Side || m.Landing.Hole != want.Hole {
				t.Fatalf("%s hole %d: landing %+v, live's %+v", p.FEN(), m.Hole, m.Landing, want)
			}
			if want := live.Trail(p, mv); !slices.Equal(m.Trail, want) {
				t.Fatalf("%s hole %d: trail %v, live's %v", p.FEN(), m.Hole, m.Trail, want)
			}
		}
		p = p.After(toguz.Move(l.Moves[ply%len(l.Moves)].Hole))
	}
}
