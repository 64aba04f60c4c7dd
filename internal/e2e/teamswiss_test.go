package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
)

// TestTeamSwissChampionship runs a team Swiss section in a browser: five
// clubs of three (two boards and a reserve), made through the creation
// form, entries and three rounds through the API, paired by FIDE's team
// Swiss at the desk; the round's matches and the team standings are
// looked at on the desk and the championship's page in kk and en at 1366
// and 360 px.
func TestTeamSwissChampionship(t *testing.T) {
	reg := &champRegister{players: map[string]federation.Player{}}
	var ids []string
	for c, club := range []string{"Qyzylorda", "Almaty", "Astana", "Bishkek", "Osh"} {
		for j := range 3 {
			p := federation.Player{ID: fmt.Sprintf("KAZ-%d", 30001+10*c+j), Federation: "KAZ", Club: club, Sex: federation.Male, BirthYear: 1990,
				NameCyrl: fmt.Sprintf("Ойыншы %d-%d", c+1, j+1), NameLatn: fmt.Sprintf("Player %d-%d", c+1, j+1),
				Ratings: map[federation.Discipline]int{federation.Rapid: 2000 - 50*c - 10*j}}
			reg.players[p.ID] = p
			ids = append(ids, p.ID)
		}
	}
	base, browser, artifacts := setupWith(t, server.Options{Federations: reg})
	token := apiCall(t, "POST", base+"/api/signup", "", map[string]string{"name": "komanda-toreshi", "password": "correct horse battery"})["token"].(string)
	u := newUser(t, browser, base, "komanda-toreshi")
	u.do("cookies", setCookie(base, "toguz_session", token), setCookie(base, "lang", "en"))
	u.do("the create form", chromedp.Navigate(base+"/championships"), chromedp.WaitVisible(chromedp.CSS("#champ-create")))
	eval[bool](u, `(() => {
	  const set = (name, v) => { document.querySelector('[name="'+name+'"]').value = v; };
	  set('name', 'Club Cup'); set('federation', 'KAZ'); set('start', '2026-06-01');
	  set('s0_key', 'clubs'); set('s0_name', 'Clubs'); set('s0_disc', 'rapid'); set('s0_system', 'teamswiss');
	  set('s0_rounds', 3); set('s0_boards', 2); set('s0_teams_by', 'club');
	  return true;
	})()`)
	u.do("creating", click(chromedp.CSS("#champ-create-submit")))
	u.waitFor("the desk", `location.pathname.endsWith('/desk') && document.getElementById('desk-enter')`, 10*time.Second)
	id := strings.Split(eval[string](u, `location.pathname`), "/")[2]
	desk := base + "/championship/" + id + "/desk"
	apiCall(t, "POST", base+"/api/championships/"+id+"/entries", token, map[string]any{"ids": ids})
	type board struct {
		Board  int    `json:"board"`
		Black  string `json:"black"`
		Result string `json:"result"`
	}
	results := []string{"1-0", "1/2", "0-1"}
	for r := 1; r <= 3; r++ {
		apiCall(t, "POST", base+"/api/championships/"+id+"/pair", token, map[string]any{})
		var v struct {
			Sections []struct {
				Boards []board `json:"boards"`
			}
		}
		getJSON(t, base+"/api/championships/"+id, &v)
		res := map[string]string{}
		games := 0
		for i, b := range v.Sections[0].Boards {
			if b.Black != "" {
				res[fmt.Sprint(b.Board)] = results[(i+r)%3]
				games++
			}
		}
		if games != 4 {
			t.Fatalf("round %d: %d games, want two matches of two boards", r, games)
		}
		apiCall(t, "POST", base+"/api/championships/"+id+"/results", token, map[string]any{"section": "clubs", "round": r, "results": res})
	}
	cat := i18n.New()
	for _, lang := range []string{"kk", "en"} {
		m := newTextMatcher(cat, lang)
		u.do("the language", setCookie(base, "lang", lang))
		for _, w := range []int64{1366, 360} {
			for _, pg := range []struct{ name, path, ready string }{
				{"desk", desk, ".desk-matches"},
				{"page", base + "/championship/" + id + "?s=clubs", "#champ-team-standings"},
				{"form", base + "/championships", "#champ-create"},
			} {
				what := fmt.Sprintf("the team Swiss %s in %s at %d px", pg.name, lang, w)
				u.do(what, chromedp.EmulateViewport(w, 900), chromedp.Navigate(pg.path), chromedp.WaitVisible(chromedp.CSS(pg.ready)))
				fits360(t, u, what, w)
				checkTexts(t, u, m, lang, what)
				u.shot(artifacts, fmt.Sprintf("teamswiss-%s-%s-%d.png", pg.name, lang, w))
			}
		}
	}
	u.do("the page", chromedp.Navigate(base+"/championship/"+id+"?s=clubs"), chromedp.WaitVisible(chromedp.CSS("#champ-team-standings")))
	if n := eval[int](u, `document.querySelectorAll('.champ-team-standings tbody tr').length`); n != 5 {
		t.Errorf("the team standings have %d rows, want 5", n)
	}
}
