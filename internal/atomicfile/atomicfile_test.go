package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// entries returns the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "weights.txt")
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := Write(name, text("old\n")); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, text("new\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "new\n" {
		t.Fatalf("after two writes: %q, %v; want \"new\\n\"", b, err)
	}
	if st, err := os.Stat(name); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", st.Mode(), err)
	}

	// A write that fails halfway leaves the old file whole and no
	// temporary file beside it.
	failure := errors.New("disk on fire")
	err := Write(name, func(w io.Writer) error {
		if _, err := io.WriteString(w, "half of the"); err != nil {
			return err
		}
		return failure
	})
	if !errors.Is(err, failure) {
		t.Errorf("failed write: error %v, want it to wrap %v", err, failure)
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "new\n" {
		t.Errorf("after a failed write: %q, %v; want the old \"new\\n\"", b, err)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "weights.txt" {
		t.Errorf("files left: %q, want only weights.txt", got)
	}

	// A directory that does not exist is an error, and nothing is written.
	missing := filepath.Join(dir, "no", "such.txt")
	if err := Write(missing, text("x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Write into a missing directory: %v, want ErrNotExist", err)
	}
}
