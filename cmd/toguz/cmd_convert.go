package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/toguz/toguz"
)

func runConvert(ctx context.Context, e env) error {
	fs := newFlags(e, "convert", "FILE", "Converts the games of FILE (format detected from the content) to another\n"+
		"record format: toguz (ours), playok, tgk or playstrategy. Every game is\n"+
		"replayed and checked first. What is written is detected as its format and\n"+
		"replays to the same games. The games are read and written one at a time;\n"+
		"on an error -o leaves no file, and stdout has the games before it.")
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
	src, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer src.Close()
	if *out == "" {
		w := bufio.NewWriterSize(e.stdout, 64<<10)
		if err := convertGames(ctx, w, src, fs.Arg(0), in, f); err != nil {
			w.Flush() // the games before the error
			return err
		}
		return w.Flush()
	}
	// A temporary file renamed once every game is written, so that an
	// error leaves no half-written file.
	tmp, err := os.CreateTemp(filepath.Dir(*out), "."+filepath.Base(*out)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing
	w := bufio.NewWriterSize(tmp, 64<<10)
	err = convertGames(ctx, w, src, fs.Arg(0), in, f)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), *out)
}

// convertGames reads the games of src in format in (0: detected), checks
// each against the rules and writes it to w in format to, one at a time.
func convertGames(ctx context.Context, w io.Writer, src io.Reader, name string, in, to toguz.Format) error {
	gw := toguz.NewGameWriter(w, to)
	for g, err := range toguz.NewGameReader(src, name, in).All() {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := g.Final(); err != nil {
			return err
		}
		if err := gw.Write(g); err != nil {
			return err
		}
	}
	return nil
}
