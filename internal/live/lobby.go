package live

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
)

// Seek is an offer to play: public in the lobby, or private (a challenge by
// link). Seeks live in memory: a restart forgets open seeks, never games.
type Seek struct {
	ID      string
	By      Seat
	TC      clock.TimeControl
	Rated   bool
	Color   string // the creator's colour: "white", "black" or "random"
	Rules   toguz.Rules
	Private bool
	Created time.Time
	GameID  string // set once accepted
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

// MaxSeeks is the most open seeks one person may have.
const MaxSeeks = 5

// Lobby holds the open seeks and tells lobby watchers of changes.
//
// Locking: mu guards seeks, taken and subs. Messages to watchers are queued
// without blocking while mu is held (a full queue drops the message: the
// next change sends the whole list again).
type Lobby struct {
	hub *Hub

	mu    sync.Mutex
	seeks map[string]*Seek   // open seeks
	taken map[string]string  // accepted seek id → game id
	subs  map[*LobbySub]bool // lobby watchers
}

// NewLobby returns an empty lobby whose games are created in h.
func NewLobby(h *Hub) *Lobby {
	return &Lobby{hub: h, seeks: map[string]*Seek{}, taken: map[string]string{}, subs: map[*LobbySub]bool{}}
}

// Add opens a seek and returns it with its id.
func (l *Lobby) Add(s Seek) (Seek, error) {
	switch {
	case s.Rated && s.By.Guest:
		return Seek{}, errorf(CodeGuestRated, "guests play casual games only: sign up to play rated games")
	case s.Rated && s.TC.Kind() == clock.Unlimited:
		return Seek{}, errorf(CodeBadTC, "rated games need a clock")
	case s.Color != "white" && s.Color != "black" && s.Color != "random":
		return Seek{}, errorf(CodeBadRequest, "color must be white, black or random, not %q", s.Color)
	}
	s.ID, s.Created = NewID(), time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.seeks {
		if o.By.ID == s.By.ID {
			n++
		}
	}
	if n >= MaxSeeks {
		return Seek{}, errorf(CodeRateLimited, "you have %d open seeks already", n)
	}
	l.seeks[s.ID] = &s
	l.notifyLocked(nil)
	return s, nil
}

// Cancel closes seek id if by (a Seat.ID) made it.
func (l *Lobby) Cancel(id, by string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.seeks[id]
	switch {
	case !ok:
		return errorf(CodeNotFound, "there is no open seek %q", id)
	case s.By.ID != by:
		return errorf(CodeForbidden, "only its creator may cancel a seek")
	}
	delete(l.seeks, id)
	l.notifyLocked(nil)
	return nil
}

// Get returns seek id (open or taken) and the id of its game once taken.
func (l *Lobby) Get(id string) (Seek, string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s, ok := l.seeks[id]; ok {
		return *s, "", true
	}
	if g, ok := l.taken[id]; ok {
		return Seek{ID: id}, g, true
	}
	return Seek{}, "", false
}

// List returns the open public seeks, newest first.
func (l *Lobby) List() []Seek {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.listLocked()
}

func (l *Lobby) listLocked() []Seek {
	var out []Seek
	for _, s := range l.seeks {
		if !s.Private {
			out = append(out, *s)
		}
	}
	slices.SortFunc(out, func(a, b Seek) int { return b.Created.Compare(a.Created) })
	return out
}

// Accept makes seek id a game between its creator and by and returns the
// game's id.
func (l *Lobby) Accept(ctx context.Context, id string, by Seat) (string, error) {
	l.mu.Lock()
	s, ok := l.seeks[id]
	if !ok {
		_, wasTaken := l.taken[id]
		l.mu.Unlock()
		if wasTaken {
			return "", errorf(CodeSeekGone, "this seek has already been accepted")
		}
		return "", errorf(CodeNotFound, "there is no open seek %q", id)
	}
	switch {
	case s.By.ID == by.ID:
		l.mu.Unlock()
		return "", errorf(CodeOwnSeek, "you cannot accept your own seek")
	case s.Rated && by.Guest:
		l.mu.Unlock()
		return "", errorf(CodeGuestRated, "guests play casual games only: sign up to play rated games")
	}
	delete(l.seeks, id) // nobody else can take it while the game is created
	l.mu.Unlock()

	creatorWhite := s.Color == "white" || (s.Color == "random" && rand.IntN(2) == 0)
	spec := Spec{Rules: s.Rules, TC: s.TC, Rated: s.Rated, White: s.By, Black: by}
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
	l.taken[id] = gid
	l.notifyLocked(mustJSON(struct {
		Type   string `json:"type"`
		SeekID string `json:"seek_id"`
		GameID string `json:"game_id"`
	}{"game_started", id, gid}), s.By.ID, by.ID)
	return gid, nil
}

// LobbySub is a lobby watcher.
type LobbySub struct {
	viewer string
	out    chan []byte
}

// Out returns the lobby messages; it is closed by Unsubscribe.
func (s *LobbySub) Out() <-chan []byte { return s.out }

// Subscribe adds a watcher (viewer is a Seat.ID) and sends it the list.
func (l *Lobby) Subscribe(viewer string) *LobbySub {
	s := &LobbySub{viewer: viewer, out: make(chan []byte, 16)}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs[s] = true
	s.out <- l.listJSONLocked()
	return s
}

// Unsubscribe removes s and closes its channel.
func (l *Lobby) Unsubscribe(s *LobbySub) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs[s] {
		delete(l.subs, s)
		close(s.out)
	}
}

func (l *Lobby) listJSONLocked() []byte {
	list := l.listLocked()
	js := make([]SeekJSON, len(list))
	for i, s := range list {
		js[i] = s.JSON()
	}
	return mustJSON(struct {
		Type  string     `json:"type"`
		Seeks []SeekJSON `json:"seeks"`
	}{"seeks", js})
}

// notifyLocked sends the seek list to every watcher, and extra (if not nil)
// to the watchers who are one of to.
func (l *Lobby) notifyLocked(extra []byte, to ...string) {
	list := l.listJSONLocked()
	for s := range l.subs {
		if extra != nil && slices.Contains(to, s.viewer) {
			select {
			case s.out <- extra:
			default:
			}
		}
		select {
		case s.out <- list:
		default:
		}
	}
}
