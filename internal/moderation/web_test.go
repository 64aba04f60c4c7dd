package moderation

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/web"
)

// The handler tests run the pages on a real store (SQLite in a temporary
// directory) and the real templates, behind sitetest's Kit: a request's
// bearer token is "<account id>:<name>"; its language is English.

type fixture struct {
	st       *store.Store
	svc      *Service
	h        http.Handler
	mod      store.User
	alice    store.User
	bob      store.User
	withdraw []int64
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st}
	for _, u := range []*store.User{&f.mod, &f.alice, &f.bob} {
		name := map[*store.User]string{&f.mod: "Moder", &f.alice: "Alice", &f.bob: "Bob"}[u]
		if *u, err = st.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetModerator(t.Context(), f.mod.ID, true); err != nil {
		t.Fatal(err)
	}
	f.svc, err = New(t.Context(), Config{Store: st, Events: func(_ context.Context, id int64) error {
		f.withdraw = append(f.withdraw, id)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	k := sitetest.NewKit(t)
	k.Decorate = func(p *web.Page, id site.Identity) {
		p.Moderator, p.Warned = f.svc.IsModerator(id.Account.ID), f.svc.Warned(id.Account.ID)
	}
	rt := sitetest.NewRouter(k)
	NewWeb(k, f.svc).Routes(rt)
	f.h = rt.Mux
	return f
}

func as(u store.User) string { return sitetest.Token(u) }

// do sends a request as who ("" for nobody) with a form or JSON body.
func (f *fixture) do(t *testing.T, method, path, who, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if strings.HasPrefix(body, "{") {
		r.Header.Set("Content-Type", "application/json")
	} else if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if who != "" {
		r.Header.Set("Authorization", "Bearer "+who)
	}
	r.RemoteAddr = "192.0.2.1:1234"
	w := httptest.NewRecorder()
	f.h.ServeHTTP(w, r)
	return w
}

// TestModeratorRoutes: every moderator's route answers 401 to nobody, 403
// to an account without the role, and serves a moderator.
func TestModeratorRoutes(t *testing.T) {
	f := newFixture(t)
	routes := []struct {
		method, path, body string
		ok                 int
	}{
		{"GET", "/mod", "", http.StatusOK},
		{"GET", "/mod/log", "", http.StatusOK},
		{"GET", "/mod/appeals", "", http.StatusOK},
		{"GET", "/mod/@/Alice", "", http.StatusOK},
		{"POST", "/mod/@/Alice", "action=note&reason=watch", http.StatusOK},
		{"POST", "/mod/appeals/1", "decision=upheld", http.StatusNotFound},
	}
	for _, rt := range routes {
		if w := f.do(t, rt.method, rt.path, "", rt.body); w.Code != http.StatusUnauthorized {
			t.Errorf("%s %s by nobody: %d, want 401", rt.method, rt.path, w.Code)
		}
		if w := f.do(t, rt.method, rt.path, as(f.alice), rt.body); w.Code != http.StatusForbidden {
			t.Errorf("%s %s by a player: %d, want 403", rt.method, rt.path, w.Code)
		}
		if w := f.do(t, rt.method, rt.path, as(f.mod), rt.body); w.Code != rt.ok {
			t.Errorf("%s %s by a moderator: %d, want %d: %s", rt.method, rt.path, w.Code, rt.ok, w.Body)
		}
	}
	// A revoked moderator is refused once the snapshot is read again.
	if err := f.st.SetModerator(t.Context(), f.mod.ID, false); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if w := f.do(t, "GET", "/mod", as(f.mod), ""); w.Code != http.StatusForbidden {
		t.Errorf("GET /mod by a revoked moderator: %d, want 403", w.Code)
	}
}

// TestReports: a report is "received" and nothing more, a duplicate
// collapses (and costs nothing), the bound per account refuses the
// report after ReportsPerUser, and bad reports are refused with the field
// named.
func TestReports(t *testing.T) {
	f := newFixture(t)
	body := func(user, reason string) string {
		return `{"user":"` + user + `","reason":"` + reason + `","note":"engine moves"}`
	}
	for i, tt := range []struct {
		who, body string
		code      int
	}{
		{"", body("Bob", "cheating"), http.StatusUnauthorized},
		{as(f.alice), body("Bob", "cheating"), http.StatusCreated},
		{as(f.alice), body("Bob", "cheating"), http.StatusCreated}, // collapses
		{as(f.alice), body("Bob", "lying"), http.StatusBadRequest},
		{as(f.alice), body("Alice", "abuse"), http.StatusBadRequest},
		{as(f.alice), body("Nobody", "abuse"), http.StatusNotFound},
		{as(f.alice), `{"user":"Bob","reason":"other","note":"` + strings.Repeat("x", MaxNote+1) + `"}`, http.StatusBadRequest},
	} {
		w := f.do(t, "POST", "/api/mod/reports", tt.who, tt.body)
		if w.Code != tt.code {
			t.Errorf("%d: POST /api/mod/reports: %d, want %d: %s", i, w.Code, tt.code, w.Body)
		}
		if w.Code == http.StatusCreated && strings.TrimSpace(w.Body.String()) != `{"status":"received"}` {
			t.Errorf("%d: the answer says more than received: %s", i, w.Body)
		}
	}
	rs, err := f.st.ModReportsOf(t.Context(), f.bob.ID, 10)
	if err != nil || len(rs) != 1 || rs[0].Addr == "" {
		t.Fatalf("Bob's reports = %+v, %v; want one with the address", rs, err)
	}
	// The bound: ReportsPerUser a day (the one above counts); a report
	// that collapses into an open one costs nothing, even past it.
	for i := range ReportsPerUser {
		name := "Target" + strconv.Itoa(i)
		if _, err := f.st.CreateUser(t.Context(), name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"); err != nil {
			t.Fatal(err)
		}
		want := http.StatusCreated
		if i == ReportsPerUser-1 {
			want = http.StatusTooManyRequests
		}
		if w := f.do(t, "POST", "/api/mod/reports", as(f.alice), body(name, "cheating")); w.Code != want {
			t.Errorf("report %d of the day: %d, want %d: %s", i+2, w.Code, want, w.Body)
		}
	}
	if w := f.do(t, "POST", "/api/mod/reports", as(f.alice), body("Bob", "cheating")); w.Code != http.StatusCreated {
		t.Errorf("a collapsing report past the bound: %d, want 201", w.Code)
	}
	// The form page says received.
	w := f.do(t, "POST", "/report", as(f.bob), url.Values{"user": {"Alice"}, "reason": {"abuse"}}.Encode())
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `id="report-received"`) {
		t.Errorf("POST /report: %d %s", w.Code, w.Body)
	}
}

// playRated ends a rated game won by winner, at.
func playRated(t *testing.T, st *store.Store, winner, loser store.User, at time.Time, plies int, term toguz.Termination) store.Game {
	t.Helper()
	tc, _ := clock.ParseTimeControl("3+2")
	g, err := st.CreateGame(t.Context(), store.Game{Players: [2]game.Seat{game.UserSeat(winner.ID, winner.Name), game.UserSeat(loser.ID, loser.Name)},
		Rules: toguz.Standard(), TimeControl: tc, Rated: true, Status: game.Playing}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pos := toguz.StartPosition()
	for ply := 1; ply <= plies; ply++ {
		mv := pos.LegalMoves().First()
		if err := st.AppendMove(t.Context(), g.ID, store.Move{Ply: ply, Hole: mv, Played: at, Clock: -1}, nil); err != nil {
			t.Fatal(err)
		}
		pos = pos.After(mv)
	}
	if _, err := st.FinishGame(t.Context(), g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: term, At: at}); err != nil {
		t.Fatal(err)
	}
	g, _ = st.Game(t.Context(), g.ID)
	return g
}

// TestMarkRefunds: a moderator's mark voids the account's games, refunds
// its victim once, withdraws it from its events, puts it in the marked
// pool, and is in the audit log; the user may appeal once.
func TestMarkRefunds(t *testing.T) {
	f := newFixture(t)
	g := playRated(t, f.st, f.bob, f.alice, time.Now().Add(-time.Hour), 0, toguz.ByResignation)
	cat, _ := g.Category()
	before, _ := f.st.Perf(t.Context(), f.alice.ID, cat)
	act := url.Values{"action": {"engine"}, "reason": {"engine moves in every game"}}.Encode()
	w := f.do(t, "POST", "/mod/@/Bob", as(f.mod), act)
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `id="mod-done"`) {
		t.Fatalf("mark: %d %s", w.Code, w.Body)
	}
	after, _ := f.st.Perf(t.Context(), f.alice.ID, cat)
	if got := int(after.Rating.Rating - before.Rating.Rating + 0.5); got != -g.RatingDiff[1] {
		t.Errorf("Alice got %d points back, want %d", got, -g.RatingDiff[1])
	}
	f.do(t, "POST", "/mod/@/Bob", as(f.mod), act)
	again, _ := f.st.Perf(t.Context(), f.alice.ID, cat)
	if again.Rating != after.Rating {
		t.Errorf("a second mark refunded again: %v then %v", after.Rating, again.Rating)
	}
	if !f.svc.Marked(f.bob.ID) || f.svc.Marked(f.alice.ID) {
		t.Error("the snapshot does not have Bob marked (and only him)")
	}
	if len(f.withdraw) != 2 || f.withdraw[0] != f.bob.ID {
		t.Errorf("events withdrawals = %v", f.withdraw)
	}
	log, _ := f.st.ModActions(t.Context(), 0, 10)
	if len(log) < 2 || log[0].Action != "engine" || log[0].ModName != "Moder" || log[0].Reason != "engine moves in every game" {
		t.Errorf("audit log = %+v", log)
	}
	// A reason is required.
	if w := f.do(t, "POST", "/mod/@/Bob", as(f.mod), "action=warn"); w.Code != http.StatusBadRequest {
		t.Errorf("warn without a reason: %d", w.Code)
	}
	// The appeal: once per mark; the page never shows the evidence.
	w = f.do(t, "GET", "/appeal", as(f.bob), "")
	if !strings.Contains(w.Body.String(), "appeal-form") || strings.Contains(w.Body.String(), "engine moves in every game") {
		t.Fatalf("appeal page: %s", w.Body)
	}
	actions, _ := f.st.ModActions(t.Context(), f.bob.ID, 10)
	form := url.Values{"action": {strconv.FormatInt(actions[0].ID, 10)}, "text": {"I play well"}}.Encode()
	if w := f.do(t, "POST", "/appeal", as(f.bob), form); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "appeal-received") {
		t.Errorf("appeal: %d %s", w.Code, w.Body)
	}
	if w := f.do(t, "POST", "/appeal", as(f.bob), form); w.Code != http.StatusConflict {
		t.Errorf("second appeal: %d, want 409", w.Code)
	}
	appeals, _ := f.st.Appeals(t.Context(), 0, 10)
	if w := f.do(t, "POST", "/mod/appeals/"+strconv.FormatInt(appeals[0].ID, 10), as(f.mod), "decision=lifted"); w.Code != http.StatusSeeOther {
		t.Errorf("decide: %d %s", w.Code, w.Body)
	}
	if f.svc.Marked(f.bob.ID) {
		t.Error("a lifted appeal left Bob marked")
	}
}

// TestWarningAndMute: a warning waits for the user's next page until he
// has read it; a mute reaches the chat's check.
func TestWarningAndMute(t *testing.T) {
	f := newFixture(t)
	f.do(t, "POST", "/mod/@/Alice", as(f.mod), url.Values{"action": {"warn"}, "reason": {"Please be polite in the chat."}}.Encode())
	w := f.do(t, "GET", "/warning", as(f.alice), "")
	if !f.svc.Warned(f.alice.ID) || !strings.Contains(w.Body.String(), "Please be polite") || !strings.Contains(w.Body.String(), "mod-warning-banner") {
		t.Fatalf("warning page: %s", w.Body)
	}
	ws, _, _ := f.st.PendingWarning(t.Context(), f.alice.ID)
	f.do(t, "POST", "/warning", as(f.alice), "id="+strconv.FormatInt(ws.ID, 10))
	if f.svc.Warned(f.alice.ID) {
		t.Error("a read warning is still shown")
	}
	f.do(t, "POST", "/mod/@/Alice", as(f.mod), url.Values{"action": {"mute"}, "reason": {"insults"}}.Encode())
	if !f.svc.Muted("u:"+strconv.FormatInt(f.alice.ID, 10)) || f.svc.Muted("g:Alice") || f.svc.Muted("u:"+strconv.FormatInt(f.bob.ID, 10)) {
		t.Error("the mute is not where it should be")
	}
}

// TestQueueOrder: the queue puts the account with the strongest evidence
// first, whatever the order of the reports.
func TestQueueOrder(t *testing.T) {
	f := newFixture(t)
	g := playRated(t, f.st, f.bob, f.alice, time.Now(), 0, toguz.ByKazan)
	for _, r := range []store.ModReport{{TargetID: f.bob.ID, ReporterID: f.alice.ID, Reason: "cheating"}, {TargetID: f.alice.ID, ReporterID: f.bob.ID, Reason: "abuse"}} {
		if _, _, err := f.st.AddModReport(t.Context(), r, store.ModReportLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.st.PutFairPlay(t.Context(), game.FairPlay{GameID: g.ID, Side: "white", UserID: f.bob.ID, Moves: 30, Agree1: 0.9, Agree3: 1, Score: 4.5, IPR: 2600, Flag: true, Computed: time.Now(),
		Deep: 28, AgreeDeep: 0.82}); err != nil {
		t.Fatal(err)
	}
	rows, err := f.svc.Queue(t.Context())
	if err != nil || len(rows) != 2 || rows[0].UserID != f.bob.ID || rows[0].Flagged != 1 {
		t.Fatalf("queue = %+v, %v", rows, err)
	}
	w := f.do(t, "GET", "/mod", as(f.mod), "")
	if i, j := strings.Index(w.Body.String(), ">Bob<"), strings.Index(w.Body.String(), ">Alice<"); i < 0 || j < i {
		t.Errorf("the queue page does not put Bob first: %s", w.Body)
	}
	w = f.do(t, "GET", "/mod/@/Bob", as(f.mod), "")
	if !strings.Contains(w.Body.String(), "2600") || !strings.Contains(w.Body.String(), "90% / 100% / 82%") {
		t.Errorf("the account page lacks the evidence (IPR, agreement with the engine's first, top three, deeper search's): %s", w.Body)
	}
	// The players' pages never show it.
	for _, p := range []string{"/appeal", "/warning", "/report?user=Bob"} {
		if w := f.do(t, "GET", p, as(f.bob), ""); strings.Contains(w.Body.String(), "2600") || strings.Contains(w.Body.String(), "4.5") {
			t.Errorf("%s shows Bob his evidence", p)
		}
	}
}

// TestScan: the detectors file one report for flagged evidence and for
// thrown games, collapsing on a second scan.
func TestScan(t *testing.T) {
	f := newFixture(t)
	start := time.Now().Add(-time.Hour)
	var last store.Game
	for i := range SandbagLosses {
		last = playRated(t, f.st, f.bob, f.alice, start.Add(time.Duration(i)*time.Minute), 2, toguz.ByResignation)
	}
	if err := f.st.PutFairPlay(t.Context(), game.FairPlay{GameID: last.ID, Side: "white", UserID: f.bob.ID, Moves: 1, Score: 5, Flag: true, Computed: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := f.svc.Scan(t.Context(), start.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	reasons := func(u store.User) []string {
		rs, _ := f.st.ModReportsOf(t.Context(), u.ID, 10)
		var out []string
		for _, r := range rs {
			out = append(out, r.Reason)
		}
		return out
	}
	if got := strings.Join(reasons(f.alice), ","); got != "sandbagging" {
		t.Errorf("Alice's reports = %s; want one for sandbagging", got)
	}
	if got := reasons(f.bob); len(got) != 2 {
		t.Errorf("Bob's reports = %v; want cheating and boosting", got)
	}
}

// TestScanAccountEvidence: an account none of whose games is flagged is
// reported when its rated games together are (a weaker engine on every
// move), once; casual games and the evidence a moderator has dealt with do
// not count.
func TestScanAccountEvidence(t *testing.T) {
	f := newFixture(t)
	start := time.Now().Add(-time.Hour)
	th := fairplay.Default().Threshold
	// Four rated games of Alice, each at 0.6 of the threshold: none is
	// flagged, together (Stouffer: 4·0.6·th/2 = 1.2·th) they are, by the
	// strength test; Bob's four games at 0.4 of it stay under.
	for i := range 4 {
		g := playRated(t, f.st, f.alice, f.bob, start.Add(time.Duration(i)*10*time.Minute), 80, toguz.ByResignation)
		for _, side := range []struct {
			side string
			user int64
			z    float64
		}{{"white", f.alice.ID, 0.6 * th}, {"black", f.bob.ID, 0.4 * th}} {
			if err := f.st.PutFairPlay(t.Context(), game.FairPlay{GameID: g.ID, Side: side.side, UserID: side.user, Moves: 40,
				Strength: side.z, Rated: true, Computed: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
	}
	reports := func(u store.User) int {
		rs, err := f.st.ModReportsOf(t.Context(), u.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range rs {
			if r.Reason == "cheating" {
				n++
			}
		}
		return n
	}
	for range 2 {
		if err := f.svc.Scan(t.Context(), start.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := reports(f.alice), reports(f.bob); a != 1 || b != 0 {
		t.Errorf("cheating reports: Alice %d, Bob %d; want 1 and 0", a, b)
	}
}

func TestPriority(t *testing.T) {
	rows := func(scores ...float64) []game.FairPlay {
		var out []game.FairPlay
		for i, z := range scores {
			out = append(out, game.FairPlay{GameID: fmt.Sprint(i), Moves: fairplay.MinMoves, Score: z})
		}
		return out
	}
	short := []game.FairPlay{{GameID: "x", Moves: fairplay.MinMoves - 1, Score: 9}}
	for _, tt := range []struct {
		rows   []game.FairPlay
		w, out float64
	}{
		{nil, 0, 0},
		{nil, 3, 3},
		{rows(2, 2, 2, 2), 0, 4},
		{rows(1, -1), 1, 1},
		{rows(3), 0.5, 3.5},
		{short, 0, 0}, // too few judged moves to count
		// The larger of the scores' and the strength tests' combinations.
		{[]game.FairPlay{{GameID: "a", Moves: fairplay.MinMoves, Score: 1, Strength: 3}, {GameID: "b", Moves: fairplay.MinMoves, Score: 1, Strength: 5}}, 0, 8 / math.Sqrt2},
	} {
		if got := Priority(tt.rows, tt.w); math.Abs(got-tt.out) > 1e-9 {
			t.Errorf("Priority(%v, %v) = %v, want %v", tt.rows, tt.w, got, tt.out)
		}
	}
}

func TestDetector(t *testing.T) {
	thrownLoss := Played{Opponent: 2, Result: 0, Plies: 6, Quick: true}
	longLoss := Played{Opponent: 3, Result: 0, Plies: 80, Quick: true}
	win := Played{Opponent: 3, Result: 1, Plies: 90}
	fedWin := Played{Opponent: 4, Result: 1, Plies: 8, Quick: true}
	rep := func(p Played, n int) []Played {
		out := make([]Played, n)
		for i := range out {
			out[i] = p
		}
		return out
	}
	for _, tt := range []struct {
		name    string
		games   []Played
		sandbag bool
		feeders []int64
	}{
		{"none", nil, false, nil},
		{"five thrown", rep(thrownLoss, 5), true, nil},
		{"four thrown", rep(thrownLoss, 4), false, nil},
		{"thrown among many real losses", append(rep(thrownLoss, 5), rep(longLoss, 6)...), false, nil},
		{"real losses", rep(longLoss, 10), false, nil},
		{"fed by one", rep(fedWin, 4), false, []int64{4}},
		{"fed but lost twice", append(rep(fedWin, 4), rep(Played{Opponent: 4, Result: 0, Plies: 60}, 2)...), false, nil},
		{"honest wins", rep(win, 8), false, nil},
	} {
		if got := Sandbagging(tt.games); got != tt.sandbag {
			t.Errorf("%s: Sandbagging = %v", tt.name, got)
		}
		if got := Feeders(tt.games); len(got) != len(tt.feeders) || (len(got) > 0 && got[0] != tt.feeders[0]) {
			t.Errorf("%s: Feeders = %v, want %v", tt.name, got, tt.feeders)
		}
	}
}
