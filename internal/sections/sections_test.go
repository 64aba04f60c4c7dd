package sections

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/tournament"
	"github.com/toguz/toguz/internal/tournament/dutch"
)

// memRegister is the register as the contract defines it, kept in memory
// for these tests (the store-backed one is package federation's).
type memRegister struct {
	mu      sync.Mutex
	players map[string]federation.Player
	reports []federation.Report
}

func (m *memRegister) Player(_ context.Context, id string) (federation.Player, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	p, ok := m.players[id]
	if !ok {
		return p, fmt.Errorf("%s: %w", id, federation.ErrNoPlayer)
	}
	return p, nil
}

func (m *memRegister) Submit(_ context.Context, r federation.Report) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.reports = append(m.reports, r)
	return nil
}

var (
	cyrFirst = []string{"Асан", "Нурлан", "Ерлан", "Айбек", "Бакыт", "Данияр", "Серик", "Марат", "Талгат", "Жандос"}
	latFirst = []string{"Asan", "Nurlan", "Erlan", "Aibek", "Bakyt", "Daniiar", "Serik", "Marat", "Talgat", "Zhandos"}
	cyrFem   = []string{"Айгерим", "Гүлназ", "Динара", "Жанар", "Қарлығаш", "Мәдина", "Назым", "Сәуле", "Әсел", "Үміт"}
	latFem   = []string{"Aigerim", "Gulnaz", "Dinara", "Zhanar", "Karlygash", "Madina", "Nazym", "Saule", "Asel", "Umit"}
	cyrLast  = []string{"Сейітов", "Омаров", "Қасымов", "Жұмабаев", "Төлеубаев", "Ахметов", "Бекболатов", "Нұрғалиев"}
	latLast  = []string{"Seiitov", "Omarov", "Kasymov", "Zhumabaev", "Toleubaev", "Akhmetov", "Bekbolatov", "Nurgaliev"}
	clubs    = []string{"KZO-1", "KZO-2", "ALA-1", "AST-1", "BSK-1", "", "OSH-1"}
	feds     = []string{"KAZ", "KAZ", "KAZ", "KGZ", "UZB", "RUS", "MGL", "TUR", "CHN"}
)

// simRegister returns a register of n players per group (men, women,
// boys and girls under 17), ids KAZ-10001…, born to fit their group.
func simRegister(rng *rand.Rand, n int) (*memRegister, [4][]string) {
	reg := &memRegister{players: map[string]federation.Player{}}
	var groups [4][]string
	k := 10001
	for g := range 4 {
		for range n {
			female := g == 1 || g == 3
			p := federation.Player{ID: fmt.Sprintf("KAZ-%d", k), Federation: feds[rng.IntN(len(feds))], Sex: federation.Male,
				Club: clubs[rng.IntN(len(clubs))], Ratings: map[federation.Discipline]int{}}
			i, j := rng.IntN(10), rng.IntN(len(cyrLast))
			p.NameCyrl, p.NameLatn = cyrLast[j]+" "+cyrFirst[i], latLast[j]+" "+latFirst[i]
			if female {
				p.Sex = federation.Female
				p.NameCyrl, p.NameLatn = cyrLast[j]+"а "+cyrFem[i], latLast[j]+"a "+latFem[i]
			}
			p.BirthYear = 1960 + rng.IntN(47) // 1960..2006: 20 and over in 2026
			if g >= 2 {
				p.BirthYear = 2010 + rng.IntN(6) // 11..16
			}
			for _, d := range []federation.Discipline{federation.Classic, federation.Blitz} {
				if rng.IntN(5) > 0 {
					p.Ratings[d] = 1200 + rng.IntN(1200)
				}
			}
			reg.players[p.ID] = p
			groups[g] = append(groups[g], p.ID)
			k++
		}
	}
	return reg, groups
}

// specs4x2 are the Kyzylorda open's groups in classic and blitz.
func specs4x2(rounds int) []Spec {
	var out []Spec
	for _, d := range []federation.Discipline{federation.Classic, federation.Blitz} {
		out = append(out,
			Spec{Key: string(d) + "-men", Name: "Men", Discipline: d, Sex: federation.Male, MinAge: 17, System: tournament.Dutch, Rounds: rounds, TC: "60+30"},
			Spec{Key: string(d) + "-women", Name: "Women", Discipline: d, Sex: federation.Female, MinAge: 17, System: tournament.Dutch, Rounds: rounds, TC: "60+30"},
			Spec{Key: string(d) + "-boys", Name: "Boys U17", Discipline: d, Sex: federation.Male, MaxAge: 16, System: tournament.Dutch, Rounds: rounds, TC: "60+30"},
			Spec{Key: string(d) + "-girls", Name: "Girls U17", Discipline: d, Sex: federation.Female, MaxAge: 16, System: tournament.Dutch, Rounds: rounds, TC: "60+30"})
	}
	for i := range out {
		if out[i].Discipline == federation.Blitz {
			out[i].TC = "5+3"
		}
	}
	return out
}

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), store.Options{Readers: 1, SessionSweep: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// randomResult plays a game: the higher rated wins more often.
func randomResult(rng *rand.Rand, rw, rb int) string {
	x := rng.Float64() + float64(rw-rb)/2000
	switch {
	case x > 0.6:
		return "1-0"
	case x > 0.4:
		return "1/2"
	}
	return "0-1"
}

// runChampionship runs n players a group through rounds rounds of both
// disciplines at the desk: entries by id (a few late), byes asked for in
// advance, a withdrawal, results by board, corrections, the reports.
func runChampionship(t *testing.T, n, rounds int) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	reg, groups := simRegister(rng, n)
	now := time.Date(2026, 5, 10, 9, 0, 0, 0, time.UTC)
	d := New(Config{Store: openStore(t), Register: reg, Swiss: dutch.Pairer{}, Now: func() time.Time { return now }})
	const arbiter = 7
	id, err := d.Create(ctx, arbiter, Settings{Name: "Asian Cup", City: "Kyzylorda", Federation: "kaz", Start: "2026-05-10", End: "2026-05-18", TeamBest: 3}, specs4x2(rounds))
	if err != nil {
		t.Fatal(err)
	}
	var all, late []string
	for _, g := range groups {
		all = append(all, g[:len(g)-1]...)
		late = append(late, g[len(g)-1])
	}
	all = append(all, "KAZ-99999") // not in the register
	got, err := d.Enter(ctx, id, arbiter, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range got[:len(got)-1] {
		if e.Error != nil || len(e.Sections) != 2 {
			t.Fatalf("entry %s: %v %v", e.ID, e.Sections, e.Error)
		}
	}
	if e := got[len(got)-1]; e.Error == nil || e.Error.Key != "sections.err_no_player" {
		t.Fatalf("unknown id: %+v", e)
	}
	// Someone else may not use the desk.
	if _, err := d.Pair(ctx, id, 8, ""); !isKey(err, "sections.err_forbidden") {
		t.Fatalf("a stranger paired: %v", err)
	}
	// A boy may not play with the men, nor a man with the girls.
	if _, err := d.Enter(ctx, id, arbiter, []string{groups[0][0]}, []string{"classic-girls"}); err != nil {
		t.Fatal(err)
	} else if e, _ := d.Enter(ctx, id, arbiter, []string{groups[2][1]}, []string{"blitz-men"}); e[0].Error == nil || e[0].Error.Why != "sections.why_age" {
		t.Fatalf("a boy in the men's section: %+v", e[0])
	}
	// Byes asked for in advance: half a point in round 2 of the men's
	// classic, none in round 3 of the girls' blitz.
	if err := d.Bye(ctx, id, arbiter, "classic-men", groups[0][3], 2, true); err != nil {
		t.Fatal(err)
	}
	if err := d.Bye(ctx, id, arbiter, "blitz-girls", groups[3][2], 3, false); err != nil {
		t.Fatal(err)
	}
	corrections := 0
	for r := 1; r <= rounds; r++ {
		paired, err := d.Pair(ctx, id, arbiter, "")
		if err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if len(paired) != 8 {
			t.Fatalf("round %d: paired %v", r, paired)
		}
		if r == 2 {
			// Late entries after the first round.
			if e, err := d.Enter(ctx, id, arbiter, late, nil); err != nil || e[0].Error != nil {
				t.Fatalf("late entries: %+v %v", e, err)
			}
		}
		if r == 4 {
			if err := d.Withdraw(ctx, id, arbiter, "classic-women", groups[1][5]); err != nil {
				t.Fatal(err)
			}
		}
		c, err := d.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Sections {
			res := map[int]string{}
			for _, b := range s.Boards(r) {
				if b.Black != 0 {
					res[b.N] = randomResult(rng, s.Event.Player(b.White).Rating, s.Event.Player(b.Black).Rating)
				}
			}
			if _, err := d.Results(ctx, id, arbiter, "Arbiter", s.Key, r, res); err != nil {
				t.Fatalf("%s round %d: %v", s.Key, r, err)
			}
			// Correct board 1 of each section's round 1 to a draw, later.
			if r == 3 {
				b1 := s.Boards(1)[0]
				if b1.Result != "1/2" {
					if n, err := d.Results(ctx, id, arbiter, "Arbiter", s.Key, 1, map[int]string{1: "1/2"}); err != nil || n != 1 {
						t.Fatalf("correction: %d %v", n, err)
					}
					corrections++
				}
			}
		}
	}
	c, err := d.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c.Status() != Finished {
		t.Fatalf("status %s after %d rounds", c.Status(), rounds)
	}
	if len(c.Log) != corrections {
		t.Fatalf("%d corrections logged, want %d", len(c.Log), corrections)
	}
	for _, l := range c.Log {
		if l.By != arbiter || l.Round != 1 || l.Board != 1 || l.After != "1/2" || l.Before == "" || !l.At.Equal(now) {
			t.Fatalf("log entry %+v", l)
		}
	}
	total := 0
	for _, s := range c.Sections {
		if err := s.Event.Validate(); err != nil {
			t.Fatalf("%s: %v", s.Key, err)
		}
		total += len(s.IDs)
		// Nobody meets anybody twice in a Swiss.
		for i := range s.Event.Players {
			met := map[int]bool{}
			for _, en := range s.Event.Players[i].Rounds {
				if en.Opponent > 0 && met[en.Opponent] {
					t.Fatalf("%s: %d meets %d twice", s.Key, i+1, en.Opponent)
				}
				met[en.Opponent] = true
			}
		}
	}
	if want := 2 * 4 * n; total != want {
		t.Fatalf("%d entries, want %d", total, want)
	}
	men := c.Section("classic-men")
	if en := men.Event.Player(men.Start(groups[0][3])).Entry(2); en.Code != tournament.HalfBye {
		t.Fatalf("the requested bye: %+v", en)
	}
	lateMan := men.Event.Player(men.Start(groups[0][n-1]))
	if lateMan.Entry(1).Code != tournament.ZeroBye || lateMan.Entry(2).None() {
		t.Fatalf("the late entry's rounds: %+v", lateMan.Rounds)
	}
	women := c.Section("classic-women")
	if en := women.Event.Player(women.Start(groups[1][5])).Entry(rounds); en.Opponent != 0 {
		t.Fatalf("the withdrawn player played the last round: %+v", en)
	}
	teams := c.Teams("club")
	if len(teams) == 0 || teams[0].Points < teams[len(teams)-1].Points {
		t.Fatalf("teams %+v", teams)
	}
	for _, tm := range teams {
		for k, v := range tm.BySection {
			if v > 3*float64(rounds) {
				t.Fatalf("team %s scores %v in %s with its best 3", tm.Name, v, k)
			}
		}
	}
	// The reports: every game of the discipline, by federation id.
	for _, disc := range []federation.Discipline{federation.Classic, federation.Blitz} {
		rep, err := d.Submit(ctx, id, arbiter, disc)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, s := range c.Sections {
			if s.Discipline != disc {
				continue
			}
			for r := 1; r <= rounds; r++ {
				for _, b := range s.Boards(r) {
					if b.Black != 0 {
						want++
					}
				}
			}
		}
		if len(rep.Games) != want || rep.Federation != "KAZ" || rep.Discipline != disc {
			t.Fatalf("%s report: %d games, want %d; %+v", disc, len(rep.Games), want, rep.Federation)
		}
		for _, g := range rep.Games {
			if _, ok := reg.players[g.White]; !ok {
				t.Fatalf("game with %q", g.White)
			}
		}
	}
	if len(reg.reports) != 2 {
		t.Fatalf("%d reports submitted", len(reg.reports))
	}
	c, _ = d.Get(ctx, id)
	if len(c.Submitted) != 2 {
		t.Fatalf("submitted %v", c.Submitted)
	}
}

func isKey(err error, key string) bool {
	var e *Error
	return errors.As(err, &e) && e.Key == key
}

// TestChampionship runs 300 players in 4 groups × 2 disciplines × 9
// rounds at the desk (about a second).
func TestChampionship(t *testing.T) {
	start := time.Now()
	runChampionship(t, 75, 9)
	t.Logf("300 players, 8 sections, 9 rounds: %v", time.Since(start))
}

func TestCheckRefuses(t *testing.T) {
	ok := Spec{Key: "men", Name: "Men", Discipline: federation.Classic, System: tournament.Dutch, Rounds: 9}
	for _, tc := range []struct {
		name string
		s    Settings
		sp   []Spec
		key  string
	}{
		{"no name", Settings{Federation: "KAZ", Start: "2026-05-10"}, []Spec{ok}, "sections.err_name"},
		{"bad date", Settings{Name: "X", Federation: "KAZ", Start: "10.05.2026"}, []Spec{ok}, "sections.err_date"},
		{"no sections", Settings{Name: "X", Federation: "KAZ", Start: "2026-05-10"}, nil, "sections.err_sections"},
		{"twice the key", Settings{Name: "X", Federation: "KAZ", Start: "2026-05-10"}, []Spec{ok, ok}, "sections.err_key"},
		{"rounds", Settings{Name: "X", Federation: "KAZ", Start: "2026-05-10"}, []Spec{{Key: "a", Name: "A", Discipline: federation.Blitz, System: tournament.Dutch, Rounds: 40}}, "sections.err_rounds"},
		{"discipline", Settings{Name: "X", Federation: "KAZ", Start: "2026-05-10"}, []Spec{{Key: "a", Name: "A", Discipline: "bullet", System: tournament.Dutch, Rounds: 4}}, "sections.err_discipline"},
		{"ages", Settings{Name: "X", Federation: "KAZ", Start: "2026-05-10"}, []Spec{{Key: "a", Name: "A", Discipline: federation.Blitz, System: tournament.Dutch, Rounds: 4, MinAge: 17, MaxAge: 12}}, "sections.err_limits"},
		{"system", Settings{Name: "X", Federation: "KAZ", Start: "2026-05-10"}, []Spec{{Key: "a", Name: "A", Discipline: federation.Blitz, System: tournament.Knockout}}, "sections.err_system"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Check(&tc.s, tc.sp); !isKey(err, tc.key) {
				t.Fatalf("got %v, want %s", err, tc.key)
			}
		})
	}
}

// TestRoundRobinSection runs a round robin of 5 (the Berger tables, a bye
// each round) and refuses a late entry and a requested bye there.
func TestRoundRobinSection(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	reg, groups := simRegister(rng, 6)
	d := New(Config{Store: openStore(t), Register: reg})
	id, err := d.Create(ctx, 1, Settings{Name: "Final", Federation: "KAZ", Start: "2026-06-01"},
		[]Spec{{Key: "final", Name: "Final", Discipline: federation.Rapid, System: tournament.RoundRobin}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Enter(ctx, id, 1, groups[0][:5], nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Bye(ctx, id, 1, "final", groups[0][0], 2, true); !isKey(err, "sections.err_bye_rr") {
		t.Fatalf("bye in a round robin: %v", err)
	}
	for r := 1; r <= 5; r++ {
		if _, err := d.Pair(ctx, id, 1, ""); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		if r == 1 {
			if e, _ := d.Enter(ctx, id, 1, groups[0][5:6], nil); e[0].Error == nil || e[0].Error.Key != "sections.err_late_rr" {
				t.Fatalf("a late entry in a round robin: %+v", e[0])
			}
		}
		c, _ := d.Get(ctx, id)
		res := map[int]string{}
		for _, b := range c.Section("final").Boards(r) {
			if b.Black != 0 {
				res[b.N] = "1/2"
			}
		}
		if len(res) != 2 {
			t.Fatalf("round %d: %d games", r, len(res))
		}
		if _, err := d.Results(ctx, id, 1, "A", "final", r, res); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := d.Get(ctx, id)
	if c.Status() != Finished || c.Section("final").Rounds != 5 {
		t.Fatalf("status %s, rounds %d", c.Status(), c.Section("final").Rounds)
	}
	if _, err := d.Pair(ctx, id, 1, ""); !isKey(err, "sections.err_nothing_to_pair") {
		t.Fatalf("a sixth round: %v", err)
	}
	for _, st := range c.Section("final").Event.Standings(-1) {
		if st.Points != 2 {
			t.Fatalf("%s has %v points after four draws", st.Player.Name, st.Points)
		}
	}
}

// TestTRFNames: a TRF line's name is ASCII (its columns are bytes): the
// Latin name folded, else the Cyrillic transliterated.
func TestTRFNames(t *testing.T) {
	for _, tc := range []struct {
		p    federation.Player
		want string
	}{
		{federation.Player{ID: "A", NameLatn: "Seiitov Asan", NameCyrl: "Сейітов Асан"}, "Seiitov Asan"},
		{federation.Player{ID: "B", NameCyrl: "Қасымова Әсел"}, "Qasymova Asel"},
		{federation.Player{ID: "C", NameLatn: "Äbişev Ğalym"}, "Abisev Galym"},
		{federation.Player{ID: "KAZ-3"}, "KAZ-3"},
	} {
		if got := latin(tc.p); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

// TestPapersOfAnEmptySection: before any round the papers that need one
// are refused by name, the others print.
func TestPapersOfAnEmptySection(t *testing.T) {
	ctx := context.Background()
	d := New(Config{Store: openStore(t), Register: &memRegister{players: map[string]federation.Player{}}})
	id, err := d.Create(ctx, 1, Settings{Name: "Empty", Federation: "KAZ", Start: "2026-06-01"}, specs4x2(5)[:1])
	if err != nil {
		t.Fatal(err)
	}
	c, _ := d.Get(ctx, id)
	cat := i18n.New()
	for _, p := range append(Papers, RatingReport) {
		var b bytes.Buffer
		err := c.WritePaper(&b, cat, "kk", PaperRequest{Paper: p, Section: "classic-men", Discipline: federation.Classic})
		switch p {
		case Pairings, ScoreSheets:
			if !isKey(err, "sections.err_no_round") {
				t.Errorf("%s before the first round: %v", p, err)
			}
		default:
			if err != nil || !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
	if err := c.WritePaper(io.Discard, cat, "en", PaperRequest{Paper: Standings, Section: "nope"}); !isKey(err, "sections.err_no_such_section") {
		t.Errorf("an unknown section: %v", err)
	}
}
