// Package protocol is the text protocol that `toguz engine` speaks on its
// standard input and output: UCI's commands and replies, carried over to
// Toguz Kumalak. docs/protocol.md is its reference, with an example session.
//
// # Index
//
//   - Serve: reads commands line by line and answers them; a search runs in
//     its own goroutine, so stop, isready and quit are answered while it
//     thinks.
//   - Config: the engine's name and author and how TablebasePath opens
//     tables.
//   - The options: Threads, Hash, Level, MultiPV, Seed, Book, TablebasePath,
//     Ruleset, and one check option per search feature of engine.Options
//     (TT, LMR, …), so that a match can switch each off.
//   - bench (not in UCI; bench.go): fixed-depth searches of a fixed set of
//     positions, the node counts by which move-ordering options are judged.
//   - Moves are hole numbers 1..9 on the mover's side; positions are the
//     rules library's position strings (FEN).
package protocol

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine"
)

// Config describes the engine to the protocol.
type Config struct {
	Name, Author string
	// OpenTablebase opens the tables under a directory for TablebasePath;
	// nil when this build has no tablebase support.
	OpenTablebase func(path string) (engine.Tablebase, error)
}

// server is the state of one session.
type server struct {
	cfg   Config
	eng   *engine.Engine
	out   *lineWriter
	opts  engine.Options
	rules toguz.Rules
	pos   toguz.Position
	// options are the protocol's options (protocolOptions).
	options []option
	// overhead is kept back from the clocks and the time per move given to
	// the engine: the time the answer takes to reach the referee.
	overhead time.Duration

	search *search // the search under way, or nil
}

// search is a search under way.
type search struct {
	cancel   context.CancelFunc
	finished chan struct{} // closed just before bestmove is written
	done     chan struct{} // closed after
	infinite bool
}

// searching reports whether a search is under way. A search whose bestmove
// is being written is over: a client that read it may send go at once.
func (s *server) searching() bool {
	if s.search == nil {
		return false
	}
	select {
	case <-s.search.finished:
		<-s.search.done
		s.search = nil
		return false
	default:
		return true
	}
}

// lineWriter writes whole lines from several goroutines.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// writeErr returns the first write error, under the lock: a search goroutine
// may be writing.
func (l *lineWriter) writeErr() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *lineWriter) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err == nil {
		_, l.err = fmt.Fprintf(l.w, format+"\n", args...)
	}
}

// Serve reads commands from in and writes the answers to out until quit,
// the end of in, or the cancellation of ctx. At the end of in it lets a
// search with a limit finish and stops an infinite one. It returns an error
// only when out cannot be written or in cannot be read.
func Serve(ctx context.Context, in io.Reader, out io.Writer, eng *engine.Engine, cfg Config) error {
	s := &server{cfg: cfg, eng: eng, out: &lineWriter{w: out}, opts: eng.Options(), rules: toguz.Standard(),
		pos: toguz.StartPosition(), overhead: DefaultMoveOverhead, options: protocolOptions()}
	lines := make(chan string)
	readErr := make(chan error, 1)
	quit := make(chan struct{})
	defer close(quit)
	go func() {
		r := bufio.NewReaderSize(in, maxLine)
		for {
			line, err := readLine(r)
			if err != nil {
				if err == io.EOF {
					err = nil
				}
				readErr <- err
				close(lines)
				return
			}
			select {
			case lines <- line:
			case <-ctx.Done():
				return
			case <-quit:
				return
			}
		}
	}()
	defer s.stop()
	for {
		var done chan struct{}
		if s.search != nil {
			done = s.search.done
		}
		select {
		case <-ctx.Done():
			return s.out.writeErr()
		case <-done:
			s.search = nil
		case line, ok := <-lines:
			if !ok {
				if s.search != nil && !s.search.infinite {
					<-s.search.done
				}
				if err := <-readErr; err != nil {
					return fmt.Errorf("reading commands: %w", err)
				}
				return s.out.writeErr()
			}
			if !s.handle(line) {
				return s.out.writeErr()
			}
		}
		if err := s.out.writeErr(); err != nil {
			return fmt.Errorf("writing answers: %w", err)
		}
	}
}

// maxLine is the longest command kept; the rest of a longer line is
// dropped (the command is then unknown or malformed, never fatal).
const maxLine = 64 << 10

// readLine returns the next line without its end of line, cut to maxLine
// bytes. A last line without a newline is a line; io.EOF comes after it.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadSlice('\n')
	out := string(line)
	for err == bufio.ErrBufferFull {
		_, err = r.ReadSlice('\n') // drop the rest of a long line
	}
	if err == io.EOF && len(out) > 0 {
		err = nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimRight(out, "\r\n"), nil
}

// errorf reports a problem with a command on an info string line.
func (s *server) errorf(format string, args ...any) {
	s.out.printf("info string error "+format, args...)
}

// handle answers one command line; it returns false on quit.
func (s *server) handle(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	switch cmd, args := f[0], f[1:]; cmd {
	case "uci":
		s.uci()
	case "isready":
		s.out.printf("readyok")
	case "debug":
		if len(args) != 1 || args[0] != "on" && args[0] != "off" {
			s.errorf("debug: want on or off")
		}
	case "setoption":
		if s.searching() {
			s.errorf("setoption: not while searching; send stop first")
			return true
		}
		s.setoption(args)
	case "ucinewgame":
		if s.searching() {
			s.errorf("ucinewgame: not while searching; send stop first")
			return true
		}
		s.eng.NewGame()
		s.pos, _ = toguz.NewPosition(s.rules)
	case "position":
		s.position(args)
	case "go":
		s.goSearch(args)
	case "stop":
		s.stop()
	case "bench":
		s.bench(args)
	case "ponderhit":
		s.errorf("ponderhit: pondering is not supported")
	case "quit":
		return false
	default:
		s.errorf("unknown command %q", clip(cmd))
	}
	return true
}

// clip shortens what a client sent to quote it in an error.
func clip(s string) string {
	const n = 40
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// stop ends the search under way, if any, and waits for its bestmove.
func (s *server) stop() {
	if s.search != nil {
		s.search.cancel()
		<-s.search.done
		s.search = nil
	}
}

// option is one option of the protocol, declared once: uci lists it and
// setoption sets it from this declaration. Exactly one of spin, check and
// text is set, and it says the option's type.
type option struct {
	name   string
	def    string // the default as uci shows it
	lo, hi int    // the bounds of a spin option
	// spin and check set a value already checked against the type and
	// bounds; text gets the value as sent ("" for <empty>).
	spin  func(s *server, o *engine.Options, n int)
	check func(s *server, o *engine.Options, b bool) error
	text  func(s *server, o *engine.Options, v string) error
	// session marks an option of the session rather than of
	// engine.Options: setting it does not touch the engine.
	session bool
}

// kind returns the option's type as uci declares it.
func (op option) kind() string {
	switch {
	case op.spin != nil:
		return "spin"
	case op.check != nil:
		return "check"
	}
	return "string"
}

// decl returns uci's "type … default …" of the option.
func (op option) decl() string {
	d := fmt.Sprintf("type %s default %s", op.kind(), op.def)
	if op.spin != nil {
		d += fmt.Sprintf(" min %d max %d", op.lo, op.hi)
	}
	return d
}

// feature is the check option of a search feature of engine.Options.
func feature(f engine.Feature) option {
	d := engine.DefaultOptions()
	return option{name: f.Name, def: strconv.FormatBool(*f.Field(&d)),
		check: func(_ *server, o *engine.Options, b bool) error { *f.Field(o) = b; return nil }}
}

// maxSeed is the largest Seed: UCI spins are 32-bit in most GUIs.
const maxSeed = 1<<31 - 1

// protocolOptions returns the options in the order uci lists them: the
// engine's settings, then one check option per search feature of
// engine.Options, so that a match can switch each off.
func protocolOptions() []option {
	d := engine.DefaultOptions()
	opts := []option{
		{name: "Threads", def: strconv.Itoa(d.Threads), lo: 1, hi: engine.MaxThreads,
			spin: func(_ *server, o *engine.Options, n int) { o.Threads = n }},
		{name: "Hash", def: strconv.Itoa(d.HashMB), lo: 1, hi: engine.MaxHashMB,
			spin: func(_ *server, o *engine.Options, n int) { o.HashMB = n }},
		{name: "Level", def: strconv.Itoa(d.Level), lo: 1, hi: engine.MaxLevel,
			spin: func(_ *server, o *engine.Options, n int) { o.Level = n }},
		{name: "MultiPV", def: strconv.Itoa(d.MultiPV), lo: 1, hi: engine.MaxMultiPV,
			spin: func(_ *server, o *engine.Options, n int) { o.MultiPV = n }},
		{name: "Seed", def: strconv.FormatInt(d.Seed, 10), lo: 0, hi: maxSeed,
			spin: func(_ *server, o *engine.Options, n int) { o.Seed = int64(n) }},
		{name: "MoveOverhead", def: strconv.FormatInt(DefaultMoveOverhead.Milliseconds(), 10), lo: 0, hi: maxMoveOverhead,
			spin: func(s *server, _ *engine.Options, n int) { s.overhead = time.Duration(n) * time.Millisecond }, session: true},
		{name: "Book", def: strconv.FormatBool(d.Book != nil), check: setBook},
		{name: "TablebasePath", def: "<empty>", text: setTablebasePath},
		{name: "Ruleset", def: toguz.Standard().String(), text: setRuleset, session: true},
	}
	for _, f := range engine.Features() {
		opts = append(opts, feature(f))
	}
	return opts
}

func setBook(_ *server, o *engine.Options, on bool) error {
	o.Book = nil
	if on {
		bk, err := book.DefaultSet()
		if err != nil {
			return err
		}
		o.Book = bk
	}
	return nil
}

func setTablebasePath(s *server, o *engine.Options, dir string) error {
	if dir == "" {
		o.Tablebase = nil
		return nil
	}
	if s.cfg.OpenTablebase == nil {
		return errors.New("this build has no tablebase support")
	}
	tb, err := s.cfg.OpenTablebase(dir)
	if err != nil {
		return err
	}
	o.Tablebase = tb
	return nil
}

func setRuleset(s *server, _ *engine.Options, name string) error {
	r, err := toguz.ParseRules(name)
	if err != nil {
		return err
	}
	p, err := toguz.NewPosition(r)
	if err != nil {
		return err
	}
	s.rules, s.pos = r, p
	return nil
}

func (s *server) uci() {
	s.out.printf("id name %s", s.cfg.Name)
	s.out.printf("id author %s", s.cfg.Author)
	for _, op := range s.options {
		s.out.printf("option name %s %s", op.name, op.decl())
	}
	s.out.printf("uciok")
}

// setoption reads `name N… [value V…]`; names are case-insensitive.
func (s *server) setoption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		s.errorf("setoption: want setoption name NAME value VALUE")
		return
	}
	name, value, hasValue := strings.Join(args[1:], " "), "", false
	for i, a := range args {
		if a == "value" && i >= 2 {
			name, value, hasValue = strings.Join(args[1:i], " "), strings.Join(args[i+1:], " "), true
			break
		}
	}
	i := slices.IndexFunc(s.options, func(op option) bool { return strings.EqualFold(op.name, name) })
	if i < 0 {
		s.errorf("setoption: unknown option %q", name)
		return
	}
	op := s.options[i]
	// A string option without a value is set empty, as <empty> sets it.
	if !hasValue && op.text == nil {
		s.errorf("setoption %s: no value", op.name)
		return
	}
	o := s.opts
	var err error
	switch {
	case op.spin != nil:
		n, perr := strconv.Atoi(value)
		if perr != nil || n < op.lo || n > op.hi {
			s.errorf("setoption %s: value %q, want a whole number %d..%d", op.name, value, op.lo, op.hi)
			return
		}
		op.spin(s, &o, n)
	case op.check != nil:
		on := strings.EqualFold(value, "true")
		if !on && !strings.EqualFold(value, "false") {
			s.errorf("setoption %s: value %q, want true or false", op.name, value)
			return
		}
		err = op.check(s, &o, on)
	default:
		if value == "<empty>" {
			value = ""
		}
		err = op.text(s, &o, value)
	}
	if err != nil {
		s.errorf("setoption %s: %v", op.name, err)
		return
	}
	if op.session {
		return
	}
	if err := s.eng.SetOptions(o); err != nil {
		s.errorf("setoption %s: %v", op.name, err)
		return
	}
	s.opts = o
}

// position reads `startpos|fen FEN… [moves M…]`. A bad command leaves the
// position as it was.
func (s *server) position(args []string) {
	if len(args) == 0 {
		s.errorf("position: want startpos or fen FEN, then optionally moves M…")
		return
	}
	var p toguz.Position
	rest := args[1:]
	switch args[0] {
	case "startpos":
		p, _ = toguz.NewPosition(s.rules)
	case "fen":
		end := len(rest)
		for i, a := range rest {
			if a == "moves" {
				end = i
				break
			}
		}
		var err error
		if p, _, err = toguz.ParseFEN(strings.Join(rest[:end], " "), s.rules); err != nil {
			s.errorf("position fen: %v", err)
			return
		}
		rest = rest[end:]
	default:
		s.errorf("position: %q, want startpos or fen", args[0])
		return
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			s.errorf("position: %q after the position, want moves", rest[0])
			return
		}
		for i, tok := range rest[1:] {
			n, err := strconv.Atoi(tok)
			if err != nil {
				s.errorf("position: move %d %q is not a hole number", i+1, tok)
				return
			}
			q, err := p.Play(toguz.Move(n))
			if err != nil {
				s.errorf("position: move %d: %v", i+1, err)
				return
			}
			p = q
		}
	}
	s.pos = p
}

// goSearch reads the limits of a go command and starts the search.
func (s *server) goSearch(args []string) {
	if s.searching() {
		s.errorf("go: already searching; send stop first")
		return
	}
	var lim engine.Limits
	for i := 0; i < len(args); i++ {
		key := args[i]
		if key == "infinite" {
			lim.Infinite = true
			continue
		}
		if i+1 >= len(args) {
			s.errorf("go: %s needs a value", key)
			return
		}
		i++
		n, err := strconv.ParseUint(args[i], 10, 63)
		if err != nil {
			s.errorf("go: %s %q is not a whole number", key, args[i])
			return
		}
		ms := time.Duration(n) * time.Millisecond
		switch key {
		case "wtime":
			lim.Time[toguz.White] = ms
		case "btime":
			lim.Time[toguz.Black] = ms
		case "winc":
			lim.Inc[toguz.White] = ms
		case "binc":
			lim.Inc[toguz.Black] = ms
		case "movestogo":
			lim.MovesToGo = int(min(n, 1<<20))
		case "movetime":
			lim.MoveTime = ms
		case "depth":
			lim.Depth = int(min(n, 1<<20))
		case "nodes":
			lim.Nodes = n
		default:
			s.errorf("go: unknown limit %q", key)
			return
		}
	}
	lim = keepBack(lim, s.overhead)
	ctx, cancel := context.WithCancel(context.Background())
	sr := &search{cancel: cancel, finished: make(chan struct{}), done: make(chan struct{}), infinite: lim.Infinite}
	s.search = sr
	p, eng, out := s.pos, s.eng, s.out
	go func() {
		defer close(sr.done)
		defer cancel()
		res := eng.Search(ctx, p, lim, func(in engine.Info) { out.printf("%s", FormatInfo(in)) })
		if lim.Infinite {
			<-ctx.Done() // UCI: after go infinite, bestmove waits for stop
		}
		close(sr.finished)
		out.printf("%s", FormatBestMove(res))
	}()
}

// DefaultMoveOverhead is the MoveOverhead option's default: what a loaded
// machine's pipes and scheduler can take between the engine's answer and
// the referee's clock (measured: 50 ms was not always enough with 2 cores
// under a load of 15).
const DefaultMoveOverhead = 100 * time.Millisecond

const maxMoveOverhead = 5000 // ms

// keepBack takes the overhead from the clocks and from the time per move,
// leaving each at least a millisecond, so that the engine's own time
// management plans with what the referee will count.
func keepBack(lim engine.Limits, overhead time.Duration) engine.Limits {
	less := func(d time.Duration) time.Duration {
		if d <= 0 {
			return d
		}
		return max(d-overhead, time.Millisecond)
	}
	lim.Time[0], lim.Time[1] = less(lim.Time[0]), less(lim.Time[1])
	if lim.MoveTime > 0 {
		lim.MoveTime = max(lim.MoveTime-min(overhead, lim.MoveTime/2), time.Millisecond)
	}
	return lim
}

// FormatInfo writes an info line.
func FormatInfo(in engine.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d score %s nodes %d", in.Depth, in.SelDepth, max(in.MultiPV, 1), FormatScore(in.Score), in.Nodes)
	if ms := in.Time.Milliseconds(); ms > 0 {
		fmt.Fprintf(&b, " nps %d", in.Nodes*1000/uint64(ms))
	}
	fmt.Fprintf(&b, " time %d", in.Time.Milliseconds())
	if len(in.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range in.PV {
			b.WriteString(" " + m.String())
		}
	}
	return b.String()
}

// FormatScore writes `cp N` (hundredths of a stone, the mover's view) or
// `mate N` (a proven result N plies away; negative when the mover loses).
func FormatScore(sc engine.Score) string {
	if sc.IsMate() {
		n := sc.MatePlies()
		if n == 0 && sc < 0 {
			return "mate -0"
		}
		return "mate " + strconv.Itoa(n)
	}
	return "cp " + strconv.Itoa(int(sc))
}

// FormatBestMove writes the bestmove line; `bestmove (none)` when the game
// is over.
func FormatBestMove(r engine.Result) string {
	if r.Best == toguz.NoMove {
		return "bestmove (none)"
	}
	if r.Ponder != toguz.NoMove {
		return fmt.Sprintf("bestmove %d ponder %d", r.Best, r.Ponder)
	}
	return fmt.Sprintf("bestmove %d", r.Best)
}
