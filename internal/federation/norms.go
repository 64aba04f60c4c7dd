package federation

import (
	"context"
	"time"
)

// EarnedNorm is a rank's norm a player met in one event: his games
// against rated opponents, his points in them and his performance.
type EarnedNorm struct {
	Player      string
	Rank        string // the highest rank of his federation's system whose norm he met, above his own
	Games       int
	Score       float64
	Performance int
}

// NormsEarned returns the norms the players of a report met, by the
// ranks of each player's federation: the opponents' ratings are those of
// the report's federation's latest list of its discipline published
// before the event started; games against unrated opponents and forfeits
// do not count. A rank whose norm has no numbers (a title the state
// awards) is never earned here.
func (s *Service) NormsEarned(ctx context.Context, r Report) ([]EarnedNorm, error) {
	lists, err := s.st.FedLists(ctx, r.Federation, string(r.Discipline))
	if err != nil {
		return nil, err
	}
	start := r.Start.Format(time.DateOnly)
	ratings := map[string]int{}
	for _, l := range lists { // newest first
		if l.Day <= start {
			es, err := s.st.FedListEntries(ctx, r.Federation, string(r.Discipline), l.Day)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				ratings[e.Player] = e.Rating
			}
			break
		}
	}
	type acc struct {
		opps  []int
		score float64
	}
	accs := map[string]*acc{}
	var order []string
	add := func(me, opp string, score float64) {
		a := accs[me]
		if a == nil {
			a = &acc{}
			accs[me] = a
			order = append(order, me)
		}
		if ratings[opp] > 0 {
			a.opps = append(a.opps, ratings[opp])
			a.score += score
		}
	}
	for _, g := range r.Games {
		if g.Forfeit {
			continue
		}
		add(g.White, g.Black, g.Score)
		add(g.Black, g.White, 1-g.Score)
	}
	var out []EarnedNorm
	for _, id := range order {
		a := accs[id]
		if len(a.opps) == 0 {
			continue
		}
		e, err := s.Entry(ctx, id)
		if err != nil {
			return nil, err
		}
		f, err := s.Federation(ctx, e.Federation)
		if err != nil {
			return nil, err
		}
		perf := Performance(a.opps, a.score)
		best := ""
		for _, rk := range f.Ranks {
			n := rk.Norm
			if n.Games > 0 && n.Performance > 0 && len(a.opps) >= n.Games && perf >= n.Performance && f.Ranks.Order(rk.Code) > f.Ranks.Order(e.Rank) {
				best = rk.Code
			}
		}
		if best != "" {
			out = append(out, EarnedNorm{Player: id, Rank: best, Games: len(a.opps), Score: a.score, Performance: perf})
		}
	}
	return out, nil
}
