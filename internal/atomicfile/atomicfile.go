// Package atomicfile writes a file so that a reader sees either its old
// contents or its new ones, never a part: the new contents go to a
// temporary file beside it, which is synced and then renamed over it.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes the file name (mode 0644) with write, buffered. When write
// or any step fails, name is left as it was and no temporary file is left
// behind; a failure of write is wrapped with the file's name.
func Write(name string, write func(w io.Writer) error) (err error) {
	// The temporary name starts with a dot so that a directory listing
	// (or a glob for the real files) passes over a leftover of a crash.
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close() // already failed; its own error adds nothing
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
