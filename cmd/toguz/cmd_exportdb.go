package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/toguz/toguz/internal/opendb"
	"github.com/toguz/toguz/internal/store"
)

// runExportDB writes the open database: the server's rated games, one
// gzip file a month in our record format with their reviews' evaluations,
// and the site's puzzles as a gzip CSV file (internal/opendb), which `serve
// -database-dir` lists at /database.
func runExportDB(ctx context.Context, e env) error {
	fs := newFlags(e, "export-db", "", "Write every rated game of a server's database, with its review's evaluations, as monthly compressed record files (toguz-rated-YYYY-MM.pgn.gz), and the site's puzzles with their ratings as toguz-puzzles.csv.gz. A finished month's file is written again only while some of its games' reviews were still to come (a pending=P in its gzip comment); the current month's and the puzzles each time.")
	db := fs.String("db", "toguz.db", "the server's database: an SQLite file or a PostgreSQL URL postgres://…")
	out := fs.String("o", "database", "folder of the files (created if needed)")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	st, err := store.Open(ctx, *db, store.Options{Readers: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	files, err := opendb.Export(ctx, st, *out, time.Now())
	for _, f := range files {
		if f.Name == opendb.PuzzlesName {
			fmt.Fprintf(e.stdout, "%s\t%d puzzles\t%d bytes\n", f.Name, f.Puzzles, f.Size)
		} else {
			fmt.Fprintf(e.stdout, "%s\t%d games\t%d bytes\n", f.Name, f.Games, f.Size)
		}
	}
	if err == nil && len(files) == 0 {
		fmt.Fprintln(e.stdout, "no file to write")
	}
	return err
}
