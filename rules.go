package toguz

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Rules are the parameters of a ruleset. The zero value is not valid; start
// from one of the named rulesets (Standard, Bestemshe, Seven, Pre1949) or call
// Rules.Validate after filling it in.
//
// Rules is a small comparable value: it is stored inside every Position, so a
// position always knows how it is played.
type Rules struct {
	Holes  int // holes per side, 2..9
	Stones int // stones in each hole at the start; 2·Holes·Stones ≤ 255

	// Tuzdik enables the tuzdik: a last stone that makes an opponent's hole
	// hold exactly 3 claims that hole for good (docs/rules.md §2.4).
	Tuzdik bool

	// OriginSowing puts the first stone of a move of two or more stones back
	// into the hole just emptied, as the federation rules since 1949 do.
	// Without it (the older rules) sowing starts in the next hole.
	OriginSowing bool

	// PlayOut keeps the game going after a kazan passes half of the stones,
	// so that it is played to its final score; it then ends only by atsyrau.
	PlayOut bool
}

// The named rulesets are functions, not variables, so that no package can
// change what Standard means for every other one.

// Standard is Toguz Kumalak under the federation rules: 2×9 holes, 9 stones
// each, tuzdik, sowing from the emptied hole, 82 wins.
func Standard() Rules { return Rules{Holes: 9, Stones: 9, Tuzdik: true, OriginSowing: true} }

// Bestemshe (Uyum tuudu) is the children's game: 2×5 holes, 5 stones each,
// no tuzdik, more than 25 wins.
func Bestemshe() Rules { return Rules{Holes: 5, Stones: 5, OriginSowing: true} }

// Seven is the regional 2×7 board with 7 stones in each hole (seed 002).
func Seven() Rules { return Rules{Holes: 7, Stones: 7, Tuzdik: true, OriginSowing: true} }

// Pre1949 is the standard board under the older rules, where sowing does not
// put the first stone back into the emptied hole.
func Pre1949() Rules { return Rules{Holes: 9, Stones: 9, Tuzdik: true} }

// namedRules lists the named rulesets in the order they are documented.
var namedRules = []struct {
	name  string
	rules Rules
}{
	{"standard", Standard()},
	{"bestemshe", Bestemshe()},
	{"seven", Seven()},
	{"pre1949", Pre1949()},
}

// RulesetNames returns the names that ParseRules accepts without parameters.
func RulesetNames() []string {
	names := make([]string, len(namedRules))
	for i, n := range namedRules {
		names[i] = n.name
	}
	return names
}

// ErrRules is wrapped by every error about an invalid ruleset.
var ErrRules = errors.New("invalid ruleset")

// Validate reports whether r describes a playable game.
func (r Rules) Validate() error {
	switch {
	case r.Holes < 2 || r.Holes > MaxHoles:
		return fmt.Errorf("%w: %d holes per side, want 2..%d", ErrRules, r.Holes, MaxHoles)
	case r.Stones < 1:
		return fmt.Errorf("%w: %d stones per hole, want at least 1", ErrRules, r.Stones)
	case 2*r.Holes*r.Stones > 255:
		return fmt.Errorf("%w: %d stones in all, want at most 255", ErrRules, 2*r.Holes*r.Stones)
	}
	return nil
}

// Total is the number of stones in the game.
func (r Rules) Total() int { return 2 * r.Holes * r.Stones }

// WinningScore is the smallest kazan that wins: more than half of the stones
// (82 in the standard game, 26 in Bestemshe).
func (r Rules) WinningScore() int { return r.Total()/2 + 1 }

// String returns the name of a named ruleset, or the parameter form that
// ParseRules reads back ("standard", "standard,playout",
// "holes=7,stones=7,tuzdik,origin").
func (r Rules) String() string {
	base := r
	base.PlayOut = false
	for _, n := range namedRules {
		if n.rules == base {
			if r.PlayOut {
				return n.name + ",playout"
			}
			return n.name
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "holes=%d,stones=%d", r.Holes, r.Stones)
	for _, f := range []struct {
		on   bool
		name string
	}{{r.Tuzdik, "tuzdik"}, {r.OriginSowing, "origin"}, {r.PlayOut, "playout"}} {
		if f.on {
			b.WriteString(",")
			b.WriteString(f.name)
		}
	}
	return b.String()
}

// ParseRules reads a ruleset name as written by Rules.String: a named ruleset
// ("standard", "bestemshe", "seven", "pre1949"), optionally followed by
// modifiers, or parameters alone. Modifiers are comma-separated: holes=N,
// stones=N, and the flags tuzdik, origin, playout, each of which may be
// negated with a "no" prefix (notuzdik). Names are case-insensitive.
func ParseRules(s string) (Rules, error) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), ",")
	var r Rules
	start := 0
	for _, n := range namedRules {
		if parts[0] == n.name {
			r, start = n.rules, 1
			break
		}
	}
	if start == 0 {
		// Parameters alone start from the standard game's flags off.
		r = Rules{Holes: 9, Stones: 9}
	}
	for _, part := range parts[start:] {
		part = strings.TrimSpace(part)
		if k, v, ok := strings.Cut(part, "="); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return Rules{}, fmt.Errorf("%w %q: %q is not a number", ErrRules, s, v)
			}
			switch k {
			case "holes":
				r.Holes = n
			case "stones":
				r.Stones = n
			default:
				return Rules{}, fmt.Errorf("%w %q: unknown parameter %q", ErrRules, s, k)
			}
			continue
		}
		on := true
		name := part
		if strings.HasPrefix(part, "no") {
			on, name = false, part[2:]
		}
		switch name {
		case "tuzdik":
			r.Tuzdik = on
		case "origin":
			r.OriginSowing = on
		case "playout":
			r.PlayOut = on
		default:
			return Rules{}, fmt.Errorf("%w %q: unknown ruleset or option %q (known rulesets: %s)",
				ErrRules, s, part, strings.Join(RulesetNames(), ", "))
		}
	}
	if err := r.Validate(); err != nil {
		return Rules{}, fmt.Errorf("ruleset %q: %w", s, err)
	}
	return r, nil
}
