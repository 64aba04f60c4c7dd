package engineweb

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSession: the worker's messages in and out as the wasm glue passes
// them, as strings; a stop arrives through the yield, as the worker's
// event loop delivers it between two slices of search.
func TestSession(t *testing.T) {
	e := newEngine(t)
	var s *Session
	yields := 0
	s = NewSession(e, func() {
		if yields++; yields == 3 {
			s.Stop() // the worker's {type:'stop'}, run while the search yields
		}
	})
	s.every = time.Millisecond

	var legal LegalJSON
	if err := json.Unmarshal([]byte(s.Legal(`{"fen":""}`)), &legal); err != nil || len(legal.Moves) != 9 {
		t.Fatalf("legal: %v %+v", err, legal)
	}
	if got := s.Legal(`{"fen":"x"}`); !strings.Contains(got, `"type":"error"`) {
		t.Errorf("legal of a bad FEN: %s", got)
	}
	var play PlayJSON
	if err := json.Unmarshal([]byte(s.Play(`{"move":9}`)), &play); err != nil || play.Notation != "98" || len(play.Legal) != 8 {
		t.Fatalf("play: %v %+v", err, play)
	}
	if got := s.Play(`{"move":0}`); !strings.Contains(got, `"type":"error"`) {
		t.Errorf("play of hole 0: %s", got)
	}

	// An infinite analysis, stopped from within the yield.
	done := make(chan string, 1)
	var infos []string
	s.Go(`{"multipv":2}`, func(m string) { infos = append(infos, m) }, func(m string) { done <- m })
	select {
	case m := <-done:
		var best BestJSON
		if err := json.Unmarshal([]byte(m), &best); err != nil || best.Type != "bestmove" || best.Move == 0 {
			t.Errorf("bestmove %s", m)
		}
		if yields < 3 {
			t.Errorf("%d yields", yields)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stop did not reach the search")
	}
	// A second go waits for the first, which it stops.
	first, second := make(chan string, 1), make(chan string, 1)
	s.yield = nil
	s.Go(`{}`, func(string) {}, func(m string) { first <- m })
	s.Go(`{"depth":2}`, func(string) {}, func(m string) { second <- m })
	for _, ch := range []chan string{first, second} {
		select {
		case m := <-ch:
			if !strings.Contains(m, `"bestmove"`) {
				t.Errorf("answer %s", m)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a superseded analysis did not answer")
		}
	}
	s.Go(`{"fen":"x"}`, func(string) {}, func(m string) { first <- m })
	if m := <-first; !strings.Contains(m, `"type":"error"`) {
		t.Errorf("go with a bad FEN: %s", m)
	}
}
