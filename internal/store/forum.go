package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The forum's storage (migration 00026): package forum owns its meaning
// (categories, bounds, the editing window, who may read what); the store
// keeps the rows and writes each change with its audit entry in one
// transaction.

// ForumCategory is a category's row: made on its first use.
type ForumCategory struct {
	ID      string // general, a language tag, team-<id>
	Kind    string // general, lang, team
	Ref     string // the language or the team
	Created time.Time
}

// ForumCategoryStat is what a category holds: its topics, their posts and
// the time of the last one.
type ForumCategoryStat struct {
	Topics, Posts int
	Last          time.Time
}

// ForumTopic is a topic: a title and its posts.
type ForumTopic struct {
	ID         int64
	Category   string
	Title      string
	AuthorID   int64
	AuthorName string // read only
	Posts      int    // read only: every post, hidden ones too
	Locked     bool
	Created    time.Time
	Last       time.Time // the last post's time (read only)
}

// ForumPost is one post of a topic.
type ForumPost struct {
	ID         int64
	TopicID    int64
	Category   string // the topic's (read only)
	AuthorID   int64
	AuthorName string // read only
	Body       string // Markdown, as its author wrote it
	Hidden     bool
	Created    time.Time
	Edited     time.Time // zero: never edited
	N          int       // its number in the topic from 1 (read only; ForumPosts and ForumPost set it)
}

// ForumEdit is a text a post had before an edit.
type ForumEdit struct {
	Body   string
	Edited time.Time
}

// ForumReport is an open report of a post, as the moderators' list shows it.
type ForumReport struct {
	Post         ForumPost
	Title        string
	ReporterName string
	Note         string
	Created      time.Time
}

// ForumHit is a post a search found, with its topic's title.
type ForumHit struct {
	Post  ForumPost
	Title string
}

// forumSearch is the text a search reads: lower case as Go writes it (SQLite's
// lower() knows ASCII only).
func forumSearch(parts ...string) string { return strings.ToLower(strings.Join(parts, "\n")) }

func ensureForumCategory(ctx context.Context, tx *sql.Tx, c ForumCategory, now time.Time) error {
	if c.Created.IsZero() {
		c.Created = now
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO forum_categories (id, kind, ref, created_ms) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO NOTHING`, c.ID, c.Kind, c.Ref, ms(c.Created))
	return err
}

// EnsureForumCategory makes category c unless it exists.
func (s *Store) EnsureForumCategory(ctx context.Context, c ForumCategory) error {
	err := s.write(ctx, func(tx *sql.Tx) error { return ensureForumCategory(ctx, tx, c, s.now()) })
	if err != nil {
		return fmt.Errorf("store: forum category %s: %w", c.ID, err)
	}
	return nil
}

// ForumCategoryStats returns what each of the categories ids holds (none:
// the zero stat).
func (s *Store) ForumCategoryStats(ctx context.Context, ids []string) (map[string]ForumCategoryStat, error) {
	out := map[string]ForumCategoryStat{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	marks := make([]string, len(ids))
	for i, id := range ids {
		args[i], marks[i] = id, fmt.Sprintf("$%d", i+1)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT category_id, count(*), COALESCE(SUM(posts), 0), COALESCE(MAX(last_ms), 0)
		FROM forum_topics WHERE category_id IN (`+strings.Join(marks, ", ")+`) GROUP BY category_id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: forum categories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var st ForumCategoryStat
		var last int64
		if err := rows.Scan(&id, &st.Topics, &st.Posts, &last); err != nil {
			return nil, fmt.Errorf("store: forum categories: %w", err)
		}
		st.Last = fromMS(last)
		out[id] = st
	}
	return out, rows.Err()
}

const forumTopicSelect = `SELECT t.id, t.category_id, t.title, t.author_id, COALESCE(u.name, ''), t.posts, t.locked, t.created_ms, t.last_ms
	FROM forum_topics t LEFT JOIN users u ON u.id = t.author_id `

func scanForumTopic(sc interface{ Scan(...any) error }) (ForumTopic, error) {
	var t ForumTopic
	var locked int
	var created, last int64
	err := sc.Scan(&t.ID, &t.Category, &t.Title, &t.AuthorID, &t.AuthorName, &t.Posts, &locked, &created, &last)
	t.Locked, t.Created, t.Last = locked != 0, fromMS(created), fromMS(last)
	return t, err
}

// ForumTopics returns a category's topics, the latest written in first,
// limit from offset, and how many it has.
func (s *Store) ForumTopics(ctx context.Context, category string, limit, offset int) ([]ForumTopic, int, error) {
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM forum_topics WHERE category_id = $1`, category).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("store: forum topics of %s: %w", category, err)
	}
	rows, err := s.r.QueryContext(ctx, forumTopicSelect+`WHERE t.category_id = $1 ORDER BY t.last_ms DESC, t.id DESC LIMIT $2 OFFSET $3`,
		category, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("store: forum topics of %s: %w", category, err)
	}
	defer rows.Close()
	var out []ForumTopic
	for rows.Next() {
		t, err := scanForumTopic(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("store: forum topics of %s: %w", category, err)
		}
		out = append(out, t)
	}
	return out, total, rows.Err()
}

// ForumTopic returns topic id (ErrNotFound when there is none).
func (s *Store) ForumTopic(ctx context.Context, id int64) (ForumTopic, error) {
	t, err := scanForumTopic(s.r.QueryRowContext(ctx, forumTopicSelect+`WHERE t.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, fmt.Errorf("forum topic %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return t, fmt.Errorf("store: forum topic %d: %w", id, err)
	}
	return t, nil
}

const forumPostSelect = `SELECT p.id, p.topic_id, t.category_id, p.author_id, COALESCE(u.name, ''), p.body, p.hidden, p.created_ms, p.edited_ms
	FROM forum_posts p JOIN forum_topics t ON t.id = p.topic_id LEFT JOIN users u ON u.id = p.author_id `

func scanForumPost(sc interface{ Scan(...any) error }, extra ...any) (ForumPost, error) {
	var p ForumPost
	var hidden int
	var created, edited int64
	err := sc.Scan(append([]any{&p.ID, &p.TopicID, &p.Category, &p.AuthorID, &p.AuthorName, &p.Body, &hidden, &created, &edited}, extra...)...)
	p.Hidden, p.Created, p.Edited = hidden != 0, fromMS(created), fromMS(edited)
	return p, err
}

// ForumPosts returns a topic's posts in order, limit from offset.
func (s *Store) ForumPosts(ctx context.Context, topicID int64, limit, offset int) ([]ForumPost, error) {
	rows, err := s.r.QueryContext(ctx, forumPostSelect+`WHERE p.topic_id = $1 ORDER BY p.id LIMIT $2 OFFSET $3`, topicID, limit, offset)
	if err != nil {
		return nil, fmt.Errorf("store: forum posts of %d: %w", topicID, err)
	}
	defer rows.Close()
	var out []ForumPost
	for rows.Next() {
		p, err := scanForumPost(rows)
		if err != nil {
			return nil, fmt.Errorf("store: forum posts of %d: %w", topicID, err)
		}
		p.N = offset + len(out) + 1
		out = append(out, p)
	}
	return out, rows.Err()
}

// ForumPost returns post id with its number in its topic (ErrNotFound).
func (s *Store) ForumPost(ctx context.Context, id int64) (ForumPost, error) {
	p, err := scanForumPost(s.r.QueryRowContext(ctx, forumPostSelect+`WHERE p.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("forum post %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("store: forum post %d: %w", id, err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM forum_posts WHERE topic_id = $1 AND id <= $2`, p.TopicID, p.ID).Scan(&p.N); err != nil {
		return p, fmt.Errorf("store: forum post %d: %w", id, err)
	}
	return p, nil
}

// AddForumTopic makes topic t in its category (made if new, as cat says)
// with its first post of body, within the author's bounds b (a
// *ForumBoundError past one); it returns the topic's and the post's ids.
func (s *Store) AddForumTopic(ctx context.Context, cat ForumCategory, t ForumTopic, body string, b ForumBounds) (topicID, postID int64, err error) {
	now := s.now()
	if t.Created.IsZero() {
		t.Created = now
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if err := b.check(ctx, tx, t.AuthorID, t.Created, true); err != nil {
			return err
		}
		if err := ensureForumCategory(ctx, tx, cat, now); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO forum_topics (category_id, title, author_id, posts, created_ms, last_ms)
			VALUES ($1, $2, $3, 1, $4, $4) RETURNING id`, cat.ID, t.Title, t.AuthorID, ms(t.Created)).Scan(&topicID); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `INSERT INTO forum_posts (topic_id, author_id, body, search, created_ms)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, topicID, t.AuthorID, body, forumSearch(t.Title, body), ms(t.Created)).Scan(&postID)
	})
	if _, fk := constraint(err); fk {
		return 0, 0, fmt.Errorf("store: forum topic by %d: %w", t.AuthorID, ErrNotFound)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("store: forum topic: %w", err)
	}
	return topicID, postID, nil
}

// AddForumPost adds p to its topic: ErrNotFound when there is no such topic,
// ErrConflict when it is locked, a *ForumBoundError past the author's
// bounds b.
func (s *Store) AddForumPost(ctx context.Context, p ForumPost, b ForumBounds) (int64, error) {
	if p.Created.IsZero() {
		p.Created = s.now()
	}
	var id int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := b.check(ctx, tx, p.AuthorID, p.Created, false); err != nil {
			return err
		}
		var locked int
		err := tx.QueryRowContext(ctx, `SELECT locked FROM forum_topics WHERE id = $1`, p.TopicID).Scan(&locked)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("forum topic %d: %w", p.TopicID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if locked != 0 {
			return fmt.Errorf("forum topic %d is locked: %w", p.TopicID, ErrConflict)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO forum_posts (topic_id, author_id, body, search, created_ms)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`, p.TopicID, p.AuthorID, p.Body, forumSearch(p.Body), ms(p.Created)).Scan(&id); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE forum_topics SET posts = posts + 1, last_ms = $2 WHERE id = $1`, p.TopicID, ms(p.Created))
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrConflict) {
		return 0, fmt.Errorf("store: forum post in %d: %w", p.TopicID, err)
	}
	return id, err
}

// EditForumPost replaces the text of post id by its author, kept while
// the post was written at or after since; the text before is kept in
// forum_edits. ErrNotFound when there is no such post of that author,
// ErrConflict when it is older than since or hidden.
func (s *Store) EditForumPost(ctx context.Context, id, authorID int64, body string, since time.Time) error {
	now := s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var old string
		var created int64
		var hidden, first int
		err := tx.QueryRowContext(ctx, `SELECT p.body, p.created_ms, p.hidden,
			(SELECT count(*) FROM forum_posts q WHERE q.topic_id = p.topic_id AND q.id < p.id)
			FROM forum_posts p WHERE p.id = $1 AND p.author_id = $2`, id, authorID).Scan(&old, &created, &hidden, &first)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("forum post %d of %d: %w", id, authorID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if created < ms(since) || hidden != 0 {
			return fmt.Errorf("forum post %d: %w", id, ErrConflict)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO forum_edits (post_id, body, edited_ms) VALUES ($1, $2, $3)`, id, old, ms(now)); err != nil {
			return err
		}
		search := forumSearch(body)
		if first == 0 {
			var title string
			if err := tx.QueryRowContext(ctx, `SELECT t.title FROM forum_topics t JOIN forum_posts p ON p.topic_id = t.id WHERE p.id = $1`, id).Scan(&title); err != nil {
				return err
			}
			search = forumSearch(title, body)
		}
		_, err = tx.ExecContext(ctx, `UPDATE forum_posts SET body = $2, search = $3, edited_ms = $4 WHERE id = $1`, id, body, search, ms(now))
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrConflict) {
		return fmt.Errorf("store: edit forum post %d: %w", id, err)
	}
	return err
}

// ForumEdits returns the texts post id had before its edits, the oldest first.
func (s *Store) ForumEdits(ctx context.Context, id int64) ([]ForumEdit, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT body, edited_ms FROM forum_edits WHERE post_id = $1 ORDER BY edited_ms`, id)
	if err != nil {
		return nil, fmt.Errorf("store: edits of forum post %d: %w", id, err)
	}
	defer rows.Close()
	var out []ForumEdit
	for rows.Next() {
		var e ForumEdit
		var at int64
		if err := rows.Scan(&e.Body, &at); err != nil {
			return nil, fmt.Errorf("store: edits of forum post %d: %w", id, err)
		}
		e.Edited = fromMS(at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// ForumWriters returns the accounts that wrote in a topic, at most limit,
// those who wrote last first.
func (s *Store) ForumWriters(ctx context.Context, topicID int64, limit int) ([]int64, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT author_id FROM forum_posts WHERE topic_id = $1 GROUP BY author_id
		ORDER BY MAX(id) DESC LIMIT $2`, topicID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: writers of forum topic %d: %w", topicID, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("store: writers of forum topic %d: %w", topicID, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// ReportForumPost keeps a report of post id by reporter; a second report
// of the same post by the same account is collapsed into the first (it is
// opened again with its new note). ErrNotFound when there is no such post.
func (s *Store) ReportForumPost(ctx context.Context, id, reporterID int64, note string) (collapsed bool, err error) {
	now := s.now()
	err = s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE forum_reports SET open = 1, note = $3 WHERE post_id = $1 AND reporter_id = $2`, id, reporterID, note)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			collapsed = true
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO forum_reports (post_id, reporter_id, note, created_ms) VALUES ($1, $2, $3, $4)`,
			id, reporterID, note, ms(now))
		return err
	})
	if _, fk := constraint(err); fk {
		return false, fmt.Errorf("forum post %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return false, fmt.Errorf("store: report of forum post %d: %w", id, err)
	}
	return collapsed, nil
}

// ForumReports returns the open reports of posts, the oldest first, at most limit.
func (s *Store) ForumReports(ctx context.Context, limit int) ([]ForumReport, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT p.id, p.topic_id, t.category_id, p.author_id, COALESCE(u.name, ''), p.body, p.hidden, p.created_ms, p.edited_ms,
		t.title, COALESCE(ru.name, ''), r.note, r.created_ms
		FROM forum_reports r JOIN forum_posts p ON p.id = r.post_id JOIN forum_topics t ON t.id = p.topic_id
		LEFT JOIN users u ON u.id = p.author_id LEFT JOIN users ru ON ru.id = r.reporter_id
		WHERE r.open = 1 ORDER BY r.created_ms, r.post_id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("store: forum reports: %w", err)
	}
	defer rows.Close()
	var out []ForumReport
	for rows.Next() {
		var r ForumReport
		var created int64
		p, err := scanForumPost(rows, &r.Title, &r.ReporterName, &r.Note, &created)
		if err != nil {
			return nil, fmt.Errorf("store: forum reports: %w", err)
		}
		r.Post, r.Created = p, fromMS(created)
		out = append(out, r)
	}
	return out, rows.Err()
}

// ForumModeration is a moderator's change to the forum, written with its
// entry in the moderators' audit log (mod_actions, on the account of the
// post's or the topic's author) in one transaction.
type ForumModeration struct {
	ModID  int64
	Action string // forum_hide, forum_unhide, forum_dismiss (Post), forum_lock, forum_unlock, forum_move (Topic)
	Post   int64
	Topic  int64
	To     ForumCategory // forum_move's new category (made if new)
	Reason string        // the audit log's words
}

// ModerateForum applies m: hiding, showing or keeping (dismiss) a post
// closes its open reports, the forum's and the moderators' queue's (those
// of reason "forum" whose note starts with the post's address).
// ErrNotFound when the post or topic does not exist.
func (s *Store) ModerateForum(ctx context.Context, m ForumModeration) error {
	now := s.now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var author int64
		var err error
		switch m.Action {
		case "forum_hide", "forum_unhide", "forum_dismiss":
			err = tx.QueryRowContext(ctx, `SELECT author_id FROM forum_posts WHERE id = $1`, m.Post).Scan(&author)
		default:
			err = tx.QueryRowContext(ctx, `SELECT author_id FROM forum_topics WHERE id = $1`, m.Topic).Scan(&author)
		}
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("forum post %d or topic %d: %w", m.Post, m.Topic, ErrNotFound)
		}
		if err != nil {
			return err
		}
		switch m.Action {
		case "forum_hide", "forum_unhide", "forum_dismiss":
			if m.Action != "forum_dismiss" {
				if _, err := tx.ExecContext(ctx, `UPDATE forum_posts SET hidden = $2 WHERE id = $1`, m.Post, boolInt(m.Action == "forum_hide")); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE forum_reports SET open = 0 WHERE post_id = $1`, m.Post); err != nil {
				return err
			}
			path := fmt.Sprintf("/forum/post/%d", m.Post)
			if _, err := tx.ExecContext(ctx, `UPDATE mod_reports SET open = 0 WHERE target_id = $1 AND reason = 'forum' AND open = 1
				AND (note = $2 OR note LIKE $3)`, author, path, path+" %"); err != nil {
				return err
			}
		case "forum_lock", "forum_unlock":
			if _, err := tx.ExecContext(ctx, `UPDATE forum_topics SET locked = $2 WHERE id = $1`, m.Topic, boolInt(m.Action == "forum_lock")); err != nil {
				return err
			}
		case "forum_move":
			if err := ensureForumCategory(ctx, tx, m.To, now); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE forum_topics SET category_id = $2 WHERE id = $1`, m.Topic, m.To.ID); err != nil {
				return err
			}
		default:
			return fmt.Errorf("forum moderation %q: %w", m.Action, ErrConflict)
		}
		_, err = insertModAction(ctx, tx, ModAction{UserID: author, ModID: m.ModID, Action: m.Action, Reason: m.Reason, Created: now})
		return err
	})
	if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrConflict) {
		return fmt.Errorf("store: forum moderation: %w", err)
	}
	return err
}

// SearchForum returns the posts shown (not hidden) in the categories
// whose text or topic title holds q (any case), the newest first, limit
// from offset. Each post is read once: the search scans the posts of
// those categories, so its callers bound how often it runs.
func (s *Store) SearchForum(ctx context.Context, q string, categories []string, limit, offset int) ([]ForumHit, error) {
	if len(categories) == 0 {
		return nil, nil
	}
	args := []any{"%" + likeEscape(strings.ToLower(q)) + "%", limit, offset}
	marks := make([]string, len(categories))
	for i, c := range categories {
		args = append(args, c)
		marks[i] = fmt.Sprintf("$%d", i+4)
	}
	sel := strings.Replace(forumPostSelect, "FROM forum_posts", ", t.title FROM forum_posts", 1)
	rows, err := s.r.QueryContext(ctx, sel+`WHERE p.hidden = 0 AND t.category_id IN (`+strings.Join(marks, ", ")+`)
		AND p.search LIKE $1 ESCAPE '\' ORDER BY p.id DESC LIMIT $2 OFFSET $3`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: forum search: %w", err)
	}
	defer rows.Close()
	var out []ForumHit
	for rows.Next() {
		var h ForumHit
		p, err := scanForumPost(rows, &h.Title)
		if err != nil {
			return nil, fmt.Errorf("store: forum search: %w", err)
		}
		h.Post = p
		out = append(out, h)
	}
	return out, rows.Err()
}
