package web

// analysisTexts are the catalog keys analysis.js shows beyond the board's
// (AnalysisTexts).
var analysisTexts = []string{
	"analysis.depth", "analysis.thinking", "analysis.mate.white", "analysis.mate.black",
	"analysis.tb.white", "analysis.tb.black", "analysis.tb.draw", "analysis.tb.whitewins", "analysis.tb.blackwins",
	"analysis.share.too_long", "analysis.share.copied", "analysis.import.done", "analysis.start",
	"analysis.nomoves", "analysis.engine.off", "analysis.evalwhite", "game.over",
}

// AnalysisTexts returns the texts of analysis.js in the page's language:
// the board's (BoardTexts) and the analysis board's own, as BoardTexts
// writes them.
func (p *Page) AnalysisTexts() map[string]any {
	out := p.BoardTexts()
	for _, k := range analysisTexts {
		forms := p.cat.Plural(p.Lang, k)
		if len(forms) == 1 {
			out[k] = forms["other"]
		} else {
			out[k] = forms
		}
	}
	return out
}

// Outcomes returns the sentences of a game's results in the page's
// language, with {w} and {b} for the score (i18n.Catalog.OutcomeTemplates).
func (p *Page) Outcomes() map[string]string { return p.cat.OutcomeTemplates(p.Lang) }
