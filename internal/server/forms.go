package server

import (
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/levels"
	"github.com/toguz/toguz/internal/live"
)

// rulesetChoice is a ruleset as a form offers it: its name for the server,
// its title and one-line description in the page's language.
type rulesetChoice struct {
	Name, Title, Help string
	Selected          bool
}

// formChoices is what the play forms (seek, challenge, engine game, editor)
// offer: every named ruleset of the rules library, the engine's levels,
// and whether the viewer may play rated games (guests may not).
type formChoices struct {
	Rulesets []rulesetChoice
	Chosen   rulesetChoice // the selected one
	MaxLevel int
	// Levels are the engine's levels with what each plays like on the
	// online rating scale (internal/levels), in the page's language.
	Levels  []levelChoice
	CanRate bool
	// RulesetTitles and ColorTitles name a seek's ruleset and colour in the
	// page's language, for lobby.js (JSON in a data-* attribute).
	RulesetTitles map[string]string
	ColorTitles   map[string]string
}

// choices returns the forms' choices in lang with selected (a ruleset
// name; the standard game when it is none of them) chosen, for a viewer
// with an account or not.
func (s *Server) choices(lang, selected string, account bool) formChoices {
	c := formChoices{MaxLevel: engine.MaxLevel, Levels: s.levelChoices(lang), CanRate: account, RulesetTitles: map[string]string{}}
	names := toguz.RulesetNames()
	found := false
	for _, n := range names {
		found = found || n == selected
	}
	if !found {
		selected = toguz.Standard().String()
	}
	for _, n := range names {
		rc := rulesetChoice{Name: n, Title: s.cat.T(lang, "ruleset."+n), Help: s.cat.T(lang, "ruleset."+n+".help"), Selected: n == selected}
		c.Rulesets = append(c.Rulesets, rc)
		c.RulesetTitles[n] = rc.Title
		if rc.Selected {
			c.Chosen = rc
		}
	}
	c.ColorTitles = map[string]string{}
	for _, col := range []string{"white", "black", "random"} {
		c.ColorTitles[col] = s.cat.T(lang, "form.color."+col)
	}
	return c
}

// levelChoice is an engine level as the forms offer it.
type levelChoice struct {
	Level    int
	Label    string // "3: plays like about 1300"
	Selected bool
}

// defaultLevel is the level the forms offer first.
const defaultLevel = 3

// levelChoices returns the levels 1..engine.MaxLevel with their places on
// the rating scale (s.levels, from the table `toguz levels` made) in lang.
func (s *Server) levelChoices(lang string) []levelChoice {
	out := make([]levelChoice, 0, engine.MaxLevel)
	for l := 1; l <= engine.MaxLevel; l++ {
		label := s.cat.T(lang, "levels.plain", l)
		if l < len(s.levels) && s.levels[l].Rating > 0 {
			var like string
			switch p := s.levels[l]; p.Bound {
			case levels.Below:
				like = s.cat.T(lang, "levels.below", p.Rating)
			case levels.Above:
				like = s.cat.T(lang, "levels.above", p.Rating)
			default:
				like = s.cat.T(lang, "levels.about", p.Rating)
			}
			label = s.cat.T(lang, "levels.option", l, like)
		}
		out = append(out, levelChoice{Level: l, Label: label, Selected: l == defaultLevel})
	}
	return out
}

// seekRow is a seek as the lobby's list shows it.
type seekRow struct {
	live.SeekJSON
	RulesetTitle, ColorTitle string
}

func (c formChoices) row(j live.SeekJSON) seekRow {
	r := seekRow{SeekJSON: j, RulesetTitle: c.RulesetTitles[j.Ruleset], ColorTitle: c.ColorTitles[j.Color]}
	if r.RulesetTitle == "" {
		r.RulesetTitle = j.Ruleset // a ruleset with parameters has no title
	}
	return r
}
