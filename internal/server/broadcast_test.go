package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/broadcast"
	"github.com/toguz/toguz/internal/tournament"
)

// newBroadcast makes a broadcast of a new account and returns its token
// and the broadcast's id.
func (s *testServer) newBroadcast(owner string, rounds int) (string, int64) {
	s.t.Helper()
	tok := s.signup(owner)
	code, m := s.do("POST", "/api/broadcasts", tok, map[string]any{"name": "Almaty open", "ruleset": "standard", "rounds": rounds})
	if code != 201 {
		s.t.Fatalf("create broadcast: %d %v", code, m)
	}
	return tok, int64(m["id"].(float64))
}

// bcGames returns the games of round r of broadcast id from the API.
func (s *testServer) bcGames(id int64, r int) []any {
	s.t.Helper()
	code, m := s.do("GET", fmt.Sprintf("/api/broadcasts/%d?round=%d", id, r), "", nil)
	if code != 200 {
		s.t.Fatalf("get broadcast: %d %v", code, m)
	}
	return m["games"].([]any)
}

// sheet returns the first n plies of a game from the start, as the score
// sheet writes them, played by the rules library.
func sheet(t *testing.T, n int) (plies []string, p toguz.Position) {
	t.Helper()
	p, _ = toguz.NewPosition(toguz.Standard())
	for range n {
		m := p.LegalMoves().First()
		y, next := p.Ply(m)
		plies = append(plies, y.String())
		p = next
	}
	return plies, p
}

// TestBroadcastPlyEntry: the broadcaster's plies are checked one by one;
// a wrong landing is refused with the ply's number and why, in the
// page's language on the entry form, and nothing after it is stored;
// another account may not enter plies.
func TestBroadcastPlyEntry(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok, id := s.newBroadcast("arbiter", 5)
	if code, m := s.do("POST", fmt.Sprintf("/api/broadcasts/%d/games", id), tok, map[string]any{"round": 1, "board": 1, "white": "Әлия", "black": "Бауыржан"}); code != 201 {
		t.Fatalf("add game: %d %v", code, m)
	}
	if code, _ := s.do("POST", fmt.Sprintf("/api/broadcasts/%d/games", id), tok, map[string]any{"round": 1, "board": 1, "white": "X", "black": "Y"}); code != 409 {
		t.Errorf("board 1 twice: %d, want 409", code)
	}
	gid := int64(s.bcGames(id, 1)[0].(map[string]any)["id"].(float64))
	plies, _ := sheet(t, 3)
	path := fmt.Sprintf("/api/broadcasts/%d/games/%d/plies", id, gid)
	if code, m := s.do("POST", path, tok, map[string]any{"plies": strings.Join(plies[:2], " ")}); code != 200 {
		t.Fatalf("plies: %d %v", code, m)
	}
	// Ply 3 with a wrong landing hole.
	_, before := sheet(t, 2)
	y, _ := before.Ply(before.LegalMoves().First())
	wrong := y
	wrong.Land = y.Land%9 + 1
	wrong.Tuzdik = false
	code, m := s.do("POST", path, tok, map[string]any{"plies": wrong.String() + " 11"})
	e, _ := m["error"].(map[string]any)
	if code != 400 || e == nil || !strings.Contains(fmt.Sprint(e["message"]), "ply 3") || !strings.Contains(fmt.Sprint(e["detail"]), "not "+fmt.Sprint(wrong.Land)) {
		t.Fatalf("wrong ply 3 %s: %d %v; want 400 naming ply 3 and its landing", wrong, code, m)
	}
	if n := len(s.bcGames(id, 1)[0].(map[string]any)["plies"].([]any)); n != 2 {
		t.Errorf("after the refused ply: %d plies stored, want 2", n)
	}
	// Pasting the whole sheet adds only the new ply; a sheet that is not
	// the one entered is refused at the ply where it differs.
	if code, m := s.do("POST", path, tok, map[string]any{"plies": plies[2] + " " + plies[1] + " " + plies[0], "whole": true}); code != 400 || !strings.Contains(fmt.Sprint(m), "ply 1") {
		t.Errorf("a different sheet: %d %v, want 400 at ply 1", code, m)
	}
	if code, m := s.do("POST", path, tok, map[string]any{"plies": strings.Join(plies, " "), "whole": true}); code != 200 {
		t.Fatalf("paste: %d %v", code, m)
	}
	g := s.bcGames(id, 1)[0].(map[string]any)
	if got := fmt.Sprint(g["plies"]); got != fmt.Sprint([]any{plies[0], plies[1], plies[2]}) {
		t.Errorf("plies %s, want %v", got, plies)
	}
	if !strings.HasPrefix(g["analysis"].(string), "/analysis?fen=") || !strings.HasSuffix(g["analysis"].(string), "&ruleset=standard") {
		t.Errorf("analysis link %q", g["analysis"])
	}
	// A result entered makes the standings of a round without a TRF.
	if code, m := s.do("POST", path, tok, map[string]any{"plies": "", "result": "0-1"}); code != 200 {
		t.Fatalf("result: %d %v", code, m)
	}
	_, m = s.do("GET", fmt.Sprintf("/api/broadcasts/%d", id), "", nil)
	if st := fmt.Sprint(m["standings"]); st != "[map[name:Бауыржан points:1 rank:1] map[name:Әлия points:0 rank:2]]" {
		t.Errorf("standings from the results: %s", st)
	}
	// Someone else.
	other := s.signup("intruder")
	if code, _ := s.do("POST", path, other, map[string]any{"plies": "11"}); code != 403 {
		t.Errorf("another account's plies: %d, want 403", code)
	}
	// The entry form in Kazakh shows the error of a wrong ply.
	c := s.browser()
	if code, _, _ := postForm(t, c, s.URL+"/login", url.Values{"name": {"arbiter"}, "password": {"correct horse"}}); code != 303 {
		t.Fatalf("login: %d", code)
	}
	c.Jar.SetCookies(mustURL(t, s.URL), []*http.Cookie{{Name: "lang", Value: "kk"}})
	code, _, body := postForm(t, c, s.URL+fmt.Sprintf("/broadcast/%d/game/%d/plies", id, gid), url.Values{"round": {"1"}, "plies": {"99x"}})
	if code != 400 || !strings.Contains(body, `id="bc-error"`) || !strings.Contains(body, "99x") {
		t.Errorf("entry form with a wrong ply: %d, error shown: %v", code, strings.Contains(body, `id="bc-error"`))
	}
	for _, page := range []string{"/broadcasts", fmt.Sprintf("/broadcast/%d", id), fmt.Sprintf("/broadcast/%d/enter", id)} {
		if code, body := get(t, c, s.URL+page); code != 200 || !strings.Contains(body, "</html>") {
			t.Errorf("GET %s: %d", page, code)
		}
	}
	// "Analyse this position" opens the analysis board at the game's
	// position.
	if code, body := get(t, c, s.URL+g["analysis"].(string)); code != 200 || !strings.Contains(body, g["fen"].(string)) {
		t.Errorf("the analysis link: %d, its position on the page: %v", code, strings.Contains(body, g["fen"].(string)))
	}
	if code, body := get(t, c, s.URL+fmt.Sprintf("/broadcast/%d/board/%d.svg", id, gid)); code != 200 || !strings.HasPrefix(strings.TrimSpace(body), "<svg") {
		t.Errorf("board: %d %.40q", code, body)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestBroadcastUpload: a round's TRF makes its games (byes left out) with
// their results and the standings; a record put on its board by the
// players' names gives the moves.
func TestBroadcastUpload(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok, id := s.newBroadcast("arbiter", 3)
	e := tournament.New("Almaty open", tournament.Dutch, 3)
	for _, n := range []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo"} {
		if _, err := e.AddPlayer(tournament.Player{Name: n}, tournament.ZeroBye); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Apply(1, []tournament.Pair{{White: 1, Black: 4}, {White: 5, Black: 2}, {White: 3, Black: 0}}); err != nil {
		t.Fatal(err)
	}
	if err := e.SetResult(1, 1, tournament.WhiteWins); err != nil {
		t.Fatal(err)
	}
	var trf bytes.Buffer
	if err := e.WriteTRF(&trf); err != nil {
		t.Fatal(err)
	}
	plies, _ := sheet(t, 4)
	rec := `[White "Echo"]` + "\n" + `[Black "Bravo"]` + "\n" + `[Result "*"]` + "\n\n1. " + plies[0] + " " + plies[1] + " 2. " + plies[2] + " " + plies[3] + " *\n"
	// The upload, as the entry form sends it.
	var body bytes.Buffer
	fmt.Fprintf(&body, "round=1&trf=%s&records=%s", url.QueryEscape(trf.String()), url.QueryEscape(rec))
	req, _ := http.NewRequest("POST", s.URL+fmt.Sprintf("/broadcast/%d/upload", id), &body)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 303 {
		t.Fatalf("upload: %d", resp.StatusCode)
	}
	code, m := s.do("GET", fmt.Sprintf("/api/broadcasts/%d?round=1", id), "", nil)
	if code != 200 {
		t.Fatal(code, m)
	}
	games := m["games"].([]any)
	if len(games) != 2 {
		t.Fatalf("%d games, want 2 (the bye is none): %v", len(games), games)
	}
	g1, g2 := games[0].(map[string]any), games[1].(map[string]any)
	if g1["white"] != "Alpha" || g1["black"] != "Delta" || g1["result"] != "1-0" {
		t.Errorf("board 1: %v", g1)
	}
	if g2["white"] != "Echo" || len(g2["plies"].([]any)) != 4 || g2["result"] != "" {
		t.Errorf("board 2: %v", g2)
	}
	st := m["standings"].([]any)
	if len(st) != 5 || st[0].(map[string]any)["points"].(float64) != 1 {
		t.Errorf("standings: %v", st)
	}
	code, m = s.do("GET", fmt.Sprintf("/api/broadcasts/%d?round=2", id), "", nil)
	if code != 200 || len(m["games"].([]any)) != 0 {
		t.Errorf("round 2: %d %v", code, m)
	}
	// A TRF file with a wrong line, uploaded as a file: refused, the
	// entry page naming the line, round 2 left as it was.
	bad := strings.Replace(trf.String(), "001    1", "001    x", 1)
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	mw.WriteField("round", "2")
	fw, _ := mw.CreateFormFile("trf_file", "round2.trf")
	fw.Write([]byte(bad))
	mw.Close()
	req, _ = http.NewRequest("POST", s.URL+fmt.Sprintf("/broadcast/%d/upload", id), &mp)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(page), `id="bc-error"`) || !strings.Contains(string(page), "line ") {
		t.Errorf("a bad TRF: %d, the page names the line: %v", resp.StatusCode, strings.Contains(string(page), "line "))
	}
	if games := s.bcGames(id, 2); len(games) != 0 {
		t.Errorf("after the bad TRF, round 2 has %d games", len(games))
	}
}

// TestBroadcastEvents: a viewer's event stream gets a change as soon as
// the broadcaster enters a ply.
func TestBroadcastEvents(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	tok, id := s.newBroadcast("arbiter", 1)
	s.do("POST", fmt.Sprintf("/api/broadcasts/%d/games", id), tok, map[string]any{"round": 1, "board": 1, "white": "A", "black": "B"})
	gid := int64(s.bcGames(id, 1)[0].(map[string]any)["id"].(float64))
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.URL+fmt.Sprintf("/api/broadcasts/%d/events", id), nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	rd := bufio.NewReader(resp.Body)
	if l, err := rd.ReadString('\n'); err != nil || !strings.HasPrefix(l, ": open") {
		t.Fatalf("first line %q %v", l, err)
	}
	s.bcGames(id, 1) // loaded while watched: kept until the next write
	plies, _ := sheet(t, 4)
	path := fmt.Sprintf("/api/broadcasts/%d/games/%d/plies", id, gid)
	start := time.Now()
	if code, m := s.do("POST", path, tok, map[string]any{"plies": plies[0]}); code != 200 {
		t.Fatal(code, m)
	}
	events := make(chan time.Time, 10)
	go func() {
		for {
			l, err := rd.ReadString('\n')
			if err != nil {
				close(events)
				return
			}
			if strings.HasPrefix(l, "event: change") {
				events <- time.Now()
			}
		}
	}()
	select {
	case at := <-events:
		if d := at.Sub(start); d > time.Second {
			t.Errorf("change after %v", d)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no change event")
	}
	if n := len(s.bcGames(id, 1)[0].(map[string]any)["plies"].([]any)); n != 1 {
		t.Errorf("after the change: %d plies shown, want 1 (the kept state forgotten)", n)
	}
	// Three plies at once: their changes are folded into one or two
	// events, the last state never lost.
	for _, p := range plies[1:] {
		if code, m := s.do("POST", path, tok, map[string]any{"plies": p}); code != 200 {
			t.Fatal(code, m)
		}
	}
	n := 0
	for timeout := time.After(time.Second); ; {
		select {
		case <-events:
			n++
			continue
		case <-timeout:
		}
		break
	}
	if n < 1 || n > 2 {
		t.Errorf("%d events for three plies entered at once, want 1 or 2", n)
	}
	if n := len(s.bcGames(id, 1)[0].(map[string]any)["plies"].([]any)); n != 4 {
		t.Errorf("%d plies shown, want 4", n)
	}
}

// TestBroadcastBounds: a guest cannot broadcast, and an account at most
// broadcast.MaxPerAccount.
func TestBroadcastBounds(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	if code, _ := s.do("POST", "/api/broadcasts", s.guest(), map[string]any{"name": "x", "rounds": 1}); code != 401 {
		t.Errorf("guest: %d, want 401", code)
	}
	tok := s.signup("arbiter")
	for i := range broadcast.MaxPerAccount {
		if code, m := s.do("POST", "/api/broadcasts", tok, map[string]any{"name": fmt.Sprint("e", i), "rounds": 1}); code != 201 {
			t.Fatal(code, m)
		}
	}
	if code, _ := s.do("POST", "/api/broadcasts", tok, map[string]any{"name": "one more", "rounds": 1}); code != 429 {
		t.Errorf("past the bound: %d, want 429", code)
	}
	if code, _ := s.do("POST", "/api/broadcasts", s.signup("other"), map[string]any{"name": "x", "rounds": broadcast.MaxRounds + 1}); code != 400 {
		t.Errorf("too many rounds: %d, want 400", code)
	}
}
