package explorer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/i18n"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/svg"
)

// The opening explorer on the site: GET /explorer (the page), GET
// /api/explorer (the same as JSON) and GET /explorer/masters/{n} (a master
// game's record), docs/api.md. The data is the store's trees (the site's
// games and each player's, through Store) and the masters here; the
// engine's value of each move comes from the opening book or a short
// search, cached (eval.go).

// Store is the database's side of the explorer: internal/store, which
// imports this package for the tree's types, satisfies it through an
// adapter of the server's.
type Store interface {
	// Explorer returns the moves played from q.Pos in q's tree.
	Explorer(ctx context.Context, q Query) (Answer, error)
	// Games returns the stored games of ids that exist, in any order.
	Games(ctx context.Context, ids []string) ([]SiteGame, error)
	// UserID returns the account of name; found is false when there is
	// none.
	UserID(ctx context.Context, name string) (id int64, found bool, err error)
}

// Query asks for the moves played from a position in one tree: the
// site's (Player 0) or the games Player played as Color.
type Query struct {
	Pos    uint64 // the position's key
	Player int64
	Color  toguz.Player
	Filter Filter
}

// SiteGame is a game of the site as the explorer lists it.
type SiteGame struct {
	ID, White, Black, Result string
	Date                     time.Time // when it was played; zero when unknown
}

// Explorer answers the explorer's queries.
type Explorer struct {
	st      Store
	masters *Masters
	evals   *evaluator
}

// New returns the explorer of st's trees and the masters' games.
func New(st Store, masters *Masters) *Explorer {
	bk, _ := book.Default() // without the book every value is searched
	return &Explorer{st: st, masters: masters, evals: newEvaluator(bk)}
}

// Site is the explorer's pages and API; its explorer nil, they answer 404.
type Site struct {
	kit site.Kit
	x   *Explorer
}

// NewSite returns the pages of explorer x (nil: none) on the site kit.
func NewSite(kit site.Kit, x *Explorer) *Site { return &Site{kit: kit, x: x} }

// Routes registers the explorer's routes on r.
func (s *Site) Routes(r site.Router) {
	r.API("GET /api/explorer", s.apiExplorer)
	r.Page("GET /explorer", s.pageExplorer)
	r.Page("GET /explorer/masters/{n}", s.pageMasterGame)
}

// explorerTimeout bounds one query's database time.
const explorerTimeout = 2 * time.Second

// maxExplorerPath is how many moves a request may give: the tree ends at
// MaxPly, and the page can still show the position after more.
const maxExplorerPath = 200

// ErrorKeys are the messages of the explorer's errors (for the catalog's
// completeness test).
func ErrorKeys() []string {
	return []string{"explorer.bad.db", "explorer.bad.moves", "explorer.bad.rating", "explorer.bad.tc",
		"explorer.bad.month", "explorer.bad.color", "explorer.bad.player", "explorer.no_player", "explorer.off", "explorer.no_master"}
}

// explorerQuery is a request as the form and the API write it.
type explorerQuery struct {
	DB, Player, Color, Ruleset, Moves, Min, Max, From, To string
	TC                                                    []string
}

// explorerRequest is a request read.
type explorerRequest struct {
	Q      explorerQuery
	DB     string // masters, site or player
	Rules  toguz.Rules
	Path   []toguz.Move
	Pos    toguz.Position
	Color  toguz.Player
	Filter Filter
}

var monthRE = regexp.MustCompile(`^(\d{4})-(\d{2})$`)

// readQuery reads the request's fields as the client wrote them.
func readQuery(v url.Values) explorerQuery {
	q := explorerQuery{DB: v.Get("db"), Player: strings.TrimSpace(v.Get("player")), Color: v.Get("color"),
		Ruleset: v.Get("ruleset"), Moves: strings.TrimSpace(v.Get("moves")), Min: v.Get("min"), Max: v.Get("max"),
		From: v.Get("from"), To: v.Get("to")}
	for _, t := range v["tc"] {
		for _, f := range strings.Split(t, ",") {
			if f = strings.TrimSpace(f); f != "" {
				q.TC = append(q.TC, f)
			}
		}
	}
	return q
}

// badQuery is a 400 of the message key with the English detail.
func badQuery(key, format string, args ...any) error {
	return apierr.BadRequest(apierr.CodeBadRequest, key).WithDetail(fmt.Errorf(format, args...))
}

func parseExplorer(v url.Values) (explorerRequest, error) {
	q := readQuery(v)
	req := explorerRequest{Q: q, DB: q.DB}
	for _, step := range []func(*explorerRequest) error{parseDB, parseColor, parsePath, parseRatings, parseCats, parseMonths} {
		if err := step(&req); err != nil {
			return req, err
		}
	}
	return req, nil
}

// parseDB reads the database, masters unless a player is named.
func parseDB(req *explorerRequest) error {
	q := req.Q
	switch q.DB {
	case "":
		req.DB = "masters"
		if q.Player != "" {
			req.DB = "player"
		}
	case "masters", "site", "player":
	default:
		return badQuery("explorer.bad.db", "db: %q: want masters, site or player", site.Excerpt(q.DB))
	}
	req.Q.DB = req.DB
	if req.DB == "player" && (q.Player == "" || len(q.Player) > 100) {
		return badQuery("explorer.bad.player", "player: a name of 1 to 100 bytes")
	}
	return nil
}

// parseColor reads the colour of the player's games.
func parseColor(req *explorerRequest) error {
	switch req.Q.Color {
	case "", "white":
	case "black":
		req.Color = toguz.Black
	default:
		return badQuery("explorer.bad.color", "color: %q: want white or black", site.Excerpt(req.Q.Color))
	}
	return nil
}

// parsePath reads the ruleset and plays the moves from its start.
func parsePath(req *explorerRequest) error {
	var err error
	if req.Rules, err = site.ParseRuleset(req.Q.Ruleset); err != nil {
		return err
	}
	if req.Pos, err = toguz.NewPosition(req.Rules); err != nil {
		return apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_ruleset", site.Excerpt(req.Q.Ruleset)).WithDetail(err)
	}
	for _, f := range strings.FieldsFunc(req.Q.Moves, func(r rune) bool { return r == ',' || r == ' ' || r == '.' }) {
		h, err := strconv.Atoi(f)
		if err != nil || h < 1 || h > req.Rules.Holes || len(req.Path) >= maxExplorerPath {
			return badQuery("explorer.bad.moves", "moves: %q is not a hole 1 to %d (at most %d moves)", site.Excerpt(f), req.Rules.Holes, maxExplorerPath)
		}
		next, err := req.Pos.Play(toguz.Move(h))
		if err != nil {
			return badQuery("explorer.bad.moves", "moves: ply %d, hole %d: %v", len(req.Path)+1, h, err)
		}
		req.Pos, req.Path = next, append(req.Path, toguz.Move(h))
	}
	return nil
}

// parseRatings reads the bounds of the players' average rating.
func parseRatings(req *explorerRequest) error {
	for _, r := range []struct {
		v  string
		to *int
	}{{req.Q.Min, &req.Filter.MinRating}, {req.Q.Max, &req.Filter.MaxRating}} {
		if r.v == "" {
			continue
		}
		n, err := strconv.Atoi(r.v)
		if err != nil || n < 0 || n > 4000 {
			return badQuery("explorer.bad.rating", "rating: %q is not a whole number from 0 to 4000", site.Excerpt(r.v))
		}
		*r.to = n
	}
	return nil
}

// parseCats reads the time-control categories (CatCode's codes).
func parseCats(req *explorerRequest) error {
	for _, t := range req.Q.TC {
		code := 0
		if t != "none" {
			c, err := rating.ParseCategory(t)
			if err != nil || c.IsBot() {
				return badQuery("explorer.bad.tc", "tc: %q: want none, bullet, blitz, rapid, classical or correspondence", site.Excerpt(t))
			}
			code = 1 + int(c)
		}
		if !slices.Contains(req.Filter.Cats, code) {
			req.Filter.Cats = append(req.Filter.Cats, code)
		}
	}
	return nil
}

// parseMonths reads the first and last months of the games.
func parseMonths(req *explorerRequest) error {
	for _, m := range []struct {
		v  string
		to *int
	}{{req.Q.From, &req.Filter.FromMonth}, {req.Q.To, &req.Filter.ToMonth}} {
		if m.v == "" {
			continue
		}
		t, err := time.Parse("2006-01", m.v)
		if err != nil || !monthRE.MatchString(m.v) {
			return badQuery("explorer.bad.month", "month: %q is not a month YYYY-MM", site.Excerpt(m.v))
		}
		*m.to = Month(t)
	}
	return nil
}

// explorerMove is a line of the move table.
type explorerMove struct {
	Hole      int    `json:"hole"`
	Notation  string `json:"notation"`
	Games     int64  `json:"games"`
	White     int64  `json:"white"`
	Draws     int64  `json:"draws"`
	Black     int64  `json:"black"`
	AvgRating int    `json:"avg_rating,omitempty"`
	// Eval is the engine's value of the position after the move, in
	// hundredths of a stone for White; absent when none was found in time.
	Eval       *int   `json:"eval,omitempty"`
	EvalSource string `json:"eval_source,omitempty"` // "book" or "search"
	// WhitePct, DrawPct and BlackPct are the bar's widths (whole percents).
	WhitePct int    `json:"-"`
	DrawPct  int    `json:"-"`
	BlackPct int    `json:"-"`
	Bar      string `json:"-"` // the bar's words, for screen readers
	Link     string `json:"-"`
}

// explorerGame is a game of the list.
type explorerGame struct {
	ID     string     `json:"id"`
	URL    string     `json:"url"`
	White  string     `json:"white"`
	Black  string     `json:"black"`
	Result string     `json:"result"`
	Rating int        `json:"rating,omitempty"`
	Date   *time.Time `json:"date,omitempty"`
	Year   string     `json:"-"`
	Top    bool       `json:"top"` // among the highest rated (else the most recent)
}

// explorerAnswer is the JSON answer and the page's data.
type explorerAnswer struct {
	DB      string         `json:"db"`
	Player  string         `json:"player,omitempty"`
	Color   string         `json:"color,omitempty"`
	Ruleset string         `json:"ruleset"`
	Path    []int          `json:"path"`
	FEN     string         `json:"fen"`
	Turn    string         `json:"turn"`
	Deep    bool           `json:"deep"` // past MaxPly: the tree has no moves here
	Total   explorerMove   `json:"total"`
	Moves   []explorerMove `json:"moves"`
	Games   []explorerGame `json:"games"`
}

// line is the move table's line of s.
func line(s Stats) explorerMove {
	m := explorerMove{Hole: int(s.Move), Games: s.Games, White: s.White, Draws: s.Draws, Black: s.Black, AvgRating: s.AvgRating()}
	if s.Games > 0 {
		m.WhitePct = int(s.White * 100 / s.Games)
		m.BlackPct = int(s.Black * 100 / s.Games)
		m.DrawPct = 100 - m.WhitePct - m.BlackPct
	}
	return m
}

func (x *Explorer) answer(ctx context.Context, req explorerRequest) (explorerAnswer, error) {
	out := explorerAnswer{DB: req.DB, Ruleset: req.Rules.String(), Path: []int{}, FEN: req.Pos.FEN(),
		Turn: req.Pos.Turn().String(), Deep: len(req.Path) >= MaxPly, Moves: []explorerMove{}, Games: []explorerGame{}}
	for _, m := range req.Path {
		out.Path = append(out.Path, int(m))
	}
	var a Answer
	switch req.DB {
	case "masters":
		a = x.masters.Query(req.Pos.Key(), req.Filter)
	default:
		q := Query{Pos: req.Pos.Key(), Filter: req.Filter}
		if req.DB == "player" {
			id, err := x.lookupUserID(ctx, req.Q.Player)
			if err != nil {
				return out, err
			}
			q.Player, q.Color = id, req.Color
			out.Player, out.Color = req.Q.Player, [2]string{"white", "black"}[req.Color]
		}
		qctx, cancel := context.WithTimeout(ctx, explorerTimeout)
		defer cancel()
		var err error
		if a, err = x.st.Explorer(qctx, q); err != nil {
			return out, err
		}
	}
	out.Total = line(a.Total())
	evalCtx, cancel := context.WithTimeout(ctx, evalBudget)
	defer cancel()
	for _, s := range a.Moves {
		m := line(s)
		m.Notation, _ = req.Pos.Notation(s.Move)
		if v, src, ok := x.evals.value(evalCtx, req.Pos, s.Move); ok {
			m.Eval, m.EvalSource = &v, src
		}
		out.Moves = append(out.Moves, m)
	}
	games, err := x.games(ctx, a)
	out.Games = games
	return out, err
}

// games looks up the games of an answer.
func (x *Explorer) games(ctx context.Context, a Answer) ([]explorerGame, error) {
	refs := slices.Concat(a.Top, a.Recent)
	out := make([]explorerGame, 0, len(refs))
	var ids []string
	for _, r := range refs {
		if n, ok := ParseMasterID(r.ID); ok {
			g, ok := x.masters.Game(n)
			if !ok {
				continue
			}
			eg := explorerGame{ID: r.ID, URL: "/explorer/masters/" + strconv.Itoa(n), White: g.White, Black: g.Black,
				Result: g.Result.String(), Rating: g.Rating, Year: g.Year, Top: slices.Contains(a.Top, r)}
			if !g.Date.IsZero() && g.Year == "" {
				d := g.Date
				eg.Date = &d
			}
			out = append(out, eg)
			continue
		}
		ids = append(ids, r.ID)
	}
	if len(ids) == 0 {
		return out, nil
	}
	gs, err := x.st.Games(ctx, ids)
	if err != nil {
		return out, err
	}
	byID := map[string]SiteGame{}
	for _, g := range gs {
		byID[g.ID] = g
	}
	for _, r := range refs {
		g, ok := byID[r.ID]
		if !ok {
			continue
		}
		eg := explorerGame{ID: g.ID, URL: "/game/" + g.ID, White: g.White, Black: g.Black,
			Result: g.Result, Rating: r.Rating, Top: slices.Contains(a.Top, r)}
		if !g.Date.IsZero() {
			d := g.Date
			eg.Date = &d
		}
		out = append(out, eg)
	}
	return out, nil
}

// ---- handlers ----

func (x *Explorer) lookupUserID(ctx context.Context, name string) (int64, error) {
	id, found, err := x.st.UserID(ctx, name)
	if err == nil && !found {
		return 0, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.no_player", site.Excerpt(name))
	}
	return id, err
}

func (s *Site) explore(r *http.Request) (explorerRequest, explorerAnswer, error) {
	if s.x == nil {
		return explorerRequest{}, explorerAnswer{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.off")
	}
	req, err := parseExplorer(r.URL.Query())
	if err != nil {
		return req, explorerAnswer{}, err
	}
	a, err := s.x.answer(r.Context(), req)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		return req, a, apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "archive.busy", explorerTimeout.Seconds())
	}
	return req, a, err
}

func (s *Site) apiExplorer(w http.ResponseWriter, r *http.Request) error {
	_, a, err := s.explore(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, a)
}

// explorerPage is the explorer page's data.
type explorerPage struct {
	Q        explorerQuery
	A        explorerAnswer
	Board    template.HTML
	Kazans   [2]int
	Rulesets []string
	Cats     []string
	Bands    []int
	Crumbs   []explorerCrumb // the moves played to here, each a link back
	Up       string          // the link one move back; "" at the start
	Filtered bool            // a filter is set: the filters are shown open
	DBs      []string
	// StartLink is the start position with the same database and filters.
	StartLink string
	Error     string
}

// FormatEval writes a value for White in stones, signed: "+1.25".
func (explorerPage) FormatEval(v *int) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%+.2f", float64(*v)/100)
}

// explorerCrumb is a move of the path to the position.
type explorerCrumb struct {
	Number   string // "1." before White's move
	Notation string
	Link     string
}

// link returns the page's URL for q with the moves path.
func (q explorerQuery) link(path []int) string {
	v := url.Values{}
	for _, f := range []struct{ k, v string }{{"db", q.DB}, {"player", q.Player}, {"color", q.Color}, {"ruleset", q.Ruleset},
		{"min", q.Min}, {"max", q.Max}, {"from", q.From}, {"to", q.To}} {
		if f.v != "" {
			v.Set(f.k, f.v)
		}
	}
	if len(q.TC) > 0 {
		v["tc"] = q.TC
	}
	if len(path) > 0 {
		ps := make([]string, len(path))
		for i, h := range path {
			ps[i] = strconv.Itoa(h)
		}
		v.Set("moves", strings.Join(ps, ","))
	}
	return "/explorer?" + v.Encode()
}

// HasTC reports whether the category c is selected, for the form.
func (q explorerQuery) HasTC(c string) bool { return slices.Contains(q.TC, c) }

var svgTitle = regexp.MustCompile(`<title>[^<]*</title>`)

// board draws pos for the page, its words in lang.
func board(cat *i18n.Catalog, lang string, pos toguz.Position) (template.HTML, error) {
	// The board, drawn here; its English title replaced by the page's words.
	pic, err := svg.Render(pos, svg.Options{Width: 360})
	if err != nil {
		return "", err
	}
	title := cat.T(lang, "explorer.board", pos.Kazan(toguz.White), pos.Kazan(toguz.Black), cat.T(lang, "explorer.turn."+pos.Turn().String()))
	pic = svgTitle.ReplaceAll(pic, []byte("<title>"+template.HTMLEscapeString(title)+"</title>"))
	// The drawing's words are English: each is put in the page's language.
	for _, w := range []struct{ en, key string }{{"White", "explorer.side.white"}, {"Black", "explorer.side.black"},
		{"kazan", "explorer.kazan"}, {"tuzdik", "explorer.tuzdik"}, {"to move ◀", "explorer.to_move"}} {
		pic = bytes.ReplaceAll(pic, []byte(">"+w.en+"</text>"), []byte(">"+template.HTMLEscapeString(cat.T(lang, w.key))+"</text>"))
	}
	return template.HTML(pic), nil // our own drawing: no text of the request
}

// links sets the page's links: the crumbs of the path, one move back and
// one move on by each move of the table, with the bars' words in lang.
func (d *explorerPage) links(cat *i18n.Catalog, lang string, rules toguz.Rules) {
	path := slices.Clone(d.A.Path)
	p, _ := toguz.NewPosition(rules)
	for i, h := range path {
		c := explorerCrumb{Link: d.Q.link(path[:i+1])}
		if i%2 == 0 {
			c.Number = strconv.Itoa(i/2+1) + "."
		}
		c.Notation, _ = p.Notation(toguz.Move(h))
		p = p.After(toguz.Move(h))
		d.Crumbs = append(d.Crumbs, c)
	}
	if len(path) > 0 {
		d.Up = d.Q.link(path[:len(path)-1])
	}
	bar := func(m *explorerMove) {
		m.Bar = cat.T(lang, "explorer.bar", m.WhitePct, m.DrawPct, m.BlackPct)
	}
	for i := range d.A.Moves {
		d.A.Moves[i].Link = d.Q.link(append(slices.Clone(path), d.A.Moves[i].Hole))
		bar(&d.A.Moves[i])
	}
	bar(&d.A.Total)
}

func (s *Site) pageExplorer(w http.ResponseWriter, r *http.Request) error {
	req, a, err := s.explore(r)
	d := explorerPage{Q: req.Q, A: a, Rulesets: toguz.RulesetNames(), Bands: BandFloors()[1:],
		Cats: []string{"bullet", "blitz", "rapid", "classical", "correspondence", "none"},
		DBs:  []string{"masters", "site", "player"}, StartLink: req.Q.link(nil),
		Filtered: req.Q.Min != "" || req.Q.Max != "" || req.Q.From != "" || req.Q.To != "" || len(req.Q.TC) > 0 || req.Q.Player != ""}
	cat, lang := s.kit.Catalog(), s.kit.Lang(r)
	status := http.StatusOK
	if err != nil {
		e := s.kit.AsError(r, err)
		if e.Status != http.StatusBadRequest && e.Status != http.StatusNotFound && e.Code != apierr.CodeBusy {
			return err
		}
		d.Error, status = s.kit.Message(r, e), e.Status
		if req.Pos == (toguz.Position{}) {
			req.Pos = toguz.StartPosition()
		}
	}
	if d.Board, err = board(cat, lang, req.Pos); err != nil {
		return err
	}
	d.Kazans = [2]int{req.Pos.Kazan(toguz.White), req.Pos.Kazan(toguz.Black)}
	d.links(cat, lang, req.Rules)
	return s.kit.Render(w, status, "explorer", s.kit.Page(r, "explorer.title", d))
}

// masterPage is a master game's page.
type masterPage struct {
	Game   MasterGame
	Record string
	Link   string // the explorer at the game's start
}

func (s *Site) pageMasterGame(w http.ResponseWriter, r *http.Request) error {
	n, err := strconv.Atoi(r.PathValue("n"))
	if s.x == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.off")
	}
	g, ok := s.x.masters.Game(n)
	if err != nil || !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.no_master", site.Excerpt(r.PathValue("n")))
	}
	var path []int
	for _, m := range g.Moves {
		path = append(path, int(m))
	}
	d := masterPage{Game: g, Record: g.Record.String(), Link: explorerQuery{DB: "masters"}.link(path[:min(len(path), MaxPly)])}
	return s.kit.Render(w, http.StatusOK, "master", s.kit.Page(r, "explorer.master.title", d, g.White, g.Black))
}
