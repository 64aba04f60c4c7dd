package engine

import (
	"runtime"
	"testing"
)

// TestInBackground: f runs at the lowest priority, and the caller's thread,
// and every thread after, keeps its own.
func TestInBackground(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("per-thread priorities are Linux's")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, err := threadNice()
	if err != nil {
		t.Fatal(err)
	}
	if before == backgroundNice {
		t.Skipf("the test already runs at nice %d", before)
	}
	var inside int
	inBackground(func() { inside, err = threadNice() })
	if err != nil || inside != backgroundNice {
		t.Errorf("inside: nice %d, %v; want %d", inside, err, backgroundNice)
	}
	if after, _ := threadNice(); after != before {
		t.Errorf("the caller's thread: nice %d after, %d before", after, before)
	}
	// The background thread ended with its goroutine: new goroutines never
	// land on it.
	for range 20 {
		ch := make(chan int)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			n, _ := threadNice()
			ch <- n
		}()
		if n := <-ch; n == backgroundNice {
			t.Fatalf("a later goroutine's thread has nice %d", n)
		}
	}
}
