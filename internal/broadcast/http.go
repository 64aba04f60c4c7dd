package broadcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/site"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/svg"
)

type broadcastsData struct {
	site.FormChoices
	List      []store.Broadcast
	CanCreate bool
	MaxRounds int
	Error     string
}

func (s *Service) pageBroadcasts(w http.ResponseWriter, r *http.Request) error {
	bs, err := s.broadcasts()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	list, err := bs.Broadcasts(ctx, maxBroadcastsListed)
	if err != nil {
		return err
	}
	id := s.kit.Identity(r)
	d := broadcastsData{FormChoices: s.kit.Choices(s.kit.Lang(r), "", false), List: list, CanCreate: id.Account.ID != 0, MaxRounds: MaxRounds}
	return s.kit.Render(w, http.StatusOK, "broadcasts", s.kit.Page(r, "broadcast.list_title", d))
}

// createBroadcast makes a broadcast of account who.
func (s *Service) createBroadcast(ctx context.Context, who site.Identity, name, ruleset string, rounds int) (int64, error) {
	bs, err := s.broadcasts()
	if err != nil {
		return 0, err
	}
	if who.Account.ID == 0 {
		return 0, apierr.New(http.StatusUnauthorized, apierr.CodeUnauthenticated, "apierr.broadcast_account")
	}
	name = strings.TrimSpace(name)
	if name == "" || len(name) > maxBroadcastName || !utf8.ValidString(name) {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_name", maxBroadcastName)
	}
	rules, err := site.ParseRuleset(ruleset)
	if err != nil {
		return 0, err
	}
	if rounds < 1 || rounds > MaxRounds {
		return 0, apierr.BadRequest(apierr.CodeBadRequest, "apierr.broadcast_rounds", MaxRounds)
	}
	id, err := bs.CreateBroadcast(ctx, store.Broadcast{OwnerID: who.Account.ID, Name: name, Ruleset: rules.String(), Rounds: rounds}, MaxPerAccount)
	if errors.Is(err, store.ErrLimit) {
		return 0, apierr.New(http.StatusTooManyRequests, apierr.CodeRateLimited, "apierr.broadcast_many", MaxPerAccount)
	}
	return id, err
}

func (s *Service) pageCreateBroadcast(w http.ResponseWriter, r *http.Request) error {
	rounds, _ := strconv.Atoi(r.FormValue("rounds"))
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id, err := s.createBroadcast(ctx, s.kit.Identity(r), r.FormValue("name"), r.FormValue("ruleset"), rounds)
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/broadcast/"+strconv.FormatInt(id, 10)+"/enter", http.StatusSeeOther)
	return nil
}

type createBroadcastRequest struct {
	Name    string `json:"name"`
	Ruleset string `json:"ruleset"`
	Rounds  int    `json:"rounds"`
}

func (s *Service) apiCreateBroadcast(w http.ResponseWriter, r *http.Request) error {
	var req createBroadcastRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	id, err := s.createBroadcast(ctx, s.kit.Identity(r), req.Name, req.Ruleset, req.Rounds)
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"id": id})
}

// roundOf reads ?round= (0 when absent or wrong: the last round).
func roundOf(r *http.Request) int {
	n, _ := strconv.Atoi(r.URL.Query().Get("round"))
	return max(n, 0)
}

func (s *Service) pageBroadcast(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	v, err := s.broadcastView(b, roundOf(r), s.kit.Identity(r))
	if err != nil {
		return err
	}
	return s.kit.Render(w, http.StatusOK, "broadcast", s.kit.Page(r, "broadcast.title", v, b.Name))
}

func (s *Service) apiBroadcast(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	v, err := s.broadcastView(b, roundOf(r), s.kit.Identity(r))
	if err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, v)
}

// ownBroadcast loads broadcast {id} for its broadcaster, 403 for others.
func (s *Service) ownBroadcast(r *http.Request) (*store.Broadcast, error) {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return nil, err
	}
	if id := s.kit.Identity(r); id.Account.ID == 0 || id.Account.ID != b.OwnerID {
		return nil, apierr.New(http.StatusForbidden, apierr.CodeForbidden, "apierr.broadcast_not_yours")
	}
	return b, nil
}

// pageBroadcastEntry is the broadcaster's form: a board to add, the plies
// of each game of the round, a round to upload.
func (s *Service) pageBroadcastEntry(w http.ResponseWriter, r *http.Request) error {
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	return s.renderEntry(w, r, b, roundOf(r), http.StatusOK, nil, 0, "")
}

func (s *Service) renderEntry(w http.ResponseWriter, r *http.Request, b *store.Broadcast, round, status int, fail error, game int64, paste string) error {
	v, err := s.broadcastView(b, round, s.kit.Identity(r))
	if err != nil {
		return err
	}
	if fail != nil {
		e := s.kit.AsError(r, fail)
		status, v.Error, v.ErrorGame, v.Paste = e.Status, s.kit.Message(r, e), game, paste
		// In English the message already ends with the detail.
		if e.Detail != "" && !strings.Contains(v.Error, e.Detail) {
			v.Error += " — " + e.Detail
		}
	}
	return s.kit.Render(w, status, "broadcast_entry", s.kit.Page(r, "broadcast.entry_title", v, b.Name))
}

// entryForm runs a change of the entry form and shows the form again,
// with the error of the change if it failed (a live.Error or apierr.Error;
// anything else is the server's).
func (s *Service) entryForm(w http.ResponseWriter, r *http.Request, change func(ctx context.Context, b *store.Broadcast, round int) (game int64, paste string, err error)) error {
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	round, _ := strconv.Atoi(r.FormValue("round"))
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	game, paste, err := change(ctx, b, round)
	var ae *apierr.Error
	if err != nil && !errors.As(err, &ae) {
		return err
	}
	if err == nil {
		http.Redirect(w, r, fmt.Sprintf("/broadcast/%d/enter?round=%d", b.ID, max(round, 1)), http.StatusSeeOther)
		return nil
	}
	return s.renderEntry(w, r, b, round, 0, err, game, paste)
}

func (s *Service) pageBroadcastAddGame(w http.ResponseWriter, r *http.Request) error {
	return s.entryForm(w, r, func(ctx context.Context, b *store.Broadcast, round int) (int64, string, error) {
		board, _ := strconv.Atoi(r.FormValue("board"))
		return 0, "", s.addBroadcastGame(ctx, b, round, board, r.FormValue("white"), r.FormValue("black"))
	})
}

func (s *Service) pageBroadcastPlies(w http.ResponseWriter, r *http.Request) error {
	return s.entryForm(w, r, func(ctx context.Context, b *store.Broadcast, round int) (int64, string, error) {
		gid, _ := strconv.ParseInt(r.PathValue("game"), 10, 64)
		text := r.FormValue("plies")
		return gid, text, s.enterPlies(ctx, b, gid, text, r.FormValue("whole") != "", r.FormValue("result"))
	})
}

func (s *Service) pageBroadcastUpload(w http.ResponseWriter, r *http.Request) error {
	return s.entryForm(w, r, func(ctx context.Context, b *store.Broadcast, round int) (int64, string, error) {
		trf, err := formText(r, "trf")
		if err != nil {
			return 0, "", err
		}
		recs, err := formText(r, "records")
		if err != nil {
			return 0, "", err
		}
		return 0, "", s.uploadRound(ctx, b, round, trf, recs)
	})
}

// formText is the text of a form field or of the file uploaded under the
// same name with the suffix "_file" (the body's limit bounds both).
func formText(r *http.Request, name string) (string, error) {
	if f, _, err := r.FormFile(name + "_file"); err == nil {
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return "", err
		}
		if len(b) > 0 {
			return string(b), nil
		}
	}
	return r.FormValue(name), nil
}

type pliesRequest struct {
	Plies  string `json:"plies"`
	Whole  bool   `json:"whole"` // Plies is the whole sheet
	Result string `json:"result"`
}

// apiBroadcastPlies appends plies to a game: POST
// /api/broadcasts/{id}/games/{game}/plies.
func (s *Service) apiBroadcastPlies(w http.ResponseWriter, r *http.Request) error {
	var req pliesRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	gid, _ := strconv.ParseInt(r.PathValue("game"), 10, 64)
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := s.enterPlies(ctx, b, gid, req.Plies, req.Whole, req.Result); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusOK, map[string]any{"ok": true})
}

type addGameRequest struct {
	Round int    `json:"round"`
	Board int    `json:"board"`
	White string `json:"white"`
	Black string `json:"black"`
}

func (s *Service) apiBroadcastAddGame(w http.ResponseWriter, r *http.Request) error {
	var req addGameRequest
	if err := site.ReadJSON(w, r, &req); err != nil {
		return err
	}
	b, err := s.ownBroadcast(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(r.Context(), site.StoreTimeout)
	defer cancel()
	if err := s.addBroadcastGame(ctx, b, req.Round, req.Board, req.White, req.Black); err != nil {
		return err
	}
	return site.WriteJSON(w, http.StatusCreated, map[string]any{"ok": true})
}

// broadcastEvents is the viewers' stream of a broadcast: an event "change"
// each time it changes (the page then fetches itself), a comment every
// broadcastPing.
func (s *Service) broadcastEvents(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	addr := auth.AddrKey(auth.ClientIP(r))
	ch, err := s.feed.subscribe(b.ID, addr)
	if err != nil {
		return err
	}
	defer s.feed.unsubscribe(b.ID, addr, ch)
	site.ClearDeadlines(w)
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send := func(s string) bool {
		if _, err := io.WriteString(w, s); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send(": open\n\n") {
		return nil
	}
	ping := time.NewTicker(broadcastPing)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return nil
		case <-ping.C:
			if !send(": ping\n\n") {
				return nil
			}
		case <-ch:
			msg, _ := json.Marshal(map[string]any{"id": b.ID})
			if !send("event: change\ndata: " + string(msg) + "\n\n") {
				return nil
			}
		}
	}
}

// broadcastBoard draws a game's position: /broadcast/{id}/board/{game}.svg.
func (s *Service) broadcastBoard(w http.ResponseWriter, r *http.Request) error {
	b, err := s.loadBroadcast(r)
	if err != nil {
		return err
	}
	name, _ := strings.CutSuffix(r.PathValue("game"), ".svg")
	gid, _ := strconv.ParseInt(name, 10, 64)
	i := slices.IndexFunc(b.Games, func(g store.BroadcastGame) bool { return g.ID == gid })
	if i < 0 {
		return apierr.New(http.StatusNotFound, apierr.CodeNotFound, "apierr.no_broadcast_game")
	}
	rules, err := toguz.ParseRules(b.Ruleset)
	if err != nil {
		return err
	}
	return s.drawBoard(w, r, rules, b.Games[i].Plies, b.Games[i].White, b.Games[i].Black)
}

// drawBoard answers the SVG board after plies, the last move marked.
func (s *Service) drawBoard(w http.ResponseWriter, r *http.Request, rules toguz.Rules, plies []string, white, black string) error {
	p, moves, err := replaySheet(rules, plies)
	if err != nil {
		return err
	}
	lang, cat := s.kit.Lang(r), s.kit.Catalog()
	opt := svg.Options{White: white, Black: black, Labels: site.BoardLabels(cat, lang, p)}
	if n := len(moves); n > 0 {
		before, _, _ := replaySheet(rules, plies[:n-1])
		opt.From, opt.To = svg.LastMove(before, moves[n-1])
	}
	out, err := svg.Render(p, opt)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(out)
	return err
}

// IsUpload reports whether path is a round's upload, whose body may be as
// large as an import's.
func IsUpload(path string) bool {
	return strings.HasPrefix(path, "/broadcast/") && strings.HasSuffix(path, "/upload")
}

// Routes adds the routes of broadcasts to rt.
func (s *Service) Routes(rt site.Router) {
	rt.API("POST /api/broadcasts", s.apiCreateBroadcast)
	rt.API("GET /api/broadcasts/{id}", s.apiBroadcast)
	rt.API("POST /api/broadcasts/{id}/games", s.apiBroadcastAddGame)
	rt.API("POST /api/broadcasts/{id}/games/{game}/plies", s.apiBroadcastPlies)
	rt.API("GET /api/broadcasts/{id}/events", s.broadcastEvents)
	rt.Page("GET /broadcasts", s.pageBroadcasts)
	rt.Page("POST /broadcasts", s.pageCreateBroadcast)
	rt.Page("GET /broadcast/{id}", s.pageBroadcast)
	rt.Page("GET /broadcast/{id}/enter", s.pageBroadcastEntry)
	rt.Page("POST /broadcast/{id}/games", s.pageBroadcastAddGame)
	rt.Page("POST /broadcast/{id}/game/{game}/plies", s.pageBroadcastPlies)
	rt.Page("POST /broadcast/{id}/upload", s.pageBroadcastUpload)
	rt.Page("GET /broadcast/{id}/board/{game}", s.broadcastBoard)
}

// ErrorKeys are the messages of the errors of broadcasts, for the
// catalog's completeness test.
func ErrorKeys() []string {
	return []string{
		"apierr.broadcast_account", "apierr.broadcast_board", "apierr.broadcast_board_taken", "apierr.broadcast_games",
		"apierr.broadcast_many", "apierr.broadcast_name", "apierr.broadcast_not_yours", "apierr.broadcast_player",
		"apierr.broadcast_plies", "apierr.broadcast_record_board", "apierr.broadcast_result", "apierr.broadcast_round",
		"apierr.broadcast_rounds", "apierr.broadcast_sheet_differs", "apierr.broadcast_stale", "apierr.broadcast_trf", "apierr.broadcast_trf_round",
		"apierr.broadcast_viewers", "apierr.no_broadcast", "apierr.no_broadcast_game", "apierr.no_broadcasts",
		"apierr.bad_ruleset",
	}
}
