package loadtest

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// IdleReport is the memory cost of idle games and of their spectators, as
// measured by the function passed to Idle: the heap (with the goroutines'
// stacks) and the resident set (RSS) of the process.
type IdleReport struct {
	Games, Spectators int
	// PerGame is the cost of one started game whose players have not
	// connected; PerConn that of one idle websocket connection of a player
	// to it; PerSpectator that of one idle spectator's websocket. An idle
	// game with both players connected costs PerGame + 2·PerConn.
	PerGame, PerConn, PerSpectator Memory // bytes (Goroutines: per item)
}

// Memory is what a Measure reads: the heap in use (objects, the free
// space of the heap's spans in use, the goroutines' stacks), the resident
// set of the process, and its goroutines; in an IdleReport, their growth
// per item.
type Memory struct {
	Heap, RSS, Goroutines float64
}

func (m Memory) sub(n Memory, items int) Memory {
	k := float64(max(items, 1))
	return Memory{Heap: (m.Heap - n.Heap) / k, RSS: (m.RSS - n.RSS) / k, Goroutines: (m.Goroutines - n.Goroutines) / k}
}

func (m Memory) String() string {
	s := fmt.Sprintf("%.1f KiB heap", m.Heap/1024)
	if m.RSS != 0 {
		s += fmt.Sprintf(" (%.1f KiB RSS)", m.RSS/1024)
	}
	return s
}

func (r IdleReport) String() string {
	s := fmt.Sprintf("%d idle games: %v per game, %v per player connection, %.1f KiB heap per game with both players connected",
		r.Games, r.PerGame, r.PerConn, (r.PerGame.Heap+2*r.PerConn.Heap)/1024)
	if r.PerConn.Goroutines != 0 {
		s += fmt.Sprintf(", %.1f goroutines per connection", r.PerConn.Goroutines)
	}
	if r.Spectators > 0 {
		s += fmt.Sprintf("; %d spectators: %v per spectator", r.Spectators, r.PerSpectator)
	}
	return s
}

// Measure returns the memory of the server; Idle calls it between its
// steps, so it should collect garbage first (and return the freed pages
// to the system, for the RSS to say what is live). In the same process:
// debug.FreeOSMemory, then runtime/metrics' heap and stack classes and
// the goroutines, and the RSS from /proc/self/statm.
type Measure func() Memory

// Idle starts games between guests at base (a casual game with time
// control tc each), measures, opens both players' websockets and leaves
// them idle, measures, opens spectators' websockets (anonymous, spread
// over the games) and measures again. Its own side of each connection is
// a bare TCP connection after the websocket handshake (no buffers, no
// goroutine), so that when the server runs in the same process the growth
// is the server's. The connections are closed before it returns.
func Idle(ctx context.Context, base, tc string, games, spectators int, measure Measure) (IdleReport, error) {
	src := &source{http: newHTTPClient(16, nil)}
	defer src.http.CloseIdleConnections()
	type started struct {
		id           string
		white, black *client
	}
	// The guests exist before the first measure: they are not the games'.
	gs := make([]started, games)
	for i := range gs {
		gs[i].white = &client{base: base, src: src}
		gs[i].black = &client{base: base, src: src}
		for _, c := range []*client{gs[i].white, gs[i].black} {
			if err := c.guest(ctx); err != nil {
				return IdleReport{}, err
			}
		}
	}
	m0 := measure()
	for i := range gs {
		seek, err := gs[i].white.seek(ctx, tc)
		if err != nil {
			return IdleReport{}, err
		}
		if gs[i].id, err = gs[i].black.accept(ctx, seek); err != nil {
			return IdleReport{}, err
		}
	}
	m1 := measure()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for _, g := range gs {
		for _, c := range []*client{g.white, g.black} {
			conn, err := rawDial(ctx, base, "/api/games/"+g.id+"/ws", c.token)
			if err != nil {
				return IdleReport{}, err
			}
			conns = append(conns, conn)
		}
	}
	// Let the server finish setting the connections up (the state
	// message, the presence broadcast) before measuring.
	time.Sleep(500 * time.Millisecond)
	m2 := measure()
	r := IdleReport{Games: games, Spectators: spectators, PerGame: m1.sub(m0, games), PerConn: m2.sub(m1, 2*games)}
	if spectators == 0 {
		return r, nil
	}
	for i := range spectators {
		conn, err := rawDial(ctx, base, "/api/games/"+gs[i%games].id+"/ws", "")
		if err != nil {
			return IdleReport{}, fmt.Errorf("spectator %d: %w", i+1, err)
		}
		conns = append(conns, conn)
	}
	time.Sleep(500 * time.Millisecond)
	r.PerSpectator = measure().sub(m2, spectators)
	return r, nil
}

// rawDial opens a websocket at base+path with a bare TCP connection (as
// the holder of token, or anonymous where it is ""): it
// sends the handshake and reads the answer up to its blank line, byte by
// byte so that nothing past the handshake is read into a buffer.
func rawDial(ctx context.Context, base, path, token string) (net.Conn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 16)
	rand.Read(key)
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n%s\r\n",
		path, u.Host, base64.StdEncoding.EncodeToString(key), auth)
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	var head []byte
	b := make([]byte, 1)
	for !strings.HasSuffix(string(head), "\r\n\r\n") {
		if _, err := conn.Read(b); err != nil {
			conn.Close()
			return nil, fmt.Errorf("websocket handshake for %s: %w", path, err)
		}
		if head = append(head, b[0]); len(head) > 8<<10 {
			conn.Close()
			return nil, errors.New("websocket handshake: answer too long")
		}
	}
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(head))), nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("websocket handshake for %s: %s", path, resp.Status)
	}
	conn.SetDeadline(time.Time{})
	return conn, nil
}
