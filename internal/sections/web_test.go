package sections

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site/sitetest"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// The web tests serve the championships behind sitetest's Kit, the site
// as far as a feature sees it: a bearer token "7:Name" is account 7; the
// language is the "lang" query parameter's (English without one).

type testSite struct {
	t   *testing.T
	URL string
	reg *memRegister
}

func newTestSite(t *testing.T, reg *memRegister) *testSite {
	kit := sitetest.NewKit(t)
	accounts := map[string]int64{"deputy": 9}
	desk := New(Config{Store: openStore(t), Register: reg, Swiss: dutch.Pairer{}, User: func(_ context.Context, name string) (int64, error) {
		if id, ok := accounts[name]; ok {
			return id, nil
		}
		return 0, errors.New("no such account")
	}})
	rt := sitetest.NewRouter(kit)
	NewWeb(kit, desk).Routes(rt)
	ts := httptest.NewServer(rt.Mux)
	t.Cleanup(ts.Close)
	return &testSite{t: t, URL: ts.URL, reg: reg}
}

func (s *testSite) do(method, path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	r := sitetest.Client{T: s.t, URL: s.URL}.Do(method, path, token, body)
	return r.Status, r.JSON()
}

func (s *testSite) get(path, token string) (int, []byte, http.Header) {
	s.t.Helper()
	r := sitetest.Client{T: s.t, URL: s.URL}.Do("GET", path, token, nil)
	return r.Status, r.Body, r.Header
}

// post submits a form as token and returns the status and where it sent.
func (s *testSite) post(path, token string, form url.Values) (int, string) {
	s.t.Helper()
	r := sitetest.Client{T: s.t, URL: s.URL}.Do("POST", path, token, form)
	if r.Status >= 400 {
		return r.Status, string(r.Body)
	}
	return r.Status, r.Location
}

// TestDeskOverHTTP runs a small championship (4 groups × 2 disciplines ×
// 3 rounds) through the desk's forms and the API, then prints every paper
// in every language. TOGUZ_PAPERS_DIR keeps the PDFs to look at.
func TestDeskOverHTTP(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	reg, groups := simRegister(rng, 6)
	s := newTestSite(t, reg)
	const arb, stranger = "7:Arbiter Aliev", "8:Someone"
	specs := specs4x2(3)
	code, m := s.do("POST", "/api/championships", arb, map[string]any{"name": "Кубок Азии", "city": "Қызылорда", "federation": "KAZ",
		"start": "2026-05-10", "end": "2026-05-12", "chief_arbiter": "Сейітов Асан", "sections": specs})
	if code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, m)
	}
	id := m["id"].(string)
	// Entries: most through the API, one by the desk's form.
	var ids []string
	for _, g := range groups {
		ids = append(ids, g[:5]...)
	}
	if code, m := s.do("POST", "/api/championships/"+id+"/entries", arb, map[string]any{"ids": append(ids, "NOPE-1")}); code != 200 {
		t.Fatalf("entries: %d %v", code, m)
	} else if es := m["entries"].([]any); es[len(es)-1].(map[string]any)["error"] != "NOPE-1 is not in the register." {
		t.Fatalf("unknown id: %v", es[len(es)-1])
	}
	var late []string
	for _, g := range groups {
		late = append(late, g[5])
	}
	if code, loc := s.post("/championship/"+id+"/desk/enter", arb, url.Values{"ids": {strings.Join(late, "\n")}}); code != http.StatusSeeOther || !strings.Contains(loc, "msg=") {
		t.Fatalf("entry form: %d %s", code, loc)
	}
	if code, _ := s.post("/championship/"+id+"/desk/pair", stranger, nil); code != http.StatusForbidden {
		t.Fatalf("a stranger paired: %d", code)
	}
	if code, _, _ := s.get("/championship/"+id+"/desk", stranger); code != http.StatusForbidden {
		t.Fatalf("a stranger's desk: %d", code)
	}
	// The creator names a deputy, who may use the desk but not name others.
	if code, msg := s.post("/championship/"+id+"/desk/arbiters", arb, url.Values{"names": {"nobody"}}); code != http.StatusBadRequest || !strings.Contains(msg, `No account "nobody".`) {
		t.Fatalf("an unknown arbiter: %d %s", code, msg)
	}
	if code, loc := s.post("/championship/"+id+"/desk/arbiters", arb, url.Values{"names": {"deputy"}}); code != http.StatusSeeOther {
		t.Fatalf("naming the deputy: %d %s", code, loc)
	}
	const deputy = "9:Deputy"
	if code, _ := s.post("/championship/"+id+"/desk/arbiters", deputy, url.Values{"names": {"deputy"}}); code != http.StatusForbidden {
		t.Fatalf("the deputy named arbiters: %d", code)
	}
	if code, _, _ := s.get("/championship/"+id+"/desk", deputy); code != 200 {
		t.Fatalf("the deputy's desk: %d", code)
	}
	if code, m := s.do("POST", "/api/championships/"+id+"/withdraw", deputy, map[string]any{"section": "classic-boys", "id": "NOPE"}); code != 400 {
		t.Fatalf("withdrawing an id not entered: %d %v", code, m)
	}
	if code, loc := s.post("/championship/"+id+"/desk/bye", arb, url.Values{"section": {"blitz-men"}, "id": {groups[0][0]}, "round": {"2"}, "half": {"on"}}); code != http.StatusSeeOther {
		t.Fatalf("bye: %d %s", code, loc)
	}
	for r := 1; r <= 3; r++ {
		if code, loc := s.post("/championship/"+id+"/desk/pair", arb, nil); code != http.StatusSeeOther {
			t.Fatalf("pair round %d: %d %s", r, code, loc)
		}
		_, v := s.do("GET", "/api/championships/"+id, "", nil)
		for i, sec := range v["sections"].([]any) {
			sec := sec.(map[string]any)
			key := sec["key"].(string)
			form := url.Values{"section": {key}, "round": {strconv.Itoa(r)}}
			res := map[string]string{}
			for _, b := range sec["boards"].([]any) {
				b := b.(map[string]any)
				if b["black"] == nil {
					continue
				}
				n := strconv.Itoa(int(b["board"].(float64)))
				x := []string{"1-0", "1/2", "0-1"}[rng.IntN(3)]
				res[n] = x
				form.Set("b"+n, x)
			}
			if i == 0 {
				// The first section's results through the desk's form.
				if code, loc := s.post("/championship/"+id+"/desk/results", arb, form); code != http.StatusSeeOther {
					t.Fatalf("results form: %d %s", code, loc)
				}
				continue
			}
			if code, m := s.do("POST", "/api/championships/"+id+"/results", arb, map[string]any{"section": key, "round": r, "results": res}); code != 200 {
				t.Fatalf("results %s: %d %v", key, code, m)
			}
		}
	}
	// A correction through the form: board 1 of round 1 of the men's
	// classic becomes a win by forfeit.
	if code, loc := s.post("/championship/"+id+"/desk/results", arb, url.Values{"section": {"classic-men"}, "round": {"1"}, "b1": {"+-"}}); code != http.StatusSeeOther {
		t.Fatalf("correction: %d %s", code, loc)
	}
	_, desk, _ := s.get("/championship/"+id+"/desk?lang=kk", arb)
	if !bytes.Contains(desk, []byte(`id="desk-log-table"`)) || !bytes.Contains(desk, []byte("Arbiter Aliev")) || !bytes.Contains(desk, []byte("Түзетулер")) {
		t.Fatalf("the desk shows no correction:\n%s", desk)
	}
	for _, disc := range []string{"classic", "blitz"} {
		if code, m := s.do("POST", "/api/championships/"+id+"/submit", arb, map[string]any{"discipline": disc}); code != 200 || m["games"].(float64) < 30 {
			t.Fatalf("submit %s: %d %v", disc, code, m)
		}
	}
	if len(reg.reports) != 2 {
		t.Fatalf("%d reports", len(reg.reports))
	}
	for _, g := range reg.reports[0].Games {
		if g.Round == 1 && g.Forfeit && g.Score == 1 {
			goto corrected
		}
	}
	t.Fatal("the report lacks the corrected forfeit")
corrected:
	dir := os.Getenv("TOGUZ_PAPERS_DIR")
	for _, lang := range i18n.Languages() {
		for _, path := range []string{"/championships", "/championship/" + id, "/championship/" + id + "?s=blitz-girls&round=2", "/championship/" + id + "/desk"} {
			code, b, _ := s.get(path+sep(path)+"lang="+lang.Tag, arb)
			if code != 200 {
				t.Fatalf("%s in %s: %d %s", path, lang.Tag, code, b)
			}
			if bytes.Contains(b, []byte("sections.")) {
				i := bytes.Index(b, []byte("sections."))
				t.Fatalf("%s in %s shows a key: %s", path, lang.Tag, b[i:min(len(b), i+60)])
			}
		}
		for _, p := range []string{"pairings", "standings", "crosstable", "scoresheets", "certificates"} {
			path := fmt.Sprintf("/championship/%s/paper/%s.pdf?s=classic-women&round=2&lang=%s", id, p, lang.Tag)
			checkPDF(t, s, path, dir, fmt.Sprintf("%s-%s.pdf", p, lang.Tag))
		}
		checkPDF(t, s, "/championship/"+id+"/paper/report.pdf?d=classic&lang="+lang.Tag, dir, "report-"+lang.Tag+".pdf")
	}
	// Each section's TRF reads back with its games and scores.
	for _, key := range []string{"classic-men", "blitz-girls"} {
		code, b, _ := s.get("/championship/"+id+"/trf/"+key, "")
		if code != 200 {
			t.Fatalf("trf %s: %d %s", key, code, b)
		}
		e, err := tournament.ReadTRF(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("trf %s: %v\n%s", key, err, b)
		}
		if err := e.Validate(); err != nil || len(e.Players) != 6 || e.Played() != 3 || e.System != tournament.Dutch {
			t.Fatalf("trf %s: %v, %d players, %d rounds, %s", key, err, len(e.Players), e.Played(), e.System)
		}
		for _, p := range e.Players {
			if p.Points != e.Score(&p, -1) {
				t.Fatalf("trf %s: %s has %v points on his line, %v by his rounds", key, p.Name, p.Points, e.Score(&p, -1))
			}
		}
	}
	if code, _, _ := s.get("/championship/"+id+"/paper/report.pdf?d=rapid", ""); code != http.StatusBadRequest {
		t.Fatalf("a report of a discipline the championship has not: %d", code)
	}
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

func checkPDF(t *testing.T, s *testSite, path, dir, name string) {
	t.Helper()
	code, b, h := s.get(path, "")
	if code != 200 || h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("%s: %d %s %q", path, code, h.Get("Content-Type"), b[:min(len(b), 80)])
	}
	if dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDeskRefusesStaleWrites: two desks on one store (two nodes); a
// change made on a copy another node has changed since is made again on
// the new copy, so neither arbiter's results are lost.
func TestDeskRefusesStaleWrites(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(9, 9))
	reg, groups := simRegister(rng, 4)
	st := openStore(t)
	a := New(Config{Store: st, Register: reg, Swiss: dutch.Pairer{}})
	b := New(Config{Store: st, Register: reg, Swiss: dutch.Pairer{}})
	id, err := a.Create(ctx, 1, Settings{Name: "X", Federation: "KAZ", Start: "2026-01-01"}, specs4x2(3)[:2])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Enter(ctx, id, 1, append(groups[0], groups[1]...), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Pair(ctx, id, 1, ""); err != nil {
		t.Fatal(err)
	}
	stale, _ := a.Get(ctx, id)
	if _, err := a.Results(ctx, id, 1, "A", "classic-men", 1, map[int]string{1: "1-0"}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Results(ctx, id, 1, "B", "classic-women", 1, map[int]string{1: "0-1"}); err != nil {
		t.Fatal(err)
	}
	// A write at the version read before both fails.
	stale.Settings.Name = "Y"
	if err := a.save(ctx, stale); err == nil {
		t.Fatal("a stale write was taken")
	}
	c, _ := a.Get(ctx, id)
	if c.Section("classic-men").Boards(1)[0].Result != "1-0" || c.Section("classic-women").Boards(1)[0].Result != "0-1" || c.Settings.Name != "X" {
		t.Fatalf("lost a write: %+v %+v", c.Section("classic-men").Boards(1)[0], c.Section("classic-women").Boards(1)[0])
	}
}
