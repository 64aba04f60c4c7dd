package server

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/game"
)

// TestPrivacyChallenges: a direct challenge (the board API's) is refused
// when the challenged blocks the challenger, lets nobody challenge him,
// or asks a rating the challenger lacks; allowed again when he lets
// everyone.
func TestPrivacyChallenges(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	aSess, bSess := s.signup("Aigerim"), s.signup("Bolat")
	aTok := s.token(aSess, "challenge:write", "board:play")
	challenge := func() (int, map[string]any) {
		return s.botForm("POST", "/api/challenge/bolat", aTok, url.Values{"tc": {"5+3"}, "color": {"random"}})
	}
	if code, m := challenge(); code != 200 {
		t.Fatalf("challenge with the defaults: %d %v", code, m)
	}
	if code, _, body := s.form("/@/Aigerim/block", bSess, nil); code != http.StatusSeeOther {
		t.Fatalf("block: %d %s", code, body)
	}
	if code, m := challenge(); code != 403 {
		t.Errorf("a blocked user's challenge: %d %v, want 403", code, m)
	}
	if code, _, body := s.form("/@/Aigerim/unblock", bSess, url.Values{"back": {"settings"}}); code != http.StatusSeeOther {
		t.Fatalf("unblock: %d %s", code, body)
	}
	settings := func(challenge, rating string) {
		t.Helper()
		code, _, body := s.form("/account/preferences/privacy", bSess, url.Values{"challenge": {challenge}, "challenge_rating": {rating},
			"message": {"everyone"}, "follow": {"everyone"}, "online": {"everyone"}})
		if code != http.StatusSeeOther {
			t.Fatalf("settings %s: %d %s", challenge, code, body)
		}
	}
	settings("nobody", "")
	if code, m := challenge(); code != 403 {
		t.Errorf("challenge=nobody: %d %v, want 403", code, m)
	}
	settings("rating", "1800")
	if code, m := challenge(); code != 403 || !strings.Contains(m["error"].(string), "1800") {
		t.Errorf("challenge rated 1500 to one asking 1800: %d %v, want 403 naming 1800", code, m)
	}
	settings("everyone", "")
	if code, m := challenge(); code != 200 {
		t.Errorf("challenge=everyone: %d %v", code, m)
	}
	if code, _, body := s.form("/account/preferences/privacy", bSess, url.Values{"challenge": {"rating"}, "challenge_rating": {"99"},
		"message": {"everyone"}, "follow": {"everyone"}, "online": {"everyone"}}); code != 400 {
		t.Errorf("a rating out of bounds: %d %s", code, body)
	}
	if code, _, body := s.form("/account/preferences/privacy", bSess, url.Values{"challenge": {"pals"}}); code != 400 {
		t.Errorf("an unknown choice: %d %s", code, body)
	}
	if code, page := getAs(t, s, bSess, "/account/preferences/privacy"); code != 200 || !strings.Contains(page, `value="everyone" id="privacy-challenge-everyone" checked`) {
		t.Errorf("settings page: %d", code)
	}
}

// TestPrivacyBlockedSeeks: the seeks of a user one blocks (or who blocks
// one) are not listed to him and cannot be accepted by him; others see
// and accept them.
func TestPrivacyBlockedSeeks(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	a, b, c := s.signup("Aigerim"), s.signup("Bolat"), s.signup("Dana")
	if code, _, body := s.form("/@/Aigerim/block", b, nil); code != http.StatusSeeOther {
		t.Fatalf("block: %d %s", code, body)
	}
	code, m := s.do("POST", "/api/seeks", a, map[string]any{"tc": "5+3", "color": "white"})
	if code != 201 {
		t.Fatalf("seek: %d %v", code, m)
	}
	id := m["id"].(string)
	listed := func(tok string) bool {
		_, m := s.do("GET", "/api/seeks", tok, nil)
		for _, sk := range m["seeks"].([]any) {
			if sk.(map[string]any)["id"] == id {
				return true
			}
		}
		return false
	}
	if listed(b) || !listed(c) {
		t.Errorf("listed to the blocker %v (want false), to another %v (want true)", listed(b), listed(c))
	}
	if _, page := getAs(t, s, b, "/"); strings.Contains(page, id) {
		t.Error("the lobby page shows the blocked user's seek")
	}
	if code, m := s.do("POST", "/api/seeks/"+id+"/accept", b, nil); code != 403 {
		t.Errorf("the blocker accepts: %d %v, want 403", code, m)
	}
	if code, m := s.do("POST", "/api/seeks/"+id+"/accept", c, nil); code != 201 {
		t.Errorf("another accepts: %d %v", code, m)
	}
}

// TestPrivacyKid: kid mode is free to switch on and takes the password to
// switch off; a kid's chat is refused and the chat sent to him is
// dropped, and the lobby's chat refuses him; a coach's lock keeps it on.
func TestPrivacyKid(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	kid, other := s.signup("Kamila"), s.signup("Bolat")
	if code, _, body := s.form("/account/kid", kid, url.Values{"on": {"1"}}); code != http.StatusSeeOther {
		t.Fatalf("kid on: %d %s", code, body)
	}
	if _, page := getAs(t, s, kid, "/"); !strings.Contains(page, `data-nochat="1"`) || !strings.Contains(page, `id="chat" hidden`) {
		t.Error("the lobby shows a kid its chat")
	}
	// Black the kid, White the other: the other chats, then moves.
	_, _, gid := s.game(other, kid, "5+3", false)
	wk, wo := s.dial(gid, kid), s.dial(gid, other)
	wk.until("state")
	wo.until("state")
	wk.send(map[string]any{"type": "chat", "text": "salem"})
	if m := wk.until("error"); m.Code != "forbidden" {
		t.Errorf("a kid's chat: %+v, want forbidden", m)
	}
	wo.send(map[string]any{"type": "chat", "text": "hello kid"})
	wo.move(0, 7)
	for {
		m := wk.read()
		if m.Type == "chat" || m.Type == "chat_history" {
			t.Fatalf("the kid got %s", m.Raw)
		}
		if m.Type == "move" {
			break
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, strings.Replace(s.URL, "http", "ws", 1)+"/api/lobby/chat",
		&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + kid}}})
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Errorf("the lobby's chat to a kid: %v %v, want 403", resp, err)
	}

	for _, pw := range []string{"", "wrong password"} {
		if code, _, _ := s.form("/account/kid", kid, url.Values{"on": {"0"}, "password": {pw}}); code != 403 {
			t.Errorf("kid off with password %q: %d, want 403", pw, code)
		}
	}
	if code, _, _ := s.form("/account/kid", kid, url.Values{"on": {"0"}, "password": {"correct horse"}}); code != http.StatusSeeOther {
		t.Errorf("kid off with the password: %d", code)
	}
	if _, page := getAs(t, s, kid, "/"); strings.Contains(page, `data-nochat="1"`) {
		t.Error("chat still off after kid mode")
	}

	// A coach's class locks it on: the pupil cannot lift it, the coach can.
	coach := s.signup("Coach")
	ctx2 := t.Context()
	cu, _ := s.st.UserByName(ctx2, "Coach")
	ku, _ := s.st.UserByName(ctx2, "Kamila")
	cl, err := s.st.CreateClass(ctx2, cu.ID, "Tuesday", 5)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.st.InviteStudent(ctx2, cl.ID, ku.ID, 100); err != nil {
		t.Fatal(err)
	}
	if err := s.st.AnswerClass(ctx2, cl.ID, ku.ID, true); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := s.form("/account/kid/class/"+cl.ID, kid, url.Values{"lock": {"1"}}); code != 404 {
		t.Errorf("a pupil locks his class: %d, want 404", code)
	}
	if code, _, _ := s.form("/account/kid/class/"+cl.ID, coach, url.Values{"lock": {"1"}}); code != http.StatusSeeOther {
		t.Fatalf("the coach locks: %d", code)
	}
	if code, _, _ := s.form("/account/kid", kid, url.Values{"on": {"0"}, "password": {"correct horse"}}); code != 403 {
		t.Errorf("a locked pupil switches it off: %d, want 403", code)
	}
	if code, _, _ := s.form("/account/kid/class/"+cl.ID, coach, url.Values{"lock": {"0"}}); code != http.StatusSeeOther {
		t.Fatalf("the coach unlocks: %d", code)
	}
	if _, page := getAs(t, s, kid, "/account/kid"); !strings.Contains(page, `id="kid-on"`) {
		t.Error("kid mode still on after the coach's unlock")
	}
}

// TestPrivacyBlockedChat: a player who is blocked cannot write in the
// players' room, and the lobby's chat lines of a blocked user are not
// sent to the one who blocks him.
func TestPrivacyBlockedChat(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	a, b := s.signup("Aigerim"), s.signup("Bolat")
	_, _, gid := s.game(a, b, "5+3", false)
	if code, _, _ := s.form("/@/Aigerim/block", b, nil); code != http.StatusSeeOther {
		t.Fatal("block")
	}
	wa := s.dial(gid, a)
	wa.until("state")
	wa.send(map[string]any{"type": "chat", "text": "hi"})
	if m := wa.until("error", "chat"); m.Type != "error" || m.Code != "forbidden" {
		t.Errorf("the blocked player's chat: %+v, want forbidden", m)
	}
	// The game is not over, which live would say; the block is said first.
	wa.send(map[string]any{"type": "rematch_offer"})
	if m := wa.until("error"); m.Code != "forbidden" {
		t.Errorf("a rematch across a block: %+v, want forbidden", m)
	}

	dial := func(tok string) *websocket.Conn {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		c, _, err := websocket.Dial(ctx, strings.Replace(s.URL, "http", "ws", 1)+"/api/lobby/chat",
			&websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + tok}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		return c
	}
	cb, ca := dial(b), dial(a)
	write := func(c *websocket.Conn, text string) {
		if err := c.Write(t.Context(), websocket.MessageText, []byte(`{"type":"chat","text":"`+text+`"}`)); err != nil {
			t.Fatal(err)
		}
	}
	write(ca, "from the blocked")
	dana := s.signup("Dana")
	write(dial(dana), "from dana")
	for {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		_, msg, err := cb.Read(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(msg), "from the blocked") {
			t.Fatalf("the blocker got %s", msg)
		}
		if strings.Contains(string(msg), "from dana") {
			break
		}
	}
}

// TestPrivacyClose: closing takes the password and the confirmation;
// then the account cannot log in, its session is gone, its name (in any
// case) cannot be signed up again nor can a neutral name, its profile
// says it is closed, and its games show the neutral name.
func TestPrivacyClose(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	a, b := s.signup("Aigerim"), s.signup("Bolat")
	_, _, gid := s.game(a, b, "5+3", false)
	// Both move: too late to abort, so closing resigns the game, which
	// goes to the archive.
	wa, wb := s.dial(gid, a), s.dial(gid, b)
	wa.until("state")
	wb.until("state")
	wa.move(0, 7)
	wb.until("move")
	wb.move(1, 1)
	wa.until("move")
	wa.until("move")
	code, m := s.do("POST", "/api/seeks", a, map[string]any{"tc": "5+3", "color": "white"})
	if code != 201 {
		t.Fatalf("seek: %d %v", code, m)
	}
	seek := m["id"].(string)
	if code, _, _ := s.form("/account/close", a, url.Values{"password": {"correct horse"}}); code != 400 {
		t.Errorf("no confirmation: %d, want 400", code)
	}
	if code, _, _ := s.form("/account/close", a, url.Values{"confirm": {"1"}, "password": {"nope nope"}}); code != 403 {
		t.Errorf("a wrong password: %d, want 403", code)
	}
	if code, _, page := s.form("/account/close", a, url.Values{"confirm": {"1"}, "password": {"correct horse"}}); code != 200 || !strings.Contains(page, `id="close-done"`) {
		t.Fatalf("close: %d", code)
	}
	if code, _ := s.do("GET", "/api/me", a, nil); code != 401 {
		t.Errorf("the closed account's session: %d, want 401", code)
	}
	if code, m := s.do("POST", "/api/login", "", map[string]any{"name": "aigerim", "password": "correct horse"}); code != 401 {
		t.Errorf("login to the closed account: %d %v, want 401", code, m)
	}
	for _, name := range []string{"Aigerim", "AIGERIM", "aigerim"} {
		if code, m := s.do("POST", "/api/signup", "", map[string]any{"name": name, "password": "another pass"}); code != 409 {
			t.Errorf("sign up as %s: %d %v, want 409", name, code, m)
		}
	}
	if code, m := s.do("GET", "/api/seeks/"+seek, b, nil); code != 404 {
		t.Errorf("the closed account's seek: %d %v, want gone", code, m)
	}
	if _, page := getAs(t, s, b, "/@/Aigerim"); !strings.Contains(page, `id="profile-closed"`) {
		t.Error("the profile does not say closed")
	}
	if code, m := s.do("GET", "/api/users/aigerim", "", nil); code != 200 || m["closed"] != true || m["ratings"] != nil {
		t.Errorf("the API's profile of the closed account: %d %v", code, m)
	}
	if _, m := s.do("GET", "/api/users/aigerim/games", "", nil); len(m["games"].([]any)) != 0 {
		t.Errorf("the API lists the closed account's games under its name: %v", m)
	}
	if _, m := s.do("GET", "/api/archive?player=aigerim", "", nil); strings.Contains(fmt.Sprint(m), gid) {
		t.Errorf("the archive's search by the old name finds its game: %v", m)
	}
	g, err := s.st.Game(t.Context(), gid)
	if err != nil {
		t.Fatal(err)
	}
	neutral := g.Players[0].Name
	if !strings.HasPrefix(neutral, "closed-") || g.Status != game.Ended {
		t.Fatalf("the game: white %q, %v; want a neutral name, the game ended", neutral, g.Status)
	}
	if _, m := s.do("GET", "/api/archive?player="+neutral, "", nil); !strings.Contains(fmt.Sprint(m), gid) {
		t.Errorf("the archive's search by the neutral name does not find the game: %v", m)
	}
	if code, m := s.do("POST", "/api/signup", "", map[string]any{"name": neutral, "password": "another pass"}); code != 400 {
		t.Errorf("sign up as the neutral name: %d %v, want 400", code, m)
	}
	if _, page := getAs(t, s, b, "/@/"+neutral); !strings.Contains(page, `id="profile-closed"`) {
		t.Error("the neutral name's profile does not say closed")
	}
}

// TestPrivacyExport: the download is one zip with the profile, the
// settings, the ratings, the games as records and the reports; bounded a
// day.
func TestPrivacyExport(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	a, b := s.signup("Aigerim"), s.signup("Bolat")
	_, _, gid := s.game(a, b, "5+3", false)
	if code, _, _ := s.form("/@/Bolat/block", a, nil); code != http.StatusSeeOther {
		t.Fatal("block")
	}
	code, _, body := s.form("/account/export", a, nil)
	if code != 200 {
		t.Fatalf("export: %d %s", code, body)
	}
	z, err := zip.NewReader(bytes.NewReader([]byte(body)), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string]string{}
	for _, f := range z.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	for name, want := range map[string]string{
		"README.txt": "games.pgn", "profile.json": `"name": "Aigerim"`, "settings.json": `"name": "Bolat"`,
		"ratings.json": "{", "rating-history.json": "{", "games.pgn": `[ID "` + gid + `"]`, "reports.json": "[",
	} {
		if !strings.Contains(files[name], want) {
			t.Errorf("%s lacks %q:\n%s", name, want, files[name])
		}
	}
	for range 4 {
		if code, _, _ := s.form("/account/export", a, nil); code != 200 {
			t.Fatalf("export within the day's bound: %d", code)
		}
	}
	if code, _, _ := s.form("/account/export", a, nil); code != 429 {
		t.Errorf("the sixth export of the day: %d, want 429", code)
	}
	if code, _, _ := s.form("/account/export", "", nil); code != 401 {
		t.Errorf("nobody's export: %d, want 401", code)
	}
}

// TestPrivacyOnline: a bot connected to its event stream is shown online
// on /bots, until its account lets nobody see it online.
func TestPrivacyOnline(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	sess := s.signup("qyran")
	tok := s.token(sess, "bot:play")
	if code, m := s.do("POST", "/api/bot/account/upgrade", tok, nil); code != 200 {
		t.Fatalf("upgrade: %d %v", code, m)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s.stream(ctx, "/api/stream/event", tok)
	if _, page := getAs(t, s, "", "/bots"); !strings.Contains(page, `class="bot-online"`) {
		t.Fatal("the connected bot is not shown online")
	}
	if code, _, body := s.form("/account/preferences/privacy", sess, url.Values{"challenge": {"everyone"},
		"message": {"everyone"}, "follow": {"everyone"}, "online": {"nobody"}}); code != http.StatusSeeOther {
		t.Fatalf("settings: %d %s", code, body)
	}
	if _, page := getAs(t, s, "", "/bots"); strings.Contains(page, `class="bot-online"`) {
		t.Error("a bot that lets nobody see it online is shown online")
	}
}

// TestPrivacyNeutralNameRefused: the sign-up refuses the closed accounts'
// prefix in any case, in the asker's language.
func TestPrivacyNeutralNameRefused(t *testing.T) {
	s := newTestServer(t, serverOpts{writes: 1000})
	for _, name := range []string{"closed-abc", "Closed-Abc", "CLOSED-x"} {
		code, m := s.do("POST", "/api/signup", "", map[string]any{"name": name, "password": "correct horse"})
		e, _ := m["error"].(map[string]any)
		if code != 400 || e["code"] != "bad_name" || !strings.Contains(fmt.Sprint(e["message"]), `"closed-"`) {
			t.Errorf("sign up as %s: %d %v", name, code, m)
		}
	}
}

// TestPrivacyFilters: what a connection is sent of the game's and the
// lobby's messages, for a kid and for an account with blocks.
func TestPrivacyFilters(t *testing.T) {
	blocked := map[string]bool{"Bolat": true}
	line := func(by string) string {
		return `{"type":"chat","room":"players","by":"` + by + `","text":"hi","at_ms":1}`
	}
	history := `{"type":"chat_history","room":"spectators","messages":[` + line("Bolat") + `,` + line("Dana") + `]}`
	move := `{"type":"move","ply":1,"hole":7}`
	for _, tc := range []struct {
		name    string
		f       func([]byte) []byte
		in, out string // out "": dropped
	}{
		{"kid: a line", chatFilter(true, nil), line("Dana"), ""},
		{"kid: a history", chatFilter(true, nil), history, ""},
		{"kid: a move", chatFilter(true, nil), move, move},
		{"blocks: his line", chatFilter(false, blocked), line("Bolat"), ""},
		{"blocks: another's line", chatFilter(false, blocked), line("Dana"), line("Dana")},
		{"blocks: a history", chatFilter(false, blocked), history,
			`{"type":"chat_history","room":"spectators","messages":[` + line("Dana") + `]}`},
		{"seeks: his", seekFilter(blocked), `{"type":"seek_added","seek":{"id":"s1","by":"Bolat"},"total":1}`, ""},
		{"seeks: another's", seekFilter(blocked), `{"type":"seek_added","seek":{"id":"s2","by":"Dana"},"total":1}`,
			`{"type":"seek_added","seek":{"id":"s2","by":"Dana"},"total":1}`},
		{"seeks: his next", seekFilter(blocked), `{"type":"seek_removed","id":"s3","total":4,"next":{"id":"s4","by":"Bolat"}}`,
			`{"type":"seek_removed","id":"s3","total":4}`},
	} {
		got := string(tc.f([]byte(tc.in)))
		if got != tc.out {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.out)
		}
	}
	if chatFilter(false, nil) != nil || seekFilter(nil) != nil {
		t.Error("a filter for nobody's privacy")
	}
}
