package site

import "github.com/toguz/toguz/internal/live"

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
