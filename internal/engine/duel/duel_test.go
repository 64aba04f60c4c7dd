package duel

import (
	"context"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/engine"
	"github.com/toguz/toguz/internal/engine/eval"
)

var (
	feature  = flag.String("duel.off", "", "run a match: default options against this feature (an Options bool field name) switched off; 'none' for a self-match")
	openings = flag.Int("duel.openings", 50, "openings (two games each)")
	nodes    = flag.Uint64("duel.nodes", 0, "nodes per move")
	depth    = flag.Int("duel.depth", 0, "depth per move")
	movetime = flag.Duration("duel.movetime", 0, "time per move")
	levels   = flag.String("duel.levels", "", "run a match between two levels, \"A,B\"")
	weights  = flag.String("duel.weights", "", "run a match: these evaluation weights (a weights.txt file) against the embedded ones")
)

// TestDuel is the development match, run by hand, e.g.
//
//	nice go test ./internal/engine/duel -run Duel -duel.off LMR -duel.nodes 20000 -v
func TestDuel(t *testing.T) {
	if *feature == "" && *levels == "" && *weights == "" {
		t.Skip("no -duel.off, -duel.levels or -duel.weights given")
	}
	a, b := engine.DefaultOptions(), engine.DefaultOptions()
	a.HashMB, b.HashMB = 16, 16
	if *weights != "" {
		f, err := os.Open(*weights)
		if err != nil {
			t.Fatal(err)
		}
		a.Eval, err = eval.ParseWeights(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", *weights, err)
		}
	} else if *levels != "" {
		if _, err := fmt.Sscanf(*levels, "%d,%d", &a.Level, &b.Level); err != nil {
			t.Fatalf("-duel.levels %q: %v", *levels, err)
		}
	} else if *feature != "none" {
		if err := setOff(&b, *feature); err != nil {
			t.Fatal(err)
		}
	}
	cfg := Config{A: a, B: b, Openings: *openings, OpenPlies: 6, Seed: 7,
		Limits: engine.Limits{Nodes: *nodes, Depth: *depth, MoveTime: *movetime}}
	start := time.Now()
	res, err := Play(context.Background(), cfg, func(r Result) {
		if r.Games()%20 == 0 {
			t.Logf("%d games: %v", r.Games(), r)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("A vs B (off %q, levels %q, weights %q), limits %+v: %v in %v", *feature, *levels, *weights, cfg.Limits, res, time.Since(start).Round(time.Second))
}

// setOff switches off the Options bool named name (case-insensitive): every
// search feature is one, as the protocol's options are.
func setOff(o *engine.Options, name string) error {
	v := reflect.ValueOf(o).Elem()
	f := v.FieldByNameFunc(func(n string) bool { return strings.EqualFold(n, name) })
	if !f.IsValid() || f.Kind() != reflect.Bool {
		return fmt.Errorf("no feature %q", name)
	}
	f.SetBool(false)
	return nil
}

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

func TestSetOff(t *testing.T) {
	for _, tt := range []struct {
		name string
		off  func(o engine.Options) bool
	}{
		{"LMR", func(o engine.Options) bool { return !o.LMR }},
		{"neural", func(o engine.Options) bool { return !o.Neural }},
		{"Threads", nil},
		{"nothing", nil},
	} {
		o := engine.DefaultOptions()
		err := setOff(&o, tt.name)
		if tt.off == nil && err == nil || tt.off != nil && (err != nil || !tt.off(o)) {
			t.Errorf("setOff(%q): %v, %+v", tt.name, err, o)
		}
	}
}
