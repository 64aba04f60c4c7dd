package match

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/openings"
	"github.com/toguz/toguz/internal/testbin"
)

// toguzBinary is the toguz command, built once by TestMain, whose engine
// subcommand the matches run.
var toguzBinary string

func TestMain(m *testing.M) {
	bin, cleanup, err := testbin.Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	toguzBinary = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

func TestParseTimeControl(t *testing.T) {
	tests := []struct {
		in   string
		want TimeControl
		err  bool
	}{
		{"40/60+0.6", TimeControl{Moves: 40, Base: 60 * time.Second, Inc: 600 * time.Millisecond}, false},
		{"10+0.1", TimeControl{Base: 10 * time.Second, Inc: 100 * time.Millisecond}, false},
		{"300", TimeControl{Base: 300 * time.Second}, false},
		{"1:30+2", TimeControl{Base: 90 * time.Second, Inc: 2 * time.Second}, false},
		{"inf", TimeControl{}, false},
		{"0+1", TimeControl{}, true},
		{"x/60", TimeControl{}, true},
		{"60+y", TimeControl{}, true},
		{"", TimeControl{}, true},
	}
	for _, tt := range tests {
		got, err := ParseTimeControl(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParseTimeControl(%q) = %+v, %v; want %+v, error %t", tt.in, got, err, tt.want, tt.err)
		}
		if err == nil && tt.in != "1:30+2" && got.String() != tt.in {
			t.Errorf("%q reads back as %q", tt.in, got.String())
		}
	}
}

func self(name string, tc TimeControl, options ...[2]string) EngineSpec {
	return EngineSpec{Name: name, Cmd: []string{toguzBinary, "engine", "-hash", "8"}, TC: tc, Options: options}
}

func defaultSuite(t *testing.T) []openings.Opening {
	ps, err := openings.Parse(strings.NewReader(openings.Default), toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// checkGame replays a game with the rules library and checks that its
// result is the rules' own when the rules ended it.
func checkGame(t *testing.T, g Game) {
	t.Helper()
	p := g.Opening.Position
	for i, m := range g.Moves {
		q, err := p.Play(m)
		if err != nil {
			t.Fatalf("round %d ply %d: %v", g.Round, i+1, err)
		}
		p = q
	}
	switch g.Termination {
	case toguz.ByKazan, toguz.ByAtsyrau, toguz.ByDraw:
		if o := p.Outcome(); o.Result != g.Result || o.Termination != g.Termination {
			t.Errorf("round %d: recorded %s %s, the rules say %s %s", g.Round, g.Result, g.Termination, o.Result, o.Termination)
		}
	default:
		if p.IsOver() {
			t.Errorf("round %d: ended by %s in a finished position", g.Round, g.Termination)
		}
	}
}

func TestRun(t *testing.T) {
	var records bytes.Buffer
	cfg := Config{
		Engines:     [2]EngineSpec{self("deep", TimeControl{Depth: 4}), self("shallow", TimeControl{Depth: 1}, [2]string{"Level", "3"})},
		Rules:       toguz.Standard(),
		Openings:    defaultSuite(t),
		Games:       4,
		Concurrency: 2,
		Records:     &records,
		SPRT:        &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05},
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games() != 4 || len(rep.Finished) != 4 {
		t.Fatalf("%d games counted, %d finished; want 4", rep.Games(), len(rep.Finished))
	}
	pairs := 0
	for _, n := range rep.Pairs {
		pairs += n
	}
	if pairs != 2 {
		t.Errorf("%d pairs, want 2", pairs)
	}
	rounds := map[int]bool{}
	for _, g := range rep.Finished {
		checkGame(t, g)
		rounds[g.Round] = true
		// Colours alternate: deep is White in odd rounds, from the same opening.
		if (g.Round%2 == 1) != (g.White == "deep") {
			t.Errorf("round %d: %s is White", g.Round, g.White)
		}
		if g.Opening != cfg.Openings[(g.Round-1)/2] {
			t.Errorf("round %d: opening %s", g.Round, g.Opening.FEN())
		}
	}
	if len(rounds) != 4 {
		t.Errorf("rounds %v", rounds)
	}
	text := records.String()
	for _, want := range []string{`[White "deep"]`, `[Black "deep"]`, `[TimeControl "depth=4"]`, `[FEN "` + cfg.Openings[0].FEN() + `"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("records lack %s", want)
		}
	}
	if n := strings.Count(text, "[Event "); n != 4 {
		t.Errorf("%d records, want 4", n)
	}
	t.Logf("deep vs shallow: +%d =%d -%d, Elo %s, LLR %.2f", rep.Wins, rep.Draws, rep.Losses, rep.Elo, rep.LLR)
}

// brokenEngine writes a program that speaks just enough of the protocol to
// start, then answers every go as script says: the referee must forfeit it.
func brokenEngine(t *testing.T, onGo string) EngineSpec {
	path := filepath.Join(t.TempDir(), "broken.sh")
	script := `while read -r line; do
  case "$line" in
    uci) echo "id name broken"; echo uciok;;
    isready) echo readyok;;
    go*) ` + onGo + `;;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return EngineSpec{Name: "broken", Cmd: []string{"/bin/sh", path}}
}

func TestForfeits(t *testing.T) {
	// White's hole 7 is empty in the first opening of the suite.
	start := defaultSuite(t)[0]
	if start.Position.Stones(toguz.White, 7) != 0 || start.Position.Turn() != toguz.White {
		t.Fatalf("the first opening changed: %s", start.FEN())
	}
	tests := []struct {
		name, onGo string
		tc         TimeControl
		term       toguz.Termination
		reason     string
	}{
		{"illegal move", "echo bestmove 7", TimeControl{Depth: 1}, toguz.ByAdjudication, "illegal move 7: the hole is empty"},
		{"not a hole", "echo bestmove 10", TimeControl{Depth: 1}, toguz.ByAdjudication, `the move "10", not a hole number`},
		{"no move", "echo bestmove", TimeControl{Depth: 1}, toguz.ByAdjudication, "without a move"},
		{"silent", ":", TimeControl{Base: 300 * time.Millisecond}, toguz.ByTime, "did not move"},
		{"crash", "exit 3", TimeControl{Depth: 1}, toguz.ByAdjudication, "exited"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			broken := brokenEngine(t, tt.onGo)
			broken.TC = tt.tc
			rep, err := Run(context.Background(), Config{
				Engines:  [2]EngineSpec{broken, self("toguz", TimeControl{Depth: 1})},
				Rules:    toguz.Standard(),
				Openings: []openings.Opening{start},
				Games:    1,
			})
			if err != nil {
				t.Fatal(err)
			}
			g := rep.Finished[0]
			if g.Result != toguz.BlackWins || g.Termination != tt.term || !strings.Contains(g.Reason, tt.reason) {
				t.Errorf("%s %s %q; want 0-1 %s %q", g.Result, g.Termination, g.Reason, tt.term, tt.reason)
			}
		})
	}
}

func TestAdjudication(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Engines:      [2]EngineSpec{self("a", TimeControl{Depth: 2}), self("b", TimeControl{Depth: 2})},
		Rules:        toguz.Standard(),
		Openings:     defaultSuite(t)[:1],
		Games:        2,
		Adjudication: Adjudication{MaxPlies: 10},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Finished {
		if len(g.Moves) != 10 || g.Result != toguz.Draw || g.Termination != toguz.ByAdjudication {
			t.Errorf("round %d: %d plies, %s %s; want a draw adjudicated after 10", g.Round, len(g.Moves), g.Result, g.Termination)
		}
	}
}

// cycleEngine plays, whatever the position, the n-th move of a cycle of
// 18 plies from endgame E2 of docs/rules.md §7 (n the plies since the
// opening), so that its games repeat their positions.
func cycleEngine(t *testing.T, name string) EngineSpec {
	path := filepath.Join(t.TempDir(), name+".sh")
	script := `cycle="8 3 1 4 9 5 2 6 3 7 4 1 5 8 6 9 7 2"
while read -r line; do
  case "$line" in
    uci) echo "id name cycle"; echo uciok;;
    isready) echo readyok;;
    position*) pos="$line";;
    go*) n=$(echo "$pos" | awk '{ i=0; for (k=1; k<=NF; k++) if ($k=="moves") i=NF-k; print i }')
         set -- $cycle; shift $((n % 18)); echo "bestmove $1";;
    quit) exit 0;;
  esac
done
`
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return EngineSpec{Name: name, Cmd: []string{"/bin/sh", path}, TC: TimeControl{Depth: 1}}
}

// TestRepetitionRule: with Repetition 3 the game from the cycle's first
// position is drawn when it comes back the third time, after 36 plies.
func TestRepetitionRule(t *testing.T) {
	start, _, err := toguz.ParseFEN("1S,3S,6,1S/8,2S 78 77 S 1", toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []toguz.Move{9, 9, 1, 8, 2, 9, 9} {
		start = start.After(m)
	}
	rep, err := Run(context.Background(), Config{
		Engines:      [2]EngineSpec{cycleEngine(t, "a"), cycleEngine(t, "b")},
		Rules:        toguz.Standard(),
		Openings:     []openings.Opening{{Position: start, FullMove: 4}},
		Games:        2,
		Adjudication: Adjudication{Repetition: 3, MaxPlies: 100}, // the move limit ends the game if the rule fails
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Finished {
		if len(g.Moves) != 36 || g.Result != toguz.Draw || !strings.Contains(g.Reason, "occurred 3 times") {
			t.Errorf("round %d: %d plies, %s %q; want a draw by repetition after 36", g.Round, len(g.Moves), g.Result, g.Reason)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := Config{
		Engines:  [2]EngineSpec{self("a", TimeControl{Depth: 2}), self("b", TimeControl{Depth: 2})},
		Rules:    toguz.Standard(),
		Openings: []openings.Opening{{Position: toguz.StartPosition(), FullMove: 1}},
		Games:    2,
	}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(c *Config)
	}{
		{"same names", func(c *Config) { c.Engines[1].Name = "a" }},
		{"no limit", func(c *Config) { c.Engines[0].TC = TimeControl{} }},
		{"two limits", func(c *Config) { c.Engines[0].TC = TimeControl{Depth: 2, Nodes: 100} }},
		{"no command", func(c *Config) { c.Engines[0].Cmd = nil }},
		{"no openings", func(c *Config) { c.Openings = nil }},
		{"other rules", func(c *Config) { c.Rules = toguz.Bestemshe() }},
		{"bad sprt", func(c *Config) { c.SPRT = &SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05} }},
		{"repetition 1", func(c *Config) { c.Repetition = 1 }},
	}
	for _, tt := range tests {
		c := ok
		tt.change(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: validated", tt.name)
		}
	}
}

// TestSPRTStops plays a match whose SPRT decides after a few pairs: full
// depth 4 against level 1 wins every game, and with bounds ±1.39 (alpha =
// beta = 0.2) three won pairs accept H1 (LLR 1.59 for elo0 0, elo1 300).
func TestSPRTStops(t *testing.T) {
	if testing.Short() {
		t.Skip("plays up to 40 games")
	}
	rep, err := Run(context.Background(), Config{
		Engines:     [2]EngineSpec{self("strong", TimeControl{Depth: 4}), self("weak", TimeControl{Depth: 1}, [2]string{"Level", "1"})},
		Rules:       toguz.Standard(),
		Openings:    defaultSuite(t),
		Games:       40,
		Concurrency: 1,
		SPRT:        &SPRT{Elo0: 0, Elo1: 300, Alpha: 0.2, Beta: 0.2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Decision != AcceptH1 || rep.Games() >= 40 {
		t.Errorf("%d games, +%d =%d -%d, LLR %.2f: %v; want H1 accepted early", rep.Games(), rep.Wins, rep.Draws, rep.Losses, rep.LLR, rep.Decision)
	}
	t.Logf("%d games, LLR %.2f (%.2f, %.2f)", rep.Games(), rep.LLR, rep.Lower, rep.Upper)
}

// TestOtherRules plays Bestemshe: the referee tells the engines the ruleset,
// and every game ends by the rules.
func TestOtherRules(t *testing.T) {
	start, err := toguz.NewPosition(toguz.Bestemshe())
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{
		Engines:  [2]EngineSpec{self("a", TimeControl{Depth: 3}), self("b", TimeControl{Depth: 1})},
		Rules:    toguz.Bestemshe(),
		Openings: []openings.Opening{{Position: start, FullMove: 1}},
		Games:    2,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Finished {
		checkGame(t, g)
		if g.Termination == toguz.ByAdjudication || g.Termination == toguz.ByTime {
			t.Errorf("round %d: %s, %s", g.Round, g.Termination, g.Reason)
		}
	}
}

// TestMoveTimes checks that the referee keeps each answer's time, counts
// the late answers within the margin and the losses past it, for a time
// per move and for a clock. The slow engine sleeps 0.3 s and plays one
// hole, legal for either side in the two games' first two plies.
func TestMoveTimes(t *testing.T) {
	start := defaultSuite(t)[0]
	hole := alwaysLegal(t, start.Position)
	tests := []struct {
		name     string
		tc       TimeControl
		margin   time.Duration
		answers  int // the slow engine's, as the referee timed them
		late     int
		lost     bool
		opponent int // the other engine's answers
	}{
		{"time per move, within the margin", TimeControl{MoveTime: 100 * time.Millisecond}, 2 * time.Second, 2, 2, false, 2},
		// The referee waits past the time per move and its margin, so that
		// the late answer is timed.
		{"time per move, past the margin", TimeControl{MoveTime: 100 * time.Millisecond}, 50 * time.Millisecond, 2, 0, true, 1},
		{"clock, within the margin", TimeControl{Base: 150 * time.Millisecond}, 2 * time.Second, 2, 2, false, 2},
		// It stops waiting when the clock and the margin have run out.
		{"clock, past the margin", TimeControl{Base: 150 * time.Millisecond}, 50 * time.Millisecond, 0, 0, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			slow := brokenEngine(t, fmt.Sprintf("sleep 0.3; echo bestmove %d", hole))
			slow.Name, slow.TC = "slow", tt.tc
			rep, err := Run(context.Background(), Config{
				Engines:      [2]EngineSpec{slow, self("toguz", TimeControl{Depth: 1})},
				Rules:        toguz.Standard(),
				Openings:     []openings.Opening{start},
				Games:        2,
				TimeMargin:   tt.margin,
				Adjudication: Adjudication{MaxPlies: 2},
			})
			if err != nil {
				t.Fatal(err)
			}
			lost := 0
			for _, g := range rep.Finished {
				if tt.lost {
					lost++
					if g.Termination != toguz.ByTime {
						t.Errorf("round %d: %s %s %q; want a loss on time", g.Round, g.Result, g.Termination, g.Reason)
					}
				} else if g.Result != toguz.Draw {
					t.Errorf("round %d: %s %s %q; want a draw after 2 plies", g.Round, g.Result, g.Termination, g.Reason)
				}
			}
			mt := rep.MoveTimes("slow")
			if mt.Moves != tt.answers || mt.Late != tt.late || mt.LostOnTime != lost {
				t.Errorf("slow: %d answers, %d late, %d lost on time; want %d, %d, %d", mt.Moves, mt.Late, mt.LostOnTime, tt.answers, tt.late, lost)
			}
			if mt.Moves > 0 && (mt.Min < 300*time.Millisecond || mt.Max > 5*time.Second) {
				t.Errorf("slow: answers of %v to %v; its engine sleeps 0.3 s", mt.Min, mt.Max)
			}
			if other := rep.MoveTimes("toguz"); other.Moves != tt.opponent || other.Late != 0 || other.LostOnTime != 0 {
				t.Errorf("toguz: %d answers, %d late, %d lost on time; want %d, 0, 0", other.Moves, other.Late, other.LostOnTime, tt.opponent)
			}
		})
	}
}

// alwaysLegal returns a hole that White can play in p and that Black can
// play after any move of White's.
func alwaysLegal(t *testing.T, p toguz.Position) int {
	t.Helper()
	for h := 1; h <= p.Holes(); h++ {
		ok := p.LegalMoves().Has(toguz.Move(h))
		for m := range p.LegalMoves().All() {
			q, err := p.Play(m)
			if err != nil {
				t.Fatal(err)
			}
			ok = ok && !q.IsOver() && q.LegalMoves().Has(toguz.Move(h))
		}
		if ok {
			return h
		}
	}
	t.Fatalf("no hole is legal for both sides in %s", p.FEN())
	return 0
}

func TestMoveTimesSummary(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var white, black []time.Duration
	for i := 100; i >= 1; i-- { // out of order: the summary sorts
		white = append(white, ms(i))
		black = append(black, ms(1000+i))
	}
	rep := Report{Finished: []Game{
		{White: "a", Black: "b", Times: [2][]time.Duration{white[:60], black[:60]}, Late: [2]int{2, 0}},
		{White: "b", Black: "a", Times: [2][]time.Duration{black[60:], white[60:]}, Late: [2]int{0, 1},
			Result: toguz.WhiteWins, Termination: toguz.ByTime},
	}}
	got := rep.MoveTimes("a")
	want := MoveTimes{Moves: 100, Min: ms(1), Mean: 50500 * time.Microsecond, P50: ms(50), P99: ms(99), Max: ms(100), Late: 3, LostOnTime: 1}
	if got != want {
		t.Errorf("a: %+v\nwant %+v", got, want)
	}
	if got := rep.MoveTimes("b"); got.Moves != 100 || got.P50 != ms(1050) || got.LostOnTime != 0 {
		t.Errorf("b: %+v; want 100 answers, median 1.05 s, no loss on time", got)
	}
	if got := rep.MoveTimes("c"); got != (MoveTimes{}) {
		t.Errorf("an engine not in the match: %+v", got)
	}
}
