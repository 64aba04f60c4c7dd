package sections

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/pgtest"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
)

// A federation's list before the championship: four established or
// new players, and one the register has without a rating.
const febList = "id,name_cyrl,name_latn,birth_year,sex,club,rank,rank_date,rating,games\n" +
	"KAZ-1,Әлихан Байменов,Alikhan Baimenov,1980,m,KZO,MS,2019-05-01,2000,100\n" +
	"KAZ-2,Серік Ақтаев,Serik Aktaev,1985,m,,CMS,2021-06-10,1900,100\n" +
	"KAZ-3,Нұрлан Елеусіз,Nurlan Eleusiz,2010,m,KZO,,,1800,100\n" +
	"KAZ-4,Бауыржан Омаров,Baurzhan Omarov,1990,m,,,,1700,10\n"

// pairResult is each pair's game, whoever has White: the winner first
// ("=" a draw, "+" a win by forfeit).
var pairResult = map[[2]string]string{
	{"KAZ-1", "KAZ-2"}: "KAZ-1",
	{"KAZ-1", "KAZ-3"}: "=",
	{"KAZ-1", "KAZ-4"}: "+KAZ-4",
	{"KAZ-2", "KAZ-3"}: "KAZ-3",
	{"KAZ-2", "KAZ-4"}: "=",
	{"KAZ-3", "KAZ-4"}: "KAZ-3",
}

// boardResult is the result of a board between federation ids w and b.
func boardResult(t *testing.T, res map[[2]string]string, w, b string) string {
	t.Helper()
	k := [2]string{w, b}
	if w > b {
		k = [2]string{b, w}
	}
	r, ok := res[k]
	if !ok {
		t.Fatalf("no result for %s–%s", w, b)
	}
	switch r {
	case "=":
		return string(tournament.Drawn)
	case w:
		return string(tournament.WhiteWins)
	case b:
		return string(tournament.BlackWins)
	case "+" + w:
		return string(tournament.WhiteForfeit)
	case "+" + b:
		return string(tournament.BlackForfeit)
	}
	t.Fatalf("bad result %q", r)
	return ""
}

// TestChampionshipToList runs the whole path on the store-backed
// register: players imported into KAZ's February list, entered by id in
// a round robin, three rounds played (one game a forfeit), the report
// sent after the month ended, March's list published from it and checked
// by FIDE's formulas by hand; then a result corrected and the report sent
// again: March's list stays as published and April's carries the
// correction.
func TestChampionshipToList(t *testing.T) {
	eachBackend(t, testChampionshipToList)
}

// eachBackend runs f on an SQLite store and, where TOGUZ_TEST_POSTGRES
// names a server, on PostgreSQL.
func eachBackend(t *testing.T, f func(t *testing.T, st *store.Store)) {
	t.Run("sqlite", func(t *testing.T) { f(t, openStore(t)) })
	t.Run("postgres", func(t *testing.T) {
		st, err := store.Open(context.Background(), pgtest.Schema(t), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		f(t, st)
	})
}

func testChampionshipToList(t *testing.T, st *store.Store) {
	ctx := context.Background()
	reg := federation.New(st, nil)
	if err := reg.PutFederation(ctx, federation.Federation{Code: "KAZ", Level: federation.National,
		Names: map[string]string{"en": "Togyz Kumalak Federation of Kazakhstan"}, Founded: 2004}); err != nil {
		t.Fatal(err)
	}
	if n, err := reg.Import(ctx, "KAZ", federation.Classic, date(t, "2026-02-01"), strings.NewReader(febList)); err != nil || n != 4 {
		t.Fatalf("import: %d, %v", n, err)
	}
	now := date(t, "2026-03-03") // the report goes in after the month the event ended in
	d := New(Config{Store: st, Register: reg, Now: func() time.Time { return now }})
	id, err := d.Create(ctx, 1, Settings{Name: "Kyzylorda Cup", Federation: "kaz", Start: "2026-02-10", End: "2026-02-14"},
		[]Spec{{Key: "final", Name: "Final", Discipline: federation.Classic, System: tournament.RoundRobin}})
	if err != nil {
		t.Fatal(err)
	}
	ents, err := d.Enter(ctx, id, 1, []string{"KAZ-1", "KAZ-2", "KAZ-3", "KAZ-4", "KAZ-99"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ents {
		if (e.Error == nil) != (i < 4) {
			t.Fatalf("entry %d (%s): %+v", i, e.ID, e.Error)
		}
	}
	c, _ := d.Get(ctx, id)
	if p := c.Players["KAZ-3"]; p.Ratings[federation.Classic] != 1800 || p.NameLatn != "Nurlan Eleusiz" {
		t.Fatalf("KAZ-3 as entered: %+v", p)
	}
	play := func(res map[[2]string]string) {
		t.Helper()
		c, _ := d.Get(ctx, id)
		s := c.Section("final")
		for r := 1; r <= s.Round(); r++ {
			out := map[int]string{}
			for _, b := range s.Boards(r) {
				if b.Black != 0 {
					out[b.N] = boardResult(t, res, s.ID(b.White), s.ID(b.Black))
				}
			}
			if _, err := d.Results(ctx, id, 1, "arbiter", "final", r, out); err != nil {
				t.Fatal(err)
			}
		}
	}
	for r := 1; r <= 3; r++ {
		if _, err := d.Pair(ctx, id, 1, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		play(pairResult)
	}
	// The register's pages: the federation's calendar and a card.
	if got, err := d.OfFederation(ctx, "KAZ"); err != nil || len(got) != 1 ||
		got[0] != (federation.Championship{ID: id, Name: "Kyzylorda Cup", Start: "2026-02-10", End: "2026-02-14", Status: "finished"}) {
		t.Fatalf("KAZ's championships: %+v, %v", got, err)
	}
	if got, err := d.OfFederation(ctx, "KGZ"); err != nil || len(got) != 0 {
		t.Fatalf("KGZ's championships: %+v, %v", got, err)
	}
	// KAZ-3: 2½ of 3, first of four.
	if got, err := d.OfPlayer(ctx, "KAZ-3"); err != nil || len(got) != 1 || got[0].ID != id || got[0].Section != "Final" ||
		got[0].Discipline != federation.Classic || got[0].Place != 1 || got[0].Players != 4 || got[0].Points != 2.5 {
		t.Fatalf("KAZ-3's championships: %+v, %v", got, err)
	}
	rep, err := d.Submit(ctx, id, 1, federation.Classic)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 6 || rep.Federation != "KAZ" || rep.End.Format(time.DateOnly) != "2026-02-14" {
		t.Fatalf("report: %d games, federation %s, ends %s", len(rep.Games), rep.Federation, rep.End)
	}

	// K: KAZ-1 and KAZ-2 20, KAZ-3 40 (young, under 2300), KAZ-4 40 (10
	// games, fewer than 30). PD from table 8.1(b): 100 points 0.64, 200
	// 0.76, 300 0.85. The forfeit KAZ-4 won against KAZ-1 is not rated.
	// KAZ-1: beats 1900 (1−0.64) and draws 1800 (0.5−0.76): +0.10 × 20 = +2.
	// KAZ-2: loses to 2000 (−0.36) and 1800 (−0.64), draws 1700 (0.5−0.76):
	//        −1.26 × 20 = −25.2 → −25.
	// KAZ-3: draws 2000 (0.5−0.24), beats 1900 (1−0.36) and 1700 (1−0.64):
	//        +1.26 × 40 = +50.4 → +50.
	// KAZ-4: draws 1900 (0.5−0.24), loses to 1800 (−0.36): −0.10 × 40 = −4.
	mar, err := reg.Publish(ctx, "KAZ", federation.Classic, date(t, "2026-03-01"))
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, "March", mar, []store.FedListEntry{
		{Player: "KAZ-1", Rating: 2002, Change: 2, Games: 102, K: 20},
		{Player: "KAZ-2", Rating: 1875, Change: -25, Games: 103, K: 20},
		{Player: "KAZ-3", Rating: 1850, Change: 50, Games: 103, K: 40},
		{Player: "KAZ-4", Rating: 1696, Change: -4, Games: 12, K: 40},
	})
	if p, _ := reg.Player(ctx, "KAZ-2"); p.Ratings[federation.Classic] != 1875 {
		t.Fatalf("KAZ-2's rating after March's list: %d", p.Ratings[federation.Classic])
	}

	// The draw KAZ-2–KAZ-4 was KAZ-4's win: corrected on the desk and the
	// report sent again.
	fixed := map[[2]string]string{}
	for k, v := range pairResult {
		fixed[k] = v
	}
	fixed[[2]string{"KAZ-2", "KAZ-4"}] = "KAZ-4"
	play(fixed)
	if c, _ := d.Get(ctx, id); len(c.Log) != 1 {
		t.Fatalf("%d corrections logged, want 1", len(c.Log))
	}
	// The card's points follow the correction (the summaries are read
	// again when a championship's version changes).
	if got, err := d.OfPlayer(ctx, "KAZ-4"); err != nil || len(got) != 1 || got[0].Points != 2 {
		t.Fatalf("KAZ-4's championships after the correction: %+v, %v", got, err)
	}
	now = date(t, "2026-03-20")
	if _, err := d.Submit(ctx, id, 1, federation.Classic); err != nil {
		t.Fatal(err)
	}
	got, err := reg.List(ctx, "KAZ", federation.Classic, "2026-03-01")
	if err != nil {
		t.Fatal(err)
	}
	var marAgain []store.FedListEntry
	for _, l := range got {
		marAgain = append(marAgain, l.FedListEntry)
	}
	checkList(t, "March after the correction", marAgain, mar)
	// KAZ-2: the draw with 1700 a loss: −1.76 × 20 = −35.2 → −35, 1865.
	// KAZ-4: the draw with 1900 a win: (1−0.24) − 0.36 = +0.40 × 40 = +16,
	// 1716. April has no games: the ratings carry, changes against March.
	apr, err := reg.Publish(ctx, "KAZ", federation.Classic, date(t, "2026-04-01"))
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, "April", apr, []store.FedListEntry{
		{Player: "KAZ-1", Rating: 2002, Change: 0, Games: 102, K: 20},
		{Player: "KAZ-2", Rating: 1865, Change: -10, Games: 103, K: 20},
		{Player: "KAZ-3", Rating: 1850, Change: 0, Games: 103, K: 40},
		{Player: "KAZ-4", Rating: 1716, Change: 20, Games: 12, K: 40},
	})
}

func date(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// checkList compares a list's lines with want by player, rating,
// change, games and K, in order.
func checkList(t *testing.T, name string, got, want []store.FedListEntry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, want %d: %+v", name, len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Player != w.Player || g.Rating != w.Rating || g.Change != w.Change || g.Games != w.Games || g.K != w.K {
			t.Errorf("%s, line %d: %s %d (%+d) games %d K %d, want %s %d (%+d) games %d K %d", name, i+1,
				g.Player, g.Rating, g.Change, g.Games, g.K, w.Player, w.Rating, w.Change, w.Games, w.K)
		}
	}
}

// TestNormsEarned: in a round robin of eight on the store-backed
// register, an unranked 1500 wins his seven games against 2000-rated
// candidate masters, who draw among themselves: his performance is 2000
// + 800 = 2800 and his seven games meet the norm of the 2nd class (7
// games, 1550), the highest needing no more than seven (the 1st needs
// nine); the candidate masters meet no norm above their rank. The paper
// and the page name the rank in their language.
func TestNormsEarned(t *testing.T) {
	eachBackend(t, testNormsEarned)
}

func testNormsEarned(t *testing.T, st *store.Store) {
	ctx := context.Background()
	reg := federation.New(st, nil)
	if err := reg.PutFederation(ctx, federation.Federation{Code: "KAZ", Level: federation.National, Names: map[string]string{"en": "Kazakhstan"}, Founded: 2004}); err != nil {
		t.Fatal(err)
	}
	csv := "id,name_cyrl,name_latn,birth_year,sex,rank,rank_date,rating\nKAZ-0,Жас Ойыншы,Zhas Oiynshy,2000,m,,,1500\n"
	for i := 1; i < 8; i++ {
		csv += fmt.Sprintf("KAZ-%d,Шебер %d,Sheber %d,1990,m,CMS,2020-01-01,2000\n", i, i, i)
	}
	if _, err := reg.Import(ctx, "KAZ", federation.Classic, date(t, "2026-02-01"), strings.NewReader(csv)); err != nil {
		t.Fatal(err)
	}
	d := New(Config{Store: st, Register: reg, Norms: reg, Now: func() time.Time { return date(t, "2026-02-20") }})
	if _, err := d.Create(ctx, 1, Settings{Name: "Cup", Federation: "XYZ", Start: "2026-02-10"},
		[]Spec{{Key: "final", Name: "Final", Discipline: federation.Classic, System: tournament.RoundRobin}}); !isKey(err, "sections.err_no_federation") {
		t.Fatalf("a federation the register lacks: %v", err)
	}
	id, err := d.Create(ctx, 1, Settings{Name: "Cup", Federation: "KAZ", Start: "2026-02-10", End: "2026-02-16"},
		[]Spec{{Key: "final", Name: "Final", Discipline: federation.Classic, System: tournament.RoundRobin}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 8 {
		ids = append(ids, fmt.Sprintf("KAZ-%d", i))
	}
	if _, err := d.Enter(ctx, id, 1, ids, nil); err != nil {
		t.Fatal(err)
	}
	c, _ := d.Get(ctx, id)
	if e, err := d.Earned(ctx, c, "en"); err != nil || len(e) != 1 || e[0].Finished || len(e[0].Rows) != 0 {
		t.Fatalf("norms before the first round: %+v, %v", e, err)
	}
	res := map[[2]string]string{}
	for i := range ids {
		for j := i + 1; j < len(ids); j++ {
			res[[2]string{ids[i], ids[j]}] = "="
			if i == 0 {
				res[[2]string{ids[i], ids[j]}] = ids[i]
			}
		}
	}
	for r := 1; r <= 7; r++ {
		if _, err := d.Pair(ctx, id, 1, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		c, _ := d.Get(ctx, id)
		s := c.Section("final")
		out := map[int]string{}
		for _, b := range s.Boards(r) {
			if b.Black != 0 {
				out[b.N] = boardResult(t, res, s.ID(b.White), s.ID(b.Black))
			}
		}
		if _, err := d.Results(ctx, id, 1, "arbiter", "final", r, out); err != nil {
			t.Fatal(err)
		}
	}
	c, _ = d.Get(ctx, id)
	for _, tc := range []struct{ lang, name, rank string }{
		{"en", "Zhas Oiynshy", "2nd class"},
		{"kk", "Жас Ойыншы", "2-разряд"},
	} {
		e, err := d.Earned(ctx, c, tc.lang)
		if err != nil {
			t.Fatal(err)
		}
		want := EarnedRow{EarnedNorm: federation.EarnedNorm{Player: "KAZ-0", Rank: "2", Games: 7, Score: 7, Performance: 2800},
			Name: tc.name, Federation: "KAZ", Section: "Final", RankName: tc.rank}
		if len(e) != 1 || !e[0].Finished || len(e[0].Rows) != 1 || e[0].Rows[0] != want {
			t.Fatalf("%s: norms earned %+v, want %+v", tc.lang, e, want)
		}
		var b bytes.Buffer
		if err := c.WritePaper(&b, i18n.New(), tc.lang, PaperRequest{Paper: NormsPaper, Earned: e}); err != nil || !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
			t.Fatalf("%s: the paper: %v", tc.lang, err)
		}
		if dir := os.Getenv("TOGUZ_PAPERS_DIR"); dir != "" {
			if err := os.WriteFile(filepath.Join(dir, "norms-"+tc.lang+".pdf"), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := New(Config{Store: st, Register: reg}).Earned(ctx, c, "en"); !isKey(err, "sections.err_no_norms") {
		t.Fatalf("a desk without norms: %v", err)
	}
}
