package sections

import (
	"cmp"
	"context"
	"slices"

	"github.com/toguz/toguz/internal/federation"
)

// indexLimit is how many of the latest championships the register's
// pages list (a federation's calendar, a player's card).
const indexLimit = 300

// indexed is what the register's pages need of one championship, kept
// for as long as its version stands.
type indexed struct {
	version    int
	federation string
	listing    federation.Championship
	played     map[string][]federation.ChampionshipPlayed // by federation id
}

// index returns the latest championships' summaries, newest first,
// reading again only those changed since it last looked (a championship
// is one document: decoding every one for each page would cost a
// national calendar's worth of JSON a view).
func (d *Desk) index(ctx context.Context) ([]*indexed, error) {
	rows, err := d.cfg.Store.Championships(ctx, indexLimit)
	if err != nil {
		return nil, err
	}
	d.idxMu.Lock()
	defer d.idxMu.Unlock()
	if d.idx == nil {
		d.idx = map[string]*indexed{}
	}
	out := make([]*indexed, 0, len(rows))
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		seen[r.ID] = true
		x := d.idx[r.ID]
		if x == nil || x.version != r.Version {
			c, err := d.Get(ctx, r.ID)
			if err != nil {
				return nil, err
			}
			x = summarize(c)
			d.idx[r.ID] = x
		}
		out = append(out, x)
	}
	for id := range d.idx {
		if !seen[id] {
			delete(d.idx, id)
		}
	}
	return out, nil
}

// summarize takes from c what the register's pages list: its dates and
// status, and each player's section, place and points.
func summarize(c *Championship) *indexed {
	x := &indexed{version: c.version, federation: c.Settings.Federation, played: map[string][]federation.ChampionshipPlayed{},
		listing: federation.Championship{ID: c.ID, Name: c.Settings.Name, Start: c.Settings.Start, End: c.Settings.End, Status: string(c.Status())}}
	for _, s := range c.Sections {
		place := map[int]int{}
		points := map[int]float64{}
		if s.Round() > 0 {
			for _, st := range s.Event.Standings(-1) {
				place[st.Player.Start], points[st.Player.Start] = st.Rank, st.Points
			}
		}
		for i, id := range s.IDs {
			x.played[id] = append(x.played[id], federation.ChampionshipPlayed{Championship: x.listing, Section: s.Name,
				Discipline: s.Discipline, Place: place[i+1], Players: len(s.IDs), Points: points[i+1]})
		}
	}
	return x
}

// byStart orders championships the latest first.
func byStart(a, b federation.Championship) int {
	return cmp.Or(cmp.Compare(b.Start, a.Start), cmp.Compare(a.Name, b.Name))
}

// OfFederation returns the championships reported to federation code,
// the latest first (federation.Championships).
func (d *Desk) OfFederation(ctx context.Context, code string) ([]federation.Championship, error) {
	xs, err := d.index(ctx)
	if err != nil {
		return nil, err
	}
	out := []federation.Championship{}
	for _, x := range xs {
		if x.federation == code {
			out = append(out, x.listing)
		}
	}
	slices.SortStableFunc(out, byStart)
	return out, nil
}

// OfPlayer returns the sections entry id played in, the latest
// championship first (federation.Championships).
func (d *Desk) OfPlayer(ctx context.Context, id string) ([]federation.ChampionshipPlayed, error) {
	xs, err := d.index(ctx)
	if err != nil {
		return nil, err
	}
	out := []federation.ChampionshipPlayed{}
	for _, x := range xs {
		out = append(out, x.played[id]...)
	}
	slices.SortStableFunc(out, func(a, b federation.ChampionshipPlayed) int { return byStart(a.Championship, b.Championship) })
	return out, nil
}
