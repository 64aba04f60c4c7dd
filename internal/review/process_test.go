package review

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// TestMain runs the test binary as the worker process when
// TOGUZ_REVIEW_WORKER is set: TestProcess starts itself so.
func TestMain(m *testing.M) {
	if os.Getenv("TOGUZ_REVIEW_WORKER") == "1" {
		// As `toguz review-worker` does.
		if err := engine.LowerProcessPriority(); err != nil {
			os.Exit(1)
		}
		if err := Serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestProcess: the worker process reviews a game exactly as this process
// does, a cancelled job kills it and the next job starts another, and a
// bad job is answered with an error.
func TestProcess(t *testing.T) {
	t.Setenv("TOGUZ_REVIEW_WORKER", "1")
	p := NewProcess([]string{os.Args[0]})
	defer p.Close()
	start := toguz.StartPosition()
	local, err := NewLocal(true)
	if err != nil {
		t.Fatal(err)
	}
	want, err := local.Analyze(context.Background(), start, shortest, testDepth)
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Analyze(context.Background(), start, shortest, testDepth)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the process's review differs:\n%+v\nwant\n%+v", got, want)
	}
	first := p.child.Process.Pid
	if runtime.GOOS == "linux" {
		// Every thread of the worker at the lowest priority.
		tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", first))
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", first, task.Name()))
			if err != nil {
				continue // ended
			}
			// Field 19 is the nice value, counted after the ")" that ends the command name.
			f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
			if f[16] != "19" {
				t.Errorf("worker thread %s at nice %s", task.Name(), f[16])
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := p.Analyze(ctx, start, shortest, 30); err != context.DeadlineExceeded {
		t.Errorf("a cancelled job: %v", err)
	}
	if p.child != nil {
		t.Error("the child searching a cancelled job is still there")
	}
	if got, err := p.Analyze(context.Background(), start, shortest[:3], testDepth); err != nil || len(got.Plies) != 3 {
		t.Errorf("after a restart: %d plies, %v", len(got.Plies), err)
	}
	if p.child.Process.Pid == first {
		t.Error("the same child after a cancelled job")
	}
	if _, err := p.Analyze(context.Background(), start, []toguz.Move{5, 5, 5, 5, 5, 5}, testDepth); err == nil {
		t.Error("an illegal game reviewed")
	}
}
