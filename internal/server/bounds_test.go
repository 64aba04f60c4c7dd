package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/toguz/toguz/internal/site"
)

// The tests of the bounds against abusive clients, each an
// attack on loopback against the whole server of `toguz serve` (Open and
// Serve on a real listener), with its real argon2 parameters.

type boundedApp struct {
	*App
	URL  string
	addr string       // host:port
	read atomic.Int64 // the bytes the server read from its connections
}

// openApp serves a fresh App on 127.0.0.1 until the test ends.
func openApp(t *testing.T, opts Options) *boundedApp {
	t.Helper()
	opts.DB = filepath.Join(t.TempDir(), "toguz.db")
	opts.Engines = 1
	if opts.ReviewWorkers == 0 {
		opts.ReviewWorkers = -1 // no reviews unless the test asks
	}
	if testing.Verbose() {
		opts.Logger = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	app, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		app.Close()
		t.Fatal(err)
	}
	a := &boundedApp{App: app, URL: "http://" + ln.Addr().String(), addr: ln.Addr().String()}
	done := make(chan error, 1)
	go func() { done <- app.Serve(countingListener{ln, &a.read}) }()
	t.Cleanup(func() {
		if err := errors.Join(app.Close(), <-done); err != nil {
			t.Error(err)
		}
	})
	return a
}

// countingListener counts the bytes read from its connections.
type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return countingConn{c, l.n}, err
}

type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.n.Add(int64(n))
	return n, err
}

// from is a client whose connections come from the loopback address ip
// (all of 127.0.0.0/8 is loopback on Linux), as many clients would.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}, Timeout: 30 * time.Second}
}

func dialFrom(t *testing.T, ip, addr string) net.Conn {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

type answer struct {
	status     int
	code       string
	retryAfter string
	took       time.Duration
}

func postJSON(c *http.Client, url string, body any) (answer, error) {
	b, _ := json.Marshal(body)
	start := time.Now()
	resp, err := c.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	data, _ := io.ReadAll(resp.Body)
	json.Unmarshal(data, &e)
	return answer{status: resp.StatusCode, code: e.Error.Code, retryAfter: resp.Header.Get("Retry-After"), took: time.Since(start)}, nil
}

// heapPeak samples the bytes of the heap's objects every millisecond until
// stop is called, and returns the peak.
func heapPeak() (stop func() uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(done); <-finished; return peak.Load() }
}

func heapNow() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// vmHWM is the peak resident memory of the test process (Linux).
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

// TestLoginStorm reproduces the login attack: hundreds of concurrent
// logins, 2 per address, each one argon2id hash of 19 MiB, took the server
// to 9 GB and its owner's login to 48.8 s (p50). Now the hashes at once are
// bounded, the excess answered 503 busy with a Retry-After, and the owner,
// who follows it, gets in within seconds.
func TestLoginStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("200 real argon2id hashes: seconds of CPU, and timings that the race detector stretches")
	}
	const (
		storm    = 200
		perAddr  = 2
		hashWait = time.Second
		hashMiB  = 19
	)
	app := openApp(t, Options{HashWait: hashWait})
	owner := from("127.0.0.1")
	if a, err := postJSON(owner, app.URL+"/api/signup", credentials{Name: "abai", Password: "long enough"}); err != nil || a.status != http.StatusCreated {
		t.Fatalf("sign-up: %+v, %v", a, err)
	}
	slots := app.Stats().Hashing.MaxHashes

	base := heapNow()
	stopPeak := heapPeak()
	var wg sync.WaitGroup
	var mu sync.Mutex
	counts := map[string]int{}
	for i := range storm / perAddr {
		c := from(fmt.Sprintf("127.0.1.%d", i+1))
		for j := range perAddr {
			wg.Go(func() {
				a, err := postJSON(c, app.URL+"/api/login", credentials{Name: fmt.Sprintf("nobody%d-%d", i, j), Password: "not the password"})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err != nil:
					counts["transport error"]++
				case a.status == http.StatusServiceUnavailable && a.code == "busy" && a.retryAfter == "":
					counts["busy without Retry-After"]++
				default:
					counts[fmt.Sprintf("%d %s", a.status, a.code)]++
				}
			})
		}
	}
	// The owner comes during the storm, and follows Retry-After.
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	tries := 0
	for {
		tries++
		a, err := postJSON(owner, app.URL+"/api/login", credentials{Name: "abai", Password: "long enough"})
		if err != nil {
			t.Fatal(err)
		}
		if a.status == http.StatusOK {
			break
		}
		if a.status != http.StatusServiceUnavailable || a.retryAfter != "1" || tries == 5 {
			t.Fatalf("the owner's login, try %d: %+v", tries, a)
		}
		time.Sleep(time.Second)
	}
	ownerTook := time.Since(start)
	wg.Wait()
	peak := stopPeak()

	grew := float64(peak-base) / (1 << 20)
	st := app.Stats().Hashing
	t.Logf("%d logins from %d addresses, %d hashing slots: answers %v; heap peak +%.0f MiB (VmHWM %s); owner in after %v (%d tries); stats %+v",
		storm, storm/perAddr, slots, counts, grew, vmHWM(), ownerTook.Round(time.Millisecond), tries, st)
	for k, n := range counts {
		if k != "401 bad_credentials" && k != "503 busy" {
			t.Errorf("%d answers %q: want only 401 bad_credentials and 503 busy", n, k)
		}
	}
	// Each slot holds one hash; the garbage collector may let twice the
	// live heap build up before it runs, and the rest of the server (the
	// explorer, the engines' tables, the puzzles) allocates at its first
	// use, within 160 MiB: unbounded, 200 hashes would take 200 × hashMiB.
	if limit := float64(2*(slots+1)*hashMiB + 160); grew > limit {
		t.Errorf("the heap grew by %.0f MiB under the storm, want at most %.0f MiB for %d slots", grew, limit, slots)
	}
	if ownerTook > 5*time.Second {
		t.Errorf("the owner's login took %v during the storm", ownerTook)
	}
	if st.Hashed+st.Busy < storm {
		t.Errorf("stats %+v count fewer than the %d logins", st, storm)
	}
}

// TestBusyLoginForm: the browser's login form, when every hashing slot is
// taken, gets the form again with the error, a 503 and a Retry-After.
func TestBusyLoginForm(t *testing.T) {
	app := openApp(t, Options{MaxHashes: 1, HashWait: time.Millisecond})
	var wg sync.WaitGroup
	var busy atomic.Int64
	for i := range 40 {
		c := from(fmt.Sprintf("127.0.2.%d", i/2+1))
		wg.Go(func() {
			resp, err := c.PostForm(app.URL+"/login", map[string][]string{"name": {fmt.Sprint("nobody", i)}, "password": {"not the password"}})
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			page, _ := io.ReadAll(resp.Body)
			switch resp.StatusCode {
			case http.StatusUnauthorized:
			case http.StatusServiceUnavailable:
				busy.Add(1)
				if resp.Header.Get("Retry-After") != "1" || !bytes.Contains(page, []byte(`id="form-error"`)) ||
					!bytes.Contains(page, []byte(`id="auth-form"`)) || !bytes.Contains(page, []byte("busy")) {
					t.Errorf("503 page (Retry-After %q) lacks the form or the error: %s", resp.Header.Get("Retry-After"), page)
				}
			default:
				t.Errorf("status %d: %s", resp.StatusCode, page)
			}
		})
	}
	wg.Wait()
	if busy.Load() == 0 {
		t.Error("40 logins at once with one slot: none was refused busy")
	}
}

// TestLockoutFromAnotherAddress reproduces the second half of attack 1:
// five wrong passwords from anywhere locked the account for everyone. Now
// the stranger's address is locked out and the owner's is not.
func TestLockoutFromAnotherAddress(t *testing.T) {
	app := openApp(t, Options{})
	owner, stranger := from("127.0.0.2"), from("127.0.0.3")
	if a, err := postJSON(owner, app.URL+"/api/signup", credentials{Name: "abai", Password: "long enough"}); err != nil || a.status != http.StatusCreated {
		t.Fatalf("sign-up: %+v, %v", a, err)
	}
	for i := range 5 {
		if a, _ := postJSON(stranger, app.URL+"/api/login", credentials{Name: "abai", Password: "guess " + fmt.Sprint(i)}); a.status != http.StatusUnauthorized {
			t.Fatalf("wrong try %d: %+v", i+1, a)
		}
	}
	if a, _ := postJSON(stranger, app.URL+"/api/login", credentials{Name: "abai", Password: "long enough"}); a.status != http.StatusTooManyRequests || a.code != "rate_limited" {
		t.Errorf("the stranger's address after 5 wrong tries: %+v, want 429 rate_limited", a)
	}
	if a, _ := postJSON(owner, app.URL+"/api/login", credentials{Name: "abai", Password: "long enough"}); a.status != http.StatusOK {
		t.Errorf("the owner at his own address: %+v, want 200", a)
	}
	if st := app.Stats().Hashing; st.Locked != 1 {
		t.Errorf("Stats().Hashing.Locked = %d, want 1", st.Locked)
	}
}

// sendBody writes a request with a body of total bytes (starting with
// prefix) to c, stopping at the first write error or when stop closes, and
// returns the bytes of the body written.
func sendBody(c net.Conn, head, prefix string, total int64, chunked bool, stop <-chan struct{}) int64 {
	if _, err := io.WriteString(c, head); err != nil {
		return 0
	}
	buf := bytes.Repeat([]byte("a"), 64<<10)
	copy(buf, prefix)
	var sent int64
	for sent < total {
		select {
		case <-stop:
			return sent
		default:
		}
		var err error
		if chunked {
			_, err = fmt.Fprintf(c, "%x\r\n%s\r\n", len(buf), buf)
		} else {
			_, err = c.Write(buf)
		}
		if err != nil {
			return sent
		}
		sent += int64(len(buf))
	}
	if chunked {
		io.WriteString(c, "0\r\n\r\n")
	}
	return sent
}

// TestHugeBodies reproduces attack 2's bodies: a 200 MB body to /login was
// read to the end (and 199 MB of it spooled to a temporary file). Now
// every route refuses a body over its limit with 413 too_large, having read
// little more than the limit, or nothing when the Content-Length says so.
func TestHugeBodies(t *testing.T) {
	const huge = 200 << 20
	app := openApp(t, Options{})
	tests := []struct {
		name, path, ctype string
		chunked, json     bool
	}{
		{"login form, chunked", "/login", "multipart/form-data; boundary=b", true, false},
		{"login form, urlencoded, chunked", "/login", "application/x-www-form-urlencoded", true, false},
		{"sign-up form, Content-Length", "/signup", "application/x-www-form-urlencoded", false, false},
		{"seek form, chunked", "/lobby/seek", "application/x-www-form-urlencoded", true, false},
		{"engine form, Content-Length", "/lobby/engine", "multipart/form-data; boundary=b", false, false},
		{"import, chunked", "/import", "multipart/form-data; boundary=b", true, false},
		{"API login, chunked", "/api/login", "application/json", true, true},
		{"API seek, Content-Length", "/api/seeks", "application/json", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dialFrom(t, "127.0.0.4", app.addr)
			head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\n", tt.path, app.addr, tt.ctype)
			if tt.chunked {
				head += "Transfer-Encoding: chunked\r\n\r\n"
			} else {
				head += fmt.Sprintf("Content-Length: %d\r\n\r\n", huge)
			}
			prefix := "name="
			switch tt.ctype[0] {
			case 'm': // the start of a file part, so that the rest of the body is the file
				prefix = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x\"\r\n\r\n"
			case 'a': // a JSON string that never ends
				prefix = `{"name":"`
			}
			read0 := app.read.Load()
			stop := make(chan struct{})
			sent := make(chan int64, 1)
			go func() { sent <- sendBody(c, head, prefix, huge, tt.chunked, stop) }()
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			close(stop)
			if err != nil {
				t.Fatalf("no answer: %v (sent %d bytes)", err, <-sent)
			}
			body, _ := io.ReadAll(resp.Body)
			n := <-sent
			read := app.read.Load() - read0
			t.Logf("%s: %d; the server read %d bytes, the client wrote %d of a %d-byte body", tt.path, resp.StatusCode, read, n, huge)
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("status %d, want 413", resp.StatusCode)
			}
			if tt.json && !strings.Contains(string(body), `"code":"too_large"`) {
				t.Errorf("JSON answer %q, want the code too_large", body)
			}
			if !tt.json && !strings.Contains(string(body), fmt.Sprintf("The request body is over %d KiB", bodyLimit(&http.Request{URL: &url.URL{Path: tt.path}})>>10)) {
				t.Errorf("page %q does not say the body is too large", body)
			}
			// Past the limit, net/http drains at most 256 KiB of a chunked
			// body before it closes the connection. The count is the
			// listener's, so the drain of the case before may fall in it
			// too: allow 1 MiB, still 200 times less than the body.
			limit := int64(site.MaxBody)
			if tt.path == "/import" {
				limit = maxImportBody
			}
			if max := limit + 1<<20; read > max {
				t.Errorf("the server read %d bytes before the 413, want at most %d", read, max)
			}
		})
	}
	if st := app.Stats(); st.TooLarge < int64(len(tests)-2) { // the API's JSON bodies are refused by readJSON
		t.Errorf("Stats().TooLarge = %d", st.TooLarge)
	}
}

// TestSlowBody reproduces attack 2's slow body: one byte a second kept a
// request open for as long as the client liked. ReadTimeout now ends it.
func TestSlowBody(t *testing.T) {
	const readTimeout = 300 * time.Millisecond
	app := openApp(t, Options{ReadTimeout: readTimeout})
	c := dialFrom(t, "127.0.0.5", app.addr)
	fmt.Fprintf(c, "POST /login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n", app.addr)
	start := time.Now()
	go func() {
		for range 1000 {
			if _, err := c.Write([]byte("a")); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond) // 20 s for the whole body
		}
	}()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := io.Copy(io.Discard, c)
	took := time.Since(start)
	t.Logf("a body at 50 bytes/s was cut after %v (ReadTimeout %v): %v", took.Round(time.Millisecond), readTimeout, err)
	// The server closes with unread bytes in its buffer, so the close may
	// come as a reset rather than an end of stream: both end the request.
	if errors.Is(err, syscall.ECONNRESET) {
		err = nil
	}
	if err != nil || took > readTimeout+time.Second {
		t.Errorf("the connection was still open after %v (%v), want it closed after %v", took, err, readTimeout)
	}
}

// TestIdleConnection reproduces attack 2's idle keep-alives, which stayed
// open indefinitely: IdleTimeout now closes them.
func TestIdleConnection(t *testing.T) {
	const idle = 300 * time.Millisecond
	app := openApp(t, Options{IdleTimeout: idle})
	c := dialFrom(t, "127.0.0.6", app.addr)
	fmt.Fprintf(c, "GET /api/seeks HTTP/1.1\r\nHost: %s\r\n\r\n", app.addr)
	br := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	start := time.Now()
	_, err = br.ReadByte()
	took := time.Since(start)
	t.Logf("an idle keep-alive was closed after %v (IdleTimeout %v)", took.Round(time.Millisecond), idle)
	if !errors.Is(err, io.EOF) || took > idle+time.Second {
		t.Errorf("idle connection: %v after %v, want EOF after %v", err, took, idle)
	}
}

// TestWebsocketOutlivesTimeouts: the read and write timeouts bound
// requests, not the websockets of games and the lobby, which live on.
func TestWebsocketOutlivesTimeouts(t *testing.T) {
	const timeout = 200 * time.Millisecond
	app := openApp(t, Options{ReadTimeout: timeout, WriteTimeout: timeout, IdleTimeout: timeout})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+app.URL[4:]+"/api/lobby/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, _, err := c.Read(ctx); err != nil { // the seek list
		t.Fatal(err)
	}
	time.Sleep(4 * timeout)
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	_, msg, err := c.Read(ctx)
	if err != nil || !strings.Contains(string(msg), "pong") {
		t.Errorf("after %v: %q, %v; want a pong", 4*timeout, msg, err)
	}
}

// TestConnectionCap reproduces attack 2's many connections: 20,000 idle
// connections from one client filled the file table. Now one address (one
// IPv6 /64) holds at most MaxConnsPerAddr; beyond that a connection is
// closed at once, and other addresses are served.
func TestConnectionCap(t *testing.T) {
	const max, tries = 256, 400
	app := openApp(t, Options{}) // the default cap
	get := func(c net.Conn) error {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := fmt.Fprintf(c, "GET /api/seeks HTTP/1.1\r\nHost: %s\r\n\r\n", app.addr); err != nil {
			return err
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	}
	var conns []net.Conn
	served, refused := 0, 0
	start := time.Now()
	for range tries {
		c := dialFrom(t, "127.0.0.7", app.addr)
		if err := get(c); err != nil {
			refused++
			continue
		}
		served++
		conns = append(conns, c)
	}
	t.Logf("%d connections from one address: %d served, %d closed at once, in %v", tries, served, refused, time.Since(start).Round(time.Millisecond))
	if served != max || refused != tries-max {
		t.Errorf("served %d and refused %d of %d, want %d served", served, refused, tries, max)
	}
	if err := get(dialFrom(t, "127.0.0.8", app.addr)); err != nil {
		t.Errorf("another address was refused: %v", err)
	}
	// A closed connection gives its slot back.
	conns[0].Close()
	deadline := time.Now().Add(2 * time.Second)
	for {
		err := get(dialFrom(t, "127.0.0.7", app.addr))
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot came back after a close: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := app.Stats(); st.ConnsRefused < tries-max {
		t.Errorf("Stats().ConnsRefused = %d, want at least %d", st.ConnsRefused, tries-max)
	}
}
