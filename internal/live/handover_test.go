package live

import (
	"testing"
	"time"
)

// TestShare: a node hands over only past its share plus a tenth and one,
// to the least loaded node, no more than brings either to the share.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		loads map[string]int
		to    string
		n     int
	}{
		{map[string]int{"a": 10, "b": 0}, "b", 5},
		{map[string]int{"a": 7, "b": 3}, "b", 2},
		{map[string]int{"a": 6, "b": 4}, "", 0}, // within a share plus one
		{map[string]int{"a": 1, "b": 0}, "", 0},
		{map[string]int{"a": 30, "b": 0, "c": 0}, "b", 10},
		{map[string]int{"a": 30, "b": 10, "c": 0}, "c", 13},
		{map[string]int{"a": 1000, "b": 0}, "b", maxHandover},
		{map[string]int{"a": 12, "b": 12, "c": 0}, "c", 4},
		{map[string]int{"a": 10}, "", 0},
	} {
		to, n := share("a", tc.loads)
		if to != tc.to || n != tc.n {
			t.Errorf("share(a, %v) = %q, %d; want %q, %d", tc.loads, to, n, tc.to, tc.n)
		}
	}
}

// TestByeStaleMessages: after a node's goodbye, what it sent before (an
// alive, a served socket's close, handled later on another subject's
// goroutine) does not make it look alive again, or its released games
// would wait for the crash delay; a hello (it started again) does, and so
// does news of it a lease's time after the goodbye.
func TestByeStaleMessages(t *testing.T) {
	cl := &cluster{node: "b", ttl: time.Minute, heard: map[string]time.Time{}, left: map[string]time.Time{},
		kick: make(chan struct{}, 1)}
	cl.onAlive("", []byte("a"), nil)
	if !cl.alive("a") {
		t.Fatal("a node heard of now is not alive")
	}
	cl.onBye("", []byte("a"), nil)
	if cl.alive("a") {
		t.Error("alive after its goodbye")
	}
	select {
	case <-cl.kick:
	default:
		t.Error("the goodbye did not wake the sweep")
	}
	cl.onAlive("", []byte("a"), nil)
	cl.mu.Lock()
	cl.hearLocked("a") // a served socket's close, a command, a join
	cl.mu.Unlock()
	if cl.alive("a") {
		t.Error("alive again after a message sent before its goodbye")
	}
	cl.onHello("", []byte("a"), nil)
	cl.onAlive("", []byte("a"), nil)
	if !cl.alive("a") {
		t.Error("not alive after its hello")
	}
	cl.onBye("", []byte("a"), nil)
	cl.mu.Lock()
	cl.left["a"] = time.Now().Add(-2 * cl.ttl)
	cl.mu.Unlock()
	cl.onAlive("", []byte("a"), nil)
	if !cl.alive("a") {
		t.Error("not alive when heard of a lease's time after its goodbye")
	}
}
