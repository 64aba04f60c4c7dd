// Package forum is the site's forum, /forum: categories (the general one,
// one per language, one per team), topics and their posts written in
// Markdown, with boards drawn from position strings and games embedded from
// their links; editing by the author for EditWindow, the edits kept for the
// moderators; quoting; reports into the moderators' queue; the moderators'
// hiding of posts, locking and moving of topics, each in their audit log;
// search; a notice of each reply to the topic's earlier writers. Its store
// port is Store, which *store.Store satisfies.
//
// Invariants and threat model: a post is kept as its author wrote it and
// rendered when shown: goldmark's HTML (raw HTML in the text is dropped)
// goes through bluemonday's policy for user content, and only then are the
// embeds put in, each drawn by the server from the rules library (a board's
// SVG has no script), so no text a user writes reaches a page unescaped. An
// embed whose input is bad shows its error in its place. A team's category
// is read and written by the team's members only (Config.Member), and no
// search reads it. Only accounts write, and not in kid mode; each write is
// bounded per account a minute and a day (stricter for accounts younger
// than NewAccount), a text's size and its embeds are bounded, and the
// search is bounded per account or address, in length and in pages.
package forum

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/notify"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"golang.org/x/time/rate"
)

// Store is what the forum keeps and reads: *store.Store.
type Store interface {
	EnsureForumCategory(ctx context.Context, c store.ForumCategory) error
	ForumCategoryStats(ctx context.Context, ids []string) (map[string]store.ForumCategoryStat, error)
	ForumTopics(ctx context.Context, category string, limit, offset int) ([]store.ForumTopic, int, error)
	ForumTopic(ctx context.Context, id int64) (store.ForumTopic, error)
	ForumPosts(ctx context.Context, topicID int64, limit, offset int) ([]store.ForumPost, error)
	ForumPost(ctx context.Context, id int64) (store.ForumPost, error)
	AddForumTopic(ctx context.Context, cat store.ForumCategory, t store.ForumTopic, body string, b store.ForumBounds) (int64, int64, error)
	AddForumPost(ctx context.Context, p store.ForumPost, b store.ForumBounds) (int64, error)
	EditForumPost(ctx context.Context, id, authorID int64, body string, since time.Time) error
	ForumEdits(ctx context.Context, id int64) ([]store.ForumEdit, error)
	ForumWriters(ctx context.Context, topicID int64, limit int) ([]int64, error)
	ReportForumPost(ctx context.Context, id, reporterID int64, note string) (bool, error)
	ForumReports(ctx context.Context, limit int) ([]store.ForumReport, error)
	ModerateForum(ctx context.Context, m store.ForumModeration) error
	SearchForum(ctx context.Context, q string, categories []string, limit, offset int) ([]store.ForumHit, error)
	AddModReport(ctx context.Context, r store.ModReport, lim store.ModReportLimits) (int64, bool, error)
	UserByID(ctx context.Context, id int64) (store.User, error)
	Game(ctx context.Context, id string) (store.Game, error)
	Moves(ctx context.Context, gameID string) ([]store.Move, error)
}

var _ Store = (*store.Store)(nil)

// The bounds and windows (docs/forum.md).
const (
	// EditWindow is how long after writing a post its author may edit it.
	EditWindow = 15 * time.Minute
	// MaxTitle and MaxText bound a topic's title and a post's text, in
	// characters; MaxEmbeds the boards and games one post embeds.
	MaxTitle  = 120
	MaxText   = 10000
	MaxEmbeds = 4
	// PostsPerMinute, PostsPerDay and TopicsPerDay bound what an account
	// writes (a topic's first post counts as a post); an account younger
	// than NewAccount has the New… bounds.
	PostsPerMinute    = 3
	PostsPerDay       = 60
	TopicsPerDay      = 10
	NewAccount        = 72 * time.Hour
	NewPostsPerMinute = 1
	NewPostsPerDay    = 10
	NewTopicsPerDay   = 2
	// ReportsPerUser and ReportsPerAddr bound the reports one account and
	// one address file a day (into the moderators' queue, whose bounds
	// they are: internal/moderation).
	ReportsPerUser = 10
	ReportsPerAddr = 30
	MaxNote        = 1000
	// TopicsPage and PostsPage are the lists' pages; SearchPage the
	// search's, and MaxSearchPages the deepest page a search reads.
	TopicsPage     = 30
	PostsPage      = 20
	SearchPage     = 20
	MaxSearchPages = 10
	// MinQuery and MaxQuery bound a search's words, in characters;
	// SearchesPerMinute the searches of one account or address (a burst
	// of SearchBurst).
	MinQuery          = 2
	MaxQuery          = 100
	SearchesPerMinute = 10
	SearchBurst       = 5
	// Notified is the most earlier writers a reply tells.
	Notified = 50
	// ReportsShown is the most open reports the moderators' list shows.
	ReportsShown = 100
)

// ReportReason is the reason of a post's report in the moderators' queue
// (store.ModReport.Reason; its words are "mod.reason.forum").
const ReportReason = "forum"

// Kinds of category.
const (
	KindGeneral = "general"
	KindLang    = "lang"
	KindTeam    = "team"
)

// Langs are the languages with a category of their own (the Kazakh one
// is read in both its scripts).
var Langs = []string{"kk", "ky", "ru", "en"}

// teamPrefix starts a team's category id; teamID is what a team's id may be.
const teamPrefix = "team-"

var teamID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// Category is one of the forum's categories.
type Category struct {
	ID   string
	Kind string
	Ref  string // the language or the team
}

// Public reports whether anyone may read the category.
func (c Category) Public() bool { return c.Kind != KindTeam }

func (c Category) row() store.ForumCategory {
	return store.ForumCategory{ID: c.ID, Kind: c.Kind, Ref: c.Ref}
}

// ParseCategory reads a category's id: general, a language of Langs, or
// team-<id>; ok is false for anything else.
func ParseCategory(id string) (Category, bool) {
	switch {
	case id == KindGeneral:
		return Category{ID: id, Kind: KindGeneral}, true
	case slices.Contains(Langs, id):
		return Category{ID: id, Kind: KindLang, Ref: id}, true
	case strings.HasPrefix(id, teamPrefix) && teamID.MatchString(id[len(teamPrefix):]):
		return Category{ID: id, Kind: KindTeam, Ref: id[len(teamPrefix):]}, true
	}
	return Category{}, false
}

// TeamCategory is the category of team.
func TeamCategory(team string) string { return teamPrefix + team }

// PublicCategories are the categories anyone reads, in the forum's order.
func PublicCategories() []Category {
	out := []Category{{ID: KindGeneral, Kind: KindGeneral}}
	for _, l := range Langs {
		out = append(out, Category{ID: l, Kind: KindLang, Ref: l})
	}
	return out
}

// Config is what a Forum is built from.
type Config struct {
	Store Store
	// Notify tells the earlier writers of a topic of a reply (nil: nobody).
	Notify notify.Sender
	// Member reports whether user is a member of team: the team's
	// category is his to read and write (nil: no team has a category).
	Member func(ctx context.Context, team string, user int64) (bool, error)
	// TeamName returns a team's name for its category's title, "" when
	// it has none (the id is shown then).
	TeamName func(ctx context.Context, team string) string
	// Moderator reports whether the account has the moderator role (nil: none).
	Moderator func(userID int64) bool
	// Kid reports whether the account is in kid mode: it reads, never
	// writes or reports (nil: none is).
	Kid func(ctx context.Context, userID int64) bool
	// Muted reports whether a moderator muted the account: it neither
	// chats nor writes in the forum (nil: none is).
	Muted  func(userID int64) bool
	Logger *slog.Logger
	Now    func() time.Time // default time.Now
}

// Forum answers the forum's pages and API.
type Forum struct {
	kit      site.Kit
	cfg      Config
	log      *slog.Logger
	searches *auth.Limiter
}

// New returns the forum.
func New(kit site.Kit, cfg Config) *Forum {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Forum{kit: kit, cfg: cfg, log: cfg.Logger,
		searches: auth.NewLimiter(rate.Limit(SearchesPerMinute)/60, SearchBurst, cfg.Now)}
}

func (f *Forum) moderator(id int64) bool {
	return id != 0 && f.cfg.Moderator != nil && f.cfg.Moderator(id)
}

func (f *Forum) kid(ctx context.Context, id int64) bool {
	return id != 0 && f.cfg.Kid != nil && f.cfg.Kid(ctx, id)
}

// category returns the category id for who, or a 404: a team's only to
// its members (and the moderators), as if it did not exist to others.
func (f *Forum) category(ctx context.Context, id string, who site.Identity) (Category, error) {
	c, ok := ParseCategory(id)
	if !ok {
		return c, apierr.NotFound("forum.err.no_category", site.Excerpt(id))
	}
	if c.Public() {
		return c, nil
	}
	if f.cfg.Member == nil || who.Account.ID == 0 {
		return c, apierr.NotFound("forum.err.no_category", site.Excerpt(id))
	}
	if f.moderator(who.Account.ID) {
		return c, nil
	}
	member, err := f.cfg.Member(ctx, c.Ref, who.Account.ID)
	if err != nil {
		return c, err
	}
	if !member {
		return c, apierr.NotFound("forum.err.no_category", site.Excerpt(id))
	}
	return c, nil
}

// topic returns topic id of category cat (a topic moved elsewhere is a
// 404 under its old category: its page redirects, see topicPage).
func (f *Forum) topic(ctx context.Context, id string) (store.ForumTopic, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return store.ForumTopic{}, apierr.NotFound("forum.err.no_topic", site.Excerpt(id))
	}
	t, err := f.cfg.Store.ForumTopic(ctx, n)
	if errors.Is(err, store.ErrNotFound) {
		return t, apierr.NotFound("forum.err.no_topic", site.Excerpt(id))
	}
	return t, err
}

// post returns post id with the category it is in, checked for who.
func (f *Forum) post(ctx context.Context, id string, who site.Identity) (store.ForumPost, Category, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return store.ForumPost{}, Category{}, apierr.NotFound("forum.err.no_post", site.Excerpt(id))
	}
	p, err := f.cfg.Store.ForumPost(ctx, n)
	if errors.Is(err, store.ErrNotFound) {
		return p, Category{}, apierr.NotFound("forum.err.no_post", site.Excerpt(id))
	}
	if err != nil {
		return p, Category{}, err
	}
	c, err := f.category(ctx, p.Category, who)
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			return p, c, apierr.NotFound("forum.err.no_post", site.Excerpt(id))
		}
	}
	return p, c, err
}

// writer returns who may write: an account, not in kid mode; a 401 for
// nobody or a guest.
func (f *Forum) writer(r *http.Request) (site.Identity, error) {
	id, err := f.kit.MustIdentity(r)
	if err != nil {
		return id, err
	}
	if id.Account.ID == 0 {
		return id, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "forum.err.login")
	}
	if f.kid(r.Context(), id.Account.ID) {
		return id, apierr.Forbidden("forum.err.kid")
	}
	if f.cfg.Muted != nil && f.cfg.Muted(id.Account.ID) {
		return id, apierr.Forbidden("forum.err.muted")
	}
	return id, nil
}

// bounds returns the bounds of what account userID writes, which the
// store holds a post or a topic to in its write.
func (f *Forum) bounds(ctx context.Context, userID int64) (store.ForumBounds, error) {
	u, err := f.cfg.Store.UserByID(ctx, userID)
	if err != nil {
		return store.ForumBounds{}, err
	}
	if f.cfg.Now().Sub(u.Created) < NewAccount {
		return store.ForumBounds{PerMinute: NewPostsPerMinute, PerDay: NewPostsPerDay, TopicsPerDay: NewTopicsPerDay}, nil
	}
	return store.ForumBounds{PerMinute: PostsPerMinute, PerDay: PostsPerDay, TopicsPerDay: TopicsPerDay}, nil
}

// boundError is the answer to a write past one of the account's bounds.
func boundError(err error) error {
	be, ok := errors.AsType[*store.ForumBoundError](err)
	if !ok {
		return err
	}
	key := map[string]string{"minute": "forum.err.too_fast", "day": "forum.err.too_many", "topics": "forum.err.too_many_topics"}[be.Which]
	return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, key, be.Max)
}

// checkText refuses an empty text, one over MaxText, or one with more
// than MaxEmbeds embeds.
func checkText(text string) (string, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	switch n := utf8.RuneCountInString(text); {
	case !utf8.ValidString(text):
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.text_utf8")
	case n == 0:
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.text_empty")
	case n > MaxText:
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.text_long", MaxText, n)
	}
	if n := countEmbeds(text); n > MaxEmbeds {
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.embeds", MaxEmbeds, n)
	}
	return text, nil
}

func checkTitle(title string) (string, error) {
	title = strings.Join(strings.Fields(title), " ")
	switch n := utf8.RuneCountInString(title); {
	case !utf8.ValidString(title):
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.text_utf8")
	case n == 0:
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.title_empty")
	case n > MaxTitle:
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.title_long", MaxTitle, n)
	}
	return title, nil
}

// NewTopic makes a topic in category c with its first post; it returns the
// topic's id.
func (f *Forum) NewTopic(ctx context.Context, who site.Identity, c Category, title, text string) (int64, error) {
	title, err := checkTitle(title)
	if err != nil {
		return 0, err
	}
	if text, err = checkText(text); err != nil {
		return 0, err
	}
	b, err := f.bounds(ctx, who.Account.ID)
	if err != nil {
		return 0, err
	}
	id, _, err := f.cfg.Store.AddForumTopic(ctx, c.row(), store.ForumTopic{Title: title, AuthorID: who.Account.ID, Created: f.cfg.Now()}, text, b)
	return id, boundError(err)
}

// Reply adds a post to topic t and tells the topic's earlier writers;
// it returns the post's id.
func (f *Forum) Reply(ctx context.Context, who site.Identity, t store.ForumTopic, text string) (int64, error) {
	if t.Locked {
		return 0, apierr.Forbidden("forum.err.locked")
	}
	text, err := checkText(text)
	if err != nil {
		return 0, err
	}
	b, err := f.bounds(ctx, who.Account.ID)
	if err != nil {
		return 0, err
	}
	writers, err := f.cfg.Store.ForumWriters(ctx, t.ID, Notified)
	if err != nil {
		return 0, err
	}
	id, err := f.cfg.Store.AddForumPost(ctx, store.ForumPost{TopicID: t.ID, AuthorID: who.Account.ID, Body: text, Created: f.cfg.Now()}, b)
	switch {
	case errors.As(err, new(*store.ForumBoundError)):
		return 0, boundError(err)
	case errors.Is(err, store.ErrConflict):
		return 0, apierr.Forbidden("forum.err.locked")
	case errors.Is(err, store.ErrNotFound):
		return 0, apierr.NotFound("forum.err.no_topic", strconv.FormatInt(t.ID, 10))
	case err != nil:
		return 0, err
	}
	if f.cfg.Notify != nil {
		url := fmt.Sprintf("/forum/post/%d", id)
		for _, w := range writers {
			if w == who.Account.ID {
				continue
			}
			n := notify.Notice{To: w, Actor: who.Account.ID, Kind: notify.ForumReply, Key: "forum.notice.reply",
				Args: []any{who.Account.Name, t.Title}, URL: url}
			if err := f.cfg.Notify.Send(ctx, n); err != nil {
				// The reply is kept; a notice the store could not keep is logged.
				f.log.Warn("forum reply notice", "to", w, "post", id, "err", err)
			}
		}
	}
	return id, nil
}

// Edit replaces the text of post p by its author within EditWindow.
func (f *Forum) Edit(ctx context.Context, who site.Identity, p store.ForumPost, text string) error {
	if p.AuthorID != who.Account.ID {
		return apierr.Forbidden("forum.err.not_yours")
	}
	if !f.Editable(p, who.Account.ID) {
		return apierr.Forbidden("forum.err.edit_window", int(EditWindow/time.Minute))
	}
	text, err := checkText(text)
	if err != nil {
		return err
	}
	err = f.cfg.Store.EditForumPost(ctx, p.ID, who.Account.ID, text, f.cfg.Now().Add(-EditWindow))
	switch {
	case errors.Is(err, store.ErrConflict):
		return apierr.Forbidden("forum.err.edit_window", int(EditWindow/time.Minute))
	case errors.Is(err, store.ErrNotFound):
		return apierr.Forbidden("forum.err.not_yours")
	}
	return err
}

// Editable reports whether user may edit p now.
func (f *Forum) Editable(p store.ForumPost, user int64) bool {
	return user != 0 && p.AuthorID == user && !p.Hidden && f.cfg.Now().Sub(p.Created) < EditWindow
}

// Report files who's report of post p: into the forum's list and the
// moderators' queue (reason ReportReason, the post's address in the note).
func (f *Forum) Report(ctx context.Context, r *http.Request, who site.Identity, p store.ForumPost, note string) error {
	note = strings.TrimSpace(note)
	if utf8.RuneCountInString(note) > MaxNote {
		return apierr.BadRequest(apierr.CodeBadRequest, "forum.err.note_long", MaxNote)
	}
	if p.AuthorID == who.Account.ID {
		return apierr.BadRequest(apierr.CodeBadRequest, "forum.err.own_post")
	}
	queueNote := fmt.Sprintf("/forum/post/%d", p.ID)
	if note != "" {
		queueNote += " " + note
	}
	_, _, err := f.cfg.Store.AddModReport(ctx, store.ModReport{TargetID: p.AuthorID, ReporterID: who.Account.ID, Reason: ReportReason,
		Note: queueNote, Addr: auth.AddrKey(auth.ClientIP(r)), Weight: 1},
		store.ModReportLimits{PerUser: ReportsPerUser, PerAddr: ReportsPerAddr})
	if errors.Is(err, store.ErrReportLimit) {
		return apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "forum.err.reports")
	}
	if err != nil {
		return err
	}
	_, err = f.cfg.Store.ReportForumPost(ctx, p.ID, who.Account.ID, note)
	return err
}

// Moderate applies a moderator's action to a post (hide, unhide) or a
// topic (lock, unlock, move to to), with its audit entry.
func (f *Forum) Moderate(ctx context.Context, who site.Identity, m store.ForumModeration) error {
	if !f.moderator(who.Account.ID) {
		return apierr.Forbidden("forum.err.moderators")
	}
	m.ModID = who.Account.ID
	err := f.cfg.Store.ModerateForum(ctx, m)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound("forum.err.no_post", strconv.FormatInt(max(m.Post, m.Topic), 10))
	}
	return err
}

// ErrorKeys are the catalog keys of the forum's errors (TestErrorKeys).
func ErrorKeys() []string {
	return []string{"forum.err.no_category", "forum.err.no_topic", "forum.err.no_post", "forum.err.login", "forum.err.kid",
		"forum.err.too_fast", "forum.err.too_many", "forum.err.too_many_topics", "forum.err.text_utf8", "forum.err.text_empty",
		"forum.err.text_long", "forum.err.embeds", "forum.err.title_empty", "forum.err.title_long", "forum.err.locked",
		"forum.err.not_yours", "forum.err.edit_window", "forum.err.note_long", "forum.err.own_post", "forum.err.reports",
		"forum.err.moderators", "forum.err.query", "forum.err.action", "forum.err.searches", "forum.err.muted"}
}
