package server

import (
	"context"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/clock"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/store"
)

// TestGamePagePictures: a reviewed timed game's page draws the evaluation
// graph, each ply a link, and the clocks' graph, their titles in the
// page's language.
func TestGamePagePictures(t *testing.T) {
	s := newTestServer(t, serverOpts{reviews: true})
	ctx := context.Background()
	g, err := s.st.CreateGame(ctx, store.Game{Players: [2]game.Seat{{Name: "Guest-w"}, {Name: "Guest-b"}},
		Rules: toguz.Standard(), Status: game.Playing, TimeControl: clock.TimeControl{Base: 3 * time.Minute, Increment: 2 * time.Second}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range shortestGame {
		left := 3*time.Minute - time.Duration(i)*7*time.Second
		if err := s.st.AppendMove(ctx, g.ID, store.Move{Ply: i + 1, Hole: m, Clock: left}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.st.FinishGame(ctx, g.ID, store.Finish{Status: game.Ended, Result: toguz.WhiteWins, Termination: toguz.ByKazan}); err != nil {
		t.Fatal(err)
	}
	s.reviewNext()
	for _, tt := range []struct{ lang, eval, clocks string }{
		{"en", "Evaluation after each move", "Time left on each player&#39;s clock after each move, in minutes: White from 3:00 to 1:50; Black from 3:00 to 1:57"},
		{"kk", "Әр жүрістен кейінгі баға", "Әр жүрістен кейін ойыншылардың сағатында қалған уақыт, минутпен: Ақ: 3:00-тен 1:50-ге дейін"},
		{"ru", "Оценка после каждого хода", "Время на часах каждого игрока после каждого хода, в минутах: Белые — с 3:00 до 1:50"},
	} {
		code, page := s.getPage("/game/"+g.ID, tt.lang)
		if code != http.StatusOK {
			t.Fatalf("%s: status %d", tt.lang, code)
		}
		for _, want := range []string{`id="eval-graph"`, `<title>` + tt.eval, `data-key="0"`, `data-key="11"`, `id="clock-graph"`, `<title>` + tt.clocks} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the game page lacks %q:\n%s", tt.lang, want, excerptOf(html.UnescapeString(page), "clock-graph"))
			}
		}
	}
	// An untimed game has no clocks to draw.
	id := s.finishedGame(shortestGame)
	s.reviewNext()
	if _, page := s.getPage("/game/"+id, "en"); strings.Contains(page, `id="clock-graph"`) || !strings.Contains(page, `id="eval-graph"`) {
		t.Errorf("an untimed game: want the evaluation graph and no clock graph")
	}
}
