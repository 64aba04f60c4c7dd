package live

import (
	"errors"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// eachWriter records what WriteEach hands a connection's writer.
type eachWriter struct {
	mu       sync.Mutex
	got      []string
	at       atomic.Int32 // writes under way: never more than one
	most     atomic.Int32
	ended    chan error
	failAt   int // the write that fails (0: none)
	afterEnd atomic.Bool
	written  atomic.Int64
}

func newEachWriter(failAt int) *eachWriter {
	return &eachWriter{ended: make(chan error, 2), failAt: failAt}
}

func (w *eachWriter) write(b []byte) error {
	if w.afterEnd.Load() {
		panic("a write after ended")
	}
	n := w.at.Add(1)
	defer w.at.Add(-1)
	if n > w.most.Load() {
		w.most.Store(n)
	}
	w.mu.Lock()
	w.got = append(w.got, string(b))
	k := len(w.got)
	w.mu.Unlock()
	w.written.Store(int64(k))
	if k%7 == 0 {
		runtime.Gosched() // let the queue fill and empty in between
	}
	if k == w.failAt {
		return errors.New("broken pipe")
	}
	return nil
}

func (w *eachWriter) end(err error) {
	w.afterEnd.Store(true)
	w.ended <- err
}

func (w *eachWriter) waitEnded(t *testing.T) error {
	t.Helper()
	select {
	case err := <-w.ended:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("ended was not called")
		return nil
	}
}

// TestWriteEach: every message is written once, in order, by one writer at
// a time, whether it was queued before WriteEach or while a writer ran or
// after one ended; the close ends it once; a failed write ends it with its
// error and nothing is written after; an idle connection keeps no goroutine.
func TestWriteEach(t *testing.T) {
	const n = 20000
	queueAll := func(c *Conn, from, to int) {
		for i := from; i < to; i++ {
			for !c.queue([]byte(strconv.Itoa(i))) {
				runtime.Gosched() // full: the game would drop it; here all must pass
			}
		}
	}
	want := func(from, to int) []string {
		var s []string
		for i := from; i < to; i++ {
			s = append(s, strconv.Itoa(i))
		}
		return s
	}

	t.Run("all in order", func(t *testing.T) {
		c := &Conn{out: make(chan []byte, 16)}
		w := newEachWriter(0)
		queueAll(c, 0, 10) // before WriteEach
		c.WriteEach(w.write, w.end)
		queueAll(c, 10, n)
		c.close()
		if err := w.waitEnded(t); err != nil {
			t.Fatalf("ended(%v), want nil", err)
		}
		if !slices.Equal(w.got, want(0, n)) {
			t.Fatalf("%d messages written, first difference from 0..%d in order", len(w.got), n-1)
		}
		if m := w.most.Load(); m != 1 {
			t.Errorf("%d writes at once, want 1", m)
		}
		select {
		case err := <-w.ended:
			t.Errorf("ended called again (%v)", err)
		case <-time.After(20 * time.Millisecond):
		}
	})

	t.Run("closed before WriteEach", func(t *testing.T) {
		c := &Conn{out: make(chan []byte, 16)}
		queueAll(c, 0, 3)
		c.close()
		w := newEachWriter(0)
		c.WriteEach(w.write, w.end)
		if err := w.waitEnded(t); err != nil || !slices.Equal(w.got, want(0, 3)) {
			t.Fatalf("ended(%v) after %q, want nil after 0, 1, 2", err, w.got)
		}
	})

	t.Run("a failed write ends it", func(t *testing.T) {
		c := &Conn{out: make(chan []byte, 16)}
		w := newEachWriter(5)
		c.WriteEach(w.write, w.end)
		queueAll(c, 0, 5)
		if err := w.waitEnded(t); err == nil {
			t.Fatal("ended(nil) after a failed write")
		}
		for i := range 40 { // the game queues on until the queue is full
			c.queue([]byte(strconv.Itoa(100 + i)))
		}
		c.close()
		time.Sleep(20 * time.Millisecond)
		if !slices.Equal(w.got, want(0, 5)) {
			t.Fatalf("written %q, want 0..4 and nothing after the failure", w.got)
		}
	})

	// Each message queued as soon as the one before is written: a writer
	// goroutine ends and another starts for most of them, and none may be
	// left unwritten.
	t.Run("one at a time", func(t *testing.T) {
		c := &Conn{out: make(chan []byte, 16)}
		w := newEachWriter(0)
		c.WriteEach(w.write, w.end)
		for i := range 20000 {
			c.queue([]byte(strconv.Itoa(i)))
			deadline := time.Now().Add(2 * time.Second)
			for w.written.Load() != int64(i+1) {
				if time.Now().After(deadline) {
					t.Fatalf("message %d was not written", i)
				}
			}
		}
		c.close()
		if err := w.waitEnded(t); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("no goroutine while idle", func(t *testing.T) {
		before := runtime.NumGoroutine()
		c := &Conn{out: make(chan []byte, 16)}
		w := newEachWriter(0)
		c.WriteEach(w.write, w.end)
		for round := range 3 {
			queueAll(c, round*100, round*100+100)
			deadline := time.Now().Add(5 * time.Second)
			for {
				w.mu.Lock()
				done := len(w.got) == round*100+100
				w.mu.Unlock()
				if done && runtime.NumGoroutine() <= before {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("round %d: %d goroutines with the queue written, %d before", round, runtime.NumGoroutine(), before)
				}
				time.Sleep(time.Millisecond)
			}
		}
		c.close()
		if err := w.waitEnded(t); err != nil {
			t.Fatal(err)
		}
	})
}
