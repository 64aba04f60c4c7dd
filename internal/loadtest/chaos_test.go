package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/toguz/toguz/internal/bus"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/testbin"
)

// The chaos test's history: every game is a log of moves, which players
// append to (a move at a ply, acknowledged, refused, or with no answer
// seen) and readers read (GET /api/games/{id} on any node). The history of
// each game must be linearizable (porcupine) against the model below: a
// move acknowledged for ply n is the log's n+1th entry; a read returns the
// log as it is at one instant between its call and its return.

type moveIn struct {
	Game       string
	Ply, Hole  int
	Unanswered bool // no acknowledgement was seen: it may or may not have been played
}

type readIn struct{ Game string }

// gameLog is the model's state: the holes played, one byte each.
type gameLog string

var gameModel = porcupine.NondeterministicModel{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		by := map[string][]porcupine.Operation{}
		var order []string
		for _, op := range h {
			g := ""
			switch in := op.Input.(type) {
			case moveIn:
				g = in.Game
			case readIn:
				g = in.Game
			}
			if _, ok := by[g]; !ok {
				order = append(order, g)
			}
			by[g] = append(by[g], op)
		}
		out := make([][]porcupine.Operation, 0, len(order))
		for _, g := range order {
			out = append(out, by[g])
		}
		return out
	},
	Init: func() []any { return []any{gameLog("")} },
	Step: func(state, input, output any) []any {
		log := state.(gameLog)
		switch in := input.(type) {
		case moveIn:
			played := gameLog(string(log) + string(rune('0'+in.Hole)))
			if in.Unanswered {
				if len(log) == in.Ply {
					return []any{log, played}
				}
				return []any{log}
			}
			if len(log) == in.Ply {
				return []any{played}
			}
			return nil
		case readIn:
			if output.(gameLog) == log {
				return []any{log}
			}
			return nil
		}
		return nil
	},
	DescribeOperation: func(in, out any) string { return fmt.Sprintf("%+v -> %v", in, out) },
}

type chaosFault struct {
	kind string
	at   time.Time
}

// TestChaos (TOGUZ_CHAOS_TEST=1, a step of .ci/run of its own): three
// `toguz serve` nodes on one store and one NATS, games whose players and
// readers use every node, while a node is SIGKILLed and restarted (twice),
// NATS is stopped and started, PostgreSQL is restarted (when
// TOGUZ_CHAOS_PG_RESTART holds the command that does it, as .ci/run sets)
// and a node is stopped cleanly and restarted. Every game's history must
// be linearizable, and every acknowledged move, with its clock, must be in
// the store. It reports the kills, restarts, moves acknowledged and lost,
// the longest pause of a game across each fault, and the checker's verdict.
func TestChaos(t *testing.T) {
	if os.Getenv("TOGUZ_CHAOS_TEST") == "" {
		t.Skip("TOGUZ_CHAOS_TEST is unset: the chaos test is a .ci/run step of its own")
	}
	bin, cleanup, err := testbin.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	natsAddr := freeAddr(t)
	em, err := bus.StartEmbedded(natsAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { em.Close() }()
	db := testDSN(t, t.TempDir())
	addrs := []string{freeAddr(t), freeAddr(t), freeAddr(t)}
	urls := make([]string, len(addrs))
	nodes := make([]*serveProcess, len(addrs))
	start := func(i int) {
		nodes[i] = startServe(t, bin, addrs[i], db, "-nats", "nats://"+natsAddr, "-node", fmt.Sprintf("n%d", i+1), "-first-move", "-1")
	}
	for i := range addrs {
		urls[i] = "http://" + addrs[i]
		start(i)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	t0 := time.Now()
	now := func() int64 { return time.Since(t0).Nanoseconds() }
	src := &source{http: &http.Client{Timeout: 10 * time.Second}}
	newClient := func(base string) *client {
		c := &client{base: base, src: src, retry: retryPolicy{max: 10, retried: new(atomic.Int64)}}
		if err := c.guest(ctx); err != nil {
			t.Fatal(err)
		}
		return c
	}

	var mu sync.Mutex
	var ops []porcupine.Operation
	open := map[string]map[[2]int]int{} // game → (ply, hole) → op index without an answer
	acks := map[string][]timedAck{}
	refusals := map[string]int{}
	const games = 9
	ids := make([]string, games)
	errc := make(chan error, 3*games)
	for g := range games {
		a, b := g%3, (g+1)%3
		white, black := newClient(urls[a]), newClient(urls[b])
		seek, err := white.seek(ctx, "10+5")
		if err != nil {
			t.Fatal(err)
		}
		id, err := black.accept(ctx, seek)
		if err != nil {
			t.Fatal(err)
		}
		ids[g] = id
		open[id] = map[[2]int]int{}
		rotate := func(first int) []string {
			out := make([]string, 0, len(urls))
			for i := range urls {
				out = append(out, urls[(first+i)%len(urls)])
			}
			return out
		}
		sent := func(ply, hole int) {
			mu.Lock()
			defer mu.Unlock()
			k := [2]int{ply, hole}
			if _, ok := open[id][k]; ok {
				return // sent again after a reconnection: one operation
			}
			ops = append(ops, porcupine.Operation{ClientId: g, Input: moveIn{Game: id, Ply: ply, Hole: hole, Unanswered: true},
				Call: now(), Return: -1, Output: gameLog("")})
			open[id][k] = len(ops) - 1
		}
		acked := func(ack nodeAck) {
			mu.Lock()
			defer mu.Unlock()
			acks[id] = append(acks[id], timedAck{ack, time.Now()})
			if i, ok := open[id][[2]int{ack.Ply - 1, ack.Hole}]; ok {
				in := ops[i].Input.(moveIn)
				in.Unanswered = false
				ops[i].Input, ops[i].Return = in, now()
				delete(open[id], [2]int{ack.Ply - 1, ack.Hole})
			}
		}
		refused := func(code string) {
			mu.Lock()
			refusals[code]++
			mu.Unlock()
		}
		seats := []*nodeSeat{
			{c: white, bases: rotate(a), id: id, pace: 150 * time.Millisecond, sent: sent, refused: refused},
			{c: black, bases: rotate(b), id: id, pace: 150 * time.Millisecond, sent: sent, refused: refused},
		}
		go func() { errc <- seats[0].play(ctx, "white", rand.New(rand.NewPCG(uint64(g), 1)), acked) }()
		go func() { errc <- seats[1].play(ctx, "black", rand.New(rand.NewPCG(uint64(g), 2)), acked) }()
		// A reader polls the game's state on every node in turn.
		go func() {
			rng := rand.New(rand.NewPCG(uint64(g), 3))
			hc := &http.Client{Timeout: 3 * time.Second}
			for ctx.Err() == nil {
				time.Sleep(time.Duration(100+rng.IntN(200)) * time.Millisecond)
				call := now()
				resp, err := hc.Get(urls[rng.IntN(len(urls))] + "/api/games/" + id)
				if err != nil {
					continue
				}
				var st struct {
					Status string `json:"status"`
					Moves  []struct {
						Hole int `json:"hole"`
					} `json:"moves"`
				}
				err = json.NewDecoder(resp.Body).Decode(&st)
				resp.Body.Close()
				if err != nil || resp.StatusCode != 200 {
					continue
				}
				var b strings.Builder
				for _, m := range st.Moves {
					b.WriteRune(rune('0' + m.Hole))
				}
				mu.Lock()
				ops = append(ops, porcupine.Operation{ClientId: games + g, Input: readIn{Game: id}, Call: call, Output: gameLog(b.String()), Return: now()})
				mu.Unlock()
				if st.Status != "playing" {
					break
				}
			}
			errc <- nil
		}()
	}

	// The faults, every 8 s while the games are played.
	var faults []chaosFault
	kills, restarts := 0, 0
	fault := func(kind string, f func()) {
		time.Sleep(8 * time.Second)
		faults = append(faults, chaosFault{kind, time.Now()})
		f()
		t.Logf("%6.1f s: %s", time.Since(t0).Seconds(), kind)
	}
	fault("SIGKILL node 1, restarted 1 s later", func() {
		nodes[0].kill()
		kills++
		time.Sleep(time.Second)
		start(0)
		restarts++
	})
	fault("NATS stopped, started 3 s later", func() {
		em.Close()
		time.Sleep(3 * time.Second)
		if em, err = bus.StartEmbedded(natsAddr); err != nil {
			t.Fatal(err)
		}
	})
	if cmd := os.Getenv("TOGUZ_CHAOS_PG_RESTART"); cmd != "" && strings.HasPrefix(db, "postgres") {
		fault("PostgreSQL restarted", func() {
			if out, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
				t.Fatalf("restart PostgreSQL: %v\n%s", err, out)
			}
		})
	} else {
		t.Log("PostgreSQL is not restarted: TOGUZ_CHAOS_PG_RESTART is unset or the store is SQLite")
	}
	fault("SIGKILL node 2, restarted 1 s later", func() {
		nodes[1].kill()
		kills++
		time.Sleep(time.Second)
		start(1)
		restarts++
	})
	fault("SIGTERM node 3, restarted", func() {
		nodes[2].cmd.Process.Signal(syscall.SIGTERM)
		<-nodes[2].done
		start(2)
		restarts++
	})

	for range 3 * games {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	end := now()

	// Every acknowledged move, with its clock, is in the store.
	st, err := store.Open(context.Background(), db, store.Options{SessionSweep: -1, Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	acked, lost := 0, 0
	for _, id := range ids {
		moves, err := st.Moves(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range acks[id] {
			acked++
			if a.Ply > len(moves) {
				lost++
				t.Errorf("game %s: acknowledged ply %d is lost: %d stored", id, a.Ply, len(moves))
				continue
			}
			if m := moves[a.Ply-1]; int(m.Hole) != a.Hole || m.Clock.Milliseconds() != a.ClockMS {
				lost++
				t.Errorf("game %s ply %d: stored hole %d, clock %d ms; acknowledged hole %d, clock %d ms",
					id, a.Ply, m.Hole, m.Clock.Milliseconds(), a.Hole, a.ClockMS)
			}
		}
		if g, err := st.Game(context.Background(), id); err != nil || g.Status.String() == "started" {
			t.Errorf("game %s is not over", id)
		}
	}

	// The longest pause of a game across each fault.
	for _, f := range faults {
		var worst time.Duration
		for _, id := range ids {
			as := acks[id]
			i := slices.IndexFunc(as, func(a timedAck) bool { return a.at.After(f.at) })
			if i > 0 {
				worst = max(worst, as[i].at.Sub(as[i-1].at))
			}
		}
		t.Logf("longest pause across %q: %v", f.kind, worst.Round(time.Millisecond))
	}

	// The history's verdict.
	for i := range ops {
		if ops[i].Return < 0 {
			ops[i].Return = end
		}
	}
	res, _ := porcupine.CheckOperationsVerbose(gameModel.ToModel(), ops, 2*time.Minute)
	reads := 0
	for _, op := range ops {
		if _, ok := op.Input.(readIn); ok {
			reads++
		}
	}
	t.Logf("%d kills, %d restarts, %d moves acknowledged, %d lost; %d operations (%d reads); refusals seen %v; linearizability: %s",
		kills, restarts, acked, lost, len(ops), reads, refusals, res)
	if res != porcupine.Ok {
		t.Errorf("the games' history is not linearizable: %s", res)
	}
	for _, n := range nodes {
		n.cmd.Process.Signal(syscall.SIGTERM)
		<-n.done
	}
}
