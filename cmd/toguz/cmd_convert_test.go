package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvert converts the PlayOK games to every format with a writer,
// then replays the result: the same plies, endings and results.
func TestConvert(t *testing.T) {
	src := needData(t, "playok-2024-2025.pgn")
	_, want, errs := runRecordCmd(t, "replay", "--json", src)
	if errs != "" {
		t.Fatal(errs)
	}
	dir := t.TempDir()
	for _, to := range []string{"ours", "playstrategy", "tgk"} {
		out := filepath.Join(dir, "games."+to)
		if code, _, errs := runRecordCmd(t, "convert", "--to", to, "-o", out, src); code != 0 {
			t.Fatalf("convert --to %s: exit %d: %s", to, code, errs)
		}
		code, got, errs := runRecordCmd(t, "replay", "--json", out)
		if code != 0 {
			t.Fatalf("replay of %s: %s", to, errs)
		}
		// The lines differ in the file name and, for TGK and PlayStrategy,
		// in the tags; compare what the games are.
		norm := func(s string) string {
			var b strings.Builder
			for _, line := range strings.Split(s, "\n") {
				if i := strings.Index(line, `"ruleset"`); i >= 0 {
					b.WriteString(line[i:])
				}
				b.WriteString("\n")
			}
			return b.String()
		}
		if to != "tgk" && norm(got) != norm(want) {
			t.Errorf("--to %s replays differently", to)
		}
		if to == "tgk" && strings.Count(got, "\n") != strings.Count(want, "\n") {
			t.Errorf("--to tgk: %d games, want %d", strings.Count(got, "\n"), strings.Count(want, "\n"))
		}
	}
}

func TestConvertStdout(t *testing.T) {
	code, out, errs := runRecordCmd(t, "convert", "--to", "tgk", needData(t, "master-app-sample.tgk"))
	data, err := os.ReadFile(needData(t, "master-app-sample.tgk"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || out != string(data) {
		t.Errorf("TGK to TGK: exit %d (%s), output differs from the file", code, errs)
	}
	if code, _, errs := runRecordCmd(t, "convert", "--to", "playok", needData(t, "master-app-sample.tgk")); code != 1 || !strings.Contains(errs, "no writer") {
		t.Errorf("--to playok: exit %d, %q", code, errs)
	}
	if code, _, errs := runRecordCmd(t, "convert", "--to", "sgf", "x"); code != 1 || !strings.Contains(errs, "unknown record format") {
		t.Errorf("--to sgf: exit %d, %q", code, errs)
	}
	if code, _, _ := runRecordCmd(t, "convert", "x"); code != 2 {
		t.Errorf("no --to: exit %d, want 2", code)
	}
}
