// Package levels places the engine's levels 1–10 on the scale of online
// ratings: from the rated PlayOK games, how many stones a player of each
// rating band loses per move against a deep search, the same figure for each
// level's own choices, and the rating at which the two match (Calibrate).
// `toguz levels` runs it and writes table.json, which the site reads (Table)
// to say "plays like about 1300" beside each level, and the level table of
// docs/engine.md (Markdown), which a test keeps equal to it.
package levels

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Bound says how a level's rating was found: inside the rated bands'
// range (About), or beyond its weak or strong end, where the data give
// only a bound (Below, Above).
type Bound string

// The bounds of a placement.
const (
	About Bound = "about"
	Below Bound = "below"
	Above Bound = "above"
)

// Band is a range of ratings, Lo ≤ rating < Hi (0: open end).
type Band struct {
	Lo int `json:"lo"`
	Hi int `json:"hi"`
}

// Contains reports whether rating is in b.
func (b Band) Contains(rating int) bool {
	return (b.Lo == 0 || rating >= b.Lo) && (b.Hi == 0 || rating < b.Hi)
}

// String writes b as "<1200", "1200–1299" or "≥1500".
func (b Band) String() string {
	switch {
	case b.Lo == 0:
		return fmt.Sprintf("<%d", b.Hi)
	case b.Hi == 0:
		return fmt.Sprintf("≥%d", b.Lo)
	}
	return fmt.Sprintf("%d–%d", b.Lo, b.Hi-1)
}

// BandStat is the evidence of one rating band.
type BandStat struct {
	Band       Band    `json:"band"`
	Games      int     `json:"games"`     // games the positions come from
	Players    int     `json:"players"`   // player-games (a game's side) sampled
	Positions  int     `json:"positions"` // positions sampled
	MeanRating float64 `json:"mean_rating"`
	Match      float64 `json:"match"` // share of moves equal to the deep search's
	MatchCI    float64 `json:"match_ci"`
	Loss       float64 `json:"loss"` // mean stones lost per move
	LossCI     float64 `json:"loss_ci"`
	// Mistakes is the share of moves that lose MistakeStones or more.
	Mistakes float64 `json:"mistakes"`
}

// LevelStat is the evidence of one level and its place on the scale.
type LevelStat struct {
	Level   int     `json:"level"`
	Nodes   uint64  `json:"nodes"` // node budget of each search
	Depth   float64 `json:"depth"` // mean depth completed
	Match   float64 `json:"match"`
	MatchCI float64 `json:"match_ci"`
	Loss    float64 `json:"loss"`
	LossCI  float64 `json:"loss_ci"`
	// Mistakes is the share of moves that lose MistakeStones or more.
	Mistakes float64 `json:"mistakes"`
	// Agree is, per band, the share of that band's positions where the
	// level chose the move the player chose.
	Agree  []float64 `json:"agree"`
	Rating int       `json:"rating"` // rounded to 50
	Bound  Bound     `json:"bound"`
	// RefLoss is the loss on the reference group's positions (0 without).
	RefLoss   float64 `json:"ref_loss,omitempty"`
	RefLossCI float64 `json:"ref_loss_ci,omitempty"`
	// Range is where the ends of the loss's interval place the level
	// (the bands' own uncertainty not counted): how far the rating can be
	// trusted.
	Range [2]Placement `json:"range"`
}

// Table is the calibration: the command that made it, its method's
// settings, the bands' and the levels' evidence.
type Table struct {
	Command  string      `json:"command"`
	Source   string      `json:"source"`
	RefDepth int         `json:"ref_depth"`
	ClampCap float64     `json:"clamp_stones"`
	CPU      string      `json:"cpu"` // CPU time of the run that made it
	Bands    []BandStat  `json:"bands"`
	Levels   []LevelStat `json:"levels"`
	// Random is a uniformly random legal move in the same positions: the
	// baseline a plausible mistake must beat.
	Random    Baseline `json:"random"`
	Positions int      `json:"positions"` // of the rated bands
	// Reference is the group of unrated strong players' games, off the
	// rating scale (nil: none); its agreement is the last of Agree's.
	Reference     *BandStat `json:"reference,omitempty"`
	ReferenceName string    `json:"reference_name,omitempty"`
}

// Baseline is what a uniformly random legal move scores, in expectation.
type Baseline struct {
	Loss     float64   `json:"loss"`
	Match    float64   `json:"match"`
	Mistakes float64   `json:"mistakes"`
	Agree    []float64 `json:"agree"` // per band, with the players' moves
}

// MistakeStones is the loss of a mistake, as `toguz analyze` marks "?"
// (internal/analysis's default).
const MistakeStones = 6

//go:embed table.json
var tableJSON []byte

// Embedded returns the table `toguz levels` wrote into this package.
func Embedded() (Table, error) {
	var t Table
	if err := json.Unmarshal(tableJSON, &t); err != nil {
		return Table{}, fmt.Errorf("levels: table.json: %w", err)
	}
	return t, nil
}

// Placement is where a level plays on the rating scale.
type Placement struct {
	Rating int   `json:"rating"`
	Bound  Bound `json:"bound"`
	// Loss is the stones the level's moves lose a move against the deep
	// search, in the rated players' positions: what tells apart levels the
	// rating scale cannot (all below its weakest band, or above its best).
	Loss float64 `json:"loss,omitempty"`
}

// short writes p as "1450", "<1150" or ">1500".
func (p Placement) short() string {
	switch p.Bound {
	case Below:
		return fmt.Sprintf("<%d", p.Rating)
	case Above:
		return fmt.Sprintf(">%d", p.Rating)
	}
	return fmt.Sprintf("%d", p.Rating)
}

// Placements returns each level's placement, indexed by level (index 0
// unused); a level the table lacks has the zero Placement.
func (t Table) Placements(maxLevel int) []Placement {
	p := make([]Placement, maxLevel+1)
	for _, l := range t.Levels {
		if l.Level >= 1 && l.Level <= maxLevel {
			p[l.Level] = Placement{Rating: l.Rating, Bound: l.Bound, Loss: l.Loss}
		}
	}
	return p
}

// Markers around the generated level table.
const (
	BeginMarker = "<!-- levels table: made by `toguz levels`, do not edit -->"
	EndMarker   = "<!-- end of levels table -->"
)

// Markdown writes the level table (docs/engine.md) and its evidence.
func (t Table) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| level | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	row := func(name string, cell func(LevelStat) string) {
		b.WriteString("| " + name + " |")
		for _, l := range t.Levels {
			b.WriteString(" " + cell(l) + " |")
		}
		b.WriteString("\n")
	}
	row("plays like", func(l LevelStat) string {
		switch l.Bound {
		case Below:
			return fmt.Sprintf("below %d", l.Rating)
		case Above:
			return fmt.Sprintf("above %d", l.Rating)
		}
		return fmt.Sprintf("about %d", l.Rating)
	})
	if t.Reference != nil {
		row("stones lost, "+t.ReferenceName, func(l LevelStat) string { return fmt.Sprintf("%.2f ± %.2f", l.RefLoss, l.RefLossCI) })
	}
	row("95% range", func(l LevelStat) string { return l.Range[0].short() + " – " + l.Range[1].short() })
	row("stones lost a move", func(l LevelStat) string { return fmt.Sprintf("%.2f ± %.2f", l.Loss, l.LossCI) })
	row("deep search's move", func(l LevelStat) string { return fmt.Sprintf("%.0f%%", 100*l.Match) })
	row(fmt.Sprintf("moves losing %d+", MistakeStones), func(l LevelStat) string { return fmt.Sprintf("%.0f%%", 100*l.Mistakes) })
	row("nodes a move", func(l LevelStat) string { return fmt.Sprintf("%d", l.Nodes) })
	row("depth", func(l LevelStat) string { return fmt.Sprintf("%.1f", l.Depth) })
	fmt.Fprintf(&b, "\n| rating band | games | positions | mean rating | stones lost a move | deep search's move | moves losing %d+ |", MistakeStones)
	for _, l := range t.Levels {
		fmt.Fprintf(&b, " L%d agrees |", l.Level)
	}
	b.WriteString("\n|---|---|---|---|---|---|---|" + strings.Repeat("---|", len(t.Levels)) + "\n")
	groups := t.Bands
	if t.Reference != nil {
		groups = append(groups[:len(groups):len(groups)], *t.Reference)
	}
	for i, s := range groups {
		name, rating := s.Band.String(), fmt.Sprintf("%.0f", s.MeanRating)
		if i == len(t.Bands) {
			name, rating = t.ReferenceName, "unrated"
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %.2f ± %.2f | %.0f%% ± %.0f | %.0f%% |", name, s.Games, s.Positions, rating, s.Loss, s.LossCI, 100*s.Match, 100*s.MatchCI, 100*s.Mistakes)
		for _, l := range t.Levels {
			if i < len(l.Agree) {
				fmt.Fprintf(&b, " %.0f%% |", 100*l.Agree[i])
			}
		}
		b.WriteString("\n")
	}
	var agree []string
	for i, s := range t.Bands {
		if i < len(t.Random.Agree) {
			agree = append(agree, fmt.Sprintf("%.0f%% (%s)", 100*t.Random.Agree[i], s.Band))
		}
	}
	if n := len(t.Bands); t.Reference != nil && n < len(t.Random.Agree) {
		agree = append(agree, fmt.Sprintf("%.0f%% (%s)", 100*t.Random.Agree[n], t.ReferenceName))
	}
	fmt.Fprintf(&b, "\nA random legal move in the same positions loses %.2f stones a move, is the deep search's move %.0f%% of the time, loses %d+ stones %.0f%% of the time and agrees with the players' moves %s.\n",
		t.Random.Loss, 100*t.Random.Match, MistakeStones, 100*t.Random.Mistakes, strings.Join(agree, ", "))
	if t.Reference != nil {
		fmt.Fprintf(&b, "\nThe random move's and the levels' figures above the band table are over the rated bands' positions; %s are off the rating scale, with their own row of the levels' losses.\n", t.ReferenceName)
	}
	fmt.Fprintf(&b, "\n%d positions of rated players, deep search to depth %d with every move searched (MultiPV), scores clamped to ±%g stones; ± is a 95%% interval (clustered by player-game); %s. Made by:\n\n```sh\n%s\n```\n",
		t.Positions, t.RefDepth, t.ClampCap, t.CPU, t.Command)
	return b.String()
}

// Section returns a Markdown text's part between the markers, or false.
func Section(readme string) (string, bool) {
	_, rest, ok := strings.Cut(readme, BeginMarker+"\n")
	if !ok {
		return "", false
	}
	body, _, ok := strings.Cut(rest, EndMarker)
	return body, ok
}

// Replace returns readme with the text between the markers replaced by
// body, or false when readme has no markers.
func Replace(readme, body string) (string, bool) {
	head, rest, ok := strings.Cut(readme, BeginMarker+"\n")
	if !ok {
		return "", false
	}
	_, tail, ok := strings.Cut(rest, EndMarker)
	if !ok {
		return "", false
	}
	return head + BeginMarker + "\n" + body + EndMarker + tail, true
}
