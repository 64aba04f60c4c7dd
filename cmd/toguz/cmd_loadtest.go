package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/cputime"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/loadtest"
	"github.com/toguz/toguz/internal/server"
)

func runLoadtest(ctx context.Context, e env) (err error) {
	fs := newFlags(e, "loadtest", "", "Plays simulated games against a toguz server over websockets on loopback:\npairs of guests play whole games with random legal moves, a move every\n-interval in each game, for -duration. Reports games per second, the move\nround trip (p50/p90/p99/max) and the errors.")
	target := fs.String("url", "", "the server to test, http://127.0.0.1:PORT (loopback only; default: start one in this process\nwith a temporary database and no bounds); several nodes of one server (serve -nats), comma-separated:\neach game's White plays through one, its Black through the next")
	sources := fs.Int("sources", -1, "loopback addresses to connect from, 127.0.0.2 and on, so that the games stay within the\nserver's bounds per address (256 connections, 20 writes/s); -1: one per 25 games with -url, none in process")
	ackLog := fs.String("acklog", "", "write every acknowledged move to this file, a JSON line each\n({\"game\",\"ply\",\"hole\",\"by\",\"clock_ms\"}: the mover's clock in the acknowledgement)")
	games := fs.Int("games", 100, "games played at the same time (2 websockets each)")
	interval := fs.Duration("interval", time.Second, "time between two moves of a game")
	duration := fs.Duration("duration", time.Minute, "how long to play (at most 30m); games still going are resigned")
	tc := fs.String("tc", "10+5", "time control of the games (see docs/api.md; \"\" for none)")
	seed := fs.Int64("seed", 1, "random source of the moves")
	chatEvery := fs.Int("chat-every", 0, "mix chat into the load: the mover of every Nth ply of a game first sends a chat\nmessage and waits for it to come back (0: no chat)")
	idle := fs.Int("idle", 0, "first measure the memory of this many idle games (in-process server only)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run (server and clients) to this file")
	memProfile := fs.String("memprofile", "", "write an allocation profile of the run (server and clients) to this file")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	switch {
	case *games < 1 || *games > 20000:
		return fmt.Errorf("-games %d: want 1..20000", *games)
	case *interval <= 0:
		return fmt.Errorf("-interval %v: want a positive duration", *interval)
	case *duration <= 0 || *duration > 30*time.Minute:
		return fmt.Errorf("-duration %v: want a duration up to 30m", *duration)
	case *sources < -1 || *sources > 1000:
		return fmt.Errorf("-sources %d: want 0..1000, or -1 for the default", *sources)
	}
	var local *server.Local
	if *target == "" {
		srv, cleanup, err := startLocal(ctx)
		if err != nil {
			return err
		}
		defer cleanup()
		local = srv
		*target = srv.URL
		if *idle > 0 {
			r, err := loadtest.Idle(ctx, srv.URL, *tc, *idle, measureHeap)
			if err != nil {
				return fmt.Errorf("idle games: %w", err)
			}
			fmt.Fprintf(e.stdout, "memory: %v (heap and stacks of this process, server and the bare client connections)\n", r)
		}
	} else if *idle > 0 {
		return errors.New("-idle: needs the server in this process (no -url)")
	}
	nodes := strings.Split(*target, ",")
	for _, u := range nodes {
		if err := checkLoopback(u); err != nil {
			return err
		}
	}
	if *sources < 0 {
		*sources = 0
		if local == nil {
			*sources = min((*games+24)/25, 1000)
		}
	}
	from := ""
	if *sources > 0 {
		from = fmt.Sprintf(" from %s", loadtest.SourceRange(*sources))
		if need := (*games + 99) / 100; local == nil && *sources < need {
			fmt.Fprintf(e.stderr, "toguz loadtest: %d games from %d addresses: over 200 websockets each, beyond the server's default cap of 256 connections per address\n", *games, *sources)
		}
	}
	var acks *os.File
	if *ackLog != "" {
		if acks, err = os.Create(*ackLog); err != nil {
			return err
		}
		defer closeInto(acks, &err)
	}
	fmt.Fprintf(e.stdout, "%d games against %s%s, a move every %v per game, for %v%s\n", *games, *target, from, *interval, *duration, loadAverage())
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer closeInto(f, &err)
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *memProfile != "" {
		defer func() {
			if err := writeHeapProfile(*memProfile); err != nil {
				fmt.Fprintf(e.stderr, "toguz loadtest: %v\n", err)
			}
		}()
	}
	cpu0 := cputime.Process()
	cfg := loadtest.Config{
		URL: nodes[0], Nodes: nodes[1:], Games: *games, Interval: *interval, Duration: *duration, TC: *tc, Seed: *seed,
		Sources: *sources, Progress: e.stderr, ChatEvery: *chatEvery,
	}
	if acks != nil {
		cfg.AckLog = acks
	}
	if local != nil {
		cfg.WritesPerSecond = -1 // the server in this process has no bounds
	}
	r, err := loadtest.Run(ctx, cfg)
	r.WriteTo(e.stdout)
	if cpu := cputime.Process() - cpu0; cpu > 0 && r.Moves > 0 {
		who := "server and clients"
		if local == nil {
			who = "the clients only"
		}
		fmt.Fprintf(e.stdout, "CPU time        %.1fs (this process: %s), %.3fms per move, %.0f%% of %d CPUs\n",
			cpu.Seconds(), who, float64(cpu)/float64(time.Millisecond)/float64(r.Moves),
			100*cpu.Seconds()/r.Elapsed.Seconds()/float64(runtime.NumCPU()), runtime.NumCPU())
	}
	if la := loadAverage(); la != "" {
		fmt.Fprintf(e.stdout, "after the run%s\n", la)
	}
	return err
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

// startLocal starts the server in this process with a temporary database
// and no write limits (a load test comes from one address).
func startLocal(ctx context.Context) (*server.Local, func(), error) {
	dir, err := os.MkdirTemp("", "toguz-loadtest-")
	if err != nil {
		return nil, nil, err
	}
	srv, err := server.StartLocal(ctx, server.Options{
		DB:               filepath.Join(dir, "toguz.db"),
		Settings:         server.Settings{WritesPerSecond: 1e9, WriteBurst: 1 << 30},
		ReviewWorkers:    -1, // no reviews
		MaxConnsPerAddr:  -1, // thousands of websockets from loopback
		Lobby:            live.LobbyConfig{PerAddress: -1},
		NoChatPerAddress: true,
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
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// measureHeap is loadtest.Measure for this process.
func measureHeap() (uint64, int) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse + ms.StackInuse, runtime.NumGoroutine()
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
