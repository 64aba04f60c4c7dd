package bus

import (
	"context"
	"sync"
	"testing"
	"time"
)

type opsSeen struct {
	mu  sync.Mutex
	ops map[string]int
}

func (o *opsSeen) ObserveBus(op string, d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ops[op]++
}

// TestBus: on an embedded NATS a request finds its subscriber's reply, a
// request nobody serves is told so, and the observer hears of each
// publish, request and handled message.
func TestBus(t *testing.T) {
	em, err := StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	b, err := Connect(em.URL(), "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	obs := &opsSeen{ops: map[string]int{}}
	b.Observe(obs)

	stop, err := b.Subscribe("echo", func(_ string, data []byte, reply func([]byte)) { reply(append([]byte("re:"), data...)) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	got, err := b.Request(ctx, "echo", []byte("x"))
	if err != nil || string(got) != "re:x" {
		t.Fatalf("Request: %q, %v", got, err)
	}
	if err := b.Publish("echo", []byte("y")); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Request(ctx, "nobody", nil); !NoResponders(err) {
		t.Errorf("a request nobody serves: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		obs.mu.Lock()
		seen := obs.ops["request"] == 2 && obs.ops["publish"] == 1 && obs.ops["handle"] == 2
		ops := map[string]int{}
		for k, v := range obs.ops {
			ops[k] = v
		}
		obs.mu.Unlock()
		if seen {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("observed %v, want 2 requests, 1 publish, 2 handled", ops)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
