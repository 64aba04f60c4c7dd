package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/federation"
)

// TestFederationRoutes runs the register's pages and API through the
// server: an officer imports a list larger than the site's usual body
// bound, anyone else is refused; the next list is published from a
// report; the API filters the players and answers the card; the list's
// files download.
func TestFederationRoutes(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	defer s.close()
	ctx := t.Context()
	reg := federation.New(s.st, nil)
	if _, err := reg.SeedKnown(ctx); err != nil {
		t.Fatal(err)
	}
	officer, other := s.signup("ofitser"), s.signup("basqa")
	if err := reg.SetOfficer(ctx, "KAZ", userID(t, s, "ofitser"), true); err != nil {
		t.Fatal(err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path, token string, form url.Values, file []byte) (int, string) {
		t.Helper()
		var body bytes.Buffer
		ctype := "application/x-www-form-urlencoded"
		if file != nil {
			mw := multipart.NewWriter(&body)
			for k, v := range form {
				mw.WriteField(k, v[0])
			}
			fw, _ := mw.CreateFormFile("file", "list.csv")
			fw.Write(file)
			mw.Close()
			ctype = mw.FormDataContentType()
		} else {
			body.WriteString(form.Encode())
		}
		req, _ := http.NewRequest("POST", s.URL+path, &body)
		req.Header.Set("Content-Type", ctype)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location") + string(b)
	}
	// 3000 players: some 150 KB, past the 64 KiB of an ordinary form.
	var csv strings.Builder
	csv.WriteString("id,name_cyrl,name_latn,birth_year,sex,club,rating\n")
	for i := 1; i <= 3000; i++ {
		sex := "m"
		if i%3 == 0 {
			sex = "f"
		}
		fmt.Fprintf(&csv, "KAZ-%d,Ойыншы %d,Oiynshy %d,%d,%s,,%d\n", i, i, i, 1950+i%60, sex, 1400+i%900)
	}
	form := url.Values{"discipline": {"classic"}, "day": {"2026-02-01"}}
	if code, body := post("/federations/KAZ/import", other, form, []byte(csv.String())); code != http.StatusForbidden {
		t.Fatalf("another account's import: %d %.200s", code, body)
	}
	if code, body := post("/federations/KAZ/import", officer, form, []byte(csv.String())); code != http.StatusSeeOther || !strings.HasPrefix(body, "/federations/KAZ?done=imported%3A3000") {
		t.Fatalf("the officer's import: %d %.300s", code, body)
	}
	if code, body := post("/federations/KAZ/import", officer, url.Values{"discipline": {"classic"}, "day": {"2026-02-01"}}, []byte("id,name_latn,rating\nKAZ-9000,X,abc\n")); code != http.StatusBadRequest || !strings.Contains(body, "line 2, field rating") {
		t.Errorf("a wrong file: %d %.300s", code, body)
	}
	if err := reg.Submit(ctx, federation.Report{Event: "e1", Name: "Cup", Federation: "KAZ", Discipline: federation.Classic,
		Start: time.Date(2026, 2, 10, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 2, 11, 0, 0, 0, 0, time.UTC),
		Games: []federation.Game{{Round: 1, White: "KAZ-1", Black: "KAZ-2", Score: 1}}}); err != nil {
		t.Fatal(err)
	}
	publish := url.Values{"discipline": {"classic"}, "day": {"2026-03-01"}}
	if code, _ := post("/federations/KAZ/publish", other, publish, nil); code != http.StatusForbidden {
		t.Errorf("another account's publication: %d", code)
	}
	if code, body := post("/federations/KAZ/publish", officer, publish, nil); code != http.StatusSeeOther {
		t.Fatalf("the publication: %d %.300s", code, body)
	}
	if code, _ := post("/federations/KAZ/publish", officer, publish, nil); code != http.StatusConflict {
		t.Errorf("publishing March again: %d, want 409", code)
	}

	// One entry by the form; another federation's entry is not the officer's.
	entry := url.Values{"id": {"KAZ-NEW"}, "name_cyrl": {"Жаңа Ойыншы"}, "name_latn": {"Zhana Oiynshy"}, "birth_year": {"2012"}, "sex": {"f"}}
	if code, _ := post("/federations/KAZ/players", other, entry, nil); code != http.StatusForbidden {
		t.Errorf("another account's entry: %d", code)
	}
	if code, body := post("/federations/KAZ/players", officer, entry, nil); code != http.StatusSeeOther || body != "/players/KAZ-NEW" {
		t.Errorf("the officer's entry: %d %.200s", code, body)
	}
	if err := reg.PutPlayer(ctx, federation.Player{ID: "KGZ-1", Federation: "KGZ", NameLatn: "Kyrgyz", Sex: federation.Male}); err != nil {
		t.Fatal(err)
	}
	if code, _ := post("/federations/KAZ/players", officer, url.Values{"id": {"KGZ-1"}, "name_latn": {"Taken"}, "sex": {"m"}}, nil); code != http.StatusForbidden {
		t.Errorf("changing another federation's entry: %d", code)
	}
	if e, err := reg.Entry(ctx, "KAZ-NEW"); err != nil || e.BirthYear != 2012 || e.Sex != federation.Female {
		t.Errorf("the new entry: %+v, %v", e, err)
	}

	// The federation's configuration: the floor lowered, a rank renamed; a
	// malformed one refused with its field.
	ranks, _ := json.Marshal(federation.NationalRanks)
	cfg := url.Values{"ranks": {strings.Replace(string(ranks), `"3rd class"`, `"third class"`, 1)}, "rules": {`{"floor": 1000}`}}
	if code, _ := post("/federations/KAZ/config", other, cfg, nil); code != http.StatusForbidden {
		t.Errorf("another account's configuration: %d", code)
	}
	if code, body := post("/federations/KAZ/config", officer, cfg, nil); code != http.StatusSeeOther {
		t.Errorf("the configuration: %d %.300s", code, body)
	}
	if f, err := reg.Federation(ctx, "KAZ"); err != nil || f.Rules.Floor != 1000 || f.Rules.K != 20 || f.Ranks.Name("3", "en") != "third class" {
		t.Errorf("the configuration stored: %+v, %v", f.Rules, err)
	}
	if code, body := post("/federations/KAZ/config", officer, url.Values{"ranks": {string(ranks)}, "rules": {`{"max_difference": 900}`}}, nil); code != http.StatusBadRequest || !strings.Contains(body, "max_difference") {
		t.Errorf("a wrong configuration: %d %.300s", code, body)
	}

	// A rank awarded on the page; one the system does not have refused.
	if code, body := post("/federations/KAZ/ranks", officer, url.Values{"player": {"KAZ-1"}, "rank": {"MS"}, "date": {"2026-02-20"}, "event": {"Cup"}}, nil); code != http.StatusSeeOther {
		t.Errorf("awarding a rank: %d %.300s", code, body)
	}
	if e, err := reg.Entry(ctx, "KAZ-1"); err != nil || e.Rank != "MS" || len(e.Ranks) != 1 || e.Ranks[0].Event != "Cup" {
		t.Errorf("KAZ-1's ranks: %+v, %v", e.Ranks, err)
	}
	if code, _ := post("/federations/KAZ/ranks", officer, url.Values{"player": {"KAZ-1"}, "rank": {"GM"}, "date": {"2026-02-20"}}, nil); code != http.StatusBadRequest {
		t.Errorf("a rank not of the system: %d", code)
	}

	code, m := s.do("GET", "/api/federations", "", nil)
	if fs, _ := m["federations"].([]any); code != 200 || len(fs) != 3 {
		t.Errorf("federations: %d %v", code, m)
	}
	// Women born 1990 to 1995 (aged 31 to 36 in 2026): i%3 == 0 and 1950+i%60 in 1990..1995.
	code, m = s.do("GET", fmt.Sprintf("/api/federations/KAZ/players?sex=f&age_min=%d&age_max=%d", time.Now().Year()-1995, time.Now().Year()-1990), "", nil)
	want := 0
	for i := 1; i <= 3000; i++ {
		if by := 1950 + i%60; i%3 == 0 && by >= 1990 && by <= 1995 {
			want++
		}
	}
	if total, _ := m["total"].(float64); code != 200 || int(total) != want {
		t.Errorf("filtered players: %d, total %v, want %d", code, m["total"], want)
	}
	// KAZ-1 (1401) beat KAZ-2 (1402): K 20, D −1: PD 0.50, +10.
	code, m = s.do("GET", "/api/players/KAZ-1", "", nil)
	p, _ := m["player"].(map[string]any)
	ratings, _ := p["ratings"].(map[string]any)
	hist, _ := m["history"].([]any)
	if code != 200 || ratings["classic"] != 1411.0 || len(hist) != 2 {
		t.Errorf("the card: %d %v", code, m)
	}
	if code, _ := s.do("GET", "/api/players/KAZ-99999", "", nil); code != 404 {
		t.Errorf("an unknown player: %d", code)
	}
	code, m = s.do("GET", "/api/players?q=oiynshy%2012", "", nil)
	if total, _ := m["total"].(float64); code != 200 || total != 111 { // 12, 120–129, 1200–1299
		t.Errorf("search: %d %v", code, m["total"])
	}
	for _, f := range []struct{ ext, ctype, start string }{{"csv", "text/csv", "id,federation"}, {"trf", "text/plain", "012 "}, {"pdf", "application/pdf", "%PDF-"}} {
		resp, err := http.Get(s.URL + "/federations/KAZ/lists/classic/2026-03-01/" + f.ext)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), f.ctype) || !strings.HasPrefix(string(b), f.start) {
			t.Errorf("%s: %d %s %.40q", f.ext, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	if code, _ := pageAs(t, s, "/federations/KAZ/lists/classic/2026-04-01", ""); code != 404 {
		t.Errorf("a list not published: %d", code)
	}
}
