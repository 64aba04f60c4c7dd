package dutch

import (
	"os"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

func TestZZDbg(t *testing.T) {
	f, _ := os.Open(os.Getenv("F"))
	ev, err := tournament.ReadTRF(f)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := tournament.Check(ev, Pairer{})
	for _, c := range res {
		_ = c
	}
	// stats for round R
	k := 2
	if s := os.Getenv("R"); s != "" {
		k = atoiS(s)
	}
	c := ev
	_ = c
	for i := range ev.Players {
		p := &ev.Players[i]
		if len(p.Rounds) >= k {
			en := p.Rounds[k-1]
			p.Rounds = p.Rounds[:k-1]
			if en.Opponent == 0 && en.Code != tournament.PairingBye {
				p.Rounds = append(p.Rounds, tournament.Entry{Colour: tournament.NoColor, Code: tournament.ZeroBye})
			}
		}
	}
	ev.Withdrawn = nil
	in, err := InputFor(ev)
	if err != nil {
		t.Fatal(err)
	}
	in.MaxNodes = 100000000
	for _, p := range in.Players {
		if p.Score >= 9 {
			t.Logf("%d score %d cols %v opps %v floats %v abs %v bye %v", p.ID, p.Score, p.Colours, p.Opponents, p.Floats, p.Absent, p.ByeReceived)
		}
	}
	pr, st, err := PairRoundStats(in)
	t.Logf("%+v %v", st, err)
	var ps []tournament.Pair
	for _, q := range pr.Pairs {
		ps = append(ps, tournament.Pair{White: q.White, Black: q.Black})
	}
	if pr.Bye != 0 {
		ps = append(ps, tournament.Pair{White: pr.Bye})
	}
	os.WriteFile("/tmp/swiss/dbg.txt", []byte(tournament.PairsText(ps)), 0o644)
}
