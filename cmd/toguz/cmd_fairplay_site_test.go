package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/fairplay"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/shareddata"
	"github.com/toguz/toguz/internal/store"
)

// TestFairplayFitSite: `fairplay fit -db` fits on a server's rated games
// between people (here 32 PlayOK games replayed as the site's, with
// clocks), leaves out a game of another ruleset, caches the analysis so
// that a second run analyses nothing and writes the same model, and the
// model differs from the embedded one fit on PlayOK.
func TestFairplayFitSite(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses 32 games")
	}
	data := shareddata.Read(t, "playok-2024-2025.pgn")
	recs, err := toguz.ParseGames("playok-2024-2025.pgn", data, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "toguz.db")
	ctx := t.Context()
	st, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]store.User{}
	user := func(name string) game.Seat {
		u, ok := users[name]
		if !ok {
			if u, err = st.CreateUser(ctx, name, "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA"); err != nil {
				t.Fatal(err)
			}
			users[name] = u
		}
		return game.UserSeat(u.ID, u.Name)
	}
	tc := clock.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}
	// The games' ids are fixed, so is the split into the fit's six in ten
	// and the held-out rest.
	play := func(id string, names [2]string, rules toguz.Rules, moves []toguz.Move) {
		g, err := st.CreateGame(ctx, store.Game{ID: id, Players: [2]game.Seat{user(names[0]), user(names[1])}, Rules: rules,
			TimeControl: tc, Rated: true, Status: game.Playing}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range moves {
			// Each mover spends 2 s a move, and 5 s on every fifth.
			left := tc.Base - time.Duration(i/2)*time.Second
			if i%5 == 0 {
				left -= 3 * time.Second
			}
			if err := st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m, Clock: left}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByResignation}); err != nil {
			t.Fatal(err)
		}
	}
	const games = 32
	n := 0
	for _, r := range recs {
		if len(r.Plies) < 40 || r.Tag("White") == "" || r.Tag("Black") == "" {
			continue
		}
		play(fmt.Sprintf("fit%03d", n), [2]string{r.Tag("White"), r.Tag("Black")}, toguz.Standard(), r.Moves())
		if n++; n == games {
			break
		}
	}
	play("bestemshe", [2]string{"abai", "bolat"}, toguz.Bestemshe(), []toguz.Move{1, 2})
	st.Close()

	cache := filepath.Join(dir, "cache")
	fit := func() (fairplay.Model, string) {
		t.Helper()
		code, out, errs := runRecordCmd(t, "fairplay", "fit", "-data", "", "-db", db, "-cache", cache)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var m fairplay.Model
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return m, errs
	}
	m1, log1 := fit()
	if want := "site: 32 rated games between people (32 analysed now), 1 of another ruleset or position left out"; !strings.Contains(log1, want) {
		t.Errorf("log %q lacks %q", log1, want)
	}
	if !strings.Contains(log1, "of the site's games") {
		t.Errorf("log %q does not say how many sides came from the site", log1)
	}
	m2, log2 := fit()
	if !strings.Contains(log2, "(0 analysed now)") || m2 != m1 {
		t.Errorf("second run: log %q; model %+v, want the first's %+v", log2, m2, m1)
	}
	if def := fairplay.Default(); m1.A == def.A && m1.B == def.B {
		t.Errorf("the site's fit has the embedded model's A and B (%g, %g)", m1.A, m1.B)
	}
	if fi, err := os.Stat(fairplay.SiteCacheFile(cache)); err != nil || fi.Size() == 0 {
		t.Errorf("cache file: %v, %v", fi, err)
	}
	// The embedded model judges the held-out four in ten as human games
	// and their names as accounts.
	code, out, errs := runRecordCmd(t, "fairplay", "measure", "-data", "", "-db", db, "-cache", cache, "-deep=false")
	if code != 0 {
		t.Fatalf("measure: exit %d: %s", code, errs)
	}
	for _, want := range []string{"the site's held out: 0 flagged of ", "human accounts (the site's accounts, held-out games): "} {
		if !strings.Contains(out, want) {
			t.Errorf("measure's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "PlayOK") || strings.Contains(out, "of 0;") {
		t.Errorf("measure without -data: %s", out)
	}
	if code, _, errs := runRecordCmd(t, "fairplay", "fit", "-data", ""); code == 0 || !strings.Contains(errs, "-db") {
		t.Errorf("-data \"\" without -db: exit %d, %q", code, errs)
	}
}
