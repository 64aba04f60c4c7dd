package server

import (
	"encoding/json"
	"html"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"testing"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/live"
)

// boardMsg is what the board reads of the state and move messages instead
// of computing it: the landings and the legal moves.
type boardMsg struct {
	Type    string           `json:"type"`
	Moves   []live.MoveJSON  `json:"moves"`
	Landing live.LandingJSON `json:"landing"`
	Legal   []int            `json:"legal"`
}

func decodeBoardMsg(t *testing.T, m wsMsg) boardMsg {
	t.Helper()
	var b boardMsg
	if err := json.Unmarshal([]byte(m.Raw), &b); err != nil {
		t.Fatalf("%s message %s: %v", m.Type, m.Raw, err)
	}
	return b
}

// libraryLanding is the rules library's landing of m, legal in p.
func libraryLanding(p toguz.Position, m toguz.Move) live.LandingJSON {
	side, hole := p.Landing(m)
	return live.LandingJSON{Side: side.String(), Hole: hole}
}

func libraryLegal(p toguz.Position) []int {
	out := []int{}
	for m := range p.LegalMoves().All() {
		out = append(out, int(m))
	}
	return out
}

// originLanding is where m would land if the first stone went back into the
// emptied hole, as the board's JavaScript once assumed for every ruleset.
func originLanding(t *testing.T, p toguz.Position, m toguz.Move) live.LandingJSON {
	t.Helper()
	st := p.Setup()
	st.Rules.OriginSowing = true
	q, err := st.Position()
	if err != nil {
		t.Fatal(err)
	}
	return libraryLanding(q, m)
}

var dataAttr = map[string]*regexp.Regexp{
	"moves":     regexp.MustCompile(`data-moves="([^"]*)"`),
	"positions": regexp.MustCompile(`data-positions="([^"]*)"`),
}

// pageData returns the JSON of a board page's data-NAME attribute, decoded.
func pageData(t *testing.T, body, name string, v any) {
	t.Helper()
	m := dataAttr[name].FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the page has no data-%s", name)
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), v); err != nil {
		t.Fatalf("data-%s %q: %v", name, m[1], err)
	}
}

// TestLandingsFromTheLibrary plays a game under each named ruleset and
// checks that every landing and every list of legal moves the server gives
// the board — in the move messages, the state, the replay page and the
// import page — is the rules library's. Under pre1949 the game has plies
// where origin sowing, which the board's JavaScript once computed, would
// put the last stone one hole further on.
func TestLandingsFromTheLibrary(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	for _, name := range toguz.RulesetNames() {
		t.Run(name, func(t *testing.T) {
			rules, err := toguz.ParseRules(name)
			if err != nil {
				t.Fatal(err)
			}
			white, black := s.guest(), s.guest()
			code, m := s.do("POST", "/api/seeks", white, map[string]any{"tc": "", "color": "white", "ruleset": name})
			if code != 201 {
				t.Fatalf("seek: %d %v", code, m)
			}
			code, m = s.do("POST", "/api/seeks/"+m["id"].(string)+"/accept", black, nil)
			if code != 201 {
				t.Fatalf("accept: %d %v", code, m)
			}
			id := m["game_id"].(string)
			conns := [2]*wsClient{s.dial(id, white), s.dial(id, black)}
			p, err := toguz.NewPosition(rules)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range conns {
				st := decodeBoardMsg(t, c.until("state"))
				if want := libraryLegal(p); !slices.Equal(st.Legal, want) {
					t.Fatalf("the start's legal moves: the server sends %v, the library %v", st.Legal, want)
				}
			}

			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			var want []live.LandingJSON
			differ := 0
			for ply := 0; ply < 30 && !p.IsOver(); ply++ {
				moves := p.LegalMoves().Slice()
				mv := moves[rng.IntN(len(moves))]
				conns[p.Turn()].move(ply, int(mv))
				got := decodeBoardMsg(t, conns[toguz.White].until("move"))
				land := libraryLanding(p, mv)
				if !rules.OriginSowing && originLanding(t, p, mv) != land {
					differ++
				}
				p = p.After(mv)
				if got.Landing != land {
					t.Errorf("ply %d (hole %d): the server sends landing %+v, the library %+v", ply+1, mv, got.Landing, land)
				}
				if lw := libraryLegal(p); !slices.Equal(got.Legal, lw) {
					t.Errorf("after ply %d: the server sends legal moves %v, the library %v", ply+1, got.Legal, lw)
				}
				want = append(want, land)
			}
			if !rules.OriginSowing {
				if differ == 0 {
					t.Fatalf("no ply of the %s game lands elsewhere under origin sowing: the test shows nothing", name)
				}
				t.Logf("%s: %d of %d plies land elsewhere under origin sowing", name, differ, len(want))
			}

			landings := func(where string, moves []live.MoveJSON) {
				t.Helper()
				if len(moves) != len(want) {
					t.Fatalf("%s: %d moves, want %d", where, len(moves), len(want))
				}
				for i, mj := range moves {
					if mj.Landing != want[i] {
						t.Errorf("%s, ply %d: landing %+v, the library %+v", where, i+1, mj.Landing, want[i])
					}
				}
			}
			conns[0].send(map[string]any{"type": "sync"})
			st := decodeBoardMsg(t, conns[0].until("state"))
			landings("state", st.Moves)
			if lw := libraryLegal(p); !slices.Equal(st.Legal, lw) {
				t.Errorf("state: legal moves %v, the library %v", st.Legal, lw)
			}

			// The finished game's replay page, and its record imported.
			if !p.IsOver() {
				conns[0].send(map[string]any{"type": "resign"})
				conns[0].until("end")
			}
			c := s.browser()
			_, body := get(t, c, s.URL+"/game/"+id)
			var moves []live.MoveJSON
			pageData(t, body, "moves", &moves)
			landings("the replay page", moves)
			_, record := get(t, c, s.URL+"/api/games/"+id+"/export?format=toguz")
			code, _, body = postForm(t, c, s.URL+"/import", url.Values{"text": {record}})
			if code != 200 {
				t.Fatalf("import of\n%s\n%d: %s", record, code, body)
			}
			moves = nil
			pageData(t, body, "moves", &moves)
			landings("the import page", moves)
		})
	}
}
