package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/events"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Where the site keeps the account's privacy (internal/privacy): the
// server builds the service over the store, and asks it in the lobby (a
// blocked user's seeks are hidden and cannot be accepted), in the chats
// (kid mode refuses and hides them; a blocked user's lines are hidden and
// he cannot write in one's players' room), in the bot API (challenges and
// chat) and on the profiles (closed, blocked). Without a store (s.privacy
// nil) all of it is off.

// newPrivacy returns the privacy service over the store of cfg's archive,
// or nil without one.
func (s *Server) newPrivacy() *privacy.Service {
	sa, ok := s.cfg.Archive.(StoreArchive)
	if !ok || sa.S == nil {
		return nil
	}
	cfg := privacy.Config{Store: sa.S, Kit: s, ClearSession: s.clearCookie, Leave: s.leaveOnClose,
		Record: func(ctx context.Context, id string) (*toguz.Game, error) {
			g, _, err := s.archive.Record(ctx, id)
			return g, err
		}}
	if aa, ok := s.cfg.Accounts.(AuthAccounts); ok && aa.A != nil {
		cfg.CheckPassword = func(ctx context.Context, name, password, ip string) error {
			_, err := aa.A.Login(ctx, name, password, ip)
			return err
		}
	}
	return privacy.New(cfg)
}

// leaveOnClose withdraws a closing account from what runs in memory: its
// games being played (aborted where the rules let it, else resigned), its
// seeks, its challenges, the events it is in (an event's rules decide
// what a withdrawal after the start means).
func (s *Server) leaveOnClose(ctx context.Context, uid int64, name string) {
	seat := game.UserSeat(uid, name).ID
	if s.cfg.Hub != nil {
		who := live.Chatter{ID: seat, Name: name}
		for _, sp := range s.cfg.Hub.GamesOf(seat) {
			if err := s.cfg.Hub.Act(ctx, sp.ID, who, live.ClientMsg{Type: "abort"}); err != nil {
				if err := s.cfg.Hub.Act(ctx, sp.ID, who, live.ClientMsg{Type: "resign"}); err != nil {
					s.log.Warn("close account: leave game", "user", uid, "game", sp.ID, "err", err)
				}
			}
		}
	}
	if s.cfg.Lobby != nil {
		s.cfg.Lobby.CancelAll(seat)
	}
	if s.bots != nil {
		s.bots.WithdrawUser(uid)
	}
	if s.cfg.Events != nil {
		for _, e := range s.cfg.Events.List() {
			if en := e.EntryOf(uid); en != nil && !en.Withdrawn && e.Status != events.Finished {
				if _, err := s.cfg.Events.Withdraw(ctx, e.ID, uid); err != nil {
					s.log.Warn("close account: leave event", "user", uid, "event", e.ID, "err", err)
				}
			}
		}
	}
}

// kid reports whether id is an account in kid mode.
func (s *Server) kid(ctx context.Context, id site.Identity) bool {
	return s.privacy != nil && id.Account.ID != 0 && s.privacy.Kid(ctx, id.Account.ID)
}

// errKidChat is the refusal of a chat to an account in kid mode.
func errKidChat() *apierr.Error {
	return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "privacy.refused.chat_kid")
}

// blockedWith returns the accounts id blocks or is blocked by, by id and
// by name (nil for a guest or without privacy).
func (s *Server) blockedWith(ctx context.Context, id site.Identity) (map[int64]bool, map[string]bool) {
	if s.privacy == nil || id.Account.ID == 0 {
		return nil, nil
	}
	ids, names, err := s.privacy.BlockedWith(ctx, id.Account.ID)
	if err != nil {
		s.log.Warn("privacy: blocks", "user", id.Account.ID, "err", err)
	}
	return ids, names
}

// mayAcceptSeek refuses id a seek of someone who blocks him or whom he
// blocks.
func (s *Server) mayAcceptSeek(ctx context.Context, id site.Identity, sk live.Seek) error {
	if s.privacy == nil || id.Account.ID == 0 || sk.By.UserID == 0 {
		return nil
	}
	b, err := s.privacy.Blocked(ctx, id.Account.ID, sk.By.UserID)
	if err != nil {
		return err
	}
	if b {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "privacy.refused.blocked")
	}
	return nil
}

// visibleSeeks leaves out of list the seeks of the users blocked either
// way with the viewer.
func visibleSeeks(list []live.Seek, blocked map[int64]bool) []live.Seek {
	if len(blocked) == 0 {
		return list
	}
	out := list[:0:0]
	for _, sk := range list {
		if !blocked[sk.By.UserID] {
			out = append(out, sk)
		}
	}
	return out
}

// gameGate checks a message of id in game gameID that reaches his
// opponent: an account in kid mode does not chat; a player does not write
// to an opponent he is blocked with (or who is in kid mode), nor offer
// him or accept from him a rematch across a block.
func (s *Server) gameGate(ctx context.Context, id site.Identity, gameID, typ string, spectator bool) error {
	if s.privacy == nil || id.Account.ID == 0 {
		return nil
	}
	if typ != "chat" {
		return s.mayRematch(ctx, id.Account.ID, id.Account.Name, gameID)
	}
	if s.privacy.Kid(ctx, id.Account.ID) {
		return errKidChat()
	}
	if spectator {
		return nil
	}
	return s.mayChatTo(ctx, id.Account.ID, id.Account.Name, gameID)
}

// mayRematch refuses a rematch between players blocked either way.
func (s *Server) mayRematch(ctx context.Context, user int64, name, gameID string) error {
	other, err := s.opponent(ctx, name, gameID)
	if err != nil || other == 0 {
		return err
	}
	b, err := s.privacy.Blocked(ctx, user, other)
	if err != nil {
		return err
	}
	if b {
		return apierr.New(http.StatusForbidden, apierr.CodeForbidden, "privacy.refused.blocked")
	}
	return nil
}

// opponent returns the account of the other player of game gameID than
// name (0: a guest, the engine, or no such game here).
func (s *Server) opponent(ctx context.Context, name, gameID string) (int64, error) {
	st, err := s.cfg.Hub.State(ctx, gameID)
	if err != nil {
		return 0, nil // the hub answers for a game it does not have
	}
	other := st.White
	if strings.EqualFold(other.Name, name) {
		other = st.Black
	}
	if other.Guest || other.EngineLevel > 0 || other.Name == "" {
		return 0, nil
	}
	u, err := s.privacy.UserByName(ctx, other.Name)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil
	}
	return u.ID, err
}

// mayChatTo checks user's line in the players' room of game gameID
// against his opponent's privacy.
func (s *Server) mayChatTo(ctx context.Context, user int64, name, gameID string) error {
	other, err := s.opponent(ctx, name, gameID)
	if err != nil || other == 0 {
		return err
	}
	return s.privacy.May(ctx, user, other, privacy.Chat)
}

// chatFilter returns what a connection of a kid (no chat at all) or of
// an account with blocks (no line of theirs) is sent of message b: b, a
// rewritten chat history, or nil for nothing.
func chatFilter(kid bool, blocked map[string]bool) func(b []byte) []byte {
	if !kid && len(blocked) == 0 {
		return nil
	}
	return func(b []byte) []byte {
		isLine, isHistory := hasType(b, "chat"), hasType(b, "chat_history")
		if !isLine && !isHistory {
			return b
		}
		if kid {
			return nil
		}
		if isLine {
			var m live.ChatJSON
			if json.Unmarshal(b, &m) == nil && blocked[m.By] {
				return nil
			}
			return b
		}
		var h struct {
			Type     string          `json:"type"`
			Room     string          `json:"room"`
			Messages []live.ChatJSON `json:"messages"`
		}
		if json.Unmarshal(b, &h) != nil {
			return b
		}
		kept := h.Messages[:0]
		for _, m := range h.Messages {
			if !blocked[m.By] {
				kept = append(kept, m)
			}
		}
		h.Messages = kept
		out, err := json.Marshal(h)
		if err != nil {
			return b
		}
		return out
	}
}

// seekFilter returns what a lobby watcher blocked with the users of names
// is sent of message b: nil for a seek of theirs, and a removal without
// the seek that comes into the list in its place when that one is theirs.
func seekFilter(blocked map[string]bool) func(b []byte) []byte {
	if len(blocked) == 0 {
		return nil
	}
	return func(b []byte) []byte {
		switch {
		case hasType(b, "seek_added"):
			var m struct {
				Seek live.SeekJSON `json:"seek"`
			}
			if json.Unmarshal(b, &m) == nil && blocked[m.Seek.By] {
				return nil
			}
		case hasType(b, "seek_removed"):
			var m struct {
				Type  string         `json:"type"`
				ID    string         `json:"id"`
				Total int            `json:"total"`
				Next  *live.SeekJSON `json:"next,omitempty"`
			}
			if json.Unmarshal(b, &m) == nil && m.Next != nil && blocked[m.Next.By] {
				m.Next = nil
				if out, err := json.Marshal(m); err == nil {
					return out
				}
			}
		}
		return b
	}
}

// hasType reports whether the JSON message b is of type typ (the
// messages of live begin with their type).
func hasType(b []byte, typ string) bool {
	return strings.HasPrefix(string(b[:min(len(b), 40)]), `{"type":"`+typ+`"`)
}

// privacyGate is the bot API's botapi.Privacy.
type privacyGate struct{ s *Server }

func (g privacyGate) MayChallenge(ctx context.Context, by, to int64, rating int) error {
	if g.s.privacy == nil {
		return nil
	}
	return g.s.privacy.MayChallenge(ctx, by, to, rating)
}

func (g privacyGate) MayChat(ctx context.Context, user int64, gameID string) error {
	if g.s.privacy == nil {
		return nil
	}
	if g.s.privacy.Kid(ctx, user) {
		return errKidChat()
	}
	u, err := g.s.privacy.UserByID(ctx, user)
	if err != nil {
		return err
	}
	return g.s.mayChatTo(ctx, user, u.Name, gameID)
}

func (g privacyGate) MaySeeOnline(ctx context.Context, viewer, user int64) bool {
	if g.s.privacy == nil {
		return true
	}
	return g.s.privacy.May(ctx, viewer, user, privacy.SeeOnline) == nil
}

// profileRelations is the profiles' profile.Relations.
type profileRelations struct{ p *privacy.Service }

func (pr profileRelations) Closed(ctx context.Context, name string) (bool, error) {
	_, closed, err := pr.p.ClosedByName(ctx, name)
	return closed, err
}

func (pr profileRelations) Blocks(ctx context.Context, viewer int64, name string) (bool, error) {
	return pr.p.Blocks(ctx, viewer, name)
}
