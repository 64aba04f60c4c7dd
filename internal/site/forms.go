package site

import (
	"strconv"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/levels"
	"github.com/toguz/toguz/internal/live"
)

// RulesetChoice is a ruleset as a form offers it: its name for the server,
// its title and one-line description in the page's language.
type RulesetChoice struct {
	Name, Title, Help string
	Selected          bool
}

// FormChoices is what the play forms (seek, challenge, engine game,
// editor, simul) offer: every named ruleset of the rules library, the
// engine's levels, and whether the viewer may play rated games (guests may
// not).
type FormChoices struct {
	Rulesets []RulesetChoice
	Chosen   RulesetChoice // the selected one
	MaxLevel int
	// Levels are the engine's levels with what each plays like on the
	// online rating scale (internal/levels), in the page's language.
	Levels  []LevelChoice
	CanRate bool
	// RulesetTitles and ColorTitles name a seek's ruleset and colour in the
	// page's language, for the lobby's script (JSON in a data-* attribute).
	RulesetTitles map[string]string
	ColorTitles   map[string]string
}

// LevelChoice is an engine level as the forms offer it.
type LevelChoice struct {
	Level    int
	Label    string // "3: plays like about 1300"
	Selected bool
}

// SeekRow is a seek as the lobby's list shows it.
type SeekRow struct {
	live.SeekJSON
	RulesetTitle, ColorTitle string
}

// Row returns seek j as the lobby's list shows it in c's language.
func (c FormChoices) Row(j live.SeekJSON) SeekRow {
	r := SeekRow{SeekJSON: j, RulesetTitle: c.RulesetTitles[j.Ruleset], ColorTitle: c.ColorTitles[j.Color]}
	if r.RulesetTitle == "" {
		r.RulesetTitle = j.Ruleset // a ruleset with parameters has no title
	}
	return r
}

// NewFormChoices returns the forms' choices in lang with selected (a
// ruleset name; the standard game when it is none of them) chosen, for a
// viewer with an account or not; placed are the engine's levels on the
// rating scale (internal/levels' table, indexed by level).
func NewFormChoices(cat *i18n.Catalog, placed []levels.Placement, lang, selected string, account bool) FormChoices {
	c := FormChoices{MaxLevel: engine.MaxLevel, Levels: levelChoices(cat, placed, lang), CanRate: account, RulesetTitles: map[string]string{}}
	names := toguz.RulesetNames()
	found := false
	for _, n := range names {
		found = found || n == selected
	}
	if !found {
		selected = toguz.Standard().String()
	}
	for _, n := range names {
		rc := RulesetChoice{Name: n, Title: cat.T(lang, "ruleset."+n), Help: cat.T(lang, "ruleset."+n+".help"), Selected: n == selected}
		c.Rulesets = append(c.Rulesets, rc)
		c.RulesetTitles[n] = rc.Title
		if rc.Selected {
			c.Chosen = rc
		}
	}
	c.ColorTitles = map[string]string{}
	for _, col := range []string{"white", "black", "random"} {
		c.ColorTitles[col] = cat.T(lang, "form.color."+col)
	}
	return c
}

// LossText writes the stones a level loses a move, two decimals, with the
// decimal mark of lang (a comma but in English).
func LossText(lang string, loss float64) string {
	s := strconv.FormatFloat(loss, 'f', 2, 64)
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// defaultLevel is the level the forms offer first.
const defaultLevel = 3

// levelChoices returns the levels 1..engine.MaxLevel with their places on
// the rating scale in lang.
func levelChoices(cat *i18n.Catalog, placed []levels.Placement, lang string) []LevelChoice {
	out := make([]LevelChoice, 0, engine.MaxLevel)
	for l := 1; l <= engine.MaxLevel; l++ {
		label := cat.T(lang, "levels.plain", l)
		if l < len(placed) && placed[l].Rating > 0 {
			var like string
			switch p := placed[l]; p.Bound {
			case levels.Below:
				like = cat.T(lang, "levels.below", p.Rating)
			case levels.Above:
				like = cat.T(lang, "levels.above", p.Rating)
			default:
				like = cat.T(lang, "levels.about", p.Rating)
			}
			like += ", " + cat.T(lang, "levels.loss", LossText(lang, placed[l].Loss))
			label = cat.T(lang, "levels.option", l, like)
		}
		out = append(out, LevelChoice{Level: l, Label: label, Selected: l == defaultLevel})
	}
	return out
}
