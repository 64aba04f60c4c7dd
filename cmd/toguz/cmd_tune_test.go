package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/engine/eval"
	"github.com/toguz/toguz/internal/engine/neural"
)

func TestTune(t *testing.T) {
	games := "../../internal/engine/train/testdata/masters-2018-first200.pgn"
	out := filepath.Join(t.TempDir(), "weights.txt")
	code, stdout, stderr := runRecordCmd(t, "tune", "-selfplay", "0", "-epochs", "2", "-o", out, games)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := eval.ParseWeights(f)
	if err != nil {
		t.Fatalf("the weights written do not read back: %v", err)
	}
	if w[eval.Kazan] <= 0 || !strings.Contains(stderr, "validation loss") {
		t.Errorf("kazan weight %d, log %q", w[eval.Kazan], stderr)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"tune", "-selfplay", "0", "no-such.pgn"}, 1, "no-such.pgn"},
		{[]string{"tune", "-epochs"}, 2, "Usage"},
	} {
		code, out, errs := runRecordCmd(t, tt.args...)
		if code != tt.code || !strings.Contains(out+errs, tt.want) {
			t.Errorf("%q: exit %d, %q %q; want %d and %q", tt.args, code, out, errs, tt.code, tt.want)
		}
	}
}

// TestTuneRuleset trains a ruleset's weights on a little self-play alone
// and checks the file says how it was made; the errors name what was
// wrong.
func TestTuneRuleset(t *testing.T) {
	out := filepath.Join(t.TempDir(), "weights-bestemshe.txt")
	cache := filepath.Join(t.TempDir(), "selfplay.txt")
	for _, tt := range []struct {
		args []string
		code int
		want string // in stdout, stderr or the file written
	}{
		{[]string{"tune", "-ruleset", "bestemshe", "-selfplay", "2", "-nodes", "200", "-epochs", "2", "-cache", cache, "-o", out}, 0,
			"self-play: 1 of 2 games"},
		{[]string{"tune", "-ruleset", "bestemshe", "-selfplay", "2", "-nodes", "200", "-epochs", "2", "-cache", cache, "-o", out}, 0,
			"# Made by: toguz tune -ruleset bestemshe -selfplay 2 -nodes 200"},
		{[]string{"tune", "-ruleset", "bestemshe", "-selfplay", "2", "-nodes", "200", "-epochs", "2", "-cache", cache, "-o", out}, 0,
			"positions read from " + cache}, // the second run reuses the first's games
		{[]string{"tune", "-ruleset", "nosuch"}, 1, "-ruleset"},
		{[]string{"tune", "-ruleset", "bestemshe", "-neural"}, 1, "standard game's network only"},
		{[]string{"tune", "-ruleset", "bestemshe", "-selfplay", "0", "../../internal/engine/train/testdata/masters-2018-first200.pgn"}, 1,
			"not the bestemshe being trained"},
	} {
		code, stdout, stderr := runRecordCmd(t, tt.args...)
		text := stdout + stderr
		if code == 0 {
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := eval.ParseWeights(bytes.NewReader(data)); err != nil {
				t.Errorf("%q: the weights written do not read back: %v", tt.args, err)
			}
			text += string(data)
		}
		if code != tt.code || !strings.Contains(text, tt.want) {
			t.Errorf("%q: exit %d, %q; want %d and %q", tt.args, code, text, tt.code, tt.want)
		}
	}
}

func TestTuneNeural(t *testing.T) {
	games := "../../internal/engine/train/testdata/masters-2018-first200.pgn"
	out := filepath.Join(t.TempDir(), "network.txt")
	code, stdout, stderr := runRecordCmd(t, "tune", "-neural", "-selfplay", "0", "-nepochs", "1", "-o", out, games)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := neural.Parse(bytes.NewReader(data)); err != nil {
		t.Fatalf("the network written does not read back: %v", err)
	}
	if !strings.Contains(string(data), "# Made by: toguz tune -neural") {
		t.Errorf("no command in the header of %s", out)
	}
	code, _, stderr = runRecordCmd(t, "tune", "-neural", "-base", "no-such-weights.txt", games)
	if code != 1 || !strings.Contains(stderr, "no-such-weights.txt") {
		t.Errorf("missing -base file: exit %d, %q", code, stderr)
	}
}

// TestWriteOut: a file is replaced only by a complete write, and no
// temporary file is left either way.
func TestWriteOut(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "weights.txt")
	if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := env{stdout: &bytes.Buffer{}}
	failed := writeOut(e, out, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("disk full")
	})
	if got, _ := os.ReadFile(out); failed == nil || string(got) != "old\n" {
		t.Errorf("failed write: %v, file now %q", failed, got)
	}
	if err := writeOut(e, out, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	fi, err := os.Stat(out)
	if string(got) != "new\n" || err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("file %q, %v, %v; want new, mode 0644", got, err, fi.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file", len(entries))
	}
	if err := writeOut(e, filepath.Join(dir, "no", "such", "dir.txt"), func(io.Writer) error { return nil }); err == nil {
		t.Error("writing into a missing directory did not fail")
	}
}
