package sections

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/tournament"
)

// TestTeamSwissSection runs a team Swiss at the desk: five clubs of three
// (two boards and a reserve), a player without a club refused, four rounds
// paired by C.04.6 with the boards' results entered, the matches and the
// team standings (match points, then game points) from them, the TRF with
// the teams.
func TestTeamSwissSection(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(30, 30))
	reg := &memRegister{players: map[string]federation.Player{}}
	var ids []string
	for c, club := range []string{"ALA-1", "AST-1", "BSK-1", "OSH-1", "KZO-1"} {
		for j := range 3 {
			p := federation.Player{ID: fmt.Sprintf("KAZ-%d", 100+10*c+j), Federation: "KAZ", Sex: federation.Male, Club: club,
				NameLatn: fmt.Sprintf("Player %s %d", club, j+1), BirthYear: 1990, Ratings: map[federation.Discipline]int{federation.Classic: 2000 - 100*c - 10*j}}
			reg.players[p.ID] = p
			ids = append(ids, p.ID)
		}
	}
	reg.players["KAZ-999"] = federation.Player{ID: "KAZ-999", Federation: "KAZ", Sex: federation.Male, NameLatn: "No Club", BirthYear: 1990}
	d := New(Config{Store: openStore(t), Register: reg})
	spec := Spec{Key: "teams", Name: "Clubs", Discipline: federation.Classic, System: tournament.TeamSwiss, Rounds: 4, TeamBoards: 2}
	if _, err := d.Create(ctx, 1, Settings{Name: "Club cup", Federation: "KAZ", Start: "2026-06-01"}, []Spec{{Key: "x", Name: "X", Discipline: federation.Classic, System: tournament.TeamSwiss, Rounds: 4, TeamBoards: 11}}); !isKey(err, "teamswiss.err_boards") {
		t.Fatalf("11 boards: %v", err)
	}
	id, err := d.Create(ctx, 1, Settings{Name: "Club cup", Federation: "KAZ", Start: "2026-06-01"}, []Spec{spec})
	if err != nil {
		t.Fatal(err)
	}
	if e, err := d.Enter(ctx, id, 1, []string{"KAZ-999"}, []string{"teams"}); err != nil || e[0].Error == nil || e[0].Error.Why != "teamswiss.why_team" {
		t.Fatalf("a player without a club entered a team Swiss: %+v %v", e, err)
	}
	if _, err := d.Enter(ctx, id, 1, ids, []string{"teams"}); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 4; r++ {
		if _, err := d.Pair(ctx, id, 1, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if r == 2 {
			// A late entry of a club in the event joins it as a reserve; one
			// of a club that is not is refused.
			reg.players["KAZ-500"] = federation.Player{ID: "KAZ-500", Federation: "KAZ", Sex: federation.Male, Club: "AST-1", NameLatn: "Late Reserve", BirthYear: 1990}
			reg.players["KAZ-501"] = federation.Player{ID: "KAZ-501", Federation: "KAZ", Sex: federation.Male, Club: "NEW-1", NameLatn: "New Club", BirthYear: 1990}
			e, err := d.Enter(ctx, id, 1, []string{"KAZ-500", "KAZ-501"}, []string{"teams"})
			if err != nil || e[0].Error != nil || e[1].Error == nil || e[1].Error.Why != "teamswiss.why_team" {
				t.Fatalf("late entries: %+v %v", e, err)
			}
		}
		c, _ := d.Get(ctx, id)
		s := c.Section("teams")
		ms := s.TeamRound(r)
		if len(ms) != 3 || ms[2].Black != "" {
			t.Fatalf("round %d: matches %+v, want two and a bye", r, ms)
		}
		res := map[int]string{}
		games := 0
		for _, b := range s.Boards(r) {
			if b.Black != 0 {
				res[b.N] = randomResult(rng, 0, 0)
				games++
			}
		}
		if games != 4 {
			t.Fatalf("round %d: %d games, want 2 matches of 2 boards", r, games)
		}
		// The boards come match by match: boards 1-2 one match, 3-4 the other,
		// each board's players in the same places of their teams.
		club := func(n int) string { return c.Players[s.ID(n)].Club }
		bs := s.Boards(r)
		for m := range 2 {
			b1, b2 := bs[2*m], bs[2*m+1]
			t1 := map[string]bool{club(b1.White): true, club(b1.Black): true}
			if !t1[club(b2.White)] || !t1[club(b2.Black)] || club(b1.White) != club(b2.Black) {
				t.Fatalf("round %d: boards %d and %d are not one match with alternating colours: %+v %+v", r, b1.N, b2.N, b1, b2)
			}
		}
		if _, err := d.Results(ctx, id, 1, "A", "teams", r, res); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := d.Get(ctx, id)
	s := c.Section("teams")
	rows := s.TeamRows()
	mp, matches := 0, 0
	for i, row := range rows {
		mp += row.MP
		matches += row.Matches
		if i > 0 && row.Rank < rows[i-1].Rank {
			t.Fatalf("standings out of order: %+v", rows)
		}
	}
	if len(rows) != 5 || mp != 4*5 || matches != 4*5 {
		t.Fatalf("team standings %+v: %d MP, %d matches; want 5 teams, 20 and 20", rows, mp, matches)
	}
	for _, m := range s.TeamRound(4) {
		if m.Black != "" && m.Score == "" {
			t.Fatalf("round 4 %+v: a match without its score", m)
		}
	}
	var trf bytes.Buffer
	if err := s.Event.WriteTRF(&trf); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(trf.String(), "\n013 "); n != 5 || !strings.Contains(trf.String(), "XXT 2 A MP") {
		t.Fatalf("TRF with %d team lines:\n%s", n, trf.String())
	}
	ast := ""
	for _, l := range strings.Split(trf.String(), "\n") {
		if strings.HasPrefix(l, "013 AST-1") {
			ast = l
		}
	}
	if s.Start("KAZ-500") == 0 || !strings.HasSuffix(ast, fmt.Sprintf(" %4d", s.Start("KAZ-500"))) {
		t.Fatalf("the late entry is not in his team's roster:\n%s", trf.String())
	}
	if !c.Section("teams").Finished() {
		t.Fatal("the section is not finished after its four rounds")
	}
}

// TestTeamSwissShortTeam: a club with fewer players than boards stops the
// first pairing with an error naming it.
func TestTeamSwissShortTeam(t *testing.T) {
	ctx := context.Background()
	reg := &memRegister{players: map[string]federation.Player{}}
	var ids []string
	for i, club := range []string{"ALA-1", "ALA-1", "AST-1", "AST-1", "BSK-1"} {
		p := federation.Player{ID: fmt.Sprintf("KAZ-%d", i+1), Federation: "KAZ", Sex: federation.Male, Club: club, NameLatn: fmt.Sprint("P", i), BirthYear: 1990}
		reg.players[p.ID] = p
		ids = append(ids, p.ID)
	}
	d := New(Config{Store: openStore(t), Register: reg})
	id, err := d.Create(ctx, 1, Settings{Name: "Cup", Federation: "KAZ", Start: "2026-06-01"},
		[]Spec{{Key: "t", Name: "T", Discipline: federation.Classic, System: tournament.TeamSwiss, Rounds: 3, TeamBoards: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Enter(ctx, id, 1, ids, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Pair(ctx, id, 1, ""); !isKey(err, "teamswiss.err_short") {
		t.Fatalf("a club of one for two boards: %v", err)
	}
}

// TestTeamSwissPages creates a team Swiss through the creation form, pairs
// and enters a round through the desk's forms, and reads the pages: the
// matches and team standings in English and Kazakh, the TRF with the
// teams.
func TestTeamSwissPages(t *testing.T) {
	reg := &memRegister{players: map[string]federation.Player{}}
	var ids []string
	for c, club := range []string{"ALA-1", "AST-1", "BSK-1", "OSH-1"} {
		for j := range 2 {
			p := federation.Player{ID: fmt.Sprintf("KAZ-%d", 100+10*c+j), Federation: "KAZ", Sex: federation.Male, Club: club,
				NameLatn: fmt.Sprintf("Player %s %d", club, j+1), BirthYear: 1990, Ratings: map[federation.Discipline]int{federation.Rapid: 1900 - 100*c - 10*j}}
			reg.players[p.ID] = p
			ids = append(ids, p.ID)
		}
	}
	s := newTestSite(t, reg)
	const arb = "7:Arbiter Aliev"
	code, loc := s.post("/championships", arb, url.Values{"name": {"Club cup"}, "federation": {"KAZ"}, "start": {"2026-06-01"},
		"s0_key": {"clubs"}, "s0_name": {"Clubs"}, "s0_disc": {"rapid"}, "s0_system": {"teamswiss"}, "s0_rounds": {"3"}, "s0_boards": {"2"}, "s0_teams_by": {"club"}})
	if code != http.StatusSeeOther {
		t.Fatalf("create: %d %s", code, loc)
	}
	base := strings.TrimSuffix(loc, "/desk")
	if code, m := s.do("POST", "/api"+strings.Replace(base, "/championship/", "/championships/", 1)+"/entries", arb, map[string]any{"ids": ids}); code != 200 {
		t.Fatalf("entries: %d %v", code, m)
	}
	if code, loc := s.post(base+"/desk/pair", arb, nil); code != http.StatusSeeOther {
		t.Fatalf("pair: %d %s", code, loc)
	}
	// Round 1: ALA-1 (1) against BSK-1 (3), AST-1 (2) against OSH-1 (4);
	// the first match's boards 1 and 2, the second's 3 and 4.
	if code, loc := s.post(base+"/desk/results", arb, url.Values{"section": {"clubs"}, "round": {"1"}, "b1": {"1-0"}, "b2": {"1/2"}, "b3": {"0-1"}, "b4": {"0-1"}}); code != http.StatusSeeOther {
		t.Fatalf("results: %d %s", code, loc)
	}
	_, en, _ := s.get(base+"?lang=en", "")
	for _, want := range []string{"Matches of round 1", "Team standings", "1½–½", "Team Swiss (FIDE Swiss Team Pairing System)", `<td translate="no">ALA-1</td>`} {
		if !bytes.Contains(en, []byte(want)) {
			t.Errorf("the English page has no %q", want)
		}
	}
	_, kk, _ := s.get(base+"?lang=kk", "")
	for _, want := range []string{"1-турдың кездесулері", "Командалық турнир кестесі", "КҰ"} {
		if !bytes.Contains(kk, []byte(want)) {
			t.Errorf("the Kazakh page has no %q", want)
		}
	}
	_, desk, _ := s.get(base+"/desk?lang=en", arb)
	if !bytes.Contains(desk, []byte("Matches of round 1")) {
		t.Error("the desk does not show the round's matches")
	}
	_, api, _ := s.get("/api"+strings.Replace(base, "/championship/", "/championships/", 1), "")
	for _, want := range []string{`"matches":[{"white":"`, `"team_standings":[{"rank":1,`, `"match_points":2`} {
		if !bytes.Contains(api, []byte(want)) {
			t.Errorf("the API's championship has no %s: %s", want, api)
		}
	}
	_, trf, _ := s.get(base+"/trf/clubs", "")
	if !bytes.Contains(trf, []byte("\n013 ALA-1")) {
		t.Errorf("the TRF has no team lines:\n%s", trf)
	}
}
