package team

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// TestBattleScore: each team's best Leaders scores summed, ties sharing a
// rank, a player of no team left out.
func TestBattleScore(t *testing.T) {
	b := store.TeamBattle{Leaders: 2, Teams: []store.BattleTeam{{ID: "a", Name: "Aral"}, {ID: "b", Name: "Balkhash"}, {ID: "c", Name: "Caspian"}}}
	line := func(id int64, name string, score int) events.ArenaLine {
		return events.ArenaLine{Entry: game.EventEntry{UserID: id, Name: name}, Score: score}
	}
	arena := []events.ArenaLine{line(1, "a1", 10), line(2, "b1", 8), line(3, "a2", 6), line(4, "b2", 6), line(5, "a3", 5), line(6, "x", 4), line(7, "b3", 2)}
	teamOf := map[int64]string{1: "a", 2: "b", 3: "a", 4: "b", 5: "a", 7: "b"}
	got := BattleScore(b, arena, teamOf)
	want := []BattleLine{
		{Rank: 1, TeamID: "a", Name: "Aral", Score: 16, Players: []BattlePlayer{{"a1", 10, true}, {"a2", 6, true}, {"a3", 5, false}}},
		{Rank: 2, TeamID: "b", Name: "Balkhash", Score: 14, Players: []BattlePlayer{{"b1", 8, true}, {"b2", 6, true}, {"b3", 2, false}}},
		{Rank: 3, TeamID: "c", Name: "Caspian"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
	teamOf[4] = "c" // b2 plays for Caspian: Balkhash 10, Caspian 6
	got = BattleScore(store.TeamBattle{Leaders: 1, Teams: b.Teams}, arena, teamOf)
	if got[0].Score != 10 || got[1].Score != 8 || got[1].Rank != 2 || got[2].Score != 6 {
		t.Errorf("one counted: %+v", got)
	}
	tie := BattleScore(store.TeamBattle{Leaders: 1, Teams: b.Teams}, []events.ArenaLine{line(1, "a1", 4), line(2, "b1", 4)}, map[int64]string{1: "a", 2: "b"})
	if tie[0].Rank != 1 || tie[1].Rank != 1 || tie[2].Rank != 3 {
		t.Errorf("a tie: %+v", tie)
	}
}

// TestBattle: a leader makes a team battle against another team; members
// of its teams enter it for their team, others are refused; the battle's
// page and API show both teams; a member may not make one.
func TestBattle(t *testing.T) {
	s := newTestSite(t)
	ctx := context.Background()
	evs, err := events.New(ctx, events.Config{Store: s.st, Admit: Admitter(s.st)})
	if err != nil {
		t.Fatal(err)
	}
	s.svc.events = evs
	lead, other, ann, bob, stranger := s.user("lead"), s.user("other"), s.user("ann"), s.user("bob"), s.user("stranger")
	_, m := s.do("POST", "/api/team", lead, map[string]any{"name": "Aral"})
	a := m["id"].(string)
	_, m = s.do("POST", "/api/team", other, map[string]any{"name": "Balkhash"})
	b := m["id"].(string)
	s.do("POST", "/api/team/"+a+"/join", ann, nil)
	s.do("POST", "/api/team/"+b+"/join", bob, nil)

	if code, m := s.do("POST", "/api/team/"+a+"/battle", ann, map[string]any{"name": "Lakes", "tc": "3+2", "minutes": 60, "teams": []string{b}}); code != http.StatusForbidden {
		t.Errorf("a member makes a battle: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+a+"/battle", lead, map[string]any{"name": "Lakes", "tc": "3+2", "minutes": 60}); code != http.StatusBadRequest {
		t.Errorf("a battle of one team: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+a+"/battle", lead, map[string]any{"name": "Lakes", "tc": "3+2", "minutes": 60, "teams": []string{"nope"}}); code != http.StatusNotFound {
		t.Errorf("a battle against no team: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+a+"/battle", lead, map[string]any{"name": "Lakes", "tc": "3+2", "minutes": 5, "teams": []string{b}}); code != http.StatusBadRequest {
		t.Errorf("an arena of 5 minutes: %d %v", code, m)
	}
	code, m := s.do("POST", "/api/team/"+a+"/battle", lead, map[string]any{"name": "Lakes", "tc": "3+2", "minutes": 60, "teams": []string{"/team/" + b}, "leaders": 3})
	if code != http.StatusCreated {
		t.Fatalf("the battle: %d %v", code, m)
	}
	ev := m["id"].(string)
	if e, ok := evs.Get(ev); !ok || !e.Settings.TeamBattle || e.Settings.Kind != events.Arena || e.Creator != s.idOf(lead) {
		t.Fatalf("the battle's arena: %+v", e)
	}
	for _, c := range []struct {
		who  string
		team string
	}{{ann, a}, {bob, b}, {lead, a}} {
		if _, err := evs.Join(ctx, ev, events.Player{UserID: s.idOf(c.who), Name: c.who}); err != nil {
			t.Fatalf("%s enters: %v", c.who, err)
		}
	}
	if _, err := evs.Join(ctx, ev, events.Player{UserID: s.idOf(stranger), Name: "stranger"}); err == nil || !strings.Contains(err.Error(), "team_battle_member") {
		t.Errorf("a stranger enters: %v", err)
	}
	players, err := s.st.TeamBattlePlayers(ctx, ev)
	if err != nil || players[s.idOf(ann)] != a || players[s.idOf(bob)] != b || len(players) != 3 {
		t.Errorf("the players' teams %v, %v", players, err)
	}
	// Another event admits anyone.
	plain, err := evs.Create(ctx, s.idOf(lead), "Open", time.Time{}, events.Settings{Kind: events.Arena, Rules: "standard", TC: "3+2", Minutes: 30})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := evs.Join(ctx, plain.ID, events.Player{UserID: s.idOf(stranger), Name: "stranger"}); err != nil {
		t.Errorf("a stranger enters an ordinary arena: %v", err)
	}
	code, m = s.do("GET", "/api/events/"+ev+"/teams", "", nil)
	if ts, _ := m["teams"].([]any); code != 200 || len(ts) != 2 || m["leaders"] != float64(3) || m["status"] != "upcoming" {
		t.Errorf("the battle's API: %d %v", code, m)
	}
	code, page := s.get("/team/battle/"+ev, "")
	if code != 200 || !strings.Contains(page, "Aral") || !strings.Contains(page, "Balkhash") || !strings.Contains(page, `href="/event/`+ev+`"`) {
		t.Errorf("the battle's page: %d\n%s", code, page)
	}
	_, page = s.get("/team/"+b, other)
	if !strings.Contains(page, `href="/team/battle/`+ev+`"`) || !strings.Contains(page, `id="team-battle"`) {
		t.Errorf("the other team's page lacks the battle or its form")
	}
	if code, _ := s.get("/team/battle/"+plain.ID, ""); code != http.StatusNotFound {
		t.Errorf("an ordinary arena as a battle: %d", code)
	}
}
