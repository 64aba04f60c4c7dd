package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/rating"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
)

// Archive is what the pages and the API read from the database besides the
// live games.
type Archive interface {
	// Game loads a stored game (errors wrap live.ErrNotFound).
	Game(ctx context.Context, id string) (game.Saved, error)
	// Profile returns a user's ratings and rating history (errors wrap
	// live.ErrNotFound for an unknown name).
	Profile(ctx context.Context, name string) (Profile, error)
	// UserGames returns a user's games, newest first.
	UserGames(ctx context.Context, name string, limit int) ([]GameSummary, error)
	// Leaderboard returns the best players of a category with a stable
	// (not provisional) rating.
	Leaderboard(ctx context.Context, c rating.Category, limit int) ([]LeaderRow, error)
	// Import stores the games of one import, all or none; a game stored
	// already is linked to (Duplicate). by names the importer ("u:<id>" or
	// "a:<address>"), who may store at most perDay new games in 24 hours
	// (errors wrap *store.QuotaError beyond).
	Import(ctx context.Context, by string, perDay int, games []store.Import) ([]store.Stored, error)
	// Search returns a page of the archive's finished games, newest first,
	// and whether more follow.
	Search(ctx context.Context, q store.Search) ([]GameSummary, bool, error)
	// Tags returns the tags of an imported game's record (none for a
	// played game), which its export gives back.
	Tags(ctx context.Context, id string) ([]toguz.Tag, error)
	// SetLang stores the interface language an account chose.
	SetLang(ctx context.Context, userID int64, lang string) error
}

// Profile is a user's public page.
type Profile struct {
	Name    string                `json:"name"`
	Created time.Time             `json:"created"`
	Ratings map[string]RatingInfo `json:"ratings"`
	History []RatingPoint         `json:"history"`
}

// RatingInfo is a rating in one category.
type RatingInfo struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// RatingPoint is one entry of the rating history.
type RatingPoint struct {
	Category string    `json:"category"`
	At       time.Time `json:"at"`
	Rating   float64   `json:"rating"`
}

// GameSummary is a line of a game list.
type GameSummary struct {
	ID    string `json:"id"`
	White string `json:"white"`
	Black string `json:"black"`
	// WhiteEngine and BlackEngine are the engine's level on its side, 0
	// for a person (the pages name the engine in their language).
	WhiteEngine int       `json:"white_engine,omitempty"`
	BlackEngine int       `json:"black_engine,omitempty"`
	Status      string    `json:"status"`
	Result      string    `json:"result"`
	Termination string    `json:"termination"`
	TC          string    `json:"tc"`
	Rated       bool      `json:"rated"`
	Plies       int       `json:"plies"`
	Created     time.Time `json:"created"`
	// Source is "play" for a game played here, "import" for an imported one.
	Source string `json:"source"`
	// Date is when it was played (an imported record's Date); absent when unknown.
	Date *time.Time `json:"date,omitempty"`
}

// LeaderRow is a line of the leaderboard.
type LeaderRow struct {
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}

// The archive's pages: GET /archive (the search form and a page of
// games) and GET /api/archive (the same as JSON), docs/api.md.

// archiveLimit is a page's games when the query does not say.
const archiveLimit = 50

// searchTimeout bounds the database time of one search: filters that few
// games match may read many (store.SearchGames), and a stranger must not
// keep a reader busy for long.
const searchTimeout = 3 * time.Second

// archiveQuery is a search as the form and the API write it.
type archiveQuery struct {
	Player, From, To, Result, Ruleset, Opening, Source string
	Limit, Offset                                      int
}

// parseArchiveQuery reads a search from the URL's query.
func parseArchiveQuery(v url.Values) (archiveQuery, store.Search, error) {
	aq := archiveQuery{Player: strings.TrimSpace(v.Get("player")), From: v.Get("from"), To: v.Get("to"),
		Result: v.Get("result"), Ruleset: v.Get("ruleset"), Opening: strings.TrimSpace(v.Get("opening")), Source: v.Get("source")}
	q := store.Search{Player: aq.Player, Limit: archiveLimit}
	var err error
	if len(aq.Player) > 100 {
		return aq, q, badField("player", "player: a name is at most 100 bytes")
	}
	for _, f := range []struct {
		name, v string
		to      *int
		lo, hi  int
	}{{"limit", v.Get("limit"), &q.Limit, 1, store.MaxSearchLimit}, {"offset", v.Get("offset"), &q.Offset, 0, store.MaxSearchOffset}} {
		if f.v == "" {
			continue
		}
		n, err := strconv.Atoi(f.v)
		if err != nil || n < f.lo || n > f.hi {
			return aq, q, badField(f.name, "%s: %q is not a whole number from %d to %d", f.name, site.Excerpt(f.v), f.lo, f.hi)
		}
		*f.to = n
	}
	aq.Limit, aq.Offset = q.Limit, q.Offset
	for _, d := range []struct {
		name, v string
		to      *time.Time
		next    bool
	}{{"from", aq.From, &q.From, false}, {"to", aq.To, &q.To, true}} {
		if d.v == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, d.v)
		if err != nil {
			return aq, q, badField(d.name, "%s: %q is not a date YYYY-MM-DD", d.name, site.Excerpt(d.v))
		}
		if d.next {
			t = t.AddDate(0, 0, 1) // "to" is the last day searched
		}
		*d.to = t
	}
	if aq.Result != "" {
		r, err := toguz.ParseResult(aq.Result)
		if err != nil || r == toguz.NoResult {
			return aq, q, badField("result", "result: %q: want 1-0, 0-1 or 1/2-1/2", site.Excerpt(aq.Result))
		}
		q.Result = &r
	}
	if aq.Ruleset != "" {
		r, err := site.ParseRuleset(aq.Ruleset)
		if err != nil {
			return aq, q, &fieldError{field: "ruleset", err: err}
		}
		q.Rules = &r
	}
	if q.Opening, err = parseOpening(aq.Opening); err != nil {
		return aq, q, err
	}
	switch aq.Source {
	case "", "play", "import":
		q.Source = store.Source(aq.Source)
	default:
		return aq, q, badField("source", "source: %q: want play or import", site.Excerpt(aq.Source))
	}
	return aq, q, nil
}

// fieldError is a bad value of one field of a search: its message is the
// field's text (archive.bad.<field>) in the request's language, with the
// English particulars as its detail.
type fieldError struct {
	field string
	err   error // an *apierr.Error
}

func (e *fieldError) Error() string { return e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// archiveFieldKeys are the messages of the search's fields.
var archiveFieldKeys = map[string]string{
	"from": "archive.bad.from", "to": "archive.bad.to", "limit": "archive.bad.limit", "offset": "archive.bad.offset",
	"opening": "archive.bad.opening", "player": "archive.bad.player", "result": "archive.bad.result",
	"ruleset": "archive.bad.ruleset", "source": "archive.bad.source",
}

func badField(field, format string, args ...any) error {
	return &fieldError{field: field, err: apierr.BadRequest(apierr.CodeBadRequest, archiveFieldKeys[field]).WithDetail(fmt.Errorf(format, args...))}
}

// parseOpening reads the first moves of a search: holes ("7 3 2") or
// score-sheet plies ("76 98", "1. 76 98", with x for a tuzdik), of which
// the hole, the first digit, is what is searched.
func parseOpening(s string) ([]toguz.Move, error) {
	var out []toguz.Move
	for _, f := range strings.Fields(s) {
		if strings.HasSuffix(f, ".") {
			continue // a move number
		}
		if f[0] < '1' || f[0] > '9' || len(f) > 4 {
			return nil, badField("opening", "opening: %q is not a move (a hole 1 to 9, or a score-sheet ply such as 76)", site.Excerpt(f))
		}
		out = append(out, toguz.Move(f[0]-'0'))
		if len(out) > 20 {
			return nil, badField("opening", "opening: at most 20 moves are searched")
		}
	}
	return out, nil
}

// search runs a search of the archive.
func (s *Server) search(r *http.Request) (archiveQuery, []GameSummary, bool, error) {
	aq, q, err := parseArchiveQuery(r.URL.Query())
	if err != nil {
		return aq, nil, false, err
	}
	ctx, cancel := context.WithTimeout(r.Context(), searchTimeout)
	defer cancel()
	games, more, err := s.cfg.Archive.Search(ctx, q)
	if errors.Is(err, context.DeadlineExceeded) && r.Context().Err() == nil {
		return aq, nil, false, apierr.New(http.StatusServiceUnavailable, apierr.CodeBusy, "archive.busy", searchTimeout.Seconds())
	}
	if games == nil {
		games = []GameSummary{}
	}
	return aq, games, more, err
}

func (s *Server) apiArchive(w http.ResponseWriter, r *http.Request) error {
	aq, games, more, err := s.search(r)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"games": games, "more": more, "offset": aq.Offset, "limit": aq.Limit})
}

// archiveData is the archive page.
type archiveData struct {
	Q          archiveQuery
	Games      []GameSummary
	Rulesets   []string
	Results    []string
	Sources    []string
	Error      string
	Prev, Next string // the links to the pages before and after; "" when none
}

func (s *Server) pageArchive(w http.ResponseWriter, r *http.Request) error {
	aq, games, more, err := s.search(r)
	d := archiveData{Q: aq, Games: games, Rulesets: toguz.RulesetNames(),
		Results: []string{"1-0", "0-1", "1/2-1/2"}, Sources: []string{"play", "import"}}
	status := http.StatusOK
	if err != nil {
		e := s.AsError(r, err)
		var fe *fieldError
		if !errors.As(err, &fe) && e.Code != apierr.CodeBusy {
			return err
		}
		d.Error = s.Message(r, e)
		d.Games, status = nil, e.Status
	}
	page := func(offset int) string {
		v := r.URL.Query()
		v.Set("offset", strconv.Itoa(offset))
		return "/archive?" + v.Encode()
	}
	if aq.Offset > 0 {
		d.Prev = page(max(0, aq.Offset-aq.Limit))
	}
	if more && aq.Offset+aq.Limit <= store.MaxSearchOffset {
		d.Next = page(aq.Offset + aq.Limit)
	}
	return s.Render(w, status, "archive", s.Page(r, "archive.title", d))
}
