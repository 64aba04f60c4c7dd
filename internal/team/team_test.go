package team

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/notify"
)

// TestTeamLifecycle: a team made through the API, joined by each way in,
// managed by its leader and a coach within their rights, and left.
func TestTeamLifecycle(t *testing.T) {
	s := newTestSite(t)
	lead, ann, bob, cid := s.user("lead"), s.user("ann"), s.user("bob"), s.user("cid")

	if code, m := s.do("POST", "/api/team", "", map[string]any{"name": "Kyzylorda club"}); code != http.StatusUnauthorized {
		t.Fatalf("creating as nobody: %d %v", code, m)
	}
	code, m := s.do("POST", "/api/team", lead, map[string]any{"name": "  Kyzylorda club ", "description": "Every Saturday.", "joinMode": "request"})
	if code != http.StatusCreated || m["name"] != "Kyzylorda club" || m["role"] != "leader" {
		t.Fatalf("create: %d %v", code, m)
	}
	id := m["id"].(string)

	// A team on request: ann asks, lead accepts; bob asks, lead declines.
	if code, m := s.do("POST", "/api/team/"+id+"/join", ann, map[string]any{"message": "I play in Aral"}); code != 200 || m["joined"] == true {
		t.Fatalf("ann asks: %d %v", code, m)
	}
	if code, _ := s.do("POST", "/api/team/"+id+"/join", bob, nil); code != 200 {
		t.Fatalf("bob asks: %d", code)
	}
	if code, m := s.do("GET", "/api/team/"+id+"/requests", ann, nil); code != http.StatusForbidden {
		t.Errorf("ann, not a member, reads the requests: %d %v", code, m)
	}
	code, m = s.do("GET", "/api/team/"+id+"/requests", lead, nil)
	if rs, _ := m["requests"].([]any); code != 200 || len(rs) != 2 || rs[0].(map[string]any)["message"] != "I play in Aral" {
		t.Fatalf("requests: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/requests", lead, map[string]any{"user": "ann", "accept": true}); code != 200 {
		t.Fatalf("accept ann: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/requests", lead, map[string]any{"user": "bob", "accept": false}); code != 200 {
		t.Fatalf("decline bob: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/requests", lead, map[string]any{"user": "bob", "accept": true}); code != http.StatusNotFound {
		t.Errorf("accepting a declined request: %d %v", code, m)
	}

	// A member has no rights; the leader appoints ann coach.
	for _, path := range []string{"/invite", "/kick", "/role", "/edit", "/message"} {
		if code, m := s.do("POST", "/api/team/"+id+path, ann, map[string]any{"user": "bob", "role": "leader", "message": "hi", "name": "Mine"}); code != http.StatusForbidden {
			t.Errorf("a member posts %s: %d %v", path, code, m)
		}
	}
	if code, m := s.do("POST", "/api/team/"+id+"/role", lead, map[string]any{"user": "ann", "role": "coach"}); code != 200 {
		t.Fatalf("appoint ann: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/role", ann, map[string]any{"user": "ann", "role": "leader"}); code != http.StatusForbidden {
		t.Errorf("a coach appoints: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/role", lead, map[string]any{"user": "ann", "role": "king"}); code != http.StatusBadRequest {
		t.Errorf("a role that is none: %d %v", code, m)
	}

	// The coach invites bob: bob is told, and joins by the invitation.
	s.notice.Take()
	if code, m := s.do("POST", "/api/team/"+id+"/invite", ann, map[string]any{"user": "bob"}); code != 200 {
		t.Fatalf("invite bob: %d %v", code, m)
	}
	got := s.notice.Take()
	if len(got) != 1 || got[0].Kind != notify.Invitation || got[0].Key != "team.notice.invite" || got[0].URL != "/team/"+id ||
		fmt.Sprint(got[0].Args) != "[ann Kyzylorda club]" || got[0].To != s.idOf(bob) || got[0].Actor != s.idOf(ann) {
		t.Fatalf("the invitation's notice: %+v", got)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/invite", ann, map[string]any{"user": "nobody"}); code != http.StatusNotFound {
		t.Errorf("inviting no account: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/join", bob, nil); code != 200 || m["joined"] != true {
		t.Fatalf("bob joins by invitation: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/invite", ann, map[string]any{"user": "bob"}); code != http.StatusConflict {
		t.Errorf("inviting a member: %d %v", code, m)
	}

	// The leader writes to all: each other member gets a notify.Team
	// notice, told by the worker after the request.
	code, m = s.do("POST", "/api/team/"+id+"/message", lead, map[string]any{"message": "Training moves to Sunday."})
	if code != 200 || m["told"] != float64(2) {
		t.Fatalf("message: %d %v", code, m)
	}
	if got := s.notice.Take(); len(got) != 0 {
		t.Errorf("notices told inside the request: %+v", got)
	}
	if err := s.svc.tellPending(t.Context()); err != nil {
		t.Fatal(err)
	}
	got = s.notice.Take()
	if len(got) != 2 {
		t.Fatalf("the message's notices: %+v", got)
	}
	for _, n := range got {
		if n.Kind != notify.Team || n.Key != "team.notice.message" || n.To == s.idOf(lead) || n.Args[2] != "Training moves to Sunday." {
			t.Errorf("notice %+v", n)
		}
	}
	if code, m := s.do("POST", "/api/team/"+id+"/message", lead, map[string]any{"message": strings.Repeat("я", MaxMessage+1)}); code != http.StatusBadRequest {
		t.Errorf("a message over the bound: %d %v", code, m)
	}

	// Rights to remove: a coach only members; a leader anyone but himself.
	if code, m := s.do("POST", "/api/team/"+id+"/kick", ann, map[string]any{"user": "lead"}); code != http.StatusForbidden {
		t.Errorf("a coach removes the leader: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/kick", lead, map[string]any{"user": "lead"}); code != http.StatusForbidden {
		t.Errorf("the leader removes himself: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/kick", ann, map[string]any{"user": "bob"}); code != 200 {
		t.Fatalf("the coach removes bob: %d %v", code, m)
	}
	if ok, err := s.svc.Member(t.Context(), id, s.idOf(bob)); err != nil || ok {
		t.Errorf("bob a member after his removal: %v, %v", ok, err)
	}
	if ok, err := s.svc.Member(t.Context(), id, s.idOf(ann)); err != nil || !ok {
		t.Errorf("ann a member: %v, %v", ok, err)
	}
	if ok, err := s.svc.Member(t.Context(), "nope", s.idOf(ann)); err != nil || ok {
		t.Errorf("a member of no team: %v, %v", ok, err)
	}

	// An invitation-only team refuses a stranger; the leader edits it.
	if code, m := s.do("POST", "/api/team/"+id+"/edit", lead, map[string]any{"name": "Kyzylorda club", "description": "Sundays now.", "joinMode": "invite"}); code != 200 {
		t.Fatalf("edit: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/join", cid, nil); code != http.StatusForbidden {
		t.Errorf("a stranger joins a team by invitation: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/edit", lead, map[string]any{"name": "K", "joinMode": "open"}); code != http.StatusBadRequest {
		t.Errorf("a name of one letter: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/edit", lead, map[string]any{"name": "Kyzylorda", "joinMode": "secret"}); code != http.StatusBadRequest {
		t.Errorf("a join mode that is none: %d %v", code, m)
	}

	// The last leader cannot leave while others stay.
	if code, m := s.do("POST", "/api/team/"+id+"/leave", lead, nil); code != http.StatusConflict {
		t.Errorf("the last leader leaves: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/leave", ann, nil); code != 200 {
		t.Fatalf("ann leaves: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/leave", lead, nil); code != 200 || m["closed"] != true {
		t.Fatalf("the last member leaves: %d %v", code, m)
	}
	if code, _ := s.do("GET", "/api/team/"+id, "", nil); code != http.StatusNotFound {
		t.Errorf("the closed team: %d", code)
	}
}

// idOf is the account of a token.
func (s *testSite) idOf(token string) int64 {
	var id int64
	fmt.Sscanf(token, "%d:", &id)
	return id
}

// TestTeamBounds: teams created a day, and the texts' sizes.
func TestTeamBounds(t *testing.T) {
	s := newTestSite(t)
	lead := s.user("lead")
	for i := range CreatedPerDay {
		if code, m := s.do("POST", "/api/team", lead, map[string]any{"name": fmt.Sprintf("Team %d", i)}); code != http.StatusCreated {
			t.Fatalf("team %d: %d %v", i, code, m)
		}
	}
	if code, m := s.do("POST", "/api/team", lead, map[string]any{"name": "One too many"}); code != http.StatusTooManyRequests {
		t.Errorf("a team past the day's bound: %d %v", code, m)
	}
	other := s.user("other")
	for _, c := range []struct {
		name string
		body map[string]any
	}{
		{"name too long", map[string]any{"name": strings.Repeat("ы", MaxName+1)}},
		{"name of control characters", map[string]any{"name": "Club\x00"}},
		{"description too long", map[string]any{"name": "Club", "description": strings.Repeat("a", MaxDescription+1)}},
		{"unknown field", map[string]any{"name": "Club", "owner": "me"}},
	} {
		if code, m := s.do("POST", "/api/team", other, c.body); code != http.StatusBadRequest {
			t.Errorf("%s: %d %v", c.name, code, m)
		}
	}
	if code, m := s.do("POST", "/api/team", other, map[string]any{"name": strings.Repeat("ы", MaxName)}); code != http.StatusCreated {
		t.Errorf("a name of %d Cyrillic letters: %d %v", MaxName, code, m)
	}
}

// TestTeamPages: /team lists and finds teams page by page; a team's page
// shows its members with their ratings and, to its leader, the panels;
// the forms do what the API does.
func TestTeamPages(t *testing.T) {
	s := newTestSite(t)
	lead, ann := s.user("lead"), s.user("ann")
	code, loc, body := s.form("/team", lead, url.Values{"name": {"Almaty Kumalak"}, "description": {"Club of <b>Almaty</b>"}, "joinMode": {"open"}})
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/team/") {
		t.Fatalf("create: %d %s %s", code, loc, body)
	}
	id := strings.TrimPrefix(loc, "/team/")
	if code, loc, body := s.form("/team/"+id+"/join", ann, nil); code != http.StatusSeeOther || loc != "/team/"+id {
		t.Fatalf("ann joins: %d %s %s", code, loc, body)
	}
	code, page := s.get("/team/"+id, lead)
	if code != 200 || !strings.Contains(page, "Club of &lt;b&gt;Almaty&lt;/b&gt;") || !strings.Contains(page, `href="/@/ann"`) ||
		!strings.Contains(page, `id="team-message"`) || !strings.Contains(page, `id="team-edit"`) || !strings.Contains(page, "Blitz") {
		t.Fatalf("the leader's team page: %d\n%s", code, page)
	}
	_, page = s.get("/team/"+id, ann)
	if strings.Contains(page, `id="team-message"`) || !strings.Contains(page, `id="team-leave"`) {
		t.Errorf("a member sees the leaders' panels, or no way out")
	}
	if code, loc, _ := s.form("/team/"+id+"/message", lead, url.Values{"message": {"Hello"}}); code != http.StatusSeeOther || loc != "/team/"+id+"?told=1" {
		t.Errorf("message by form: %d %s", code, loc)
	}
	if code, body := s.form2("/team/"+id+"/message", ann, url.Values{"message": {"Hello"}}); code != http.StatusForbidden {
		t.Errorf("a member's message by form: %d %s", code, body)
	}

	// Paging and search over more teams than a page.
	ctx := context.Background()
	for i := range PageSize + 2 {
		u := s.user(fmt.Sprintf("u%d", i))
		if _, err := s.svc.Create(ctx, s.idOf(u), Fields{Name: fmt.Sprintf("Aul %02d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	_, page = s.get("/team", "")
	if !strings.Contains(page, `id="teams-next"`) || !strings.Contains(page, "Almaty Kumalak") {
		t.Errorf("/team's first page: no next page, or the largest team missing")
	}
	_, page = s.get("/team?page=2", "")
	if strings.Count(page, `<th scope="row">`) != 3 || strings.Contains(page, `id="teams-next"`) {
		t.Errorf("/team's second page has %d rows", strings.Count(page, `<th scope="row">`))
	}
	_, page = s.get("/team?q=almaty", "")
	if strings.Count(page, `<th scope="row">`) != 1 {
		t.Errorf("search almaty: %d rows", strings.Count(page, `<th scope="row">`))
	}
	code, m := s.do("GET", "/api/team?q=aul&page=2", "", nil)
	if ts, _ := m["teams"].([]any); code != 200 || len(ts) != 2 || m["next"] != float64(0) {
		t.Errorf("API search aul page 2: %d %v", code, m)
	}
	code, m = s.do("GET", "/api/team/"+id, "", nil)
	if ms, _ := m["members"].([]any); code != 200 || len(ms) != 2 {
		t.Errorf("API team: %d %v", code, m)
	}

	// The requests waiting at a team on request, page by page.
	if code, m := s.do("POST", "/api/team/"+id+"/edit", lead, map[string]any{"name": "Almaty Kumalak", "joinMode": "request"}); code != 200 {
		t.Fatalf("edit: %d %v", code, m)
	}
	for i := range PageSize + 2 {
		if code, m := s.do("POST", "/api/team/"+id+"/join", s.userID(fmt.Sprintf("u%d", i)), nil); code != 200 {
			t.Fatalf("request %d: %d %v", i, code, m)
		}
	}
	_, page = s.get("/team/"+id, lead)
	if strings.Count(page, `class="team-req-accept"`) != PageSize || !strings.Contains(page, `id="rpage-next"`) {
		t.Errorf("the requests' first page: %d requests", strings.Count(page, `class="team-req-accept"`))
	}
	_, page = s.get("/team/"+id+"?rpage=2", lead)
	if strings.Count(page, `class="team-req-accept"`) != 2 {
		t.Errorf("the requests' second page: %d requests", strings.Count(page, `class="team-req-accept"`))
	}
}

// userID is the token of the account named name.
func (s *testSite) userID(name string) string {
	s.t.Helper()
	u, err := s.st.UserByName(context.Background(), name)
	if err != nil {
		s.t.Fatal(err)
	}
	return fmt.Sprintf("%d:%s", u.ID, u.Name)
}

// form2 posts a form and returns the status and body.
func (s *testSite) form2(path, token string, v url.Values) (int, string) {
	code, _, body := s.form(path, token, v)
	return code, body
}

// TestClassTeam: a class's coach makes a team of it; its students who
// accepted are invited and told; no one else may, and doing it again
// returns the same team.
func TestClassTeam(t *testing.T) {
	s := newTestSite(t)
	coach, pupil, late, other := s.user("coach"), s.user("pupil"), s.user("late"), s.user("other")
	ctx := context.Background()
	c, err := s.st.CreateClass(ctx, s.idOf(coach), "5 B", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{pupil, late} {
		if err := s.st.InviteStudent(ctx, c.ID, s.idOf(u), 10); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.st.AnswerClass(ctx, c.ID, s.idOf(pupil), true); err != nil {
		t.Fatal(err)
	}
	if code, _, body := s.form("/class/"+c.ID+"/team", other, nil); code != http.StatusForbidden {
		t.Errorf("another account makes a team of the class: %d %s", code, body)
	}
	s.notice.Take()
	code, loc, body := s.form("/class/"+c.ID+"/team", coach, nil)
	if code != http.StatusSeeOther {
		t.Fatalf("the coach: %d %s", code, body)
	}
	got := s.notice.Take()
	if len(got) != 1 || got[0].To != s.idOf(pupil) || got[0].Kind != notify.Invitation {
		t.Errorf("notices: %+v", got)
	}
	id := strings.TrimPrefix(loc, "/team/")
	tm, role, err := s.svc.Team(ctx, id, s.idOf(coach))
	if err != nil || role != Leader || tm.JoinMode != Invite || tm.ClassID != c.ID || tm.Name != "5 B" {
		t.Errorf("the class's team %+v, %q, %v", tm, role, err)
	}
	if _, loc2, _ := s.form("/class/"+c.ID+"/team", coach, nil); loc2 != loc {
		t.Errorf("again: %s, want %s", loc2, loc)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/join", pupil, nil); code != 200 || m["joined"] != true {
		t.Errorf("the pupil joins: %d %v", code, m)
	}
	if code, _, _ := s.form("/class/nope/team", coach, nil); code != http.StatusNotFound {
		t.Errorf("no class: %d", code)
	}
}

// TestModeratorAndClose: a moderator has a leader's rights in every team
// (he edits a team's texts, removes a member); a leader closes his team
// only meaning it, and it is gone.
func TestModeratorAndClose(t *testing.T) {
	s := newTestSite(t)
	lead, ann, mod := s.user("lead"), s.user("ann"), s.user("mod")
	s.svc.isMod = func(user int64) bool { return user == s.idOf(mod) }
	_, m := s.do("POST", "/api/team", lead, map[string]any{"name": "Rude name club", "description": "rude words"})
	id := m["id"].(string)
	s.do("POST", "/api/team/"+id+"/join", ann, nil)
	if code, m := s.do("POST", "/api/team/"+id+"/edit", mod, map[string]any{"name": "Club", "description": "", "joinMode": "open"}); code != 200 {
		t.Errorf("the moderator edits: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/kick", mod, map[string]any{"user": "ann"}); code != 200 {
		t.Errorf("the moderator removes a member: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/close", ann, map[string]any{"sure": true}); code != http.StatusForbidden {
		t.Errorf("a stranger closes: %d %v", code, m)
	}
	if code, m := s.do("POST", "/api/team/"+id+"/close", lead, nil); code != http.StatusBadRequest {
		t.Errorf("closing without meaning it: %d %v", code, m)
	}
	if code, loc, body := s.form("/team/"+id+"/close", lead, url.Values{"sure": {"on"}}); code != http.StatusSeeOther || loc != "/team" {
		t.Fatalf("the leader closes: %d %s %s", code, loc, body)
	}
	if code, _ := s.get("/team/"+id, ""); code != http.StatusNotFound {
		t.Errorf("the closed team's page: %d", code)
	}
}
