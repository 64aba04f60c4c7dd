package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/atomicfile"
)

// The file, all integers little-endian:
//
//	header (36 bytes):
//	  magic "TGBOOK", version uint16
//	  holes, stones, rule flags (1 tuzdik, 2 origin sowing, 4 play out), 0
//	  max ply uint16, 0 uint16, min count uint32
//	  positions uint32, moves uint32, description length uint32
//	  CRC-32C (Castagnoli) of the whole file with these 4 bytes left out
//	description (UTF-8)
//	positions, sorted by key then by the bytes that follow it (32 bytes each):
//	  key uint64 (toguz.Position.Key)
//	  White's holes 1..9, Black's holes 1..9 (a byte each, 0 past Holes),
//	  White's and Black's kazan, White's and Black's tuzdik (hole number or
//	  0), player to move, number of moves (1..Holes)
//	moves, the positions' in order, each position's by move number (20 bytes each):
//	  move uint8, 0, eval int16, count, wins, draws, losses uint32
//
// The position is stored whole so that a lookup compares it, not only its
// key, and so that Read can check each key against the position.
const (
	magic      = "TGBOOK"
	Version    = 1
	headerSize = 36
	crcAt      = 32
	posSize    = 32
	moveSize   = 20
)

// ErrCorrupt is wrapped by every error about a book file that is truncated,
// damaged or not a book; ErrVersion by one written in another version.
var (
	ErrCorrupt = errors.New("corrupt opening book")
	ErrVersion = errors.New("unsupported opening book version")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary returns the book's file contents.
func (b *Book) MarshalBinary() ([]byte, error) {
	r := b.info.Rules
	if b.info.MaxPly > 0xffff {
		return nil, fmt.Errorf("max ply %d does not fit the file", b.info.MaxPly)
	}
	size := headerSize + len(b.info.Description) + posSize*len(b.nodes) + moveSize*len(b.moves)
	buf := make([]byte, headerSize, size)
	copy(buf, magic)
	le := binary.LittleEndian
	le.PutUint16(buf[6:], Version)
	buf[8], buf[9], buf[10] = byte(r.Holes), byte(r.Stones), ruleFlags(r)
	le.PutUint16(buf[12:], uint16(b.info.MaxPly))
	le.PutUint32(buf[16:], b.info.MinCount)
	le.PutUint32(buf[20:], uint32(len(b.nodes)))
	le.PutUint32(buf[24:], uint32(len(b.moves)))
	le.PutUint32(buf[28:], uint32(len(b.info.Description)))
	buf = append(buf, b.info.Description...)
	for i := range b.nodes {
		nd := &b.nodes[i]
		buf = le.AppendUint64(buf, nd.key)
		buf = appendPosition(buf, &nd.pos)
		buf = append(buf, byte(nd.n))
	}
	for _, e := range b.moves {
		buf = append(buf, byte(e.Move), 0)
		buf = le.AppendUint16(buf, uint16(e.Eval))
		for _, v := range [...]uint32{e.Count, e.Wins, e.Draws, e.Losses} {
			buf = le.AppendUint32(buf, v)
		}
	}
	le.PutUint32(buf[crcAt:], checksum(buf))
	return buf, nil
}

func ruleFlags(r toguz.Rules) byte {
	var f byte
	if r.Tuzdik {
		f |= 1
	}
	if r.OriginSowing {
		f |= 2
	}
	if r.PlayOut {
		f |= 4
	}
	return f
}

// appendPosition appends the 23 bytes that describe p besides its rules.
func appendPosition(buf []byte, p *toguz.Position) []byte {
	for pl := toguz.White; pl <= toguz.Black; pl++ {
		for h := 1; h <= toguz.MaxHoles; h++ {
			n := 0
			if h <= p.Holes() {
				n = p.Stones(pl, h)
			}
			buf = append(buf, byte(n))
		}
	}
	return append(buf, byte(p.Kazan(toguz.White)), byte(p.Kazan(toguz.Black)),
		byte(p.Tuzdik(toguz.White)), byte(p.Tuzdik(toguz.Black)), byte(p.Turn()))
}

func checksum(data []byte) uint32 {
	c := crc32.Update(0, castagnoli, data[:crcAt])
	return crc32.Update(c, castagnoli, data[crcAt+4:])
}

// Read decodes a book file. The error wraps ErrCorrupt (or ErrVersion) and
// says what is wrong.
func Read(data []byte) (*Book, error) {
	bad := func(format string, args ...any) (*Book, error) {
		return nil, fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if len(data) < headerSize || string(data[:len(magic)]) != magic {
		return bad("no book header (%d bytes)", len(data))
	}
	le := binary.LittleEndian
	if v := le.Uint16(data[6:]); v != Version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrVersion, v, Version)
	}
	nPos, nMoves, nDesc := uint64(le.Uint32(data[20:])), uint64(le.Uint32(data[24:])), uint64(le.Uint32(data[28:]))
	if want := headerSize + nDesc + posSize*nPos + moveSize*nMoves; uint64(len(data)) != want {
		return bad("%d bytes, the header announces %d (%d positions, %d moves)", len(data), want, nPos, nMoves)
	}
	if got, want := checksum(data), le.Uint32(data[crcAt:]); got != want {
		return bad("checksum %08x, the header says %08x", got, want)
	}
	flags := data[10]
	r := toguz.Rules{Holes: int(data[8]), Stones: int(data[9]),
		Tuzdik: flags&1 != 0, OriginSowing: flags&2 != 0, PlayOut: flags&4 != 0}
	if err := r.Validate(); err != nil || flags > 7 {
		return bad("rules: holes %d, stones %d, flags %#x: %v", data[8], data[9], flags, err)
	}
	b := &Book{
		info: Info{Rules: r, MaxPly: int(le.Uint16(data[12:])), MinCount: le.Uint32(data[16:]),
			Positions: int(nPos), Moves: int(nMoves), Description: string(data[headerSize : headerSize+nDesc])},
		nodes: make([]node, nPos),
		moves: make([]Entry, nMoves),
	}
	rest := data[headerSize+nDesc:]
	var first uint64
	for i := range b.nodes {
		rec := rest[i*posSize : (i+1)*posSize]
		p, err := decodePosition(r, rec[8:31])
		if err != nil {
			return bad("position %d: %v", i+1, err)
		}
		key, n := le.Uint64(rec), uint64(rec[31])
		if p.Key() != key {
			return bad("position %d: key %016x, the position's is %016x", i+1, key, p.Key())
		}
		if i > 0 && !nodeLess(&b.nodes[i-1], key, rec[8:31]) {
			return bad("position %d: not in key order", i+1)
		}
		if n == 0 || first+n > nMoves {
			return bad("position %d: %d moves from move %d of %d", i+1, n, first+1, nMoves)
		}
		b.nodes[i] = node{key: key, pos: p, first: uint32(first), n: uint32(n)}
		first += n
	}
	if first != nMoves {
		return bad("the positions have %d moves, the header announces %d", first, nMoves)
	}
	rest = rest[posSize*nPos:]
	for i := range b.moves {
		rec := rest[i*moveSize : (i+1)*moveSize]
		e := Entry{Move: toguz.Move(rec[0]), Eval: int16(le.Uint16(rec[2:])),
			Count: le.Uint32(rec[4:]), Wins: le.Uint32(rec[8:]), Draws: le.Uint32(rec[12:]), Losses: le.Uint32(rec[16:])}
		if e.Count == 0 || uint64(e.Wins)+uint64(e.Draws)+uint64(e.Losses) > uint64(e.Count) {
			return bad("move %d: count %d with %d wins, %d draws, %d losses", i+1, e.Count, e.Wins, e.Draws, e.Losses)
		}
		b.moves[i] = e
	}
	for i := range b.nodes {
		nd := &b.nodes[i]
		legal := nd.pos.LegalMoves()
		prev := toguz.NoMove
		for _, e := range b.moves[nd.first : nd.first+nd.n] {
			if !legal.Has(e.Move) || e.Move <= prev {
				return bad("position %d (%s): move %d is illegal or out of order", i+1, nd.pos.FEN(), e.Move)
			}
			prev = e.Move
		}
	}
	return b, nil
}

// nodeLess reports whether a sorts before the position with key and bytes
// rec.
func nodeLess(a *node, key uint64, rec []byte) bool {
	if a.key != key {
		return a.key < key
	}
	var buf [posSize]byte
	return string(appendPosition(buf[:0], &a.pos)) < string(rec)
}

// decodePosition reads the 23 bytes appendPosition writes.
func decodePosition(r toguz.Rules, rec []byte) (toguz.Position, error) {
	s := toguz.Setup{Rules: r, Turn: toguz.Player(rec[22])}
	for pl := range 2 {
		row := rec[pl*toguz.MaxHoles : (pl+1)*toguz.MaxHoles]
		s.Board[pl] = make([]int, r.Holes)
		for h, n := range row {
			if h < r.Holes {
				s.Board[pl][h] = int(n)
			} else if n != 0 {
				return toguz.Position{}, fmt.Errorf("%s hole %d of a %d-hole board holds %d", toguz.Player(pl), h+1, r.Holes, n)
			}
		}
		s.Kazan[pl] = int(rec[18+pl])
		s.Tuzdik[pl] = int(rec[20+pl])
	}
	return s.Position()
}

// WriteTo writes the book's file contents to w.
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	data, err := b.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(data)
	return int64(n), err
}

// WriteFile writes the book to the file name atomically (package
// atomicfile), so that a reader sees the old book or the new one, never a
// part.
func (b *Book) WriteFile(name string) error {
	data, err := b.MarshalBinary()
	if err != nil {
		return err
	}
	return atomicfile.Write(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Open reads the book file name.
func Open(name string) (*Book, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	b, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}
