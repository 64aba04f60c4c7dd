package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// runBackup backs a server's SQLite database up while it serves
// (store.Backup), with the keys kept beside it.
func runBackup(ctx context.Context, e env) error {
	fs := newFlags(e, "backup", "", "Back a server's SQLite database up into a new file while the server runs (SQLite's VACUUM INTO:\nthe database as it was at one instant, every move acknowledged before it), checked, with the keys kept\nbeside the database (FILE.guestkey, FILE.twofactorkey) copied beside the backup. Restore: stop the\nserver, put the backup (and its keys) in place of the database, start it. On PostgreSQL use pg_dump\n(docs/deploy.md, \"Backups\").")
	db := fs.String("db", "toguz.db", "the SQLite database file of the server")
	out := fs.String("o", "", "the backup file to make (it must not exist)")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 || *out == "" {
		fs.Usage()
		return errUsage
	}
	info, err := store.Backup(ctx, *db, *out)
	if err != nil {
		return err
	}
	keys, err := server.CopyKeyFiles(*db, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %d bytes, schema version %d, integrity ok", *out, info.Bytes, info.SchemaVersion)
	for _, k := range keys {
		fmt.Fprintf(e.stdout, ", %s", k)
	}
	fmt.Fprintln(e.stdout)
	return nil
}
