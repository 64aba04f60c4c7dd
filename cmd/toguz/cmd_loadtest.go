package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/loadtest"
	"github.com/toguz/toguz/internal/server"
)

func runLoadtest(ctx context.Context, e env) (err error) {
	o, err := parseLoadtestFlags(e)
	if err != nil {
		return err
	}
	local, cleanup, err := o.localServer(ctx, e)
	if err != nil {
		return err
	}
	defer cleanup()
	nodes, err := loopbackNodes(o.target)
	if err != nil {
		return err
	}
	from := o.chooseSources(e, local != nil)
	var acks *os.File
	if o.ackLog != "" {
		if acks, err = os.Create(o.ackLog); err != nil {
			return err
		}
		defer closeInto(acks, &err)
	}
	fmt.Fprintf(e.stdout, "%d games against %s%s, a move every %v per game, for %v%s\n", o.games, o.target, from, o.interval, o.duration, loadAverage())
	if o.cpuProfile != "" {
		stop, perr := startCPUProfile(o.cpuProfile)
		if perr != nil {
			return perr
		}
		defer stop(&err)
	}
	if o.trace != "" {
		stop, terr := startTrace(o.trace)
		if terr != nil {
			return terr
		}
		defer stop(&err)
	}
	if o.memProfile != "" {
		defer func() {
			if err := writeHeapProfile(o.memProfile); err != nil {
				fmt.Fprintf(e.stderr, "toguz loadtest: %v\n", err)
			}
		}()
	}
	cpu0, gc0 := cputime.Process(), loadtest.ProcessGC()
	r, err := loadtest.Run(ctx, o.config(e, nodes, acks, local != nil))
	r.WriteTo(e.stdout)
	cpu := cputime.Process() - cpu0
	writeLoadtestCPU(e, cpu, r, local != nil)
	if local != nil {
		writeLoadtestGC(e, loadtest.ProcessGC().Since(gc0), cpu)
	}
	if la := loadAverage(); la != "" {
		fmt.Fprintf(e.stdout, "after the run%s\n", la)
	}
	return err
}

// loadtestOptions are the flags of 'toguz loadtest'.
type loadtestOptions struct {
	target, ackLog, tc, cpuProfile, memProfile string
	trace, split                               string
	sources, games, chatEvery, idle, watchers  int
	interval, duration                         time.Duration
	seed                                       int64
}

func parseLoadtestFlags(e env) (loadtestOptions, error) {
	var o loadtestOptions
	fs := newFlags(e, "loadtest", "", "Plays simulated games against a toguz server over websockets on loopback:\npairs of guests play whole games with random legal moves, a move every\n-interval in each game, for -duration. Reports games per second, the move\nround trip (p50/p90/p99/max) and the errors.")
	fs.StringVar(&o.target, "url", "", "the server to test, http://127.0.0.1:PORT (loopback only; default: start one in this process\nwith a temporary database and no bounds); several nodes of one server (serve -nats), comma-separated:\neach game's White plays through one, its Black through the next")
	fs.IntVar(&o.sources, "sources", -1, "loopback addresses to connect from, 127.0.0.2 and on, so that the games stay within the\nserver's bounds per address (256 connections, 20 writes/s); -1: one per 25 games with -url, none in process")
	fs.StringVar(&o.split, "split", "players", "with several nodes in -url: \"players\" (each game's White on one node, its Black on the next,\nits moves relayed over the bus) or \"games\" (both players of a game on one node, the games spread over the nodes)")
	fs.StringVar(&o.ackLog, "acklog", "", "write every acknowledged move to this file, a JSON line each\n({\"game\",\"ply\",\"hole\",\"by\",\"clock_ms\"}: the mover's clock in the acknowledgement)")
	fs.IntVar(&o.games, "games", 100, "games played at the same time (2 websockets each)")
	fs.DurationVar(&o.interval, "interval", time.Second, "time between two moves of a game")
	fs.DurationVar(&o.duration, "duration", time.Minute, "how long to play (at most 30m); games still going are resigned")
	fs.StringVar(&o.tc, "tc", "10+5", "time control of the games (see docs/api.md; \"\" for none)")
	fs.Int64Var(&o.seed, "seed", 1, "random source of the moves")
	fs.IntVar(&o.chatEvery, "chat-every", 0, "mix chat into the load: the mover of every Nth ply of a game first sends a chat\nmessage and waits for it to come back (0: no chat)")
	fs.IntVar(&o.idle, "idle", 0, "first measure the memory of this many idle games (in-process server only)")
	fs.IntVar(&o.watchers, "spectators", 0, "with -idle: and of this many idle spectators, spread over the idle games")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the run (server and clients) to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write an allocation profile of the run (server and clients) to this file")
	fs.StringVar(&o.trace, "trace", "", "write an execution trace of the run (server and clients) to this file, for 'go tool trace'\n(-pprof=sched, sync, net: where the moves wait); large, keep -duration short")
	if err := parseFlags(fs, e.args); err != nil {
		return o, err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return o, errUsage
	}
	return o, o.check()
}

func (o *loadtestOptions) check() error {
	switch {
	case o.games < 1 || o.games > 20000:
		return fmt.Errorf("-games %d: want 1..20000", o.games)
	case o.interval <= 0:
		return fmt.Errorf("-interval %v: want a positive duration", o.interval)
	case o.duration <= 0 || o.duration > 30*time.Minute:
		return fmt.Errorf("-duration %v: want a duration up to 30m", o.duration)
	case o.watchers < 0 || o.watchers > 0 && o.idle == 0:
		return fmt.Errorf("-spectators %d: want 0, or a count with -idle", o.watchers)
	case o.sources < -1 || o.sources > 1000:
		return fmt.Errorf("-sources %d: want 0..1000, or -1 for the default", o.sources)
	case o.split != "players" && o.split != "games":
		return fmt.Errorf("-split %q: want players or games", o.split)
	}
	return nil
}

// chooseSources settles -sources (its default: none in process, one
// address per 25 games against a server elsewhere) and returns the
// " from ADDRESSES" of the run's first line; too few addresses for the
// games are warned of.
func (o *loadtestOptions) chooseSources(e env, inProcess bool) string {
	if o.sources < 0 {
		o.sources = 0
		if !inProcess {
			o.sources = min((o.games+24)/25, 1000)
		}
	}
	if o.sources == 0 {
		return ""
	}
	if need := (o.games + 99) / 100; !inProcess && o.sources < need {
		fmt.Fprintf(e.stderr, "toguz loadtest: %d games from %d addresses: over 200 websockets each, beyond the server's default cap of 256 connections per address\n", o.games, o.sources)
	}
	return fmt.Sprintf(" from %s", loadtest.SourceRange(o.sources))
}

// localServer starts the server in this process where -url is not given
// (and measures -idle games on it); the function it returns stops it.
func (o *loadtestOptions) localServer(ctx context.Context, e env) (*server.Local, func(), error) {
	if o.target != "" {
		if o.idle > 0 {
			return nil, nil, errors.New("-idle: needs the server in this process (no -url)")
		}
		return nil, func() {}, nil
	}
	srv, cleanup, err := startLocal(ctx)
	if err != nil {
		return nil, nil, err
	}
	// The server in this process collects garbage as serve does
	// (-gc-percent's default), unless GOGC says otherwise: the clients'
	// allocations would else make it collect four times as often.
	if e.lookupEnv == nil || !envSet(e, "GOGC") {
		old := debug.SetGCPercent(server.DefaultGCPercent)
		stop := cleanup
		cleanup = func() {
			stop()
			debug.SetGCPercent(old)
		}
	}
	o.target = srv.URL
	if o.idle > 0 {
		if err := measureIdle(ctx, e, srv.URL, *o); err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	return srv, cleanup, nil
}

// loopbackNodes splits -url into the nodes of the server, each checked
// by checkLoopback.
func loopbackNodes(target string) ([]string, error) {
	nodes := strings.Split(target, ",")
	for _, u := range nodes {
		if err := checkLoopback(u); err != nil {
			return nil, err
		}
	}
	return nodes, nil
}

func (o *loadtestOptions) config(e env, nodes []string, acks *os.File, inProcess bool) loadtest.Config {
	cfg := loadtest.Config{
		URL: nodes[0], Nodes: nodes[1:], Games: o.games, Interval: o.interval, Duration: o.duration, TC: o.tc, Seed: o.seed,
		Sources: o.sources, Progress: e.stderr, ChatEvery: o.chatEvery, SplitGames: o.split == "games",
	}
	if acks != nil {
		cfg.AckLog = acks // not a nil *os.File in the interface
	}
	if inProcess {
		cfg.WritesPerSecond = -1 // the server in this process has no bounds
	}
	return cfg
}

// measureIdle reports the memory of -idle idle games on the server in
// this process.
func measureIdle(ctx context.Context, e env, url string, o loadtestOptions) error {
	r, err := loadtest.Idle(ctx, url, o.tc, o.idle, o.watchers, loadtest.ProcessMemory)
	if err != nil {
		return fmt.Errorf("idle games: %w", err)
	}
	fmt.Fprintf(e.stdout, "memory: %v (heap and stacks of this process, server and the bare client connections, after a collection)\n", r)
	return nil
}

// writeLoadtestCPU reports the CPU time of the run, where it was measured.
func writeLoadtestCPU(e env, cpu time.Duration, r loadtest.Report, inProcess bool) {
	if cpu <= 0 || r.Moves <= 0 {
		return
	}
	who := "server and clients"
	if !inProcess {
		who = "the clients only"
	}
	fmt.Fprintf(e.stdout, "CPU time        %.1fs (this process: %s), %.3fms per move, %.0f%% of %d CPUs\n",
		cpu.Seconds(), who, float64(cpu)/float64(time.Millisecond)/float64(r.Moves),
		100*cpu.Seconds()/r.Elapsed.Seconds()/float64(runtime.NumCPU()), runtime.NumCPU())
}

// writeLoadtestGC reports the collections of a run in this process: a
// collection takes the CPUs from the moves for a moment, so whether one fell
// in a run says much of its tail (docs/architecture.md).
func writeLoadtestGC(e env, g loadtest.GC, cpu time.Duration) {
	share := 0.0
	if cpu > 0 {
		share = 100 * g.CPU / cpu.Seconds()
	}
	fmt.Fprintf(e.stdout, "collections     %d in the run, %.1fs of CPU (%.0f%% of this process's), of which %.1fs mark assists by the goroutines\n",
		g.Cycles, g.CPU, share, g.Assist)
}

// checkLoopback refuses a URL that is not http on a loopback address: the
// load test is a tool for one's own machine.
func checkLoopback(s string) error {
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("-url %q: %w", s, err)
	}
	switch u.Hostname() {
	case "127.0.0.1", "::1", "localhost":
	default:
		return fmt.Errorf("-url %q: want a loopback address (127.0.0.1, ::1 or localhost)", s)
	}
	if u.Scheme != "http" {
		return fmt.Errorf("-url %q: want http://", s)
	}
	return nil
}

// envSet reports whether the environment has name.
func envSet(e env, name string) bool {
	_, set := e.lookupEnv(name)
	return set
}

// startLocal starts the server in this process with a temporary database
// and no write limits (a load test comes from one address).
func startLocal(ctx context.Context) (*server.Local, func(), error) {
	dir, err := os.MkdirTemp("", "toguz-loadtest-")
	if err != nil {
		return nil, nil, err
	}
	srv, err := server.StartLocal(ctx, server.Options{
		DB:              filepath.Join(dir, "toguz.db"),
		Settings:        server.Settings{WritesPerSecond: 1e9, WriteBurst: 1 << 30},
		ReviewWorkers:   -1, // no reviews
		MaxConnsPerAddr: -1, // thousands of websockets from loopback
		// -idle's spectators all come from 127.0.0.1.
		SpectatorsPerAddress: -1,
		Lobby:                live.LobbyConfig{PerAddress: -1},
		NoChatPerAddress:     true,
	})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return srv, func() {
		srv.Close()
		os.RemoveAll(dir)
	}, nil
}

// writeHeapProfile writes the allocations of the process so far to path.
// The profile counts allocations as of the last collection, which at the
// server's GOGC may be in the setup: one is run first, as go test
// -memprofile does.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// loadAverage returns ", machine load average X Y Z" from /proc/loadavg, or
// "" where there is none: figures measured on a busy machine say so.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return fmt.Sprintf(", machine load average %s %s %s on %d CPUs", f[0], f[1], f[2], runtime.NumCPU())
}
