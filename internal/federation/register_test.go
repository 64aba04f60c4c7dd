package federation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/pgtest"
	"github.com/toguz/toguz/internal/store"
)

// eachStore runs f on an SQLite store and, where TOGUZ_TEST_POSTGRES
// names a server, on PostgreSQL.
func eachStore(t *testing.T, f func(t *testing.T, s *Service, st *store.Store)) {
	for _, be := range []string{"sqlite", "postgres"} {
		t.Run(be, func(t *testing.T) {
			s, st := newService(t, be)
			f(t, s, st)
		})
	}
}

func newServiceB(b *testing.B) (*Service, *store.Store) {
	b.Helper()
	st, err := store.Open(b.Context(), filepath.Join(b.TempDir(), "toguz.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	s := New(st, nil)
	if _, err := s.SeedKnown(b.Context()); err != nil {
		b.Fatal(err)
	}
	return s, st
}

func newService(t *testing.T, be string) (*Service, *store.Store) {
	t.Helper()
	dsn := filepath.Join(t.TempDir(), "toguz.db")
	if be == "postgres" {
		dsn = pgtest.Schema(t)
	}
	st, err := store.Open(t.Context(), dsn, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := New(st, nil)
	ctx := t.Context()
	for _, f := range []Federation{
		{Code: "WTKF", Level: World, Names: map[string]string{"en": "World Togyz Kumalak Federation"}, Founded: 2008},
		{Code: "KAZ", Level: National, Parent: "WTKF", Names: map[string]string{"en": "Togyz Kumalak Federation of Kazakhstan", "kk": "Қазақстан тоғызқұмалақ федерациясы"}, Founded: 2004},
	} {
		if err := s.PutFederation(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	return s, st
}

const feb1 = "id,name_cyrl,name_latn,birth_year,sex,club,rank,rank_date,rating,games\n" +
	"KAZ-1,Әлихан Байменов,Alikhan Baimenov,1980,m,KZO,MS,2019-05-01,2000,\n" +
	"KAZ-2,Айгүл Серікова,Aigul Serikova,1990,f,,CMS,2021-06-10,1900,100\n" +
	"KAZ-3,Нұрлан Елеусіз,Nurlan Eleusiz,2010,m,KZO,,,1800,10\n" +
	"KAZ-4,Серік Ақтаев,Serik Aktaev,1995,m,,,,,\n"

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestListsFromReports imports a list, submits a report, publishes the
// next month's list and checks it by hand; then corrects the report and
// checks that the published list stays and the correction reaches the
// next one.
func TestListsFromReports(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Service, _ *store.Store) {
		ctx := t.Context()
		n, err := s.Import(ctx, "KAZ", Classic, date("2026-02-01"), strings.NewReader(feb1))
		if err != nil || n != 4 {
			t.Fatalf("import: %d, %v", n, err)
		}
		p, err := s.Player(ctx, "KAZ-1")
		if err != nil || p.Rank != "MS" || p.Ratings[Classic] != 2000 || p.NameLatn != "Alikhan Baimenov" {
			t.Fatalf("KAZ-1 after the import: %+v, %v", p, err)
		}
		rep := Report{Event: "kzo-2026", Name: "Asian Cup", Federation: "KAZ", Discipline: Classic,
			Start: date("2026-02-15"), End: date("2026-02-20"), Games: []Game{
				{Round: 1, White: "KAZ-1", Black: "KAZ-2", Score: 1},
				{Round: 1, White: "KAZ-3", Black: "KAZ-4", Score: 0.5},
				{Round: 2, White: "KAZ-2", Black: "KAZ-3", Score: 0.5},
				{Round: 2, White: "KAZ-1", Black: "KAZ-4", Score: 1, Forfeit: true},
			}}
		if err := s.Submit(ctx, rep); err != nil {
			t.Fatal(err)
		}
		// KAZ-1 (K 20) beats 1900: PD 0.64, +7.2. KAZ-2 (K 20): −0.36 and a draw
		// with 1800 (PD 0.64): −0.50 × 20 = −10. KAZ-3 (30 games not reached: K 40)
		// draws with 1900: +0.14 × 40 = 5.6. KAZ-4 is unrated with one game: not
		// listed; the game against him and the forfeit are not rated.
		mar, err := s.Publish(ctx, "KAZ", Classic, date("2026-03-01"))
		if err != nil {
			t.Fatal(err)
		}
		want := []store.FedListEntry{
			{Player: "KAZ-1", Rating: 2007, Change: 7, Period: 1, Games: 31, K: 20},
			{Player: "KAZ-2", Rating: 1890, Change: -10, Period: 2, Games: 102, K: 20},
			{Player: "KAZ-3", Rating: 1806, Change: 6, Period: 1, Games: 11, K: 40},
		}
		check := func(name string, got, want []store.FedListEntry, day string) {
			t.Helper()
			if len(got) != len(want) {
				t.Fatalf("%s: %d lines %+v, want %d", name, len(got), got, len(want))
			}
			for i, w := range want {
				w.Federation, w.Discipline, w.Day = "KAZ", "classic", day
				if got[i] != w {
					t.Errorf("%s line %d: %+v, want %+v", name, i+1, got[i], w)
				}
			}
		}
		check("March", mar, want, "2026-03-01")
		if _, err := s.Publish(ctx, "KAZ", Classic, date("2026-03-01")); !errors.Is(err, ErrPublished) {
			t.Errorf("publishing March again: %v", err)
		}
		// The arbiter corrects round 1: a draw. March stays; April has it.
		rep.Games[0].Score = 0.5
		if err := s.Submit(ctx, rep); err != nil {
			t.Fatal(err)
		}
		apr, err := s.Publish(ctx, "KAZ", Classic, date("2026-04-01"))
		if err != nil {
			t.Fatal(err)
		}
		// KAZ-1: 0.5 − 0.64 = −0.14 × 20 = −2.8: 1997 (−10 from March's 2007);
		// KAZ-2: +0.14 − 0.14 = 0: 1900. No games in March's period.
		check("April", apr, []store.FedListEntry{
			{Player: "KAZ-1", Rating: 1997, Change: -10, Games: 31, K: 20},
			{Player: "KAZ-2", Rating: 1900, Change: 10, Games: 102, K: 20},
			{Player: "KAZ-3", Rating: 1806, Games: 11, K: 40},
		}, "2026-04-01")
		again, err := s.List(ctx, "KAZ", Classic, "2026-03-01")
		if err != nil || len(again) != 3 || again[0].Rating != 2007 {
			t.Errorf("March after the correction: %+v, %v", again, err)
		}
		hist, err := s.History(ctx, "KAZ-1")
		if err != nil || len(hist) != 3 || hist[0].Rating != 2000 || hist[1].Rating != 2007 || hist[2].Rating != 1997 {
			t.Errorf("history: %+v, %v", hist, err)
		}
		played, err := s.EventsPlayed(ctx, "KAZ", "KAZ-1")
		if err != nil || len(played) != 1 || played[0].Games != 2 || played[0].Score != 1.5 {
			t.Errorf("events played: %+v, %v", played, err)
		}
		if p, _ := s.Player(ctx, "KAZ-1"); p.Ratings[Classic] != 1997 {
			t.Errorf("KAZ-1's rating %d, want April's 1997", p.Ratings[Classic])
		}

		// The files: CSV imports again, TRF has the 001 lines, the PDF is one.
		lines, err := s.List(ctx, "KAZ", Classic, "2026-04-01")
		if err != nil {
			t.Fatal(err)
		}
		var csvOut, trf, pdf bytes.Buffer
		if err := WriteCSV(&csvOut, lines); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(csvOut.String(), "KAZ-1,KAZ,Әлихан Байменов,Alikhan Baimenov,1980,m,KZO,,MS,2019-05-01,1997,31,-10,0,20") {
			t.Errorf("CSV:\n%s", csvOut.String())
		}
		if _, err := s.Import(ctx, "KAZ", Rapid, date("2026-04-01"), bytes.NewReader(csvOut.Bytes())); err != nil {
			t.Errorf("the export does not import again: %v", err)
		}
		f, _ := s.Federation(ctx, "KAZ")
		if err := WriteTRF(&trf, f, Classic, "2026-04-01", lines); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(trf.String(), "001    2 w    Aigul Serikova                    1900 KAZ       KAZ-2 1990") {
			t.Errorf("TRF:\n%s", trf.String())
		}
		if err := WritePDF(&pdf, f, PDFText{Title: "Rating list", Lang: "kk", No: "№", ID: "ID", Name: "Аты-жөні",
			Birth: "Туған", Club: "Клуб", Rank: "Разряд", Rating: "Рейтинг", Change: "±", Gms: "Ойын"}, lines); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
			t.Error("not a PDF")
		}
	})
}

// TestImportErrors: a wrong line names its line and field and nothing is
// stored.
func TestImportErrors(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Service, _ *store.Store) {
		ctx := t.Context()
		for _, tt := range []struct{ csv, want string }{
			{"id,name_latn,rating\nKAZ-1,A,2000\nKAZ-2,B,abc\n", "line 3, field rating"},
			{"id,name_latn,birth_year\nKAZ-1,A,19x8\n", "line 2, field birth_year"},
			{"id,name_latn,sex\nKAZ-1,A,x\n", "line 2, field sex"},
			{"id,name_latn,rank,rank_date\nKAZ-1,A,GM,2020-01-01\n", "line 2, field rank"},
			{"id,name_latn,rank,rank_date\nKAZ-1,A,MS,2020\n", "line 2, field rank_date"},
			{"id,name_latn\nKAZ-1,A\nKAZ-1,B\n", "line 3, field id"},
			{"id,nom\n", "line 1, field nom"},
			{"id,name_latn\nKAZ-1,\n", "line 2: federation: invalid: player KAZ-1: a name is needed"},
			{"id,name_latn,rating,games\nKAZ-1,A,2000,-1\n", "line 2, field games"},
			{"id,name_latn,federation\nKAZ-1,A,XYZ\n", "line 2, field federation"},
			{"name_latn\nA\n", "line 1, field id"},
			{"id,name_latn,id\n", "line 1, field id"},
			{"id,name_latn\nKAZ-1,\xff\n", "line 2: not UTF-8"},
		} {
			_, err := s.Import(ctx, "KAZ", Classic, date("2026-02-01"), strings.NewReader(tt.csv))
			var ie *ImportError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("%q: %v, want %q", tt.csv, err, tt.want)
			}
		}
		if _, n, _ := s.Players(ctx, store.FedPlayerFilter{}); n != 0 {
			t.Errorf("%d players stored after failed imports", n)
		}
		if _, err := s.Import(ctx, "KAZ", Classic, date("2026-02-02"), strings.NewReader("id\n")); !errors.Is(err, ErrInvalid) {
			t.Errorf("a list dated the 2nd: %v", err)
		}
	})
}

// TestClaims: an account claims an entry; only an officer of the entry's
// federation approves it; the entry is then linked.
func TestClaims(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Service, st *store.Store) {
		ctx := t.Context()
		if _, err := s.Import(ctx, "KAZ", Classic, date("2026-02-01"), strings.NewReader(feb1)); err != nil {
			t.Fatal(err)
		}
		player, _ := st.CreateUser(ctx, "alikhan", "x")
		officer, _ := st.CreateUser(ctx, "officer", "x")
		if err := s.Claim(ctx, "KAZ-1", player.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.Decide(ctx, officer.ID, "KAZ-1", player.ID, true); !errors.Is(err, ErrNotOfficer) {
			t.Fatalf("a non-officer approved: %v", err)
		}
		if err := s.SetOfficer(ctx, "KAZ", officer.ID, true); err != nil {
			t.Fatal(err)
		}
		cs, err := s.Claims(ctx, "KAZ")
		if err != nil || len(cs) != 1 || cs[0].UserName != "alikhan" {
			t.Fatalf("claims: %+v, %v", cs, err)
		}
		if err := s.Decide(ctx, officer.ID, "KAZ-1", player.ID, true); err != nil {
			t.Fatal(err)
		}
		e, err := s.LinkedEntry(ctx, player.ID)
		if err != nil || e.ID != "KAZ-1" || e.Ratings[Classic] != 2000 {
			t.Errorf("linked: %+v, %v", e, err)
		}
		if err := s.Claim(ctx, "KAZ-1", officer.ID); !errors.Is(err, ErrInvalid) {
			t.Errorf("claiming a linked entry: %v", err)
		}
	})
}

// TestSubmitChecks: a report names players of the register only.
func TestSubmitChecks(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Service, _ *store.Store) {
		ctx := context.Background()
		if _, err := s.Import(ctx, "KAZ", Classic, date("2026-02-01"), strings.NewReader(feb1)); err != nil {
			t.Fatal(err)
		}
		base := Report{Event: "e", Federation: "KAZ", Discipline: Classic, Start: date("2026-02-01"), End: date("2026-02-02")}
		for _, tt := range []struct {
			games []Game
			want  error
		}{
			{[]Game{{White: "KAZ-1", Black: "KAZ-9", Score: 1}}, ErrNoPlayer},
			{[]Game{{White: "KAZ-1", Black: "KAZ-2", Score: 0.7}}, ErrInvalid},
			{[]Game{{White: "KAZ-1", Black: "KAZ-1", Score: 1}}, ErrInvalid},
		} {
			r := base
			r.Games = tt.games
			if err := s.Submit(ctx, r); !errors.Is(err, tt.want) {
				t.Errorf("%+v: %v, want %v", tt.games, err, tt.want)
			}
		}
		r := base
		r.Federation = "XYZ"
		if err := s.Submit(ctx, r); !errors.Is(err, ErrNoFederation) {
			t.Errorf("unknown federation: %v", err)
		}
	})
}

func TestIsUpload(t *testing.T) {
	for path, want := range map[string]bool{"/federations/KAZ/import": true, "/federations/KAZ-KZO/import": true,
		"/federations/KAZ/publish": false, "/federations//import": false, "/federations/KAZ/import/x": false, "/import": false} {
		if got := IsUpload(path); got != want {
			t.Errorf("IsUpload(%q) = %v", path, got)
		}
	}
}

// TestNormsEarned: a player with 9 wins against 2000-rated opponents
// performs at 2000 + 800 = 2800 and meets the norm of master of sport of
// international class (9 games, 2300), the highest with numbers; one who
// holds it already earns nothing; 8 games are too few for any but the
// classes needing 7.
func TestNormsEarned(t *testing.T) {
	eachStore(t, func(t *testing.T, s *Service, _ *store.Store) {
		ctx := t.Context()
		var csv strings.Builder
		csv.WriteString("id,name_latn,rank,rank_date,rating\nA,A,,,1500\nB,B,MSIC,2020-01-01,1500\nC,C,,,1500\n")
		for i := range 9 {
			fmt.Fprintf(&csv, "O%d,O%d,,,2000\n", i, i)
		}
		if _, err := s.Import(ctx, "KAZ", Classic, date("2026-02-01"), strings.NewReader(csv.String())); err != nil {
			t.Fatal(err)
		}
		r := Report{Event: "n", Federation: "KAZ", Discipline: Classic, Start: date("2026-02-10"), End: date("2026-02-12")}
		for i := range 9 {
			o := fmt.Sprintf("O%d", i)
			r.Games = append(r.Games, Game{White: "A", Black: o, Score: 1}, Game{White: o, Black: "B", Score: 0})
			if i < 8 {
				// C: 8 games, 4 points: 2000 + 0 = 2000: the 2nd class (7 games, 1550).
				r.Games = append(r.Games, Game{White: "C", Black: o, Score: float64(i % 2)})
			}
		}
		got, err := s.NormsEarned(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		want := []EarnedNorm{{Player: "A", Rank: "MSIC", Games: 9, Score: 9, Performance: 2800}, {Player: "C", Rank: "2", Games: 8, Score: 4, Performance: 2000}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("norms: %+v, want %+v", got, want)
		}
	})
}

func TestFileCache(t *testing.T) {
	c := fileCache{m: map[string]cachedFile{}}
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	c.put("a", []byte("A"), t0)
	if b, ok := c.get("a", t0.Add(fileTTL)); !ok || string(b) != "A" {
		t.Errorf("a fresh file: %q %v", b, ok)
	}
	if _, ok := c.get("a", t0.Add(fileTTL+time.Second)); ok {
		t.Error("a stale file served")
	}
	for i := range maxCachedFiles + 5 {
		c.put(fmt.Sprint(i), nil, t0.Add(time.Duration(i)*time.Second))
	}
	if len(c.m) != maxCachedFiles {
		t.Errorf("%d files kept, at most %d", len(c.m), maxCachedFiles)
	}
	if _, ok := c.get("0", t0.Add(time.Minute)); ok {
		t.Error("the oldest file kept past the bound")
	}
}
