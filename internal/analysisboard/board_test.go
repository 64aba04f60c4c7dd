package analysisboard

import (
	"testing"

	"github.com/toguz/toguz/internal/site"
)

// TestAnalysisLimiters: a user is bounded whatever his address, nobody by
// his address; 0 is 10 a minute and a negative bound none.
func TestAnalysisLimiters(t *testing.T) {
	user := site.Identity{Account: site.Account{ID: 7, Name: "ali"}}
	a := newAnalysisLimiters(2)
	for i, addr := range []string{"a1", "a2"} {
		if !a.allow(user, addr) {
			t.Fatalf("analysis %d refused", i+1)
		}
	}
	if a.allow(user, "a3") {
		t.Error("a third analysis a minute of one user, from another address, was allowed")
	}
	var nobody []bool
	for range 3 {
		nobody = append(nobody, a.allow(site.Identity{}, "a3"))
	}
	if !nobody[0] || !nobody[1] || nobody[2] {
		t.Errorf("nobody at one address, 3 analyses: %v, want the third refused", nobody)
	}
	if d := newAnalysisLimiters(0); d.perMinute != 10 {
		t.Errorf("default bound %d, want 10", d.perMinute)
	}
	free := newAnalysisLimiters(-1)
	for i := range 100 {
		if !free.allow(user, "a") {
			t.Fatalf("analysis %d refused with no bound", i+1)
		}
	}
}
