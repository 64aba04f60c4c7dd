// Command settingsdoc writes the table of the flags of `toguz serve`, from
// the server's settings table (internal/server/settings.go), into the file
// it is given (docs/deploy.md) between its settings markers: `go generate
// ./internal/server`. A test of internal/server fails when the file is
// not up to date.
package main

import (
	"fmt"
	"os"

	"github.com/toguz/toguz/internal/server"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: settingsdoc FILE.md")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "settingsdoc:", err)
		os.Exit(1)
	}
}

func write(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := server.SpliceSettings(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if out == string(b) {
		return nil
	}
	return os.WriteFile(path, []byte(out), 0o644)
}
