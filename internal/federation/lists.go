package federation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/toguz/toguz/internal/store"
)

// A federation's list of a discipline is published on the first of a
// month. It is computed from the latest imported list before it (or from
// nothing) and every report since, period by period, the periods being
// the months between the lists published since that base; a report
// belongs to the period its event ended in. A published list is never
// recomputed: a corrected report, or a late one, changes the standings
// the chain carries, and so the next list.

// ListLine is a line of a list with its player.
type ListLine struct {
	store.FedListEntry
	Player Entry
}

// listDay checks a list's date: the first of a month.
func listDay(day time.Time) (string, error) {
	if day.Day() != 1 {
		return "", invalid("a list's date is the first of a month, not %s", day.Format(time.DateOnly))
	}
	return day.Format(time.DateOnly), nil
}

// Compute returns the list federation code would publish on day for
// discipline d, highest rating first, without publishing it.
func (s *Service) Compute(ctx context.Context, code string, d Discipline, day time.Time) ([]store.FedListEntry, error) {
	if !slices.Contains(Disciplines, d) {
		return nil, invalid("discipline %q", d)
	}
	dayS, err := listDay(day)
	if err != nil {
		return nil, err
	}
	f, err := s.Federation(ctx, code)
	if err != nil {
		return nil, err
	}
	lists, err := s.st.FedLists(ctx, code, string(d)) // newest first
	if err != nil {
		return nil, err
	}
	if len(lists) > 0 && lists[0].Day >= dayS {
		if lists[0].Day == dayS {
			return nil, fmt.Errorf("%w: %s %s %s", ErrPublished, code, d, dayS)
		}
		return nil, invalid("the %s list of %s is published already, after %s", lists[0].Day, code, dayS)
	}
	var bounds []string
	from := ""
	state := map[string]Standing{}
	for _, l := range lists {
		if l.Imported {
			from = l.Day
			es, err := s.st.FedListEntries(ctx, code, string(d), l.Day)
			if err != nil {
				return nil, err
			}
			for _, e := range es {
				state[e.Player] = Standing{Rating: e.Rating, Games: e.Games, Reached: e.Reached}
			}
			break
		}
		bounds = append(bounds, l.Day)
	}
	slices.Reverse(bounds)
	bounds = append(bounds, dayS)
	prev := map[string]int{}
	if len(lists) > 0 {
		es, err := s.st.FedListEntries(ctx, code, string(d), lists[0].Day)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			prev[e.Player] = e.Rating
		}
	}
	births := map[string]int{}
	birth := func(id string) error {
		if _, ok := births[id]; ok {
			return nil
		}
		p, err := s.st.FedPlayerByID(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		births[id] = p.BirthYear
		return nil
	}
	for id := range state {
		if err := birth(id); err != nil {
			return nil, err
		}
	}
	var lines []Line
	for _, b := range bounds {
		reports, err := s.Reports(ctx, code, d, from, b)
		if err != nil {
			return nil, err
		}
		var games []PeriodGame
		for _, r := range reports {
			for _, g := range r.Games {
				if g.Forfeit {
					continue
				}
				if err := birth(g.White); err != nil {
					return nil, err
				}
				if err := birth(g.Black); err != nil {
					return nil, err
				}
				games = append(games, PeriodGame{White: g.White, Black: g.Black, Score: g.Score, Month: MonthOf(r.End)})
			}
		}
		bt, _ := time.Parse(time.DateOnly, b)
		state, lines = RatePeriod(f.Rules, bt, state, births, games)
		from = b
	}
	var out []store.FedListEntry
	year := day.Year()
	for _, l := range lines {
		if l.Rating == 0 {
			continue
		}
		st := state[l.Player]
		young := births[l.Player] > 0 && year <= births[l.Player]+f.Rules.YouthAge
		e := store.FedListEntry{Federation: code, Discipline: string(d), Day: dayS, Player: l.Player, Rating: l.Rating,
			Period: l.Period, Games: st.Games, Reached: st.Reached, K: f.Rules.KFactor(st.Rating, st.Games, young, st.Reached)}
		if p, ok := prev[l.Player]; ok {
			e.Change = l.Rating - p
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b store.FedListEntry) int { return b.Rating - a.Rating })
	return out, nil
}

// Publish computes and publishes the list of day; a published list never
// changes (ErrPublished).
func (s *Service) Publish(ctx context.Context, code string, d Discipline, day time.Time) ([]store.FedListEntry, error) {
	es, err := s.Compute(ctx, code, d, day)
	if err != nil {
		return nil, err
	}
	err = s.st.PublishFedList(ctx, store.FedList{Federation: code, Discipline: string(d), Day: day.Format(time.DateOnly)}, nil, es)
	if errors.Is(err, store.ErrPublished) {
		return nil, fmt.Errorf("%w: %s %s %s", ErrPublished, code, d, day.Format(time.DateOnly))
	}
	return es, err
}

// Lists returns a federation's published lists ("" every discipline),
// newest first.
func (s *Service) Lists(ctx context.Context, code string, d Discipline) ([]store.FedList, error) {
	return s.st.FedLists(ctx, code, string(d))
}

// List returns a published list's lines with their players, highest
// rating first.
func (s *Service) List(ctx context.Context, code string, d Discipline, day string) ([]ListLine, error) {
	es, err := s.st.FedListEntries(ctx, code, string(d), day)
	if err != nil {
		return nil, err
	}
	// The players and their ranks in a few queries, not a few a line: a
	// national list has thousands.
	ids := make([]string, len(es))
	for i, e := range es {
		ids[i] = e.Player
	}
	ps, err := s.st.FedPlayersByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]store.FedPlayer, len(ps))
	for _, p := range ps {
		byID[p.ID] = p
	}
	ranks := map[string][]store.FedRank{}
	for chunk := range slices.Chunk(ids, 500) {
		rs, err := s.st.FedRanks(ctx, "", chunk...)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			ranks[r.Player] = append(ranks[r.Player], r)
		}
	}
	feds := map[string]Federation{}
	out := make([]ListLine, 0, len(es))
	for _, e := range es {
		p, ok := byID[e.Player]
		if !ok {
			return nil, fmt.Errorf("list %s %s %s: player %s: %w", code, d, day, e.Player, ErrNoPlayer)
		}
		f, ok := feds[p.Federation]
		if !ok {
			if f, err = s.Federation(ctx, p.Federation); err != nil {
				return nil, err
			}
			feds[p.Federation] = f
		}
		pe := Entry{Player: Player{ID: p.ID, Federation: p.Federation, NameCyrl: p.NameCyrl, NameLatn: p.NameLatn,
			BirthYear: p.BirthYear, Sex: Sex(p.Sex), Club: p.Club, Title: p.Title}, UserID: p.UserID, Ranks: ranks[p.ID]}
		var codes []string
		for _, r := range pe.Ranks {
			codes = append(codes, r.Rank)
		}
		pe.Rank = f.Ranks.Highest(codes)
		out = append(out, ListLine{FedListEntry: e, Player: pe})
	}
	return out, nil
}

// History returns a player's lines in every published list, by day.
func (s *Service) History(ctx context.Context, id string) ([]store.FedListEntry, error) {
	return s.st.FedPlayerEntries(ctx, id)
}

// Played is an event a player played in, from the reports.
type Played struct {
	Report Report
	Games  int
	Score  float64
}

// EventsPlayed returns the reported events of federation code a player
// played in, newest first.
func (s *Service) EventsPlayed(ctx context.Context, code, id string) ([]Played, error) {
	var out []Played
	for _, d := range Disciplines {
		rs, err := s.Reports(ctx, code, d, "", "")
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			pl := Played{Report: r}
			for _, g := range r.Games {
				switch id {
				case g.White:
					pl.Games++
					pl.Score += g.Score
				case g.Black:
					pl.Games++
					pl.Score += 1 - g.Score
				}
			}
			if pl.Games > 0 {
				pl.Report.Games = nil
				out = append(out, pl)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Played) int { return b.Report.End.Compare(a.Report.End) })
	return out, nil
}
