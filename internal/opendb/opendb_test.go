package opendb

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/store"
)

// readFile reads a month file back with the rules library.
func readFile(t *testing.T, path string) []*toguz.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := toguz.ParseGames(path, data, toguz.FormatToguz)
	if err != nil {
		t.Fatal(err)
	}
	return gs
}

// markFile writes path as a gzip file of the given header comment and
// other contents, which an export that writes it again replaces; it
// returns the bytes written.
func markFile(t *testing.T, path, comment string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Comment = comment
	zw.Write([]byte("kept"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestExport: the rated games of two months go to two files, in order,
// with their ratings; unrated and unfinished games stay out; a finished
// month is written once, the current one again.
func TestExport(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, _ := st.CreateUser(ctx, "abai", "x")
	b, _ := st.CreateUser(ctx, "bolat", "x")
	blitz := clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}
	oct := time.Date(2026, 10, 20, 10, 0, 0, 0, time.UTC)
	nov := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	play := func(created time.Time, rated bool, moves []toguz.Move, res toguz.Result) string {
		g, err := st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
			TimeControl: blitz, Rated: rated, Status: game.Playing, Created: created}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range moves {
			if err := st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if res != toguz.NoResult {
			if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: res, Termination: toguz.ByResignation}); err != nil {
				t.Fatal(err)
			}
		}
		return g.ID
	}
	o1 := play(oct, true, []toguz.Move{7, 3}, toguz.WhiteWins)
	o2 := play(oct.Add(time.Hour), true, []toguz.Move{2}, toguz.BlackWins)
	play(oct.Add(2*time.Hour), false, []toguz.Move{5}, toguz.Draw) // unrated
	n1 := play(nov, true, []toguz.Move{9, 9, 1}, toguz.Draw)
	play(nov.Add(time.Hour), true, []toguz.Move{4}, toguz.NoResult) // still played
	dir := t.TempDir()
	now := time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	files, err := Export(ctx, st, dir, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 || files[0].Name != "toguz-rated-2026-10.pgn.gz" || files[0].Games != 2 || files[1].Games != 1 ||
		files[2].Name != PuzzlesName || files[2].Puzzles < 3000 {
		t.Fatalf("files %+v", files)
	}
	octGames := readFile(t, filepath.Join(dir, files[0].Name))
	var ids []string
	for _, g := range octGames {
		ids = append(ids, g.Tag("ID"))
	}
	if !slices.Equal(ids, []string{o1, o2}) || octGames[0].Tag("WhiteElo") != "1500" || octGames[0].Tag("White") != "abai" ||
		!slices.Equal(octGames[0].Moves(), []toguz.Move{7, 3}) || octGames[0].Result != toguz.WhiteWins || octGames[1].Result != toguz.BlackWins {
		t.Errorf("October: %v", octGames)
	}
	if g := readFile(t, filepath.Join(dir, files[1].Name)); len(g) != 1 || g[0].Tag("ID") != n1 || g[0].Result != toguz.Draw {
		t.Errorf("November: %v", g)
	}
	// Again: October is over and stays as written (marked here: a file of
	// its header's counts and other games), November is written again with
	// its new game.
	octPath := filepath.Join(dir, files[0].Name)
	mark := markFile(t, octPath, "games=2")
	n2 := play(nov.Add(2*time.Hour), true, []toguz.Move{1}, toguz.WhiteWins)
	files, err = Export(ctx, st, dir, now)
	if err != nil || len(files) != 2 || files[0].Games != 2 || files[1].Name != PuzzlesName {
		t.Fatalf("second export: %+v, %v", files, err)
	}
	if b, _ := os.ReadFile(octPath); !bytes.Equal(b, mark) {
		t.Error("October's file was written again")
	}
	if g := readFile(t, filepath.Join(dir, files[0].Name)); len(g) != 2 || g[1].Tag("ID") != n2 {
		t.Errorf("November again: %v", g)
	}
	list, err := List(dir)
	if err != nil || len(list) != 2 || list[0].Name != "toguz-rated-2026-11.pgn.gz" || list[0].Games != 2 || list[0].Size == 0 {
		t.Errorf("List: %+v, %v", list, err)
	}
}

// TestExportReviews: a game with a finished review carries each ply's
// evaluation as a comment and the review's tags; games whose review is
// running, failed or of other moves are written without; the file reads
// back with both readers and writes back to the same bytes.
func TestExportReviews(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"), store.Options{Reviews: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, _ := st.CreateUser(ctx, "abai", "x")
	b, _ := st.CreateUser(ctx, "bolat", "x")
	day := time.Date(2026, 10, 20, 10, 0, 0, 0, time.UTC)
	play := func(i int, moves []toguz.Move) string {
		g, err := st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{UserID: a.ID}, {UserID: b.ID}}, Rules: toguz.Standard(),
			Rated: true, Status: game.Playing, Created: day.Add(time.Duration(i) * time.Hour)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, m := range moves {
			if err := st.AppendMove(ctx, g.ID, store.Move{Ply: j + 1, Hole: m}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation}); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	plies := func(evals ...engine.Score) func([]toguz.Move) []review.Ply {
		return func(moves []toguz.Move) []review.Ply {
			ps := make([]review.Ply, len(evals))
			for i, e := range evals {
				ps[i] = review.Ply{Move: moves[i], Eval: e}
			}
			return ps
		}
	}
	tests := []struct {
		name     string
		moves    []toguz.Move
		status   store.ReviewStatus // of the review job; "" leaves it running
		version  int
		plies    func([]toguz.Move) []review.Ply
		accuracy [2]float64
		tags     map[string]string // "" for a tag that must be absent
		comments []string
	}{
		{name: "reviewed", moves: []toguz.Move{7, 3, 9}, status: store.ReviewDone, version: review.Version,
			plies: plies(125, -50, engine.MateScore-4), accuracy: [2]float64{91.5, 62},
			tags:     map[string]string{"Review": "depth 10", "WhiteAccuracy": "91.5", "BlackAccuracy": "62.0"},
			comments: []string{"[%eval +1.25]", "[%eval -0.50]", "[%eval #4]"}},
		{name: "reviewed, one side without accuracy", moves: []toguz.Move{2, 5}, status: store.ReviewDone, version: review.Version,
			plies: plies(0, -engine.MateScore+7), accuracy: [2]float64{80, -1},
			tags:     map[string]string{"Review": "depth 10", "WhiteAccuracy": "80.0", "BlackAccuracy": ""},
			comments: []string{"[%eval +0.00]", "[%eval #-7]"}},
		{name: "running", moves: []toguz.Move{1, 1},
			tags: map[string]string{"Review": "", "WhiteAccuracy": ""}, comments: []string{"", ""}},
		{name: "failed", moves: []toguz.Move{4}, status: store.ReviewFailed,
			tags: map[string]string{"Review": ""}, comments: []string{""}},
		{name: "another format", moves: []toguz.Move{6}, status: store.ReviewDone, version: review.Version + 1,
			plies: plies(10), tags: map[string]string{"Review": ""}, comments: []string{""}},
		{name: "other moves", moves: []toguz.Move{8, 2}, status: store.ReviewDone, version: review.Version,
			plies: func([]toguz.Move) []review.Ply { return []review.Ply{{Move: 8, Eval: 1}, {Move: 3, Eval: 2}} },
			tags:  map[string]string{"Review": ""}, comments: []string{"", ""}},
	}
	ids := make([]string, len(tests))
	byID := map[string]int{}
	for i, tc := range tests {
		ids[i] = play(i, tc.moves)
		byID[ids[i]] = i
	}
	// Take every job; those of no status are left running, not done.
	for {
		r, ok, err := st.NextReview(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		tc := tests[byID[r.GameID]]
		switch tc.status {
		case store.ReviewDone:
			data, merr := json.Marshal(review.Data{Version: tc.version, Depth: 10, Plies: tc.plies(tc.moves), Accuracy: tc.accuracy})
			if merr != nil {
				t.Fatal(merr)
			}
			err = st.FinishReview(ctx, r.GameID, review.Settings(10), data, false)
		case store.ReviewFailed:
			err = st.FinishReview(ctx, r.GameID, "", []byte("engine stopped"), true)
		default:
			continue // left running: neither pending nor done is written
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	now := time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC)
	files, err := Export(ctx, st, dir, now)
	if err != nil || len(files) != 2 || files[0].Games != len(tests) || files[0].Pending != 1 {
		t.Fatalf("Export: %+v, %v (want the running review pending)", files, err)
	}
	if list, err := List(dir); err != nil || len(list) != 1 || list[0].Pending != 1 || list[0].Games != len(tests) {
		t.Errorf("List: %+v, %v", list, err)
	}
	path := filepath.Join(dir, files[0].Name)
	games := readFile(t, path)
	for i, tc := range tests {
		g := games[i]
		if g.Tag("ID") != ids[i] {
			t.Fatalf("%s: game %d is %s, want %s", tc.name, i, g.Tag("ID"), ids[i])
		}
		for name, want := range tc.tags {
			if got := g.Tag(name); got != want {
				t.Errorf("%s: tag %s = %q, want %q", tc.name, name, got, want)
			}
		}
		var comments []string
		for _, p := range g.Plies {
			comments = append(comments, p.Comment)
		}
		if !slices.Equal(comments, tc.comments) || !slices.Equal(g.Moves(), tc.moves) {
			t.Errorf("%s: moves %v comments %q, want %v %q", tc.name, g.Moves(), comments, tc.moves, tc.comments)
		}
	}
	// Round trips: the games write back to the file's bytes, and the tree
	// reader keeps the comments.
	f, _ := os.Open(path)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(zr)
	var buf bytes.Buffer
	gw := toguz.NewGameWriter(&buf, toguz.FormatToguz)
	for _, g := range games {
		if err := gw.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Errorf("written back:\n%s\nwant:\n%s", buf.Bytes(), data)
	}
	trees, err := toguz.ParseTrees(path, data, toguz.FormatToguz)
	if err != nil || len(trees) != len(tests) {
		t.Fatalf("ParseTrees: %d, %v", len(trees), err)
	}
	if n := trees[0].Root.Children[0]; n.Comment != "[%eval +1.25]" {
		t.Errorf("tree: first comment %q", n.Comment)
	}

	// October is over, but a review was still running: the next export
	// writes the month again, with the review now finished, and the one
	// after that leaves it (marked here) alone.
	run := ids[2]
	data, err = json.Marshal(review.Data{Version: review.Version, Depth: 10, Plies: plies(30, 40)(tests[2].moves), Accuracy: [2]float64{70, 71}})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.FinishReview(ctx, run, review.Settings(10), data, false); err != nil {
		t.Fatal(err)
	}
	files, err = Export(ctx, st, dir, now)
	if err != nil || len(files) != 2 || files[0].Pending != 0 {
		t.Fatalf("export after the review: %+v, %v", files, err)
	}
	if g := readFile(t, path)[2]; g.Tag("ID") != run || g.Tag("WhiteAccuracy") != "70.0" || g.Plies[1].Comment != "[%eval +0.40]" {
		t.Errorf("the late review is not in October's file: %v %q", g.Tags, g.Plies[1].Comment)
	}
	mark := markFile(t, path, "games="+strconv.Itoa(len(tests)))
	if files, err = Export(ctx, st, dir, now); err != nil || len(files) != 1 {
		t.Fatalf("third export: %+v, %v", files, err)
	}
	if b, _ := os.ReadFile(path); !bytes.Equal(b, mark) {
		t.Error("October's file was written again with every review in")
	}
}

// TestEval: the evaluations as the files write them.
func TestEval(t *testing.T) {
	for _, tc := range []struct {
		s    engine.Score
		want string
	}{
		{0, "+0.00"}, {125, "+1.25"}, {-50, "-0.50"}, {-1999, "-19.99"},
		{engine.MateScore, "#0"}, {engine.MateScore - 9, "#9"}, {-engine.MateScore, "#-0"}, {-engine.MateScore + 12, "#-12"},
		{engine.KnownWin - 40, "#+"}, {-engine.KnownWin + 40, "#-"},
	} {
		if got := Eval(tc.s); got != tc.want {
			t.Errorf("Eval(%d) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
