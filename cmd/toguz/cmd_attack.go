package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/loadtest"
)

func runAttack(ctx context.Context, e env) error {
	fs := newFlags(e, "attack", "", "Runs the abuse attacks against a toguz server at its documented bounds\n(docs/api.md, Bounds) for -duration, each from its own loopback addresses\n127.0.2.x, apart from loadtest's 127.0.0.x: wrong passwords at the login rate,\nbodies at the body limit, idle and slow connections under the connection cap,\nseeks at the bounds per person and address with a lobby watcher, spectators at\nthe cap per address (half never reading), imports of a 2 MiB file at the\nconcurrency bound, engine games at the bounds per person and address. Reports\nper attack the requests made and the server's answers. Run it beside\n`toguz loadtest -url` to see what the attacks cost the players.")
	target := fs.String("url", "", "the server to attack, http://127.0.0.1:PORT (IPv4 loopback only)")
	duration := fs.Duration("duration", time.Minute, "how long to attack (at most 30m)")
	logins := fs.Int("login-sources", 8, "addresses trying wrong passwords, each at the login rate")
	idle := fs.Int("idle", 200, "idle keep-alive connections held from one address (the cap is 256)")
	slow := fs.Int("slow", 20, "bodies sent a byte a second from the same address")
	spectators := fs.Int("spectators", 50, "spectators from each of two addresses (the cap per address is 50)")
	level := fs.Int("level", 10, "level of the engine games")
	only := fs.String("only", "", "run only these attacks, a comma-separated list of "+strings.Join(loadtest.AttackNames, ", ")+"\n(default: all)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 || *target == "" {
		fs.Usage()
		return errUsage
	}
	switch {
	case *duration <= 0 || *duration > 30*time.Minute:
		return fmt.Errorf("-duration %v: want a duration up to 30m", *duration)
	case *logins < 1 || *logins > 16:
		return fmt.Errorf("-login-sources %d: want 1..16", *logins)
	case *idle < 1 || *slow < 1 || *idle+*slow > 250:
		return fmt.Errorf("-idle %d -slow %d: want each at least 1, together at most 250 (under the cap per address)", *idle, *slow)
	case *spectators < 1 || *spectators > 2000:
		return fmt.Errorf("-spectators %d: want 1..2000", *spectators)
	case *level < 1 || *level > 10:
		return fmt.Errorf("-level %d: want 1..10", *level)
	}
	if err := checkLoopback(*target); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "attacking %s from 127.0.2.x for %v%s\n", *target, *duration, loadAverage())
	cfg := loadtest.AttackConfig{
		URL: *target, Duration: *duration, LoginSources: *logins, IdleConns: *idle, SlowBodies: *slow,
		Spectators: *spectators, EngineLevel: *level,
	}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	r, err := loadtest.Attack(ctx, cfg)
	if err != nil {
		return err
	}
	r.WriteTo(e.stdout)
	return nil
}
