package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toguz/toguz"
)

func game(result toguz.Result, moves ...toguz.Move) Game {
	return Game{Start: toguz.StartPosition(), Moves: moves, Result: result}
}

// after plays moves from the start.
func after(t *testing.T, moves ...toguz.Move) toguz.Position {
	t.Helper()
	p := toguz.StartPosition()
	for _, m := range moves {
		var err error
		if p, err = p.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func build(t testing.TB, opts Options, games ...Game) *Book {
	t.Helper()
	b := NewBuilder(opts)
	for _, g := range games {
		if err := b.AddGame(g); err != nil {
			t.Fatal(err)
		}
	}
	bk, err := b.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return bk
}

var smallGames = []Game{
	game(toguz.WhiteWins, 7, 5, 3),
	game(toguz.BlackWins, 7, 5, 4),
	game(toguz.Draw, 7, 2),
	game(toguz.NoResult, 4, 1),
	{Start: toguz.StartPosition(), Moves: []toguz.Move{4, 1}, Result: toguz.WhiteWins, Weight: 3},
}

func TestBuildCounts(t *testing.T) {
	tests := []struct {
		name     string
		opts     Options
		moves    []toguz.Move // the position after these
		want     []Entry
		nodes    int
		allMoves int
	}{
		{"start", Options{MaxPly: 2, MinCount: 1}, nil, []Entry{
			{Move: 4, Eval: NoEval, Count: 4, Wins: 3},
			{Move: 7, Eval: NoEval, Count: 3, Wins: 1, Draws: 1, Losses: 1},
		}, 3, 5},
		{"after 7", Options{MaxPly: 2, MinCount: 1}, []toguz.Move{7}, []Entry{
			{Move: 2, Eval: NoEval, Count: 1, Draws: 1},
			{Move: 5, Eval: NoEval, Count: 2, Wins: 1, Losses: 1},
		}, 3, 5},
		{"after 4", Options{MaxPly: 2, MinCount: 1}, []toguz.Move{4}, []Entry{
			{Move: 1, Eval: NoEval, Count: 4, Losses: 3},
		}, 3, 5},
		{"ply 3 not recorded", Options{MaxPly: 2, MinCount: 1}, []toguz.Move{7, 5}, nil, 3, 5},
		{"ply 3 recorded", Options{MaxPly: 3, MinCount: 1}, []toguz.Move{7, 5}, []Entry{
			{Move: 3, Eval: NoEval, Count: 1, Wins: 1},
			{Move: 4, Eval: NoEval, Count: 1, Losses: 1},
		}, 4, 7},
		{"min count 2", Options{MaxPly: 3, MinCount: 2}, []toguz.Move{7}, []Entry{
			{Move: 5, Eval: NoEval, Count: 2, Wins: 1, Losses: 1},
		}, 3, 4},
		{"min count 4", Options{MaxPly: 3, MinCount: 4}, nil, []Entry{
			{Move: 4, Eval: NoEval, Count: 4, Wins: 3},
		}, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bk := build(t, tt.opts, smallGames...)
			if diff := cmp.Diff(tt.want, bk.Moves(after(t, tt.moves...))); diff != "" {
				t.Errorf("Moves after %v (-want +got):\n%s", tt.moves, diff)
			}
			if i := bk.Info(); i.Positions != tt.nodes || i.Moves != tt.allMoves {
				t.Errorf("book has %d positions, %d moves; want %d, %d", i.Positions, i.Moves, tt.nodes, tt.allMoves)
			}
		})
	}
}

func TestAddGameErrors(t *testing.T) {
	b := NewBuilder(Options{})
	if err := b.AddGame(game(toguz.Draw, 7, 10)); !errors.Is(err, ErrIllegal) {
		t.Errorf("move 10: error %v, want ErrIllegal", err)
	}
	seven, err := toguz.NewPosition(toguz.Seven())
	if err != nil {
		t.Fatal(err)
	}
	if err := b.AddGame(Game{Start: seven, Moves: []toguz.Move{1}}); err != nil {
		t.Fatal(err)
	}
	if added, skipped := b.Counts(); added != 0 || skipped != 1 {
		t.Errorf("Counts() = %d, %d; want 0 added, 1 skipped", added, skipped)
	}
}

// transposition returns two different move orders from the start that
// reach the same position, found by a plain search of the first plies.
const transDepth = 5

func transposition(t *testing.T) (a, b []toguz.Move) {
	t.Helper()
	seen := map[toguz.Position][]toguz.Move{}
	var walk func(p toguz.Position, path []toguz.Move) bool
	walk = func(p toguz.Position, path []toguz.Move) bool {
		if prev, ok := seen[p]; ok && len(path) > 0 {
			a, b = prev, slices.Clone(path)
			t.Logf("%v %v", a, b)
			return true
		}
		seen[p] = slices.Clone(path)
		if len(path) == transDepth || p.IsOver() {
			return false
		}
		for m := range p.LegalMoves().All() {
			if walk(p.After(m), append(path, m)) {
				return true
			}
		}
		return false
	}
	if !walk(toguz.StartPosition(), nil) {
		t.Fatalf("no transposition within %d plies", transDepth)
	}
	return a, b
}

func TestTransposition(t *testing.T) {
	a, b := transposition(t)
	p := after(t, a...)
	if p != after(t, b...) {
		t.Fatalf("%v and %v do not transpose", a, b)
	}
	m := p.LegalMoves().First()
	bk := build(t, Options{MinCount: 2},
		game(toguz.WhiteWins, append(slices.Clone(a), m)...),
		game(toguz.Draw, append(slices.Clone(b), m)...))
	want := []Entry{{Move: m, Eval: NoEval, Count: 2, Draws: 1}}
	if p.Turn() == toguz.White {
		want[0].Wins = 1
	} else {
		want[0].Losses = 1
	}
	for _, path := range [][]toguz.Move{a, b} {
		if diff := cmp.Diff(want, bk.Moves(after(t, path...))); diff != "" {
			t.Errorf("Moves after %v (-want +got):\n%s", path, diff)
		}
	}
}

func TestMovesOutOfBook(t *testing.T) {
	bk := build(t, Options{MinCount: 1}, smallGames...)
	for _, p := range []toguz.Position{after(t, 9), after(t, 7, 5, 3, 1), {}} {
		if es := bk.Moves(p); es != nil {
			t.Errorf("Moves(%s) = %v, want nil", p.FEN(), es)
		}
		if m, ok := bk.Pick(p, nil, Best); ok {
			t.Errorf("Pick(%s) = %d, true; want out of book", p.FEN(), m)
		}
	}
	// The same board under other rules is another position.
	start := toguz.StartPosition()
	s := start.Setup()
	s.Rules.PlayOut = true
	p, err := s.Position()
	if err != nil {
		t.Fatal(err)
	}
	if es := bk.Moves(p); es != nil {
		t.Errorf("Moves(start, play-out rules) = %v, want nil", es)
	}
}

// TestKeyCollision gives book positions the key of another position, as a
// 64-bit collision would: a lookup must answer by the whole position.
func TestKeyCollision(t *testing.T) {
	bk := build(t, Options{MinCount: 1, MaxPly: 2}, smallGames...)
	start, after7 := toguz.StartPosition(), after(t, 7)
	want := slices.Clone(bk.Moves(after7))
	// Every other position takes after 7's key: three positions share it.
	for i := range bk.nodes {
		if nd := &bk.nodes[i]; nd.pos != after7 {
			nd.key = after7.Key()
		}
	}
	slices.SortFunc(bk.nodes, compareNodes)
	if diff := cmp.Diff(want, bk.Moves(after7)); diff != "" {
		t.Errorf("after 7, sharing its key (-want +got):\n%s", diff)
	}
	// The start's moves are not found under its own key any more, and
	// not under after 7's key either.
	if got := bk.Moves(start); got != nil {
		t.Errorf("start under a wrong key: %v, want nil", got)
	}
	// Remove after 7: its key now leads only to other positions.
	bk.nodes = slices.DeleteFunc(bk.nodes, func(nd node) bool { return nd.pos == after7 })
	if got := bk.Moves(after7); got != nil {
		t.Errorf("after 7 removed, colliding positions left: got %v, want nil", got)
	}
}

func TestPick(t *testing.T) {
	var games []Game
	add := func(n int, r toguz.Result, m toguz.Move) {
		for range n {
			games = append(games, game(r, m))
		}
	}
	// 7: 60 games, 60%; 4: 30 games, 53%; 2: 3 games, 100% (too rare);
	// 6: 20 games, 25% (too weak for Varied).
	add(36, toguz.WhiteWins, 7)
	add(24, toguz.BlackWins, 7)
	add(16, toguz.WhiteWins, 4)
	add(14, toguz.BlackWins, 4)
	add(3, toguz.WhiteWins, 2)
	add(5, toguz.WhiteWins, 6)
	add(15, toguz.BlackWins, 6)
	bk := build(t, Options{MaxPly: 1}, games...)
	start := toguz.StartPosition()
	if m, ok := bk.Pick(start, nil, Best); !ok || m != 7 {
		t.Errorf("Pick(Best) = %d, %t; want 7", m, ok)
	}
	if m, ok := bk.Pick(start, nil, Varied); !ok || m != 7 {
		t.Errorf("Pick(Varied, nil rng) = %d, %t; want 7", m, ok)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	count := map[toguz.Move]int{}
	const n = 9000
	for range n {
		m, ok := bk.Pick(start, rng, Varied)
		if !ok {
			t.Fatal("Pick(Varied) out of book")
		}
		count[m]++
	}
	// 7 and 4 only, in proportion 60:30.
	if len(count) != 2 || count[7] < n*2/3-300 || count[7] > n*2/3+300 {
		t.Errorf("Varied picked %v in %d tries; want 7 about %d times, 4 the rest", count, n, n*2/3)
	}
}

func TestLookupAllocs(t *testing.T) {
	bk := build(t, Options{MinCount: 1}, smallGames...)
	rng := rand.New(rand.NewPCG(1, 2))
	p := after(t, 7)
	allocs := testing.AllocsPerRun(100, func() {
		if len(bk.Moves(p)) == 0 {
			t.Fatal("not in book")
		}
		bk.Pick(p, rng, Varied)
		bk.Pick(p, nil, Best)
	})
	if allocs != 0 {
		t.Errorf("Moves and Pick allocate %v times", allocs)
	}
}

func TestRoundTrip(t *testing.T) {
	opts := Options{MaxPly: 3, MinCount: 1, Description: "small games"}
	bk := build(t, opts, smallGames...)
	data, err := bk.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The build does not depend on the order of the games.
	reversed := slices.Clone(smallGames)
	slices.Reverse(reversed)
	again, err := build(t, opts, reversed...).MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Errorf("games in reverse order: %v, or another file", err)
	}
	name := filepath.Join(t.TempDir(), "small.book")
	if err := bk.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	got, err := Open(name)
	if err != nil {
		t.Fatal(err)
	}
	if got.Info() != bk.Info() || !slices.Equal(got.nodes, bk.nodes) || !slices.Equal(got.moves, bk.moves) {
		t.Errorf("read back %+v, wrote %+v", got.Info(), bk.Info())
	}
	onDisk, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, data) {
		t.Error("WriteFile and MarshalBinary differ")
	}
	var buf bytes.Buffer
	if _, err := got.WriteTo(&buf); err != nil || !bytes.Equal(buf.Bytes(), data) {
		t.Errorf("WriteTo after Open: %v, or different bytes", err)
	}
	entries, err := os.ReadDir(filepath.Dir(name))
	if err != nil || len(entries) != 1 {
		t.Errorf("directory after WriteFile: %v, %v; want the book alone", entries, err)
	}
}

// corrupt returns data changed by edit, with the checksum made right again
// when fix is set (so that the content checks are reached).
func corrupt(data []byte, fix bool, edit func(b []byte)) []byte {
	b := slices.Clone(data)
	edit(b)
	if fix {
		binary.LittleEndian.PutUint32(b[crcAt:], checksum(b))
	}
	return b
}

func TestReadErrors(t *testing.T) {
	bk := build(t, Options{MaxPly: 3, MinCount: 1, Description: "x"}, smallGames...)
	data, err := bk.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	posAt := headerSize + 1 // the first position record
	movesAt := posAt + posSize*bk.info.Positions
	le := binary.LittleEndian
	tests := []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrCorrupt, "no book header"},
		{"not a book", []byte(strings.Repeat("[Event \"x\"]\n", 10)), ErrCorrupt, "no book header"},
		{"truncated header", data[:20], ErrCorrupt, "no book header"},
		{"truncated", data[:len(data)-1], ErrCorrupt, "the header announces"},
		{"truncated to a record", data[:movesAt], ErrCorrupt, "the header announces"},
		{"trailing bytes", append(slices.Clone(data), 0), ErrCorrupt, "the header announces"},
		{"flipped bit", corrupt(data, false, func(b []byte) { b[movesAt+5] ^= 4 }), ErrCorrupt, "checksum"},
		{"flipped description", corrupt(data, false, func(b []byte) { b[headerSize] ^= 1 }), ErrCorrupt, "checksum"},
		{"version", corrupt(data, true, func(b []byte) { le.PutUint16(b[6:], 2) }), ErrVersion, "version 2"},
		{"rules", corrupt(data, true, func(b []byte) { b[8] = 12 }), ErrCorrupt, "rules"},
		{"wrong key", corrupt(data, true, func(b []byte) { b[posAt] ^= 1 }), ErrCorrupt, "key"},
		{"impossible position", corrupt(data, true, func(b []byte) { b[posAt+8] = 200 }), ErrCorrupt, "stones"},
		{"order", corrupt(data, true, func(b []byte) {
			a, c := slices.Clone(b[posAt:posAt+posSize]), slices.Clone(b[posAt+posSize:posAt+2*posSize])
			copy(b[posAt:], c)
			copy(b[posAt+posSize:], a)
		}), ErrCorrupt, "order"},
		{"no moves", corrupt(data, true, func(b []byte) { b[posAt+31] = 0 }), ErrCorrupt, "moves"},
		{"zero count", corrupt(data, true, func(b []byte) { le.PutUint32(b[movesAt+4:], 0) }), ErrCorrupt, "count 0"},
		{"more results than games", corrupt(data, true, func(b []byte) { le.PutUint32(b[movesAt+8:], 100) }), ErrCorrupt, "wins"},
		{"illegal move", corrupt(data, true, func(b []byte) { b[movesAt] = 10 }), ErrCorrupt, "illegal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bk, err := Read(tt.data)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Read: %v, want %v with %q", err, tt.want, tt.msg)
			}
			if bk != nil {
				t.Error("Read returned a book with its error")
			}
		})
	}
	// Every truncation is an error, never a panic.
	for n := range len(data) {
		if _, err := Read(data[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("Read(first %d of %d bytes): %v, want ErrCorrupt", n, len(data), err)
		}
	}
	name := filepath.Join(t.TempDir(), "bad.book")
	if err := os.WriteFile(name, data[:40], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(name); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), name) {
		t.Errorf("Open(truncated file): %v, want ErrCorrupt naming the file", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing.book")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(missing file): %v, want os.ErrNotExist", err)
	}
}

// kazanLead is a check that searches nothing: the mover's kazan lead.
func kazanLead(_ context.Context, p toguz.Position) int {
	me := p.Turn()
	return 100 * (p.Kazan(me) - p.Kazan(me.Other()))
}

func TestCheck(t *testing.T) {
	// From the start every move but 1 captures 10 stones: 1 is 10 stones
	// worse than the best by kazanLead.
	tests := []struct {
		name   string
		result toguz.Result // of the games with move 1
		keep1  bool
	}{
		{"lost badly", toguz.BlackWins, false},
		{"worse but won", toguz.WhiteWins, true},
		{"worse but scored as well", toguz.Draw, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bk := build(t, Options{MaxPly: 1, Check: kazanLead, CheckMargin: 500},
				game(tt.result, 1), game(tt.result, 1), game(toguz.Draw, 7), game(toguz.Draw, 7))
			want := []Entry{{Move: 7, Eval: 1000, Count: 2, Draws: 2}}
			if tt.keep1 {
				e := Entry{Move: 1, Eval: 0, Count: 2}
				if tt.result == toguz.Draw {
					e.Draws = 2
				} else {
					e.Wins = 2
				}
				want = append([]Entry{e}, want...)
			}
			if diff := cmp.Diff(want, bk.Moves(toguz.StartPosition())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := NewBuilder(Options{Check: kazanLead})
	if err := b.AddGame(game(toguz.Draw, 7, 5)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Build(cancelled): %v, want context.Canceled", err)
	}
}

// FuzzRead checks that Read never panics and that what it accepts writes
// back to the same bytes.
func FuzzRead(f *testing.F) {
	data, err := build(f, Options{MaxPly: 3, MinCount: 1}, smallGames...).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add(data[:headerSize])
	f.Fuzz(func(t *testing.T, data []byte) {
		bk, err := Read(data)
		if err != nil {
			return
		}
		again, err := bk.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Errorf("read and written back: %v, or different bytes", err)
		}
	})
}
