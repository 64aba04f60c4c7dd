package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/analysisboard"
	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/review"
	"github.com/toguz/toguz/internal/store"
)

// testServer is a whole server on loopback: a real SQLite file in a temp
// dir, the real hub and engine, httptest.
type testServer struct {
	t      testing.TB
	URL    string
	st     *store.Store
	hub    *live.Hub
	server *Server
	ts     *httptest.Server
	close  func()
}

type serverOpts struct {
	grace     time.Duration
	firstMove time.Duration
	msgRate   float64
	msgBurst  int
	writes    float64
	// importsPerMinute is Config.ImportsPerMinute; 0 here lifts it, since
	// the tests import from one address far faster than people.
	importsPerMinute int
	// importsPerDay is Config.ImportsPerDay (0: the default).
	importsPerDay int
	// tablebase is Config.Tablebase, and the analysis pool's.
	tablebase analysisboard.Tablebase
	// analysesPerMinute is Config.AnalysesPerMinute (0: the default).
	analysesPerMinute int
	// reviews makes the store queue review jobs and gives the server
	// Config.Reviews over it, with a judge but no workers: the test
	// reviews the jobs itself (review_test.go).
	reviews bool
	// botLimits and ladder are Config's (botapi_test.go).
	botLimits botapi.Limits
	ladder    botapi.LadderConfig
	// db, bus and node make the server one node of several: its database
	// file (shared; "": a new one), the bus and its id.
	db   string
	bus  live.Bus
	node string
}

func newTestServer(t testing.TB, o serverOpts) *testServer {
	t.Helper()
	ctx := context.Background()
	if o.db == "" {
		o.db = filepath.Join(t.TempDir(), "toguz.db")
	}
	st, err := store.Open(ctx, o.db, store.Options{Reviews: o.reviews})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := enginepool.NewLivePlayer(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	analysis, err := enginepool.NewAnalysisPool(enginepool.AnalysisOptions{Searchers: 1, HashMB: 1, Wait: analysisboard.AnalysisWait, Tablebase: o.tablebase})
	if err != nil {
		t.Fatal(err)
	}
	hubCtx, stop := context.WithCancel(ctx)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if o.msgRate == 0 {
		// The tests play much faster than people; TestFlooding sets its own.
		o.msgRate, o.msgBurst = 1000, 1000
	}
	if o.firstMove == 0 {
		o.firstMove = -1
	}
	if o.importsPerMinute == 0 {
		o.importsPerMinute = -1
	}
	botEvents := botapi.NewEvents()
	hub := live.NewHub(hubCtx, live.Config{Store: store.LiveStore{S: st}, Engine: eng, Logger: log, Grace: o.grace, FirstMoveTimeout: o.firstMove,
		OnEnd: botEvents.GameEnded, Bus: o.bus, Node: o.node, Leases: nodeLeases(o.bus, st)})
	var reviews review.Reviews
	if o.reviews {
		judge, err := review.NewJudge(1, reviewTestDepth)
		if err != nil {
			t.Fatal(err)
		}
		reviews = review.StoreReviews{S: st, J: judge}
	}
	accounts := testAccounts(st).(AuthAccounts)
	srv, err := New(Config{Hub: hub, Reviews: reviews, Lobby: live.NewLobby(hub), LobbyChat: live.NewLobbyChat(hub), Reports: st, Progress: st, Studies: st, Teams: st, Broadcasts: st, Simuls: st, Puzzles: st, Accounts: accounts, Archive: StoreArchive{S: st}, TwoFactor: st, Logger: log,
		AccountStore: st, Passwords: accounts.A,
		Settings: Settings{MessageRate: o.msgRate, MessageBurst: o.msgBurst, WritesPerSecond: o.writes, WriteBurst: int(o.writes * 2),
			AnalysesPerMinute: o.analysesPerMinute, BotLimits: o.botLimits, Ladder: o.ladder},
		ImportsPerMinute: o.importsPerMinute, ImportsPerDay: o.importsPerDay,
		Analysis: analysis, Tablebase: o.tablebase,
		Bots: st, BotEvents: botEvents, OAuth: st})
	if err != nil {
		t.Fatal(err)
	}
	if o.bus != nil {
		if _, err := hub.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		if err := srv.bots.JoinNodes(o.bus, hub.Node()); err != nil {
			t.Fatal(err)
		}
	}
	ts := httptest.NewServer(srv.Handler())
	s := &testServer{t: t, URL: ts.URL, st: st, hub: hub, server: srv, ts: ts}
	s.close = func() {
		ts.CloseClientConnections()
		ts.Close()
		stop()
		hub.Wait()
		st.Close()
	}
	t.Cleanup(s.close)
	return s
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

// do sends a JSON request with the token and decodes the JSON answer.
func (s *testServer) do(method, path, token string, body any) (int, map[string]any) {
	s.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, s.URL+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

func (s *testServer) guest() string {
	s.t.Helper()
	code, m := s.do("POST", "/api/guest", "", nil)
	if code != 200 {
		s.t.Fatalf("guest: %d %v", code, m)
	}
	return m["token"].(string)
}

// casualGame makes a game between two new guests and returns the tokens of
// White and Black and the game id.
func (s *testServer) game(a, b, tc string, rated bool) (white, black, id string) {
	s.t.Helper()
	code, m := s.do("POST", "/api/seeks", a, map[string]any{"tc": tc, "rated": rated, "color": "white"})
	if code != 201 {
		s.t.Fatalf("seek: %d %v", code, m)
	}
	code, m = s.do("POST", "/api/seeks/"+m["id"].(string)+"/accept", b, nil)
	if code != 201 {
		s.t.Fatalf("accept: %d %v", code, m)
	}
	return a, b, m["game_id"].(string)
}

// wsMsg is any server message (the union of the fields of docs/api.md).
type wsMsg struct {
	Type        string          `json:"type"`
	Code        string          `json:"code"`
	Message     string          `json:"message"`
	Ply         *int            `json:"ply"`
	Hole        int             `json:"hole"`
	FEN         string          `json:"fen"`
	Status      string          `json:"status"`
	Result      string          `json:"result"`
	Termination string          `json:"termination"`
	Score       [2]int          `json:"score"`
	You         string          `json:"you"`
	Control     bool            `json:"control"`
	InControl   bool            `json:"in_control"`
	Moves       []live.MoveJSON `json:"moves"`
	Clock       live.ClockJSON  `json:"clock"`
	By          string          `json:"by"`
	CanAbort    bool            `json:"can_abort"`
	Turn        string          `json:"turn"`
	Raw         string          `json:"-"`
}

type wsClient struct {
	t testing.TB
	c *websocket.Conn
}

func (s *testServer) dial(id, token string) *wsClient {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	c, _, err := websocket.Dial(ctx, strings.Replace(s.URL, "http", "ws", 1)+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		s.t.Fatalf("dial: %v", err)
	}
	c.SetReadLimit(1 << 20)
	w := &wsClient{t: s.t, c: c}
	s.t.Cleanup(func() { c.CloseNow() })
	return w
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	var b []byte
	switch v := v.(type) {
	case string:
		b = []byte(v)
	default:
		b, _ = json.Marshal(v)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, b); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

// read returns the next message, or fails after 10 s.
func (w *wsClient) read() wsMsg {
	w.t.Helper()
	m, err := w.tryRead(10 * time.Second)
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	return m
}

func (w *wsClient) tryRead(d time.Duration) (wsMsg, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_, b, err := w.c.Read(ctx)
	if err != nil {
		return wsMsg{}, err
	}
	var m wsMsg
	if err := json.Unmarshal(b, &m); err != nil {
		w.t.Fatalf("server sent bad JSON %q: %v", b, err)
	}
	m.Raw = string(b)
	if testing.Verbose() {
		w.t.Logf("%p <- %s", w, b)
	}
	return m, nil
}

// until reads until a message of one of the types arrives.
func (w *wsClient) until(types ...string) wsMsg {
	w.t.Helper()
	for {
		m := w.read()
		for _, t := range types {
			if m.Type == t {
				return m
			}
		}
	}
}

func (w *wsClient) move(ply, hole int) {
	w.t.Helper()
	w.send(map[string]any{"type": "move", "ply": ply, "hole": hole})
}

// randomMove picks a legal move of the position fen.
func randomMove(t testing.TB, rng *rand.Rand, fen string) int {
	t.Helper()
	p, _, err := toguz.ParseFEN(fen, toguz.Standard())
	if err != nil {
		t.Fatalf("server FEN %q: %v", fen, err)
	}
	moves := p.LegalMoves().Slice()
	if len(moves) == 0 {
		t.Fatalf("no legal move in %s", fen)
	}
	return int(moves[rng.IntN(len(moves))])
}

// getAs GETs a page with a bearer token.
func getAs(t *testing.T, s *testServer, token, path string) (int, string) {
	t.Helper()
	req, _ := newReq("GET", s.URL+path, token)
	client := http.DefaultClient // a server of StartLocal has no httptest one
	if s.ts != nil {
		client = s.ts.Client()
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp.StatusCode, b.String()
}

func newReq(method, u, token string) (*http.Request, error) {
	req, err := http.NewRequest(method, u, nil)
	if err == nil && token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req, err
}
