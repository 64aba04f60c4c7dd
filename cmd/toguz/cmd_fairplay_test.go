package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateFairplay = flag.Bool("update-fairplay", false, "rewrite testdata/fairplay.golden")

// fairplayRun runs `toguz fairplay args…` in-process.
func fairplayRun(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := run(context.Background(), env{args: append([]string{"fairplay"}, args...), stdin: strings.NewReader(""), stdout: &out, stderr: &errs})
	return code, out.String(), errs.String()
}

// TestFairplayGolden: two PlayOK games (two of the shared data's, with
// their players' ratings) give four lines, one per game and side, exactly
// the golden file's.
func TestFairplayGolden(t *testing.T) {
	code, out, errs := fairplayRun("testdata/fairplay.pgn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden := filepath.Join("testdata", "fairplay.golden")
	if *updateFairplay {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output:\n%s\nwant (testdata/fairplay.golden):\n%s", out, want)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4", len(lines))
	}
	for i, l := range lines {
		var v struct {
			Game     int      `json:"game"`
			Side     string   `json:"side"`
			Moves    int      `json:"moves"`
			Score    float64  `json:"score"`
			Strength *float64 `json:"strength"`
			IPR      int      `json:"ipr"`
			Flag     *bool    `json:"flag"`
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil || v.Game != i/2+1 || v.Side != []string{"white", "black"}[i%2] || v.Moves == 0 || v.Flag == nil || v.Strength == nil {
			t.Errorf("line %d: %s: %+v, %v", i+1, l, v, err)
		}
	}
}

// TestFairplayFlags: -threshold moves the verdict, -rating judges records
// without ratings, and bad input fails with an error naming the file and
// the game.
func TestFairplayFlags(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src, err := os.ReadFile("testdata/fairplay.pgn")
	if err != nil {
		t.Fatal(err)
	}
	unrated := write("unrated.pgn", strings.NewReplacer(`[WhiteElo "`, `[X "`, `[BlackElo "`, `[Y "`).Replace(string(src)))
	bad := write("bad.pgn", string(src)+"\n[Event \"x\"]\n[Result \"*\"]\n\n1. 99 11 *\n")
	for _, tc := range []struct {
		name string
		args []string
		code int
		// out: every line contains it; errs: stderr contains it.
		out, errs string
	}{
		{"threshold far below", []string{"-threshold", "-100", "-deep=false", "testdata/fairplay.pgn"}, 0, `"flag": true`, ""},
		{"threshold far above", []string{"-threshold", "100", "-deep=false", "testdata/fairplay.pgn"}, 0, `"flag": false`, ""},
		{"no rating", []string{unrated}, 1, "", "unrated.pgn: game 1: no rating for white"},
		{"-rating", []string{"-rating", "1400", "-deep=false", unrated}, 0, `"moves": `, ""},
		{"bad rating", []string{"-rating", "-5", unrated}, 1, "", "-rating -5"},
		{"illegal record", []string{bad}, 1, "", "bad.pgn"},
		{"missing file", []string{filepath.Join(dir, "nosuch.pgn")}, 1, "", "nosuch.pgn"},
		{"no file", nil, 2, "", "Usage"},
		{"players", []string{"-players", "-deep=false", "testdata/fairplay.pgn"}, 0, `"player": "`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := fairplayRun(tc.args...)
			if code != tc.code || !strings.Contains(errs, tc.errs) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errs, tc.code, tc.errs)
			}
			if tc.out == "" {
				return
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if want := map[bool]int{false: 4, true: 3}[tc.name == "players"]; len(lines) != want {
				t.Fatalf("%d lines: %s", len(lines), out)
			}
			for _, l := range lines {
				if !strings.Contains(l, tc.out) {
					t.Errorf("line %s lacks %s", l, tc.out)
				}
			}
		})
	}
}
