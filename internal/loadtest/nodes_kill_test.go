package loadtest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/pgtest"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/testbin"
)

// nodeMsg is what the two-node test reads of the server's messages.
type nodeMsg struct {
	Type   string `json:"type"`
	Ply    int    `json:"ply"`
	Hole   int    `json:"hole"`
	By     string `json:"by"`
	Turn   string `json:"turn"`
	Status string `json:"status"`
	Legal  []int  `json:"legal"`
	Code   string `json:"code"`
	Clock  struct {
		WhiteMS int64 `json:"white_ms"`
		BlackMS int64 `json:"black_ms"`
	} `json:"clock"`
}

// nodeAck is a move its player saw acknowledged: the hole and the mover's
// clock after it.
type nodeAck struct {
	Ply, Hole int
	ClockMS   int64
}

// freeAddr returns a free loopback address.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// testDSN is the store the nodes share: a schema of its own on the
// PostgreSQL server of TOGUZ_TEST_POSTGRES when it is set (pgtest), else
// one SQLite file in dir.
func testDSN(t *testing.T, dir string) string {
	t.Helper()
	if os.Getenv(pgtest.Env) == "" {
		return filepath.Join(dir, "toguz.db")
	}
	return pgtest.Schema(t)
}

// nodeSeat is one connection to a game that reconnects, to the first of
// its nodes that answers, whenever its socket closes.
type nodeSeat struct {
	c     *client
	bases []string // the nodes, the preferred first
	id    string
	conn  *websocket.Conn
	on    string // the node it is connected to
	dials atomic.Int64
	// pace is the wait before each move (0: 40 ms); sent, if set, hears
	// of each move sent (the chaos test's history).
	pace time.Duration
	sent func(ply, hole int)
	// refused, if set, hears of each error message; the seat then
	// reconnects and resyncs instead of failing (faults make errors).
	refused func(code string)
}

// connect dials the seat's nodes in turn until one gives the game's state.
func (s *nodeSeat) connect(ctx context.Context) (nodeMsg, error) {
	deadline := time.Now().Add(30 * time.Second)
	last := "" // the last answer that was not the state, for the error
	for attempt := 0; ; attempt++ {
		for _, base := range s.bases {
			s.c.base = base
			dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			conn, err := s.c.dial(dctx, s.id)
			cancel()
			if err != nil {
				continue
			}
			s.dials.Add(1)
			conn.SetReadLimit(4 << 20) // a long game's state is over the default 32 KiB
			rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			m, err := s.read(rctx, conn)
			cancel()
			if err == nil && m.Type == "state" {
				s.conn, s.on = conn, base
				return m, nil
			}
			if err != nil {
				last = err.Error()
			} else {
				last = m.Type + " " + m.Code
			}
			conn.CloseNow()
		}
		if time.Now().After(deadline) {
			return nodeMsg{}, fmt.Errorf("seat of game %s: no node gave its state in 30 s (last: %s)", s.id, last)
		}
		time.Sleep(min(100*time.Millisecond<<min(attempt, 3), time.Second))
	}
}

func (s *nodeSeat) read(ctx context.Context, conn *websocket.Conn) (nodeMsg, error) {
	var m nodeMsg
	_, b, err := conn.Read(ctx)
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

// play plays color's moves (random legal holes) until the game ends,
// reconnecting whenever the socket closes, and returns the moves it saw
// acknowledged.
func (s *nodeSeat) play(ctx context.Context, color string, rng *rand.Rand, acked func(nodeAck)) error {
	for ctx.Err() == nil {
		st, err := s.connect(ctx)
		if err != nil {
			return err
		}
		if st.Status != "playing" {
			return nil
		}
		ply, turn, legal := st.Ply, st.Turn, st.Legal
		sent := -1
		for {
			if turn == color && sent != ply && len(legal) > 0 {
				time.Sleep(cmp.Or(s.pace, 40*time.Millisecond)) // within the server's message rate
				hole := legal[rng.IntN(len(legal))]
				if s.sent != nil {
					s.sent(ply, hole)
				}
				if err := send(ctx, s.conn, map[string]any{"type": "move", "ply": ply, "hole": hole}); err != nil {
					break
				}
				sent = ply
			}
			rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
			m, err := s.read(rctx, s.conn)
			cancel()
			if err != nil {
				break // closed: the node died, or moved the game
			}
			switch m.Type {
			case "move":
				ply, legal = m.Ply, m.Legal
				turn = map[string]string{"white": "black", "black": "white"}[m.By]
				if m.By == color {
					clk := m.Clock.WhiteMS
					if color == "black" {
						clk = m.Clock.BlackMS
					}
					acked(nodeAck{Ply: m.Ply, Hole: m.Hole, ClockMS: clk})
				}
			case "state":
				ply, turn, legal = m.Ply, m.Turn, m.Legal
			case "end":
				s.conn.Close(websocket.StatusNormalClosure, "")
				return nil
			case "error":
				if s.refused != nil {
					s.refused(m.Code)
					if m.Code != "duplicate_move" && m.Code != "stale_move" {
						s.conn.CloseNow() // resync on a fresh connection
					}
				} else if m.Code != "duplicate_move" && m.Code != "stale_move" {
					return fmt.Errorf("%s at ply %d: error %s", color, ply, m.Code)
				}
			}
		}
		s.conn.CloseNow()
	}
	return ctx.Err()
}

// watch follows the game as a spectator until it ends and returns the
// highest ply it saw.
func (s *nodeSeat) watch(ctx context.Context) (int, error) {
	seen := 0
	for ctx.Err() == nil {
		st, err := s.connect(ctx)
		if err != nil {
			return seen, err
		}
		seen = max(seen, st.Ply)
		if st.Status != "playing" {
			return seen, nil
		}
		for {
			m, err := s.read(ctx, s.conn)
			if err != nil {
				break
			}
			switch m.Type {
			case "move", "state":
				seen = max(seen, m.Ply)
			case "end":
				s.conn.Close(websocket.StatusNormalClosure, "")
				return seen, nil
			}
		}
		s.conn.CloseNow()
	}
	return seen, ctx.Err()
}

// TestTwoNodesKill: two `toguz serve` processes on one store and one NATS
// (embedded here); a game sought on node 1 and accepted on node 2, White's
// socket on node 1,
// Black's and a spectator's on node 2 (proxied to node 1, the owner).
// Node 1 is SIGKILLed mid-game: node 2 takes the game's lease, every socket
// reconnects to it, the game is played to its end, and every move a player
// saw acknowledged is in the store with its hole and the mover's clock.
func TestTwoNodesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs two servers")
	}
	bin, cleanup, err := testbin.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	dir := t.TempDir()
	db := testDSN(t, dir)
	addr1, addr2 := freeAddr(t), freeAddr(t)
	n1 := startServe(t, bin, addr1, db, "-nats", em.URL(), "-node", "n1", "-first-move", "-1")
	n2 := startServe(t, bin, addr2, db, "-nats", em.URL(), "-node", "n2", "-first-move", "-1")
	u1, u2 := "http://"+addr1, "http://"+addr2

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	src := &source{http: &http.Client{Timeout: 10 * time.Second}}
	newClient := func(base string) *client {
		c := &client{base: base, src: src, retry: retryPolicy{max: 3, retried: new(atomic.Int64)}}
		if err := c.guest(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The seek is made on node 1 and accepted on node 2 (the lobby is
	// shared): the game is made, and owned, by node 1.
	white, black, watcher := newClient(u1), newClient(u2), newClient(u2)
	seek, err := white.seek(ctx, "5+0")
	if err != nil {
		t.Fatal(err)
	}
	id, err := black.accept(ctx, seek)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var acks []nodeAck
	acked := func(a nodeAck) {
		mu.Lock()
		acks = append(acks, a)
		mu.Unlock()
	}
	nacks := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(acks)
	}
	seats := []*nodeSeat{
		{c: white, bases: []string{u1, u2}, id: id},
		{c: black, bases: []string{u2, u1}, id: id},
		{c: watcher, bases: []string{u2, u1}, id: id},
	}
	errc := make(chan error, 3)
	var seen int
	go func() { errc <- seats[0].play(ctx, "white", rand.New(rand.NewPCG(1, 2)), acked) }()
	go func() { errc <- seats[1].play(ctx, "black", rand.New(rand.NewPCG(3, 4)), acked) }()
	go func() {
		var err error
		seen, err = seats[2].watch(ctx)
		errc <- err
	}()

	// Mid-game, the owner dies.
	for nacks() < 20 {
		if ctx.Err() != nil {
			t.Fatal("20 moves were not acknowledged in time")
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, err := store.Open(ctx, db, store.Options{SessionSweep: -1, Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if l, err := st.Lease(ctx, id); err != nil || l.Node != "n1" {
		t.Fatalf("before the kill the game's lease is %+v, %v; want node n1's", l, err)
	}
	before := nacks()
	n1.kill()
	t.Logf("node 1 killed after %d acknowledged moves", before)

	for range seats {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range seats {
		if s.on != u2 {
			t.Errorf("seat %d ends on %s, not node 2", i, s.on)
		}
		t.Logf("seat %d: %d connections", i, s.dials.Load())
	}
	if l, err := st.Lease(ctx, id); err != nil || (l.Node != "n2" && l.Node != "") {
		t.Errorf("after the kill the game's lease is %+v, %v; want node n2's (or none, the game over)", l, err)
	}
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status == game.Playing {
		t.Fatalf("game %s still being played", id)
	}
	moves, err := st.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(acks) <= before || len(moves) < len(acks) {
		t.Errorf("%d moves acknowledged (%d before the kill), %d stored", len(acks), before, len(moves))
	}
	for _, a := range acks {
		if a.Ply > len(moves) {
			t.Errorf("acknowledged ply %d is lost: %d stored", a.Ply, len(moves))
			continue
		}
		m := moves[a.Ply-1]
		if int(m.Hole) != a.Hole || m.Clock.Milliseconds() != a.ClockMS {
			t.Errorf("ply %d: stored hole %d, clock %d ms; acknowledged hole %d, clock %d ms",
				a.Ply, m.Hole, m.Clock.Milliseconds(), a.Hole, a.ClockMS)
		}
	}
	if seen != len(moves) {
		t.Errorf("the spectator saw %d plies of %d", seen, len(moves))
	}
	t.Logf("game %s: %s by %s after %d plies; %d acknowledged moves all stored with their clocks",
		id, g.Result, g.Termination, len(moves), len(acks))
	n2.cmd.Process.Signal(syscall.SIGTERM)
	<-n2.done
}
