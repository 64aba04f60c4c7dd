package live

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
	"golang.org/x/time/rate"
)

// Default bounds on the engine games being played at once (Config).
const (
	DefaultMaxEngineGames        = 8
	DefaultMaxEngineGamesPerAddr = 24
)

// engineGames counts the games against the engine being played, per person
// (the human seat's ID) and per client address, so that Create can refuse
// the ones beyond the bounds. A game counts from its creation (or its
// reloading) until it ends or its actor stops; a game reloaded after a
// restart counts for its person only, its address being forgotten.
//
// Locking: mu guards the maps. Hub.start takes it under Hub.mu; it never
// takes Hub.mu.
type engineGames struct {
	maxUser, maxAddr int // ≤ 0: no bound
	refused          atomic.Int64
	logRefused       rate.Sometimes // a warning at most every 10 s

	mu     sync.Mutex
	games  map[string]engineGame // by game id
	byUser map[string]int
	byAddr map[string]int
}

type engineGame struct{ user, addr string }

func newEngineGames(maxUser, maxAddr int) *engineGames {
	return &engineGames{maxUser: maxUser, maxAddr: maxAddr, games: map[string]engineGame{},
		byUser: map[string]int{}, byAddr: map[string]int{}, logRefused: rate.Sometimes{Interval: 10 * time.Second}}
}

// reserve counts game id of user's, created from addr ("" when unknown),
// or refuses it with CodeTooManyEngineGames when user or addr is at its
// bound. A game already counted is accepted again.
func (eg *engineGames) reserve(id, user, addr string) error {
	eg.mu.Lock()
	defer eg.mu.Unlock()
	if _, ok := eg.games[id]; ok {
		return nil
	}
	if eg.maxUser > 0 && eg.byUser[user] >= eg.maxUser {
		return errorf(apierr.CodeTooManyEngineGames, "you are playing %d games against the engine already, the most at once: finish one first", eg.byUser[user])
	}
	if addr != "" && eg.maxAddr > 0 && eg.byAddr[addr] >= eg.maxAddr {
		return errorf(apierr.CodeTooManyEngineGames, "%d games against the engine are being played from your address already, the most at once", eg.byAddr[addr])
	}
	eg.put(id, user, addr)
	return nil
}

// add counts game id without a bound (a game reloaded from the store).
func (eg *engineGames) add(id, user, addr string) {
	eg.mu.Lock()
	defer eg.mu.Unlock()
	if _, ok := eg.games[id]; !ok {
		eg.put(id, user, addr)
	}
}

// put counts game id; eg.mu is held.
func (eg *engineGames) put(id, user, addr string) {
	eg.games[id] = engineGame{user, addr}
	eg.byUser[user]++
	if addr != "" {
		eg.byAddr[addr]++
	}
}

// release stops counting game id (a game not counted is ignored).
func (eg *engineGames) release(id string) {
	eg.mu.Lock()
	defer eg.mu.Unlock()
	g, ok := eg.games[id]
	if !ok {
		return
	}
	delete(eg.games, id)
	if eg.byUser[g.user]--; eg.byUser[g.user] <= 0 {
		delete(eg.byUser, g.user)
	}
	if g.addr != "" {
		if eg.byAddr[g.addr]--; eg.byAddr[g.addr] <= 0 {
			delete(eg.byAddr, g.addr)
		}
	}
}

// engineOpponent returns the ID of the person playing the engine in s, and
// whether s is a game against the engine.
func engineOpponent(s game.Spec) (string, bool) {
	switch {
	case s.White.IsEngine() && !s.Black.IsEngine():
		return s.Black.ID, true
	case s.Black.IsEngine() && !s.White.IsEngine():
		return s.White.ID, true
	}
	return "", false
}
