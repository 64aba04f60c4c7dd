// Package friends is following players: follow and unfollow from a
// profile (lichess's /api/rel), the players one follows with who of them
// is online and playing (with a link to watch), and each profile's panel
// with its follow button, counts and the player's activity feed (games
// played, puzzles solved, events entered, public studies made).
//
// Invariants:
//   - A follow needs the followed player's leave (privacy.Follow) and no
//     block either way; an account follows at most store.MaxFollows
//     players, and follows at most FollowsPerMinute a minute.
//   - Two accounts that follow each other are friends: internal/privacy's
//     "friends" choice reads the same follows.
//   - Who is online, what he plays and his activity are shown only to
//     those his "online" setting admits (privacy.SeeOnline).
//
// Threat model: a stranger may follow to learn when someone plays; the
// followed player's settings and blocks decide, as above. Writes are
// bounded per account (FollowsPerMinute) and by the site's bounds per
// address.
package friends

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/privacy"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Store is what the package keeps and reads: *store.Store.
type Store interface {
	Follow(ctx context.Context, userID, other int64) error
	Unfollow(ctx context.Context, userID, other int64) error
	Follows(ctx context.Context, userID, other int64) (bool, error)
	Following(ctx context.Context, userID int64, limit, offset int) ([]store.Followed, error)
	Followers(ctx context.Context, userID int64, limit, offset int) ([]store.Followed, error)
	FollowCounts(ctx context.Context, userID int64) (following, followers int, err error)
	UserByName(ctx context.Context, name string) (store.User, error)
	ActivityOf(ctx context.Context, userID int64, from, to time.Time) ([]store.Activity, error)
}

// Privacy is the site's privacy service (privacy.Service).
type Privacy interface {
	May(ctx context.Context, actor, target int64, a privacy.Action) error
}

// Config is what a Site is built from.
type Config struct {
	Store   Store   // required
	Privacy Privacy // required
	// Online reports whether an account has a page of the site open (nil:
	// nobody is shown online).
	Online func(userID int64) bool
	// Playing returns the ids of the games being played with a seat of
	// seatID (live.Hub.GamesOf; nil: none shown).
	Playing func(seatID string) []string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// FollowsPerMinute bounds the follows and unfollows of one account.
const FollowsPerMinute = 30

// PerPage is the length of a page of followed players.
const PerPage = 50

// Site is the follows' pages and API.
type Site struct {
	kit   site.Kit
	cfg   Config
	limit *auth.Limiter
}

// New returns the follows' side of the site.
func New(kit site.Kit, cfg Config) *Site {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Site{kit: kit, cfg: cfg, limit: auth.NewLimiter(rate.Limit(float64(FollowsPerMinute)/60), FollowsPerMinute, cfg.Now)}
}

// Routes registers the pages and the API on r.
func (s *Site) Routes(r site.Router) {
	r.Page("POST /@/{name}/follow", s.pageFollow(true))
	r.Page("POST /@/{name}/unfollow", s.pageFollow(false))
	r.Page("GET /following", s.pageFollowing)
	r.API("POST /api/rel/follow/{name}", s.apiFollow(true))
	r.API("POST /api/rel/unfollow/{name}", s.apiFollow(false))
	r.API("GET /api/rel/following", s.apiFollowing)
}

// ErrorKeys are the messages of the package's errors, for the catalog's
// completeness test.
func ErrorKeys() []string {
	return []string{"friends.err.login", "friends.err.user", "friends.err.self", "friends.err.many", "friends.err.rate", "friends.err.page"}
}

func ctxOf(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

// follow makes account me follow (or unfollow) the player name.
func (s *Site) follow(r *http.Request, on bool) (store.User, error) {
	me := s.kit.Identity(r).Account
	if me.ID == 0 {
		return store.User{}, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "friends.err.login")
	}
	if !s.limit.Allow(strconv.FormatInt(me.ID, 10)) {
		return store.User{}, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "friends.err.rate", FollowsPerMinute)
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	name := r.PathValue("name")
	u, err := s.cfg.Store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return u, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "friends.err.user", site.Excerpt(name))
	} else if err != nil {
		return u, err
	}
	if u.ID == me.ID {
		return u, apierr.BadRequest(apierr.CodeBadRequest, "friends.err.self")
	}
	if !on {
		return u, s.cfg.Store.Unfollow(ctx, me.ID, u.ID)
	}
	if err := s.cfg.Privacy.May(ctx, me.ID, u.ID, privacy.Follow); err != nil {
		return u, err
	}
	if err := s.cfg.Store.Follow(ctx, me.ID, u.ID); errors.Is(err, store.ErrTooMany) {
		return u, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "friends.err.many", store.MaxFollows)
	} else if err != nil {
		return u, err
	}
	return u, nil
}

func (s *Site) pageFollow(on bool) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		u, err := s.follow(r, on)
		if err != nil {
			return err
		}
		return site.Redirect(w, r, "/@/"+u.Name)
	}
}

func (s *Site) apiFollow(on bool) site.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		if _, err := s.follow(r, on); err != nil {
			return err
		}
		return site.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
	}
}

// Friend is a followed player as the list shows him.
type Friend struct {
	Name string `json:"name"`
	// Online and Playing are shown only where his settings let the
	// viewer see him online.
	Online  bool     `json:"online"`
	Playing []string `json:"playing,omitempty"` // game ids
	Hidden  bool     `json:"-"`                 // his settings hide him
}

func pageOf(r *http.Request) (int, error) {
	v := r.URL.Query().Get("page")
	if v == "" {
		return 1, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 1 || p > store.MaxFollows/PerPage+1 {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "friends.err.page", store.MaxFollows/PerPage+1)
	}
	return p, nil
}

// following returns page p of the players me follows, the online and
// playing first, and whether a next page exists.
func (s *Site) following(ctx context.Context, me int64, p int) ([]Friend, bool, error) {
	fs, err := s.cfg.Store.Following(ctx, me, PerPage+1, (p-1)*PerPage)
	if err != nil {
		return nil, false, err
	}
	more := len(fs) > PerPage
	if more {
		fs = fs[:PerPage]
	}
	out := make([]Friend, 0, len(fs))
	for _, f := range fs {
		fr := Friend{Name: f.Name}
		if err := s.cfg.Privacy.May(ctx, me, f.UserID, privacy.SeeOnline); err != nil {
			if !errors.Is(err, privacy.ErrRefused) {
				return nil, false, err
			}
			fr.Hidden = true
		} else {
			if s.cfg.Online != nil {
				fr.Online = s.cfg.Online(f.UserID)
			}
			if s.cfg.Playing != nil {
				fr.Playing = s.cfg.Playing(game.UserSeat(f.UserID, f.Name).ID)
			}
		}
		out = append(out, fr)
	}
	sort.SliceStable(out, func(i, j int) bool {
		rank := func(f Friend) int {
			switch {
			case len(f.Playing) > 0:
				return 0
			case f.Online:
				return 1
			}
			return 2
		}
		return rank(out[i]) < rank(out[j])
	})
	return out, more, nil
}

type followingData struct {
	Friends    []Friend
	Page       int
	Prev, Next int
	Following  int
	Followers  int
}

func (s *Site) pageFollowing(w http.ResponseWriter, r *http.Request) error {
	me := s.kit.Identity(r).Account
	if me.ID == 0 {
		return site.Redirect(w, r, "/login")
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	fs, more, err := s.following(ctx, me.ID, p)
	if err != nil {
		return err
	}
	d := followingData{Friends: fs, Page: p, Prev: p - 1}
	if more {
		d.Next = p + 1
	}
	if d.Following, d.Followers, err = s.cfg.Store.FollowCounts(ctx, me.ID); err != nil {
		return err
	}
	return s.kit.Render(w, http.StatusOK, "following", s.kit.Page(r, "friends.title", d))
}

func (s *Site) apiFollowing(w http.ResponseWriter, r *http.Request) error {
	me := s.kit.Identity(r).Account
	if me.ID == 0 {
		return apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "friends.err.login")
	}
	p, err := pageOf(r)
	if err != nil {
		return err
	}
	ctx, cancel := ctxOf(r)
	defer cancel()
	fs, more, err := s.following(ctx, me.ID, p)
	if err != nil {
		return err
	}
	out := map[string]any{"following": fs, "page": p}
	if more {
		out["next"] = p + 1
	}
	return site.WriteJSON(w, http.StatusOK, out)
}

// ---- a profile's panel ----

// ActivityDay is one day of a player's feed.
type ActivityDay struct {
	Day                        string // 2006-01-02
	Games, Wins, Losses, Draws int
	Puzzles, Solved            int
	Events, Studies            []store.Activity
}

// Panel is the social panel of a profile page.
type Panel struct {
	Name                 string
	CanFollow, Following bool // the viewer is another account; he follows the player
	FollowRefused        bool // the player's settings refuse the viewer's follow
	Followers, Follows   int
	Visible              bool // the viewer may see the player online and his activity
	Online               bool
	Playing              []string
	Activity             []ActivityDay
}

// ActivityDays is how far back the feed goes.
const ActivityDays = 30

// Panel returns the panel of the profile of player (id, name) as viewer
// sees it.
func (s *Site) Panel(ctx context.Context, viewer, player int64, name string) (Panel, error) {
	pn := Panel{Name: name}
	var err error
	if pn.Follows, pn.Followers, err = s.cfg.Store.FollowCounts(ctx, player); err != nil {
		return pn, err
	}
	if viewer != 0 && viewer != player {
		pn.CanFollow = true
		if pn.Following, err = s.cfg.Store.Follows(ctx, viewer, player); err != nil {
			return pn, err
		}
		if err := s.cfg.Privacy.May(ctx, viewer, player, privacy.Follow); err != nil {
			if !errors.Is(err, privacy.ErrRefused) {
				return pn, err
			}
			pn.FollowRefused = true
		}
	}
	if err := s.cfg.Privacy.May(ctx, viewer, player, privacy.SeeOnline); err != nil {
		if !errors.Is(err, privacy.ErrRefused) {
			return pn, err
		}
		return pn, nil
	}
	pn.Visible = true
	if s.cfg.Online != nil {
		pn.Online = s.cfg.Online(player)
	}
	if s.cfg.Playing != nil {
		pn.Playing = s.cfg.Playing(game.UserSeat(player, name).ID)
	}
	now := s.cfg.Now()
	acts, err := s.cfg.Store.ActivityOf(ctx, player, now.AddDate(0, 0, -ActivityDays), now.Add(time.Minute))
	if err != nil {
		return pn, err
	}
	pn.Activity = days(acts)
	return pn, nil
}

// days groups acts by their UTC day, newest first.
func days(acts []store.Activity) []ActivityDay {
	by := map[string]*ActivityDay{}
	for _, a := range acts {
		k := a.At.UTC().Format(time.DateOnly)
		d := by[k]
		if d == nil {
			d = &ActivityDay{Day: k}
			by[k] = d
		}
		switch a.Kind {
		case "game":
			d.Games++
			switch a.Result {
			case "win":
				d.Wins++
			case "loss":
				d.Losses++
			default:
				d.Draws++
			}
		case "puzzle":
			d.Puzzles++
		case "puzzle_solved":
			d.Puzzles++
			d.Solved++
		case "event":
			d.Events = append(d.Events, a)
		case "study":
			d.Studies = append(d.Studies, a)
		}
	}
	out := make([]ActivityDay, 0, len(by))
	for _, d := range by {
		out = append(out, *d)
	}
	sort.Slice(out, func(i, j int) bool { return strings.Compare(out[i].Day, out[j].Day) > 0 })
	return out
}

// PanelByName is Panel for the player name (the profile page's hook).
func (s *Site) PanelByName(ctx context.Context, viewer int64, name string) (any, error) {
	u, err := s.cfg.Store.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	return s.Panel(ctx, viewer, u.ID, u.Name)
}
