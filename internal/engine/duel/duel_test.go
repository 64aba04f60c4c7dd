package duel

import (
	"context"
	"testing"

	"github.com/toguz/toguz/internal/engine"
)

func TestPlaySelfMatch(t *testing.T) {
	o := engine.DefaultOptions()
	o.HashMB = 1
	res, err := Play(context.Background(), Config{A: o, B: o, Openings: 2, OpenPlies: 4, Seed: 1,
		Limits: engine.Limits{Depth: 2}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The same deterministic engine on both sides: each opening's two games
	// mirror each other, so the match is even.
	if res.Games() != 4 || res.Wins != res.Losses {
		t.Errorf("self-match %v, want 4 games with as many wins as losses", res)
	}
}
