package toguz

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/toguz/toguz/internal/shareddata"
)

// readAll reads every game of src with a GameReader, as ParseGames returns
// them.
func readAll(src io.Reader, file string, f Format) ([]*Game, Format, error) {
	gr := NewGameReader(src, file, f)
	var games []*Game
	for g, err := range gr.All() {
		if err != nil {
			return games, gr.Format(), err
		}
		games = append(games, g)
	}
	return games, gr.Format(), nil
}

// chunked returns readers of text that hand it over in pieces of every
// size, so that each token, comment and tag meets the end of the window.
func chunked(text string) map[string]io.Reader {
	return map[string]io.Reader{
		"one byte": iotest.OneByteReader(strings.NewReader(text)),
		"halves":   iotest.HalfReader(strings.NewReader(text)),
		"with EOF": iotest.DataErrReader(strings.NewReader(text)),
	}
}

// sameRead checks that a GameReader over src reads what ParseGames reads
// from text (games, where each was read, and the error).
func sameRead(t *testing.T, how, text string, src io.Reader, f Format) {
	t.Helper()
	want, werr := ParseGames("f", []byte(text), f)
	got, format, err := readAll(src, "f", f)
	if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%s, %q: %d games, %v; ParseGames: %d games, %v", how, excerpt(text), len(got), err, len(want), werr)
	}
	if f == 0 && werr == nil && format != DetectFormat([]byte(text)) {
		t.Fatalf("%s, %q: detected %s, DetectFormat says %s", how, excerpt(text), format, DetectFormat([]byte(text)))
	}
}

// TestGameReaderChunks: a GameReader reads the same games and errors
// whatever size of pieces its source hands over, in every format and
// with the format detected.
func TestGameReaderChunks(t *testing.T) {
	texts := []string{
		"",
		bom + "[Event \"x\"]\n[Result \"1-0\"]\n\n{c {not nested \\} still} 1. 76(10) 98 ; to the end\n2. 66 87 1-0\n",
		"[Site \"PlayOK\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 0-1 {zero}\n\n[Site \"PlayOK\"]\n[Result \"*\"]\n\n1. 76(10) *",
		"[ID \"x\"]\n\n1. 76 76\n2. 99 12\n[White \"a\"]\n\n[White \"b\"]\n",
		"f1e2 d2e1 i1a2 b2i1 b1g2 f2e1",
		"[Event \"x\"]\n[Result \"1-0\"]\n\n1. 76 98\n2. 6(",
		"[Event \"x\n",
		"[Result \"1-0\"]\n\n1. 76 1-0 87",
		"1. 76 {oops",
	}
	for _, f := range dataFiles {
		texts = append(texts, string(shareddata.Read(t, f.name)))
	}
	for _, text := range texts {
		for _, f := range []Format{0, FormatToguz, FormatPlayOK, FormatTGK, FormatPlayStrategy} {
			for how, src := range chunked(text) {
				sameRead(t, how, text, src, f)
			}
		}
	}
}

// TestGameReaderErrors: a game over the bound, a source that fails and a
// tag value too long to quote are errors naming the game, each short.
func TestGameReaderErrors(t *testing.T) {
	failing := errors.New("disk on fire")
	head := "[Result \"*\"]\n\n1. 76 98 *\n\n"
	for _, tc := range []struct {
		name      string
		src       io.Reader
		max       int
		err       error
		want      string
		line, col int // col 0: where the last read ended
		game      int
	}{
		{"a token over the bound", io.MultiReader(strings.NewReader(head+"[Result \"*\"]\n\n1. "), zeros('z')), 1 << 16,
			ErrTooLarge, `more than 65536 bytes in one game, reading "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…"`, 7, 4, 2},
		{"a comment over the bound", io.MultiReader(strings.NewReader(head+"[Event \"e\"]\n{"), zeros('c')), 0,
			ErrTooLarge, `more than 1048576 bytes in one game, reading "{ccc`, 6, 1, 2},
		{"white space between games", io.MultiReader(strings.NewReader(head), io.LimitReader(zeros(' '), 3<<20), strings.NewReader("[Result \"*\"]\n\n1. zz *")), 1 << 16,
			ErrSyntax, `"zz": want a ply`, 7, 4, 2},
		{"a read error", io.MultiReader(strings.NewReader(head+"[Result \"*\"]\n\n1. 76"), iotest.ErrReader(failing)), 0,
			failing, "reading the file: disk on fire", 5, 1, 2},
		{"a read error while detecting", io.MultiReader(strings.NewReader("[Result \"*\"]\n\n*\n\n[Result \"*\"]\n\n1. 76"), iotest.ErrReader(failing)), 0,
			failing, "reading the file: disk on fire", 5, 1, 2},
		{"data with a read error", &errAfter{strings.NewReader(head + "[Result \"*\"]\n\n1. 76"), failing}, 0,
			failing, "reading the file: disk on fire", 5, 1, 2},
		{"a FEN too long to quote", strings.NewReader("[FEN \"" + strings.Repeat("9S,", 1000) + "\"]\n\n*"), 0,
			ErrSyntax, `tag FEN: a value of 3000 bytes, "9S,9S,9S,9S,9S,9S,9S,9S,9S,9S,9S,9S,9S,9…": want at most 256`, 1, 7, 1},
		{"a tag value over the bound", io.MultiReader(strings.NewReader("[White \""), zeros('w')), 1 << 16,
			ErrTooLarge, `more than 65536 bytes in one game, reading "…wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"`, 1, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gr := NewGameReader(tc.src, "big.pgn", 0)
			gr.MaxGameBytes = tc.max
			var err error
			games := 0
			for _, err = range gr.All() {
				if err == nil {
					games++
				}
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want a *ParseError wrapping %v", err, tc.err)
			}
			if !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 200 {
				t.Errorf("error %q (%d bytes), want at most 200 bytes saying %q", err, len(err.Error()), tc.want)
			}
			if !strings.HasPrefix(err.Error(), "big.pgn:") || pe.Line != tc.line || tc.col != 0 && pe.Column != tc.col || pe.Game != tc.game || games != tc.game-1 {
				t.Errorf("error at %d:%d game %d after %d games, want %d:%d game %d: %v", pe.Line, pe.Column, pe.Game, games, tc.line, tc.col, tc.game, err)
			}
			if _, again := gr.Next(); again != err {
				t.Errorf("Next after the error: %v, want the error again", again)
			}
		})
	}
}

// errAfter hands over all of r in one read, with err.
type errAfter struct {
	r   io.Reader
	err error
}

func (e *errAfter) Read(p []byte) (int, error) {
	n, _ := io.ReadFull(e.r, p)
	return n, e.err
}

// zeros is an endless source of c.
func zeros(c byte) io.Reader { return &repeater{text: bytes.Repeat([]byte{c}, 4096)} }

// repeater hands over text again and again, n times (0: for ever), and
// counts the bytes it handed over.
type repeater struct {
	text []byte
	n    int
	off  int
	read int64
}

func (r *repeater) Read(p []byte) (int, error) {
	if r.n > 0 && r.read >= int64(r.n)*int64(len(r.text)) {
		return 0, io.EOF
	}
	k := copy(p, r.text[r.off:])
	r.off = (r.off + k) % len(r.text)
	r.read += int64(k)
	return k, nil
}

// TestGameReaderMemory: reading 40 MB of games holds one game at a time:
// the window never grows past a game and a chunk, and the heap stays
// small while the whole file goes through.
func TestGameReaderMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 40 MB")
	}
	game := "[Event \"e\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. 76(10) 98 2. 66 87 {a comment} *\n\n"
	src := &repeater{text: []byte(game), n: 40 << 20 / len(game)}
	gr := NewGameReader(src, "big.pgn", 0)
	var peak uint64
	games := 0
	for g, err := range gr.All() {
		if err != nil {
			t.Fatal(err)
		}
		games++
		if len(gr.r.data) > 2*readChunk+len(game) {
			t.Fatalf("game %d: the window holds %d bytes", games, len(gr.r.data))
		}
		if games%100_000 == 0 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
		_ = g
	}
	if games != src.n || gr.Format() != FormatToguz {
		t.Errorf("%d games read as %s, want %d as toguz", games, gr.Format(), src.n)
	}
	t.Logf("%d games, %d MB, heap in use at most %.1f MB", games, src.read>>20, float64(peak)/(1<<20))
	if peak > 16<<20 {
		t.Errorf("heap in use %d bytes reading a 40 MB file, want under 16 MiB", peak)
	}
}

// TestGameReaderBoundReads: a game over the bound stops the reading near
// the bound, not at the end of the source.
func TestGameReaderBoundReads(t *testing.T) {
	src := &repeater{text: []byte("zzzz"), n: 50 << 20 / 4}
	gr := NewGameReader(io.MultiReader(strings.NewReader("1. "), src), "", FormatToguz)
	if _, err := gr.Next(); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error %v, want ErrTooLarge", err)
	}
	if src.read > 3*DefaultMaxGameBytes {
		t.Errorf("read %d bytes of a 50 MB token before refusing it", src.read)
	}
}

// TestExcerpt: an excerpt is cut at a rune boundary, with an ellipsis.
func TestExcerpt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("z", 40), strings.Repeat("z", 40)},
		{strings.Repeat("z", 41), strings.Repeat("z", 40) + "…"},
		{"z" + strings.Repeat("ж", 30), "z" + strings.Repeat("ж", 19) + "…"},
	} {
		if got := excerpt(tc.in); got != tc.want {
			t.Errorf("excerpt(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"short", "short"},
		{strings.Repeat("z", 41), "…" + strings.Repeat("z", 40)},
		{strings.Repeat("ж", 30) + "z", "…" + strings.Repeat("ж", 19) + "z"},
	} {
		if got := excerptEnd(tc.in); got != tc.want {
			t.Errorf("excerptEnd(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestGameWriter: games written one at a time are the bytes WriteGames
// writes of them all, in every format.
func TestGameWriter(t *testing.T) {
	games := writerCases(t)
	for _, f := range writers {
		var hold []*Game
		for _, g := range games {
			if canHold(f, g) {
				hold = append(hold, g)
			}
		}
		var all, one bytes.Buffer
		if err := WriteGames(&all, f, hold...); err != nil {
			t.Fatal(err)
		}
		gw := NewGameWriter(&one, f)
		for _, g := range hold {
			if err := gw.Write(g); err != nil {
				t.Fatal(err)
			}
		}
		if one.String() != all.String() || len(hold) < 2 {
			t.Errorf("%s: %d games one at a time:\n%s\nall at once:\n%s", f, len(hold), one.String(), all.String())
		}
	}
}
