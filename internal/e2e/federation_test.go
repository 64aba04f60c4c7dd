package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
)

// TestFederationRegister: the operator creates the federations and makes
// an officer (from the command line's store, as `toguz federation seed`
// and `grant` do, while the server runs); the officer imports the
// February list on the federation's page; an event's report is submitted
// (as the arbiter's desk submits it); the officer publishes March's list,
// and the player's card shows his new rating and its chart; a person
// claims his entry, the officer approves, and his profile shows the
// federation's rating. The pages at 1366 and 360 px in kk and en, and
// the printed list as a PDF.
func TestFederationRegister(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	base, browser, artifacts := setupWith(t, server.Options{Engines: 1, DB: db})
	signup := func(name string) string {
		return apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": name, "password": "correct horse battery"})["token"].(string)
	}
	officerSession, playerSession := signup("ofitser"), signup("alikhan")
	withStore := func(f func(ctx context.Context, st *store.Store, reg *federation.Service) error) {
		t.Helper()
		ctx := context.Background()
		st, err := store.Open(ctx, db, store.Options{Readers: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := f(ctx, st, federation.New(st, nil)); err != nil {
			t.Fatal(err)
		}
	}
	withStore(func(ctx context.Context, st *store.Store, reg *federation.Service) error {
		if _, err := reg.SeedKnown(ctx); err != nil {
			return err
		}
		u, err := st.UserByName(ctx, "ofitser")
		if err != nil {
			return err
		}
		if err := reg.SetOfficer(ctx, "KAZ", u.ID, true); err != nil {
			return err
		}
		return reg.PutClub(ctx, store.FedClub{Federation: "KAZ", Code: "KZO", Name: "Qyzylorda", City: "Qyzylorda"})
	})

	// The officer imports February's list on the federation's page.
	csvFile := filepath.Join(t.TempDir(), "kaz-2026-02.csv")
	if err := os.WriteFile(csvFile, []byte("id,name_cyrl,name_latn,birth_year,sex,club,rank,rank_date,rating,games\n"+
		"KAZ-1,Әлихан Байменов,Alikhan Baimenov,1980,m,KZO,MS,2019-05-01,2000,\n"+
		"KAZ-2,Айгүл Серікова,Aigul Serikova,1990,f,,CMS,2021-06-10,1900,100\n"+
		"KAZ-3,Нұрлан Елеусіз,Nurlan Eleusiz,2010,m,KZO,1,2024-03-02,1800,10\n"+
		"KAZ-4,Серік Ақтаев,Serik Aktaev,1995,m,,,,,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := newUser(t, browser, base, "ofitser")
	o.do("cookies", setCookie(base, "toguz_session", officerSession), setCookie(base, "lang", "en"), chromedp.EmulateViewport(1366, 900))
	o.do("the federation's page", chromedp.Navigate(base+"/federations/KAZ"), chromedp.WaitVisible(chromedp.CSS("#fed-import")))
	o.do("the import", chromedp.SetUploadFiles(chromedp.CSS("#fed-import-file"), []string{csvFile}),
		chromedp.SetValue(chromedp.CSS("#fed-import-discipline"), "classic"),
		chromedp.SetValue(chromedp.CSS("#fed-import-day"), "2026-02-01"),
		click(chromedp.CSS("#fed-import-submit")))
	o.waitFor("the import's answer", `document.readyState === 'complete' && (!!document.getElementById('fed-done') || location.pathname.endsWith('/import'))`, 20*time.Second)
	if !eval[bool](o, `!!document.getElementById('fed-done')`) {
		t.Fatalf("the import: %s", eval[string](o, `document.body.innerText`))
	}
	if txt := o.text("fed-total"); !strings.Contains(txt, "4 players") {
		t.Errorf("after the import the page says %q", txt)
	}

	// The event's report, as the arbiter's desk submits it.
	withStore(func(ctx context.Context, _ *store.Store, reg *federation.Service) error {
		return reg.Submit(ctx, federation.Report{Event: "kzo-2026", Name: "Asian Cup", Federation: "KAZ", Discipline: federation.Classic,
			Start: time.Date(2026, 2, 15, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC), Games: []federation.Game{
				{Round: 1, White: "KAZ-1", Black: "KAZ-2", Score: 1},
				{Round: 1, White: "KAZ-3", Black: "KAZ-4", Score: 0.5},
				{Round: 2, White: "KAZ-2", Black: "KAZ-3", Score: 0.5},
			}})
	})

	// March's list: KAZ-1 beat 1900 with K 20, PD 0.64: +7.2, 2007.
	o.do("publishing March", chromedp.Navigate(base+"/federations/KAZ"), chromedp.WaitVisible(chromedp.CSS("#fed-publish")),
		chromedp.SetValue(chromedp.CSS("#fed-publish-discipline"), "classic"),
		chromedp.SetValue(chromedp.CSS("#fed-publish-day"), "2026-03-01"),
		click(chromedp.CSS("#fed-publish-submit")), chromedp.WaitVisible(chromedp.CSS("#fed-list-table")))
	if row := eval[string](o, `document.querySelector('#fed-list-table tbody tr').innerText`); !strings.Contains(row, "KAZ-1") || !strings.Contains(row, "2007") || !strings.Contains(row, "+7") {
		t.Errorf("March's first line: %q", row)
	}
	o.do("the card", chromedp.Navigate(base+"/players/KAZ-1"), chromedp.WaitVisible(chromedp.CSS("#card-chart svg")))
	if got := o.text("card-classic"); got != "2007" {
		t.Errorf("the card's classic rating is %q, want 2007", got)
	}
	if n := eval[int](o, `document.querySelectorAll('#card-chart svg circle, #card-chart svg .dot, #card-chart svg [data-key], #card-chart svg title').length`); n == 0 {
		t.Error("the chart has no points")
	}

	// The PDF of the list, for a look at it.
	for _, lang := range []string{"kk", "en"} {
		req, _ := http.NewRequest("GET", base+"/federations/KAZ/lists/classic/2026-03-01/pdf", nil)
		req.AddCookie(&http.Cookie{Name: "lang", Value: lang})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		pdf, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(string(pdf), "%PDF-") {
			t.Fatalf("the PDF list: %d %.40q", resp.StatusCode, pdf)
		}
		writeArtifact(t, artifacts, "fed-list-"+lang+".pdf", pdf)
	}

	// The player claims his entry; the officer approves.
	p := newUser(t, browser, base, "alikhan")
	p.do("cookies", setCookie(base, "toguz_session", playerSession), setCookie(base, "lang", "en"), chromedp.EmulateViewport(1366, 900))
	p.do("the claim", chromedp.Navigate(base+"/players/KAZ-1"), chromedp.WaitVisible(chromedp.CSS("#card-claim-submit")),
		click(chromedp.CSS("#card-claim-submit")), chromedp.WaitVisible(chromedp.CSS("#card-claimed")))
	o.do("the claims", chromedp.Navigate(base+"/federations/KAZ"), chromedp.WaitVisible(chromedp.CSS("#fed-claims .fed-approve")))
	if txt := o.text("fed-claims"); !strings.Contains(txt, "alikhan") || !strings.Contains(txt, "KAZ-1") {
		t.Errorf("the claims: %q", txt)
	}
	o.do("approving", click(chromedp.CSS("#fed-claims .fed-approve")), chromedp.WaitVisible(chromedp.CSS("#fed-done")))
	p.do("the profile", chromedp.Navigate(base+"/@/alikhan"), chromedp.WaitVisible(chromedp.CSS("#profile-federation")))
	if got := p.text("fed-rating-classic"); got != "2007" {
		t.Errorf("the profile's federation rating is %q, want 2007", got)
	}
	p.do("the card again", chromedp.Navigate(base+"/players/KAZ-1"), chromedp.WaitVisible(chromedp.CSS("#card-mine")))

	// A championship of KAZ's on the site: its calendar and the cards
	// list it, and its ranks and norms earned are a page (three games
	// meet no norm).
	champ := apiCall(t, "POST", base+"/api/championships", officerSession, map[string]any{
		"name": "Qyzylorda Open", "federation": "KAZ", "start": "2026-02-15", "end": "2026-02-20",
		"sections": []map[string]any{{"key": "open", "name": "Open", "discipline": "classic", "system": "roundrobin"}},
	})["id"].(string)
	apiCall(t, "POST", base+"/api/championships/"+champ+"/entries", officerSession, map[string]any{"ids": []string{"KAZ-1", "KAZ-2", "KAZ-3", "KAZ-4"}})
	for r := 1; r <= 3; r++ {
		apiCall(t, "POST", base+"/api/championships/"+champ+"/pair", officerSession, map[string]any{})
		var v struct {
			Sections []struct {
				Boards []struct {
					Board int    `json:"board"`
					Black string `json:"black"`
				} `json:"boards"`
			}
		}
		getJSON(t, base+"/api/championships/"+champ, &v)
		res := map[string]string{}
		for _, b := range v.Sections[0].Boards {
			if b.Black != "" {
				res[fmt.Sprint(b.Board)] = "1/2"
			}
		}
		apiCall(t, "POST", base+"/api/championships/"+champ+"/results", officerSession, map[string]any{"section": "open", "round": r, "results": res})
	}
	o.do("the calendar", chromedp.Navigate(base+"/federations/KAZ"), chromedp.WaitVisible(chromedp.CSS("#fed-championships")))
	if txt := o.text("fed-calendar"); !strings.Contains(txt, "Qyzylorda Open") || !strings.Contains(txt, "finished") {
		t.Errorf("the calendar: %q", txt)
	}
	o.do("the card's championships", chromedp.Navigate(base+"/players/KAZ-2"), chromedp.WaitVisible(chromedp.CSS("#card-championships")))
	if txt := o.text("card-championships"); !strings.Contains(txt, "Qyzylorda Open") || !strings.Contains(txt, "1 of 4") || !strings.Contains(txt, "1.5") {
		t.Errorf("the card's championships: %q", txt)
	}
	o.do("the norms", chromedp.Navigate(base+"/championship/"+champ), chromedp.WaitVisible(chromedp.CSS("#champ-norms-link")),
		click(chromedp.CSS("#champ-norms-link")), chromedp.WaitVisible(chromedp.CSS("#norms-title")))
	if txt := eval[string](o, `document.body.innerText`); !strings.Contains(txt, "No norm met.") {
		t.Errorf("the norms' page: %q", txt)
	}
	for _, lang := range []string{"kk", "en"} {
		fetchPDF(t, base+"/championship/"+champ+"/paper/norms.pdf", lang, artifacts, "champ-norms-"+lang+".pdf")
	}

	// Every page of the register at both widths in Kazakh and English.
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		tm := newTextMatcher(cat, lang)
		o.do("language", setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			o.do("viewport", chromedp.EmulateViewport(w, 900))
			for _, pg := range []struct{ name, path, ready string }{
				{"federations", "/federations", "fed-list"},
				{"federation", "/federations/KAZ", "fed-player-table"},
				{"list", "/federations/KAZ/lists/classic/2026-03-01", "fed-list-table"},
				{"card", "/players/KAZ-1", "card-ratings"},
				{"championship", "/championship/" + champ, "champ-norms-link"},
				{"norms", "/championship/" + champ + "/norms", "norms-title"},
				{"search", "/players?q=kaz", "players-table"},
			} {
				o.do(pg.name, chromedp.Navigate(base+pg.path), chromedp.WaitVisible(chromedp.CSS("#"+pg.ready)))
				if wide := eval[float64](o, `document.documentElement.scrollWidth`); w == 360 && wide > 360 {
					t.Errorf("%s in %s is %v px wide at 360", pg.name, lang, wide)
				}
				for _, text := range eval[[]string](o, visibleTexts) {
					if !tm.match(text) {
						t.Errorf("%s shows %q, not a text of %s", pg.name, text, lang)
					}
				}
				o.shot(artifacts, fmt.Sprintf("fed-%s-%s-%d.png", pg.name, lang, w))
			}
		}
	}
	if !strings.Contains(eval[string](o, `document.body.innerText`), "Alikhan Baimenov") {
		t.Error("the search finds no Latin name in English")
	}
}
