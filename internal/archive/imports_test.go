package archive

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/i18n"
)

// tinyGame is the smallest game a record holds.
const tinyGame = "[Result \"*\"]\n\n1. 76 98 *\n\n"

// rulesErr is Config.RulesError for the tests here, whose games break no
// rule: the site words those errors (internal/server tests them on the
// import page), and one here is a failure.
func rulesErr(_ int, _ apierr.Code, err error) *apierr.Error {
	panic(fmt.Sprintf("a game broke the rules: %v", err))
}

// TestImportDeadline: past its deadline, an import is refused between
// games, saying why; a client gone is not an import error.
func TestImportDeadline(t *testing.T) {
	ctx, cancel := context.WithDeadline(t.Context(), time.Now())
	defer cancel()
	_, err := importGames(ctx, "games.pgn", strings.NewReader(strings.Repeat(tinyGame, 10)), rulesErr)
	var ie *importError
	if !errors.As(err, &ie) || ie.status != http.StatusRequestEntityTooLarge ||
		!strings.Contains(apierr.Message(i18n.New(), "en", ie.errs[0]), "took more than 5 s (games read: 0)") {
		t.Errorf("past the deadline: %v, want a 413 saying it took too long", err)
	}
	ctx, cancel = context.WithCancel(t.Context())
	cancel()
	if _, err := importGames(ctx, "games.pgn", strings.NewReader(tinyGame), rulesErr); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v, want context.Canceled", err)
	}
}

// TestImportGate: an address runs at most MaxImportsPerAddr imports at
// once (429 beyond), and the server MaxImportsRunning, a further one
// waiting importWait for a slot, then refused with 503 busy.
func TestImportGate(t *testing.T) {
	g := ImportGate{perMinute: -1} // TestImportsPerMinute tests that bound
	log := slog.New(slog.DiscardHandler)
	var leaves []func()
	for range MaxImportsPerAddr {
		leave, err := g.Enter(t.Context(), log, "10.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		leaves = append(leaves, leave)
	}
	if _, err := g.Enter(t.Context(), log, "10.0.0.1"); err == nil || err.Status != http.StatusTooManyRequests {
		t.Fatalf("a third import from one address: %v, want 429", err)
	}
	for i := MaxImportsPerAddr; i < MaxImportsRunning; i++ {
		leave, err := g.Enter(t.Context(), log, fmt.Sprintf("10.0.0.%d", 2+i))
		if err != nil {
			t.Fatal(err)
		}
		leaves = append(leaves, leave)
	}
	start := time.Now()
	if _, err := g.Enter(t.Context(), log, "10.0.1.1"); err == nil || err.Status != http.StatusServiceUnavailable || err.Code != apierr.CodeBusy {
		t.Fatalf("an import past the global bound: %v, want 503 busy", err)
	}
	if waited := time.Since(start); waited < importWait {
		t.Errorf("refused after %v, want a wait of %v", waited, importWait)
	}
	// A slot given back admits one that waits.
	go func() {
		time.Sleep(50 * time.Millisecond)
		leaves[0]()
		leaves[0]() // twice gives back once
	}()
	leave, err := g.Enter(t.Context(), log, "10.0.1.1")
	if err != nil {
		t.Fatalf("waiting for a slot given back: %v", err)
	}
	leave()
	if _, err := g.Enter(t.Context(), log, "10.0.0.1"); err != nil {
		t.Errorf("10.0.0.1 after one of its imports ended: %v", err)
	}
	if st := g.Stats(); st.RefusedAddr != 1 || st.RefusedBusy != 1 {
		t.Errorf("stats %+v, want one refused per address and one busy", st)
	}
}

// TestImportsPerMinute: an address starts at most ImportBurst imports at
// once and then importsPerMinute a minute, so that imports refused at once
// one after another cannot take the CPUs; another address is not held up.
func TestImportsPerMinute(t *testing.T) {
	var g ImportGate
	log := slog.New(slog.DiscardHandler)
	for i := range ImportBurst {
		leave, err := g.Enter(t.Context(), log, "10.0.0.1")
		if err != nil {
			t.Fatalf("import %d: %v", i+1, err)
		}
		leave()
	}
	if _, err := g.Enter(t.Context(), log, "10.0.0.1"); err == nil || err.Status != http.StatusTooManyRequests || err.Code != apierr.CodeRateLimited {
		t.Fatalf("import %d in a row: %v, want 429 rate_limited", ImportBurst+1, err)
	}
	leave, err := g.Enter(t.Context(), log, "10.0.0.2")
	if err != nil {
		t.Fatalf("another address: %v", err)
	}
	leave()
}

// TestImportMoveNumbers: the positions of an imported game carry their
// full-move numbers, from the start and from a FEN tag's number.
func TestImportMoveNumbers(t *testing.T) {
	p := toguz.StartPosition()
	var moves []toguz.Move
	for range 44 {
		m := p.LegalMoves().Slice()[0]
		moves = append(moves, m)
		p = p.After(m)
	}
	g, err := toguz.NewGame(toguz.StartPosition(), moves...)
	if err != nil {
		t.Fatal(err)
	}
	start, err := toguz.StartPosition().Play(6)
	if err != nil {
		t.Fatal(err)
	}
	h, err := toguz.NewGame(start, 1, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	h.StartMove = 30
	for _, tc := range []struct {
		g           *toguz.Game
		first, last string // suffixes of the first and last position strings
	}{
		{g, " S 1", " S 23"},
		{h, " N 30", " S 32"},
	} {
		ims, err := importGames(t.Context(), "game.txt", strings.NewReader(tc.g.String()), rulesErr)
		if err != nil || len(ims) != 1 {
			t.Fatalf("%d games, %v", len(ims), err)
		}
		ps := ims[0].positions
		if len(ps) != len(tc.g.Plies)+1 || !strings.HasSuffix(ps[0], tc.first) || !strings.HasSuffix(ps[len(ps)-1], tc.last) {
			t.Errorf("positions %q … %q, want … %q and … %q", ps[0], ps[len(ps)-1], tc.first, tc.last)
		}
	}
}
