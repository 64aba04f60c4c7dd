package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/apierr"
	"github.com/toguz/toguz/internal/auth"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/enginepool"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
	"github.com/toguz/toguz/internal/store"
	"golang.org/x/time/rate"
)

// socialMsg is a message of social.go and chat.go.
type socialMsg struct {
	Type     string          `json:"type"`
	Code     string          `json:"code"`
	By       string          `json:"by"`
	GameID   string          `json:"game_id"`
	Ply      int             `json:"ply"`
	Room     string          `json:"room"`
	Text     string          `json:"text"`
	Messages []live.ChatJSON `json:"messages"`
	raw      []byte
}

// drain returns every message queued for c (in a bubble, after Wait).
func drain(t *testing.T, c *live.Conn) []socialMsg {
	t.Helper()
	var out []socialMsg
	for {
		select {
		case b, open := <-c.Out():
			if !open {
				return out
			}
			var m socialMsg
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			m.raw = b
			out = append(out, m)
		default:
			return out
		}
	}
}

func find(ms []socialMsg, typ string) (socialMsg, bool) {
	for _, m := range ms {
		if m.Type == typ {
			return m, true
		}
	}
	return socialMsg{}, false
}

func hasCode(ms []socialMsg, code apierr.Code) bool {
	for _, m := range ms {
		if m.Type == "error" && m.Code == string(code) {
			return true
		}
	}
	return false
}

func send(c *live.Conn, typ string) { c.Send(live.ClientMsg{Type: typ}) }

// newGame creates a game between the two guests of seats and joins both.
func newGame(t *testing.T, h *live.Hub, tc string, rated bool) (string, *live.Conn, *live.Conn) {
	t.Helper()
	tcv, err := clock.ParseTimeControl(tc)
	if err != nil {
		t.Fatal(err)
	}
	w, b := seats()
	id, err := h.Create(context.Background(), game.Spec{Rules: toguz.Standard(), TC: tcv, Rated: rated, White: w, Black: b})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := h.JoinWith(context.Background(), id, live.Chatter{ID: w.ID, Name: w.Name, Addr: "a"})
	if err != nil {
		t.Fatal(err)
	}
	cb, err := h.JoinWith(context.Background(), id, live.Chatter{ID: b.ID, Name: b.Name, Addr: "b"})
	if err != nil {
		t.Fatal(err)
	}
	synctest.Wait()
	drain(t, cw)
	drain(t, cb)
	return id, cw, cb
}

// TestRematch: a rematch can only be offered once the game is over; a
// decline says so to both; an accepted offer creates the game with the
// colours swapped and the same time control, ruleset and ratedness, and
// both players (and the spectators) are told its id; offering again then
// only repeats it.
func TestRematch(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		id, cw, cb := newGame(t, h, "5+3", false)
		send(cw, "rematch_offer")
		synctest.Wait()
		if m, _ := find(drain(t, cw), "error"); m.Code != string(apierr.CodeNotOver) {
			t.Fatalf("a rematch during the game: %+v, want not_over", m)
		}
		spec, err := h.Join(context.Background(), id, "g:Guest-spectator")
		if err != nil {
			t.Fatal(err)
		}
		send(cb, "resign")
		synctest.Wait()
		drain(t, cw)
		drain(t, cb)
		send(cb, "rematch_accept")
		synctest.Wait()
		if m, _ := find(drain(t, cb), "error"); m.Code != string(apierr.CodeNoOffer) {
			t.Fatalf("accepting no offer: %+v, want no_offer", m)
		}
		send(cw, "rematch_offer")
		synctest.Wait()
		if m, ok := find(drain(t, cb), "rematch_offer"); !ok || m.By != "white" {
			t.Fatalf("Black was not told of White's offer: %+v", m)
		}
		send(cb, "rematch_decline")
		synctest.Wait()
		if _, ok := find(drain(t, cw), "rematch_declined"); !ok {
			t.Fatal("White was not told the offer was declined")
		}
		send(cb, "rematch_offer")
		synctest.Wait()
		send(cw, "rematch_accept")
		synctest.Wait()
		mw, okw := find(drain(t, cw), "rematch")
		mb, okb := find(drain(t, cb), "rematch")
		if !okw || !okb || mw.GameID == "" || mw.GameID != mb.GameID || mw.GameID == id {
			t.Fatalf("rematch messages %+v / %+v", mw, mb)
		}
		time.Sleep(time.Second) // the spectators' round
		synctest.Wait()
		if m, ok := find(drain(t, spec), "rematch"); !ok || m.GameID != mw.GameID {
			t.Fatalf("the spectator was not sent to the rematch: %+v", m)
		}
		old, _ := h.State(context.Background(), id)
		st, err := h.State(context.Background(), mw.GameID)
		if err != nil {
			t.Fatal(err)
		}
		if st.White.Name != old.Black.Name || st.Black.Name != old.White.Name || st.TC != old.TC || st.Rated != old.Rated ||
			st.Ruleset != old.Ruleset || st.Status != "playing" || old.Rematch != mw.GameID {
			t.Fatalf("rematch %+v of %+v", st, old)
		}
		send(cw, "rematch_offer")
		synctest.Wait()
		if m, _ := find(drain(t, cw), "rematch"); m.GameID != mw.GameID {
			t.Fatalf("a second offer made another game: %+v", m)
		}
	})
}

// TestRematchEngine: against the engine a rematch starts at once, the
// colours swapped.
func TestRematchEngine(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	hubCtx, stop := context.WithCancel(ctx)
	h := live.NewHub(hubCtx, live.Config{Store: store.LiveStore{S: st}, Engine: eng, FirstMoveTimeout: -1})
	defer func() {
		stop()
		h.Wait()
	}()
	w, _ := seats()
	id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: game.EngineSeat(1, "Engine 1")})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := h.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Leave()
	send(cw, "resign")
	send(cw, "rematch_offer")
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-cw.Out():
			var m socialMsg
			json.Unmarshal(b, &m)
			if m.Type == "error" {
				t.Fatalf("%s", b)
			}
			if m.Type != "rematch" {
				continue
			}
			s, err := h.State(ctx, m.GameID)
			if err != nil {
				t.Fatal(err)
			}
			if s.Black.Name != w.Name || s.White.EngineLevel != 1 || s.Status != "playing" {
				t.Fatalf("the engine rematch: %+v", s)
			}
			return
		case <-deadline:
			t.Fatal("no rematch against the engine")
		}
	}
}

// TestTakeback: only by consent and only in casual games; the proposer's
// last ply goes, and the opponent's reply after it too, so that it is the
// proposer's turn; the clocks keep the time used (none is given back);
// the stored game loses the plies, and a restart rebuilds the same
// position and clocks.
func TestTakeback(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		s := startServer(t, path, live.Config{FirstMoveTimeout: -1})
		rated, rw, _ := newGame(t, s.h, "5+3", true)
		_ = rated
		move(rw, 0, 1)
		synctest.Wait()
		drain(t, rw)
		send(rw, "takeback_offer")
		synctest.Wait()
		if m, _ := find(drain(t, rw), "error"); m.Code != string(apierr.CodeCannotTakeBack) {
			t.Fatalf("a takeback in a rated game: %+v", m)
		}
		id, cw, cb := newGame(t, s.h, "5+3", false)
		send(cw, "takeback_offer")
		synctest.Wait()
		if m, _ := find(drain(t, cw), "error"); m.Code != string(apierr.CodeCannotTakeBack) {
			t.Fatalf("a takeback with no move: %+v", m)
		}
		p := toguz.StartPosition()
		conns := [2]*live.Conn{cw, cb}
		for ply := range 4 {
			time.Sleep(2 * time.Second)
			m := p.LegalMoves().First()
			move(conns[p.Turn()], ply, int(m))
			p = p.After(m)
			synctest.Wait()
		}
		drain(t, cw)
		drain(t, cb)
		// White proposes after Black's reply: plies 3 and 4 go.
		time.Sleep(5 * time.Second)
		before, _ := s.h.State(context.Background(), id)
		send(cw, "takeback_offer")
		synctest.Wait()
		if m, ok := find(drain(t, cb), "takeback_offer"); !ok || m.By != "white" {
			t.Fatalf("Black not told of the proposal: %+v", m)
		}
		send(cw, "takeback_accept")
		synctest.Wait()
		if m, _ := find(drain(t, cw), "error"); m.Code != string(apierr.CodeNoOffer) {
			t.Fatalf("accepting one's own proposal: %+v", m)
		}
		send(cb, "takeback_decline")
		synctest.Wait()
		if _, ok := find(drain(t, cw), "takeback_declined"); !ok {
			t.Fatal("White not told of the decline")
		}
		send(cw, "takeback_offer")
		synctest.Wait()
		time.Sleep(3 * time.Second)
		send(cb, "takeback_accept")
		synctest.Wait()
		if m, ok := find(drain(t, cw), "takeback"); !ok || m.Ply != 2 || m.By != "white" {
			t.Fatalf("takeback message %+v, want ply 2", m)
		}
		after, _ := s.h.State(context.Background(), id)
		want := toguz.StartPosition()
		for _, mv := range before.Moves[:2] {
			want = want.After(toguz.Move(mv.Hole))
		}
		if after.Ply != 2 || after.Turn != "white" || after.FEN != toguz.FormatFEN(want, 2) || len(after.Moves) != 2 {
			t.Fatalf("after the takeback: ply %d turn %s fen %s, want %s", after.Ply, after.Turn, after.FEN, toguz.FormatFEN(want, 2))
		}
		// No time given back: White's clock ran 3 s more since before
		// and keeps them; it runs on now.
		if after.Clock.WhiteMS != before.Clock.WhiteMS-3000 || after.Clock.BlackMS != before.Clock.BlackMS || after.Clock.Running != "white" {
			t.Fatalf("clock before %+v, after %+v", before.Clock, after.Clock)
		}
		saved, err := store.LiveStore{S: s.st}.Game(context.Background(), id)
		if err != nil || len(saved.Moves) != 2 {
			t.Fatalf("stored %d moves (%v), want 2", len(saved.Moves), err)
		}
		// The game goes on from there: the next ply is 3 again.
		time.Sleep(time.Second)
		mv := want.LegalMoves().Slice()[1]
		move(cw, 2, int(mv))
		synctest.Wait()
		cw.Leave()
		cb.Leave()
		synctest.Wait()
		cur, _ := s.h.State(context.Background(), id)
		s.stop()
		s = startServer(t, path, live.Config{FirstMoveTimeout: -1})
		re, err := s.h.State(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if re.FEN != cur.FEN || re.Ply != 3 || re.Clock != cur.Clock || re.Turn != cur.Turn {
			t.Fatalf("after a restart: %s ply %d clock %+v; before %s ply %d clock %+v", re.FEN, re.Ply, re.Clock, cur.FEN, cur.Ply, cur.Clock)
		}
		s.stop()
	})
}

// TestTakebackTwice: Black proposes right after his move (one ply goes);
// a takeback restored after a restart before the next move keeps the
// clock that it set.
func TestTakebackRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	synctest.Test(t, func(t *testing.T) {
		s := startServer(t, path, live.Config{FirstMoveTimeout: -1})
		id, cw, cb := newGame(t, s.h, "5+0", false)
		p := toguz.StartPosition()
		conns := [2]*live.Conn{cw, cb}
		for ply := range 3 {
			time.Sleep(time.Second)
			m := p.LegalMoves().First()
			move(conns[p.Turn()], ply, int(m))
			p = p.After(m)
			synctest.Wait()
		}
		time.Sleep(4 * time.Second)
		send(cw, "takeback_offer")
		synctest.Wait()
		send(cb, "takeback_accept")
		synctest.Wait()
		cw.Leave()
		cb.Leave()
		synctest.Wait()
		cur, _ := s.h.State(context.Background(), id)
		if cur.Ply != 2 || cur.Turn != "white" {
			t.Fatalf("after White's takeback: ply %d turn %s", cur.Ply, cur.Turn)
		}
		s.stop()
		s = startServer(t, path, live.Config{FirstMoveTimeout: -1})
		re, _ := s.h.State(context.Background(), id)
		if re.FEN != cur.FEN || re.Ply != cur.Ply || re.Clock != cur.Clock {
			t.Fatalf("after a restart: %s ply %d clock %+v; before %s ply %d clock %+v", re.FEN, re.Ply, re.Clock, cur.FEN, cur.Ply, cur.Clock)
		}
		s.stop()
	})
}

// TestChat: the players' room reaches the players only and the
// spectators' room the spectators only; a message is cleaned of control
// characters, bounded in length, sent as text (JSON-escaped, never
// markup), rate-limited per identity and per address, and each room keeps
// only its last ChatHistory messages for who joins later.
func TestChat(t *testing.T) {
	now := func() time.Time { return time.Now() }
	cfg := live.Config{FirstMoveTimeout: -1, ChatHistory: 3,
		ChatPerIdentity: auth.NewLimiter(rate.Every(time.Second), 4, now),
		ChatPerAddress:  auth.NewLimiter(rate.Every(time.Second), 6, now)}
	withHubConfig(t, cfg, func(h *live.Hub) {
		id, cw, cb := newGame(t, h, "5+3", false)
		ctx := context.Background()
		sp, err := h.JoinWith(ctx, id, live.Chatter{ID: "g:Guest-s", Name: "Guest-s", Addr: "s"})
		if err != nil {
			t.Fatal(err)
		}
		anon, err := h.JoinWith(ctx, id, live.Chatter{Addr: "s"})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		drain(t, sp)
		drain(t, anon)

		cw.Send(live.ClientMsg{Type: "chat", Text: "  <b>salem</b>\u202e \n\x07 bar  "})
		time.Sleep(time.Second)
		synctest.Wait()
		got := drain(t, cb)
		m, ok := find(got, "chat")
		if !ok || m.Text != "<b>salem</b> bar" || m.By != "Guest-a" || m.Room != "players" {
			t.Fatalf("Black got %+v", got)
		}
		if bytes.Contains(m.raw, []byte("<b>")) {
			t.Fatalf("the message carries markup unescaped: %s", m.raw)
		}
		if _, ok := find(drain(t, sp), "chat"); ok {
			t.Fatal("a spectator sees the players' chat")
		}
		if _, ok := find(drain(t, cw), "chat"); !ok {
			t.Fatal("White does not see his own message")
		}

		sp.Send(live.ClientMsg{Type: "chat", Text: "hello players"})
		time.Sleep(time.Second)
		synctest.Wait()
		if m, ok := find(drain(t, anon), "chat"); !ok || m.Room != "spectators" || m.By != "Guest-s" {
			t.Fatalf("the spectators' room: %+v", m)
		}
		if _, ok := find(append(drain(t, cw), drain(t, cb)...), "chat"); ok {
			t.Fatal("a player sees the spectators' chat")
		}
		anon.Send(live.ClientMsg{Type: "chat", Text: "hi"})
		time.Sleep(time.Second)
		synctest.Wait()
		if m, _ := find(drain(t, anon), "error"); m.Code != string(apierr.CodeChatAnonymous) {
			t.Fatalf("chat with no identity: %+v", m)
		}

		for _, tc := range []struct{ text, code string }{
			{strings.Repeat("ә", live.MaxChatRunes+1), string(apierr.CodeChatTooLong)},
			{" \t\n", string(apierr.CodeChatEmpty)},
		} {
			cw.Send(live.ClientMsg{Type: "chat", Text: tc.text})
			synctest.Wait()
			if m, _ := find(drain(t, cw), "error"); m.Code != tc.code {
				t.Fatalf("%q: %+v, want %s", tc.text, m, tc.code)
			}
		}
		cw.Send(live.ClientMsg{Type: "chat", Text: strings.Repeat("ә", live.MaxChatRunes)})
		synctest.Wait()
		if m, _ := find(drain(t, cb), "chat"); len([]rune(m.Text)) != live.MaxChatRunes {
			t.Fatalf("a message of the longest length was not sent: %+v", m)
		}

		// The identity's burst of 4 (2 sent above; the refused ones cost
		// nothing of it): the 3rd and 4th pass, the 5th is refused.
		time.Sleep(10 * time.Second)
		for i := range 5 {
			cw.Send(live.ClientMsg{Type: "chat", Text: "m" + string(rune('0'+i))})
		}
		synctest.Wait()
		ms := drain(t, cw)
		if e, _ := find(ms, "error"); e.Code != string(apierr.CodeChatRateLimited) {
			t.Fatalf("past the identity's rate: %+v", ms)
		}
		// The address: another identity at White's address shares its
		// bucket of 6.
		time.Sleep(10 * time.Second)
		other, err := h.JoinWith(ctx, id, live.Chatter{ID: "g:Guest-c", Name: "Guest-c", Addr: "a"})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			cw.Send(live.ClientMsg{Type: "chat", Text: "w" + string(rune('0'+i))})
		}
		synctest.Wait()
		for i := range 3 {
			other.Send(live.ClientMsg{Type: "chat", Text: "o" + string(rune('0'+i))})
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if got := drain(t, other); !hasCode(got, apierr.CodeChatRateLimited) {
			t.Fatalf("an address past its rate was not refused: %+v", got)
		}

		// History: a player reconnecting gets the last 3 of the players'
		// room, a new spectator the spectators' room.
		cb2, err := h.JoinWith(ctx, id, live.Chatter{ID: "g:Guest-b", Name: "Guest-b", Addr: "b"})
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		hist, ok := find(drain(t, cb2), "chat_history")
		if !ok || len(hist.Messages) != 3 || hist.Messages[2].Text != "w3" || hist.Room != "players" {
			t.Fatalf("the players' history: %+v", hist)
		}
		sp2, err := h.JoinWith(ctx, id, live.Chatter{ID: "g:Guest-t", Name: "Guest-t", Addr: "t"})
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if hist, ok := find(drain(t, sp2), "chat_history"); !ok || hist.Room != "spectators" || len(hist.Messages) != 3 || hist.Messages[2].Text != "o1" {
			t.Fatalf("the spectators' history: %+v", hist)
		}
	})
}

// TestLobbyChat: the lobby's room reaches every watcher, keeps its last
// messages for newcomers, and applies the same bounds.
func TestLobbyChat(t *testing.T) {
	withHubConfig(t, live.Config{ChatHistory: 2}, func(h *live.Hub) {
		lc := live.NewLobbyChat(h)
		a := lc.Subscribe()
		for _, text := range []string{"one", "two", "three"} {
			if err := lc.Post(live.Chatter{ID: "g:Guest-a", Name: "Guest-a", Addr: "x"}, text); err != nil {
				t.Fatal(err)
			}
		}
		if n := len(a.Out()); n != 3 {
			t.Fatalf("the watcher got %d messages, want 3", n)
		}
		if err := lc.Post(live.Chatter{ID: "g:Guest-a", Name: "Guest-a"}, strings.Repeat("x", 141)); err == nil {
			t.Fatal("a message too long was posted")
		}
		b := lc.Subscribe()
		var hist socialMsg
		json.Unmarshal(<-b.Out(), &hist)
		if hist.Type != "chat_history" || len(hist.Messages) != 2 || hist.Messages[0].Text != "two" {
			t.Fatalf("a newcomer's history: %+v", hist)
		}
		lc.Unsubscribe(a)
		lc.Unsubscribe(b)
	})
}

// TestGamesAndTV: the list of live games holds the games being played
// with their spectators, the highest rated first; the TV shows that one
// and the next once it ends.
func TestGamesAndTV(t *testing.T) {
	withHub(t, func(h *live.Hub) {
		ctx := context.Background()
		tc, _ := clock.ParseTimeControl("5+3")
		mk := func(a, b string, ra, rb int) string {
			id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), TC: tc,
				White: game.Seat{ID: "g:" + a, Name: a, Guest: true, Rating: ra}, Black: game.Seat{ID: "g:" + b, Name: b, Guest: true, Rating: rb}})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		low := mk("A", "B", 1500, 1500)
		high := mk("C", "D", 1900, 1800)
		mid := mk("E", "F", 1700, 1700)
		for i := range 3 {
			if _, err := h.JoinFrom(ctx, mid, "g:watcher"+string(rune('0'+i)), "w"); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		gs := h.Games()
		if len(gs) != 3 || gs[0].ID != high || gs[1].ID != mid || gs[2].ID != low {
			t.Fatalf("games %+v, want %s %s %s", gs, high, mid, low)
		}
		if gs[1].Spectators != 3 || gs[0].Spectators != 0 || gs[1].TC != "5+3" || gs[1].Ruleset != "standard" || gs[0].White.Rating != 1900 {
			t.Fatalf("the list's fields: %+v", gs)
		}
		if tv, ok := h.TV(); !ok || tv.ID != high {
			t.Fatalf("TV %+v, want %s", tv, high)
		}
		c, _ := h.Join(ctx, high, "g:C")
		send(c, "resign")
		synctest.Wait()
		if tv, ok := h.TV(); !ok || tv.ID != mid {
			t.Fatalf("TV after the top game ended: %+v, want %s", tv, mid)
		}
		if n := len(h.Games()); n != 2 {
			t.Fatalf("%d games listed after one ended", n)
		}
	})
}

// TestTakebackEngine: against the engine a takeback is granted at once and
// takes back the engine's reply with the player's move, so that it is his
// turn again; the engine then waits for his new move.
func TestTakebackEngine(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "t.db"))
	defer st.Close()
	eng, err := enginepool.NewLivePlayer(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	hubCtx, stop := context.WithCancel(ctx)
	h := live.NewHub(hubCtx, live.Config{Store: store.LiveStore{S: st}, Engine: eng, FirstMoveTimeout: -1})
	defer func() {
		stop()
		h.Wait()
	}()
	w, _ := seats()
	id, err := h.Create(ctx, game.Spec{Rules: toguz.Standard(), White: w, Black: game.EngineSeat(1, "Engine 1")})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := h.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Leave()
	move(cw, 0, 1)
	awaitMove(t, cw, 2) // the engine's reply
	send(cw, "takeback_offer")
	deadline := time.After(10 * time.Second)
	for {
		select {
		case b := <-cw.Out():
			var m socialMsg
			json.Unmarshal(b, &m)
			if m.Type == "error" {
				t.Fatalf("%s", b)
			}
			if m.Type != "takeback" {
				continue
			}
			if m.Ply != 0 {
				t.Fatalf("takeback to ply %d, want 0", m.Ply)
			}
			s, _ := h.State(ctx, id)
			saved, _ := store.LiveStore{S: st}.Game(ctx, id)
			if s.Ply != 0 || s.Turn != "white" || len(saved.Moves) != 0 {
				t.Fatalf("after the takeback: ply %d, turn %s, %d stored moves", s.Ply, s.Turn, len(saved.Moves))
			}
			return
		case <-deadline:
			t.Fatal("no takeback against the engine")
		}
	}
}

// TestMutedChat: a seat the moderators muted (Config.Muted) posts nothing,
// in the lobby's room as in a game's; the others still do.
func TestMutedChat(t *testing.T) {
	withHubConfig(t, live.Config{Muted: func(id string) bool { return id == "u:7" }}, func(h *live.Hub) {
		lc := live.NewLobbyChat(h)
		a := lc.Subscribe()
		var le *live.Error
		if err := lc.Post(live.Chatter{ID: "u:7", Name: "muted", Addr: "x"}, "hello"); !errors.As(err, &le) || le.Code != apierr.CodeChatMuted {
			t.Errorf("a muted account's message: %v, want chat_muted", err)
		}
		if err := lc.Post(live.Chatter{ID: "u:8", Name: "other", Addr: "x"}, "hello"); err != nil {
			t.Errorf("another account's message: %v", err)
		}
		if n := len(a.Out()); n != 1 {
			t.Errorf("the watcher got %d messages, want 1", n)
		}
		lc.Unsubscribe(a)
	})
}
