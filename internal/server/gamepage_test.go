package server

import (
	"context"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/live"
)

// TestAtsyrauReplayPage: the page of a game over by atsyrau gives the
// board the position with the collected stones in the kazan (data-final),
// so that board and score agree, and says in the page's language what was
// collected.
func TestAtsyrauReplayPage(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	ctx := context.Background()
	// docs/rules.md §5 example 3: 9, 1, 9, 1 leave White without a move; Black
	// collects his 8 stones: 76–86.
	p, err := toguz.Setup{Rules: toguz.Standard(), Board: [2][]int{{0, 0, 0, 0, 0, 0, 0, 0, 4}, {0, 0, 0, 0, 1, 0, 1, 1, 1}},
		Kazan: [2]int{76, 78}, Tuzdik: [2]int{6, 7}}.Position()
	if err != nil {
		t.Fatal(err)
	}
	w := game.Seat{ID: "g:Guest-w", Name: "Guest-w", Guest: true}
	b := game.Seat{ID: "g:Guest-b", Name: "Guest-b", Guest: true}
	id, err := s.hub.Create(ctx, game.Spec{Rules: toguz.Standard(), From: game.Start{Position: p, Move: 1}, White: w, Black: b})
	if err != nil {
		t.Fatal(err)
	}
	cw, err := s.hub.Join(ctx, id, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Leave()
	cb, err := s.hub.Join(ctx, id, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Leave()
	for ply, hole := range []int{9, 1, 9, 1} {
		c := [2]*live.Conn{cw, cb}[ply%2]
		c.Send(live.ClientMsg{Type: "move", Ply: &ply, Hole: hole})
		deadline := time.Now().Add(5 * time.Second)
		for {
			st, err := s.hub.State(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if st.Ply == ply+1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("ply %d was not played", ply+1)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	var st live.State
	for st.Status != "ended" {
		if st, err = s.hub.State(ctx, id); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the game is %s", st.Status)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, tc := range []struct{ lang, collected string }{
		{"en", "Black adds the 8 stones left on his side to his kazan"},
		{"ru", "добавляют в свой казан 8 камней"},
	} {
		req, _ := http.NewRequest("GET", s.URL+"/game/"+id, nil)
		req.AddCookie(&http.Cookie{Name: "lang", Value: tc.lang})
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := html.UnescapeString(string(body))
		if !strings.Contains(page, `data-final="`+st.FinalFEN+`"`) || st.FinalFEN == "" {
			t.Errorf("%s: the page does not give the board the final position %q", tc.lang, st.FinalFEN)
		}
		if !strings.Contains(page, tc.collected) {
			t.Errorf("%s: the page does not say %q", tc.lang, tc.collected)
		}
	}
}
