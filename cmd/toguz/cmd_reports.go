package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/toguz/toguz/internal/store"
)

// runReports lists the reported chat messages (the report button of the
// chat), newest first: the administrator's view of them.
func runReports(ctx context.Context, e env) error {
	fs := newFlags(e, "reports", "", "List the reported chat messages of a server's database, newest first.")
	db := fs.String("db", "toguz.db", "the server's database: an SQLite file or a PostgreSQL URL postgres://…")
	limit := fs.Int("n", 50, "the most reports listed")
	offset := fs.Int("skip", 0, "skip this many of the newest first")
	asJSON := fs.Bool("json", false, "one JSON object a line")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 || *limit < 1 || *offset < 0 {
		fs.Usage()
		return errUsage
	}
	st, err := store.Open(ctx, *db, store.Options{Readers: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	rs, err := st.Reports(ctx, *limit, *offset)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, r := range rs {
			if err := enc.Encode(map[string]any{"id": r.ID, "at": r.Created.UTC().Format(time.RFC3339), "reporter": r.ReporterName,
				"reporter_id": r.Reporter, "user": r.Reported, "game": r.GameID, "room": r.Room, "message": r.Message, "verified": r.Verified}); err != nil {
				return err
			}
		}
		return nil
	}
	if len(rs) == 0 {
		fmt.Fprintln(e.stdout, "no reports")
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWHEN (UTC)\tREPORTER\tUSER\tGAME\tROOM\tSEEN\tMESSAGE")
	for _, r := range rs {
		game := r.GameID
		if game == "" {
			game = "-"
		}
		seen := "no"
		if r.Verified {
			seen = "yes" // the server found the message in the room
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%q\n", r.ID, r.Created.UTC().Format("2006-01-02 15:04:05"), r.ReporterName,
			r.Reported, game, r.Room, seen, r.Message)
	}
	return tw.Flush()
}
