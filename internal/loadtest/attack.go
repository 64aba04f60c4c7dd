package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/toguz/toguz"
)

// AttackConfig is a run of the abuse attacks at the server's
// documented bounds (docs/api.md, Bounds): the worst a well-bounded
// stranger can do while the load test plays (`toguz loadtest -attack`).
type AttackConfig struct {
	URL      string        // the server, http://127.0.0.1:PORT
	Duration time.Duration // how long to attack
	// LoginSources is the number of addresses trying wrong passwords, each
	// at the server's login rate per address (10, then one per 6 s). 0: 8.
	LoginSources int
	// IdleConns is the number of idle keep-alive connections, and
	// SlowBodies the number of bodies sent a byte a second, held from one
	// address: under its connection cap (256) by a margin. 0: 200 and 20.
	IdleConns, SlowBodies int
	// Spectators per address (the server's cap is 50 over all games), from
	// two addresses; half of them never read. 0: 50.
	Spectators int
	// EngineLevel of the engine games, 24 from one address (3 guests, 8
	// each: the bounds per person and per address). 0: 10.
	EngineLevel int
	// Timeout of one request (10 s when zero).
	Timeout time.Duration
	// Only names the attacks to run (AttackNames); empty: all of them.
	Only []string
}

// AttackNames are the attacks, in the order Attack reports them.
var AttackNames = []string{"logins", "bodies", "connections", "seeks", "spectators", "imports", "engine", "accounts", "community"}

// AttackReport is, per attack, what was sent and how the server answered.
type AttackReport struct {
	Elapsed time.Duration
	Attacks []AttackTally
}

// AttackTally counts one attack's requests (HTTP requests, connections or
// websockets) and the server's answers by kind ("200", "401
// unauthenticated", "429 too_many_seeks", "ws 1013", "closed after 30s"…).
type AttackTally struct {
	Name     string
	Requests int
	Answers  map[string]int
	Notes    []string // figures of the attack (bytes a watcher got, round trips…)
}

// WriteTo writes the report for people.
func (r AttackReport) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "attacks for %v\n", r.Elapsed.Round(time.Millisecond))
	for _, a := range r.Attacks {
		fmt.Fprintf(&b, "  %-12s %6d requests:", a.Name, a.Requests)
		keys := make([]string, 0, len(a.Answers))
		for k := range a.Answers {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(&b, "%s %d× %s", sep, a.Answers[k], k)
		}
		b.WriteString("\n")
		for _, n := range a.Notes {
			fmt.Fprintf(&b, "               %s\n", n)
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// tally is an AttackTally being counted by many goroutines.
type tally struct {
	mu sync.Mutex
	t  AttackTally
}

func newTally(name string) *tally {
	return &tally{t: AttackTally{Name: name, Answers: map[string]int{}}}
}

// add counts a request and its answer.
func (t *tally) add(answer string) {
	t.mu.Lock()
	t.t.Requests++
	t.t.Answers[answer]++
	t.mu.Unlock()
}

func (t *tally) note(format string, args ...any) {
	t.mu.Lock()
	t.t.Notes = append(t.t.Notes, fmt.Sprintf(format, args...))
	t.mu.Unlock()
}

func (t *tally) result() AttackTally {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.t
	r.Answers = maps.Clone(r.Answers)
	r.Notes = slices.Clone(r.Notes)
	return r
}

// answerOf names the server's answer to a request that returned err.
func answerOf(err error) string {
	var ae *apiError
	var se *serverError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &ae):
		return strings.TrimSpace(strconv.Itoa(ae.Status) + " " + ae.Code)
	case errors.As(err, &se):
		return "ws error " + se.Code
	case websocket.CloseStatus(err) != -1:
		return "ws " + strconv.Itoa(int(websocket.CloseStatus(err)))
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return "cancelled"
	}
	return "connection error"
}

// attackAddr is the address of attack source i: 127.0.2.1 and on, apart
// from the load's 127.0.0.2 and on.
func attackAddr(i int) net.IP { return net.IPv4(127, 0, 2, byte(1+i)) }

// attacker holds what the attacks share.
type attacker struct {
	cfg AttackConfig
	ws  string // ws://host:port
}

// newAttackClient is a client of the API from attack address i, paced
// under the server's write rate per address (nil lim: not paced).
func (a *attacker) newAttackClient(i int, lim *rate.Limiter) *client {
	return &client{base: a.cfg.URL, src: &source{http: newHTTPClient(64, attackAddr(i)), lim: lim}}
}

// writePace is a source's pace under the server's 20 writes per second.
func writePace() *rate.Limiter { return rate.NewLimiter(19, 40) }

// Attack runs the abuse attacks at the server's bounds for
// cfg.Duration, each from its own loopback addresses 127.0.2.x, and
// reports how the server answered. An error is a setup that failed (the
// server unreachable), not a refusal, which is counted.
func Attack(ctx context.Context, cfg AttackConfig) (AttackReport, error) {
	if cfg.Duration <= 0 {
		return AttackReport{}, errors.New("loadtest: the attack's Duration must be positive")
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return AttackReport{}, fmt.Errorf("loadtest: URL %q: %w", cfg.URL, err)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || ip.To4() == nil || !ip.IsLoopback() {
		return AttackReport{}, fmt.Errorf("loadtest: the attacks' source addresses 127.0.2.x need the server on an IPv4 loopback address, not %q", u.Host)
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&cfg.LoginSources, 8)
	def(&cfg.IdleConns, 200)
	def(&cfg.SlowBodies, 20)
	def(&cfg.Spectators, 50)
	def(&cfg.EngineLevel, 10)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	for _, n := range cfg.Only {
		if !slices.Contains(AttackNames, n) {
			return AttackReport{}, fmt.Errorf("loadtest: no attack %q (want one of %s)", n, strings.Join(AttackNames, ", "))
		}
	}
	a := &attacker{cfg: cfg, ws: "ws" + strings.TrimPrefix(cfg.URL, "http")}
	// Cancelled by a timer rather than a deadline: a rate.Limiter's Wait
	// fails at once, without waiting, when its wait would pass a deadline.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := time.AfterFunc(cfg.Duration, cancel)
	defer stop.Stop()
	start := time.Now()
	attacks := []struct {
		name string
		run  func(context.Context, *tally)
	}{
		{"logins", a.logins},
		{"bodies", a.bodies},
		{"connections", a.connections},
		{"seeks", a.seeks},
		{"spectators", a.spectators},
		{"imports", a.imports},
		{"engine", a.engineGames},
		{"accounts", a.accounts},
		{"community", a.community},
	}
	attacks = slices.DeleteFunc(attacks, func(at struct {
		name string
		run  func(context.Context, *tally)
	}) bool {
		return len(cfg.Only) > 0 && !slices.Contains(cfg.Only, at.name)
	})
	tallies := make([]*tally, len(attacks))
	var wg sync.WaitGroup
	for i, at := range attacks {
		tallies[i] = newTally(at.name)
		wg.Add(1)
		go func() {
			defer wg.Done()
			at.run(ctx, tallies[i])
		}()
	}
	wg.Wait()
	r := AttackReport{Elapsed: time.Since(start)}
	for _, t := range tallies {
		r.Attacks = append(r.Attacks, t.result())
	}
	return r, nil
}

// accounts: one account, from one address (127.0.2.30) at the write rate,
// reports players to the moderators past its daily bound, and draws its
// insights (each view reads up to 200 games and their reviews) past its
// bound per minute.
func (a *attacker) accounts(ctx context.Context, t *tally) {
	c := a.newAttackClient(29, writePace())
	var victims []string
	for i := range 3 {
		name := fmt.Sprintf("target%d%04d", i, rand.N(10000))
		if err := c.call(ctx, http.MethodPost, "/api/signup", map[string]string{"name": name, "password": "correct horse battery"}, nil); err != nil {
			t.note("a target's sign-up: %v", err)
			return
		}
		victims = append(victims, name)
	}
	var who struct{ Token string }
	me := map[string]string{"name": fmt.Sprintf("reporter%04d", rand.N(10000)), "password": "correct horse battery"}
	if err := c.call(ctx, http.MethodPost, "/api/signup", me, &who); err != nil {
		t.note("the reporter's sign-up: %v", err)
		return
	}
	c.token = who.Token
	reasons := []string{"cheating", "sandbagging", "abuse", "other"}
	for n := 0; ctx.Err() == nil; n++ {
		// Twelve different reports (a duplicate counts once), then more.
		in := map[string]string{"user": victims[n%len(victims)], "reason": reasons[n/len(victims)%len(reasons)]}
		err := c.call(ctx, http.MethodPost, "/api/mod/reports", in, nil)
		if ctx.Err() != nil {
			break
		}
		t.add("report: " + answerOf(err))
		err = c.call(ctx, http.MethodGet, "/insights", nil, nil)
		if ctx.Err() != nil {
			break
		}
		t.add("insights: " + answerOf(err))
	}
}

// logins: wrong passwords for unknown names and for a real account, from
// cfg.LoginSources addresses (127.0.2.2 and on) at the login rate per
// address, while the account's owner logs in at his own address
// (127.0.2.1) every 5 s and must get in.
func (a *attacker) logins(ctx context.Context, t *tally) {
	owner := a.newAttackClient(0, nil)
	name := fmt.Sprintf("victim%04d", rand.N(10000))
	const password = "correct horse battery"
	in := map[string]string{"name": name, "password": password}
	if err := owner.call(ctx, http.MethodPost, "/api/signup", in, nil); err != nil {
		t.note("the owner's sign-up: %v", err)
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ok, refused := 0, 0
		for sleep(ctx, 5*time.Second) == nil {
			err := owner.call(ctx, http.MethodPost, "/api/login", in, nil)
			if ctx.Err() != nil {
				break
			}
			if err != nil {
				refused++
				t.add("owner " + answerOf(err))
				continue
			}
			ok++
			t.add("owner ok")
		}
		t.note("the owner, at his own address, logged in %d times, refused %d", ok, refused)
	}()
	for i := range a.cfg.LoginSources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := a.newAttackClient(1+i, rate.NewLimiter(rate.Every(6*time.Second), 10))
			for n := 0; ctx.Err() == nil; n++ {
				who := name // every other try: the real account
				if n%2 == 1 {
					who = fmt.Sprintf("nobody%06d", rand.N(1000000))
				}
				err := c.call(ctx, http.MethodPost, "/api/login", map[string]string{"name": who, "password": "wrong password"}, nil)
				if ctx.Err() != nil {
					break
				}
				t.add(answerOf(err))
			}
		}()
	}
	wg.Wait()
}

// bodies: bodies of exactly the limit (64 KiB) and one byte over it, to
// the API, at the write rate of one address (127.0.2.20).
func (a *attacker) bodies(ctx context.Context, t *tally) {
	c := a.newAttackClient(19, writePace())
	const limit = 64 << 10
	for n := 0; ctx.Err() == nil; n++ {
		size := limit
		if n%4 == 3 {
			size++ // over: refused before it is read
		}
		body := `{"fen":"` + strings.Repeat(" ", size-len(`{"fen":""}`)) + `"}`
		if err := c.src.lim.Wait(ctx); err != nil {
			break
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.URL+"/api/positions/check", strings.NewReader(body))
		if err != nil {
			t.note("%v", err)
			return
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.src.http.Do(req)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			t.add(fmt.Sprintf("%d B: connection error", size))
			continue
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		t.add(fmt.Sprintf("%d B: %d", size, resp.StatusCode))
	}
}

// connections: cfg.IdleConns idle keep-alive connections (one request,
// then nothing) and cfg.SlowBodies bodies sent a byte a second, from one
// address (127.0.2.21), under its cap of 256 by a margin; each one the
// server closes is counted with how long it lived, and opened again.
func (a *attacker) connections(ctx context.Context, t *tally) {
	host := strings.TrimPrefix(a.cfg.URL, "http://")
	d := &net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: attackAddr(20)}}
	var wg sync.WaitGroup
	hold := func(slow bool) {
		defer wg.Done()
		for ctx.Err() == nil {
			conn, err := d.DialContext(ctx, "tcp", host)
			if err != nil {
				if ctx.Err() == nil {
					t.add("dial error")
					sleep(ctx, time.Second)
				}
				continue
			}
			opened := time.Now()
			closed := make(chan struct{})
			go func() {
				select {
				case <-ctx.Done():
					conn.Close()
				case <-closed:
				}
			}()
			what := "idle"
			if slow {
				what = "slow body"
				fmt.Fprintf(conn, "POST /api/positions/check HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n", host)
				go func() {
					for sleep(ctx, time.Second) == nil {
						if _, err := conn.Write([]byte(" ")); err != nil {
							return
						}
					}
				}()
			} else {
				fmt.Fprintf(conn, "GET /api/me HTTP/1.1\r\nHost: %s\r\n\r\n", host)
			}
			// Read whatever comes until the server closes the connection.
			br := bufio.NewReader(conn)
			status := ""
			if resp, err := http.ReadResponse(br, nil); err == nil {
				status = " after " + strconv.Itoa(resp.StatusCode)
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			io.Copy(io.Discard, br)
			close(closed)
			conn.Close()
			if ctx.Err() != nil {
				t.add(what + ": held to the end")
				break
			}
			t.add(fmt.Sprintf("%s: closed by the server%s after %ds", what, status, int(time.Since(opened).Seconds()+0.5)))
		}
	}
	for i := range a.cfg.IdleConns + a.cfg.SlowBodies {
		wg.Add(1)
		go hold(i >= a.cfg.IdleConns)
	}
	wg.Wait()
}

// seeks: from two addresses (127.0.2.31, .32), 4 guests each open 5 public
// seeks (20 per address: the bounds per person and per address), then
// cancel and re-create them at the write rate; a fifth guest's seek beyond
// the address's 20 is refused. A lobby watcher counts what it receives.
func (a *attacker) seeks(ctx context.Context, t *tally) {
	var wg sync.WaitGroup
	var watched, frames atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		w := a.newAttackClient(29, nil)
		if err := w.guest(ctx); err != nil {
			t.note("the watcher: %v", err)
			return
		}
		conn, _, err := websocket.Dial(ctx, a.ws+"/api/lobby/ws", &websocket.DialOptions{
			HTTPClient: w.src.http, HTTPHeader: http.Header{"Authorization": {"Bearer " + w.token}},
		})
		if err != nil {
			t.note("the watcher: %v", err)
			return
		}
		defer conn.CloseNow()
		conn.SetReadLimit(64 << 20)
		for {
			_, b, err := conn.Read(ctx)
			if err != nil {
				break
			}
			watched.Add(int64(len(b)))
			frames.Add(1)
		}
	}()
	for s := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := a.newAttackClient(30+s, writePace())
			var guests []*client
			for g := range 5 {
				c := first
				if g > 0 {
					c = &client{base: first.base, src: first.src}
				}
				if err := c.guest(ctx); err != nil {
					t.note("a guest: %v", err)
					return
				}
				guests = append(guests, c)
			}
			open := make([][]string, 4)
			create := func(g int) {
				var sk struct{ ID string }
				in := map[string]any{"tc": "5+3", "rated": false, "color": "random", "ruleset": "standard", "private": false}
				err := guests[g].call(ctx, http.MethodPost, "/api/seeks", in, &sk)
				if ctx.Err() != nil {
					return
				}
				t.add("create: " + answerOf(err))
				if err == nil && g < 4 {
					open[g] = append(open[g], sk.ID)
				}
			}
			for g := range 4 {
				for range 5 {
					create(g)
				}
			}
			for n := 0; ctx.Err() == nil; n++ {
				if n%20 == 0 {
					create(4) // beyond the address's 20
					continue
				}
				g := n % 4
				if len(open[g]) == 0 {
					create(g)
					continue
				}
				id := open[g][0]
				err := guests[g].call(ctx, http.MethodDelete, "/api/seeks/"+id, nil, nil)
				if ctx.Err() != nil {
					break
				}
				t.add("cancel: " + answerOf(err))
				if err == nil {
					open[g] = open[g][1:]
				}
				create(g)
			}
		}()
	}
	wg.Wait()
	t.note("the lobby watcher received %d messages, %d bytes", frames.Load(), watched.Load())
}

// spectators: two guests play a game at a move a second from 127.0.2.41
// while cfg.Spectators spectators watch it from each of 127.0.2.42 and
// .43 (the cap per address), half of them never reading, and one more
// from each is refused. The players' round trip is the figure.
func (a *attacker) spectators(ctx context.Context, t *tally) {
	white := a.newAttackClient(40, writePace())
	black := &client{base: white.base, src: white.src}
	var rtt []time.Duration
	for ctx.Err() == nil {
		id, conns, err := a.startGame(ctx, white, black)
		if err != nil {
			if ctx.Err() == nil {
				t.note("a spectated game: %v", err)
			}
			return
		}
		gctx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for s := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a.watch(gctx, t, id, 41+s)
			}()
		}
		rtt = append(rtt, a.playRandom(ctx, conns, t)...)
		stop()
		if ctx.Err() != nil {
			// Resign, so that the server does not keep the game.
			rctx, cancel := context.WithTimeout(context.Background(), a.cfg.Timeout)
			if send(rctx, conns[0], map[string]any{"type": "resign"}) == nil {
				await(rctx, conns[0], "end", 0, a.cfg.Timeout)
			}
			cancel()
		}
		wg.Wait()
		for _, c := range conns {
			c.CloseNow()
		}
	}
	t.note("the spectated game's move round trip: %v", percentiles(rtt))
}

// watch opens cfg.Spectators spectators of game id from attack address
// src, half reading and half not, and one more, which must be refused.
func (a *attacker) watch(ctx context.Context, t *tally, id string, src int) {
	c := a.newAttackClient(src, nil)
	c.src.http = newHTTPClient(a.cfg.Spectators+2, attackAddr(src))
	if err := c.guest(ctx); err != nil {
		t.note("a spectator: %v", err)
		return
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	for i := range a.cfg.Spectators + 1 {
		conn, err := c.dial(ctx, id)
		if err != nil {
			t.add("dial: " + answerOf(err))
			continue
		}
		if i == a.cfg.Spectators {
			// One over the cap: an error message, then a close.
			m, err := receive(ctx, conn)
			for err == nil && m.Type != "error" {
				m, err = receive(ctx, conn)
			}
			if err == nil {
				t.add("over the cap: ws error " + m.Code)
				_, _, err = conn.Read(ctx)
			}
			t.add("over the cap: " + answerOf(err))
			conn.CloseNow()
			continue
		}
		t.add("watching")
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.CloseNow()
			if i%2 == 1 {
				<-ctx.Done() // never reads
				return
			}
			for {
				if _, _, err := conn.Read(ctx); err != nil {
					if ctx.Err() == nil {
						t.add("a reader closed: " + answerOf(err))
					}
					return
				}
			}
		}()
	}
}

// startGame makes white and black guests (if they are not yet) and starts
// a casual untimed game between them, both websockets open.
func (a *attacker) startGame(ctx context.Context, white, black *client) (string, [2]*websocket.Conn, error) {
	var conns [2]*websocket.Conn
	for _, c := range []*client{white, black} {
		if c.token == "" {
			if err := c.guest(ctx); err != nil {
				return "", conns, err
			}
		}
	}
	seek, err := white.seek(ctx, "none")
	if err != nil {
		return "", conns, err
	}
	id, err := black.accept(ctx, seek)
	if err != nil {
		return "", conns, err
	}
	for i, c := range []*client{white, black} {
		if conns[i], err = c.dial(ctx, id); err != nil {
			return "", conns, err
		}
	}
	return id, conns, nil
}

// playRandom plays random legal moves on both websockets, one a second,
// until the game ends or ctx does, and returns the round trips.
func (a *attacker) playRandom(ctx context.Context, conns [2]*websocket.Conn, t *tally) []time.Duration {
	var rtt []time.Duration
	p := toguz.StartPosition()
	for ply := 0; !p.IsOver(); ply++ {
		if sleep(ctx, time.Second) != nil {
			return rtt
		}
		moves := p.LegalMoves().Slice()
		m := moves[rand.N(len(moves))]
		me := p.Turn()
		sent := time.Now()
		err := send(ctx, conns[me], map[string]any{"type": "move", "ply": ply, "hole": int(m)})
		if err == nil {
			_, err = await(ctx, conns[me], "move", ply+1, a.cfg.Timeout)
		}
		if err == nil {
			_, err = await(ctx, conns[me.Other()], "move", ply+1, a.cfg.Timeout)
		}
		if ctx.Err() != nil {
			return rtt
		}
		if err != nil {
			t.add("player's move: " + answerOf(err))
			return rtt
		}
		rtt = append(rtt, time.Since(sent))
		p = p.After(m)
	}
	return rtt
}

// imports: a 2 MiB file of tiny games posted to /import two at a time from
// each of two addresses (127.0.2.51, .52): the bounds per address and in
// all; the server checks 1,000 games and refuses the rest with 413.
func (a *attacker) imports(ctx context.Context, t *tally) {
	const tiny = "[Result \"*\"]\n\n1. 76 98 *\n\n"
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "tiny.pgn")
	fw.Write([]byte(strings.Repeat(tiny, (2<<20)/len(tiny))))
	mw.Close()
	data, ct := body.Bytes(), mw.FormDataContentType()
	var wg sync.WaitGroup
	for s := range 2 {
		c := a.newAttackClient(50+s, writePace())
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					if err := c.src.lim.Wait(ctx); err != nil {
						return
					}
					req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.URL+"/import", bytes.NewReader(data))
					req.Header.Set("Content-Type", ct)
					resp, err := c.src.http.Do(req)
					if ctx.Err() != nil {
						return
					}
					if err != nil {
						t.add("connection error")
						continue
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					t.add(strconv.Itoa(resp.StatusCode))
					if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
						sleep(ctx, time.Second) // the Retry-After
					}
				}
			}()
		}
	}
	wg.Wait()
}

// engineGames: 3 guests from one address (127.0.2.61) play 8 engine games
// each at cfg.EngineLevel (the bounds per person and per address, 24),
// answering every engine move at once and opening a new game when one
// ends. Once the 24 are open, before any can end, a ninth game of each
// guest and a first game of a fourth guest are tried (refused: "ninth",
// "fourth"); a ninth is tried again every 5 s (refused unless a game has
// just ended).
func (a *attacker) engineGames(ctx context.Context, t *tally) {
	var guests []*client
	for g := range 4 {
		var c *client
		if g == 0 {
			c = a.newAttackClient(60, writePace())
		} else {
			c = &client{base: a.cfg.URL, src: guests[0].src} // one address
		}
		if err := c.guest(ctx); err != nil {
			t.note("an engine guest: %v", err)
			return
		}
		guests = append(guests, c)
	}
	create := func(c *client) (string, error) {
		var r struct {
			GameID string `json:"game_id"`
		}
		err := c.call(ctx, http.MethodPost, "/api/engine-games", map[string]any{"level": a.cfg.EngineLevel, "color": "black", "tc": ""}, &r)
		return r.GameID, err
	}
	// probe tries a game beyond a bound and gives it back if it was made.
	probe := func(what string, c *client) {
		id, err := create(c)
		if ctx.Err() != nil {
			return
		}
		t.add(what + ": " + answerOf(err))
		if err == nil {
			a.resign(c, id)
		}
	}
	var first [3][]string
	for g := range 3 {
		for range 8 {
			id, err := create(guests[g])
			if ctx.Err() != nil {
				return
			}
			t.add("create: " + answerOf(err))
			if err == nil {
				first[g] = append(first[g], id)
			}
		}
	}
	for g := range 3 {
		probe("ninth", guests[g])
	}
	probe("fourth", guests[3])
	var wg sync.WaitGroup
	var engineMoves atomic.Int64
	for g := range 3 {
		c := guests[g]
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if w < len(first[g]) {
					a.playEngine(ctx, c, first[g][w], t, &engineMoves)
				}
				for ctx.Err() == nil {
					id, err := create(c)
					if ctx.Err() != nil {
						return
					}
					t.add("create: " + answerOf(err))
					if err != nil {
						sleep(ctx, time.Second)
						continue
					}
					a.playEngine(ctx, c, id, t, &engineMoves)
				}
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for sleep(ctx, 5*time.Second) == nil {
			probe("ninth", guests[0])
		}
	}()
	wg.Wait()
	t.note("the engine played %d moves at level %d", engineMoves.Load(), a.cfg.EngineLevel)
}

// playEngine plays black in engine game id, a random legal move as soon
// as it is his turn, until the game ends (resigning it when ctx ends).
func (a *attacker) playEngine(ctx context.Context, c *client, id string, t *tally, engineMoves *atomic.Int64) {
	conn, err := c.dial(ctx, id)
	if err != nil {
		t.add("dial: " + answerOf(err))
		return
	}
	defer conn.CloseNow()
	defer func() {
		if ctx.Err() != nil {
			a.resignOn(conn)
		}
	}()
	for {
		m, err := receive(ctx, conn)
		if err != nil {
			return
		}
		switch m.Type {
		case "end":
			return
		case "state", "move":
			if m.Type == "state" && m.Status != "playing" {
				return
			}
			p, _, err := toguz.ParseFEN(m.FEN, toguz.Standard())
			if err != nil || p.IsOver() {
				return
			}
			if m.Type == "move" && m.By == "white" {
				engineMoves.Add(1)
			}
			if p.Turn() != toguz.Black {
				continue
			}
			moves := p.LegalMoves().Slice()
			if err := send(ctx, conn, map[string]any{"type": "move", "ply": m.Ply, "hole": int(moves[rand.N(len(moves))])}); err != nil {
				return
			}
		}
	}
}

// resign resigns game id of c, so that the server does not keep it.
func (a *attacker) resign(c *client, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.Timeout)
	defer cancel()
	if conn, err := c.dial(ctx, id); err == nil {
		a.resignOn(conn)
		conn.CloseNow()
	}
}

// resignOn resigns the game of conn and waits for its end.
func (a *attacker) resignOn(conn *websocket.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.Timeout)
	defer cancel()
	if send(ctx, conn, map[string]any{"type": "resign"}) == nil {
		await(ctx, conn, "end", 0, a.cfg.Timeout)
	}
}
