package main

import (
	"bytes"
	"context"
	"os"

	"github.com/toguz/toguz"
)

func runConvert(ctx context.Context, e env) error {
	fs := newFlags(e, "convert", "FILE", "Converts the games of FILE (format detected from the content) to another\n"+
		"record format: toguz (ours), playok, tgk or playstrategy. Every game is\n"+
		"replayed and checked first. What is written is detected as its format and\n"+
		"replays to the same games.")
	to := fs.String("to", "", "the format to write: toguz (ours), playok, tgk or playstrategy")
	from := fs.String("from", "", "read this record format instead of detecting it")
	out := fs.String("o", "", "write to this file instead of stdout")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *to == "" {
		fs.Usage()
		return errUsage
	}
	f, err := toguz.ParseFormat(*to)
	if err != nil {
		return err
	}
	var in toguz.Format
	if *from != "" {
		if in, err = toguz.ParseFormat(*from); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	games, err := toguz.ParseGames(fs.Arg(0), data, in)
	if err != nil {
		return err
	}
	for _, g := range games {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := g.Final(); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := toguz.WriteGames(&b, f, games...); err != nil {
		return err
	}
	if *out != "" {
		return os.WriteFile(*out, b.Bytes(), 0o644)
	}
	_, err = e.stdout.Write(b.Bytes())
	return err
}
