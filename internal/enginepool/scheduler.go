package enginepool

import (
	"context"
	"slices"
	"sync"

	"github.com/toguz/toguz/internal/engine"
)

// scheduler hands a LivePlayer's engines (its searchers) to the searches
// that wait for one, in turns across users: whenever an engine comes free it
// goes to the oldest waiting search of the user served least recently, and
// a user who had nothing running or waiting comes first. One user's many
// games thus delay another's search by at most one search per engine, however
// many of them wait.
//
// Locking: mu guards every field; it is never held while searching or while
// waiting for an engine.
type scheduler struct {
	mu   sync.Mutex
	free []*engine.Engine
	// users holds a user while he has searches running or waiting, least
	// recently served first; the first fresh of them were never served.
	users []*searchUser
	fresh int
	byID  map[string]*searchUser
}

// searchUser is one user's searches: those running and those waiting, oldest
// first.
type searchUser struct {
	id      string
	running int
	waiting []*searchTicket
}

// searchTicket is one waiting search; got receives its engine.
type searchTicket struct {
	got chan *engine.Engine
}

func newScheduler(engines []*engine.Engine) *scheduler {
	return &scheduler{free: engines, byID: map[string]*searchUser{}}
}

// acquire returns an engine for a search of user's, waiting for its turn, or
// ctx's error when ctx is done first. Every engine acquire returns must be
// given back with release(user, e).
func (s *scheduler) acquire(ctx context.Context, user string) (*engine.Engine, error) {
	s.mu.Lock()
	u := s.byID[user]
	if u == nil {
		u = &searchUser{id: user}
		s.byID[user] = u
		s.users = slices.Insert(s.users, s.fresh, u)
		s.fresh++
	}
	if n := len(s.free); n > 0 {
		// An engine is free only while nobody waits: serve at once.
		e := s.free[n-1]
		s.free = s.free[:n-1]
		s.served(u)
		s.mu.Unlock()
		return e, nil
	}
	t := &searchTicket{got: make(chan *engine.Engine, 1)}
	u.waiting = append(u.waiting, t)
	s.mu.Unlock()

	select {
	case e := <-t.got:
		return e, nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	if i := slices.Index(u.waiting, t); i >= 0 {
		u.waiting = slices.Delete(u.waiting, i, i+1)
		s.forget(u)
		s.mu.Unlock()
		return nil, ctx.Err()
	}
	s.mu.Unlock()
	// The engine came as ctx ended: pass it on.
	s.release(user, <-t.got)
	return nil, ctx.Err()
}

// release gives e back after a search of user's: it goes to the next search
// in turn, or back to the free engines.
func (s *scheduler) release(user string, e *engine.Engine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u := s.byID[user]; u != nil {
		u.running--
		s.forget(u)
	}
	for _, u := range s.users {
		if len(u.waiting) == 0 {
			continue
		}
		t := u.waiting[0]
		u.waiting = slices.Delete(u.waiting, 0, 1)
		s.served(u)
		t.got <- e // buffered: never blocks
		return
	}
	s.free = append(s.free, e)
}

// served records that u starts a search: he goes to the back of the turns.
func (s *scheduler) served(u *searchUser) {
	u.running++
	i := slices.Index(s.users, u)
	if i < s.fresh {
		s.fresh--
	}
	s.users = append(slices.Delete(s.users, i, i+1), u)
}

// forget drops u once he has nothing running or waiting.
func (s *scheduler) forget(u *searchUser) {
	if u.running > 0 || len(u.waiting) > 0 {
		return
	}
	i := slices.Index(s.users, u)
	if i < s.fresh {
		s.fresh--
	}
	s.users = slices.Delete(s.users, i, i+1)
	delete(s.byID, u.id)
}

// waiting returns the number of searches waiting for an engine.
func (s *scheduler) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, u := range s.users {
		n += len(u.waiting)
	}
	return n
}
