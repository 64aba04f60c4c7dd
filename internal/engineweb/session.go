package engineweb

import (
	"context"
	"encoding/json"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/engine"
)

// Session is the browser's engine: one engine, one analysis at a time, and
// the JSON in and out of the Web Worker. The js/wasm glue (engineweb/wasm)
// hands it the worker's messages as strings and gives it a way to let the
// worker's event loop run (yield); all the logic is here, tested natively.
type Session struct {
	search Searcher
	yield  func()
	// every is how often a search lets the event loop run.
	every time.Duration
	now   func() time.Time

	cancel context.CancelFunc
	done   chan struct{} // closed when the current analysis has answered
}

// NewSession returns a session searching with e. yield (nil: none) blocks
// until the host's queued events (a stop) have run.
func NewSession(e *engine.Engine, yield func()) *Session {
	return &Session{search: EngineSearcher(e), yield: yield, every: 20 * time.Millisecond, now: time.Now}
}

// errorJSON is the answer to a request that could not be read or served.
func errorJSON(err error) string {
	b, _ := json.Marshal(map[string]string{"type": "error", "message": err.Error()})
	return string(b)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return errorJSON(err)
	}
	return string(b)
}

// Legal answers a "legal" message: {"fen","ruleset"}.
func (s *Session) Legal(req string) string {
	var q Position
	if err := json.Unmarshal([]byte(req), &q); err != nil {
		return errorJSON(bad(err))
	}
	l, err := Legal(q)
	if err != nil {
		return errorJSON(err)
	}
	return mustJSON(l)
}

// PlayRequest is a "play" message.
type PlayRequest struct {
	Position
	Move int `json:"move"`
}

// Play answers a "play" message: {"fen","ruleset","move"}.
func (s *Session) Play(req string) string {
	var q PlayRequest
	if err := json.Unmarshal([]byte(req), &q); err != nil {
		return errorJSON(bad(err))
	}
	p, err := Play(q.Position, q.Move)
	if err != nil {
		return errorJSON(err)
	}
	return mustJSON(p)
}

// Go starts the analysis of a "go" message ({"fen","ruleset","multipv",
// "depth","movetime"}, no limit: until Stop) once the previous one has
// answered, which it stops. It returns at once; info gets each iteration's
// InfoJSON and done, last, the BestJSON or an error, as JSON.
func (s *Session) Go(req string, info, done func(string)) {
	var r Request
	if err := json.Unmarshal([]byte(req), &r); err != nil {
		done(errorJSON(bad(err)))
		return
	}
	prev := s.done
	s.Stop()
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan struct{})
	s.cancel, s.done = cancel, finished
	go func() {
		defer close(finished)
		defer cancel()
		if prev != nil {
			<-prev
		}
		best, err := Analyse(ctx, s.yielding(s.search), r, Bounds{}, func(in InfoJSON) { info(mustJSON(in)) })
		if err != nil {
			done(errorJSON(err))
			return
		}
		done(mustJSON(best))
	}()
}

// Stop stops the analysis under way, which then answers its best move.
func (s *Session) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// yielding returns search with the host's event loop given a turn every
// s.every of searching.
func (s *Session) yielding(search Searcher) Searcher {
	if s.yield == nil {
		return search
	}
	return func(ctx context.Context, p toguz.Position, multiPV int, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
		next := s.now().Add(s.every)
		lim.Yield = func() {
			if now := s.now(); now.After(next) {
				s.yield()
				next = s.now().Add(s.every)
			}
		}
		return search(ctx, p, multiPV, lim, info)
	}
}
