package tournament

import (
	"bytes"
	"strings"
	"testing"
)

// TestCheckRoundRobin: a generated round robin (the Berger tables pair it)
// passes the checker round by round; with two players' colours swapped in
// one round, that round differs and names the pairs.
func TestCheckRoundRobin(t *testing.T) {
	e, err := Generate(GenerateConfig{Players: 8, Rounds: 7, System: RoundRobin, DrawRate: 0.4, Seed: 2}, RoundRobinPairer{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(e, RoundRobinPairer{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 7 {
		t.Fatalf("%d rounds checked, want 7", len(res))
	}
	for _, c := range res {
		if !c.Same() {
			t.Errorf("round %d: file %s, checker %s %v", c.Round, PairsText(c.File), PairsText(c.Ours), c.Err)
		}
	}
	pr := e.Pairs(3)[0]
	w, b := e.Player(pr.White), e.Player(pr.Black)
	w.Rounds[2].Colour, b.Rounds[2].Colour = Black, White
	res, err = Check(e, RoundRobinPairer{})
	if err != nil {
		t.Fatal(err)
	}
	if res[2].Same() || !res[1].Same() || !strings.Contains(PairsText(res[2].File), PairsText([]Pair{{pr.Black, pr.White}})) {
		t.Errorf("round 3 with colours swapped: file %s, checker %s", PairsText(res[2].File), PairsText(res[2].Ours))
	}
}

// TestGenerate: the same config and seed give the same file; the rates
// show in it (late entries' zero-point byes, requested byes, forfeits,
// withdrawals); a bad config is refused naming the field.
func TestGenerate(t *testing.T) {
	cfg := GenerateConfig{Players: 30, Rounds: 6, System: RoundRobin, DrawRate: 0.3, ForfeitRate: 0.1, Seed: 9}
	text := func(cfg GenerateConfig) string {
		e, err := Generate(cfg, RoundRobinPairer{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := e.WriteTRF(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a := text(cfg)
	if a != text(cfg) {
		t.Error("the same seed gave two events")
	}
	cfg.Seed++
	if a == text(cfg) {
		t.Error("two seeds gave the same event")
	}
	if !strings.Contains(a, " w +") && !strings.Contains(a, " b +") {
		t.Error("no forfeit at a forfeit rate of 0.1")
	}
	for _, bad := range []struct {
		cfg  GenerateConfig
		want string
	}{
		{GenerateConfig{Players: 1, Rounds: 3}, "players"},
		{GenerateConfig{Players: 10, Rounds: 0}, "rounds"},
		{GenerateConfig{Players: 10, Rounds: 3, DrawRate: 1.5}, "draw rate"},
		{GenerateConfig{Players: 10, Rounds: 3, LateRate: -1}, "late entry rate"},
		{GenerateConfig{Players: 10, Rounds: 3, HighestRating: 1000, LowestRating: 2000}, "ratings"},
	} {
		if _, err := Generate(bad.cfg, RoundRobinPairer{}); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want an error about %s", bad.cfg, err, bad.want)
		}
	}
}

// TestReadTRFLineEnds: LF, CR LF and a lone CR (as some pairing programs
// write) read the same.
func TestReadTRFLineEnds(t *testing.T) {
	lines := []string{
		"012 Line ends",
		"001    1      Abenov, Arman                     2100                             1.0    1     2 w 1",
		"001    2      Bekova, Dana                      2000                             0.0    2     1 b 0",
	}
	var want string
	for i, sep := range []string{"\n", "\r\n", "\r"} {
		e, err := ReadTRF(strings.NewReader(strings.Join(lines, sep) + sep))
		if err != nil {
			t.Fatalf("%q: %v", sep, err)
		}
		var b bytes.Buffer
		if err := e.WriteTRF(&b); err != nil {
			t.Fatal(err)
		}
		if len(e.Players) != 2 || e.Name != "Line ends" {
			t.Errorf("%q: %d players, name %q", sep, len(e.Players), e.Name)
		}
		if i == 0 {
			want = b.String()
		} else if b.String() != want {
			t.Errorf("%q reads otherwise than LF", sep)
		}
	}
}

// TestBefore: round k's copy keeps the rounds before it, leaves out the
// players round k does not pair, and infers the colour drawn for round 1
// when the file has no XXC (the colour of the first player paired).
func TestBefore(t *testing.T) {
	lines := []string{
		"001    1      A                                 2100                             1.5    1  0000 - H     3 b 1",
		"001    2      B                                 2000                             1.0    2     3 w 0  0000 - U",
		"001    3      C                                 1900                             1.0    3     2 b 1     1 w 0",
	}
	e, err := ReadTRF(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	c := e.Before(2)
	if c.Played() != 1 || c.Rounds != 2 {
		t.Errorf("before round 2: %d rounds played of %d", c.Played(), c.Rounds)
	}
	if got := c.Available(2); len(got) != 3 {
		t.Errorf("round 2's players %v", got)
	}
	if c.Colour != "white1" {
		// Player 1 was not paired in round 1; player 2, the first paired
		// (the first pairing number of round 1, E.5), had White.
		t.Errorf("colour drawn %q, want white1", c.Colour)
	}
	if got := e.Before(1).Available(1); len(got) != 2 || got[0] != 2 {
		t.Errorf("round 1's players %v, want 2 and 3", got)
	}
}
