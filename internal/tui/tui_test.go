package tui

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// mustFEN parses a standard-rules position string.
func mustFEN(t *testing.T, fen string) toguz.Position {
	t.Helper()
	p, _, err := toguz.ParseFEN(fen, toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// atsyrau is docs/rules.md §5 example 3: White to move, 9 1 9 1 ends it 76-86.
const atsyrau = "1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1"

func TestScoreSheet(t *testing.T) {
	tests := []struct {
		name     string
		fen      string // "" for the start
		fullmove int
		pre      []toguz.Move // played before the score sheet starts
		moves    []toguz.Move
		want     string
	}{
		{"first move", "", 1, nil, []toguz.Move{7}, "1. 76\n"},
		// docs/rules.md §6: f1e2 d2e1 i1a2 b2i1 b1g2 f2e1, the last one makes a tuzdik.
		{"playstrategy line", "", 1, nil, []toguz.Move{6, 6, 9, 8, 2, 4}, "1. 65 65 2. 99 89 3. 23 45x\n"},
		{"atsyrau", atsyrau, 7, nil, []toguz.Move{9, 1, 9, 1}, "7. 93 12 8. 91 12\n"},
		{"black first", atsyrau, 7, []toguz.Move{9}, []toguz.Move{1, 9}, "7. ... 12 8. 91\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := toguz.StartPosition()
			if tt.fen != "" {
				p = mustFEN(t, tt.fen)
			}
			for _, m := range tt.pre {
				p = p.After(m)
			}
			var plies []Ply
			for _, m := range tt.moves {
				plies = append(plies, NewPly(p, m))
				var err error
				if p, err = p.Play(m); err != nil {
					t.Fatal(err)
				}
			}
			if got := ScoreSheet(plies, tt.fullmove, 72); got != tt.want {
				t.Errorf("ScoreSheet = %q, want %q", got, tt.want)
			}
		})
	}
}

// play runs Play on input and returns the game, the error and the output.
func play(t *testing.T, c Config, input string) (Game, string, error) {
	t.Helper()
	var out strings.Builder
	c.In, c.Out = strings.NewReader(input), &out
	g, err := Play(context.Background(), c)
	return g, out.String(), err
}

func TestPlayToTheEnd(t *testing.T) {
	g, out, err := play(t, Config{Start: mustFEN(t, atsyrau), Fullmove: 30}, "9\n1\n9\n1\n")
	if err != nil {
		t.Fatalf("Play: %v\n%s", err, out)
	}
	want := toguz.Outcome{Termination: toguz.ByAtsyrau, Result: toguz.BlackWins, Score: [2]int{76, 86}}
	if g.Outcome != want {
		t.Errorf("Outcome = %+v, want %+v", g.Outcome, want)
	}
	for _, s := range []string{"30. 93 12 31. 91 12\n", "Game over: Black wins by atsyrau, 76-86. Result 0-1.\n"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if !strings.HasSuffix(out, "Result 0-1.\n") {
		t.Errorf("output does not end with the result:\n%s", out)
	}
}

func TestPlayCommands(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		moves   []toguz.Move
		err     error
		message []string // each appears in the output
	}{
		{"quit", "7\nq\n", []toguz.Move{7}, ErrQuit, nil},
		{"end of input", "7\n", []toguz.Move{7}, ErrQuit, nil},
		{"not a command", "x\nq\n", nil, ErrQuit, []string{`"x" is not a command. Commands:`}},
		{"empty line", "\nq\n", nil, ErrQuit, []string{"Commands: a hole number"}},
		{"no such hole", "10\n0\nq\n", nil, ErrQuit, []string{"You cannot play 10: there is no such hole.", "You cannot play 0: there is no such hole."}},
		{"empty hole", "7\n6\nq\n", []toguz.Move{7}, ErrQuit, []string{"You cannot play 6: the hole is empty."}},
		{"undo", "7\nu\n8\nq\n", []toguz.Move{8}, ErrQuit, []string{"Move taken back."}},
		{"undo at the start", "u\nq\n", nil, ErrQuit, []string{"Nothing to undo."}},
		{"no hints", "h\nq\n", nil, ErrQuit, []string{"No hints in this game."}},
		{"flip", "f\n7\nq\n", []toguz.Move{7}, ErrQuit, []string{"White ▶"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, out, err := play(t, Config{Start: toguz.StartPosition()}, tt.input)
			if !errors.Is(err, tt.err) {
				t.Errorf("Play error = %v, want %v", err, tt.err)
			}
			if got := g.Moves(); !slices.Equal(got, tt.moves) {
				t.Errorf("moves = %v, want %v", got, tt.moves)
			}
			if g.Outcome.Termination != toguz.Unterminated {
				t.Errorf("Outcome = %+v, want unterminated", g.Outcome)
			}
			for _, s := range tt.message {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestPlayFlip(t *testing.T) {
	// Flipped, White's row is on top: its arrow comes before Black's row.
	_, out, _ := play(t, Config{Start: toguz.StartPosition(), Style: Style{Flip: true}}, "q\n")
	w, b := strings.Index(out, "White ▶"), strings.Index(out, "Black")
	if w < 0 || b < 0 || w > b {
		t.Errorf("flipped board does not show White on top:\n%s", out)
	}
}

func TestPlayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, w := io.Pipe() // never written: Play must not wait for it
	defer w.Close()
	_, err := Play(ctx, Config{In: r, Out: io.Discard, Start: toguz.StartPosition()})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Play error = %v, want context.Canceled", err)
	}
}

func TestDrawBoard(t *testing.T) {
	// The position after the PlayStrategy line of docs/rules.md §6, whose last
	// move, Black 4, made White 5 Black's tuzdik.
	p := toguz.StartPosition()
	var plies []Ply
	for _, m := range []toguz.Move{6, 6, 9, 8, 2, 4} {
		plies = append(plies, NewPly(p, m))
		p = p.After(m)
	}
	lastPly := plies[len(plies)-1]
	last := LastMove{Player: lastPly.Player, Hole: int(lastPly.Move), Landing: lastPly.Landing}
	tests := []struct {
		file  string
		style Style
	}{
		{"board.txt", Style{}},
		{"board-flip.txt", Style{Flip: true}},
		{"board-dots.txt", Style{Dots: true}},
		{"board-colour.txt", Style{Colour: true}},
		{"board-names-kk.txt", Style{HoleNames: []string{"арт", "тектұрмас", "атөтпес", "атсыратар", "бел", "белбасар", "қандықақпан", "көкмойын", "маңдай"}}},
		{"board-names-ru.txt", Style{Flip: true, Colour: true,
			HoleNames:   []string{"арт", "тектұрмас", "атөтпес", "атсыратар", "бел", "белбасар", "қандықақпан", "көкмойын", "маңдай"},
			HoleGlosses: []string{"зад", "не стоит без дела", "конь не пройдёт", "изнуряет коня", "пояс", "за поясом", "кровавый капкан", "сизая шея", "лоб"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var b strings.Builder
			if err := DrawBoard(&b, p, last, tt.style); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("board differs from %s:\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// newSearcher returns the real engine at level with a depth limit, so that
// its moves take milliseconds.
func newSearcher(t *testing.T, level, depth int) Searcher {
	t.Helper()
	opts := engine.DefaultOptions()
	opts.Level, opts.HashMB, opts.Seed = level, 1, 1
	e, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return Searcher{Engine: e, Limits: engine.Limits{Depth: depth}}
}

func TestPlayEngine(t *testing.T) {
	tests := []struct {
		name   string
		side   toguz.Player // the engine's
		input  string
		plies  int
		output []string
	}{
		{"engine replies", toguz.Black, "7\n3\nq\n", 4, []string{"Engine (Black) thinks..."}},
		{"engine opens", toguz.White, "q\n", 1, []string{"Engine (White) thinks...", "You (Black) to move"}},
		{"undo takes back the reply", toguz.Black, "7\nu\nq\n", 0, []string{"Move taken back."}},
		{"hint", toguz.Black, "h\nq\n", 0, []string{"Hint: play "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Config{Start: toguz.StartPosition(), Opponent: newSearcher(t, 1, 2), EngineSide: tt.side, Hints: newSearcher(t, engine.MaxLevel, 4)}
			c.White, c.Black = "You", "Engine"
			if tt.side == toguz.White {
				c.White, c.Black = c.Black, c.White
			}
			g, out, err := play(t, c, tt.input)
			if !errors.Is(err, ErrQuit) {
				t.Fatalf("Play error = %v, want ErrQuit\n%s", err, out)
			}
			if len(g.Plies) != tt.plies {
				t.Errorf("%d plies (%v), want %d", len(g.Plies), g.Moves(), tt.plies)
			}
			if _, err := toguz.NewGame(c.Start, g.Moves()...); err != nil {
				t.Errorf("the moves do not replay: %v", err)
			}
			for _, s := range tt.output {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestPlayEngineGame plays a whole game against the engine: the person
// tries holes 1, 2, ... 9 in turn, the illegal tries are refused, and the
// game must reach its end by the rules.
func TestPlayEngineGame(t *testing.T) {
	c := Config{Start: toguz.StartPosition(), Opponent: newSearcher(t, 1, 1), EngineSide: toguz.Black}
	g, out, err := play(t, c, strings.Repeat("1\n2\n3\n4\n5\n6\n7\n8\n9\n", 300))
	if err != nil {
		t.Fatalf("Play: %v\n%s", err, out)
	}
	want := g.Final.Outcome()
	if g.Outcome != want || want.Termination == toguz.Unterminated {
		t.Fatalf("Outcome = %+v, want the final position's %+v", g.Outcome, want)
	}
	rec, err := toguz.NewGame(c.Start, g.Moves()...)
	if err != nil {
		t.Fatal(err)
	}
	final, err := rec.Final()
	if err != nil || final != g.Final {
		t.Errorf("the moves replay to %v (%v), Play ended at %v", final.FEN(), err, g.Final.FEN())
	}
	if !strings.Contains(out, "Game over: ") {
		t.Errorf("no result shown:\n%s", out[max(0, len(out)-2000):])
	}
}

func TestRecord(t *testing.T) {
	date := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		file  string
		fen   string
		input string
		want  toguz.Result
	}{
		{"atsyrau.tgn", atsyrau, "9\n1\n9\n1\n", toguz.BlackWins},
		{"quit.tgn", "", "7\n6\n3\nq\n", toguz.NoResult},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			start := toguz.StartPosition()
			if tt.fen != "" {
				start = mustFEN(t, tt.fen)
			}
			g, _, _ := play(t, Config{Start: start, Fullmove: 30}, tt.input)
			rec, err := Record(g, "Ainur", "Bolat", date)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := toguz.WriteGames(&b, toguz.FormatToguz, rec); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("record differs from %s:\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
			games, err := toguz.ParseGames(golden, want, toguz.FormatToguz)
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 1 || games[0].Result != tt.want || !slices.Equal(games[0].Moves(), g.Moves()) {
				t.Errorf("read back %d games, result %v moves %v; want %v %v", len(games), games[0].Result, games[0].Moves(), tt.want, g.Moves())
			}
		})
	}
}
