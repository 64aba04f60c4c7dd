// Package shareddata gives tests and benchmarks the project's real game
// files, which live outside the repository in ../shared/data (beside the
// module's root directory), as they do on every developer's machine and in CI.
//
// A test that needs a file skips when it is missing on a developer's machine
// but fails when the environment variable CI is set: CI always has the
// files, so a test there never passes by skipping.
package shareddata

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared data directory: ../shared/data relative to the
// module's root, which it finds by walking up from the working directory to
// go.mod (tests run in their package's directory).
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "data"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("shareddata: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Path returns the path of the named file of the shared data. When the file
// is missing it skips tb, or fails it if CI is set.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	dir, err := Dir()
	if err == nil {
		path := filepath.Join(dir, name)
		if _, err = os.Stat(path); err == nil {
			return path
		}
	}
	missing(tb, err)
	return ""
}

// Read returns the contents of the named file of the shared data, skipping
// or failing tb as Path does when it is missing.
func Read(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(Path(tb, name))
	if err != nil {
		missing(tb, err)
	}
	return data
}

func missing(tb testing.TB, err error) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf("shared data missing in CI: %v", err)
	} else {
		tb.Skipf("shared data missing: %v", err)
	}
}
