package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// renderRun runs `toguz render ARGS` in-process and returns the exit code,
// stdout and stderr.
func renderRun(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"render"}, args...), stdin: strings.NewReader(""), stdout: &out, stderr: &errOut})
	return code, out.String(), errOut.String()
}

// wellFormed fails unless doc is well-formed XML.
func wellFormed(t *testing.T, doc string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	for {
		if _, err := dec.Token(); err == io.EOF {
			return
		} else if err != nil {
			t.Fatalf("not XML: %v\n%.300s", err, doc)
		}
	}
}

const afterSeven = "9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1"

func TestRender(t *testing.T) {
	code, out, errOut := renderRun("--svg", "--last", "7", "--land", "b6", "--white", "A & B", afterSeven)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	wellFormed(t, out)
	for _, want := range []string{`stroke="#1f7ae0"`, `stroke="#f08c00"`, "White · A &amp; B", ">10</text>"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// The FEN's fields may come as separate arguments; -o writes a file.
	file := filepath.Join(t.TempDir(), "board.svg")
	if code, _, errOut := renderRun(append([]string{"--flip", "-o", file}, strings.Fields(afterSeven)...)...); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, errOut)
	}
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wellFormed(t, string(doc))
	if code, out, _ := renderRun("--ruleset", "bestemshe", "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1"); code != 0 || !strings.Contains(out, "bestemshe") {
		t.Errorf("bestemshe: exit %d", code)
	}
	// -names: the holes' names beside their numbers, glossed for ru and en.
	for _, tc := range []struct{ lang, want string }{{"ky", ">куйрук</text>"}, {"ru", ">кровавый капкан</text>"}, {"kk-Latn", ">mañdai</text>"}} {
		code, out, errOut := renderRun("-names", tc.lang, afterSeven)
		if code != 0 || strings.Count(out, tc.want) != 2 {
			t.Errorf("-names %s: exit %d %s; %q drawn %d times, want 2", tc.lang, code, errOut, tc.want, strings.Count(out, tc.want))
		}
		wellFormed(t, out)
	}
	if code, _, errOut := renderRun("-names", "xx", afterSeven); code != 1 || !strings.Contains(errOut, `-names "xx"`) {
		t.Errorf("-names xx: exit %d %s", code, errOut)
	}
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{}, 2, "Usage"},
		{[]string{"--nosuchflag", afterSeven}, 2, "nosuchflag"},
		{[]string{"9S/9S 0 0 S 1"}, 1, "row"},
		{[]string{"--ruleset", "chess", afterSeven}, 1, "chess"},
		{[]string{"--last", "10", afterSeven}, 1, "--last 10"},
		{[]string{"--land", "x6", afterSeven}, 1, "--land"},
		{[]string{"--land", "b10", afterSeven}, 1, "1..9"},
		{[]string{"--width", "-5", afterSeven}, 1, "Width"},
		{[]string{"-o", "/nonexistent/dir/x.svg", afterSeven}, 1, "nonexistent"},
	}
	for _, tc := range tests {
		code, out, errOut := renderRun(tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("render %q: exit %d, stderr %q; want exit %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
		if out != "" {
			t.Errorf("render %q: wrote %d bytes to stdout on failure", tc.args, len(out))
		}
	}
}

// TestRenderRecord draws the position after a ply of a record with its
// last move highlighted, as --last and --land would, and a text diagram.
func TestRenderRecord(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "game.tgn")
	if err := os.WriteFile(rec, []byte("[Result \"*\"]\n\n1. 76(10) 98\n*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, want, _ := renderRun("--last", "7", "--land", "b6", afterSeven)
	code, got, errOut := renderRun("-record", rec, "-ply", "1")
	if code != 0 || got != want {
		t.Errorf("-record -ply 1: exit %d (%s), the drawing differs from --last 7 --land b6", code, errOut)
	}
	_, plain, _ := renderRun(afterSeven)
	if got == plain {
		t.Error("-record: no highlight")
	}
	diagram := filepath.Join(dir, "board.txt")
	code, text, _ := runRecordCmd(t, "show", afterSeven)
	if err := os.WriteFile(diagram, []byte(text), 0o644); err != nil || code != 0 {
		t.Fatal(err)
	}
	if code, got, errOut := renderRun("-diagram", diagram); code != 0 || got != plain {
		t.Errorf("-diagram: exit %d (%s), the drawing differs from the position string's", code, errOut)
	}
}
