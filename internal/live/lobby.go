package live

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
)

// Seek is an offer to play: public in the lobby, or private (a challenge by
// link). Seeks live in memory: a restart forgets open seeks, never games.
type Seek struct {
	ID      string
	By      game.Seat
	TC      clock.TimeControl
	Rated   bool
	Color   string // the creator's colour: "white", "black" or "random"
	Rules   toguz.Rules
	Private bool
	Created time.Time
	GameID  string // set once accepted
	// Addr is the creator's client address key (the server's: the IPv6
	// /64), which bounds the open seeks per address
	// (LobbyConfig.PerAddress); "" counts as one address.
	Addr string
	// Marked: the creator's account is marked by the moderators
	// (LobbyConfig.Marked); a rated seek of a marked account is shown to
	// and accepted by marked accounts only, and the others' rated seeks
	// are not shown to them. Set by Add.
	Marked bool `json:",omitempty"`
}

// SeekJSON is a seek as the API shows it.
type SeekJSON struct {
	ID       string `json:"id"`
	By       string `json:"by"`
	TC       string `json:"tc"`
	Rated    bool   `json:"rated"`
	Color    string `json:"color"`
	Ruleset  string `json:"ruleset"`
	Private  bool   `json:"private"`
	URL      string `json:"url"`
	Category string `json:"category"`
	// Own is set for the seek's creator: he may cancel it, not accept it.
	Own bool `json:"own,omitempty"`
}

// JSON returns the API form of s.
func (s Seek) JSON() SeekJSON {
	j := SeekJSON{ID: s.ID, By: s.By.Name, TC: tcString(s.TC), Rated: s.Rated, Color: s.Color,
		Ruleset: s.Rules.String(), Private: s.Private, URL: "/challenge/" + s.ID}
	if c, ok := Category(s.TC); ok {
		j.Category = c.String()
	}
	return j
}

// JSONFor returns the API form of s as viewer (a Seat.ID) sees it.
func (s Seek) JSONFor(viewer string) SeekJSON {
	j := s.JSON()
	j.Own = viewer != "" && viewer == s.By.ID
	return j
}

// MaxSeeks is the most open seeks one person may have.
const MaxSeeks = 5

// LobbyConfig bounds the lobby. Zero fields take the defaults.
type LobbyConfig struct {
	// PerAddress is the most open seeks (public or private) from one
	// client address (default 20; negative: no bound). Guest identities
	// cost nothing, so MaxSeeks alone bounds nothing.
	PerAddress int
	// Expiry is how long a seek stays open (default 30 min).
	Expiry time.Duration
	// Grace is how long the creator of a seek may have no lobby connection
	// before his seek goes (default 15 s): he left the page or lost his
	// connection. Seeks made by a client that never opened the lobby
	// socket (the API) live until they expire.
	Grace time.Duration
	// Listed is the most seeks a watcher is sent, the newest (default 50);
	// the messages say how many there are in all.
	Listed int
	// WatcherBuffer is the number of messages queued for a lobby watcher
	// before it is dropped as too slow (default 256).
	WatcherBuffer int
	// SweepEvery is how often expired seeks and those of departed creators
	// are removed (default 1 s).
	SweepEvery time.Duration
	// Now is the lobby's clock (default time.Now).
	Now func() time.Time
	// Marked, if set, reports whether the moderators marked an account
	// (internal/moderation): rated seeks meet only seeks of the same pool.
	Marked func(userID int64) bool
}

// marked reports whether seat is in the pool of marked accounts.
func (c *LobbyConfig) marked(seat game.Seat) bool {
	return c.Marked != nil && seat.UserID != 0 && c.Marked(seat.UserID)
}

// visible reports whether a watcher in pool viewerMarked sees seek s: a
// rated seek only within its pool.
func visible(s Seek, viewerMarked bool) bool { return !s.Rated || s.Marked == viewerMarked }

func (c *LobbyConfig) defaults() {
	if c.PerAddress == 0 {
		c.PerAddress = 20
	}
	if c.Expiry == 0 {
		c.Expiry = 30 * time.Minute
	}
	if c.Grace == 0 {
		c.Grace = 15 * time.Second
	}
	if c.Listed == 0 {
		c.Listed = 50
	}
	if c.WatcherBuffer == 0 {
		c.WatcherBuffer = 256
	}
	if c.SweepEvery == 0 {
		c.SweepEvery = time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Lobby holds the open seeks and tells lobby watchers of changes: the
// newest seeks once when they connect, then each seek added or removed.
//
// Locking: mu guards every field below it. Messages to watchers are
// encoded once per change and queued without blocking while mu is held; a
// watcher whose queue is full is dropped (its client reconnects and gets
// the list again), since a lost delta would leave its list wrong.
type Lobby struct {
	hub *Hub
	cfg LobbyConfig

	mu      sync.Mutex
	seq     uint64               // order of creation
	seeks   map[string]*openSeek // open seeks
	public  []*openSeek          // the open public seeks, oldest first
	taken   map[string]takenSeek // accepted seek id → its game, until it expires
	byAddr  map[string]int       // open seeks per client address
	byWho   map[string]int       // open seeks per creator
	subs    map[*LobbySub]bool   // lobby watchers
	present map[string]int       // lobby watchers per viewer
	gone    map[string]time.Time // when a viewer's last lobby watcher closed
}

type openSeek struct {
	Seek
	seq uint64
	// watched: the creator has had a lobby connection since the seek was
	// made, so his leaving ends it.
	watched bool
	// home is the node the seek lives on when it is a copy of another
	// node's (lobbynodes.go), "" for one of this node's.
	home string
}

type takenSeek struct {
	game string
	at   time.Time
}

// NewLobby returns an empty lobby with the default bounds whose games are
// created in h.
func NewLobby(h *Hub) *Lobby { return NewLobbyWith(h, LobbyConfig{}) }

// NewLobbyWith returns an empty lobby bounded by cfg whose games are
// created in h. Its sweeper runs until h's context ends (Hub.Wait waits
// for it).
func NewLobbyWith(h *Hub, cfg LobbyConfig) *Lobby {
	cfg.defaults()
	l := &Lobby{hub: h, cfg: cfg, seeks: map[string]*openSeek{}, taken: map[string]takenSeek{},
		byAddr: map[string]int{}, byWho: map[string]int{}, subs: map[*LobbySub]bool{},
		present: map[string]int{}, gone: map[string]time.Time{}}
	if h != nil && h.cl != nil {
		if err := l.share(); err != nil {
			h.log.Error("lobby: sharing the seeks with the other nodes", "err", err)
		}
	}
	if h != nil {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			t := time.NewTicker(cfg.SweepEvery)
			defer t.Stop()
			for {
				select {
				case <-h.ctx.Done():
					return
				case <-t.C:
					l.Sweep()
				}
			}
		}()
	}
	return l
}

// Add opens a seek and returns it with its id.
func (l *Lobby) Add(s Seek) (Seek, error) {
	switch {
	case s.Rated && s.By.Guest:
		return Seek{}, errorf(apierr.CodeGuestRated, "guests play casual games only: sign up to play rated games")
	case s.Rated && s.TC.Kind() == clock.Unlimited:
		return Seek{}, errorf(apierr.CodeBadTC, "rated games need a clock")
	case s.Color != "white" && s.Color != "black" && s.Color != "random":
		return Seek{}, errorf(apierr.CodeBadRequest, "color must be white, black or random, not %q", s.Color)
	}
	s.Marked = l.cfg.marked(s.By)
	l.mu.Lock()
	defer l.mu.Unlock()
	s.ID, s.Created = NewID(), l.cfg.Now()
	if n := l.byWho[s.By.ID]; n >= MaxSeeks {
		return Seek{}, errorf(apierr.CodeTooManySeeks, "you have %d open seeks already: cancel one first", n)
	}
	if n := l.byAddr[s.Addr]; l.cfg.PerAddress > 0 && n >= l.cfg.PerAddress {
		return Seek{}, errorf(apierr.CodeTooManySeeks, "your address has %d open seeks already, the most it may have", n)
	}
	l.seq++
	o := &openSeek{Seek: s, seq: l.seq, watched: l.present[s.By.ID] > 0}
	l.seeks[s.ID] = o
	l.byWho[s.By.ID]++
	l.byAddr[s.Addr]++
	l.publishLocked("add", o)
	if !s.Private {
		l.public = append(l.public, o)
		l.notifyLocked(func(viewer string) []byte {
			return mustJSON(seekAddedMsg{Type: "seek_added", Seek: s.JSONFor(viewer), Total: len(l.public)})
		}, s.By.ID, func(sub *LobbySub) bool { return visible(s, sub.marked) })
	}
	return s, nil
}

// Cancel closes seek id if by (a Seat.ID) made it.
func (l *Lobby) Cancel(id, by string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.seeks[id]
	if !ok {
		// Perhaps another node's, whose copy has not come yet.
		l.mu.Unlock()
		s, ok = l.find(context.Background(), id, findWait)
		l.mu.Lock()
	}
	switch {
	case !ok:
		return errorf(apierr.CodeNotFound, "there is no open seek %q", id)
	case s.By.ID != by:
		return errorf(apierr.CodeForbidden, "only its creator may cancel a seek")
	case s.home != "":
		l.mu.Unlock()
		defer l.mu.Lock() // for the deferred Unlock
		return l.cancelRemote(s, by)
	}
	l.removeLocked(s)
	return nil
}

// Get returns seek id (open or taken) and the id of its game once taken.
func (l *Lobby) Get(id string) (Seek, string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok := l.seeks[id]; ok {
		return s.Seek, "", true
	}
	if t, ok := l.taken[id]; ok {
		return Seek{ID: id}, t.game, true
	}
	l.mu.Unlock()
	defer l.mu.Lock() // for the deferred Unlock
	if o, ok := l.find(context.Background(), id, findWait); ok {
		return o.Seek, "", true
	}
	return Seek{}, "", false
}

// findWait is how long Get waits for another node to say a seek is its
// own (lobbynodes.go): a few bus round trips.
const findWait = 500 * time.Millisecond

// List returns the newest open public seeks (at most LobbyConfig.Listed),
// newest first, as an account not marked sees them.
func (l *Lobby) List() []Seek {
	list, _ := l.Listed()
	return list
}

// Listed returns the newest open public seeks (at most LobbyConfig.Listed),
// newest first, and how many are open in all, as an account not marked
// sees them.
func (l *Lobby) Listed() ([]Seek, int) { return l.ListedFor(game.Seat{}) }

// ListedFor is Listed as viewer sees the lobby: a marked account sees the
// rated seeks of marked accounts only (LobbyConfig.Marked).
func (l *Lobby) ListedFor(viewer game.Seat) ([]Seek, int) {
	marked := l.cfg.marked(viewer)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.listLocked(marked), len(l.public)
}

func (l *Lobby) listLocked(viewerMarked bool) []Seek {
	out := make([]Seek, 0, min(len(l.public), l.cfg.Listed))
	for i := len(l.public) - 1; i >= 0 && len(out) < l.cfg.Listed; i-- {
		if visible(l.public[i].Seek, viewerMarked) {
			out = append(out, l.public[i].Seek)
		}
	}
	return out
}

// Accept makes seek id a game between its creator and by and returns the
// game's id.
func (l *Lobby) Accept(ctx context.Context, id string, by game.Seat) (string, error) {
	byMarked := l.cfg.marked(by)
	l.mu.Lock()
	s, ok := l.seeks[id]
	if !ok {
		_, wasTaken := l.taken[id]
		l.mu.Unlock()
		if wasTaken {
			return "", errorf(apierr.CodeSeekGone, "this seek has already been accepted")
		}
		if o, ok := l.find(ctx, id, 0); ok && o.By.ID != by.ID && !(o.Rated && by.Guest) && visible(o.Seek, byMarked) {
			return l.acceptRemote(ctx, o, by)
		}
		return "", errorf(apierr.CodeNotFound, "there is no open seek %q", id)
	}
	switch {
	case s.By.ID == by.ID:
		l.mu.Unlock()
		return "", errorf(apierr.CodeOwnSeek, "you cannot accept your own seek")
	case s.Rated && by.Guest:
		l.mu.Unlock()
		return "", errorf(apierr.CodeGuestRated, "guests play casual games only: sign up to play rated games")
	case !visible(s.Seek, byMarked):
		l.mu.Unlock()
		return "", errorf(apierr.CodeForbidden, "this rated seek is not open to you")
	case s.home != "":
		l.mu.Unlock()
		return l.acceptRemote(ctx, s, by)
	}
	delete(l.seeks, id) // nobody else can take it while the game is created
	l.mu.Unlock()

	creatorWhite := s.Color == "white" || (s.Color == "random" && rand.IntN(2) == 0)
	spec := game.Spec{Rules: s.Rules, TC: s.TC, Rated: s.Rated, White: s.By, Black: by}
	if !creatorWhite {
		spec.White, spec.Black = by, s.By
	}
	gid, err := l.hub.Create(ctx, spec)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		l.seeks[id] = s
		return "", err
	}
	l.taken[id] = takenSeek{game: gid, at: l.cfg.Now()}
	l.seeks[id] = s
	l.removeLocked(s)
	started := gameStartedMsg(id, gid)
	for sub := range l.subs {
		if sub.viewer == s.By.ID || sub.viewer == by.ID {
			l.sendLocked(sub, started)
		}
	}
	return gid, nil
}

// Sweep removes the seeks that have expired and those whose creator has
// had no lobby connection for the grace period. The lobby's own sweeper
// calls it every LobbyConfig.SweepEvery.
func (l *Lobby) Sweep() {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.cfg.Now()
	var gone []*openSeek
	for _, s := range l.seeks {
		left, ok := l.gone[s.By.ID]
		if now.Sub(s.Created) >= l.cfg.Expiry || (s.home != "" && !l.hub.cl.alive(s.home)) ||
			(s.watched && l.present[s.By.ID] == 0 && ok && now.Sub(left) >= l.cfg.Grace) {
			gone = append(gone, s)
		}
	}
	slices.SortFunc(gone, func(a, b *openSeek) int { return cmp.Compare(a.seq, b.seq) })
	for _, s := range gone {
		l.removeLocked(s)
	}
	for v, t := range l.gone {
		if now.Sub(t) >= l.cfg.Grace {
			delete(l.gone, v)
		}
	}
	for id, t := range l.taken {
		if now.Sub(t.at) >= l.cfg.Expiry {
			delete(l.taken, id)
		}
	}
}

// removeLocked closes open seek s and tells the watchers.
func (l *Lobby) removeLocked(s *openSeek) {
	delete(l.seeks, s.ID)
	if s.home == "" {
		if l.byWho[s.By.ID]--; l.byWho[s.By.ID] <= 0 {
			delete(l.byWho, s.By.ID)
		}
		if l.byAddr[s.Addr]--; l.byAddr[s.Addr] <= 0 {
			delete(l.byAddr, s.Addr)
		}
		l.publishLocked("remove", s)
	}
	if s.Private {
		return
	}
	i := slices.Index(l.public, s)
	if i < 0 {
		return
	}
	// The watchers hold the newest Listed seeks: when s was one of them,
	// the next older seek takes its place at the end of their list.
	var next *openSeek
	if n := len(l.public); n-1-i < l.cfg.Listed && n > l.cfg.Listed {
		next = l.public[n-1-l.cfg.Listed]
	}
	l.public = slices.Delete(l.public, i, i+1)
	total := len(l.public)
	if next == nil {
		b := mustJSON(seekRemovedMsg{Type: "seek_removed", ID: s.ID, Total: total})
		l.notifyLocked(func(string) []byte { return b }, "")
		return
	}
	l.notifyLocked(func(viewer string) []byte {
		j := next.JSONFor(viewer)
		return mustJSON(seekRemovedMsg{Type: "seek_removed", ID: s.ID, Total: total, Next: &j})
	}, next.By.ID, func(sub *LobbySub) bool { return visible(next.Seek, sub.marked) })
	b := mustJSON(seekRemovedMsg{Type: "seek_removed", ID: s.ID, Total: total})
	l.notifyLocked(func(string) []byte { return b }, "", func(sub *LobbySub) bool { return !visible(next.Seek, sub.marked) })
}

// The lobby's messages (docs/api.md, "The lobby websocket").
type seeksMsg struct {
	Type  string     `json:"type"`
	Seeks []SeekJSON `json:"seeks"`
	Total int        `json:"total"`
	Limit int        `json:"limit"`
}

type seekAddedMsg struct {
	Type  string   `json:"type"`
	Seek  SeekJSON `json:"seek"`
	Total int      `json:"total"`
}

type seekRemovedMsg struct {
	Type  string    `json:"type"`
	ID    string    `json:"id"`
	Total int       `json:"total"`
	Next  *SeekJSON `json:"next,omitempty"`
}

// LobbySub is a lobby watcher.
type LobbySub struct {
	viewer  string
	marked  bool // the viewer's account is marked (LobbyConfig.Marked)
	out     chan []byte
	dropped bool // guarded by Lobby.mu
}

// Out returns the lobby messages; it is closed by Unsubscribe, or when the
// watcher was too slow to keep up (Dropped).
func (s *LobbySub) Out() <-chan []byte { return s.out }

// Subscribe adds a watcher (viewer is a Seat.ID, "" for nobody) and sends
// it the newest seeks.
func (l *Lobby) Subscribe(viewer string) *LobbySub {
	return l.SubscribeAs(viewer, false)
}

// SubscribeAs is Subscribe for a viewer whose pool is known: a marked
// account (LobbyConfig.Marked) is sent the rated seeks of marked accounts
// only.
func (l *Lobby) SubscribeAs(viewer string, marked bool) *LobbySub {
	s := &LobbySub{viewer: viewer, marked: marked, out: make(chan []byte, l.cfg.WatcherBuffer)}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs[s] = true
	if viewer != "" {
		l.present[viewer]++
		delete(l.gone, viewer)
		for _, o := range l.seeks {
			if o.By.ID == viewer {
				o.watched = true
			}
		}
	}
	list := l.listLocked(marked)
	js := make([]SeekJSON, len(list))
	for i, sk := range list {
		js[i] = sk.JSONFor(viewer)
	}
	s.out <- mustJSON(seeksMsg{Type: "seeks", Seeks: js, Total: len(l.public), Limit: l.cfg.Listed})
	return s
}

// Unsubscribe removes s and closes its channel.
func (l *Lobby) Unsubscribe(s *LobbySub) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs[s] {
		l.dropLocked(s)
	}
}

// Dropped reports whether s was dropped for being too slow.
func (l *Lobby) Dropped(s *LobbySub) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return s.dropped
}

func (l *Lobby) dropLocked(s *LobbySub) {
	delete(l.subs, s)
	close(s.out)
	if s.viewer == "" {
		return
	}
	if l.present[s.viewer]--; l.present[s.viewer] <= 0 {
		delete(l.present, s.viewer)
		l.gone[s.viewer] = l.cfg.Now()
	}
}

// sendLocked queues b for s, dropping s when its queue is full.
func (l *Lobby) sendLocked(s *LobbySub, b []byte) {
	select {
	case s.out <- b:
	default:
		s.dropped = true
		l.dropLocked(s)
	}
}

// notifyLocked sends every watcher msg(""), encoded once, except the
// watchers of viewer own, who get msg(own); with a filter, only the
// watchers it lets through.
func (l *Lobby) notifyLocked(msg func(viewer string) []byte, own string, filter ...func(*LobbySub) bool) {
	all := msg("")
	var mine []byte
	for s := range l.subs {
		if len(filter) > 0 && !filter[0](s) {
			continue
		}
		b := all
		if own != "" && s.viewer == own {
			if mine == nil {
				mine = msg(own)
			}
			b = mine
		}
		l.sendLocked(s, b)
	}
}

// CancelAll closes every open seek this node holds of by (a Seat.ID), as
// when his account closes, and returns how many.
func (l *Lobby) CancelAll(by string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, s := range l.seeks {
		if s.By.ID == by && s.home == "" {
			l.removeLocked(s)
			n++
		}
	}
	return n
}
