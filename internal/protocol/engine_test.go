package protocol_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/testbin"
)

// binary is the toguz command, built once by TestMain: these tests speak to
// the real program through pipes, as a GUI or a match runner does.
var binary string

func TestMain(m *testing.M) {
	bin, cleanup, err := testbin.Build()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = bin
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// proc is a running `toguz engine`.
type proc struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func start(t *testing.T) *proc {
	t.Helper()
	cmd := exec.Command(binary, "engine", "-hash", "16")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, in: in, lines: make(chan string, 1024)}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Error("the engine did not exit when its input closed")
		}
	})
	return p
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.in, l+"\n"); err != nil {
			p.t.Fatalf("sending %q: %v", l, err)
		}
	}
}

// until reads lines until one starts with prefix and returns every line read,
// that one last. It fails the test after timeout.
func (p *proc) until(prefix string, timeout time.Duration) []string {
	p.t.Helper()
	var got []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("the engine exited while %q was awaited; it said %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-deadline:
			p.t.Fatalf("no %q within %v; the engine said %q", prefix, timeout, got)
		}
	}
}

// silent checks that the engine says nothing for d.
func (p *proc) silent(d time.Duration) {
	p.t.Helper()
	select {
	case l := <-p.lines:
		p.t.Fatalf("unexpected %q", l)
	case <-time.After(d):
	}
}

// errors returns the error lines among lines.
func errorLines(lines []string) []string {
	var errs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string error") {
			errs = append(errs, l)
		}
	}
	return errs
}

func TestUCI(t *testing.T) {
	p := start(t)
	p.send("uci")
	got := p.until("uciok", 5*time.Second)
	if !strings.HasPrefix(got[0], "id name toguz") || !strings.HasPrefix(got[1], "id author ") {
		t.Errorf("uci began with %q, want id name and id author", got[:2])
	}
	all := strings.Join(got, "\n")
	for _, o := range []string{
		"option name Threads type spin default 1 min 1 max",
		"option name Hash type spin default",
		"option name Level type spin default 10 min 1 max 10",
		"option name MultiPV type spin default 1 min 1 max 9",
		"option name MoveOverhead type spin default 100 min 0 max 5000",
		"option name Book type check default false",
		"option name TablebasePath type string default <empty>",
		"option name TT type check default true",
		"option name LMR type check default true",
	} {
		if !strings.Contains(all, o) {
			t.Errorf("uci: no %q in\n%s", o, all)
		}
	}
	p.send("isready")
	if got := p.until("readyok", 5*time.Second); len(got) != 1 {
		t.Errorf("isready: %q", got)
	}
}

func TestSetOption(t *testing.T) {
	tests := []struct {
		line    string
		wantErr string // "" when accepted
	}{
		{"setoption name Threads value 2", ""},
		{"setoption name Hash value 8", ""},
		{"setoption name Level value 3", ""},
		{"setoption name Level value 10", ""},
		{"setoption name MultiPV value 2", ""},
		{"setoption name Seed value 7", ""},
		{"setoption name MoveOverhead value 20", ""},
		{"setoption name MoveOverhead value -1", "MoveOverhead"},
		{"setoption name Book value true", ""},
		{"setoption name TT value false", ""},
		{"setoption name tt value true", ""}, // names are case-insensitive
		{"setoption name TablebasePath value <empty>", ""},
		{"setoption name Ruleset value standard", ""},
		{"setoption name Threads value 0", "Threads"},
		{"setoption name Hash value lots", "Hash"},
		{"setoption name Level value 11", "Level"},
		{"setoption name MultiPV value 10", "MultiPV"},
		{"setoption name Book value maybe", "true or false"},
		{"setoption name Colour value red", `unknown option "Colour"`},
		{"setoption name TablebasePath value /no/such/dir", "TablebasePath"},
		{"setoption name Ruleset value chess", "Ruleset"},
		{"setoption name Threads", "Threads"},
		{"setoption Threads 2", "want setoption name NAME value VALUE"},
	}
	p := start(t)
	for _, tt := range tests {
		p.send(tt.line, "isready")
		errs := errorLines(p.until("readyok", 5*time.Second))
		switch {
		case tt.wantErr == "" && len(errs) > 0:
			t.Errorf("%q: %q", tt.line, errs)
		case tt.wantErr != "" && (len(errs) != 1 || !strings.Contains(errs[0], tt.wantErr)):
			t.Errorf("%q: errors %q, want one naming %q", tt.line, errs, tt.wantErr)
		}
	}
	// The options took effect: MultiPV 2 gives two lines per depth, and the
	// engine still searches after every refused value.
	p.send("position startpos", "go depth 2")
	got := p.until("bestmove", 10*time.Second)
	if !strings.Contains(strings.Join(got, "\n"), "multipv 2") {
		t.Errorf("MultiPV 2: no second line in %q", got)
	}
}

// bestmove returns the move of a bestmove line.
func bestmove(t *testing.T, line string) toguz.Move {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 {
		t.Fatalf("%q has no move", line)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil {
		t.Fatalf("%q: move %q is not a hole number", line, f[1])
	}
	return toguz.Move(n)
}

func TestPositionAndGo(t *testing.T) {
	start2, _ := toguz.StartPosition().Play(7)
	start2, _ = start2.Play(9)
	fen := "2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 71 70 S 1" // docs/rules.md §7, E1
	e1, _, err := toguz.ParseFEN(fen, toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	e1m, _ := e1.Play(e1.LegalMoves().First())
	tests := []struct {
		name     string
		position string
		goCmd    string
		want     toguz.Position
	}{
		{"startpos depth", "position startpos", "go depth 4", toguz.StartPosition()},
		{"moves", "position startpos moves 7 9", "go depth 3", start2},
		{"fen", "position fen " + fen, "go depth 5", e1},
		{"fen moves", "position fen " + fen + " moves " + e1.LegalMoves().First().String(), "go nodes 2000", e1m},
		{"movetime", "position startpos", "go movetime 200", toguz.StartPosition()},
		{"clock", "position startpos moves 7 9", "go wtime 1000 btime 1000 winc 10 binc 10", start2},
		{"movestogo", "position startpos", "go wtime 5000 btime 5000 movestogo 10", toguz.StartPosition()},
	}
	p := start(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.t = t
			begin := time.Now()
			p.send(tt.position, tt.goCmd)
			got := p.until("bestmove", 10*time.Second)
			if errs := errorLines(got); len(errs) > 0 {
				t.Fatalf("errors: %q", errs)
			}
			if m := bestmove(t, got[len(got)-1]); !tt.want.LegalMoves().Has(m) {
				t.Errorf("bestmove %d is not legal in %s", m, tt.want.FEN())
			}
			infos := 0
			for _, l := range got {
				if strings.HasPrefix(l, "info depth ") {
					infos++
					for _, field := range []string{" seldepth ", " multipv ", " score ", " nodes ", " time ", " pv "} {
						if !strings.Contains(l, field) {
							t.Errorf("%q lacks %q", l, field)
						}
					}
				}
			}
			if infos == 0 {
				t.Errorf("no info line in %q", got)
			}
			if tt.goCmd == "go depth 4" && !strings.Contains(got[len(got)-2], "info depth 4 ") {
				t.Errorf("go depth 4 ended with %q", got[len(got)-2])
			}
			if strings.Contains(tt.goCmd, "movetime") && time.Since(begin) > 2*time.Second {
				t.Errorf("go movetime 200 took %v", time.Since(begin))
			}
		})
	}
}

func TestProvenScore(t *testing.T) {
	// docs/rules.md §5.3: White to move loses 76–86 after 9 1 9 1, whatever he
	// plays; the engine sees it to the end and reports a proven loss.
	p := start(t)
	p.send("position fen 1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1", "go depth 10")
	got := p.until("bestmove", 10*time.Second)
	last := got[len(got)-2]
	if !strings.Contains(last, "score mate -") {
		t.Errorf("last info %q: want a proven loss (score mate -N)", last)
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		line, want string
	}{
		{"fly", `unknown command "fly"`},
		{"position", "position: want startpos or fen"},
		{"position midgame", `position: "midgame"`},
		{"position fen 9S,9S/9S 0 0 S 1", "position fen"},
		{"position fen 9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1 moves 7 x", `move 2 "x" is not a hole number`},
		{"position startpos moves 7 6", "position: move 2: illegal move 6: the hole is empty"},
		{"position startpos moves 10", "position: move 1: illegal move 10: there is no such hole"},
		{"position startpos 7", `position: "7" after the position, want moves`},
		{"go depth", "go: depth needs a value"},
		{"go depth x", `go: depth "x" is not a whole number`},
		{"go movetime -5", `go: movetime "-5" is not a whole number`},
		{"go sideways 3", `go: unknown limit "sideways"`},
		{"debug maybe", "debug: want on or off"},
		{"ponderhit", "pondering is not supported"},
		{"\x00\xff\xfe", "unknown command"},
		{strings.Repeat("a", 100000), "unknown command"},
		{"position startpos moves" + strings.Repeat(" 1", 2<<20), "position: move"}, // 4 MiB
	}
	p := start(t)
	for _, tt := range tests {
		p.send(tt.line, "isready")
		errs := errorLines(p.until("readyok", 5*time.Second))
		if len(errs) != 1 || !strings.Contains(errs[0], tt.want) {
			short := tt.line
			if len(short) > 40 {
				short = short[:40] + "…"
			}
			t.Errorf("%q: errors %q, want one containing %q", short, errs, tt.want)
		}
	}
	// A bad position command leaves the position as it was.
	p.send("position startpos moves 7", "position startpos moves 7 6", "go depth 2")
	got := p.until("bestmove", 10*time.Second)
	after7, _ := toguz.StartPosition().Play(7)
	if m := bestmove(t, got[len(got)-1]); !after7.LegalMoves().Has(m) {
		t.Errorf("bestmove %d: not a Black move after 7", m)
	}
	// Empty lines are ignored; ucinewgame and debug are accepted silently.
	p.send("", "   ", "debug off", "ucinewgame", "isready")
	if errs := errorLines(p.until("readyok", 5*time.Second)); len(errs) > 0 {
		t.Errorf("errors: %q", errs)
	}
}

func TestGameOver(t *testing.T) {
	// Black's kazan holds 82: the game is over and there is no move.
	p := start(t)
	p.send("position fen 2S,1,3S,1,1S,t,4S,1,2S/1,3S,1,5S,1,t,1,1S,1 59 82 S 1", "go depth 3")
	got := p.until("bestmove", 5*time.Second)
	if got[len(got)-1] != "bestmove (none)" {
		t.Errorf("finished game: %q, want bestmove (none)", got[len(got)-1])
	}
}

func TestStopInfinite(t *testing.T) {
	p := start(t)
	p.send("position startpos", "go infinite")
	p.until("info depth 1 ", 5*time.Second)
	// isready is answered during the search; go and setoption are refused.
	p.send("isready")
	got := p.until("readyok", 2*time.Second)
	for _, l := range got {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("bestmove before stop: %q", got)
		}
	}
	p.send("go depth 1", "setoption name Hash value 1", "isready")
	got = p.until("readyok", 2*time.Second)
	if errs := errorLines(got); len(errs) != 2 {
		t.Errorf("go and setoption during a search: errors %q, want two", errs)
	}
	time.Sleep(300 * time.Millisecond)
	begin := time.Now()
	p.send("stop")
	got = p.until("bestmove", 2*time.Second)
	if d := time.Since(begin); d > time.Second {
		t.Errorf("bestmove came %v after stop", d)
	}
	if m := bestmove(t, got[len(got)-1]); m < 1 || m > 9 {
		t.Errorf("bestmove %d is not legal", m)
	}
	// stop with no search is harmless, and the engine searches again.
	p.send("stop", "go depth 2")
	p.until("bestmove", 5*time.Second)
	p.silent(100 * time.Millisecond)
}

func TestQuitDuringSearch(t *testing.T) {
	p := start(t)
	p.send("go infinite")
	p.until("info depth 1 ", 5*time.Second)
	begin := time.Now()
	p.send("quit")
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no exit within 3 s of quit")
	}
	if d := time.Since(begin); d > time.Second {
		t.Errorf("quit took %v", d)
	}
}

// TestGameUnderClock plays a whole game of the engine against itself under a
// Fischer clock, keeping time as a referee does (each side's clock runs from
// the go command until bestmove arrives), and judges every move by the rules
// library. Neither side may lose on time; as in toguz match, a referee's
// margin of 50 ms covers the pipes and the scheduling of a loaded machine.
func TestGameUnderClock(t *testing.T) {
	const margin = 50 * time.Millisecond
	if testing.Short() {
		t.Skip("a whole game under a 10 s + 0.1 s clock takes up to 20 s")
	}
	base, inc := 10*time.Second, 100*time.Millisecond
	players := [2]*proc{start(t), start(t)}
	for _, p := range players {
		p.send("uci")
		p.until("uciok", 5*time.Second)
		p.send("ucinewgame", "isready")
		p.until("readyok", 5*time.Second)
	}
	clock := [2]time.Duration{base, base}
	low := clock // the lowest each clock fell
	pos := toguz.StartPosition()
	var moves []string
	for !pos.IsOver() {
		side := pos.Turn()
		p := players[side]
		pc := "position startpos"
		if len(moves) > 0 {
			pc += " moves " + strings.Join(moves, " ")
		}
		begin := time.Now()
		p.send(pc, fmt.Sprintf("go wtime %d btime %d winc %d binc %d",
			clock[0].Milliseconds(), clock[1].Milliseconds(), inc.Milliseconds(), inc.Milliseconds()))
		got := p.until("bestmove", clock[side]+time.Second)
		clock[side] -= time.Since(begin)
		low[side] = min(low[side], clock[side])
		if clock[side]+margin < 0 {
			t.Fatalf("ply %d: %s lost on time (%v over)", len(moves)+1, side, -clock[side])
		}
		clock[side] += inc
		m := bestmove(t, got[len(got)-1])
		next, err := pos.Play(m)
		if err != nil {
			t.Fatalf("ply %d: %v", len(moves)+1, err)
		}
		pos = next
		moves = append(moves, m.String())
		if len(moves) > 600 {
			t.Fatal("no end after 600 plies")
		}
	}
	o := pos.Outcome()
	t.Logf("%d plies, %s %s %d–%d, clocks left %v / %v, lowest %v / %v", len(moves), o.Result, o.Termination,
		o.Score[0], o.Score[1], clock[0].Round(time.Millisecond), clock[1].Round(time.Millisecond),
		low[0].Round(time.Millisecond), low[1].Round(time.Millisecond))
}

func TestTablebasePath(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command(binary, "tablebase", "-dir", dir, "2").CombinedOutput(); err != nil {
		t.Fatalf("generating a 2-stone table: %v\n%s", err, out)
	}
	p := start(t)
	for _, path := range []string{dir, filepath.Join(dir, "standard-2.tgtb"), "<empty>"} {
		p.send("setoption name TablebasePath value "+path, "isready")
		if errs := errorLines(p.until("readyok", 10*time.Second)); len(errs) > 0 {
			t.Errorf("TablebasePath %s: %q", path, errs)
		}
	}
	p.send("setoption name TablebasePath value "+t.TempDir(), "isready")
	if errs := errorLines(p.until("readyok", 10*time.Second)); len(errs) != 1 || !strings.Contains(errs[0], "no table file") {
		t.Errorf("empty directory: errors %q", errs)
	}
	// With the tables, a search still answers.
	p.send("setoption name TablebasePath value "+dir, "position fen 1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1", "go depth 3")
	got := p.until("bestmove", 10*time.Second)
	if errs := errorLines(got); len(errs) > 0 {
		t.Errorf("errors: %q", errs)
	}

	// A directory with a Bestemshe table too: a Bestemshe ending (a win in
	// 17 plies) is scored from it at depth 2, and only with it.
	if out, err := exec.Command(binary, "tablebase", "generate", "-ruleset", "bestemshe", "-stones", "6", "-dtm", "6", "-dir", dir).CombinedOutput(); err != nil {
		t.Fatalf("generating a 6-stone Bestemshe table: %v\n%s", err, out)
	}
	p.send("setoption name Ruleset value bestemshe")
	for _, tc := range []struct{ path, want string }{{dir, "score mate 17 "}, {"<empty>", "score cp "}} {
		p.send("setoption name TablebasePath value "+tc.path, "ucinewgame", "position fen 2,1S,1,1S/2S,2,1S,1 24 21 S 1", "go depth 2")
		got = p.until("bestmove", 10*time.Second)
		if errs := errorLines(got); len(errs) > 0 || len(got) < 2 || !strings.Contains(got[len(got)-2], "depth 2 ") || !strings.Contains(got[len(got)-2], tc.want) {
			t.Errorf("a Bestemshe ending, TablebasePath %s: %q, want %q at depth 2", tc.path, got, tc.want)
		}
	}
	// The Bestemshe book answers its start without a search.
	p.send("setoption name Book value true", "position startpos", "go depth 6")
	got = p.until("bestmove", 10*time.Second)
	if len(got) != 1 || got[0] != "bestmove 2" {
		t.Errorf("Bestemshe's start with the book: %q, want bestmove 2 alone", got)
	}
}

// TestEveryOption takes the options from uci's list: each can be set to
// its default and to its minimum, an out-of-bounds or ill-typed value is
// refused with an error naming the option, and every search feature of
// engine.Options has its check option.
func TestEveryOption(t *testing.T) {
	p := start(t)
	p.send("uci")
	type decl struct{ name, kind, def, lo, hi string }
	var opts []decl
	for _, l := range p.until("uciok", 5*time.Second) {
		f := strings.Fields(l)
		if len(f) < 7 || f[0] != "option" || f[1] != "name" || f[3] != "type" || f[5] != "default" {
			continue
		}
		d := decl{name: f[2], kind: f[4], def: f[6]}
		if d.kind == "spin" {
			if len(f) != 11 || f[7] != "min" || f[9] != "max" {
				t.Fatalf("spin option without its bounds: %q", l)
			}
			d.lo, d.hi = f[8], f[10]
		}
		opts = append(opts, d)
	}
	names := map[string]string{}
	for _, d := range opts {
		names[d.name] = d.kind
		accepted := []string{d.def}
		var refused []string
		switch d.kind {
		case "spin":
			lo, _ := strconv.Atoi(d.lo)
			hi, _ := strconv.Atoi(d.hi)
			accepted = append(accepted, d.lo)
			refused = []string{strconv.Itoa(lo - 1), strconv.Itoa(hi + 1), "x"}
		case "check":
			accepted = append(accepted, "true", "false")
			refused = []string{"maybe", "1"}
		case "string":
		default:
			t.Errorf("option %s: type %q", d.name, d.kind)
		}
		for _, v := range accepted {
			p.send("setoption name "+d.name+" value "+v, "isready")
			if errs := errorLines(p.until("readyok", 5*time.Second)); len(errs) > 0 {
				t.Errorf("%s = %s: %q", d.name, v, errs)
			}
		}
		for _, v := range refused {
			p.send("setoption name "+d.name+" value "+v, "isready")
			if errs := errorLines(p.until("readyok", 5*time.Second)); len(errs) != 1 || !strings.Contains(errs[0], "setoption "+d.name+": ") {
				t.Errorf("%s = %s: errors %q, want one naming %s", d.name, v, errs, d.name)
			}
		}
	}
	ft := reflect.TypeFor[engine.Options]()
	for i := range ft.NumField() {
		if f := ft.Field(i); f.Type.Kind() == reflect.Bool && names[f.Name] != "check" {
			t.Errorf("engine.Options.%s has no check option", f.Name)
		}
	}
	p.send("position startpos", "go depth 1")
	p.until("bestmove", 10*time.Second)
}
