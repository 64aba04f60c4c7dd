// Package testbin builds the toguz command for the tests that run it as a
// child process (the engine protocol, the match runner, the server's
// restart test), so that each package builds it once and alike.
package testbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build builds cmd/toguz into a new temporary directory and returns the
// binary's path and a function that removes the directory.
func Build() (bin string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "toguz-test")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	bin = filepath.Join(dir, "toguz")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/toguz/toguz/cmd/toguz").CombinedOutput()
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("go build ./cmd/toguz: %w\n%s", err, out)
	}
	return bin, cleanup, nil
}
