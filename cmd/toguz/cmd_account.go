package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/toguz/toguz/internal/account"
	"github.com/toguz/toguz/internal/store"
)

// lookupEnvOf reads a variable of e's environment (none in tests).
func lookupEnvOf(e env, name string) (string, bool) {
	if e.lookupEnv == nil {
		return "", false
	}
	return e.lookupEnv(name)
}

// runAccount is the operator's help with accounts: `account reset-link
// NAME` makes a password-reset link, for a site without mail (or a person
// without a verified address), to hand over by other means.
func runAccount(ctx context.Context, e env) error {
	const use = "Usage: toguz account reset-link [flags] NAME\n\nreset-link makes a password-reset link for the account NAME (toguz account reset-link -h)."
	if len(e.args) == 1 && (e.args[0] == "-h" || e.args[0] == "--help" || e.args[0] == "-help") {
		fmt.Fprintln(e.stderr, use)
		return flag.ErrHelp
	}
	if len(e.args) == 0 || e.args[0] != "reset-link" {
		fmt.Fprintln(e.stderr, use)
		return errUsage
	}
	fs := newFlags(e, "account reset-link", "NAME", "Make a link that sets a new password for the account NAME: it works once, for an hour,\n"+
		"and ends every session of the account when used. Give it to its owner only, by a way you trust.")
	db := fs.String("db", "toguz.db", "the server's database: an SQLite file or a PostgreSQL URL postgres://…")
	siteURL := fs.String("site-url", "http://localhost:8080", "the site's public URL, as serve's -site-url")
	if err := fs.Parse(e.args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return errUsage
	}
	st, err := store.Open(ctx, *db, store.Options{Readers: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	svc, err := account.New(ctx, account.Config{Store: st, SiteURL: strings.TrimRight(*siteURL, "/")})
	if err != nil {
		return err
	}
	link, err := svc.ResetLink(ctx, fs.Arg(0))
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("no account %q", fs.Arg(0))
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, link)
	return nil
}
