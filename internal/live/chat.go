package live

import (
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/apierr"
)

// Chat: the players' room and the spectators' room of each game, and the
// lobby's room (LobbyChat). As on lichess, the players' room is seen by the
// two players only and the spectators' room by the spectators only, so a
// spectator cannot whisper to a player during the game. A message is text,
// never HTML (the pages insert it as text), at most MaxChatRunes runes
// after control and bidi characters are removed; each room keeps its last
// Config.ChatHistory messages in memory (a restart forgets them, as it
// forgets seeks), sent to whoever joins. Messages are rate-limited per
// identity and per client address (Config.ChatPerIdentity and
// ChatPerAddress: guest identities cost nothing, so the address bounds
// what one machine can send).

// MaxChatRunes is the longest chat message, in runes.
const MaxChatRunes = 140

// DefaultChatHistory is the number of messages a room keeps.
const DefaultChatHistory = 50

// The chat rooms.
const (
	RoomPlayers    = "players"
	RoomSpectators = "spectators"
	RoomLobby      = "lobby"
)

// ChatLimiter is a set of token buckets by key: auth.Limiter.
type ChatLimiter interface {
	Allow(key string) bool
}

// ChatJSON is one chat message as the API shows it.
type ChatJSON struct {
	Type string `json:"type"` // "chat"
	Room string `json:"room"`
	By   string `json:"by"` // the author's name
	Text string `json:"text"`
	AtMS int64  `json:"at_ms"`
}

type chatHistoryMsg struct {
	Type     string     `json:"type"` // "chat_history"
	Room     string     `json:"room"`
	Messages []ChatJSON `json:"messages"`
}

// CleanChat returns text as it is posted: control and bidi-override
// characters removed, white space runs made one space, trimmed; an error
// when nothing is left or it is longer than MaxChatRunes.
func CleanChat(text string) (string, *Error) {
	var b strings.Builder
	space := false
	for _, r := range text {
		switch {
		case r == utf8.RuneError, unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Bidi_Control, r), r == '\u2028', r == '\u2029':
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	s := b.String()
	switch n := utf8.RuneCountInString(s); {
	case n == 0:
		return "", errorf(apierr.CodeChatEmpty, "a chat message needs some text")
	case n > MaxChatRunes:
		return "", errorf(apierr.CodeChatTooLong, "a chat message is at most %d characters; this one has %d", MaxChatRunes, n)
	}
	return s, nil
}

// Chatter is who posts: a Seat.ID, the name shown, and the client address.
type Chatter struct {
	ID, Name, Addr string
}

// chatAllow checks that who may post now: he has an identity and is within
// the rate limits of his identity and of his address.
func (h *Hub) chatAllow(who Chatter) *Error {
	if who.ID == "" || who.Name == "" {
		return errorf(apierr.CodeChatAnonymous, "play as a guest or log in to chat")
	}
	if h.cfg.Muted != nil && h.cfg.Muted(who.ID) {
		return errorf(apierr.CodeChatMuted, "a moderator has turned off your chat")
	}
	if l := h.cfg.ChatPerIdentity; l != nil && !l.Allow(who.ID) {
		return errorf(apierr.CodeChatRateLimited, "you are sending chat messages too fast: wait a few seconds")
	}
	if l := h.cfg.ChatPerAddress; l != nil && !l.Allow(who.Addr) {
		return errorf(apierr.CodeChatRateLimited, "too many chat messages come from your address: wait a few seconds")
	}
	return nil
}

// post checks and cleans a message for room and returns it.
func (h *Hub) post(who Chatter, room, text string) (ChatJSON, *Error) {
	clean, err := CleanChat(text)
	if err != nil {
		return ChatJSON{}, err
	}
	if err := h.chatAllow(who); err != nil {
		return ChatJSON{}, err
	}
	return ChatJSON{Type: "chat", Room: room, By: who.Name, Text: clean, AtMS: time.Now().UnixMilli()}, nil
}

// chatLog is a room's last messages, oldest first, at most max.
type chatLog struct {
	max  int
	msgs []ChatJSON
}

func (l *chatLog) add(m ChatJSON) {
	if len(l.msgs) >= l.max {
		n := copy(l.msgs, l.msgs[len(l.msgs)-l.max+1:])
		l.msgs = l.msgs[:n]
	}
	l.msgs = append(l.msgs, m)
}

// history returns the chat_history message of the room, nil when empty.
func (l *chatLog) history(room string) []byte {
	if len(l.msgs) == 0 {
		return nil
	}
	return mustJSON(chatHistoryMsg{Type: "chat_history", Room: room, Messages: l.msgs})
}

// has reports whether by wrote text among the log's messages.
func (l *chatLog) has(by, text string) bool {
	for _, m := range l.msgs {
		if m.By == by && m.Text == text {
			return true
		}
	}
	return false
}

// historyAll is history, an empty list included.
func (l *chatLog) historyAll(room string) []byte {
	return mustJSON(chatHistoryMsg{Type: "chat_history", Room: room, Messages: append([]ChatJSON{}, l.msgs...)})
}

// LobbyChat is the lobby's chat room: its watchers get the recent messages
// when they subscribe, then each message posted.
//
// Locking: mu guards the log and the watchers; messages are queued without
// blocking while it is held, and a watcher whose queue is full is dropped
// (its client reconnects and gets the history again).
type LobbyChat struct {
	hub    *Hub
	buffer int

	mu   sync.Mutex
	log  chatLog
	subs map[*ChatSub]struct{}
}

// ChatSub is a watcher of the lobby's chat.
type ChatSub struct {
	out     chan []byte
	dropped bool // guarded by LobbyChat.mu
}

// Out returns the chat messages; closed by Unsubscribe or when the watcher
// was too slow.
func (s *ChatSub) Out() <-chan []byte { return s.out }

// NewLobbyChat returns the lobby's room, bounded by h's chat limits.
func NewLobbyChat(h *Hub) *LobbyChat {
	return &LobbyChat{hub: h, buffer: 64, log: chatLog{max: h.cfg.ChatHistory}, subs: map[*ChatSub]struct{}{}}
}

// Subscribe adds a watcher and queues the recent messages for it.
func (lc *LobbyChat) Subscribe() *ChatSub {
	s := &ChatSub{out: make(chan []byte, lc.buffer)}
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.subs[s] = struct{}{}
	if b := lc.log.history(RoomLobby); b != nil {
		s.out <- b
	}
	return s
}

// Unsubscribe removes s and closes its channel.
func (lc *LobbyChat) Unsubscribe(s *ChatSub) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if _, ok := lc.subs[s]; ok {
		delete(lc.subs, s)
		close(s.out)
	}
}

// Dropped reports whether s was dropped for being too slow.
func (lc *LobbyChat) Dropped(s *ChatSub) bool {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return s.dropped
}

// Post checks text from who and sends it to every watcher.
func (lc *LobbyChat) Post(who Chatter, text string) error {
	m, err := lc.hub.post(who, RoomLobby, text)
	if err != nil {
		return err
	}
	b := mustJSON(m)
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.log.add(m)
	for s := range lc.subs {
		select {
		case s.out <- b:
		default:
			s.dropped = true
			delete(lc.subs, s)
			close(s.out)
		}
	}
	return nil
}

// Said reports whether by wrote text among the room's recent messages.
func (lc *LobbyChat) Said(by, text string) bool {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return lc.log.has(by, text)
}

// History returns the recent messages, oldest first.
func (lc *LobbyChat) History() []ChatJSON {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return append([]ChatJSON(nil), lc.log.msgs...)
}
