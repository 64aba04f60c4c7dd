package sections

import (
	"context"
	"fmt"
	"strconv"

	"github.com/toguz/toguz/internal/federation"
	"github.com/toguz/toguz/internal/papers"
)

// Norms tells which ranks' norms the players of a report met, and each
// federation's ranks to name them by; *federation.Service satisfies it.
type Norms interface {
	NormsEarned(ctx context.Context, r federation.Report) ([]federation.EarnedNorm, error)
	Federation(ctx context.Context, code string) (federation.Federation, error)
}

// EarnedRow is a norm one player met in one discipline of the
// championship, with what the pages print of it.
type EarnedRow struct {
	federation.EarnedNorm
	Name       string // in the page's language
	Federation string
	Section    string // the section's name
	RankName   string // in the page's language
}

// ScoreText is the points as the pages write them (½ for a half).
func (r EarnedRow) ScoreText() string { return points(r.Score) }

// EarnedOf is the norms met in one discipline: final once every section
// of it has finished, provisional before.
type EarnedOf struct {
	Discipline federation.Discipline
	Finished   bool
	Rows       []EarnedRow
}

// Earned returns the ranks' norms the championship's players met, by
// discipline, named in lang: the register computes them from each
// discipline's games as its report carries them (forfeits and games
// against unrated players do not count), the opponents' ratings those
// of the federation's list published before the first day.
func (d *Desk) Earned(ctx context.Context, c *Championship, lang string) ([]EarnedOf, error) {
	if d.cfg.Norms == nil {
		return nil, conflict("sections.err_no_norms")
	}
	feds := map[string]federation.Federation{}
	rankName := func(fed, code string) (string, error) {
		f, ok := feds[fed]
		if !ok {
			var err error
			if f, err = d.cfg.Norms.Federation(ctx, fed); err != nil {
				return "", fmt.Errorf("sections: the ranks of %s: %w", fed, err)
			}
			feds[fed] = f
		}
		return f.Ranks.Name(code, lang), nil
	}
	var out []EarnedOf
	for _, disc := range c.Disciplines() {
		e := EarnedOf{Discipline: disc, Finished: c.DisciplineFinished(disc)}
		norms, err := d.cfg.Norms.NormsEarned(ctx, c.Report(disc, c.Creator, d.cfg.Now()))
		if err != nil {
			return nil, fmt.Errorf("sections: the norms of %s %s: %w", c.ID, disc, err)
		}
		for _, n := range norms {
			p := c.Players[n.Player]
			row := EarnedRow{EarnedNorm: n, Name: c.Name(n.Player, lang), Federation: p.Federation}
			for _, s := range c.sectionsOf(n.Player) {
				if s.Discipline == disc {
					row.Section = s.Name
				}
			}
			if row.RankName, err = rankName(p.Federation, n.Rank); err != nil {
				return nil, err
			}
			e.Rows = append(e.Rows, row)
		}
		out = append(out, e)
	}
	return out, nil
}

// norms prints the ranks' norms earned, a table a discipline.
func (p *printer) norms(earned []EarnedOf) {
	p.head(p.t("sections.paper_norms"), p.c.Settings.Federation)
	d := p.d
	widths := []float64{8, 22, 48, 12, 28, 36, 10, 10, 12}
	aligns := "RLLCLLRRR"
	head := []string{"№", p.t("sections.col_id"), p.t("sections.col_name"), p.t("sections.col_fed"), p.t("sections.f_section"),
		p.t("sections.col_norm"), p.t("sections.col_games"), p.t("sections.col_pts"), "Rp"}
	for _, e := range earned {
		d.SetFont(papers.Font, "B", 10)
		title := p.t("sections.disc_" + string(e.Discipline))
		if !e.Finished {
			title += " · " + p.t("sections.norms_provisional")
		}
		d.CellFormat(0, 7, title, "", 1, "L", false, 0, "")
		if len(e.Rows) == 0 {
			d.SetFont(papers.Font, "", 9)
			d.CellFormat(0, 6, p.t("sections.norms_none"), "", 1, "L", false, 0, "")
			d.Ln(2)
			continue
		}
		p.row(widths, aligns, head, true, true)
		for i, r := range e.Rows {
			p.row(widths, aligns, []string{strconv.Itoa(i + 1), r.Player, r.Name, r.Federation, r.Section, r.RankName,
				strconv.Itoa(r.Games), r.ScoreText(), strconv.Itoa(r.Performance)}, false, false)
		}
		d.Ln(2)
	}
	d.SetFont(papers.Font, "", 7)
	d.MultiCell(0, 3.5, p.t("sections.norms_legend"), "", "L", false)
}
