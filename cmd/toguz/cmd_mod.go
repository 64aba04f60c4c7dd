package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/toguz/toguz/internal/store"
)

// runMod grants and revokes the moderator role (internal/moderation) and
// lists the moderators: the operator's part, from the command line only,
// so that no page can make a moderator. Each change is in the audit log.
func runMod(ctx context.Context, e env) error {
	fs := newFlags(e, "mod", "grant NAME | revoke NAME | list", "Grant or revoke the moderator role of an account, or list the moderators.")
	db := fs.String("db", "toguz.db", "the server's database: an SQLite file or a PostgreSQL URL postgres://…")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	args := fs.Args()
	switch {
	case len(args) == 1 && args[0] == "list":
	case len(args) == 2 && (args[0] == "grant" || args[0] == "revoke"):
	default:
		fs.Usage()
		return errUsage
	}
	st, err := store.Open(ctx, *db, store.Options{Readers: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	if args[0] == "list" {
		ms, err := st.Moderators(ctx)
		if err != nil {
			return err
		}
		if len(ms) == 0 {
			fmt.Fprintln(e.stdout, "no moderators")
		}
		for _, m := range ms {
			fmt.Fprintln(e.stdout, m.Name)
		}
		return nil
	}
	u, err := st.UserByName(ctx, args[1])
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("mod: there is no account named %q", args[1])
	}
	if err != nil {
		return err
	}
	if err := st.SetModerator(ctx, u.ID, args[0] == "grant"); err != nil {
		return err
	}
	if args[0] == "grant" {
		fmt.Fprintf(e.stdout, "%s is a moderator (the server sees it within 15 seconds)\n", u.Name)
	} else {
		fmt.Fprintf(e.stdout, "%s is no longer a moderator\n", u.Name)
	}
	return nil
}
