package server

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toguz/toguz"
)

// TestPositionsPlay asks the rules routes what the analysis board asks: the
// start's moves, a move played (its notation, sowing and capture as the
// score sheet of docs/rules.md gives them), and the errors.
func TestPositionsPlay(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	const start = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"
	code, m := s.do("POST", "/api/positions/legal", "", map[string]any{"fen": start})
	if code != 200 || m["fen"] != start || m["over"] != false {
		t.Fatalf("legal of the start: %d %v", code, m)
	}
	legal, _ := m["moves"].([]any)
	if len(legal) != 9 {
		t.Fatalf("the start has %d legal moves, want 9: %v", len(legal), m["moves"])
	}
	l7 := legal[6].(map[string]any)
	if got := fmt.Sprintf("%v %v %v %v %v %v", l7["hole"], l7["landing"], l7["captured"], l7["trail"], l7["notation"], l7["fen"]); got !=
		"7 map[hole:6 side:black] 10 [7 8 9 -1 -2 -3 -4 -5 -6] 76 9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1" {
		t.Errorf("the start's hole 7: %s", got)
	}

	code, m = s.do("POST", "/api/positions/play", "", map[string]any{"fen": start, "move": 7})
	if code != 200 || m["notation"] != "76" || m["captured"] != 10.0 || fmt.Sprint(m["trail"]) != "[7 8 9 -1 -2 -3 -4 -5 -6]" ||
		m["fen"] != "9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1" || m["over"] != false {
		t.Errorf("play 7 at the start: %d %v", code, m)
	}
	if code, m = s.do("POST", "/api/positions/play", "", map[string]any{"move": 7}); code != 200 || m["notation"] != "76" {
		t.Errorf("play 7 with no FEN (the standard start): %d %v", code, m)
	}
	// A FEN of another ruleset is read under the ruleset given.
	if code, m = s.do("POST", "/api/positions/legal", "", map[string]any{"ruleset": "bestemshe"}); code != 200 || len(m["moves"].([]any)) != 5 {
		t.Errorf("legal of the bestemshe start: %d %v", code, m)
	}

	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"no hole", map[string]any{"fen": start}, "illegal_move"},
		{"hole 10", map[string]any{"fen": start, "move": 10}, "illegal_move"},
		{"empty hole", map[string]any{"fen": "9S,9S,9S,1,10S,10S,10S,10S,10S/9S,9S,9S,9S,9S,9S,1S,10S,10S 10 0 N 1", "move": 6}, "illegal_move"},
		{"bad FEN", map[string]any{"fen": "9S/9S 0 0 S 1", "move": 1}, "bad_position"},
		{"bad ruleset", map[string]any{"ruleset": "chess", "move": 1}, "bad_request"},
		{"unknown field", map[string]any{"fen": start, "hole": 1}, "bad_request"},
	} {
		code, m := s.do("POST", "/api/positions/play", "", tc.body)
		e, _ := m["error"].(map[string]any)
		if code != 400 || e == nil || e["code"] != tc.code || e["message"] == "" {
			t.Errorf("%s: %d %v, want 400 %s", tc.name, code, m, tc.code)
		}
	}
}

// TestPositionsOver plays a game to its end through the routes, as the
// analysis board does, and checks each answer against the rules library:
// the last answer says the game is over, with its result and no move.
func TestPositionsOver(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1e6})
	p := toguz.StartPosition()
	fen := p.FEN()
	for ply := 0; !p.IsOver(); ply++ {
		m := p.LegalMoves().First()
		code, out := s.do("POST", "/api/positions/play", "", map[string]any{"fen": fen, "move": int(m)})
		if code != 200 {
			t.Fatalf("ply %d: %d %v", ply, code, out)
		}
		y, q := p.Ply(m)
		if out["notation"] != y.String() || len(out["legal"].([]any)) != q.LegalMoves().Len() || out["over"] != q.IsOver() {
			t.Fatalf("ply %d (%s): %v", ply, y, out)
		}
		p, fen = q, out["fen"].(string)
		if back, _, err := toguz.ParseFEN(fen, toguz.Standard()); err != nil || back != q {
			t.Fatalf("ply %d: the FEN %q reads back as %v (%v)", ply, fen, back, err)
		}
		if q.IsOver() {
			var o struct{ Result, Termination string }
			b, _ := json.Marshal(out)
			json.Unmarshal(b, &o)
			if want := q.Outcome(); o.Result != want.Result.String() || o.Termination != want.Termination.String() {
				t.Errorf("the end: %+v, want %v", o, want)
			}
		}
	}
}
