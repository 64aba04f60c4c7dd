package server

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
	"sync"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/book"
	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/explorer"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/svg"
)

// The opening explorer: GET /explorer (the page), GET /api/explorer (the
// same as JSON) and GET /explorer/masters/{n} (a master game's record),
// docs/api.md. The data is internal/store's tree (the site's games and
// each player's) and internal/explorer's masters; the engine's value of
// each move comes from the opening book or a short search, cached.

// Explorer answers the explorer's queries.
type Explorer struct {
	st      *store.Store
	masters *explorer.Masters
	evals   *evaluator
}

// NewExplorer returns the explorer of st's trees and the masters' games.
func NewExplorer(st *store.Store, masters *explorer.Masters) *Explorer {
	bk, _ := book.Default() // without the book every value is searched
	return &Explorer{st: st, masters: masters, evals: newEvaluator(bk)}
}

// explorerTimeout bounds one query's database time.
const explorerTimeout = 2 * time.Second

// maxExplorerPath is how many moves a request may give: the tree ends at
// explorer.MaxPly, and the page can still show the position after more.
const maxExplorerPath = 200

// explorerErrorKeys are the messages of the explorer's bad requests.
var explorerErrorKeys = []string{"explorer.bad.db", "explorer.bad.moves", "explorer.bad.rating", "explorer.bad.tc",
	"explorer.bad.month", "explorer.bad.color", "explorer.bad.player", "explorer.no_player", "explorer.off", "explorer.no_master", "database.no_file"}

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
	Filter explorer.Filter
}

var monthRE = regexp.MustCompile(`^(\d{4})-(\d{2})$`)

func parseExplorer(v url.Values) (explorerRequest, error) {
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
	req := explorerRequest{Q: q, DB: q.DB}
	bad := func(key, format string, args ...any) error {
		return apierr.BadRequest(apierr.CodeBadRequest, key).WithDetail(fmt.Errorf(format, args...))
	}
	switch q.DB {
	case "":
		req.DB = "masters"
		if q.Player != "" {
			req.DB = "player"
		}
	case "masters", "site", "player":
	default:
		return req, bad("explorer.bad.db", "db: %q: want masters, site or player", excerpt(q.DB))
	}
	req.Q.DB = req.DB
	if req.DB == "player" && (q.Player == "" || len(q.Player) > 100) {
		return req, bad("explorer.bad.player", "player: a name of 1 to 100 bytes")
	}
	switch q.Color {
	case "", "white":
	case "black":
		req.Color = toguz.Black
	default:
		return req, bad("explorer.bad.color", "color: %q: want white or black", excerpt(q.Color))
	}
	var err error
	if req.Rules, err = parseRuleset(q.Ruleset); err != nil {
		return req, err
	}
	if req.Pos, err = toguz.NewPosition(req.Rules); err != nil {
		return req, apierr.BadRequest(apierr.CodeBadRequest, "apierr.bad_ruleset", excerpt(q.Ruleset)).WithDetail(err)
	}
	for _, f := range strings.FieldsFunc(q.Moves, func(r rune) bool { return r == ',' || r == ' ' || r == '.' }) {
		h, err := strconv.Atoi(f)
		if err != nil || h < 1 || h > req.Rules.Holes || len(req.Path) >= maxExplorerPath {
			return req, bad("explorer.bad.moves", "moves: %q is not a hole 1 to %d (at most %d moves)", excerpt(f), req.Rules.Holes, maxExplorerPath)
		}
		next, err := req.Pos.Play(toguz.Move(h))
		if err != nil {
			return req, bad("explorer.bad.moves", "moves: ply %d, hole %d: %v", len(req.Path)+1, h, err)
		}
		req.Pos, req.Path = next, append(req.Path, toguz.Move(h))
	}
	for _, r := range []struct {
		v  string
		to *int
	}{{q.Min, &req.Filter.MinRating}, {q.Max, &req.Filter.MaxRating}} {
		if r.v == "" {
			continue
		}
		n, err := strconv.Atoi(r.v)
		if err != nil || n < 0 || n > 4000 {
			return req, bad("explorer.bad.rating", "rating: %q is not a whole number from 0 to 4000", excerpt(r.v))
		}
		*r.to = n
	}
	for _, t := range q.TC {
		code := 0
		if t != "none" {
			c, err := rating.ParseCategory(t)
			if err != nil || c.IsBot() {
				return req, bad("explorer.bad.tc", "tc: %q: want none, bullet, blitz, rapid, classical or correspondence", excerpt(t))
			}
			code = 1 + int(c)
		}
		if !slices.Contains(req.Filter.Cats, code) {
			req.Filter.Cats = append(req.Filter.Cats, code)
		}
	}
	for _, m := range []struct {
		v  string
		to *int
	}{{q.From, &req.Filter.FromMonth}, {q.To, &req.Filter.ToMonth}} {
		if m.v == "" {
			continue
		}
		t, err := time.Parse("2006-01", m.v)
		if err != nil || !monthRE.MatchString(m.v) {
			return req, bad("explorer.bad.month", "month: %q is not a month YYYY-MM", excerpt(m.v))
		}
		*m.to = explorer.Month(t)
	}
	return req, nil
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
	Deep    bool           `json:"deep"` // past explorer.MaxPly: the tree has no moves here
	Total   explorerMove   `json:"total"`
	Moves   []explorerMove `json:"moves"`
	Games   []explorerGame `json:"games"`
}

func (x *Explorer) answer(ctx context.Context, req explorerRequest, lookupUser func(context.Context, string) (int64, error)) (explorerAnswer, error) {
	out := explorerAnswer{DB: req.DB, Ruleset: req.Rules.String(), Path: []int{}, FEN: req.Pos.FEN(),
		Turn: req.Pos.Turn().String(), Deep: len(req.Path) >= explorer.MaxPly, Moves: []explorerMove{}, Games: []explorerGame{}}
	for _, m := range req.Path {
		out.Path = append(out.Path, int(m))
	}
	var a explorer.Answer
	switch req.DB {
	case "masters":
		a = x.masters.Query(req.Pos.Key(), req.Filter)
	default:
		q := store.ExplorerQuery{Pos: req.Pos.Key(), Tree: store.SiteTree, Filter: req.Filter}
		if req.DB == "player" {
			id, err := lookupUser(ctx, req.Q.Player)
			if err != nil {
				return out, err
			}
			q.Tree = store.PlayerTree(id, req.Color)
			out.Player, out.Color = req.Q.Player, [2]string{"white", "black"}[req.Color]
		}
		qctx, cancel := context.WithTimeout(ctx, explorerTimeout)
		defer cancel()
		var err error
		if a, err = x.st.Explorer(qctx, q); err != nil {
			return out, err
		}
	}
	line := func(s explorer.Stats) explorerMove {
		m := explorerMove{Hole: int(s.Move), Games: s.Games, White: s.White, Draws: s.Draws, Black: s.Black, AvgRating: s.AvgRating()}
		if s.Games > 0 {
			m.WhitePct = int(s.White * 100 / s.Games)
			m.BlackPct = int(s.Black * 100 / s.Games)
			m.DrawPct = 100 - m.WhitePct - m.BlackPct
		}
		return m
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
func (x *Explorer) games(ctx context.Context, a explorer.Answer) ([]explorerGame, error) {
	refs := slices.Concat(a.Top, a.Recent)
	out := make([]explorerGame, 0, len(refs))
	var ids []string
	for _, r := range refs {
		if n, ok := explorer.ParseMasterID(r.ID); ok {
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
	gs, err := x.st.GamesByID(ctx, ids)
	if err != nil {
		return out, err
	}
	byID := map[string]store.Game{}
	for _, g := range gs {
		byID[g.ID] = g
	}
	for _, r := range refs {
		g, ok := byID[r.ID]
		if !ok {
			continue
		}
		eg := explorerGame{ID: g.ID, URL: "/game/" + g.ID, White: g.Players[0].Name, Black: g.Players[1].Name,
			Result: g.Result.String(), Rating: r.Rating, Top: slices.Contains(a.Top, r)}
		if !g.Date.IsZero() {
			d := g.Date
			eg.Date = &d
		}
		out = append(out, eg)
	}
	return out, nil
}

// ---- the engine's values ----

// evalBudget bounds the time one request spends searching values it has
// not cached; the moves left get none (shown as a dash).
const evalBudget = 150 * time.Millisecond

// evalDepth and evalTime bound one search: a quick, stable value, not
// analysis.
const (
	evalDepth    = 8
	evalTime     = 40 * time.Millisecond
	evalCacheMax = 50_000
)

// evaluator gives the value of a position after a move: the opening book's
// (its engine check, depth 8) or a short search, cached. One search at a
// time: a request that finds the engine busy leaves the value out rather
// than wait.
type evaluator struct {
	book *book.Book
	mu   sync.Mutex // guards eng
	// eng is made at the first search: a server whose explorer is never
	// asked keeps no hash table.
	eng  *engine.Engine
	fail bool // the engine could not be made

	cmu   sync.Mutex
	cache map[uint64]int // key of the position after the move → value for White
}

func newEvaluator(bk *book.Book) *evaluator {
	return &evaluator{book: bk, cache: map[uint64]int{}}
}

// value returns the value for White of p after m, and where it came from.
func (e *evaluator) value(ctx context.Context, p toguz.Position, m toguz.Move) (int, string, bool) {
	white := func(v int, mover toguz.Player) int {
		if mover == toguz.Black {
			return -v
		}
		return v
	}
	if e.book != nil {
		for _, en := range e.book.Moves(p) {
			if en.Move == m && en.Eval != book.NoEval {
				return white(int(en.Eval), p.Turn()), "book", true
			}
		}
	}
	after := p.After(m)
	k := after.Key()
	e.cmu.Lock()
	v, ok := e.cache[k]
	e.cmu.Unlock()
	if ok {
		return v, "search", true
	}
	if after.IsOver() || ctx.Err() != nil || !e.mu.TryLock() {
		return 0, "", false
	}
	if e.eng == nil && !e.fail {
		o := engine.DefaultOptions()
		o.HashMB = 8
		var err error
		e.eng, err = engine.New(o)
		e.fail = err != nil
	}
	if e.eng == nil {
		e.mu.Unlock()
		return 0, "", false
	}
	res := e.eng.Search(ctx, after, engine.Limits{Depth: evalDepth, MoveTime: evalTime}, nil)
	e.mu.Unlock()
	if ctx.Err() != nil || res.Depth == 0 || res.Score.IsMate() {
		return 0, "", false
	}
	// The search's score is for the player to move after m.
	v = white(int(res.Score), after.Turn())
	e.cmu.Lock()
	if len(e.cache) >= evalCacheMax {
		clear(e.cache) // bounded: a full cache starts again
	}
	e.cache[k] = v
	e.cmu.Unlock()
	return v, "search", true
}

// ---- handlers ----

func (s *Server) lookupUserID(ctx context.Context, name string) (int64, error) {
	id, err := s.cfg.Explorer.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return 0, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.no_player", excerpt(name))
	}
	return id.ID, err
}

func (s *Server) explore(r *http.Request) (explorerRequest, explorerAnswer, error) {
	if s.cfg.Explorer == nil {
		return explorerRequest{}, explorerAnswer{}, apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.off")
	}
	req, err := parseExplorer(r.URL.Query())
	if err != nil {
		return req, explorerAnswer{}, err
	}
	a, err := s.cfg.Explorer.answer(r.Context(), req, s.lookupUserID)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		return req, a, apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "archive.busy", explorerTimeout.Seconds())
	}
	return req, a, err
}

func (s *Server) apiExplorer(w http.ResponseWriter, r *http.Request) error {
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

func (s *Server) pageExplorer(w http.ResponseWriter, r *http.Request) error {
	req, a, err := s.explore(r)
	d := explorerPage{Q: req.Q, A: a, Rulesets: toguz.RulesetNames(), Bands: explorer.BandFloors()[1:],
		Cats: []string{"bullet", "blitz", "rapid", "classical", "correspondence", "none"},
		DBs:  []string{"masters", "site", "player"}, StartLink: req.Q.link(nil),
		Filtered: req.Q.Min != "" || req.Q.Max != "" || req.Q.From != "" || req.Q.To != "" || len(req.Q.TC) > 0 || req.Q.Player != ""}
	lang := s.Lang(r)
	status := http.StatusOK
	if err != nil {
		e := s.AsError(r, err)
		if e.Status != http.StatusBadRequest && e.Status != http.StatusNotFound && e.Code != apierr.CodeBusy {
			return err
		}
		d.Error, status = s.Message(r, e), e.Status
		if req.Pos == (toguz.Position{}) {
			req.Pos = toguz.StartPosition()
		}
	}
	// The board, drawn here; its English title replaced by the page's words.
	pic, err := svg.Render(req.Pos, svg.Options{Width: 360})
	if err != nil {
		return err
	}
	d.Kazans = [2]int{req.Pos.Kazan(toguz.White), req.Pos.Kazan(toguz.Black)}
	title := s.cat.T(lang, "explorer.board", d.Kazans[0], d.Kazans[1], s.cat.T(lang, "explorer.turn."+req.Pos.Turn().String()))
	pic = svgTitle.ReplaceAll(pic, []byte("<title>"+template.HTMLEscapeString(title)+"</title>"))
	// The drawing's words are English: each is put in the page's language.
	for _, w := range []struct{ en, key string }{{"White", "explorer.side.white"}, {"Black", "explorer.side.black"},
		{"kazan", "explorer.kazan"}, {"tuzdik", "explorer.tuzdik"}, {"to move ◀", "explorer.to_move"}} {
		pic = bytes.ReplaceAll(pic, []byte(">"+w.en+"</text>"), []byte(">"+template.HTMLEscapeString(s.cat.T(lang, w.key))+"</text>"))
	}
	d.Board = template.HTML(pic) // our own drawing: no text of the request
	path := slices.Clone(a.Path)
	p, _ := toguz.NewPosition(req.Rules)
	for i, h := range path {
		c := explorerCrumb{Link: req.Q.link(path[:i+1])}
		if i%2 == 0 {
			c.Number = strconv.Itoa(i/2+1) + "."
		}
		c.Notation, _ = p.Notation(toguz.Move(h))
		p = p.After(toguz.Move(h))
		d.Crumbs = append(d.Crumbs, c)
	}
	if len(path) > 0 {
		d.Up = req.Q.link(path[:len(path)-1])
	}
	bar := func(m *explorerMove) {
		m.Bar = s.cat.T(lang, "explorer.bar", m.WhitePct, m.DrawPct, m.BlackPct)
	}
	for i := range d.A.Moves {
		d.A.Moves[i].Link = req.Q.link(append(slices.Clone(path), d.A.Moves[i].Hole))
		bar(&d.A.Moves[i])
	}
	bar(&d.A.Total)
	return s.Render(w, status, "explorer", s.Page(r, "explorer.title", d))
}

// masterPage is a master game's page.
type masterPage struct {
	Game   explorer.MasterGame
	Record string
	Link   string // the explorer at the game's start
}

func (s *Server) pageMasterGame(w http.ResponseWriter, r *http.Request) error {
	n, err := strconv.Atoi(r.PathValue("n"))
	if s.cfg.Explorer == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.off")
	}
	g, ok := s.cfg.Explorer.masters.Game(n)
	if err != nil || !ok {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "explorer.no_master", excerpt(r.PathValue("n")))
	}
	var path []int
	for _, m := range g.Moves {
		path = append(path, int(m))
	}
	d := masterPage{Game: g, Record: g.Record.String(), Link: explorerQuery{DB: "masters"}.link(path[:min(len(path), explorer.MaxPly)])}
	return s.Render(w, http.StatusOK, "master", s.Page(r, "explorer.master.title", d, g.White, g.Black))
}
