package tablebase

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/toguz/toguz/internal/atomicfile"
)

// The file format, all integers little-endian:
//
//	offset   size  field
//	0        8     magic "TOGUZTB\x00"
//	8        4     format version (1)
//	12       4     N, the largest number of stones on the board (0..MaxStonesOf)
//	16       4     M+1, where M ≤ N is the largest number of stones with distances (0: none)
//	20       4     reserved, 0
//	24       8     n, the bytes of the values, which N and the ruleset fix
//	32       8     m, the number of distances, which M fixes
//	40       16    ruleset name, NUL-padded ("standard", "bestemshe", "seven")
//	56       n     one value per position, in layout order: a byte (the
//	               mover's count in the low nibble) when N ≤ 15, else two
//	               (the mover's count, then the opponent's)
//	56+n     m     the distances, in dtmLayout order
//	56+n+m   4     CRC-32C of every byte before it
const (
	fileMagic   = "TOGUZTB\x00"
	fileVersion = 1
	headerSize  = 56
)

// ErrCorrupt is wrapped by every error about a table file that is not a
// well-formed, intact table.
var ErrCorrupt = errors.New("corrupt tablebase file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func (t *Tables) header() []byte {
	h := make([]byte, headerSize)
	copy(h, fileMagic)
	binary.LittleEndian.PutUint32(h[8:], fileVersion)
	binary.LittleEndian.PutUint32(h[12:], uint32(t.lay.maxStones))
	binary.LittleEndian.PutUint32(h[16:], uint32(t.dtm.stones+1))
	binary.LittleEndian.PutUint64(h[24:], uint64(len(t.data)))
	binary.LittleEndian.PutUint64(h[32:], uint64(len(t.dist)))
	copy(h[40:], t.lay.g.name)
	return h
}

// WriteTo writes the tables in the file format.
func (t *Tables) WriteTo(w io.Writer) (int64, error) {
	crc := crc32.New(castagnoli)
	mw := io.MultiWriter(w, crc)
	n1, err := mw.Write(t.header())
	if err != nil {
		return int64(n1), err
	}
	n2, err := mw.Write(t.data)
	if err != nil {
		return int64(n1 + n2), err
	}
	n3, err := mw.Write(t.dist)
	if err != nil {
		return int64(n1 + n2 + n3), err
	}
	n4, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	return int64(n1 + n2 + n3 + n4), err
}

// WriteFile writes the tables to path atomically (package atomicfile), so
// that path never holds part of a table.
func (t *Tables) WriteFile(path string) error {
	err := atomicfile.Write(path, func(w io.Writer) error {
		_, err := t.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("tablebase: %w", err)
	}
	return nil
}

// Open reads a table file written by Generate or WriteFile, checking its
// header and checksum. Errors about the content wrap ErrCorrupt.
func Open(path string) (*Tables, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tablebase: %w", err)
	}
	t, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("tablebase %s: %w", path, err)
	}
	return t, nil
}

// Parse reads tables from the bytes of a table file. The tables keep b.
func Parse(b []byte) (*Tables, error) {
	bad := func(format string, args ...any) (*Tables, error) {
		return nil, fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if len(b) < headerSize+4 {
		return bad("%d bytes, shorter than a header", len(b))
	}
	if string(b[:8]) != fileMagic {
		return bad("not a toguz tablebase (magic %q)", b[:8])
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != fileVersion {
		return bad("format version %d, want %d", v, fileVersion)
	}
	name := string(bytes.TrimRight(b[40:56], "\x00"))
	g := geometryNamed(name)
	if g == nil {
		return bad("ruleset %q, want standard, bestemshe or seven", name)
	}
	maxStones := binary.LittleEndian.Uint32(b[12:])
	if maxStones > uint32(g.limit) {
		return bad("%d stones, want at most %d for %s", maxStones, g.limit, name)
	}
	dtmStones := int(binary.LittleEndian.Uint32(b[16:])) - 1
	if dtmStones > int(maxStones) {
		return bad("distances up to %d stones, values only up to %d", dtmStones, maxStones)
	}
	lay := newLayout(g, int(maxStones))
	w := valueWidth(int(maxStones))
	dtm := newDTMLayout(lay, dtmStones)
	n, m := binary.LittleEndian.Uint64(b[24:]), binary.LittleEndian.Uint64(b[32:])
	if n != uint64(lay.size()*w) || m != uint64(dtm.size()) {
		return bad("%d bytes of values and %d distances, want %d and %d for %d and %d stones",
			n, m, lay.size()*w, dtm.size(), maxStones, dtmStones)
	}
	if uint64(len(b)) != headerSize+n+m+4 {
		return bad("%d bytes, want %d", len(b), headerSize+n+m+4)
	}
	body := b[:headerSize+n+m]
	if got, want := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(b[len(body):]); got != want {
		return bad("checksum %08x, want %08x", got, want)
	}
	return &Tables{lay: lay, w: w, data: body[headerSize : headerSize+n], dtm: dtm, dist: body[headerSize+n:]}, nil
}
