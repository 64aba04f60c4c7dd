package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/shareddata"
)

// runRecordCmd runs the toguz command in-process and returns its exit code,
// stdout and stderr.
func runRecordCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(context.Background(), env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errs})
	return code, out.String(), errs.String()
}

// TestReplayData replays every data file and checks the JSON lines.
func TestReplayData(t *testing.T) {
	files := []string{shareddata.Path(t, "masters-2018.pgn"), shareddata.Path(t, "playok-2024-2025.pgn"), shareddata.Path(t, "master-app-sample.tgk")}
	code, out, errs := runRecordCmd(t, append([]string{"replay", "--json"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 742+1199+1 {
		t.Fatalf("%d lines, want 1942", len(lines))
	}
	ends := map[string]int{}
	for _, line := range lines {
		var g struct {
			Plies       int               `json:"plies"`
			FEN         string            `json:"fen"`
			Kazans      [2]int            `json:"kazans"`
			Termination string            `json:"termination"`
			Result      string            `json:"result"`
			Tags        map[string]string `json:"tags"`
		}
		if err := json.Unmarshal([]byte(line), &g); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if g.FEN == "" || g.Result == "" || len(g.Tags) == 0 {
			t.Errorf("incomplete line %s", line)
		}
		if g.Termination == "atsyrau" && g.Kazans[0]+g.Kazans[1] != 162 {
			t.Errorf("atsyrau without the collection: %s", line)
		}
		ends[g.Termination]++
	}
	if ends["atsyrau"] != 332 || ends["kazan"] != 261 || ends["none"] != 1349 {
		t.Errorf("endings %v", ends)
	}
	last := lines[len(lines)-1]
	if !strings.Contains(last, `"kazans":[51,74]`) || !strings.Contains(last, `"termination":"none"`) {
		t.Errorf("the Master app's game: %s", last)
	}
}

func TestReplayText(t *testing.T) {
	code, out, errs := runRecordCmd(t, "replay", shareddata.Path(t, "master-app-sample.tgk"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"game 1", "White:", "Мұстафа", "plies:        146", "kazans:       51 74", "termination:  none", "result:       *", "1 games, 146 plies"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgn")
	text := "[Result \"1-0\"]\n\n1. 76 98\n2. 66 88\n1-0\n\n[Result \"1-0\"]\n\n1. 76 1-0\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runRecordCmd(t, "replay", bad)
	want := bad + ":4:7: game 1, ply 4: 88 lands on white's hole 7, not 8"
	if code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errs, want)
	}
	if code, _, _ := runRecordCmd(t, "replay"); code != 2 {
		t.Errorf("replay without files: exit %d, want 2", code)
	}
	if code, _, errs := runRecordCmd(t, "replay", filepath.Join(dir, "none.pgn")); code != 1 || !strings.Contains(errs, "none.pgn") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
	empty := filepath.Join(dir, "empty.pgn")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runRecordCmd(t, "replay", empty); code != 1 || !strings.Contains(errs, empty+": no games") {
		t.Errorf("empty file: exit %d, stderr %q; want 1 and %q", code, errs, empty+": no games")
	}
	if code, _, _ := runRecordCmd(t, "replay", "-h"); code != 0 {
		t.Errorf("replay -h: exit %d", code)
	}
}

// TestReplayRepetition: -repetition N prints the ply where a game reaches
// the Nth occurrence of a position. The game is endgame E2 of docs/rules.md §7
// played into a cycle of 18 plies: the position after ply 7 recurs after
// plies 25 and 43.
func TestReplayRepetition(t *testing.T) {
	r, _ := toguz.ParseRules("standard")
	start, _, err := toguz.ParseFEN("1S,3S,6,1S/8,2S 78 77 S 1", r)
	if err != nil {
		t.Fatal(err)
	}
	moves := []toguz.Move{9, 9, 1, 8, 2, 9, 9, 8, 3, 1, 4, 9, 5, 2, 6, 3, 7, 4, 1, 5, 8, 6, 9, 7, 2}
	moves = append(moves, moves[7:]...)
	g, err := toguz.NewGame(start, moves...)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "cycle.tgn")
	f, _ := os.Create(file)
	if err := toguz.WriteGames(f, toguz.FormatToguz, g); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"replay", "--json", "--repetition", "3", file}, `"repetition_ply":43`},
		{[]string{"replay", "--repetition", "2", file}, "repetition:   a draw after ply 25 (the position's occurrence 2)"},
	} {
		code, out, errs := runRecordCmd(t, tc.args...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, %s%s, want %q", tc.args, code, out, errs, tc.want)
		}
	}
	if _, out, _ := runRecordCmd(t, "replay", "--json", file); strings.Contains(out, "repetition") {
		t.Errorf("the rule is off by default: %s", out)
	}
}
