package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/shareddata"
)

// replayCounts computes, from records alone, what the explorer must show
// at the position reached by path from the start: for each move, the
// games that played it from that position in their first 20 plies (by
// any order of moves), White's wins, draws and Black's wins. It replays
// each record with the rules library, apart from the explorer's code.
func replayCounts(t *testing.T, games []*toguz.Game, path []toguz.Move) map[int][4]int {
	t.Helper()
	target := toguz.StartPosition()
	for _, m := range path {
		target = target.After(m)
	}
	out := map[int][4]int{}
	for _, g := range games {
		p, err := g.StartPosition()
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range g.Moves() {
			if i == 20 {
				break
			}
			if p == target {
				c := out[int(m)]
				c[0]++
				switch g.Result {
				case toguz.WhiteWins:
					c[1]++
				case toguz.Draw:
					c[2]++
				case toguz.BlackWins:
					c[3]++
				}
				out[int(m)] = c
				break
			}
			if p, err = p.Play(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// topMove is the most played move of counts (the smaller hole on a tie).
func topMove(counts map[int][4]int) toguz.Move {
	best := 0
	for h, c := range counts {
		if best == 0 || c[0] > counts[best][0] || (c[0] == counts[best][0] && h < best) {
			best = h
		}
	}
	return toguz.Move(best)
}

// shownCounts reads the explorer page's move table.
func shownCounts(u *user) map[int][4]int {
	rows := eval[[][5]int](u, `[...document.querySelectorAll('#explorer-moves tr.move-row')].map(r =>
		[+r.dataset.hole, +r.cells[1].textContent, +r.dataset.white, +r.dataset.draws, +r.dataset.black])`)
	out := map[int][4]int{}
	for _, r := range rows {
		out[r[0]] = [4]int{r[1], r[2], r[3], r[4]}
	}
	return out
}

// TestExplorer: in Kazakh, 80 PlayOK games are imported and the site's
// explorer shows, at the start, after its most played move and after the
// most played reply (each reached by clicking the move), the counts that
// replaying the records gives; in English the masters' explorer shows the
// counts of the masters' records in ../shared/data at the same depth. The
// pages fit a 360 px phone.
func TestExplorer(t *testing.T) {
	base, browser, artifacts := setup(t)
	cat := i18n.New()
	readGames := func(name string, f toguz.Format) []*toguz.Game {
		data, err := os.ReadFile(shareddata.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		gs, err := toguz.ParseGames(name, data, f)
		if err != nil {
			t.Fatal(err)
		}
		return gs
	}
	playok := readGames("playok-2024-2025.pgn", toguz.FormatPlayOK)[:80]
	masters := append(readGames("masters-2018.pgn", toguz.FormatToguz), readGames("master-app-sample.tgk", toguz.FormatTGK)...)
	var rec strings.Builder
	if err := toguz.WriteGames(&rec, toguz.FormatToguz, playok...); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "playok.pgn")
	if err := os.WriteFile(file, []byte(rec.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang, db string
		games    []*toguz.Game
	}{{"kk", "site", playok}, {"en", "masters", masters}} {
		u := newUser(t, browser, base, "explorer-"+c.lang)
		u.do("a phone's window", chromedp.EmulateViewport(360, 900), setCookie(base, "lang", c.lang))
		if c.db == "site" {
			u.do("importing the games", chromedp.Navigate(base+"/import"), chromedp.WaitVisible(chromedp.CSS("#import-form")),
				chromedp.SetUploadFiles(chromedp.CSS(`#import-form input[name="file"]`), []string{file}),
				click(chromedp.CSS("#import-submit")))
			u.waitFor("the import's list", fmt.Sprintf(`document.querySelectorAll('#imported a[href^="/game/"]').length === %d`, len(playok)), 20*time.Second)
		}
		u.do("the explorer", chromedp.Navigate(base+"/explorer?db="+c.db))
		u.waitFor("its move table", `document.readyState === 'complete' && document.getElementById('explorer-moves')`, 10*time.Second)
		if h1 := eval[string](u, `document.querySelector('h1').textContent`); h1 != cat.T(c.lang, "explorer.title") {
			t.Errorf("%s: the title is %q", c.lang, h1)
		}
		if got := eval[string](u, `document.querySelector('#explorer-moves caption').textContent`); got != cat.T(c.lang, "explorer.db."+c.db) {
			t.Errorf("%s: the table's caption is %q", c.lang, got)
		}
		var path []toguz.Move
		for depth := range 3 {
			want := replayCounts(t, c.games, path)
			if len(want) == 0 {
				t.Fatalf("%s %s: no game at depth %d", c.lang, c.db, depth)
			}
			got := shownCounts(u)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s after %v: the page shows %v, the records give %v", c.lang, c.db, path, got, want)
			}
			fits(t, u, fmt.Sprintf("%s explorer after %v", c.lang, path))
			if depth == 2 {
				break
			}
			m := topMove(want)
			path = append(path, m)
			u.do("going deeper", chromedp.Evaluate[chromedp.Void](`window.before = true`),
				click(chromedp.CSS(fmt.Sprintf(`#explorer-moves tr[data-hole="%d"] a.move`, m))))
			u.waitFor("the next position", `!window.before && document.readyState === 'complete' && document.getElementById('explorer-moves')`, 10*time.Second)
			if n := eval[int](u, `document.querySelectorAll('.explorer-path a.crumb').length`); n != len(path) {
				t.Errorf("%s: %d moves in the path after clicking, want %d", c.lang, n, len(path))
			}
		}
		if n := eval[int](u, `document.querySelectorAll('#explorer-games a').length`); n == 0 {
			t.Errorf("%s %s: no game listed", c.lang, c.db)
		}
		png, err := chromedp.Run(u.ctx, chromedp.FullScreenshot(90))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(artifacts, "explorer-"+c.lang+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
