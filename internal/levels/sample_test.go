package levels

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

func TestSamplePositions(t *testing.T) {
	data, err := os.ReadFile("testdata/two-games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	games, err := toguz.ParseGames("two-games.pgn", data, toguz.FormatPlayOK)
	if err != nil {
		t.Fatal(err)
	}
	// Game 1: White 1200, Black 1172; game 2: White 1185, Black 1183.
	bands := []Band{{0, 1180}, {1180, 0}}
	const minPly = 10
	ss, err := samplePositions(games, bands, 5, minPly, 7, false)
	if err != nil {
		t.Fatal(err)
	}
	perBand := map[int]int{}
	perCluster := map[int]int{}
	for _, s := range ss {
		perBand[s.band]++
		perCluster[s.cluster]++
		g := games[s.game]
		side := toguz.Player(s.cluster % 2)
		wantRating := map[toguz.Player]string{toguz.White: g.Tag("WhiteElo"), toguz.Black: g.Tag("BlackElo")}[side]
		if r, _ := rating(g, side); r != s.rating || wantRating == "" || !bands[s.band].Contains(r) {
			t.Errorf("sample %+v: rating %d of its side, band %v", s, r, bands[s.band])
		}
		ps, _ := g.Positions()
		ply := -1
		for i, p := range ps {
			if p == s.pos && i < len(g.Plies) && g.Moves()[i] == s.played {
				ply = i
			}
		}
		if ply < minPly || s.pos.Turn() != side {
			t.Errorf("sample at ply %d (turn %v, side %v): want a position of the game at ply ≥ %d where its player moves", ply, s.pos.Turn(), side, minPly)
		}
	}
	// Band 0 has one player-game, so all five of its positions; band 1
	// has three, one position each and then two more.
	if perBand[0] != 5 || perBand[1] != 5 {
		t.Errorf("positions per band %v, want 5 and 5", perBand)
	}
	if perCluster[1] != 5 || perCluster[0] != 2 && perCluster[0] != 1 || perCluster[0]+perCluster[2]+perCluster[3] != 5 {
		t.Errorf("positions per player-game %v: want 5 for game 1's Black and 1–2 for each of the others", perCluster)
	}
	for _, c := range []int{0, 2, 3} {
		if perCluster[c] < 1 || perCluster[c] > 2 {
			t.Errorf("player-game %d has %d positions, want 1 or 2 (spread before doubling up)", c, perCluster[c])
		}
	}
	again, _ := samplePositions(games, bands, 5, minPly, 7, false)
	if !reflect.DeepEqual(ss, again) {
		t.Error("the same seed drew another sample")
	}
}

// TestCalibrateCache runs the whole calibration, small, twice over one
// cache file: the second run searches nothing deep again and gives the
// same table; a line cut short by an interrupted run is searched again.
func TestCalibrateCache(t *testing.T) {
	data, err := os.ReadFile("testdata/two-games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	games, err := toguz.ParseGames("two-games.pgn", data, toguz.FormatPlayOK)
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir() + "/cache.jsonl"
	c := Config{Games: games, Bands: []Band{{0, 1180}, {1180, 0}}, PerBand: 3, Seed: 1, MinPly: 6, RefDepth: 3,
		NPS: 100_000, MaxNodes: 3000, Cap: 20, Jobs: 2, Cache: cache}
	first, err := Calibrate(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	refs, _, err := readCache(cache)
	if err != nil || len(refs) != 6 {
		t.Fatalf("cache holds %d positions (%v), want 6", len(refs), err)
	}
	// Cut the last line short, as a killed run leaves it.
	raw, _ := os.ReadFile(cache)
	if err := os.WriteFile(cache, raw[:len(raw)-10], 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := Calibrate(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "5 of 6 deep searches from the cache"; !strings.Contains(second.CPU, want) {
		t.Errorf("second run: %q, want %q", second.CPU, want)
	}
	third, err := Calibrate(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if want := "6 of 6 deep searches from the cache"; !strings.Contains(third.CPU, want) {
		t.Errorf("third run: %q, want %q (the line after the cut one was lost)", third.CPU, want)
	}
	first.CPU, second.CPU = "", ""
	if !reflect.DeepEqual(first, second) {
		t.Errorf("the cached run differs:\n%+v\n%+v", first, second)
	}
	if len(first.Levels) != 10 || first.Positions != 6 {
		t.Errorf("%d levels, %d positions; want 10 and 6", len(first.Levels), first.Positions)
	}
}

// TestSampleGrows: a larger sample keeps the positions of a smaller one in
// every band, so that its cached deep searches serve again.
func TestSampleGrows(t *testing.T) {
	data, err := os.ReadFile("testdata/two-games.pgn")
	if err != nil {
		t.Fatal(err)
	}
	games, err := toguz.ParseGames("two-games.pgn", data, toguz.FormatPlayOK)
	if err != nil {
		t.Fatal(err)
	}
	bands := []Band{{0, 1180}, {1180, 0}}
	small, _ := samplePositions(games, bands, 3, 6, 9, false)
	large, _ := samplePositions(games, bands, 8, 6, 9, false)
	seen := map[toguz.Position]bool{}
	for _, s := range large {
		seen[s.pos] = true
	}
	for _, s := range small {
		if !seen[s.pos] {
			t.Errorf("band %d's position %s of the small sample is not in the large one", s.band, s.pos.FEN())
		}
	}
}
