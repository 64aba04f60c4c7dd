package shareddata

import (
	"path/filepath"
	"testing"
)

func TestDirFindsModuleRoot(t *testing.T) {
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	// This package is two levels below the module root.
	want, err := filepath.Abs("../../../shared/data")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Clean(dir) != want {
		t.Errorf("Dir() = %s, want %s", dir, want)
	}
}

func TestReadMastersGames(t *testing.T) {
	data := Read(t, "masters-2018.pgn")
	if len(data) == 0 {
		t.Error("masters-2018.pgn is empty")
	}
}

// fakeTB records whether Fatalf or Skipf was called, so that the CI rule can
// be tested without failing this test.
type fakeTB struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatalf(string, ...any) { f.failed = true }
func (f *fakeTB) Skipf(string, ...any)  { f.skipped = true }

func TestMissingFailsInCI(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		f := &fakeTB{TB: t}
		Path(f, "no-such-file.pgn")
		if ci != "" && (!f.failed || f.skipped) {
			t.Errorf("CI=%q: failed=%t skipped=%t, want a failure", ci, f.failed, f.skipped)
		}
		if ci == "" && (f.failed || !f.skipped) {
			t.Errorf("CI=%q: failed=%t skipped=%t, want a skip", ci, f.failed, f.skipped)
		}
	}
}
