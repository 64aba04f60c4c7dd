package review

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/bus"
)

// TestRemote: a review asked over the bus before any worker runs waits
// for one, and the review a worker sends back is the one this process
// would have made; a job with a bad hole is answered with its error.
func TestRemote(t *testing.T) {
	em, err := bus.StartEmbedded("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer em.Close()
	server, err := bus.Connect(em.URL(), "server", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	workerBus, err := bus.Connect(em.URL(), "worker", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer workerBus.Close()
	r := &Remote{Bus: server, NoWorker: bus.NoResponders, Retry: 50 * time.Millisecond}
	start := toguz.StartPosition()
	local, err := NewLocal(true)
	if err != nil {
		t.Fatal(err)
	}
	want, err := local.Analyze(context.Background(), start, shortest, testDepth)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		d   Data
		err error
	}
	done := make(chan result, 1)
	go func() {
		d, err := r.Analyze(context.Background(), start, shortest, testDepth)
		done <- result{d, err}
	}()
	time.Sleep(200 * time.Millisecond) // asked, nobody answers yet
	w, err := NewWorker()
	if err != nil {
		t.Fatal(err)
	}
	un, err := workerBus.QueueSubscribe(JobSubject, WorkerQueue, func(_ string, data []byte, reply func([]byte)) {
		reply(w.Answer(context.Background(), data))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer un()
	select {
	case res := <-done:
		if res.err != nil {
			t.Fatal(res.err)
		}
		if !reflect.DeepEqual(res.d, want) {
			t.Errorf("the worker's review differs:\n%+v\nwant\n%+v", res.d, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no review in 30 s")
	}
	if _, err := r.Analyze(context.Background(), start, []toguz.Move{10}, testDepth); err == nil {
		t.Error("a job with hole 10 was reviewed")
	}
}
