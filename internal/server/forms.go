package server

import (
	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/levels"
	"github.com/toguz/toguz/internal/site"
)

// choices returns the forms' choices in lang with selected (a ruleset
// name; the standard game when it is none of them) chosen, for a viewer
// with an account or not.
func (s *Server) Choices(lang, selected string, account bool) site.FormChoices {
	c := site.FormChoices{MaxLevel: engine.MaxLevel, Levels: s.levelChoices(lang), CanRate: account, RulesetTitles: map[string]string{}}
	names := toguz.RulesetNames()
	found := false
	for _, n := range names {
		found = found || n == selected
	}
	if !found {
		selected = toguz.Standard().String()
	}
	for _, n := range names {
		rc := site.RulesetChoice{Name: n, Title: s.cat.T(lang, "ruleset."+n), Help: s.cat.T(lang, "ruleset."+n+".help"), Selected: n == selected}
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

// defaultLevel is the level the forms offer first.
const defaultLevel = 3

// levelChoices returns the levels 1..engine.MaxLevel with their places on
// the rating scale (s.levels, from the table `toguz levels` made) in lang.
func (s *Server) levelChoices(lang string) []site.LevelChoice {
	out := make([]site.LevelChoice, 0, engine.MaxLevel)
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
		out = append(out, site.LevelChoice{Level: l, Label: label, Selected: l == defaultLevel})
	}
	return out
}
