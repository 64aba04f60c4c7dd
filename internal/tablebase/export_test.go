package tablebase

import (
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
)

// The helpers of the internal tests that engine_test.go (package
// tablebase_test) uses.
var (
	SolvedTables   = tables
	RandomPosition = randomPosition
)

const NumConfigs = numConfigs

// RandomPositionOf is randomPositionOf of the ruleset rules (one that has
// tables), in its first tuzdik configuration: none.
func RandomPositionOf(t testing.TB, rules toguz.Rules, rng *rand.Rand, k int, turn toguz.Player, a int) toguz.Position {
	t.Helper()
	return randomPositionOf(t, geometryOf(rules), rng, k, 0, turn, a)
}
