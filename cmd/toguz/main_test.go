package main

import (
	"strings"
	"testing"
)

// TestHelp: every subcommand's -h exits 0 and prints its usage on stderr,
// nothing on stdout, whether or not it has subcommands of its own.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		for _, flag := range []string{"-h", "--help"} {
			code, out, errs := runRecordCmd(t, c.name, flag)
			if code != 0 {
				t.Errorf("%s %s: exit %d, want 0", c.name, flag, code)
			}
			if out != "" {
				t.Errorf("%s %s: stdout %q, want the usage on stderr only", c.name, flag, out)
			}
			if want := "Usage: toguz " + c.name; !strings.HasPrefix(errs, want) {
				t.Errorf("%s %s: stderr %q, want it to start with %q", c.name, flag, errs, want)
			}
		}
	}
}
