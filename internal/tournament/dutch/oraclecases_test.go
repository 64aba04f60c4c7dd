package dutch

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/toguz/toguz/internal/tournament"
)

// TestOracleCases re-pairs every round of big tournaments whose rounds the
// FIDE-endorsed bbpPairings (v6.0.0) pairs as the files have them: bbp-gen-*
// its generator wrote, toguz-gen-* this package's generator wrote and its
// checker (-c) confirmed round by round. One round of each ran into the
// node budget before the assignment bound (assign.go): rounds 2 (209
// players), 4 (213), 6 (294) and 4 (136) of bbp-gen-*, 2 (266), 8 (235)
// and 9 (152) of toguz-gen-*.
func TestOracleCases(t *testing.T) {
	if testing.Short() {
		t.Skip("big tournaments")
	}
	files, _ := filepath.Glob("testdata/oracle/*.trf")
	if len(files) == 0 {
		t.Fatal("no files in testdata/oracle")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ev, err := tournament.ReadTRF(bytes.NewReader(bytes.ReplaceAll(data, []byte("\r"), []byte("\n"))))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		res, err := tournament.Check(ev, Pairer{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, c := range res {
			if !c.Same() {
				t.Errorf("%s round %d:\n ours   %s %v\n oracle %s", f, c.Round, tournament.PairsText(c.Ours), c.Err, tournament.PairsText(c.File))
			}
		}
	}
}
