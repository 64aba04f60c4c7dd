package tablebase

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toguz/toguz"
)

// Set holds the tables of several rulesets, at most one table each. It
// answers a probe from the table of the position's own ruleset and never
// from another's (a position of a ruleset without a table is not in the
// set), so the engine and the server can be given every table at once. It
// is immutable and safe for concurrent use; none of its probes allocates.
type Set struct {
	// At most one per ruleset that has tables (three): a scan is cheaper
	// than a map lookup of a Rules.
	tables []*Tables
}

// NewSet returns the set of the tables given (nil ones are left out). Two
// tables of one ruleset are an error: which one answers would be a guess.
func NewSet(tables ...*Tables) (*Set, error) {
	s := &Set{}
	for _, t := range tables {
		if t == nil {
			continue
		}
		if s.For(t.Rules()) != nil {
			return nil, fmt.Errorf("tablebase: two tables of the ruleset %s", t.lay.g.name)
		}
		s.tables = append(s.tables, t)
	}
	return s, nil
}

// For returns the table of rules in the set, nil when it has none.
func (s *Set) For(rules toguz.Rules) *Tables {
	for _, t := range s.tables {
		if t.lay.g.rules == rules {
			return t
		}
	}
	return nil
}

// All returns the tables of the set, in the order they were given.
func (s *Set) All() []*Tables { return s.tables }

// MaxStonesFor returns the most stones on the board of a position of
// rules that the set holds, 0 when it holds no table of rules.
func (s *Set) MaxStonesFor(rules toguz.Rules) int {
	if t := s.For(rules); t != nil {
		return t.MaxStones()
	}
	return 0
}

// MaxStonesFor is Set.MaxStonesFor of the set of t alone.
func (t *Tables) MaxStonesFor(rules toguz.Rules) int {
	if t.lay.g.rules != rules {
		return 0
	}
	return t.MaxStones()
}

// ProbeDTM is Tables.ProbeDTM in the table of p's ruleset; ok is false
// when the set has none.
func (s *Set) ProbeDTM(p toguz.Position) (result WDL, plies int, ok bool) {
	if t := s.For(p.Rules()); t != nil {
		return t.ProbeDTM(p)
	}
	return Draw, 0, false
}

// ProbeWDL is Tables.ProbeWDL in the table of p's ruleset; ok is false
// when the set has none.
func (s *Set) ProbeWDL(p toguz.Position) (WDL, bool) {
	if t := s.For(p.Rules()); t != nil {
		return t.ProbeWDL(p)
	}
	return Draw, false
}

// OpenSet opens the tables at path: a table file alone, or in a directory,
// for each ruleset that has tables (standard, bestemshe, seven), its file
// named by FileName with the most stones. A ruleset without a file there
// is not an error (the set has no table of it), nor is a directory with
// none at all (the set is empty); a file that is not an intact table is.
func OpenSet(path string) (*Set, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("tablebase: %w", err)
	}
	if !st.IsDir() {
		t, err := Open(path)
		if err != nil {
			return nil, err
		}
		return NewSet(t)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("tablebase: %w", err)
	}
	best := map[string]int{} // ruleset name → most stones of its files
	for _, e := range entries {
		name, n, ok := parseFileName(e.Name())
		if cur, seen := best[name]; ok && !e.IsDir() && (!seen || n > cur) {
			best[name] = n
		}
	}
	var tables []*Tables
	for _, g := range rulesetOrder() {
		n, ok := best[g]
		if !ok {
			continue
		}
		t, err := Open(filepath.Join(path, FileName(g, n)))
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	return NewSet(tables...)
}

// rulesetOrder returns the names of the rulesets that have tables, in the
// order of toguz.RulesetNames.
func rulesetOrder() []string {
	var names []string
	for _, n := range toguz.RulesetNames() {
		r, err := toguz.ParseRules(n)
		if err != nil {
			continue
		}
		if name, ok := RulesetName(r); ok {
			names = append(names, name)
		}
	}
	return names
}

// parseFileName reads a name FileName writes: the ruleset's name and the
// stones, ok=false for any other name (a checkpoint directory, a
// temporary file).
func parseFileName(file string) (ruleset string, stones int, ok bool) {
	base, found := strings.CutSuffix(file, ".tgtb")
	if !found {
		return "", 0, false
	}
	i := strings.LastIndexByte(base, '-')
	if i < 0 || geometryNamed(base[:i]) == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(base[i+1:])
	if err != nil || n < 0 || base[i+1:] != strconv.Itoa(n) {
		return "", 0, false
	}
	return base[:i], n, true
}
