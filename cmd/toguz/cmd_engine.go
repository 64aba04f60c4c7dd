package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

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

// openTablebase opens the tables for the engine: path is a table file, or a
// directory where the one covering the most stones is taken.
func openTablebase(path string) (engine.Tablebase, error) {
	t, err := openTables(path)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// openTables opens a table file, or in a directory the file of
// tablebase.FileName with the most stones.
func openTables(path string) (*tablebase.Tables, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return tablebase.Open(path)
	}
	for n := 64; n >= 1; n-- {
		f := filepath.Join(path, tablebase.FileName(n))
		if _, err := os.Stat(f); err == nil {
			return tablebase.Open(f)
		}
	}
	return nil, fmt.Errorf("no table file (standard-N.tgtb) in %s", path)
}
