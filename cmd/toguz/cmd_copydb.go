package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// runCopyDB copies a server's SQLite database to PostgreSQL
// (store.CopyToPostgres): the move from one machine to several nodes.
func runCopyDB(ctx context.Context, e env) error {
	fs := newFlags(e, "copy-db", "", "Copy a server's SQLite database to a new, empty PostgreSQL database (migrated first), in one transaction, printing each table's rows, then the keys kept in files beside the database (the guest key, the two-factor key) into the new database's secrets, so that guests stay signed in and sealed secrets stay readable. The source is only read; stop the server first.")
	from := fs.String("from", "toguz.db", "the SQLite database file to copy")
	to := fs.String("to", "", "the PostgreSQL database to copy to: postgres://…")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 || *to == "" {
		fs.Usage()
		return errUsage
	}
	counts, err := store.CopyToPostgres(ctx, *from, *to, func(table string, rows int64, done bool) {
		if !done {
			fmt.Fprintf(e.stderr, "%s: %d rows…\n", table, rows)
		}
	})
	if err != nil {
		return err
	}
	var total int64
	for _, c := range counts {
		fmt.Fprintf(e.stdout, "%-20s %d\n", c.Table, c.Rows)
		total += c.Rows
	}
	fmt.Fprintf(e.stdout, "%d tables, %d rows copied to %s\n", len(counts), total, store.Redact(*to))
	st, err := store.Open(ctx, *to, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	carried, err := server.CarrySecrets(ctx, *from, st)
	for _, c := range carried {
		if c.Carried {
			fmt.Fprintf(e.stdout, "secret %-18s carried from %s\n", c.Name, c.Path)
		} else {
			fmt.Fprintf(e.stdout, "secret %-18s none (no %s)\n", c.Name, c.Path)
		}
	}
	return err
}
