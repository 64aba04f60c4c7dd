package main

import (
	"context"
	"fmt"

	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/protocol"
	"github.com/toguz/toguz/internal/tablebase"
)

func runEngine(ctx context.Context, e env) error {
	fs := newFlags(e, "engine", "", "Speaks the engine protocol (docs/protocol.md) on standard input and output.")
	threads := fs.Int("threads", 1, "search threads at the start (the Threads option)")
	hash := fs.Int("hash", engine.DefaultOptions().HashMB, "transposition table MiB at the start (the Hash option)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	opts := engine.DefaultOptions()
	opts.Threads, opts.HashMB = *threads, *hash
	eng, err := engine.New(opts)
	if err != nil {
		return err
	}
	return protocol.Serve(ctx, e.stdin, e.stdout, eng, protocol.Config{
		Name:          "toguz",
		Author:        "the toguz authors",
		OpenTablebase: openTablebase,
	})
}

// openTablebase opens the tables for the engine (openTables): each
// position is probed in its own ruleset's table.
func openTablebase(path string) (engine.Tablebase, error) {
	t, err := openTables(path)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// openTables opens a table file, or in a directory each ruleset's table
// file (tablebase.FileName) with the most stones (tablebase.OpenSet). A
// directory without any table is an error here: the commands that take
// one have nothing to do with it (serve, which may start without, opens
// its tables itself).
func openTables(path string) (*tablebase.Set, error) {
	s, err := tablebase.OpenSet(path)
	if err != nil {
		return nil, err
	}
	if len(s.All()) == 0 {
		return nil, fmt.Errorf("no table file (RULESET-N.tgtb, from toguz tablebase) in %s", path)
	}
	return s, nil
}
