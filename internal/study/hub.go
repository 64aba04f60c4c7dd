package study

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Store keeps the chapters of the studies (internal/store).
type Store interface {
	// Chapters returns a study's chapters in order: names and records.
	Chapters(ctx context.Context, study string) (names, records []string, err error)
	// SaveChapter stores chapter index (from 0) of a study, adding it when
	// it is the next one.
	SaveChapter(ctx context.Context, study string, index int, name, record string) error
}

// At is a position of a study: a chapter and a move's path in it.
type At struct {
	Chapter int   `json:"chapter"`
	Path    []int `json:"path"`
}

// Hub holds the studies being followed, one room each, with their
// chapters in memory. Locking: Hub.mu guards the map of rooms and is held
// while a room is loaded from the store (bounded by the caller's ctx);
// room.mu guards a room's chapters, position, version and followers, and
// is held while an op is applied, stored and sent, so every follower gets
// the edits in the order the store has them. Hub.mu is taken before
// room.mu, never after.
type Hub struct {
	store Store
	mu    sync.Mutex
	rooms map[string]*room
}

type room struct {
	mu       sync.Mutex
	chapters []*Chapter
	at       At
	version  int
	subs     map[*Sub]struct{}
}

// Sub is one follower's connection: the messages to send it, in order.
type Sub struct {
	out     chan []byte
	dropped bool // out was closed because the follower did not read
}

// Out is the follower's messages; it is closed when the follower falls
// behind (Dropped) or leaves.
func (s *Sub) Out() <-chan []byte { return s.out }

// subBuffer is the messages a follower may have waiting before he is dropped.
const subBuffer = 64

// NewHub returns a hub over store.
func NewHub(store Store) *Hub { return &Hub{store: store, rooms: map[string]*room{}} }

// load returns the room of study id, loaded if needed; h.mu is held.
func (h *Hub) load(ctx context.Context, id string) (*room, error) {
	if r := h.rooms[id]; r != nil {
		return r, nil
	}
	names, records, err := h.store.Chapters(ctx, id)
	if err != nil {
		return nil, err
	}
	r := &room{subs: map[*Sub]struct{}{}}
	for i := range names {
		c, err := ReadChapter(names[i], records[i])
		if err != nil {
			return nil, fmt.Errorf("study %s chapter %d: %w", id, i, err)
		}
		r.chapters = append(r.chapters, c)
	}
	return r, nil
}

// Join adds a follower to study id and returns him with the study as it
// is (the first message he gets).
func (h *Hub) Join(ctx context.Context, id string) (*Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, err := h.load(ctx, id)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.subs) >= MaxFollowers {
		return nil, fmt.Errorf("%w: %d followers", ErrTooMany, MaxFollowers)
	}
	h.rooms[id] = r
	s := &Sub{out: make(chan []byte, subBuffer)}
	r.subs[s] = struct{}{}
	s.out <- r.snapshot()
	return s, nil
}

// Leave removes a follower; the last one's leaving unloads the study.
func (h *Hub) Leave(id string, s *Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[id]
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.subs[s]; ok {
		delete(r.subs, s)
		if !s.dropped {
			close(s.out)
		}
	}
	if len(r.subs) == 0 {
		delete(h.rooms, id)
	}
}

// Dropped reports whether s was closed for falling behind.
func (h *Hub) Dropped(id string, s *Sub) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[id]; r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	return s.dropped
}

// Edit applies op to study id (the caller has checked that by may edit
// it), stores the chapter it changed and sends it to the followers.
func (h *Hub) Edit(ctx context.Context, id, by string, op Op) error {
	h.mu.Lock()
	r, err := h.load(ctx, id)
	if err != nil {
		h.mu.Unlock()
		return err
	}
	r.mu.Lock()
	h.mu.Unlock()
	defer r.mu.Unlock()
	// The chapter is applied to a copy read back from its record, so that
	// an op the store refuses leaves the room as stored.
	work := make([]*Chapter, len(r.chapters))
	copy(work, r.chapters)
	if op.Op != "chapter" && op.Chapter >= 0 && op.Chapter < len(work) {
		rec, err := work[op.Chapter].Record()
		if err != nil {
			return err
		}
		if work[op.Chapter], err = ReadChapter(work[op.Chapter].Name, rec); err != nil {
			return err
		}
	}
	work, i, err := Apply(work, op)
	if err != nil {
		return err
	}
	rec, err := work[i].Record()
	if err != nil {
		return err
	}
	// A chapter is stored only if it reads back: a study must never hold
	// a record it cannot open.
	if _, err := ReadChapter(work[i].Name, rec); err != nil {
		return fmt.Errorf("%w: %w", ErrBadOp, err)
	}
	if err := h.store.SaveChapter(ctx, id, i, work[i].Name, rec); err != nil {
		return err
	}
	r.chapters = work
	r.version++
	if op.Op == "chapter" || op.Op == "move" {
		// The editor's board goes where he played (or to the new chapter).
		r.at = At{Chapter: i, Path: op.Path}
		if op.Op == "move" {
			r.at.Path = append(append([]int{}, op.Path...), op.Hole)
		} else {
			r.at.Path = []int{}
		}
	}
	r.broadcast(mustJSON(map[string]any{"type": "chapter", "index": i, "chapter": work[i].JSON(),
		"count": len(work), "version": r.version, "by": by, "op": op.Op, "at": r.at}))
	return nil
}

// Goto moves the study's shown position (what a follower with sync on
// sees) and tells the followers.
func (h *Hub) Goto(id, by string, at At) error {
	h.mu.Lock()
	r := h.rooms[id]
	if r == nil {
		h.mu.Unlock()
		return fmt.Errorf("%w: study %s is not open", ErrNoChapter, id)
	}
	r.mu.Lock()
	h.mu.Unlock()
	defer r.mu.Unlock()
	if at.Chapter < 0 || at.Chapter >= len(r.chapters) {
		return fmt.Errorf("%w: %d", ErrNoChapter, at.Chapter)
	}
	if _, _, err := r.chapters[at.Chapter].Find(at.Path); err != nil {
		return err
	}
	if at.Path == nil {
		at.Path = []int{}
	}
	r.at = at
	r.broadcast(mustJSON(map[string]any{"type": "position", "at": at, "by": by}))
	return nil
}

// snapshot is the study as a follower first sees it; r.mu is held.
func (r *room) snapshot() []byte {
	cs := make([]ChapterJSON, len(r.chapters))
	for i, c := range r.chapters {
		cs[i] = c.JSON()
	}
	at := r.at
	if at.Path == nil {
		at.Path = []int{}
	}
	return mustJSON(map[string]any{"type": "study", "chapters": cs, "at": at, "version": r.version})
}

// broadcast sends b to every follower; one who does not read is dropped
// (his connection closes, and he reconnects for a new snapshot). r.mu is
// held.
func (r *room) broadcast(b []byte) {
	for s := range r.subs {
		select {
		case s.out <- b:
		default:
			delete(r.subs, s)
			s.dropped = true
			close(s.out)
		}
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of JSON values: cannot fail
	}
	return b
}
