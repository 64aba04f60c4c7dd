// Package privacy is an account's privacy and safety, and its leaving:
// who may challenge, message, follow it and see it online; the users it
// blocks; kid mode; closing the account; and the download of all its data.
//
// The rest of the site asks Service.May before one account acts on
// another (a challenge, a message, a follow, a chat line in a game's
// players' room, seeing him online), Service.Kid before it shows or takes
// chat, Service.Blocked before two accounts meet (a seek, a rematch), and
// Service.BlockedWith to leave out the seeks and chat lines of the users
// an account is blocked with. Friends are two accounts that follow each
// other (internal/friends keeps the follows).
//
// Invariants:
//   - A block is one way in the store and both ways in effect: neither
//     may challenge, message, follow or chat to the other, neither sees
//     the other's seeks.
//   - "friends" admits only an account that follows the target and is
//     followed by it.
//   - Kid mode refuses chat and messages both ways; switching it on is
//     free, switching it off takes the account's password, and a coach's
//     lock (his class) takes the coach.
//   - A closed account never logs in again and its name is never taken
//     again (its users row stays); its games show a neutral name.
//
// Threat model: the settings guard against strangers and against the
// blocked user, not against a moderator or the operator. Turning kid mode
// off and closing the account ask for the password (a child at an
// unattended, logged-in browser must not lift his parent's choice; a
// stolen session must not close the account); those checks go through
// auth's login limits (per address and per account). The data export is
// bounded per account (one at a time, ExportsPerDay a day) and streamed.
package privacy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/store"
)

// Action is what one account does to another, that the other's settings
// govern.
type Action string

// The actions May judges.
const (
	Challenge Action = "challenge" // a direct challenge (the bot and board API's; later any)
	Message   Action = "message"   // a private message (not built yet)
	Follow    Action = "follow"    // following (not built yet)
	SeeOnline Action = "online"    // seeing him online
	Chat      Action = "chat"      // a chat line in a room the other reads (a game's players' room)
)

// The choices of a setting.
const (
	Everyone = "everyone"
	Rated    = "rating" // challenges: those rated at least ChallengeRating
	Friends  = "friends"
	Nobody   = "nobody"
)

// Choices lists each setting's choices, in the page's order.
var Choices = map[Action][]string{
	Challenge: {Everyone, Rated, Friends, Nobody},
	Message:   {Everyone, Friends, Nobody},
	Follow:    {Everyone, Nobody},
	SeeOnline: {Everyone, Friends, Nobody},
}

// The bounds of the challenge rating a player may ask for.
const (
	MinChallengeRating = 600
	MaxChallengeRating = 3000
)

// ErrRefused is wrapped by every refusal of May, whatever its reason.
var ErrRefused = errors.New("privacy: refused")

// Store is what the package keeps and reads: *store.Store.
type Store interface {
	PrivacyOf(ctx context.Context, userID int64) (store.Privacy, error)
	SetPrivacy(ctx context.Context, userID int64, p store.Privacy) error
	SetKid(ctx context.Context, userID int64, on bool, lockedBy int64) error
	LockClassKid(ctx context.Context, class string, coachID int64, lock bool) (int, error)
	Block(ctx context.Context, userID, other int64) error
	Unblock(ctx context.Context, userID, other int64) error
	Blocks(ctx context.Context, userID int64) ([]store.Blocked, error)
	BlockedEither(ctx context.Context, a, b int64) (bool, error)
	BlockedWith(ctx context.Context, userID int64) ([]store.Blocked, error)
	CloseAccount(ctx context.Context, userID int64, neutral string) error
	ClosedAccount(ctx context.Context, userID int64) (store.Closed, error)
	ClosedByName(ctx context.Context, name string) (store.Closed, error)
	StartDataExport(ctx context.Context, userID int64, perDay int) error
	ReportsBy(ctx context.Context, seat string, limit int) ([]store.Report, error)
	OwnStudies(ctx context.Context, userID int64) ([]store.Study, error)
	Chapters(ctx context.Context, study string) (names, records []string, err error)
	ClassesOf(ctx context.Context, userID int64) (coached []store.Class, joined []store.Class, accepted []bool, err error)
	UserByID(ctx context.Context, id int64) (store.User, error)
	UserByName(ctx context.Context, name string) (store.User, error)
	Perfs(ctx context.Context, userID int64) ([len(rating.Categories)]store.Perf, error)
	RatingHistory(ctx context.Context, userID int64, cat rating.Category) ([]store.RatingPoint, error)
	GamesByUser(ctx context.Context, userID int64, limit, offset int) ([]store.Game, error)
	Friends(ctx context.Context, a, b int64) (bool, error)
	Following(ctx context.Context, userID int64, limit, offset int) ([]store.Followed, error)
	Conversations(ctx context.Context, userID int64, limit, offset int) ([]store.Conversation, error)
	Thread(ctx context.Context, a, b int64, limit, offset int) ([]store.Message, error)
	Notifications(ctx context.Context, userID int64, limit, offset int) ([]store.Notification, error)
}

// refused is May's answer: a 403 whose message says why, in the asker's
// language.
func refused(key string, args ...any) error {
	e := apierr.New(http.StatusForbidden, apierr.CodeForbidden, key, args...)
	return fmt.Errorf("%w: %w", ErrRefused, e)
}

// Settings is an account's privacy settings as the pages show them.
type Settings struct {
	Challenge       string
	ChallengeRating int
	Message         string
	Follow          string
	Online          string
	Kid             bool
	KidLockedBy     int64
}

func settingsOf(p store.Privacy) Settings {
	or := func(v string) string {
		if v == "" {
			return Everyone
		}
		return v
	}
	return Settings{Challenge: or(p.Challenge), ChallengeRating: p.ChallengeRating, Message: or(p.Message), Follow: or(p.Follow),
		Online: or(p.Online), Kid: p.Kid, KidLockedBy: p.KidLockedBy}
}

// Settings returns user id's settings (the defaults when he never chose).
func (s *Service) Settings(ctx context.Context, userID int64) (Settings, error) {
	p, err := s.st.PrivacyOf(ctx, userID)
	return settingsOf(p), err
}

// May returns nil when actor may do a to target, and an error wrapping
// ErrRefused (an *apierr.Error, 403 forbidden, saying why) when target's
// settings, a block between them, kid mode or a closed account forbid it.
// actor 0 is a guest or nobody: he may only challenge and see online
// those who let everyone. Store errors are returned as they are.
func (s *Service) May(ctx context.Context, actor, target int64, a Action) error {
	return s.may(ctx, actor, target, a, -1)
}

// MayChallenge is May for a challenge in a category where the challenger
// is rated challengerRating (the "rated at least" setting reads it).
func (s *Service) MayChallenge(ctx context.Context, actor, target int64, challengerRating int) error {
	return s.may(ctx, actor, target, Challenge, challengerRating)
}

func (s *Service) may(ctx context.Context, actor, target int64, a Action, rated int) error {
	if target == 0 || actor == target {
		return nil
	}
	t, err := s.barred(ctx, actor, target, a)
	if err != nil {
		return err
	}
	return s.allowed(ctx, actor, target, t, a, rated)
}

// barred refuses a to target whatever his settings say: his account is
// closed, one of the two blocks the other, or (a message, a chat) either
// is in kid mode. It returns target's settings otherwise.
func (s *Service) barred(ctx context.Context, actor, target int64, a Action) (Settings, error) {
	if _, err := s.st.ClosedAccount(ctx, target); err == nil {
		return Settings{}, refused("privacy.refused.closed")
	} else if !errors.Is(err, store.ErrNotFound) {
		return Settings{}, err
	}
	tp, err := s.st.PrivacyOf(ctx, target)
	if err != nil {
		return Settings{}, err
	}
	t := settingsOf(tp)
	if actor != 0 {
		if b, err := s.st.BlockedEither(ctx, actor, target); err != nil {
			return t, err
		} else if b {
			return t, refused("privacy.refused.blocked")
		}
	}
	if a != Message && a != Chat {
		return t, nil
	}
	if t.Kid {
		return t, refused("privacy.refused.kid")
	}
	if actor != 0 {
		ap, err := s.st.PrivacyOf(ctx, actor)
		if err != nil {
			return t, err
		}
		if ap.Kid {
			return t, refused("privacy.refused.kid_self")
		}
	}
	return t, nil
}

// allowed answers a by actor (0: a guest or nobody) to target as target's
// settings t say; rated is actor's rating for a challenge (-1: his best).
func (s *Service) allowed(ctx context.Context, actor, target int64, t Settings, a Action, rated int) error {
	setting := map[Action]string{Challenge: t.Challenge, Message: t.Message, Follow: t.Follow, SeeOnline: t.Online}[a]
	switch setting {
	case "", Everyone:
		if actor == 0 && (a == Message || a == Follow) {
			return refused("privacy.refused.guest")
		}
		return nil
	case Rated:
		if actor == 0 {
			return refused("privacy.refused.rating", t.ChallengeRating)
		}
		if rated < 0 {
			var err error
			if rated, err = s.bestRating(ctx, actor); err != nil {
				return err
			}
		}
		if rated < t.ChallengeRating {
			return refused("privacy.refused.rating", t.ChallengeRating)
		}
		return nil
	case Friends:
		// Friends are two accounts that follow each other.
		if actor != 0 {
			if ok, err := s.st.Friends(ctx, actor, target); err != nil {
				return err
			} else if ok {
				return nil
			}
		}
		return refused("privacy.refused.friends")
	default:
		return refused("privacy.refused.nobody")
	}
}

// bestRating is user id's highest rating among the categories he has
// played rated games in (the default rating when none).
func (s *Service) bestRating(ctx context.Context, userID int64) (int, error) {
	ps, err := s.st.Perfs(ctx, userID)
	if err != nil {
		return 0, err
	}
	best := int(rating.DefaultRating)
	played := false
	for _, p := range ps {
		if p.Games == 0 {
			continue
		}
		if r := int(p.Rating.Rating + 0.5); !played || r > best {
			best, played = r, true
		}
	}
	return best, nil
}

// Kid reports whether user id is in kid mode (false for a guest, 0, and
// on a store error, which is logged: chat stays as it was).
func (s *Service) Kid(ctx context.Context, userID int64) bool {
	if userID == 0 {
		return false
	}
	p, err := s.st.PrivacyOf(ctx, userID)
	if err != nil {
		s.log.Warn("privacy: kid mode", "user", userID, "err", err)
		return false
	}
	return p.Kid
}

// Blocked reports whether a blocks b or b blocks a (false when either is
// 0, a guest).
func (s *Service) Blocked(ctx context.Context, a, b int64) (bool, error) {
	if a == 0 || b == 0 || a == b {
		return false, nil
	}
	return s.st.BlockedEither(ctx, a, b)
}

// Closed returns the closing of user id, or false when his account is
// open.
func (s *Service) Closed(ctx context.Context, userID int64) (store.Closed, bool, error) {
	c, err := s.st.ClosedAccount(ctx, userID)
	if errors.Is(err, store.ErrNotFound) {
		return c, false, nil
	}
	return c, err == nil, err
}

// ClosedByName returns the closed account of a name (its own or its
// neutral one), or false.
func (s *Service) ClosedByName(ctx context.Context, name string) (store.Closed, bool, error) {
	c, err := s.st.ClosedByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return c, false, nil
	}
	return c, err == nil, err
}

// BlockedWith returns the users userID blocks or is blocked by, by id
// and by name: their seeks and chat lines are not shown to him.
func (s *Service) BlockedWith(ctx context.Context, userID int64) (map[int64]bool, map[string]bool, error) {
	bl, err := s.st.BlockedWith(ctx, userID)
	if err != nil || len(bl) == 0 {
		return nil, nil, err
	}
	ids, names := make(map[int64]bool, len(bl)), make(map[string]bool, len(bl))
	for _, b := range bl {
		ids[b.UserID], names[b.Name] = true, true
	}
	return ids, names, nil
}

// Blocks reports whether account viewer blocks the player name.
func (s *Service) Blocks(ctx context.Context, viewer int64, name string) (bool, error) {
	bl, err := s.st.Blocks(ctx, viewer)
	if err != nil {
		return false, err
	}
	for _, b := range bl {
		if strings.EqualFold(b.Name, name) {
			return true, nil
		}
	}
	return false, nil
}

// UserByName and UserByID read an account (the server's gates name the
// other side of a game by name).
func (s *Service) UserByName(ctx context.Context, name string) (store.User, error) {
	return s.st.UserByName(ctx, name)
}

// UserByID reads an account.
func (s *Service) UserByID(ctx context.Context, id int64) (store.User, error) {
	return s.st.UserByID(ctx, id)
}
