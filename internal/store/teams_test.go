package store

import (
	"errors"
	"testing"
)

// TestTeams: a team, its members, requests and invitations, within their
// bounds; the last leader cannot leave others leaderless, and the last
// member's leaving closes the team.
func TestTeams(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		lead, ann, bob, cid := mustUser(t, s, "lead"), mustUser(t, s, "Ann"), mustUser(t, s, "bob"), mustUser(t, s, "cid")
		b := TeamBounds{Joined: 2, Members: 3, Pending: 1}
		tm, err := s.CreateTeam(ctx, Team{Name: "Almaty Kumalak Club", Description: "d", JoinMode: "request", CreatedBy: lead.ID}, 2, b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTeam(ctx, Team{Name: "Second", JoinMode: "open", CreatedBy: lead.ID}, 2, b); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTeam(ctx, Team{Name: "Third", JoinMode: "open", CreatedBy: lead.ID}, 2, b); !errors.Is(err, ErrLimit) {
			t.Errorf("a third team in a day of two: %v", err)
		}
		if role, err := s.TeamRole(ctx, tm.ID, lead.ID); err != nil || role != "leader" {
			t.Errorf("creator's role %q, %v", role, err)
		}
		// A request, a second one waiting over the bound, an invitation.
		if err := s.RequestTeam(ctx, tm.ID, ann.ID, "hello", 5, 1); err != nil {
			t.Fatal(err)
		}
		if err := s.RequestTeam(ctx, tm.ID, bob.ID, "me too", 5, 1); !errors.Is(err, ErrLimit) {
			t.Errorf("a second request waiting of one: %v", err)
		}
		if err := s.AdmitTeam(ctx, tm.ID, bob.ID, "request", b); !errors.Is(err, ErrNotFound) {
			t.Errorf("admitting a request never made: %v", err)
		}
		rs, err := s.TeamRequests(ctx, tm.ID, false, 0, 10)
		if err != nil || len(rs) != 1 || rs[0].Name != "Ann" || rs[0].Message != "hello" || rs[0].TeamName != tm.Name {
			t.Fatalf("requests %+v, %v", rs, err)
		}
		if err := s.AdmitTeam(ctx, tm.ID, ann.ID, "request", b); err != nil {
			t.Fatal(err)
		}
		if rs, _ := s.TeamRequests(ctx, tm.ID, false, 0, 10); len(rs) != 0 {
			t.Errorf("the admitted request still waits: %+v", rs)
		}
		if err := s.InviteTeam(ctx, tm.ID, ann.ID, lead.ID, 5, 1); !errors.Is(err, ErrConflict) {
			t.Errorf("inviting a member: %v", err)
		}
		if err := s.InviteTeam(ctx, tm.ID, bob.ID, lead.ID, 5, 1); err != nil {
			t.Fatal(err)
		}
		if inv, err := s.TeamInvitesOf(ctx, bob.ID, 0, 10); err != nil || len(inv) != 1 || inv[0].By != "lead" {
			t.Fatalf("bob's invitations %+v, %v", inv, err)
		}
		if _, invited, err := s.TeamRequested(ctx, tm.ID, bob.ID); err != nil || !invited {
			t.Errorf("bob invited: %v, %v", invited, err)
		}
		if err := s.AdmitTeam(ctx, tm.ID, bob.ID, "invite", b); err != nil {
			t.Fatal(err)
		}
		if err := s.AdmitTeam(ctx, tm.ID, cid.ID, "", b); !errors.Is(err, ErrLimit) {
			t.Errorf("a fourth member of three: %v", err)
		}
		got, err := s.GetTeam(ctx, tm.ID)
		if err != nil || got.Members != 3 {
			t.Fatalf("team %+v, %v", got, err)
		}
		ms, err := s.TeamMembers(ctx, tm.ID, 0, 10)
		if err != nil || len(ms) != 3 || ms[0].Name != "lead" || ms[1].Name != "Ann" || ms[2].Name != "bob" || ms[0].Perfs[0].Category != TeamPerfs[0] {
			t.Fatalf("members %+v, %v", ms, err)
		}
		if ms, _ := s.TeamMembers(ctx, tm.ID, 2, 10); len(ms) != 1 {
			t.Errorf("members' page 2 of size 2: %+v", ms)
		}
		// Roles: the last leader neither steps down nor leaves.
		if err := s.SetTeamRole(ctx, tm.ID, lead.ID, "member"); !errors.Is(err, ErrLastLeader) {
			t.Errorf("the last leader steps down: %v", err)
		}
		if _, err := s.LeaveTeam(ctx, tm.ID, lead.ID); !errors.Is(err, ErrLastLeader) {
			t.Errorf("the last leader leaves: %v", err)
		}
		if err := s.SetTeamRole(ctx, tm.ID, ann.ID, "leader"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LeaveTeam(ctx, tm.ID, lead.ID); err != nil {
			t.Fatal(err)
		}
		if closed, err := s.LeaveTeam(ctx, tm.ID, bob.ID); err != nil || closed {
			t.Errorf("bob leaves: closed %v, %v", closed, err)
		}
		if closed, err := s.LeaveTeam(ctx, tm.ID, ann.ID); err != nil || !closed {
			t.Errorf("the last member leaves: closed %v, %v", closed, err)
		}
		if _, err := s.GetTeam(ctx, tm.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("the closed team: %v", err)
		}
		// Search regardless of case, wildcards taken as letters.
		if err := s.UpdateTeam(ctx, "nope", "x", "", "open"); !errors.Is(err, ErrNotFound) {
			t.Errorf("updating no team: %v", err)
		}
		ts, err := s.Teams(ctx, "SEC", 0, 10)
		if err != nil || len(ts) != 1 || ts[0].Name != "Second" {
			t.Errorf("search SEC: %+v, %v", ts, err)
		}
		if ts, _ := s.Teams(ctx, "%", 0, 10); len(ts) != 0 {
			t.Errorf("search %%: %+v", ts)
		}
		mine, roles, err := s.TeamsOf(ctx, lead.ID, 0, 10)
		if err != nil || len(mine) != 1 || roles[0] != "leader" {
			t.Errorf("lead's teams %+v %v, %v", mine, roles, err)
		}
		if err := s.CountTeamWrite(ctx, lead.ID, "message:x", 1); err != nil {
			t.Fatal(err)
		}
		if err := s.CountTeamWrite(ctx, lead.ID, "message:x", 1); !errors.Is(err, ErrLimit) {
			t.Errorf("a second message of one a day: %v", err)
		}
	})
}

// TestTeamBattles: a battle with its teams; an entrant plays for the first
// of its teams he is a member of, and keeps it; a stranger plays for none.
func TestTeamBattles(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		lead, ann, x := mustUser(t, s, "lead"), mustUser(t, s, "ann"), mustUser(t, s, "x")
		b := TeamBounds{Joined: 5, Members: 5, Pending: 5}
		a, err := s.CreateTeam(ctx, Team{Name: "Aral", JoinMode: "open", CreatedBy: lead.ID}, 5, b)
		if err != nil {
			t.Fatal(err)
		}
		z, err := s.CreateTeam(ctx, Team{Name: "Zaisan", JoinMode: "open", CreatedBy: ann.ID}, 5, b)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AdmitTeam(ctx, a.ID, ann.ID, "", b); err != nil {
			t.Fatal(err)
		}
		bt := TeamBattle{EventID: "ev1", TeamID: a.ID, Leaders: 3, CreatedBy: lead.ID, Teams: []BattleTeam{{z.ID, "Zaisan"}, {a.ID, "Aral"}}}
		if err := s.CreateTeamBattle(ctx, bt); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetTeamBattle(ctx, "ev1")
		if err != nil || got.Leaders != 3 || len(got.Teams) != 2 || got.Teams[0].Name != "Aral" {
			t.Fatalf("battle %+v, %v", got, err)
		}
		if team, err := s.EnterTeamBattle(ctx, "ev1", ann.ID); err != nil || team != a.ID {
			t.Errorf("ann, in both, plays for %q (%v), want Aral's", team, err)
		}
		if _, err := s.EnterTeamBattle(ctx, "ev1", x.ID); !errors.Is(err, ErrNotFound) {
			t.Errorf("a stranger enters: %v", err)
		}
		if bs, err := s.TeamBattlesOf(ctx, z.ID, 0, 10); err != nil || len(bs) != 1 || bs[0].EventID != "ev1" {
			t.Errorf("Zaisan's battles %+v, %v", bs, err)
		}
		if ps, err := s.TeamBattlePlayers(ctx, "ev1"); err != nil || len(ps) != 1 || ps[ann.ID] != a.ID {
			t.Errorf("players %v, %v", ps, err)
		}
		if _, err := s.GetTeamBattle(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("no battle: %v", err)
		}
	})
}

// TestTeamMatches: a match with its lineups, replaced until it starts,
// started once, its games recorded by board.
func TestTeamMatches(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		lead, a1, a2, b1 := mustUser(t, s, "lead"), mustUser(t, s, "a1"), mustUser(t, s, "a2"), mustUser(t, s, "b1")
		m, err := s.CreateTeamMatch(ctx, TeamMatch{TeamA: "ta", TeamB: "tb", NameA: "Aral", NameB: "Balkhash", Boards: 2, TC: "5+3", Rated: true, CreatedBy: lead.ID}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTeamMatch(ctx, TeamMatch{TeamA: "ta", TeamB: "tb", Boards: 1, TC: "5+3", CreatedBy: lead.ID}, 1); !errors.Is(err, ErrLimit) {
			t.Errorf("a second match of one a day: %v", err)
		}
		if err := s.SetMatchLineup(ctx, m.ID, "ta", []int64{a2.ID, a1.ID}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMatchLineup(ctx, m.ID, "ta", []int64{a1.ID, a2.ID}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetMatchLineup(ctx, m.ID, "tb", []int64{b1.ID}); err != nil {
			t.Fatal(err)
		}
		if err := s.StartTeamMatch(ctx, m.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.StartTeamMatch(ctx, m.ID); !errors.Is(err, ErrConflict) {
			t.Errorf("a second start: %v", err)
		}
		if err := s.SetMatchLineup(ctx, m.ID, "tb", []int64{b1.ID}); !errors.Is(err, ErrConflict) {
			t.Errorf("a lineup after the start: %v", err)
		}
		if err := s.SetMatchGame(ctx, m.ID, 2, "g2"); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetTeamMatch(ctx, m.ID)
		if err != nil || got.Started.IsZero() || !got.Rated || len(got.Lineups[0]) != 2 || got.Lineups[0][0].Name != "a1" ||
			len(got.Lineups[1]) != 1 || got.Lineups[1][0].Name != "b1" || len(got.Games) != 2 || got.Games[0] != "" || got.Games[1] != "g2" {
			t.Fatalf("match %+v, %v", got, err)
		}
		if ms, err := s.TeamMatchesOf(ctx, "tb", 0, 10); err != nil || len(ms) != 1 {
			t.Errorf("tb's matches %+v, %v", ms, err)
		}
		if _, err := s.GetTeamMatch(ctx, "nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("no match: %v", err)
		}
		if err := s.SetMatchLineup(ctx, "nope", "ta", nil); !errors.Is(err, ErrNotFound) {
			t.Errorf("a lineup of no match: %v", err)
		}
	})
}
