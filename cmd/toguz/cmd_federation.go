package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/store"
)

const federationUsage = `seed | list | add CODE | grant CODE NAME | revoke CODE NAME | officers CODE |
  import CODE DISCIPLINE DAY FILE | publish CODE DISCIPLINE DAY | export CODE DISCIPLINE DAY`

// runFederation is the operator's part of the federations' register: the
// federations themselves and their officers (whom no page can make), and
// the lists' import, publication and export that officers also do on the
// pages. Disciplines: classic, rapid, blitz; DAY: the list's date, the
// first of a month (YYYY-MM-DD).
func runFederation(ctx context.Context, e env) error {
	fs := newFlags(e, "federation", federationUsage,
		"Create the federations (seed: the world's, Kazakhstan's and Kyrgyzstan's), grant or revoke their officers, import, publish and export their rating lists.")
	db := fs.String("db", "toguz.db", "the server's database: an SQLite file or a PostgreSQL URL postgres://…")
	level := fs.String("level", "national", "add: world, national or regional")
	parent := fs.String("parent", "", "add: the code of the federation above")
	founded := fs.Int("founded", 0, "add: the year it was founded")
	var nameFlags [4]*string
	for i, lang := range []string{"en", "kk", "ky", "ru"} {
		nameFlags[i] = fs.String("name-"+lang, "", "add: the name in "+lang)
	}
	format := fs.String("format", "csv", "export: csv, trf or pdf")
	lang := fs.String("lang", "en", "export -format pdf: the paper's language (en, kk, kk-Latn, ky, ru)")
	out := fs.String("o", "-", "export: the file to write (- standard output)")
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	args := fs.Args()
	need := map[string]int{"seed": 1, "list": 1, "add": 2, "grant": 3, "revoke": 3, "officers": 2, "import": 5, "publish": 4, "export": 4}
	if len(args) == 0 || need[args[0]] != len(args) {
		fs.Usage()
		return errUsage
	}
	st, err := store.Open(ctx, *db, store.Options{Readers: 1})
	if err != nil {
		return err
	}
	defer st.Close()
	reg := federation.New(st, nil)
	var disc federation.Discipline
	var day time.Time
	if len(args) >= 4 && (args[0] == "import" || args[0] == "publish" || args[0] == "export") {
		disc = federation.Discipline(args[2])
		if day, err = time.Parse(time.DateOnly, args[3]); err != nil {
			return fmt.Errorf("federation: %q is not a day YYYY-MM-DD", args[3])
		}
	}
	switch args[0] {
	case "seed":
		made, err := reg.SeedKnown(ctx)
		if err != nil {
			return err
		}
		if len(made) == 0 {
			fmt.Fprintln(e.stdout, "the known federations are in the register already")
		} else {
			fmt.Fprintln(e.stdout, "created:", strings.Join(made, " "))
		}
	case "list":
		fs, err := reg.Federations(ctx)
		if err != nil {
			return err
		}
		for _, f := range fs {
			fmt.Fprintf(e.stdout, "%-8s %-9s %-8s %4d  %s\n", f.Code, f.Level, f.Parent, f.Founded, f.Name("en"))
		}
	case "add":
		names := map[string]string{}
		for i, l := range []string{"en", "kk", "ky", "ru"} {
			if v := strings.TrimSpace(*nameFlags[i]); v != "" {
				names[l] = v
			}
		}
		f := federation.Federation{Code: args[1], Level: federation.Level(*level), Parent: *parent, Founded: *founded, Names: names}
		if err := reg.PutFederation(ctx, f); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", f.Code, f.Name("en"))
	case "grant", "revoke":
		u, err := st.UserByName(ctx, args[2])
		if errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("federation: there is no account named %q", args[2])
		}
		if err != nil {
			return err
		}
		if err := reg.SetOfficer(ctx, args[1], u.ID, args[0] == "grant"); err != nil {
			return err
		}
		if args[0] == "grant" {
			fmt.Fprintf(e.stdout, "%s is an officer of %s\n", u.Name, args[1])
		} else {
			fmt.Fprintf(e.stdout, "%s is no longer an officer of %s\n", u.Name, args[1])
		}
	case "officers":
		if _, err := reg.Federation(ctx, args[1]); err != nil {
			return err
		}
		us, err := st.FedOfficers(ctx, args[1])
		if err != nil {
			return err
		}
		if len(us) == 0 {
			fmt.Fprintln(e.stdout, "no officers")
		}
		for _, u := range us {
			fmt.Fprintln(e.stdout, u.Name)
		}
	case "import":
		f, err := os.Open(args[4])
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := reg.Import(ctx, args[1], disc, day, f)
		if err != nil {
			return fmt.Errorf("%s: %w", args[4], err)
		}
		fmt.Fprintf(e.stdout, "%d players imported into the %s %s list of %s\n", n, args[1], disc, args[3])
	case "publish":
		es, err := reg.Publish(ctx, args[1], disc, day)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "the %s %s list of %s is published: %d players\n", args[1], disc, args[3], len(es))
	case "export":
		return exportList(ctx, e, reg, args[1], disc, args[3], *format, *lang, *out)
	}
	return nil
}

func exportList(ctx context.Context, e env, reg *federation.Service, code string, d federation.Discipline, day, format, lang, out string) error {
	f, err := reg.Federation(ctx, code)
	if err != nil {
		return err
	}
	lists, err := reg.Lists(ctx, code, d)
	if err != nil {
		return err
	}
	found := false
	for _, l := range lists {
		found = found || l.Day == day
	}
	if !found {
		return fmt.Errorf("federation: %s has no %s list of %s", code, d, day)
	}
	lines, err := reg.List(ctx, code, d, day)
	if err != nil {
		return err
	}
	var w io.Writer = e.stdout
	if out != "-" {
		file, err := os.Create(out)
		if err != nil {
			return err
		}
		defer file.Close()
		w = file
	}
	switch format {
	case "csv":
		return federation.WriteCSV(w, lines)
	case "trf":
		return federation.WriteTRF(w, f, d, day, lines)
	case "pdf":
		return federation.WritePDF(w, f, federation.PaperText(i18n.New(), lang, d, day), lines)
	}
	return fmt.Errorf("federation: -format %q is not csv, trf or pdf", format)
}
