package tablebase

// The helpers of the internal tests that engine_test.go (package
// tablebase_test) uses.
var (
	SolvedTables   = tables
	RandomPosition = randomPosition
)

const NumConfigs = numConfigs
