package store

import (
	"errors"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// ratedWin plays a rated blitz game between two accounts to its end, the
// winner first, and returns it.
func ratedWin(t *testing.T, s *Store, winner, loser User, at time.Time) Game {
	t.Helper()
	tc, err := clock.ParseTimeControl("5+3")
	if err != nil {
		t.Fatal(err)
	}
	g := mustGame(t, s, Game{Players: [2]game.Seat{game.UserSeat(winner.ID, winner.Name), game.UserSeat(loser.ID, loser.Name)},
		Rules: toguz.Standard(), TimeControl: tc, Rated: true, Status: game.Playing})
	if _, err := s.FinishGame(t.Context(), g.ID, Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation, At: at}); err != nil {
		t.Fatal(err)
	}
	g, err = s.Game(t.Context(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestModReports: reports are stored, a second report of the same target
// for the same reason by the same reporter collapses into the first, the
// bounds per reporter and per address refuse the next one, and a report of
// nobody is refused; the queue lists the targets with the chat reports
// of their name.
func TestModReports(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b, c := mustUser(t, s, "Abai"), mustUser(t, s, "Bolat"), mustUser(t, s, "Cholpon")
		lim := ModReportLimits{PerUser: 2, PerAddr: 3}
		tests := []struct {
			r         ModReport
			collapsed bool
			err       error
		}{
			{ModReport{TargetID: b.ID, ReporterID: a.ID, Reason: "cheating", Addr: "x"}, false, nil},
			{ModReport{TargetID: b.ID, ReporterID: a.ID, Reason: "cheating", Addr: "x", Note: "again"}, true, nil},
			{ModReport{TargetID: c.ID, ReporterID: a.ID, Reason: "abuse", Addr: "x"}, false, nil},
			{ModReport{TargetID: c.ID, ReporterID: a.ID, Reason: "other", Addr: "y"}, false, ErrReportLimit}, // per user
			{ModReport{TargetID: a.ID, ReporterID: c.ID, Reason: "other", Addr: "x"}, false, ErrReportLimit}, // per address (x has 2)... then 3
			{ModReport{TargetID: 999, ReporterID: c.ID, Reason: "other", Addr: "z"}, false, ErrNotFound},
			{ModReport{TargetID: b.ID, Reason: "cheating", Weight: 2}, false, nil},
			{ModReport{TargetID: b.ID, Reason: "cheating", Weight: 2}, true, nil},
		}
		// Address x holds two reports; a third from it is still allowed,
		// so that the per-address test above needs one more first.
		if _, _, err := s.AddModReport(ctx, ModReport{TargetID: a.ID, ReporterID: b.ID, Reason: "abuse", Addr: "x"}, lim); err != nil {
			t.Fatal(err)
		}
		for i, tt := range tests {
			_, collapsed, err := s.AddModReport(ctx, tt.r, lim)
			if collapsed != tt.collapsed || !errors.Is(err, tt.err) {
				t.Errorf("%d: AddModReport(%+v) = %v, %v; want %v, %v", i, tt.r, collapsed, err, tt.collapsed, tt.err)
			}
		}
		if _, err := s.AddReport(ctx, Report{Reporter: "u:1", ReporterName: "Abai", Reported: "cholpon", Room: "lobby", Message: "rude", Verified: true}); err != nil {
			t.Fatal(err)
		}
		q, err := s.ModQueue(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]ModQueueEntry{}
		for _, e := range q {
			got[e.Name] = e
		}
		if e := got["Bolat"]; e.Reports != 2 || e.Weight != 3 {
			t.Errorf("queue entry of Bolat = %+v; want 2 reports weighing 3", e)
		}
		if e := got["Cholpon"]; e.Reports != 1 || e.Chat != 1 || e.Weight != 2 {
			t.Errorf("queue entry of Cholpon = %+v; want 1 report and 1 chat report", e)
		}
		rs, err := s.ModReportsOf(ctx, b.ID, 10)
		if err != nil || len(rs) != 2 || rs[1].ReporterName != "Abai" || !rs[0].Open {
			t.Errorf("ModReportsOf = %+v, %v", rs, err)
		}
		// Dealing with Bolat takes him out of the queue.
		if _, err := s.ApplyModChange(ctx, ModChange{UserID: b.ID, ModID: a.ID, Action: "dismiss", Resolve: true}); err != nil {
			t.Fatal(err)
		}
		q, _ = s.ModQueue(ctx, 10)
		for _, e := range q {
			if e.UserID == b.ID {
				t.Errorf("Bolat still queued after dismiss: %+v", e)
			}
		}
	})
}

// TestModMarkRefund: marking an account voids its recent rated games and
// gives back the points its opponents lost in them, once: marking it again
// refunds nothing, and a game before the window is left alone. The audit
// log has every action.
func TestModMarkRefund(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		cheat, victim, old := mustUser(t, s, "Cheat"), mustUser(t, s, "Victim"), mustUser(t, s, "Old")
		ratedWin(t, s, cheat, old, t0.Add(-40*24*time.Hour))
		g := ratedWin(t, s, cheat, victim, t0.Add(-time.Hour))
		lost := g.RatingDiff[1]
		if lost >= 0 {
			t.Fatalf("the loser's diff %d is not a loss", lost)
		}
		cat, _ := g.Category()
		before, _ := s.Perf(ctx, victim.ID, cat)
		oldBefore, _ := s.Perf(ctx, old.ID, cat)
		mark := ModChange{UserID: cheat.ID, ModID: victim.ID, Action: "engine", Reason: "engine moves", Resolve: true,
			Set: func(f *ModFlags) { f.Engine = true }, Void: true, VoidSince: t0.Add(-30 * 24 * time.Hour), VoidMax: 100}
		res, err := s.ApplyModChange(ctx, mark)
		if err != nil {
			t.Fatal(err)
		}
		if res.Voided != 1 || res.Refunded != 1 || res.Points != -lost {
			t.Errorf("first mark = %+v; want 1 voided, 1 refunded, %d points", res, -lost)
		}
		after, _ := s.Perf(ctx, victim.ID, cat)
		if d := after.Rating.Rating - before.Rating.Rating; d != float64(-lost) {
			t.Errorf("victim's rating moved by %v; want %d", d, -lost)
		}
		res, err = s.ApplyModChange(ctx, mark)
		if err != nil || res.Voided != 0 || res.Refunded != 0 {
			t.Errorf("second mark = %+v, %v; want nothing refunded again", res, err)
		}
		again, _ := s.Perf(ctx, victim.ID, cat)
		oldAfter, _ := s.Perf(ctx, old.ID, cat)
		if again.Rating != after.Rating || oldAfter.Rating != oldBefore.Rating {
			t.Errorf("ratings after the second mark: victim %v (was %v), old %v (was %v)", again.Rating, after.Rating, oldAfter.Rating, oldBefore.Rating)
		}
		board, err := s.Leaderboard(ctx, cat, 1000, 10)
		if err != nil || len(board) != 2 {
			t.Errorf("leaderboard = %+v, %v; want the two not marked", board, err)
		}
		for _, e := range board {
			if e.UserID == cheat.ID {
				t.Error("the marked account is on the leaderboard")
			}
		}
		f, err := s.ModFlagsOf(ctx, cheat.ID)
		if err != nil || !f.Engine || !f.Marked() || f.Booster {
			t.Errorf("flags = %+v, %v", f, err)
		}
		refunds, err := s.ModRefundsAgainst(ctx, cheat.ID, 10)
		if err != nil || len(refunds) != 1 || refunds[0].UserName != "Victim" || refunds[0].Category != cat.String() {
			t.Errorf("refunds = %+v, %v", refunds, err)
		}
		voided, _ := s.VoidedGames(ctx, cheat.ID)
		if !voided[g.ID] || len(voided) != 1 {
			t.Errorf("voided = %v; want %s only", voided, g.ID)
		}
		snap, err := s.ModSnapshotNow(ctx)
		if err != nil || !snap.Flags[cheat.ID].Engine {
			t.Errorf("snapshot = %+v, %v", snap, err)
		}
		if _, err := s.ApplyModChange(ctx, ModChange{UserID: cheat.ID, ModID: victim.ID, Action: "clear", Set: func(f *ModFlags) { *f = ModFlags{Resolved: f.Resolved} }}); err != nil {
			t.Fatal(err)
		}
		if f, _ := s.ModFlagsOf(ctx, cheat.ID); f.Marked() {
			t.Errorf("flags after clear = %+v", f)
		}
		log, err := s.ModActions(ctx, cheat.ID, 10)
		if err != nil || len(log) != 3 || log[0].Action != "clear" || log[2].Reason != "engine moves" || log[2].ModName != "Victim" {
			t.Errorf("audit log = %+v, %v", log, err)
		}
		if _, err := s.ApplyModChange(ctx, ModChange{UserID: 999, Action: "warn"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("action on nobody = %v, want ErrNotFound", err)
		}
	})
}

// TestModRolesWarningsAppeals: the moderator role comes and goes; a warning
// waits until seen; an appeal is accepted once per mark and decided once.
func TestModRolesWarningsAppeals(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		mod, u := mustUser(t, s, "Moder"), mustUser(t, s, "User")
		if err := s.SetModerator(ctx, mod.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := s.SetModerator(ctx, 999, true); !errors.Is(err, ErrNotFound) {
			t.Errorf("grant to nobody = %v", err)
		}
		if ms, err := s.Moderators(ctx); err != nil || len(ms) != 1 || ms[0].Name != "Moder" {
			t.Errorf("Moderators = %+v, %v", ms, err)
		}
		res, err := s.ApplyModChange(ctx, ModChange{UserID: u.ID, ModID: mod.ID, Action: "booster", Set: func(f *ModFlags) { f.Booster = true },
			Warning: "stop feeding points"})
		if err != nil {
			t.Fatal(err)
		}
		w, ok, err := s.PendingWarning(ctx, u.ID)
		if err != nil || !ok || w.Text != "stop feeding points" {
			t.Fatalf("PendingWarning = %+v, %v, %v", w, ok, err)
		}
		if snap, _ := s.ModSnapshotNow(ctx); !snap.Warned[u.ID] || !snap.Moderators[mod.ID] || !snap.Flags[u.ID].Booster {
			t.Errorf("snapshot = %+v", snap)
		}
		if err := s.SeeWarning(ctx, u.ID, w.ID); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := s.PendingWarning(ctx, u.ID); ok {
			t.Error("a seen warning is still pending")
		}
		if _, err := s.ApplyModChange(ctx, ModChange{UserID: u.ID, ModID: mod.ID, Action: "mute", Set: func(f *ModFlags) { f.Muted = true }}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddAppeal(ctx, ModAppeal{UserID: u.ID, ActionID: res.ActionID, Text: "I only lost"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddAppeal(ctx, ModAppeal{UserID: u.ID, ActionID: res.ActionID, Text: "again"}); !errors.Is(err, ErrConflict) {
			t.Errorf("second appeal = %v, want ErrConflict", err)
		}
		if _, err := s.AddAppeal(ctx, ModAppeal{UserID: mod.ID, ActionID: res.ActionID, Text: "not mine"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("appeal of another's action = %v, want ErrNotFound", err)
		}
		open, err := s.Appeals(ctx, 0, 10)
		if err != nil || len(open) != 1 || open[0].Action != "booster" || open[0].UserName != "User" {
			t.Fatalf("Appeals = %+v, %v", open, err)
		}
		if err := s.DecideAppeal(ctx, open[0].ID, mod.ID, "lifted", "one bad day"); err != nil {
			t.Fatal(err)
		}
		if err := s.DecideAppeal(ctx, open[0].ID, mod.ID, "upheld", ""); !errors.Is(err, ErrConflict) {
			t.Errorf("second decision = %v, want ErrConflict", err)
		}
		if f, _ := s.ModFlagsOf(ctx, u.ID); f.Booster || !f.Muted {
			t.Errorf("after lifting the booster mark: %+v; want the mute kept", f)
		}
		if err := s.SetModerator(ctx, mod.ID, false); err != nil {
			t.Fatal(err)
		}
		if ms, _ := s.Moderators(ctx); len(ms) != 0 {
			t.Errorf("Moderators after revoke = %+v", ms)
		}
		if err := s.AddModNote(ctx, ModNote{UserID: u.ID, ModID: mod.ID, Text: "watch him"}); err != nil {
			t.Fatal(err)
		}
		if ns, err := s.ModNotes(ctx, u.ID, 10); err != nil || len(ns) != 1 || ns[0].ModName != "Moder" {
			t.Errorf("ModNotes = %+v, %v", ns, err)
		}
	})
}

// TestModDetectorQueries: the accounts with flagged evidence since their
// last resolution, and the accounts that just finished rated games.
func TestModDetectorQueries(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, _ := openTest(t, be)
		ctx := t.Context()
		a, b := mustUser(t, s, "Abai"), mustUser(t, s, "Bolat")
		g := ratedWin(t, s, a, b, t0.Add(-time.Minute))
		if err := s.PutFairPlay(ctx, game.FairPlay{GameID: g.ID, Side: "white", UserID: a.ID, Moves: 30, Score: 5, Flag: true, Computed: t0}); err != nil {
			t.Fatal(err)
		}
		if ids, err := s.FlaggedAccounts(ctx, t0.Add(-time.Hour), 10); err != nil || len(ids) != 1 || ids[0] != a.ID {
			t.Errorf("FlaggedAccounts = %v, %v", ids, err)
		}
		if ids, _ := s.FlaggedAccounts(ctx, t0, 10); len(ids) != 0 {
			t.Errorf("FlaggedAccounts after the evidence = %v", ids)
		}
		// Bolat's side: judged, rated, not flagged; Abai's row above is
		// casual (Rated unset), which the account check leaves out.
		if err := s.PutFairPlay(ctx, game.FairPlay{GameID: g.ID, Side: "black", UserID: b.ID, Moves: 30, Score: 1, Rated: true, Computed: t0.Add(time.Second)}); err != nil {
			t.Fatal(err)
		}
		if js, err := s.JudgedAccounts(ctx, t0.Add(-time.Hour), 10); err != nil || len(js) != 1 || js[0].UserID != b.ID || !js[0].Resolved.IsZero() {
			t.Errorf("JudgedAccounts = %+v, %v; want Bolat's, never resolved", js, err)
		}
		if js, _ := s.JudgedAccounts(ctx, t0.Add(time.Second), 10); len(js) != 0 {
			t.Errorf("JudgedAccounts after the evidence = %+v", js)
		}
		if ids, err := s.RecentRatedPlayers(ctx, t0.Add(-time.Hour), 10); err != nil || len(ids) != 2 {
			t.Errorf("RecentRatedPlayers = %v, %v", ids, err)
		}
		if gs, err := s.RatedGamesOf(ctx, b.ID, 10); err != nil || len(gs) != 1 || gs[0].Plies != 0 {
			t.Errorf("RatedGamesOf = %+v, %v", gs, err)
		}
		// A bot account is an engine by design: its flagged evidence files
		// no report.
		bot := mustUser(t, s, "Robot")
		if err := s.UpgradeToBot(ctx, bot.ID); err != nil {
			t.Fatal(err)
		}
		bg := ratedWin(t, s, bot, b, t0.Add(-time.Minute))
		if err := s.PutFairPlay(ctx, game.FairPlay{GameID: bg.ID, Side: "white", UserID: bot.ID, Moves: 30, Score: 9, Flag: true, Rated: true, Computed: t0.Add(2 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		if ids, _ := s.FlaggedAccounts(ctx, t0.Add(time.Second), 10); len(ids) != 0 {
			t.Errorf("FlaggedAccounts with a bot's evidence = %v; want none", ids)
		}
		if js, _ := s.JudgedAccounts(ctx, t0.Add(time.Second), 10); len(js) != 0 {
			t.Errorf("JudgedAccounts with a bot's evidence = %+v; want none", js)
		}
	})
}
