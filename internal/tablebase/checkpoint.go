package tablebase

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toguz/toguz/internal/atomicfile"
)

// A checkpoint holds one solved layer, values or distances, so that a
// generation stopped (a cancelled context, SIGINT in `toguz tablebase
// generate`) resumes at the layer it was solving. A layer depends only on
// the ruleset and the layers below it, never on how deep the whole table
// goes, so the checkpoints of a 10-stone generation serve an 11-stone one
// too (values of up to 15 stones are one byte, above two: the width is part
// of the name). The file is
//
//	offset  size  field
//	0       8     magic "TGTBPART"
//	8       16    ruleset name, NUL-padded
//	24      4     stage: 0 values, 1 distances
//	28      4     stones on the board (the layer)
//	32      4     bytes per value (values) or 0
//	36      4     reserved, 0
//	40      8     n, the bytes of the layer
//	48      n     the layer, as in the table
//	48+n    4     CRC-32C of every byte before it
//
// written with atomicfile, so that a checkpoint is whole or absent.
const (
	checkpointMagic  = "TGTBPART"
	checkpointHeader = 48
)

type stage int

const (
	stageValues stage = iota
	stageDistances
)

func (s stage) String() string { return [...]string{"values", "distances"}[s] }

// checkpointer reads and writes the checkpoints of t in dir; with dir empty
// it does nothing.
type checkpointer struct {
	dir string
	t   *Tables
}

// name returns the file of layer k of stage st.
func (c *checkpointer) name(st stage, k int) string {
	w := c.t.w
	if st == stageDistances {
		w = 0
	}
	return filepath.Join(c.dir, fmt.Sprintf("%s-%s-%d-w%d.part", c.t.lay.g.name, st, k, w))
}

// layer returns the bytes of t that layer k of stage st occupies.
func (c *checkpointer) layer(st stage, k int) []byte {
	t := c.t
	if st == stageValues {
		return t.data[t.lay.start(k)*t.w : t.lay.end(k)*t.w]
	}
	return t.dist[t.dtm.off[k]:t.dtm.off[k+1]]
}

func (c *checkpointer) header(st stage, k int, n int) []byte {
	h := make([]byte, checkpointHeader)
	copy(h, checkpointMagic)
	copy(h[8:24], c.t.lay.g.name)
	binary.LittleEndian.PutUint32(h[24:], uint32(st))
	binary.LittleEndian.PutUint32(h[28:], uint32(k))
	if st == stageValues {
		binary.LittleEndian.PutUint32(h[32:], uint32(c.t.w))
	}
	binary.LittleEndian.PutUint64(h[40:], uint64(n))
	return h
}

// save writes layer k of stage st.
func (c *checkpointer) save(st stage, k int) error {
	if c.dir == "" {
		return nil
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return fmt.Errorf("tablebase: checkpoints: %w", err)
	}
	b := c.layer(st, k)
	err := atomicfile.Write(c.name(st, k), func(w io.Writer) error {
		crc := crc32.New(castagnoli)
		mw := io.MultiWriter(w, crc)
		if _, err := mw.Write(c.header(st, k, len(b))); err != nil {
			return err
		}
		if _, err := mw.Write(b); err != nil {
			return err
		}
		_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
		return err
	})
	if err != nil {
		return fmt.Errorf("tablebase: checkpoint: %w", err)
	}
	return nil
}

// load reads layer k of stage st into t when its checkpoint exists,
// reporting whether it did. A checkpoint that is not intact, or not of this
// layer, is an error wrapping ErrCorrupt rather than solved again in
// silence: it means something else wrote there.
func (c *checkpointer) load(st stage, k int) (bool, error) {
	if c.dir == "" {
		return false, nil
	}
	name := c.name(st, k)
	f, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("tablebase: checkpoint: %w", err)
	}
	dst := c.layer(st, k)
	want := c.header(st, k, len(dst))
	switch {
	case len(f) != checkpointHeader+len(dst)+4:
		return false, fmt.Errorf("%w: checkpoint %s: %d bytes, want %d", ErrCorrupt, name, len(f), checkpointHeader+len(dst)+4)
	case string(f[:checkpointHeader]) != string(want):
		return false, fmt.Errorf("%w: checkpoint %s: header is not that of %s layer %d", ErrCorrupt, name, st, k)
	}
	body := f[:len(f)-4]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(f[len(body):]); got != want {
		return false, fmt.Errorf("%w: checkpoint %s: checksum %08x, want %08x", ErrCorrupt, name, got, want)
	}
	copy(dst, body[checkpointHeader:])
	return true, nil
}

// removeCheckpoints removes the checkpoints of t from dir, and dir when it
// is left empty.
func removeCheckpoints(dir string, t *Tables) error {
	c := checkpointer{dir: dir, t: t}
	for k := 0; k <= t.lay.maxStones; k++ {
		for _, st := range []stage{stageValues, stageDistances} {
			if err := os.Remove(c.name(st, k)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("tablebase: %w", err)
			}
		}
	}
	_ = os.Remove(dir) // only succeeds when empty; anything else there stays
	return nil
}
