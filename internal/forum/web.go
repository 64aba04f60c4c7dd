package forum

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Routes registers the forum's pages and API.
func (f *Forum) Routes(r site.Router) {
	r.Page("GET /forum", f.pageIndex)
	r.Page("GET /forum/search", f.pageSearch)
	r.Page("GET /forum/reports", f.pageReports)
	r.Page("GET /forum/{category}", f.pageCategory)
	r.Page("GET /forum/new/{category}", f.pageNewForm)
	r.Page("POST /forum/new/{category}", f.pageNew)
	r.Page("GET /forum/{category}/{topic}", f.pageTopic)
	r.Page("POST /forum/{category}/{topic}", f.pageReply)
	r.Page("POST /forum/{category}/{topic}/mod", f.pageModTopic)
	r.Page("GET /forum/post/{id}", f.pagePost)
	r.Page("GET /forum/post/{id}/edit", f.pageEditForm)
	r.Page("POST /forum/post/{id}/edit", f.pageEdit)
	r.Page("GET /forum/post/{id}/report", f.pageReportForm)
	r.Page("POST /forum/post/{id}/report", f.pageReport)
	r.Page("POST /forum/post/{id}/mod", f.pageModPost)
	r.Page("GET /forum/post/{id}/history", f.pageHistory)

	r.API("GET /api/forum", f.apiIndex)
	r.API("GET /api/forum/search", f.apiSearch)
	r.API("GET /api/forum/{category}", f.apiCategory)
	r.API("POST /api/forum/{category}", f.apiNew)
	r.API("GET /api/forum/{category}/{topic}", f.apiTopic)
	r.API("POST /api/forum/{category}/{topic}", f.apiReply)
	r.API("POST /api/forum/{category}/{topic}/mod", f.apiModTopic)
	r.API("GET /api/forum/post/{id}", f.apiPost)
	r.API("PUT /api/forum/post/{id}", f.apiEdit)
	r.API("POST /api/forum/post/{id}/report", f.apiReport)
	r.API("POST /api/forum/post/{id}/mod", f.apiModPost)
}

func storeCtx(r *http.Request) (context.Context, context.CancelFunc) {
	return context.WithTimeout(r.Context(), site.StoreTimeout)
}

func (f *Forum) renderer(r *http.Request) renderer {
	return renderer{cat: f.kit.Catalog(), lang: f.kit.Lang(r), host: r.Host, store: f.cfg.Store,
		kid: f.kid(r.Context(), f.kit.Identity(r).Account.ID)}
}

// ---- views ----

// CategoryView is a category as the pages and the API show it.
type CategoryView struct {
	ID     string    `json:"id"`
	Kind   string    `json:"kind"`
	Title  string    `json:"title"`
	Topics int       `json:"topics"`
	Posts  int       `json:"posts"`
	Last   time.Time `json:"last,omitzero"`
}

func categoryTitle(cat *i18n.Catalog, lang string, c Category) string {
	switch c.Kind {
	case KindGeneral:
		return cat.T(lang, "forum.cat.general")
	case KindLang:
		return cat.T(lang, "forum.cat."+c.Ref)
	}
	return cat.T(lang, "forum.cat.team", c.Ref)
}

func (f *Forum) view(r *http.Request, c Category, st store.ForumCategoryStat) CategoryView {
	title := categoryTitle(f.kit.Catalog(), f.kit.Lang(r), c)
	if c.Kind == KindTeam && f.cfg.TeamName != nil {
		if n := f.cfg.TeamName(r.Context(), c.Ref); n != "" {
			title = f.kit.Catalog().T(f.kit.Lang(r), "forum.cat.team", n)
		}
	}
	return CategoryView{ID: c.ID, Kind: c.Kind, Title: title, Topics: st.Topics, Posts: st.Posts, Last: st.Last}
}

// TopicView is a topic in a list.
type TopicView struct {
	ID       int64     `json:"id"`
	Category string    `json:"category"`
	Title    string    `json:"title"`
	Author   string    `json:"author"`
	Posts    int       `json:"posts"`
	Locked   bool      `json:"locked"`
	Created  time.Time `json:"created"`
	Last     time.Time `json:"last"`
}

// URL is the topic's page.
func (t TopicView) URL() string { return fmt.Sprintf("/forum/%s/%d", t.Category, t.ID) }

func topicView(t store.ForumTopic) TopicView {
	return TopicView{ID: t.ID, Category: t.Category, Title: t.Title, Author: t.AuthorName, Posts: t.Posts, Locked: t.Locked, Created: t.Created, Last: t.Last}
}

// PostView is a post as the pages and the API show it: a hidden post's
// text only to the moderators.
type PostView struct {
	ID      int64         `json:"id"`
	Topic   int64         `json:"topic"`
	N       int           `json:"n"`
	Author  string        `json:"author"`
	Text    string        `json:"text,omitempty"`
	HTML    template.HTML `json:"html,omitempty"`
	Hidden  bool          `json:"hidden"`
	Created time.Time     `json:"created"`
	Edited  time.Time     `json:"edited,omitzero"`
	// The reader's rights (the pages' links).
	CanEdit   bool `json:"-"`
	CanReport bool `json:"-"`
	CanQuote  bool `json:"-"`
}

func (f *Forum) postView(ctx context.Context, rd renderer, p store.ForumPost, who int64, mod bool) PostView {
	v := PostView{ID: p.ID, Topic: p.TopicID, N: p.N, Author: p.AuthorName, Hidden: p.Hidden, Created: p.Created, Edited: p.Edited}
	if !p.Hidden || mod {
		v.Text, v.HTML = p.Body, rd.Render(ctx, p.Body)
	}
	v.CanEdit = f.Editable(p, who)
	v.CanReport = who != 0 && p.AuthorID != who && !p.Hidden
	v.CanQuote = who != 0 && !p.Hidden
	return v
}

// pages returns the numbers of a list's pages around page (at most 9).
func pages(page, last int) []int {
	lo, hi := max(1, page-4), min(last, page+4)
	out := make([]int, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		out = append(out, n)
	}
	return out
}

func lastPage(n, size int) int { return max(1, (n+size-1)/size) }

// pageParam reads ?page= ("last" is the last page), at most last.
func pageParam(r *http.Request, last int) int {
	if r.URL.Query().Get("page") == "last" {
		return last
	}
	return min(site.PageParam(r), max(last, 1))
}

// ---- the index ----

// IndexData is /forum's.
type IndexData struct {
	Categories []CategoryView
	Moderator  bool
}

func (f *Forum) index(r *http.Request) (IndexData, error) {
	ctx, cancel := storeCtx(r)
	defer cancel()
	cats := PublicCategories()
	ids := make([]string, len(cats))
	for i, c := range cats {
		ids[i] = c.ID
	}
	stats, err := f.cfg.Store.ForumCategoryStats(ctx, ids)
	if err != nil {
		return IndexData{}, err
	}
	d := IndexData{Moderator: f.moderator(f.kit.Identity(r).Account.ID)}
	for _, c := range cats {
		d.Categories = append(d.Categories, f.view(r, c, stats[c.ID]))
	}
	return d, nil
}

func (f *Forum) pageIndex(w http.ResponseWriter, r *http.Request) error {
	d, err := f.index(r)
	if err != nil {
		return err
	}
	return f.kit.Render(w, http.StatusOK, "forum", f.kit.Page(r, "forum.title", d))
}

func (f *Forum) apiIndex(w http.ResponseWriter, r *http.Request) error {
	d, err := f.index(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"categories": d.Categories})
}

// ---- a category ----

// CategoryData is /forum/{category}'s.
type CategoryData struct {
	Category    CategoryView
	Topics      []TopicView
	Page, Last  int
	Pages       []int
	CanWrite    bool
	Why         string // the catalog key of why he may not write ("": he may)
	Total       int
	Title, Text string // the new topic's form, kept on an error
	Error       string
	MaxTitle    int
	MaxText     int
	MaxEmbeds   int
}

// PageNav is a list's pages, for the pages' links.
type PageNav struct {
	Page, Last  int
	Pages       []int
	Base, Label string
}

// Nav is the category's pages.
func (d CategoryData) Nav(label string) PageNav {
	return PageNav{Page: d.Page, Last: d.Last, Pages: d.Pages, Base: "/forum/" + d.Category.ID, Label: label}
}

// Nav is the topic's pages.
func (d TopicData) Nav(label string) PageNav {
	return PageNav{Page: d.Page, Last: d.Last, Pages: d.Pages, Base: d.Topic.URL(), Label: label}
}

func (f *Forum) categoryData(r *http.Request) (CategoryData, error) {
	ctx, cancel := storeCtx(r)
	defer cancel()
	who := f.kit.Identity(r)
	c, err := f.category(ctx, r.PathValue("category"), who)
	if err != nil {
		return CategoryData{}, err
	}
	if !c.Public() {
		// A team's category is made on its first use by a member.
		if err := f.cfg.Store.EnsureForumCategory(ctx, c.row()); err != nil {
			return CategoryData{}, err
		}
	}
	stats, err := f.cfg.Store.ForumCategoryStats(ctx, []string{c.ID})
	if err != nil {
		return CategoryData{}, err
	}
	st := stats[c.ID]
	last := lastPage(st.Topics, TopicsPage)
	page := pageParam(r, last)
	topics, total, err := f.cfg.Store.ForumTopics(ctx, c.ID, TopicsPage, (page-1)*TopicsPage)
	if err != nil {
		return CategoryData{}, err
	}
	d := CategoryData{Category: f.view(r, c, st), Page: page, Last: last, Pages: pages(page, last), Total: total,
		MaxTitle: MaxTitle, MaxText: MaxText, MaxEmbeds: MaxEmbeds}
	for _, t := range topics {
		d.Topics = append(d.Topics, topicView(t))
	}
	d.CanWrite, d.Why = f.mayWrite(ctx, who, false)
	return d, nil
}

// mayWrite says whether who may write, and why not (a catalog key).
func (f *Forum) mayWrite(ctx context.Context, who site.Identity, locked bool) (bool, string) {
	switch {
	case who.Account.ID == 0:
		return false, "forum.why.login"
	case f.kid(ctx, who.Account.ID):
		return false, "forum.why.kid"
	case locked:
		return false, "forum.why.locked"
	}
	return true, ""
}

func (f *Forum) pageCategory(w http.ResponseWriter, r *http.Request) error {
	d, err := f.categoryData(r)
	if err != nil {
		return err
	}
	return f.kit.Render(w, http.StatusOK, "forum_category", f.kit.Page(r, "forum.category.title", d, d.Category.Title))
}

func (f *Forum) apiCategory(w http.ResponseWriter, r *http.Request) error {
	d, err := f.categoryData(r)
	if err != nil {
		return err
	}
	if d.Topics == nil {
		d.Topics = []TopicView{}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"category": d.Category, "topics": d.Topics, "page": d.Page, "pages": d.Last})
}

// ---- a new topic ----

func (f *Forum) pageNewForm(w http.ResponseWriter, r *http.Request) error {
	d, err := f.categoryData(r)
	if err != nil {
		return err
	}
	if _, err := f.writer(r); err != nil {
		return err
	}
	return f.kit.Render(w, http.StatusOK, "forum_new", f.kit.Page(r, "forum.new.title", d))
}

func (f *Forum) newTopic(r *http.Request, title, text string) (string, error) {
	who, err := f.writer(r)
	if err != nil {
		return "", err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	c, err := f.category(ctx, r.PathValue("category"), who)
	if err != nil {
		return "", err
	}
	id, err := f.NewTopic(ctx, who, c, title, text)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("/forum/%s/%d", c.ID, id), nil
}

// formError returns the message of a client's error (4xx), to show on the
// form with what he wrote; other errors are returned.
func (f *Forum) formError(r *http.Request, err error) (string, int, error) {
	var ae *apierr.Error
	if !errors.As(err, &ae) || ae.Status >= 500 || ae.Status == http.StatusNotFound || ae.Status == http.StatusUnauthorized {
		return "", 0, err
	}
	return f.kit.Message(r, ae), ae.Status, nil
}

func (f *Forum) pageNew(w http.ResponseWriter, r *http.Request) error {
	title, text := r.FormValue("title"), r.FormValue("text")
	url, err := f.newTopic(r, title, text)
	if err == nil {
		return site.Redirect(w, r, url)
	}
	msg, status, err := f.formError(r, err)
	if err != nil {
		return err
	}
	d, err := f.categoryData(r)
	if err != nil {
		return err
	}
	d.Title, d.Text, d.Error = title, text, msg
	return f.kit.Render(w, status, "forum_new", f.kit.Page(r, "forum.new.title", d))
}

type topicRequest struct {
	Title string `json:"title"`
	Text  string `json:"text"`
}

func (f *Forum) apiNew(w http.ResponseWriter, r *http.Request) error {
	var q topicRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	url, err := f.newTopic(r, q.Title, q.Text)
	if err != nil {
		return err
	}
	id, _ := strconv.ParseInt(url[strings.LastIndexByte(url, '/')+1:], 10, 64)
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"id": id, "url": url})
}

// ---- a topic ----

// TopicData is /forum/{category}/{topic}'s.
type TopicData struct {
	Category   CategoryView
	Topic      TopicView
	Posts      []PostView
	Page, Last int
	Pages      []int
	CanWrite   bool
	Why        string
	Reply      string // the reply's text: a quote, or what he wrote before an error
	Error      string
	Moderator  bool
	Moves      []CategoryView // where a moderator may move it
	MaxText    int
	MaxEmbeds  int
	EditWindow int // minutes
}

// topicData reads the topic's page; moved is the topic's page under its
// category when the path names another.
func (f *Forum) topicData(r *http.Request) (d TopicData, moved string, err error) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*site.StoreTimeout)
	defer cancel()
	who := f.kit.Identity(r)
	t, err := f.topic(ctx, r.PathValue("topic"))
	if err != nil {
		return d, "", err
	}
	c, err := f.category(ctx, t.Category, who)
	if err != nil {
		var ae *apierr.Error
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			return d, "", apierr.NotFound("forum.err.no_topic", site.Excerpt(r.PathValue("topic")))
		}
		return d, "", err
	}
	if t.Category != r.PathValue("category") {
		return d, fmt.Sprintf("/forum/%s/%d", t.Category, t.ID), nil
	}
	last := lastPage(t.Posts, PostsPage)
	page := pageParam(r, last)
	posts, err := f.cfg.Store.ForumPosts(ctx, t.ID, PostsPage, (page-1)*PostsPage)
	if err != nil {
		return d, "", err
	}
	mod := f.moderator(who.Account.ID)
	d = TopicData{Category: f.view(r, c, store.ForumCategoryStat{}), Topic: topicView(t), Page: page, Last: last, Pages: pages(page, last),
		Moderator: mod, MaxText: MaxText, MaxEmbeds: MaxEmbeds, EditWindow: int(EditWindow / time.Minute)}
	rd := f.renderer(r)
	for _, p := range posts {
		d.Posts = append(d.Posts, f.postView(ctx, rd, p, who.Account.ID, mod))
	}
	d.CanWrite, d.Why = f.mayWrite(ctx, who, t.Locked)
	if mod {
		for _, m := range PublicCategories() {
			if m.ID != c.ID {
				d.Moves = append(d.Moves, f.view(r, m, store.ForumCategoryStat{}))
			}
		}
	}
	if q := r.URL.Query().Get("quote"); q != "" && d.CanWrite {
		if p, _, err := f.post(ctx, q, who); err == nil && p.TopicID == t.ID && !p.Hidden {
			d.Reply = Quote(p.AuthorName, p.Body)
		}
	}
	return d, "", nil
}

func (f *Forum) pageTopic(w http.ResponseWriter, r *http.Request) error {
	d, moved, err := f.topicData(r)
	if err != nil {
		return err
	}
	if moved != "" {
		http.Redirect(w, r, moved, http.StatusMovedPermanently)
		return nil
	}
	return f.kit.Render(w, http.StatusOK, "forum_topic", f.kit.Page(r, "forum.topic.title", d, d.Topic.Title))
}

func (f *Forum) apiTopic(w http.ResponseWriter, r *http.Request) error {
	d, moved, err := f.topicData(r)
	if err != nil {
		return err
	}
	if moved != "" {
		return apierr.NotFound("forum.err.no_topic", site.Excerpt(r.PathValue("topic")))
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"topic": d.Topic, "posts": d.Posts, "page": d.Page, "pages": d.Last})
}

// reply writes a reply to the topic of r's path; it returns the post's id.
func (f *Forum) reply(r *http.Request, text string) (int64, error) {
	who, err := f.writer(r)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*site.StoreTimeout)
	defer cancel()
	t, err := f.topic(ctx, r.PathValue("topic"))
	if err != nil {
		return 0, err
	}
	if _, err := f.category(ctx, t.Category, who); err != nil {
		return 0, err
	}
	return f.Reply(ctx, who, t, text)
}

func (f *Forum) pageReply(w http.ResponseWriter, r *http.Request) error {
	text := r.FormValue("text")
	id, err := f.reply(r, text)
	if err == nil {
		return site.Redirect(w, r, fmt.Sprintf("/forum/post/%d", id))
	}
	msg, status, err := f.formError(r, err)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	q.Set("page", "last")
	r.URL.RawQuery = q.Encode()
	d, _, err := f.topicData(r)
	if err != nil {
		return err
	}
	d.Reply, d.Error = text, msg
	return f.kit.Render(w, status, "forum_topic", f.kit.Page(r, "forum.topic.title", d, d.Topic.Title))
}

type replyRequest struct {
	Text string `json:"text"`
}

func (f *Forum) apiReply(w http.ResponseWriter, r *http.Request) error {
	var q replyRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	id, err := f.reply(r, q.Text)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"id": id, "url": fmt.Sprintf("/forum/post/%d", id)})
}

// ---- a post ----

// postURL is where post p is shown: its topic's page, at it.
func postURL(p store.ForumPost) string {
	return fmt.Sprintf("/forum/%s/%d?page=%d#p%d", p.Category, p.TopicID, (p.N-1)/PostsPage+1, p.ID)
}

func (f *Forum) pagePost(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := storeCtx(r)
	defer cancel()
	p, _, err := f.post(ctx, r.PathValue("id"), f.kit.Identity(r))
	if err != nil {
		return err
	}
	return site.Redirect(w, r, postURL(p))
}

func (f *Forum) apiPost(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := storeCtx(r)
	defer cancel()
	who := f.kit.Identity(r)
	p, _, err := f.post(ctx, r.PathValue("id"), who)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, f.postView(ctx, f.renderer(r), p, who.Account.ID, f.moderator(who.Account.ID)))
}

// EditData is the edit form's and the report form's.
type EditData struct {
	Post       PostView
	PostURL    string
	Text       string
	Note       string
	Error      string
	Received   bool
	MaxText    int
	MaxEmbeds  int
	MaxNote    int
	EditWindow int
}

// ownPost returns the post of r's path for its author (a writer).
func (f *Forum) ownPost(r *http.Request) (site.Identity, store.ForumPost, error) {
	who, err := f.writer(r)
	if err != nil {
		return who, store.ForumPost{}, err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	p, _, err := f.post(ctx, r.PathValue("id"), who)
	if err != nil {
		return who, p, err
	}
	if p.AuthorID != who.Account.ID {
		return who, p, apierr.Forbidden("forum.err.not_yours")
	}
	return who, p, nil
}

func (f *Forum) pageEditForm(w http.ResponseWriter, r *http.Request) error {
	who, p, err := f.ownPost(r)
	if err != nil {
		return err
	}
	if !f.Editable(p, who.Account.ID) {
		return apierr.Forbidden("forum.err.edit_window", int(EditWindow/time.Minute))
	}
	d := EditData{Post: f.postView(r.Context(), f.renderer(r), p, who.Account.ID, false), PostURL: postURL(p), Text: p.Body,
		MaxText: MaxText, MaxEmbeds: MaxEmbeds, EditWindow: int(EditWindow / time.Minute)}
	return f.kit.Render(w, http.StatusOK, "forum_edit", f.kit.Page(r, "forum.edit.title", d))
}

func (f *Forum) pageEdit(w http.ResponseWriter, r *http.Request) error {
	who, p, err := f.ownPost(r)
	if err != nil {
		return err
	}
	text := r.FormValue("text")
	ctx, cancel := storeCtx(r)
	defer cancel()
	if err := f.Edit(ctx, who, p, text); err != nil {
		msg, status, err := f.formError(r, err)
		if err != nil {
			return err
		}
		d := EditData{Post: f.postView(ctx, f.renderer(r), p, who.Account.ID, false), PostURL: postURL(p), Text: text, Error: msg,
			MaxText: MaxText, MaxEmbeds: MaxEmbeds, EditWindow: int(EditWindow / time.Minute)}
		return f.kit.Render(w, status, "forum_edit", f.kit.Page(r, "forum.edit.title", d))
	}
	return site.Redirect(w, r, postURL(p))
}

func (f *Forum) apiEdit(w http.ResponseWriter, r *http.Request) error {
	var q replyRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	who, p, err := f.ownPost(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	if err := f.Edit(ctx, who, p, q.Text); err != nil {
		return err
	}
	if p, err = f.cfg.Store.ForumPost(ctx, p.ID); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, f.postView(ctx, f.renderer(r), p, who.Account.ID, false))
}

// ---- reports ----

// reported returns the post of r's path for a reporter.
func (f *Forum) reported(r *http.Request) (site.Identity, store.ForumPost, error) {
	who, err := f.writer(r)
	if err != nil {
		return who, store.ForumPost{}, err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	p, _, err := f.post(ctx, r.PathValue("id"), who)
	return who, p, err
}

func (f *Forum) pageReportForm(w http.ResponseWriter, r *http.Request) error {
	who, p, err := f.reported(r)
	if err != nil {
		return err
	}
	d := EditData{Post: f.postView(r.Context(), f.renderer(r), p, who.Account.ID, false), PostURL: postURL(p), MaxNote: MaxNote}
	return f.kit.Render(w, http.StatusOK, "forum_report", f.kit.Page(r, "forum.report.title", d))
}

func (f *Forum) pageReport(w http.ResponseWriter, r *http.Request) error {
	who, p, err := f.reported(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	d := EditData{Post: f.postView(ctx, f.renderer(r), p, who.Account.ID, false), PostURL: postURL(p), MaxNote: MaxNote, Note: r.FormValue("note")}
	status := http.StatusOK
	if err := f.Report(ctx, r, who, p, d.Note); err != nil {
		msg, st, err := f.formError(r, err)
		if err != nil {
			return err
		}
		d.Error, status = msg, st
	} else {
		d.Received = true
	}
	return f.kit.Render(w, status, "forum_report", f.kit.Page(r, "forum.report.title", d))
}

type reportRequest struct {
	Note string `json:"note"`
}

func (f *Forum) apiReport(w http.ResponseWriter, r *http.Request) error {
	var q reportRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	who, p, err := f.reported(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	if err := f.Report(ctx, r, who, p, q.Note); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]string{"status": "received"})
}

// ---- the moderators ----

// modWho returns the moderator making r: 401 for nobody, 403 for others.
func (f *Forum) modWho(r *http.Request) (site.Identity, error) {
	who, err := f.kit.MustIdentity(r)
	if err != nil {
		return who, err
	}
	if who.Account.ID == 0 {
		return who, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "forum.err.login")
	}
	if !f.moderator(who.Account.ID) {
		return who, apierr.Forbidden("forum.err.moderators")
	}
	return who, nil
}

const maxReason = 500

func reasonOf(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxReason {
		s = string([]rune(s)[:maxReason])
	}
	return s
}

// modPost hides or shows the post of r's path.
func (f *Forum) modPost(r *http.Request, action, reason string) (store.ForumPost, error) {
	who, err := f.modWho(r)
	if err != nil {
		return store.ForumPost{}, err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	p, _, err := f.post(ctx, r.PathValue("id"), who)
	if err != nil {
		return p, err
	}
	if action != "hide" && action != "unhide" && action != "dismiss" {
		return p, apierr.BadRequest(apierr.CodeBadRequest, "forum.err.action", site.Excerpt(action))
	}
	why := fmt.Sprintf("/forum/post/%d", p.ID)
	if reason = reasonOf(reason); reason != "" {
		why += " " + reason
	}
	return p, f.Moderate(ctx, who, store.ForumModeration{Action: "forum_" + action, Post: p.ID, Reason: why})
}

func (f *Forum) pageModPost(w http.ResponseWriter, r *http.Request) error {
	p, err := f.modPost(r, r.FormValue("action"), r.FormValue("reason"))
	if err != nil {
		return err
	}
	if r.FormValue("back") == "reports" {
		return site.Redirect(w, r, "/forum/reports")
	}
	return site.Redirect(w, r, postURL(p))
}

type modRequest struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
	To     string `json:"to"`
}

func (f *Forum) apiModPost(w http.ResponseWriter, r *http.Request) error {
	var q modRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	if _, err := f.modPost(r, q.Action, q.Reason); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]string{"status": "done"})
}

// modTopic locks, unlocks or moves the topic of r's path; it returns the
// topic's page.
func (f *Forum) modTopic(r *http.Request, q modRequest) (string, error) {
	who, err := f.modWho(r)
	if err != nil {
		return "", err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	t, err := f.topic(ctx, r.PathValue("topic"))
	if err != nil {
		return "", err
	}
	m := store.ForumModeration{Topic: t.ID, Reason: fmt.Sprintf("/forum/%s/%d", t.Category, t.ID)}
	if reason := reasonOf(q.Reason); reason != "" {
		m.Reason += " " + reason
	}
	to := t.Category
	switch q.Action {
	case "lock", "unlock":
		m.Action = "forum_" + q.Action
	case "move":
		c, ok := ParseCategory(q.To)
		if !ok || c.ID == t.Category {
			return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.no_category", site.Excerpt(q.To))
		}
		m.Action, m.To, to = "forum_move", c.row(), c.ID
		m.Reason += " → " + c.ID
	default:
		return "", apierr.BadRequest(apierr.CodeBadRequest, "forum.err.action", site.Excerpt(q.Action))
	}
	if err := f.Moderate(ctx, who, m); err != nil {
		return "", err
	}
	return fmt.Sprintf("/forum/%s/%d", to, t.ID), nil
}

func (f *Forum) pageModTopic(w http.ResponseWriter, r *http.Request) error {
	url, err := f.modTopic(r, modRequest{Action: r.FormValue("action"), Reason: r.FormValue("reason"), To: r.FormValue("to")})
	if err != nil {
		return err
	}
	return site.Redirect(w, r, url)
}

func (f *Forum) apiModTopic(w http.ResponseWriter, r *http.Request) error {
	var q modRequest
	if err := site.ReadJSON(w, r, &q); err != nil {
		return err
	}
	url, err := f.modTopic(r, q)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]string{"status": "done", "url": url})
}

// ReportsData is /forum/reports'.
type ReportsData struct {
	Reports []ReportView
}

// ReportView is an open report as the moderators see it.
type ReportView struct {
	Post     PostView
	URL      string
	Title    string
	Reporter string
	Note     string
	Created  time.Time
}

func (f *Forum) pageReports(w http.ResponseWriter, r *http.Request) error {
	who, err := f.modWho(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*site.StoreTimeout)
	defer cancel()
	reps, err := f.cfg.Store.ForumReports(ctx, ReportsShown)
	if err != nil {
		return err
	}
	rd := f.renderer(r)
	var d ReportsData
	for _, rep := range reps {
		d.Reports = append(d.Reports, ReportView{Post: f.postView(ctx, rd, rep.Post, who.Account.ID, true), URL: postURL(rep.Post),
			Title: rep.Title, Reporter: rep.ReporterName, Note: rep.Note, Created: rep.Created})
	}
	return f.kit.Render(w, http.StatusOK, "forum_reports", f.kit.Page(r, "forum.reports.title", d))
}

// HistoryData is a post's edit history, for the moderators.
type HistoryData struct {
	Post    PostView
	URL     string
	Edits   []store.ForumEdit
	Current string
}

func (f *Forum) pageHistory(w http.ResponseWriter, r *http.Request) error {
	who, err := f.modWho(r)
	if err != nil {
		return err
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	p, _, err := f.post(ctx, r.PathValue("id"), who)
	if err != nil {
		return err
	}
	edits, err := f.cfg.Store.ForumEdits(ctx, p.ID)
	if err != nil {
		return err
	}
	d := HistoryData{Post: f.postView(ctx, f.renderer(r), p, who.Account.ID, true), URL: postURL(p), Edits: edits, Current: p.Body}
	return f.kit.Render(w, http.StatusOK, "forum_history", f.kit.Page(r, "forum.history.title", d))
}

// ---- search ----

// SearchData is /forum/search's.
type SearchData struct {
	Query       string
	Hits        []HitView
	Page        int
	Newer       int
	Older       int
	Searched    bool
	Error       string
	MaxQuery    int
	MinQuery    int
	MaxPages    int
	ResultsPage int
}

// HitView is a post a search found.
type HitView struct {
	Post    PostView `json:"post"`
	Title   string   `json:"title"`
	URL     string   `json:"url"`
	Excerpt string   `json:"excerpt"`
}

// excerpt is the start of a post's words, on one line: its Markdown read
// as text, boards and code left out.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(plainText(s)), " ")
	if utf8.RuneCountInString(s) > 200 {
		s = string([]rune(s)[:200]) + "…"
	}
	return s
}

func (f *Forum) search(r *http.Request) (SearchData, error) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	d := SearchData{Query: q, Page: min(site.PageParam(r), MaxSearchPages), MaxQuery: MaxQuery, MinQuery: MinQuery, MaxPages: MaxSearchPages}
	if q == "" {
		return d, nil
	}
	if n := utf8.RuneCountInString(q); n < MinQuery || n > MaxQuery || !utf8.ValidString(q) {
		return d, apierr.BadRequest(apierr.CodeBadRequest, "forum.err.query", MinQuery, MaxQuery)
	}
	who := f.kit.Identity(r)
	key := "a:" + auth.AddrKey(auth.ClientIP(r))
	if who.Account.ID != 0 {
		key = "u:" + strconv.FormatInt(who.Account.ID, 10)
	}
	if !f.searches.Allow(key) {
		return d, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "forum.err.searches")
	}
	ctx, cancel := storeCtx(r)
	defer cancel()
	var ids []string
	for _, c := range PublicCategories() {
		ids = append(ids, c.ID)
	}
	hits, err := f.cfg.Store.SearchForum(ctx, q, ids, SearchPage+1, (d.Page-1)*SearchPage)
	if err != nil {
		return d, err
	}
	d.Searched = true
	if len(hits) > SearchPage {
		hits = hits[:SearchPage]
		if d.Page < MaxSearchPages {
			d.Older = d.Page + 1
		}
	}
	if d.Page > 1 {
		d.Newer = d.Page - 1
	}
	for _, h := range hits {
		p := h.Post
		d.Hits = append(d.Hits, HitView{Post: PostView{ID: p.ID, Topic: p.TopicID, Author: p.AuthorName, Created: p.Created},
			Title: h.Title, URL: fmt.Sprintf("/forum/post/%d", p.ID), Excerpt: excerpt(p.Body)})
	}
	return d, nil
}

func (f *Forum) pageSearch(w http.ResponseWriter, r *http.Request) error {
	d, err := f.search(r)
	if err != nil {
		msg, status, err := f.formError(r, err)
		if err != nil {
			return err
		}
		d.Error = msg
		return f.kit.Render(w, status, "forum_search", f.kit.Page(r, "forum.search.title", d))
	}
	return f.kit.Render(w, http.StatusOK, "forum_search", f.kit.Page(r, "forum.search.title", d))
}

func (f *Forum) apiSearch(w http.ResponseWriter, r *http.Request) error {
	d, err := f.search(r)
	if err != nil {
		return err
	}
	if d.Hits == nil {
		d.Hits = []HitView{}
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"hits": d.Hits, "page": d.Page, "more": d.Older != 0})
}
