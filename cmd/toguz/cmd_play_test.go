package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

// runWithInput runs the command line args with input on stdin.
func runWithInput(args []string, input string) (code int, stdout, stderr string) {
	var out, errs strings.Builder
	code = run(context.Background(), env{args: args, stdin: strings.NewReader(input), stdout: &out, stderr: &errs})
	return code, out.String(), errs.String()
}

func TestPlay(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		input  string
		code   int
		output string // in stdout or stderr
		result string // of the saved record; "" for none
		plies  int
	}{
		{"two people to the end", []string{"-vs", "human", "-fen", "1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 30"}, "9\n1\n9\n1\n", 0,
			"Game over: Black wins by atsyrau, 76-86. Result 0-1.", "0-1", 4},
		// The human moves first: an engine's first move could empty the hole
		// a scripted reply names.
		{"engine, quit", []string{"-level", "1", "-movetime", "20ms", "-side", "white"}, "3\nq\n", 0, "toguz engine level 1 (Black) thinks...", "*", 2},
		{"hint", []string{"-vs", "human", "-movetime", "20ms"}, "h\nq\n", 0, "Hint: play ", "*", 0},
		{"hole names", []string{"-vs", "human", "-names", "kk-Latn"}, "q\n", 0, " 7 qandyqaqpan", "*", 0},
		{"bad names", []string{"-names", "de"}, "", 1, `-names "de": want one of`, "", 0},
		{"names of another board", []string{"-ruleset", "bestemshe", "-names", "kk"}, "", 1, "-names: the traditional names are those of the 9 holes", "", 0},
		{"bad level", []string{"-level", "11"}, "", 1, "-level 11: want 1..10", "", 0},
		{"bad side", []string{"-side", "red"}, "", 1, `-side "red": want white or black`, "", 0},
		{"bad opponent", []string{"-vs", "cat"}, "", 1, `-vs "cat": want engine or human`, "", 0},
		{"bad position", []string{"-fen", "9S 0 0 S 1"}, "", 1, "-fen: ", "", 0},
		{"extra argument", []string{"x"}, "", 2, "Usage: toguz play", "", 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.Repeat("g", i+1)+".tgn")
			args := append([]string{"play", "-o", file}, tt.args...)
			code, out, errs := runWithInput(args, tt.input)
			if code != tt.code || !strings.Contains(out+errs, tt.output) {
				t.Fatalf("exit %d, want %d; output lacks %q?\n%s\n%s", code, tt.code, tt.output, out, errs)
			}
			data, err := os.ReadFile(file)
			if tt.result == "" {
				if err == nil {
					t.Errorf("a record was saved: %s", data)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			games, err := toguz.ParseGames(file, data, toguz.FormatToguz)
			if err != nil {
				t.Fatal(err)
			}
			if len(games) != 1 || games[0].Result.String() != tt.result || len(games[0].Plies) != tt.plies {
				t.Errorf("record:\n%s\nwant result %s and %d plies", data, tt.result, tt.plies)
			}
			if !strings.Contains(out, "Record saved to "+file) {
				t.Errorf("output does not name the record file:\n%s", out)
			}
		})
	}
}
