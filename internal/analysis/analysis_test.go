package analysis

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

func TestJudge(t *testing.T) {
	win, loss := engine.MateScore-5, -engine.MateScore+4
	tests := []struct {
		name          string
		before, after engine.Score
		best          bool
		cost          float64
		mark          Mark
	}{
		{"best move", 500, -2000, true, 0, Good},
		{"small loss", 500, 300, false, 2, Good},
		{"inaccuracy", 500, 200, false, 3, Inaccuracy},
		{"mistake", 500, -150, false, 6.5, Mistake},
		{"blunder", 500, -700, false, 12, Blunder},
		{"better than the engine", 100, 400, false, 0, Good},
		{"threw away a win", win, 300, false, 97, Blunder},
		{"walked into a loss", -300, loss, false, 97, Blunder},
		{"slower win", win, win - 4, false, 0, Good},
		{"lost anyway", loss, loss + 2, false, 0, Good},
	}
	for _, tt := range tests {
		cost, mark := judge(tt.before, tt.after, tt.best, DefaultThresholds)
		if cost != tt.cost || mark != tt.mark {
			t.Errorf("%s: cost %g %v, want %g %v", tt.name, cost, mark, tt.cost, tt.mark)
		}
	}
}

func TestComment(t *testing.T) {
	tests := []struct {
		ply  Ply
		want string
	}{
		{Ply{After: 125, Best: 7, BestScore: 125}, "+1.25"},
		{Ply{After: -50, Best: 3, BestScore: 700, Cost: 7.5, Mark: Mistake}, "-0.50 ? mistake, 7.5 stones; best 3 (+7.00)"},
		{Ply{After: 1000, Best: 3, BestScore: 1500, Cost: 5, Mark: Inaccuracy}, "+10.00 ?! inaccuracy, 5.0 stones; best 3 (+15.00)"},
		{Ply{End: toguz.Outcome{Termination: toguz.ByKazan, Result: toguz.WhiteWins, Score: [2]int{82, 15}}}, "1-0 by kazan, 82–15"},
		{Ply{After: 1, Best: 2, BestScore: 200, Cost: 1}, "+0.01; best 2 (+2.00)"},
	}
	for _, tt := range tests {
		if got := tt.ply.Comment(); got != tt.want {
			t.Errorf("Comment() = %q, want %q", got, tt.want)
		}
	}
}

// TestAnalyzeShortestGame analyzes the shortest decisive game (package
// shortest), where Black hands White 82 stones in 11 plies: Black's plies
// must be marked, and the last evaluation is White's win.
func TestAnalyzeShortestGame(t *testing.T) {
	eng, err := engine.New(engine.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	moves := []toguz.Move{5, 1, 3, 5, 8, 3, 7, 4, 6, 5, 4}
	start := toguz.StartPosition()
	plies, err := Analyze(context.Background(), eng, start, moves, engine.Limits{Depth: 4}, DefaultThresholds)
	if err != nil {
		t.Fatal(err)
	}
	if len(plies) != len(moves) {
		t.Fatalf("%d plies analysed, want %d", len(plies), len(moves))
	}
	last := plies[len(plies)-1]
	if !last.After.IsMate() || last.After < 0 {
		t.Errorf("after the last ply: %v, want White's proven win", last.After)
	}
	sum := Summary(start, plies)
	if sum[toguz.Black][Blunder]+sum[toguz.Black][Mistake] == 0 {
		t.Errorf("no mistake or blunder by Black in %v", sum)
	}
	for i, p := range plies {
		if p.Best == toguz.NoMove {
			t.Errorf("ply %d: no best move", i+1)
		}
		if len(p.Line) == 0 || p.Line[0] != p.Best {
			t.Errorf("ply %d: line %v does not start with the best move %d", i+1, p.Line, p.Best)
		}
		if forced := start.LegalMoves().Len() == 1; i == 0 && p.Forced != forced {
			t.Errorf("ply 1: forced %v, want %v", p.Forced, forced)
		}
		t.Logf("%2d. %d {%s}", i+1, moves[i], p.Comment())
	}
	if _, err := Analyze(context.Background(), eng, start, []toguz.Move{7, 6}, engine.Limits{Depth: 1}, DefaultThresholds); err == nil {
		t.Error("an illegal move was analysed")
	}
}

// TestAnalyzeUnboundedLimits: limits that never stop a search are refused
// at once instead of searching until the context ends.
func TestAnalyzeUnboundedLimits(t *testing.T) {
	eng, err := engine.New(engine.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, lim := range []engine.Limits{{}, {Depth: -1}, {Infinite: true, Depth: 3}} {
		_, err := Analyze(ctx, eng, toguz.StartPosition(), []toguz.Move{5}, lim, DefaultThresholds)
		if !errors.Is(err, ErrUnboundedLimits) {
			t.Errorf("%+v: error %v, want ErrUnboundedLimits", lim, err)
		}
	}
}
