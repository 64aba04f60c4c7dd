package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
)

// champRegister is the federations' register as its contract defines it,
// in memory: the store-backed one is package federation's.
type champRegister struct {
	mu      sync.Mutex
	players map[string]federation.Player
	reports []federation.Report
}

func (m *champRegister) Player(_ context.Context, id string) (federation.Player, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.players[id]; ok {
		return p, nil
	}
	return federation.Player{}, fmt.Errorf("%s: %w", id, federation.ErrNoPlayer)
}

func (m *champRegister) Submit(_ context.Context, r federation.Report) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reports = append(m.reports, r)
	return nil
}

// champPlayers fills a register with n players in each of 4 groups (men,
// women, boys and girls under 17 in 2026) and returns their ids by group.
func champPlayers(n int) (*champRegister, [4][]string) {
	rng := rand.New(rand.NewPCG(27, 4))
	reg := &champRegister{players: map[string]federation.Player{}}
	last := []string{"Сейітов", "Омаров", "Қасымов", "Жұмабаев", "Төлеубаев", "Ахметов", "Бекболатов", "Нұрғалиев", "Абдыкалыков", "Осмонов"}
	lastLat := []string{"Seiitov", "Omarov", "Kasymov", "Zhumabaev", "Toleubaev", "Akhmetov", "Bekbolatov", "Nurgaliev", "Abdykalykov", "Osmonov"}
	male := [][2]string{{"Асан", "Asan"}, {"Нұрлан", "Nurlan"}, {"Айбек", "Aibek"}, {"Бакыт", "Bakyt"}, {"Данияр", "Daniiar"}, {"Серік", "Serik"}}
	female := [][2]string{{"Айгерім", "Aigerim"}, {"Гүлназ", "Gulnaz"}, {"Динара", "Dinara"}, {"Мәдина", "Madina"}, {"Сәуле", "Saule"}, {"Әсел", "Asel"}}
	clubs := []string{"Qyzylorda", "Almaty", "Astana", "Bishkek", "Osh", "Shymkent"}
	feds := []string{"KAZ", "KAZ", "KGZ", "UZB", "RUS", "MGL", "TUR", "CHN", "TKM"}
	var groups [4][]string
	k := 20001
	for g := range 4 {
		for range n {
			p := federation.Player{ID: fmt.Sprintf("KAZ-%d", k), Federation: feds[rng.IntN(len(feds))], Club: clubs[rng.IntN(len(clubs))],
				Sex: federation.Male, BirthYear: 1965 + rng.IntN(40), Ratings: map[federation.Discipline]int{}}
			i, j := rng.IntN(len(last)), rng.IntN(6)
			first, suffix, suffixLat := male[j], "", ""
			if g == 1 || g == 3 {
				p.Sex, first, suffix, suffixLat = federation.Female, female[j], "а", "a"
			}
			if g >= 2 {
				p.BirthYear = 2010 + rng.IntN(6)
			}
			p.NameCyrl, p.NameLatn = last[i]+suffix+" "+first[0], lastLat[i]+suffixLat+" "+first[1]
			p.Ratings[federation.Classic] = 1300 + rng.IntN(1000)
			p.Ratings[federation.Blitz] = 1300 + rng.IntN(1000)
			reg.players[p.ID] = p
			groups[g] = append(groups[g], p.ID)
			k++
		}
	}
	return reg, groups
}

// TestChampionshipDesk runs a simulated championship through the
// arbiter's desk in a browser: 4 sections (men, women, boys and girls
// under 17) in classic and in blitz, 9 rounds each, 300 players
// (TOGUZ_CHAMP_PLAYERS=n sets another number a group; 75 by default).
// The championship is made with its form; entries by federation id, the
// first round's pairing, the men's classic results of round 1, a
// correction and the reports go through the desk's forms; the other
// results through the API (the desk's bulk form takes them the same
// way). The papers come back as PDFs; the desk and the championship's
// page are looked at in kk and en at 1366 and 360 px.
func TestChampionshipDesk(t *testing.T) {
	n := 75
	if v := os.Getenv("TOGUZ_CHAMP_PLAYERS"); v != "" {
		fmt.Sscan(v, &n)
	}
	start := time.Now()
	reg, groups := champPlayers(n)
	base, browser, artifacts := setupWith(t, server.Options{Federations: reg})
	token := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "bas-toreshi", "password": "correct horse battery"})["token"].(string)
	u := newUser(t, browser, base, "bas-toreshi")
	u.do("cookies", setCookie(base, "toguz_session", token), setCookie(base, "lang", "en"))

	// The championship: its form, with 8 sections.
	u.do("the create form", chromedp.Navigate(base+"/championships"), chromedp.WaitVisible(chromedp.CSS("#champ-create")))
	eval[bool](u, `(() => {
	  const set = (name, v) => { document.querySelector('[name="'+name+'"]').value = v; };
	  set('name', 'Asian Cup'); set('city', 'Kyzylorda'); set('federation', 'KAZ');
	  set('start', '2026-05-10'); set('end', '2026-05-18'); set('chief', 'Seiitov Asan'); set('team_best', '4');
	  const groups = [['men','Men','m',17,0], ['women','Women','f',17,0], ['boys','Boys U17','m',0,16], ['girls','Girls U17','f',0,16]];
	  let i = 0;
	  for (const d of ['classic', 'blitz']) for (const g of groups) {
	    set('s'+i+'_key', d+'-'+g[0]); set('s'+i+'_name', g[1]); set('s'+i+'_disc', d); set('s'+i+'_sex', g[2]);
	    if (g[3]) set('s'+i+'_min_age', g[3]); if (g[4]) set('s'+i+'_max_age', g[4]);
	    set('s'+i+'_system', 'dutch'); set('s'+i+'_rounds', 9); set('s'+i+'_tc', d === 'classic' ? '60+30' : '5+3');
	    i++;
	  }
	  return true;
	})()`)
	u.do("creating", click(chromedp.CSS("#champ-create-submit")))
	u.waitFor("the desk", `location.pathname.endsWith('/desk') && document.getElementById('desk-enter')`, 10*time.Second)
	loc := eval[string](u, `location.pathname`)
	id := strings.Split(loc, "/")[2]
	desk := base + "/championship/" + id + "/desk"

	// Entries: the first of each group by the desk's form, the others by
	// the API; an id the register lacks is refused by name.
	var first, rest []string
	for _, g := range groups {
		first, rest = append(first, g[0]), append(rest, g[1:]...)
	}
	u.do("the entry form", chromedp.SetValue(chromedp.CSS("#desk-ids"), strings.Join(first, "\n")), click(chromedp.CSS("#desk-enter-submit")))
	u.waitFor("the entries' message", `(document.getElementById('desk-msg')||{}).textContent === 'Entered: 4.'`, 10*time.Second)
	entries := apiCall(t, "POST", base+"/api/championships/"+id+"/entries", token, map[string]any{"ids": append(rest, "KAZ-1")})["entries"].([]any)
	if e := entries[len(entries)-1].(map[string]any); e["error"] != "KAZ-1 is not in the register." {
		t.Fatalf("an unknown id: %v", e)
	}
	// A bye asked for in advance, by the desk's form.
	postForm(t, desk+"/bye", token, url.Values{"section": {"classic-women"}, "id": {groups[1][3]}, "round": {"4"}, "half": {"on"}})

	type board struct {
		Board  int    `json:"board"`
		White  string `json:"white"`
		Black  string `json:"black"`
		Result string `json:"result"`
	}
	type sectionJSON struct {
		Key    string  `json:"key"`
		Round  int     `json:"round"`
		Boards []board `json:"boards"`
	}
	rng := rand.New(rand.NewPCG(9, 9))
	results := []string{"1-0", "1/2", "0-1"}
	for r := 1; r <= 9; r++ {
		if r == 1 {
			u.do("pairing round 1", chromedp.Navigate(desk), chromedp.WaitVisible(chromedp.CSS("#desk-pair-all")), click(chromedp.CSS("#desk-pair-all")))
			// The form's button, parsed after its boards' selects.
			u.waitFor("the boards", `document.querySelector('#results-submit-classic-men')`, 20*time.Second)
			// The men's classic results of round 1 through the desk's form,
			// chosen and sent in one script (a click by chromedp once found
			// its node gone as the page changed: "Could not find node").
			eval[bool](u, `(() => { let i = 0; for (const s of document.querySelectorAll('#results-classic-men select')) s.value = ['1-0','1/2','0-1'][i++ % 3]; document.querySelector('#results-submit-classic-men').click(); return true; })()`)
			u.waitFor("the results' message", `/^Results changed: \d+\.$/.test((document.getElementById('desk-msg')||{}).textContent)`, 10*time.Second)
		} else {
			apiCall(t, "POST", base+"/api/championships/"+id+"/pair", token, map[string]any{})
		}
		var v struct{ Sections []sectionJSON }
		getJSON(t, base+"/api/championships/"+id, &v)
		for _, s := range v.Sections {
			if s.Round != r {
				t.Fatalf("%s is at round %d, want %d", s.Key, s.Round, r)
			}
			res := map[string]string{}
			for _, b := range s.Boards {
				if b.Black != "" && b.Result == "" {
					res[fmt.Sprint(b.Board)] = results[rng.IntN(3)]
				}
			}
			if r == 1 && s.Key == "classic-men" && len(res) > 0 {
				t.Fatalf("the form left %d results of the men's round 1", len(res))
			}
			apiCall(t, "POST", base+"/api/championships/"+id+"/results", token, map[string]any{"section": s.Key, "round": r, "results": res})
		}
	}

	// A correction of round 1's board 1 in the men's classic, logged.
	u.do("round 1 at the desk", chromedp.Navigate(desk+"?s=classic-men&round=1"), chromedp.WaitVisible(chromedp.CSS("#results-classic-men")))
	was := eval[string](u, `document.querySelector('#results-classic-men select[name=b1]').value`)
	now := map[string]string{"1-0": "1/2", "1/2": "0-1", "0-1": "1-0"}[was]
	u.do("the correction", chromedp.SetValue(chromedp.CSS(`#results-classic-men select[name=b1]`), now), click(chromedp.CSS("#results-submit-classic-men")))
	u.waitFor("the log", `document.querySelector('#desk-log-table tbody tr')`, 10*time.Second)
	row := eval[string](u, `document.querySelector('#desk-log-table tbody tr').innerText`)
	for _, want := range []string{"bas-toreshi", "classic-men", was, now} {
		if !strings.Contains(row, want) {
			t.Errorf("the log's row %q lacks %q", row, want)
		}
	}

	// The reports, by the desk's buttons.
	for _, d := range []string{"classic", "blitz"} {
		u.do("the report of "+d, chromedp.Navigate(desk), chromedp.WaitVisible(chromedp.CSS("#submit-"+d)), click(chromedp.CSS("#submit-"+d)))
		u.waitFor("the report's message", `/^The report is sent: \d+ games\.$/.test((document.getElementById('desk-msg')||{}).textContent)`, 10*time.Second)
	}
	if len(reg.reports) != 2 {
		t.Fatalf("%d reports", len(reg.reports))
	}
	for _, rep := range reg.reports {
		// 9 rounds of about n/2 boards in each of 4 sections.
		if len(rep.Games) < 4*9*(n/2-1) || rep.Federation != "KAZ" {
			t.Fatalf("the %s report: %d games to %q", rep.Discipline, len(rep.Games), rep.Federation)
		}
	}

	// The papers, in kk and en.
	for _, lang := range []string{"kk", "en"} {
		for _, p := range []string{"pairings", "standings", "crosstable", "scoresheets", "certificates"} {
			fetchPDF(t, fmt.Sprintf("%s/championship/%s/paper/%s.pdf?s=classic-women&round=9", base, id, p), lang, artifacts, fmt.Sprintf("champ-%s-%s.pdf", p, lang))
		}
		fetchPDF(t, base+"/championship/"+id+"/paper/report.pdf?d=blitz", lang, artifacts, "champ-report-"+lang+".pdf")
	}

	// The page's print style: the section's standings and cross table
	// without the site's header, menus and forms.
	u.do("the page to print", chromedp.Navigate(base+"/championship/"+id+"?s=classic-men"), chromedp.WaitVisible(chromedp.CSS("#champ-cross")))
	printed, err := chromedp.Run(u.ctx, printPDF())
	if err != nil || !bytes.HasPrefix(printed, []byte("%PDF-")) {
		t.Fatalf("printing the page: %v", err)
	}
	if err := os.WriteFile(filepath.Join(artifacts, "champ-page-printed.pdf"), printed, 0o644); err != nil {
		t.Fatal(err)
	}
	u.do("the print media", media("print"))
	if !eval[bool](u, `getComputedStyle(document.querySelector('header.top')).display === 'none' && getComputedStyle(document.querySelector('.champ-papers')).display === 'none' && getComputedStyle(document.getElementById('champ-cross')).display !== 'none'`) {
		t.Error("the printed page keeps the site's header or the papers' links, or lacks the cross table")
	}
	u.do("the screen media", media(""))

	// The desk and the page, in kk and en at 1366 and 360 px.
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		m := newTextMatcher(cat, lang)
		u.do("the language", setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			for _, pg := range []struct{ name, path, ready string }{
				{"desk", desk, "#desk-log-table"},
				{"page", base + "/championship/" + id + "?s=blitz-girls", "#champ-standings"},
				{"list", base + "/championships", "#champ-list"},
			} {
				what := fmt.Sprintf("the %s in %s at %d px", pg.name, lang, w)
				u.do(what, chromedp.EmulateViewport(w, 900), chromedp.Navigate(pg.path), chromedp.WaitVisible(chromedp.CSS(pg.ready)))
				fits360(t, u, what, w)
				checkTexts(t, u, m, lang, what)
				u.shot(artifacts, fmt.Sprintf("champ-%s-%s-%d.png", pg.name, lang, w))
			}
		}
	}
	t.Logf("%d players, 8 sections × 9 rounds through the desk in %v", 4*n, time.Since(start).Round(time.Second))
}

// printPDF prints the page as the browser's print does (its print
// style), A4.
func printPDF() chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		r, err := cdp.Call(ctx, t, cdppage.PrintToPDF, cdppage.PrintToPDFParams{PaperWidth: 8.27, PaperHeight: 11.69})
		return r.Data, err
	}
}

// media emulates a CSS media type ("": the screen's again).
func media(m string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
		return chromedp.Void{}, err
	}
}

// fetchPDF gets a paper in lang and keeps it in dir.
func fetchPDF(t *testing.T, u, lang, dir, file string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.AddCookie(&http.Cookie{Name: "lang", Value: lang})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatalf("%s: %s %s %.80q", u, resp.Status, resp.Header.Get("Content-Type"), b)
	}
	if err := os.WriteFile(filepath.Join(dir, file), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
