package systems

import (
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestEverySwissSystem: every Swiss system tournament.ParseSystem knows is
// paired, here or by PairerFor itself.
func TestEverySwissSystem(t *testing.T) {
	swiss := Swiss()
	for _, name := range []string{"dutch", "baku", "dubov", "burstein", "teamswiss", "doubleswiss"} {
		sys, err := tournament.ParseSystem(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !sys.Swiss() {
			t.Errorf("%s is not a Swiss", sys)
		}
		p, err := tournament.PairerFor(sys, swiss)
		if err != nil || p == nil {
			t.Errorf("%s: no pairer (%v)", sys, err)
		}
		if _, own := swiss[sys]; !own && sys != tournament.DoubleSwiss {
			t.Errorf("%s: not in Swiss()", sys)
		}
	}
}
