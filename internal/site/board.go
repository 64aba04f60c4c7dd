package site

import (
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/svg"
)

// BoardLabels are the words of an SVG board of p (package svg) in lang:
// the sides, the kazans, the side to move, the tuzdik and the drawing's
// title, which a screen reader says.
func BoardLabels(cat *i18n.Catalog, lang string, p toguz.Position) *svg.Labels {
	return &svg.Labels{
		White:  cat.T(lang, "game.white"),
		Black:  cat.T(lang, "game.black"),
		Kazan:  cat.T(lang, "learn.diagram.kazan"),
		ToMove: cat.T(lang, "learn.diagram.tomove"),
		Tuzdik: cat.T(lang, "board.tuzdik"),
		Title:  cat.T(lang, "board.title", p.Kazan(toguz.White), p.Kazan(toguz.Black), cat.T(lang, "game."+p.Turn().String())),
	}
}
