package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/shareddata"
)

// TestConvert converts the PlayOK games to every format with a writer,
// then replays the result: the same plies, endings and results.
func TestConvert(t *testing.T) {
	src := shareddata.Path(t, "playok-2024-2025.pgn")
	_, want, errs := runRecordCmd(t, "replay", "--json", src)
	if errs != "" {
		t.Fatal(errs)
	}
	dir := t.TempDir()
	for _, to := range []string{"ours", "playstrategy", "tgk", "playok"} {
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
		if to == "playok" && got != strings.ReplaceAll(want, src, out) {
			t.Errorf("--to playok replays differently")
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
	code, out, errs := runRecordCmd(t, "convert", "--to", "tgk", shareddata.Path(t, "master-app-sample.tgk"))
	data, err := os.ReadFile(shareddata.Path(t, "master-app-sample.tgk"))
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || out != string(data) {
		t.Errorf("TGK to TGK: exit %d (%s), output differs from the file", code, errs)
	}

	if code, _, errs := runRecordCmd(t, "convert", "--to", "sgf", "x"); code != 1 || !strings.Contains(errs, "unknown record format") {
		t.Errorf("--to sgf: exit %d, %q", code, errs)
	}
	if code, _, _ := runRecordCmd(t, "convert", "x"); code != 2 {
		t.Errorf("no --to: exit %d, want 2", code)
	}
}

// TestConvertReplay converts a file of each readable format to each
// writable one and replays the output with the format detected: the same
// games (TGK written from ours was read back as ours).
func TestConvertReplay(t *testing.T) {
	const plies = "1. 76(10) 98\n2. 66 87\n3. 12 76\n4. 25 78\n5. 48 36x\n"
	inputs := map[string]string{
		"game.tgn":   "[Event \"ours\"]\n[Result \"*\"]\n[Ruleset \"standard\"]\n\n" + plies + "*\n",
		"game.pgn":   "[Id \"1\"]\n[Event \"Кубок РК\"]\n[Result \"0-1\"]\n\n" + plies + "0-1\n",
		"playok.pgn": "[Event \"9245757\"]\n[Site \"PlayOK\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 99(22) 3. 23 12(24) 4. 68X 25 0-1\n",
		"game.tgk":   "[White \"A\"]\n[ID \"77D6\"]\n\n1. 76 76\n2. 99 12\n",
		"game.ps":    "[Event \"ps\"]\n\nf1e2 d2e1 i1a2 b2i1 *\n",
	}
	dir := t.TempDir()
	for name, text := range inputs {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, want, errs := runRecordCmd(t, "replay", "--json", src)
		if code != 0 {
			t.Fatalf("replay %s: %s", name, errs)
		}
		for _, to := range []string{"toguz", "tgk", "playstrategy", "playok"} {
			out := filepath.Join(dir, name+"."+to)
			if code, _, errs := runRecordCmd(t, "convert", "--to", to, "-o", out, src); code != 0 {
				t.Fatalf("convert --to %s %s: exit %d: %s", to, name, code, errs)
			}
			code, got, errs := runRecordCmd(t, "replay", "--json", out)
			if code != 0 {
				t.Errorf("replay of %s as %s: %s", name, to, errs)
				continue
			}
			if g, w := replayGist(t, got), replayGist(t, want); g != w {
				t.Errorf("%s as %s replays as %s, want %s", name, to, g, w)
			}
		}
	}
}

// replayGist is what a line of replay --json says of the game itself.
func replayGist(t *testing.T, line string) string {
	t.Helper()
	var g struct {
		Ruleset     string `json:"ruleset"`
		Plies       int    `json:"plies"`
		FEN         string `json:"fen"`
		Termination string `json:"termination"`
		Result      string `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &g); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return fmt.Sprintf("%+v", g)
}

// TestRecordCmdsBadToken: a file whose bad token is megabytes long gives
// a short error line naming where it is, from replay and convert alike,
// and convert -o then leaves no file.
func TestRecordCmdsBadToken(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgn")
	text := "[Result \"*\"]\n\n1. 76 98 *\n\n[Result \"*\"]\n\n1. " + strings.Repeat("z", 3<<20) + " *\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.tgn")
	for _, args := range [][]string{{"replay", bad}, {"convert", "--to", "toguz", bad}, {"convert", "--to", "toguz", "-o", out, bad}} {
		code, _, errs := runRecordCmd(t, args...)
		want := bad + ":7:4: game 2: more than 1048576 bytes in one game, reading \"zzzz"
		if code != 1 || !strings.Contains(errs, want) || len(errs) > len(bad)+200 {
			t.Errorf("%s: exit %d, %d bytes of stderr %.300q; want 1 and a short line with %q", args[0], code, len(errs), errs, want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("convert -o left %s after the error: %v", out, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("convert -o left %d files in its directory, want only the input", len(entries))
	}
}
