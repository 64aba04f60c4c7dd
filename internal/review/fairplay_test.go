package review

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// selfPlay returns n plies of the engine at depth 1 from the start: a
// game long enough to have judged moves on both sides.
func selfPlay(t *testing.T, n int) []toguz.Move {
	t.Helper()
	opts := engine.DefaultOptions()
	opts.Book, opts.HashMB = nil, 1
	e, err := engine.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p := toguz.StartPosition()
	var moves []toguz.Move
	for len(moves) < n && !p.IsOver() {
		m := e.Search(context.Background(), p, engine.Limits{Depth: 1}, nil).Best
		moves = append(moves, m)
		p = p.After(m)
	}
	return moves
}

// TestQueueFairPlay: a finished rated game between two accounts ends up,
// after its review, with the fair-play evidence of both sides, each with
// its account, its rating before the game, and its moves' times from the
// clocks; a casual game against a guest gets the account's row only,
// never flagged.
func TestQueueFairPlay(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "toguz.db"))
	ctx := t.Context()
	a, err := s.CreateUser(ctx, "Abai", "h")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.CreateUser(ctx, "Bolat", "h")
	if err != nil {
		t.Fatal(err)
	}
	moves := selfPlay(t, 60)
	play := func(seats [2]game.Seat, rated bool) string {
		tc := clock.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}
		g, err := s.CreateGame(ctx, store.Game{Players: seats, Rules: toguz.Standard(), TimeControl: tc, Rated: rated, Status: game.Playing}, nil)
		if err != nil {
			t.Fatal(err)
		}
		left := [2]time.Duration{tc.Base, tc.Base}
		for i, m := range moves {
			left[i%2] += tc.Increment - time.Duration(1+i%7)*time.Second
			if err := s.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m, Clock: left[i%2]}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation}); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	rated := play([2]game.Seat{{ID: "u:1", UserID: a.ID, Name: "Abai"}, {ID: "u:2", UserID: b.ID, Name: "Bolat"}}, true)
	casual := play([2]game.Seat{{ID: "g:x", Name: "Guest-x", Guest: true}, {ID: "u:2", UserID: b.ID, Name: "Bolat"}}, false)
	rec := newRecorder()
	q, err := Start(ctx, Config{Jobs: s, Games: store.LiveStore{S: s}, Workers: 1, Depth: 2, Done: rec.Done,
		Poll: 10 * time.Millisecond, Foreground: true, FairPlay: s})
	if err != nil {
		t.Fatal(err)
	}
	rec.wait(t, 2)
	q.Stop()
	rows, err := s.FairPlayByGame(ctx, rated)
	if err != nil || len(rows) != 2 {
		t.Fatalf("rated game: %d rows, %v; want 2", len(rows), err)
	}
	for i, want := range []int64{a.ID, b.ID} {
		r := rows[i]
		if r.UserID != want || r.Side != []string{"white", "black"}[i] || !r.Rated || r.Rating != 1500 ||
			r.Moves < 10 || r.Agree1 < 0 || r.Agree1 > 1 || r.IPR < 0 || r.Timed != r.Moves {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	rows, err = s.FairPlayByGame(ctx, casual)
	if err != nil || len(rows) != 1 || rows[0].UserID != b.ID || rows[0].Rated || rows[0].Flag {
		t.Errorf("casual game with a guest: %+v, %v; want Bolat's unflagged row only", rows, err)
	}
}

// TestProcessEvidence: the worker process computes the same fair-play
// evidence as this process, with the moves' times, and answers a bad job
// with an error; a job with more times than plies is refused.
func TestProcessEvidence(t *testing.T) {
	t.Setenv("TOGUZ_REVIEW_WORKER", "1")
	p := NewProcess([]string{os.Args[0]})
	defer p.Close()
	start := toguz.StartPosition()
	moves := selfPlay(t, 30)
	times := make([]time.Duration, len(moves))
	for i := range times {
		times[i] = time.Duration(i+1) * time.Second
	}
	local, err := NewLocal(true)
	if err != nil {
		t.Fatal(err)
	}
	want, err := local.Evidence(t.Context(), start, moves, times)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Evidence(t.Context(), start, moves, times)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got) != len(moves) || got[len(got)-1].Time != times[len(times)-1] {
		t.Errorf("the process's evidence differs:\n%+v\nwant\n%+v", got, want)
	}
	if _, err := p.Evidence(t.Context(), start, []toguz.Move{5, 5, 5, 5, 5, 5}, nil); err == nil {
		t.Error("an illegal game judged")
	}
	if _, err := p.Evidence(t.Context(), start, moves[:2], times); err == nil {
		t.Error("more times than plies accepted")
	}
}

// TestMoveTimes: each ply's time is the mover's clock before it plus the
// increment less the clock after it; games without clocks have none.
func TestMoveTimes(t *testing.T) {
	s := time.Second
	tc := clock.TimeControl{Base: 60 * s, Increment: 2 * s}
	moves := []game.PlayedMove{
		{By: toguz.White, Clock: [2]time.Duration{57 * s, 60 * s}}, // 5 s
		{By: toguz.Black, Clock: [2]time.Duration{57 * s, 61 * s}}, // 1 s
		{By: toguz.White, Clock: [2]time.Duration{49 * s, 61 * s}}, // 10 s
		{By: toguz.Black, Clock: [2]time.Duration{49 * s, 63 * s}}, // no time: at least a millisecond
	}
	for _, tc := range []struct {
		name string
		g    game.Saved
		want []time.Duration
	}{
		{"clocks", game.Saved{Spec: game.Spec{TC: tc}, Moves: moves}, []time.Duration{5 * s, s, 10 * s, time.Millisecond}},
		{"unlimited", game.Saved{Moves: moves}, nil},
		{"correspondence", game.Saved{Spec: game.Spec{TC: clock.TimeControl{Days: 2}}, Moves: moves}, nil},
	} {
		if got := moveTimes(tc.g); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDeepBest: a review searched to the evidence's deeper depth gives
// its best move of every ply; one at another depth, of another game's
// length or unreadable gives none.
func TestDeepBest(t *testing.T) {
	review := func(depth int, best ...toguz.Move) []byte {
		d := Data{Version: Version, Depth: depth}
		for _, b := range best {
			d.Plies = append(d.Plies, Ply{Move: 1, Best: b})
		}
		raw, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	if got := deepBest(review(fairplay.DeepDepth, 3, 9, 1), 3); !slices.Equal(got, []toguz.Move{3, 9, 1}) {
		t.Errorf("at depth %d: %v", fairplay.DeepDepth, got)
	}
	for name, raw := range map[string][]byte{
		"another depth":  review(fairplay.DeepDepth-2, 3, 9, 1),
		"another length": review(fairplay.DeepDepth, 3, 9),
		"unreadable":     []byte("review: failed"),
	} {
		if got := deepBest(raw, 3); got != nil {
			t.Errorf("%s: %v; want none", name, got)
		}
	}
}
