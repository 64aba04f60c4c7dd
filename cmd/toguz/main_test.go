package main

import (
	"errors"
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

// failingCloser is a written file whose data fails to reach the disk.
type failingCloser struct{ err error }

func (c failingCloser) Close() error { return c.err }

// TestCloseInto: the error of Close is returned unless an earlier error is.
func TestCloseInto(t *testing.T) {
	full, earlier := errors.New("disk full"), errors.New("earlier")
	for _, tt := range []struct {
		before, close, want error
	}{
		{nil, nil, nil},
		{nil, full, full},
		{earlier, full, earlier},
		{earlier, nil, earlier},
	} {
		err := tt.before
		closeInto(failingCloser{tt.close}, &err)
		if err != tt.want {
			t.Errorf("error %v, Close %v: got %v, want %v", tt.before, tt.close, err, tt.want)
		}
	}
}
