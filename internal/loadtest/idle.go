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

// IdleReport is the memory cost of idle games, as measured by the function
// passed to Idle.
type IdleReport struct {
	Games int
	// PerGame is the cost of one started game whose players have not
	// connected; PerConn that of one idle websocket connection to it. An idle
	// game with both players connected costs PerGame + 2·PerConn.
	PerGame, PerConn float64 // bytes
	// GoroutinesPerConn is the growth of the goroutine count per connection,
	// when the caller counts them.
	GoroutinesPerConn float64
}

func (r IdleReport) String() string {
	kib := func(b float64) string { return fmt.Sprintf("%.1f KiB", b/1024) }
	s := fmt.Sprintf("%d idle games: %s per game, %s per connection, %s per game with both players connected",
		r.Games, kib(r.PerGame), kib(r.PerConn), kib(r.PerGame+2*r.PerConn))
	if r.GoroutinesPerConn != 0 {
		s += fmt.Sprintf(", %.1f goroutines per connection", r.GoroutinesPerConn)
	}
	return s
}

// Measure returns the memory in use and the number of goroutines of the
// server; Idle calls it between its steps, so it should collect garbage
// first. In the same process: runtime.GC, then runtime.ReadMemStats'
// HeapInuse+StackInuse and runtime.NumGoroutine.
type Measure func() (bytes uint64, goroutines int)

// Idle starts games between guests at base (a casual game with time
// control tc each), measures, opens both players' websockets and leaves
// them idle, and measures again. Its own side of each connection is a bare
// TCP connection after the websocket handshake (no buffers, no goroutine),
// so that when the server runs in the same process the growth is the
// server's. The connections are closed before it returns.
func Idle(ctx context.Context, base, tc string, games int, measure Measure) (IdleReport, error) {
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
	m0, _ := measure()
	for i := range gs {
		seek, err := gs[i].white.seek(ctx, tc)
		if err != nil {
			return IdleReport{}, err
		}
		if gs[i].id, err = gs[i].black.accept(ctx, seek); err != nil {
			return IdleReport{}, err
		}
	}
	m1, g1 := measure()
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
	m2, g2 := measure()
	n := float64(len(conns))
	return IdleReport{
		Games:             games,
		PerGame:           (float64(m1) - float64(m0)) / float64(games),
		PerConn:           (float64(m2) - float64(m1)) / n,
		GoroutinesPerConn: float64(g2-g1) / n,
	}, nil
}

// rawDial opens a websocket at base+path with a bare TCP connection: it
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
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer %s\r\n\r\n",
		path, u.Host, base64.StdEncoding.EncodeToString(key), token)
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
