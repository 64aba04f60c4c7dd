package abacus

import (
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
)

// TestTextsInEveryLanguage: every kind of step and every place is told in
// each of the five languages with its arguments filled in (no fmt error,
// no key shown for a text).
func TestTextsInEveryLanguage(t *testing.T) {
	cat := i18n.New()
	var calcs []*Calc
	for _, g := range []struct {
		a  string
		op Op
		b  string
	}{{"347", Add, "56"}, {"503", Sub, "27"}, {"47", Mul, "23"}, {"347", Div, "5"}} {
		c, err := Compute(8, mustParse(t, g.a, 8), g.op, mustParse(t, g.b, 8))
		if err != nil {
			t.Fatal(err)
		}
		calcs = append(calcs, c)
	}
	for _, l := range i18n.Languages() {
		kinds := map[StepKind]bool{}
		for _, c := range calcs {
			for _, s := range c.Steps {
				kinds[s.Kind] = true
				texts := []string{s.Heading(cat, l.Tag, c.Op)}
				for _, m := range s.Moves {
					texts = append(texts, m.Text(cat, l.Tag))
				}
				for _, x := range texts {
					if strings.Contains(x, "%!") || strings.Contains(x, "key.") {
						t.Errorf("%s, %s step: %q", l.Tag, s.Kind, x)
					}
				}
			}
		}
		if len(kinds) != len(kindNames) {
			t.Errorf("%s: %d kinds of step seen, want %d", l.Tag, len(kinds), len(kindNames))
		}
	}
}
