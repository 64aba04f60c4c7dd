package toguz

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toguz/toguz/internal/shareddata"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The real games of docs/rules.md §8 are read through shareddata: they stand
// beside the repository (in CI too), and a run without them skips these
// tests, except under CI.

// dataFiles are the data files with what replaying them must give.
var dataFiles = []struct {
	name   string
	format Format
	games  int
	plies  int
	ends   map[Termination]int // rules' endings
}{
	{"masters-2018.pgn", FormatToguz, 742, 50980, map[Termination]int{Unterminated: 733, ByKazan: 9}},
	{"playok-2024-2025.pgn", FormatPlayOK, 1199, 110328, map[Termination]int{Unterminated: 615, ByKazan: 252, ByAtsyrau: 332}},
	{"master-app-sample.tgk", FormatTGK, 1, 146, map[Termination]int{Unterminated: 1}},
}

// TestDataReplay replays every game of the data: every landing digit,
// tuzdik mark, kazan annotation, {zero} and result must agree with the rules.
func TestDataReplay(t *testing.T) {
	for _, f := range dataFiles {
		t.Run(f.name, func(t *testing.T) {
			data := shareddata.Read(t, f.name)
			if got := DetectFormat(data); got != f.format {
				t.Errorf("DetectFormat = %s, want %s", got, f.format)
			}
			games, err := ParseGames(f.name, data, 0)
			if err != nil {
				t.Fatal(err)
			}
			ends := map[Termination]int{}
			plies := 0
			for _, g := range games {
				o, err := g.Outcome()
				if err != nil {
					t.Error(err)
					continue
				}
				if o.Termination <= ByAtsyrau && o.Result != g.Result && g.Result != NoResult {
					t.Errorf("game %d: outcome %v, record %v", g.index, o, g.Result)
				}
				ends[o.Termination]++
				plies += len(g.Plies)
			}
			t.Logf("%d games, %d plies, endings by the rules %v", len(games), plies, ends)
			if len(games) != f.games || plies != f.plies || !cmp.Equal(ends, f.ends) {
				t.Errorf("%d games, %d plies, endings %v; want %d, %d, %v", len(games), plies, ends, f.games, f.plies, f.ends)
			}
		})
	}
}

// TestDataTGKFinal checks the Master app's game: unfinished at 51–74.
func TestDataTGKFinal(t *testing.T) {
	games, err := ParseGames("", shareddata.Read(t, "master-app-sample.tgk"), FormatTGK)
	if err != nil {
		t.Fatal(err)
	}
	p, err := games[0].Final()
	if err != nil {
		t.Fatal(err)
	}
	if p.Kazan(White) != 51 || p.Kazan(Black) != 74 || p.IsOver() {
		t.Errorf("final %s, want 51–74 and not over", p.FEN())
	}
}

// TestDataTGKExact writes the Master app's file back byte for byte.
func TestDataTGKExact(t *testing.T) {
	data := shareddata.Read(t, "master-app-sample.tgk")
	games, err := ParseGames("", data, FormatTGK)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteGames(&b, FormatTGK, games...); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(data), b.String()); d != "" {
		t.Errorf("TGK written back differs (-read +written):\n%s", d)
	}
}

// sameGame compares games without where they were read from; it is
// cmp.Equal(a, b, ignoreSource), fast.
func sameGame(a, b *Game) bool {
	return slices.Equal(a.Tags, b.Tags) && a.Rules == b.Rules && a.Start == b.Start && a.StartMove == b.StartMove &&
		a.Comment == b.Comment && slices.Equal(a.Plies, b.Plies) && a.Result == b.Result &&
		a.Termination == b.Termination && a.Marking == b.Marking
}

// ignoreSource compares games without where they were read from.
var ignoreSource = cmp.Options{cmpopts.IgnoreUnexported(Game{}), cmpopts.EquateComparable(Position{})}

// TestRoundTrip reads every data game, writes it in each format with a
// writer, reads it back and compares.
func TestRoundTrip(t *testing.T) {
	for _, f := range dataFiles {
		data := shareddata.Read(t, f.name)
		games, err := ParseGames(f.name, data, 0)
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && len(games) > 100 {
			games = games[:100]
		}
		for _, to := range writers {
			t.Run(f.name+"/"+to.String(), func(t *testing.T) {
				var b bytes.Buffer
				if err := WriteGames(&b, to, games...); err != nil {
					t.Fatal(err)
				}
				if got := DetectFormat(b.Bytes()); got != to {
					t.Errorf("DetectFormat of written %s = %s", to, got)
				}
				back, err := ParseGames("written", b.Bytes(), to)
				if err != nil {
					t.Fatal(err)
				}
				if len(back) != len(games) {
					t.Fatalf("%d games back, want %d", len(back), len(games))
				}
				for i, g := range games {
					if d := diffWritten(g, back[i], to); d != "" {
						t.Fatalf("game %d differs: %s", i+1, d)
					}
					if _, err := back[i].Final(); err != nil {
						t.Fatal(err)
					}
				}
				// Written again, the text is the same.
				var again bytes.Buffer
				if err := WriteGames(&again, to, back...); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), again.Bytes()) {
					t.Errorf("written twice, the text differs")
				}
			})
		}
	}
}

// goldenGames are the games of testdata/games.toguz: the first game of
// each data file, the seeds' atsyrau example from its position, and a
// Bestemshe game that starts with Black to move, with comments.
func goldenGames(t *testing.T) []*Game {
	t.Helper()
	var games []*Game
	for _, f := range dataFiles {
		gs, err := ParseGames(f.name, shareddata.Read(t, f.name), 0)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, gs[0])
	}
	start, full, err := ParseFEN("1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 30", Standard())
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGame(start, 9, 1, 9, 1)
	if err != nil {
		t.Fatal(err)
	}
	g.StartMove = full
	g.Tags = []Tag{{"Event", "Seed 000, example 3"}}
	g.Result, g.Termination = BlackWins, ByAtsyrau
	g.Comment = "White to move; Black collects his 8 stones at the end"
	games = append(games, g)

	p, err := NewPosition(Bestemshe())
	if err != nil {
		t.Fatal(err)
	}
	p = p.After(3)
	g, err = NewGame(p, 1, 5, 2, 4)
	if err != nil {
		t.Fatal(err)
	}
	g.Tags = []Tag{{"Event", "Bestemshe \"quoted\" \\ test"}, {"White", "A"}, {"Black", "B"}}
	g.Plies[0].Comment = "the first reply"
	g.Plies[2].Comment = "two\nlines"
	games = append(games, g)
	return games
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), string(got)); d != "" {
		t.Errorf("%s differs (-golden +got):\n%s", name, d)
	}
}

// TestGolden writes the golden games in each format, and reads every golden
// file back to the same games and the same bytes.
func TestGolden(t *testing.T) {
	games := goldenGames(t)
	for _, f := range []struct {
		name   string
		format Format
	}{{"games.toguz", FormatToguz}, {"games.playstrategy", FormatPlayStrategy}, {"games.tgk", FormatTGK}} {
		t.Run(f.name, func(t *testing.T) {
			var b bytes.Buffer
			gs := games
			if f.format == FormatTGK {
				gs = games[:3] // TGK has standard games from the start only
			}
			if err := WriteGames(&b, f.format, gs...); err != nil {
				t.Fatal(err)
			}
			golden(t, f.name, b.Bytes())
			back, err := ParseGames(f.name, b.Bytes(), 0)
			if err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if err := WriteGames(&again, f.format, back...); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(b.String(), again.String()); d != "" {
				t.Errorf("read and written again (-golden +again):\n%s", d)
			}
			for _, g := range back {
				if _, err := g.Final(); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestTGKRejectsOtherGames: TGK and PlayOK cannot hold another ruleset or
// start.
func TestTGKRejectsOtherGames(t *testing.T) {
	games := goldenGames(t)
	for _, g := range games[3:] {
		if err := WriteGames(&bytes.Buffer{}, FormatTGK, g); err == nil {
			t.Errorf("TGK wrote a game from %s under %s", g.Start.FEN(), g.Rules)
		}
	}
	for _, g := range games[3:] {
		if err := WriteGames(&bytes.Buffer{}, FormatPlayOK, g); !errors.Is(err, ErrUnwritable) {
			t.Errorf("PlayOK wrote a game from %s under %s: %v", g.Start.FEN(), g.Rules, err)
		}
	}
}

// TestBadRecords gives each kind of bad input and checks that the error
// names the right place and reason.
func TestBadRecords(t *testing.T) {
	const head = "[Event \"x\"]\n[Result \"1-0\"]\n\n"
	playok := "[Site \"PlayOK\"]\n[Result \"0-1\"]\n\n"
	tests := []struct {
		name   string
		format Format
		text   string
		err    error  // errors.Is
		want   string // in the message
		line   int
		col    int
		ply    int
		replay bool // the error comes from Final, not ParseGames
	}{
		{"truncated in a tag", FormatToguz, "[Event \"x", ErrSyntax, "no closing quote", 1, 1, 0, false},
		{"truncated in the movetext", FormatToguz, head + "1. 76 98\n2. 6(", ErrSyntax, "want only a kazan total", 5, 4, 3, false},
		{"truncated before the result", FormatToguz, head + "1. 76 98\n", ErrSyntax, "truncated", 5, 1, 2, false},
		{"comment not closed", FormatToguz, head + "1. 76 {oops", ErrSyntax, "no closing }", 4, 7, 1, false},
		{"wrong move number", FormatToguz, head + "1. 76 98 3. 66 1-0", ErrSyntax, "move number 3.", 4, 10, 3, false},
		{"garbage", FormatToguz, head + "1. 76 e4 1-0", ErrSyntax, `"e4"`, 4, 7, 2, false},
		{"result against the tag", FormatToguz, head + "1. 76 0-1", ErrSyntax, "disagrees with the Result tag", 4, 7, 0, false},
		{"text after the result", FormatToguz, head + "1. 76 1-0 87", ErrSyntax, "after the result", 4, 11, 0, false},
		{"kazan note of 0", FormatToguz, head + "1. 76(0) 1-0", ErrSyntax, "kazan total", 4, 4, 1, false},
		{"unknown ruleset", FormatToguz, "[Ruleset \"chess\"]\n\n1-0", ErrRules, "tag Ruleset", 1, 11, 0, false},
		{"unknown result", FormatToguz, "[Result \"2-0\"]\n\n1-0", nil, "unknown result", 1, 10, 0, false},
		{"unknown termination", FormatToguz, "[Termination \"boredom\"]\n\n1-0", nil, "unknown termination", 1, 15, 0, false},
		{"impossible position", FormatToguz, "[FEN \"9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,8S 0 0 S 1\"]\n\n*", ErrPosition, "161 stones", 1, 7, 0, false},
		{"tuzdik on hole 9", FormatToguz, "[FEN \"t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1\"]\n\n*", ErrPosition, "last hole", 1, 7, 0, false},
		{"two tuzdiks on one number", FormatToguz, "[FEN \"9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,t,9S,9S,9S,9S,9S,9S 9 9 S 1\"]\n\n*", ErrPosition, "both tuzdiks", 1, 7, 0, false},
		{"PlayStrategy off the board", FormatPlayStrategy, "e1f2 d2e1 i1a3", ErrSyntax, "e1f2", 1, 11, 3, false},
		{"PlayStrategy wrong row", FormatPlayStrategy, "e1f2 d1e1", ErrIllegalMove, "d1 is white's hole 4, but black is to move", 1, 6, 2, false},
		{"PlayStrategy wrong landing", FormatPlayStrategy, "e1f2 d2e2", ErrNotation, "falls on e1", 1, 6, 2, false},
		{"wrong landing digit", FormatToguz, head + "1. 76 98\n2. 66 88 1-0", ErrNotation, "88 lands on white's hole 7, not 8", 5, 7, 4, true},
		{"missing tuzdik mark", FormatToguz, "[Result \"0-1\"]\n\n1. 76 98\n2. 66 87\n3. 12 76\n4. 25 78\n5. 48 36\n0-1", ErrNotation, "so it is written 36x", 7, 7, 10, true},
		{"tuzdik mark for none", FormatToguz, head + "1. 76x 1-0", ErrNotation, "marked x but makes no tuzdik", 4, 4, 1, true},
		{"illegal move", FormatToguz, "[FEN \"1S,3S,6,1S/8,2S 78 77 S 1\"]\n\n1. 11 *", ErrIllegalMove, "the hole is empty", 3, 4, 1, true},
		{"wrong kazan", FormatToguz, head + "1. 76(11) 1-0", ErrNotation, "white's kazan holds 10", 4, 4, 1, true},
		{"PlayOK missing kazan", FormatPlayOK, playok + "1. 76 0-1", ErrNotation, "want 76(10)", 4, 4, 1, true},
		{"PlayOK kazan without capture", FormatPlayOK, playok + "1. 87(10) 87(10) 2. 22(10) 0-1", ErrNotation, "captures nothing", 4, 21, 3, true},
		{"PlayOK zero that is not", FormatPlayOK, playok + "1. 76(10) 0-1 {zero}", ErrNotation, "goes on", 4, 11, 1, true},
		{"PlayOK atsyrau without zero", FormatPlayOK, "[Site \"PlayOK\"]\n[FEN \"1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1\"]\n\n1. 93 12 2. 91 12 0-1", ErrNotation, "no {zero}", 4, 19, 4, true},
		{"PlayOK other comment", FormatPlayOK, playok + "1. 76(10) 0-1 {hello}", ErrSyntax, "only {zero}", 4, 15, 0, false},
		{"result against the rules", FormatToguz, "[FEN \"1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1\"]\n[Result \"1-0\"]\n\n1. 93 12 2. 91 12 1-0", ErrNotation, "rules end the game 0-1 by atsyrau, 76–86", 4, 19, 4, true},
		{"move after the end", FormatToguz, "[FEN \"1S,1S,1S,t,1S,4/6,t,1,4S 76 78 S 1\"]\n[Result \"0-1\"]\n\n1. 93 12 2. 91 12 3. 91 0-1", ErrGameOver, "after the end", 4, 22, 5, true},
		{"termination against the rules", FormatToguz, "[Termination \"kazan\"]\n[Result \"1-0\"]\n\n1. 76 1-0", ErrNotation, "goes on", 4, 7, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ParseGames("bad.txt", []byte(tt.text), tt.format)
			if tt.replay {
				if err != nil {
					t.Fatalf("ParseGames: %v", err)
				}
				_, err = games[0].Final()
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *ParseError", err, err)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("error %v does not wrap %v", err, tt.err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bad.txt:") {
				t.Errorf("error %q, want it to start with the file and say %q", err, tt.want)
			}
			if pe.Line != tt.line || pe.Column != tt.col || pe.Ply != tt.ply || pe.Game != 1 {
				t.Errorf("error at line %d column %d game %d ply %d, want %d:%d game 1 ply %d (%v)",
					pe.Line, pe.Column, pe.Game, pe.Ply, tt.line, tt.col, tt.ply, err)
			}
		})
	}
}

// TestDetectFormat covers the content rules.
func TestDetectFormat(t *testing.T) {
	tests := []struct {
		text string
		want Format
	}{
		{"", FormatToguz},
		{"1. 76 98 *", FormatToguz},
		{"f1e2 d2e1", FormatPlayStrategy},
		{"[Event \"x\"]\n\n1. f1e2 d2e1 *", FormatPlayStrategy},
		{"[Site \"PlayOK\"]\n[Ruleset \"standard\"]\n\n1. 76 *", FormatToguz},
		{"[Site \"PlayOK\"]\n\n1. 76(10) *", FormatPlayOK},
		{"[ID \"1\"]\n\n1. 76 98", FormatTGK},
		{"\ufeff[Site \"PlayOK\"]\n\n1. 76(10) *", FormatPlayOK},
		// What the writers write.
		{"[Ruleset \"standard\"]\n\n1. 76 98\n", FormatTGK},                    // TGK written from ours
		{"[Event \"x\"]\n", FormatTGK},                                         // tags alone
		{"[Result \"*\"]\n\n*\n\n[Event \"x\"]\n\ne1f2 *", FormatPlayStrategy}, // a game without plies decides nothing
		{"[Event \"x\"]\n[Result \"1-0\"]\n\n1. 76(10) 98 1-0", FormatPlayOK},  // PlayOK's marks
		{"[Event \"x\"]\n[ID \"1\"]\n\n1. 76(10) 98 1-0", FormatPlayOK},
		{"[Event \"x\"]\n[Result \"1-0\"]\n\n1. 76 98 1-0", FormatToguz}, // a capture without its total
	}
	for _, tt := range tests {
		if got := DetectFormat([]byte(tt.text)); got != tt.want {
			t.Errorf("DetectFormat(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range []Format{FormatToguz, FormatPlayOK, FormatTGK, FormatPlayStrategy} {
		if got, err := ParseFormat(f.String()); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f, got, err)
		}
	}
	if got, err := ParseFormat("ours"); err != nil || got != FormatToguz {
		t.Errorf("ParseFormat(ours) = %v, %v", got, err)
	}
	if _, err := ParseFormat("sgf"); err == nil {
		t.Error("ParseFormat(sgf) did not fail")
	}
}

// BenchmarkReplayPlayOK reads and replays the 1,199 PlayOK games.
func BenchmarkReplayPlayOK(b *testing.B) {
	data := shareddata.Read(b, "playok-2024-2025.pgn")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		games, err := ParseGames("", data, FormatPlayOK)
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range games {
			if _, err := g.Final(); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// TestGoldenReadBack reads every golden record file and writes it back to
// the same bytes; unlike TestGolden it needs no data files.
func TestGoldenReadBack(t *testing.T) {
	for _, f := range []struct {
		name   string
		format Format
	}{{"games.toguz", FormatToguz}, {"games.playstrategy", FormatPlayStrategy}, {"games.tgk", FormatTGK}} {
		data, err := os.ReadFile(filepath.Join("testdata", f.name))
		if err != nil {
			t.Fatal(err)
		}
		if got := DetectFormat(data); got != f.format {
			t.Errorf("%s: DetectFormat = %s, want %s", f.name, got, f.format)
		}
		games, err := ParseGames(f.name, data, f.format)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if _, err := g.Final(); err != nil {
				t.Error(err)
			}
		}
		var b bytes.Buffer
		if err := WriteGames(&b, f.format, games...); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(string(data), b.String()); d != "" {
			t.Errorf("%s read and written (-file +written):\n%s", f.name, d)
		}
	}
}

// writers are the formats WriteGames writes.
var writers = []Format{FormatToguz, FormatTGK, FormatPlayStrategy, FormatPlayOK}

// canHold reports whether format f can hold g: TGK and PlayOK only
// standard games from the start, and TGK no game it would write as nothing.
func canHold(f Format, g *Game) bool {
	switch f {
	case FormatTGK:
		return g.fromStandardStart() && !g.empty()
	case FormatPlayOK:
		return g.fromStandardStart()
	}
	return true
}

// writerCases are games of every kind a writer meets, read from text or
// built: each writer that can hold a game must write it so that DetectFormat
// names that writer and the game reads back the same.
func writerCases(t *testing.T) []*Game {
	t.Helper()
	read := func(f Format, text string) *Game {
		t.Helper()
		gs, err := ParseGames("case", []byte(text), f)
		if err != nil || len(gs) != 1 {
			t.Fatalf("%q: %d games, %v", text, len(gs), err)
		}
		return gs[0]
	}
	const plies = "1. 76(10) 98\n2. 66 87\n3. 12 76\n4. 25 78\n5. 48 36x\n"
	games := []*Game{
		// Ours, with the Ruleset tag our writer adds.
		read(FormatToguz, "[Event \"ours\"]\n[Result \"*\"]\n[Ruleset \"standard\"]\n\n{before} "+plies+"*\n"),
		// A federation's PGN: no Ruleset tag.
		read(FormatToguz, "[Id \"1\"]\n[Event \"Кубок РК\"]\n[Result \"0-1\"]\n\n"+plies+"0-1\n"),
		// The Master app's, and PlayOK's.
		read(FormatTGK, "[White \"A\"]\n[ID \"77D6\"]\n\n1. 76 76\n2. 99 12\n"),
		read(FormatPlayOK, "[Event \"9245757\"]\n[Site \"PlayOK\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 99(22) 3. 23 12(24) 4. 68X 25 0-1\n"),
		// Tags alone.
		{Tags: []Tag{{"Event", "no moves"}}},
	}
	// The seeds' atsyrau, from a position, and a Bestemshe game with Black
	// to move first.
	gs := goldenGames(t)
	return append(games, gs[len(gs)-2:]...)
}

// TestWritersDetected writes each case with each writer, alone and all in
// one file, and reads the text back with the format DetectFormat names.
func TestWritersDetected(t *testing.T) {
	games := writerCases(t)
	for _, to := range writers {
		var all []*Game
		for i, g := range games {
			var b bytes.Buffer
			err := WriteGames(&b, to, g)
			canHold := canHold(to, g)
			if err != nil {
				if canHold {
					t.Errorf("%s, case %d: %v", to, i, err)
				}
				continue
			}
			if !canHold {
				t.Errorf("%s, case %d: written, but it cannot hold the game:\n%s", to, i, b.String())
			}
			all = append(all, g)
			checkWritten(t, fmt.Sprintf("%s, case %d", to, i), to, []*Game{g}, b.Bytes())
		}
		var b bytes.Buffer
		if err := WriteGames(&b, to, all...); err != nil {
			t.Fatal(err)
		}
		checkWritten(t, to.String()+", all cases", to, all, b.Bytes())
	}
}

// checkWritten checks that text, written by the writer of format to from
// games, is detected as to and reads back to the same games.
func checkWritten(t *testing.T, name string, to Format, games []*Game, text []byte) {
	t.Helper()
	plies := 0
	for _, g := range games {
		plies += len(g.Plies)
	}
	// Without plies, the formats are the same text.
	if got := DetectFormat(text); got != to && plies > 0 {
		t.Errorf("%s: detected as %s:\n%s", name, got, text)
	}
	back, err := ParseGames("written", text, 0)
	if err != nil || len(back) != len(games) {
		t.Errorf("%s: %d games back, want %d: %v\n%s", name, len(back), len(games), err, text)
		return
	}
	for i, g := range games {
		if d := diffWritten(g, back[i], to); d != "" {
			t.Errorf("%s: game %d reads back differently: %s\n%s", name, i+1, d, text)
		}
		if _, err := back[i].Final(); err != nil {
			t.Errorf("%s: game %d: %v", name, i+1, err)
		}
	}
}

// diffWritten says how back, read from what the writer of format to wrote
// of g, differs from g beyond what that format cannot say: kazan totals
// (TGK, PlayStrategy), the short form of plies (PlayStrategy, PlayOK),
// PlayOK's marks (kazan totals on the captures, the
// plies in full, {zero}, no Ruleset tag), the tags with a meaning that a writer adds, the
// Marking a reader gives, a start position given by default.
func diffWritten(g, back *Game, to Format) string {
	want := *g
	want.Marking, want.Rules = back.Marking, g.rules()
	if !want.startsElsewhere() {
		want.Start, want.StartMove = back.Start, back.StartMove
	}
	switch to {
	case FormatTGK:
		want.Plies = slices.Clone(g.Plies)
		for k := range want.Plies {
			want.Plies[k].Kazan = 0
		}
	case FormatPlayStrategy, FormatPlayOK:
		// The plies in full (from a short form) and, for PlayOK, its marks
		// as the rules give them.
		ps, err := g.Positions()
		if err != nil {
			return err.Error()
		}
		want.Plies = slices.Clone(g.Plies)
		for k := range want.Plies {
			p := ps[k]
			y, next := p.Ply(want.Plies[k].Move)
			want.Plies[k].Ply, want.Plies[k].Kazan = y, 0
			if to == FormatPlayOK && captures(p, next, p.Turn(), y.Move) {
				want.Plies[k].Kazan = next.Kazan(p.Turn())
			}
		}
		if to == FormatPlayOK && ps[len(ps)-1].Outcome().Termination == ByAtsyrau {
			want.Termination = ByAtsyrau
		}
	}
	// The tags with a meaning are written from the fields, as their
	// canonical text ("Bestemshe" comes back "bestemshe").
	sameTag := func(a, b Tag) bool {
		switch a.Name {
		case "Result", "Ruleset", "FEN", "Termination":
			return a.Name == b.Name
		}
		return a == b
	}
	tags := g.Tags
	if to == FormatPlayOK {
		tags = slices.DeleteFunc(slices.Clone(tags), func(t Tag) bool { return t.Name == "Ruleset" })
	}
	if len(back.Tags) < len(tags) || !slices.EqualFunc(tags, back.Tags[:len(tags)], sameTag) {
		return fmt.Sprintf("tags %q, back %q", g.Tags, back.Tags)
	}
	for _, tag := range back.Tags[len(tags):] {
		switch tag.Name {
		case "Result", "Ruleset", "FEN", "Termination":
		default:
			return fmt.Sprintf("tag %s added", tag.Name)
		}
	}
	want.Tags = back.Tags
	if !sameGame(&want, back) {
		return cmp.Diff(&want, back, ignoreSource)
	}
	return ""
}

// TestFreeTextRoundTrip writes comments and tags that hold the characters
// of the formats' syntax with every writer (a bug once: "{\n};}" was
// written back as "{\n )}").
func TestFreeTextRoundTrip(t *testing.T) {
	texts := []string{"\n }", "}", "{", ";}", "a\\", "\\}", "\\\\", "x\\y", "} [Event \"y\"]\n1-0", "\r\n", " lead", "zero"}
	for _, text := range texts {
		g, err := NewGame(StartPosition(), 7, 9)
		if err != nil {
			t.Fatal(err)
		}
		g.Tags = []Tag{{"Event", text + "\"\\"}}
		if strings.Contains(text, "\n") {
			g.Tags[0].Value = "one line"
		}
		g.Comment = text
		g.Plies[0].Comment, g.Plies[1].Comment = text, text+text
		t.Run(strconv.Quote(text), func(t *testing.T) { checkWriters(t, g) })
	}
	g := &Game{Tags: []Tag{{"Event", "two\nlines"}}}
	for _, to := range writers {
		if err := WriteGames(&bytes.Buffer{}, to, g); !errors.Is(err, ErrUnwritable) || !strings.Contains(err.Error(), "line end") {
			t.Errorf("%s wrote a tag value with a line end: %v", to, err)
		}
	}
}

// TestDataPlayOKExact writes PlayOK's 1,199 games back: the same bytes,
// but for the files PlayOK's games were gathered from, which the data
// separates by one more blank line.
func TestDataPlayOKExact(t *testing.T) {
	data := shareddata.Read(t, "playok-2024-2025.pgn")
	games, err := ParseGames("", data, FormatPlayOK)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteGames(&b, FormatPlayOK, games...); err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(string(data), "\n\n\n\n[", "\n\n\n[")
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("PlayOK written back differs (-read +written):\n%s", d)
	}
	back, err := ParseGames("written", b.Bytes(), 0)
	if err != nil || len(back) != len(games) {
		t.Fatalf("%d games back, %v", len(back), err)
	}
	for i, g := range games {
		if !sameGame(g, back[i]) {
			t.Fatalf("game %d differs (-read +back):\n%s", i+1, cmp.Diff(g, back[i], ignoreSource))
		}
	}
}
