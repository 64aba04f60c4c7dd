package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/tablebase"
)

// TestAnalysisBoard, in Kazakh and in English: on /analysis, play two
// moves with the keys, go back and play another (a variation appears), mark
// and comment it, export the tree, open its shared link and import the
// export and find the same tree; the engine's lines appear.
func TestAnalysisBoard(t *testing.T) {
	base, browser, _ := setup(t)
	cat := i18n.New()
	start := toguz.StartPosition()
	y1, p1 := start.Ply(7)
	y2, _ := p1.Ply(9)
	yv, _ := p1.Ply(1)
	w1, q1 := start.Ply(1)
	b9, _ := q1.Ply(9)
	for _, lang := range pageLangs {
		t.Run(lang, func(t *testing.T) {
			u := newUser(t, browser, base, "analyst-"+lang)
			u.setLang(lang)
			u.do("the analysis board", chromedp.EmulateViewport(360, 800), chromedp.Navigate(base+"/analysis"))
			u.waitFor("a playable board", `document.querySelector('#board button.hole.playable')`, 15*time.Second)
			if h1 := eval[string](u, `document.querySelector('h1').textContent`); h1 != cat.T(lang, "analysis.title") {
				t.Errorf("the title is %q", h1)
			}
			current := `(document.querySelector('#tree .move.current') || {}).textContent`
			u.key("7")
			u.waitFor("the first move", current+` === "1. `+y1.String()+`"`, 10*time.Second)
			u.key("9")
			u.waitFor("the answer", current+` === "`+y2.String()+`"`, 10*time.Second)
			u.key(kb.ArrowLeft)
			u.waitFor("back one move", current+` === "1. `+y1.String()+`"`, 10*time.Second)
			u.key("1")
			u.waitFor("a variation", `document.querySelectorAll('#tree .variation').length === 1 && `+current+` === "1… `+yv.String()+`"`, 10*time.Second)
			u.do("a mark and a comment",
				chromedp.SetValue(chromedp.CSS("#mark"), "?!"),
				chromedp.Evaluate[chromedp.Void](`document.getElementById('mark').dispatchEvent(new Event('change'))`),
				chromedp.SetValue(chromedp.CSS("#comment"), "weak"),
				chromedp.Evaluate[chromedp.Void](`document.getElementById('comment').dispatchEvent(new Event('change'))`))
			u.waitFor("the mark in the tree", current+` === "1… `+yv.String()+`?!"`, 10*time.Second)

			u.do("export", click(chromedp.CSS("#export")))
			u.waitFor("the record", `document.getElementById('export-text').value.length > 0`, 10*time.Second)
			record := eval[string](u, `document.getElementById('export-text').value`)
			want := fmt.Sprintf("1. %s %s (1... %s?! {weak})\n", y1, y2, yv)
			if !strings.Contains(record, want) {
				t.Fatalf("the record %q lacks %q", record, want)
			}
			tree := `document.getElementById('tree').textContent`
			before := eval[string](u, tree)

			// The shared link opens the same tree.
			u.do("share", click(chromedp.CSS("#share")))
			u.waitFor("the link", `document.getElementById('share-link').value.includes('/analysis?record=')`, 10*time.Second)
			link := eval[string](u, `document.getElementById('share-link').value`)
			u.do("the shared link", chromedp.Navigate(link))
			u.waitFor("the shared tree", `document.querySelectorAll('#tree .variation').length === 1`, 15*time.Second)
			if shared := eval[string](u, tree); shared != before {
				t.Errorf("the shared link shows %q, the board had %q", shared, before)
			}

			u.do("a new board", chromedp.Navigate(base+"/analysis"))
			u.waitFor("a playable board", `document.querySelector('#board button.hole.playable')`, 15*time.Second)
			u.do("import", chromedp.SetValue(chromedp.CSS("#import-text"), record), click(chromedp.CSS("#import")))
			u.waitFor("the import", `document.getElementById('io-status').textContent === `+jsString(cat.T(lang, "analysis.import.done", 1, 1)), 10*time.Second)
			// The tree is drawn once the import's moves are in it, which may
			// be after the status line says done.
			u.waitFor("the imported tree, the exported one "+before, tree+` === `+jsString(before), 10*time.Second)
			u.do("export again", click(chromedp.CSS("#export")))
			u.waitFor("the same record", `document.getElementById('export-text').value === `+jsString(record), 10*time.Second)

			u.waitFor("three engine lines", `document.querySelectorAll('#engine-lines li').length === 3`, 15*time.Second)
			if d := eval[string](u, `document.getElementById('engine-depth').textContent`); !strings.HasPrefix(d, strings.TrimSuffix(cat.T(lang, "analysis.depth", 0), "0")) {
				t.Errorf("the depth line says %q", d)
			}
			// The worker's engine (WebAssembly) searches on, and each
			// depth's lines show as it completes.
			if k := eval[string](u, `document.getElementById('analysis').dataset.engine`); k != "wasm" {
				t.Errorf("the lines come from the %q engine, want wasm", k)
			}
			d1 := eval[string](u, `document.getElementById('engine-depth').textContent`)
			u.waitFor("a deeper iteration, live", `document.getElementById('engine-depth').textContent !== `+jsString(d1)+` && document.querySelectorAll('#engine-lines li').length === 3`, 15*time.Second)
			// A variation of White's first move, and Black's answer in it,
			// which goes on the variation's line without a number.
			u.key(kb.Home)
			u.waitFor("the start", `document.querySelector('#tree .move.current') === document.querySelector('#tree .move')`, 10*time.Second)
			u.key("1")
			u.waitFor("a variation of the first move", current+` === "1. `+w1.String()+`"`, 10*time.Second)
			u.key("9")
			u.waitFor("its answer", current+` === "`+b9.String()+`" && document.querySelectorAll('#tree .variation').length === 2`, 10*time.Second)
			fits(t, u, lang+" analysis")
		})
	}
}

// TestAnalysisTablebase: with the endgame tables, a position with few
// stones shows the tablebase's exact result and distance (the server's
// analysis), in kk and en; over the server's bound of analyses a minute,
// the worker's lines.
func TestAnalysisTablebase(t *testing.T) {
	tb, err := tablebase.Solve(context.Background(), 4, 4, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Three analyses of the server, so that the fourth is refused (429).
	base, browser, _ := setupWith(t, server.Options{Engines: 1, Tablebase: tb, Settings: server.Settings{AnalysesPerMinute: 3}})
	cat := i18n.New()
	row := func(n ...int) []int {
		r := make([]int, 9)
		copy(r, n)
		return r
	}
	p, err := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{row(1, 1), row(0, 1)}, Kazan: [2]int{80, 79}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	res, plies, ok := tb.ProbeDTM(p)
	if !ok || res == tablebase.Draw {
		t.Fatalf("the tables say %v %d %v", res, plies, ok)
	}
	side := "white"
	if (res == tablebase.Win) != (p.Turn() == toguz.White) {
		side = "black"
	}
	for _, lang := range pageLangs {
		u := newUser(t, browser, base, "endgame-"+lang)
		u.setLang(lang)
		u.do("the endgame", chromedp.Navigate(base+"/analysis?fen="+url.QueryEscape(p.FEN())))
		want := cat.N(lang, "analysis.tb."+side, plies, plies)
		u.waitFor("the tablebase's result", `document.getElementById('tablebase').textContent === `+jsString(want), 30*time.Second)
	}
	// Over the server's bound, the worker's lines, without the tablebase.
	u := newUser(t, browser, base, "endgame-bound")
	u.do("the third analysis", chromedp.Navigate(base+"/analysis?fen="+url.QueryEscape(p.FEN())))
	u.waitFor("the tablebase's result", `!document.getElementById('tablebase').hidden && document.getElementById('analysis').dataset.engine === 'server'`, 30*time.Second)
	u.do("the fourth", chromedp.Reload())
	u.waitFor("the worker's lines", `document.querySelectorAll('#engine-lines li').length > 0 && document.getElementById('analysis').dataset.engine === 'wasm' && document.getElementById('tablebase').hidden`, 30*time.Second)
}

// TestAnalysisTablebaseRulesets: with every ruleset's tables at once, a
// Bestemshe ending shows the Bestemshe table's result (the server's
// analysis), and an ending of the 2×7 board, whose table the server lacks,
// is the worker's, without a tablebase result.
func TestAnalysisTablebaseRulesets(t *testing.T) {
	standard, err := tablebase.Solve(context.Background(), 4, 4, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	bestemshe, err := tablebase.SolveWith(context.Background(), tablebase.Options{Rules: toguz.Bestemshe(), Stones: 6, DistanceStones: 6, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	set, err := tablebase.NewSet(standard, bestemshe)
	if err != nil {
		t.Fatal(err)
	}
	base, browser, _ := setupWith(t, server.Options{Engines: 1, Tablebase: set})
	cat := i18n.New()
	p, err := toguz.Setup{Rules: toguz.Bestemshe(), Board: [2][]int{{0, 0, 0, 2, 1}, {1, 1, 0, 1, 0}}, Kazan: [2]int{25, 19}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	res, plies, ok := bestemshe.ProbeDTM(p)
	if !ok || res != tablebase.Win || p.Turn() != toguz.White {
		t.Fatalf("the tables say %v %d %v", res, plies, ok)
	}
	u := newUser(t, browser, base, "endgame-bestemshe")
	u.setLang("en")
	u.do("the Bestemshe ending", chromedp.Navigate(base+"/analysis?ruleset=bestemshe&fen="+url.QueryEscape(p.FEN())))
	want := cat.N("en", "analysis.tb.white", plies, plies)
	u.waitFor("the Bestemshe table's result", `document.getElementById('tablebase').textContent === `+jsString(want)+` && document.getElementById('analysis').dataset.engine === 'server'`, 30*time.Second)

	q, err := toguz.Setup{Rules: toguz.Seven(), Board: [2][]int{{1, 1, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0}}, Kazan: [2]int{48, 47}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	u.do("the 2×7 ending", chromedp.Navigate(base+"/analysis?ruleset=seven&fen="+url.QueryEscape(q.FEN())))
	u.waitFor("the worker's lines", `document.querySelectorAll('#engine-lines li').length > 0 && document.getElementById('analysis').dataset.engine === 'wasm' && document.getElementById('tablebase').hidden`, 30*time.Second)
}
