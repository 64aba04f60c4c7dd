package server

import (
	"math/rand/v2"
	"testing"

	"github.com/toguz/toguz"
)

// BenchmarkMoveRoundTrip measures one move over a real websocket on
// loopback: sent by the player, checked, stored in SQLite (a committed
// transaction) and broadcast back to both players. A new game starts when
// one ends.
func BenchmarkMoveRoundTrip(b *testing.B) {
	playMoves(b, newTestServer(b, serverOpts{}))
}

// playMoves plays random moves of games between two guests of s over
// their websockets, one move a b.Loop turn, each waited for by both
// players; a new game starts (off the clock) when one ends.
func playMoves(b *testing.B, s *testServer) {
	rng := rand.New(rand.NewPCG(1, 1))
	var w, k *wsClient
	var fen string
	var ply int
	newGame := func() {
		white, black, id := s.game(s.guest(), s.guest(), "", false)
		w, k = s.dial(id, white), s.dial(id, black)
		fen, ply = w.until("state").FEN, 0
		k.until("state")
	}
	newGame()
	for b.Loop() {
		p, _, _ := toguz.ParseFEN(fen, toguz.Standard())
		if p.IsOver() {
			b.StopTimer()
			w.c.CloseNow()
			k.c.CloseNow()
			newGame()
			b.StartTimer()
			p, _, _ = toguz.ParseFEN(fen, toguz.Standard())
		}
		mover, other := w, k
		if p.Turn() == toguz.Black {
			mover, other = k, w
		}
		mover.move(ply, randomMove(b, rng, fen))
		m := mover.until("move", "error")
		if m.Type != "move" {
			b.Fatalf("refused: %s", m.Raw)
		}
		other.until("move")
		fen, ply = m.FEN, *m.Ply
	}
}
