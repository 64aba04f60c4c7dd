package store

import (
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
)

// TestStartColumn: the start_fen column reads into a game.Start and writes
// back byte for byte ("" for the rules' start, a set-up start with its
// move number); a column that does not parse is an error.
func TestStartColumn(t *testing.T) {
	initial, err := toguz.NewPosition(toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	for _, fen := range []string{"", initial.FEN(), "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 30"} {
		st, err := parseStart(fen, toguz.Standard())
		if err != nil {
			t.Fatalf("%q: %v", fen, err)
		}
		if st.IsZero() != (fen == "") {
			t.Errorf("%q read as %+v", fen, st)
		}
		if got := startFEN(st); got != fen {
			t.Errorf("%q written back as %q", fen, got)
		}
	}
	if _, err := parseStart("not a position", toguz.Standard()); err == nil {
		t.Error("a corrupt start_fen: no error")
	}
}

// TestStatusColumn: the status column's words, game.Playing's "started"
// included, read back as the status written.
func TestStatusColumn(t *testing.T) {
	for st, word := range map[game.Status]string{game.Created: "created", game.Playing: "started",
		game.Ended: "ended", game.Aborted: "aborted"} {
		if got := statusText(st); got != word {
			t.Errorf("statusText(%v) = %q, want %q", st, got, word)
		}
		if got, err := parseStatus(word); err != nil || got != st {
			t.Errorf("parseStatus(%q) = %v, %v; want %v", word, got, err, st)
		}
	}
	if _, err := parseStatus("playing"); err == nil {
		t.Error(`parseStatus("playing"): no error; the column says "started"`)
	}
}
