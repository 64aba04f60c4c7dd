package web

// boardTexts are the catalog keys board.js shows: the page hands it their
// texts in its language (BoardTexts), so that no English reaches a page
// rendered in another. Plural texts come with every form; the script picks
// one with the browser's CLDR rules.
var boardTexts = []string{
	"game.white", "game.black", "game.kazan", "game.yourturn", "game.tomove", "game.over",
	"game.aborted", "game.reconnecting", "game.spectator", "game.captured", "game.confirmresign",
	"game.holelabel", "game.tuzdiklabel", "game.kazanlabel",
	"game.drawyou", "game.drawthem", "game.drawside", "game.declinedyou", "game.declinedthem", "game.declinedside",
	"game.abortyou", "game.abortother", "game.collected", "game.plays", "game.captures",
	"game.premove", "game.premovegone", "game.engine", "game.guestname",
}

// BoardTexts returns the texts of board.js in the page's language: key →
// text, or key → {CLDR form → text} for a count.
func (p *Page) BoardTexts() map[string]any {
	out := make(map[string]any, len(boardTexts))
	for _, k := range boardTexts {
		forms := p.cat.Plural(p.Lang, k)
		if len(forms) == 1 {
			out[k] = forms["other"]
		} else {
			out[k] = forms
		}
	}
	return out
}
