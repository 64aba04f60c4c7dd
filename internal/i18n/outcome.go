package i18n

import (
	"strconv"
	"strings"
)

// Outcome returns how a game ended as a sentence in lang: result is
// "1-0", "0-1", "1/2-1/2" or "*", termination a toguz.Termination name
// ("kazan", "atsyrau", "time", …; "none" or "" when not known), score the
// final count, White first, or nil when not known. Each result and
// termination has a sentence of its own ("outcome.1-0.time"); a pair
// without one (a record's result with no ending known) takes the result's
// ("outcome.1-0").
func (c *Catalog) Outcome(lang, result, termination string, score *[2]int) string {
	if termination == "" {
		termination = "none"
	}
	key := "outcome." + result + "." + termination
	if !c.Translated("en", key) {
		key = "outcome." + result
		if !c.Translated("en", key) {
			key = "outcome.*"
		}
	}
	s := c.T(lang, key)
	if score == nil {
		return c.T(lang, "outcome.sentence", s)
	}
	return c.T(lang, "outcome.sentence_score", s, score[0], score[1])
}

// OutcomeKeys returns the keys Outcome may look up.
func OutcomeKeys() []string {
	keys := []string{"outcome.sentence", "outcome.sentence_score", "outcome.1-0", "outcome.0-1", "outcome.1/2-1/2", "outcome.*"}
	for _, r := range []string{"1-0", "0-1"} {
		for _, t := range []string{"kazan", "atsyrau", "resignation", "time", "adjudication"} {
			keys = append(keys, "outcome."+r+"."+t)
		}
	}
	return append(keys, "outcome.1/2-1/2.draw", "outcome.1/2-1/2.agreement", "outcome.1/2-1/2.adjudication", "outcome.1/2-1/2.repetition", "outcome.*.none")
}

// OutcomeTemplates returns Outcome's sentences in lang for a page's
// script, keyed by "result termination" ("1-0 time", "1/2-1/2 draw",
// "* none"; an adjudication's reason after it: "1/2-1/2 adjudication
// repetition"), with {w} and {b} where White's and Black's scores go: the
// board says how a game it watched ended without a table of its own.
func (c *Catalog) OutcomeTemplates(lang string) map[string]string {
	// Scores no text holds, replaced by the placeholders.
	const w, b = 987001, 987002
	out := map[string]string{}
	pairs := map[string][]string{
		"1-0":     {"none", "kazan", "atsyrau", "resignation", "time", "adjudication"},
		"0-1":     {"none", "kazan", "atsyrau", "resignation", "time", "adjudication"},
		"1/2-1/2": {"none", "draw", "agreement", "adjudication"},
		"*":       {"none"},
	}
	for r, terms := range pairs {
		for _, t := range terms {
			s := c.Outcome(lang, r, t, &[2]int{w, b})
			out[r+" "+t] = strings.NewReplacer(strconv.Itoa(w), "{w}", strconv.Itoa(b), "{b}").Replace(s)
		}
	}
	// The event's repetition rule ends a game by adjudication (live's
	// ReasonRepetition): its sentence says so.
	rep := c.T(lang, "outcome.sentence_score", c.T(lang, "outcome.1/2-1/2.repetition"), w, b)
	out["1/2-1/2 adjudication repetition"] = strings.NewReplacer(strconv.Itoa(w), "{w}", strconv.Itoa(b), "{b}").Replace(rep)
	return out
}
