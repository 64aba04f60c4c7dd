package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/puzzle"
)

func (s *testServer) tryPuzzle(lang, token, id string, move int) (int, puzzle.Reply, string) {
	s.t.Helper()
	return s.tryPuzzleLine(lang, token, id, puzzle.Answer{Move: move})
}

func (s *testServer) tryPuzzleLine(lang, token, id string, a puzzle.Answer) (int, puzzle.Reply, string) {
	s.t.Helper()
	b, _ := json.Marshal(a)
	req, _ := http.NewRequest("POST", s.URL+"/api/puzzles/"+id, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Language", lang)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var v puzzle.Reply
	json.Unmarshal(body, &v)
	return resp.StatusCode, v, string(body)
}

// wrongMove is a legal move of p other than its solution.
func wrongMove(p puzzle.Puzzle) int {
	return p.Start.LegalMoves().Without(p.Move()).First().Hole()
}

// oneMovePuzzles returns the shipped puzzles of one move, at least three.
func oneMovePuzzles(t *testing.T) []puzzle.Puzzle {
	t.Helper()
	all, err := puzzle.Shipped()
	var ps []puzzle.Puzzle
	for _, p := range all {
		if p.Moves == 1 {
			ps = append(ps, p)
		}
	}
	if err != nil || len(ps) < 3 {
		t.Fatalf("%d shipped puzzles of one move, %v", len(ps), err)
	}
	return ps
}

// TestPuzzleJudge: the solution is right, another legal move wrong; an
// account's rating rises after a solve and falls after a miss, a repeat
// is not rated, and a guest gets verdicts without a rating.
func TestPuzzleJudge(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ps := oneMovePuzzles(t)
	a, b := ps[0], ps[1]
	tok := s.signup("Solver")
	code, v, body := s.tryPuzzle("kk", tok, a.ID, a.Move().Hole())
	if code != 200 || !v.Right || v.Rating == nil || *v.Delta <= 0 || v.Headline != s.srv().cat.T("kk", "puzzles.right") {
		t.Fatalf("solve: %d %s", code, body)
	}
	first := *v.Rating
	if want, _ := a.Start.Notation(a.Move()); len(v.Solution) == 0 || v.Solution[0] != want || !strings.Contains(v.Text, want) {
		t.Errorf("solution %v / %q, want it to start with %s", v.Solution, v.Text, want)
	}
	code, v, body = s.tryPuzzle("en", tok, a.ID, wrongMove(a))
	if code != 200 || v.Right || *v.Rating != first || *v.Delta != 0 {
		t.Errorf("a repeat moved the rating: %d %s", code, body)
	}
	code, v, body = s.tryPuzzle("en", tok, b.ID, wrongMove(b))
	if code != 200 || v.Right || *v.Delta >= 0 || *v.Rating >= first || v.Headline != "Not that one." {
		t.Errorf("miss: %d %s", code, body)
	}
	guest := s.guest()
	if code, v, body := s.tryPuzzle("ru", guest, b.ID, b.Move().Hole()); code != 200 || !v.Right || v.Rating != nil {
		t.Errorf("guest: %d %s", code, body)
	}
}

// TestPuzzleBadMoves: a move off the board or illegal is a 400 in the
// page's language, an unknown puzzle a 404.
func TestPuzzleBadMoves(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	a := oneMovePuzzles(t)[0]
	tok := s.signup("Solver")
	var illegal int
	for h := 1; h <= 9; h++ {
		if !a.Start.LegalMoves().Has(toguz.Move(h)) {
			illegal = h
		}
	}
	for _, m := range []int{0, 10, illegal} {
		if m == 0 && illegal == 0 {
			continue
		}
		if code, _, body := s.tryPuzzle("ru", tok, a.ID, m); code != 400 || !strings.Contains(body, "невозможен") {
			t.Errorf("move %d: %d %s", m, code, body)
		}
	}
	if code, _, _ := s.tryPuzzle("en", tok, "nope", 1); code != 404 {
		t.Errorf("unknown puzzle: %d", code)
	}
}

// TestPuzzleLine: a puzzle of several moves is judged move by move. A
// right move that is not the last gets the opponent's reply and the board
// after it (the solver's legal holes playable), and nothing is rated yet;
// the last right move solves it and is rated; a wrong later move misses
// it; more moves than the puzzle has are a 400.
func TestPuzzleLine(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ps, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ps, func(p puzzle.Puzzle) bool { return p.Moves >= 2 })
	if i < 0 {
		t.Fatal("no shipped puzzle of several moves")
	}
	p := ps[i]
	var line []int
	for k := range p.Moves {
		_, m := p.Step(k)
		line = append(line, m.Hole())
	}
	tok := s.signup("Liner")
	for k := 1; k < p.Moves; k++ {
		code, v, body := s.tryPuzzleLine("ru", tok, p.ID, puzzle.Answer{Moves: line[:k]})
		after, _ := p.Step(k)
		before, _ := p.Step(k - 1)
		reply, _ := before.After(p.Solution[2*k-2]).Notation(p.Solution[2*k-1])
		if code != 200 || !v.Right || v.Done || v.Rating != nil || v.Reply != reply ||
			v.Headline != s.srv().cat.T("ru", "puzzles.continue", reply) || len(v.Solution) != 0 {
			t.Fatalf("move %d: %d %s", k, code, body)
		}
		for h := 1; h <= 9; h++ {
			playable := strings.Contains(v.Board, `data-hole="`+strconv.Itoa(h)+`"`)
			if playable != after.LegalMoves().Has(toguz.Move(h)) {
				t.Errorf("move %d: hole %d playable %v on the board sent", k, h, playable)
			}
		}
	}
	code, v, body := s.tryPuzzleLine("en", tok, p.ID, puzzle.Answer{Moves: line})
	if code != 200 || !v.Right || !v.Done || v.Rating == nil || *v.Delta <= 0 || len(v.Solution) < 2*p.Moves-1 {
		t.Fatalf("the whole line: %d %s", code, body)
	}
	// A wrong second move misses the puzzle (a guest: verdicts only).
	after, _ := p.Step(1)
	wrong := slices.Clone(line[:2])
	wrong[1] = after.LegalMoves().Without(toguz.Move(line[1])).First().Hole()
	if code, v, body := s.tryPuzzleLine("en", s.guest(), p.ID, puzzle.Answer{Moves: wrong}); code != 200 || v.Right || !v.Done {
		t.Errorf("a wrong second move: %d %s", code, body)
	}
	if code, _, body := s.tryPuzzleLine("en", "", p.ID, puzzle.Answer{Moves: append(slices.Clone(line), 1)}); code != 400 || !strings.Contains(body, "this puzzle has") {
		t.Errorf("too many moves: %d %s", code, body)
	}
}

// TestPuzzlePages: /puzzles answers in every language with a board whose
// buttons are the legal moves, with the streak's count, and /puzzles/{id}
// shows one puzzle, Black's row at the bottom when he solves it
// (internal/puzzle's TestPick: how the page draws its puzzle).
func TestPuzzlePages(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	get := func(path, lang string) (int, string) {
		req, _ := http.NewRequest("GET", s.URL+path, nil)
		req.Header.Set("Accept-Language", lang)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		code, page := get("/puzzles", lang)
		if code != 200 || !strings.Contains(page, s.srv().cat.T(lang, "puzzles.play")) || !strings.Contains(page, `class="hole playable`) {
			t.Errorf("/puzzles in %s: %d", lang, code)
		}
	}
	ps, _ := puzzle.Shipped()
	if code, page := get("/puzzles?streak=3", "en"); code != 200 || !strings.Contains(page, "3 puzzles solved in a row") {
		t.Errorf("/puzzles?streak=3: %d", code)
	}
	if code, page := get("/puzzles/"+ps[2].ID, "en"); code != 200 || !strings.Contains(page, toguz.FormatFEN(ps[2].Start, 1)) {
		t.Errorf("/puzzles/%s: %d", ps[2].ID, code)
	}
	for _, p := range ps {
		if p.Start.Turn() != toguz.Black {
			continue
		}
		// Black solves it: his row (hole 1 first) is at the bottom.
		_, page := get("/puzzles/"+p.ID, "en")
		top, bottom, _ := strings.Cut(page, `class="row mine"`)
		if !strings.Contains(bottom, "Black") || strings.Contains(top[strings.Index(top, `class="row theirs"`):], `class="hole playable`) {
			t.Errorf("/puzzles/%s: Black's row is not at the bottom", p.ID)
		}
		break
	}
	if code, _ := get("/puzzles/nope", "en"); code != 404 {
		t.Errorf("unknown puzzle page: %d", code)
	}
}
