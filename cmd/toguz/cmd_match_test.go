package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/match"
)

func TestMatchArgs(t *testing.T) {
	args := []string{"-games", "4", "-engine", "name=a", "option.Level=3", "tc=40/60+0.6",
		"-each", "option.Hash=16", "-engine", "name=b", "cmd=/bin/prog --uci", "st=0.5",
		"-sprt", "elo0=0", "elo1=5", "alpha=0.05", "beta=0.05", "-concurrency", "2"}
	groups, rest, err := groupArgs(args, "-engine", "-each", "-sprt", "-resign")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-games", "4", "-concurrency", "2"}; !reflect.DeepEqual(rest, want) {
		t.Errorf("rest %q, want %q", rest, want)
	}
	if len(groups) != 4 || groups[1][0] != "-each" || groups[3][0] != "-sprt" {
		t.Fatalf("groups %q", groups)
	}
	var a, b match.EngineSpec
	if err := applyEngineArgs(&a, append(groups[1][1:], groups[0][1:]...)); err != nil {
		t.Fatal(err)
	}
	wantA := match.EngineSpec{Name: "a", Options: [][2]string{{"Hash", "16"}, {"Level", "3"}},
		TC: match.TimeControl{Moves: 40, Base: time.Minute, Inc: 600 * time.Millisecond}}
	if !reflect.DeepEqual(a, wantA) {
		t.Errorf("engine a %+v, want %+v", a, wantA)
	}
	if err := applyEngineArgs(&b, groups[2][1:]); err != nil {
		t.Fatal(err)
	}
	if b.TC.MoveTime != 500*time.Millisecond || !reflect.DeepEqual(b.Cmd, []string{"/bin/prog", "--uci"}) {
		t.Errorf("engine b %+v", b)
	}
	kv, err := keyValues(groups[3][1:], "elo0", "elo1", "alpha", "beta")
	if err != nil || kv["elo1"] != 5 || kv["alpha"] != 0.05 {
		t.Errorf("sprt %v, %v", kv, err)
	}
	for _, bad := range [][]string{{"-engine", "name"}, {"-sprt", "elo0"}} {
		if _, _, err := groupArgs(bad, "-engine", "-sprt"); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, bad := range []string{"tc=fast", "st=-1", "depth=0", "nodes=x", "colour=red", "cmd="} {
		var s match.EngineSpec
		if err := applyEngineArgs(&s, []string{bad}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if _, err := keyValues([]string{"elo0=0"}, "elo0", "elo1"); err == nil {
		t.Error("a missing elo1 was accepted")
	}
}

func TestPrintReportMoveTimes(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	cfg := match.Config{Engines: [2]match.EngineSpec{{Name: "two"}, {Name: "one"}}}
	rep := match.Report{
		Counts:       match.Counts{Draws: 1},
		Terminations: map[toguz.Termination]int{toguz.ByAdjudication: 1},
		Finished: []match.Game{{White: "two", Black: "one", Result: toguz.Draw, Termination: toguz.ByAdjudication,
			Times: [2][]time.Duration{{ms(40), ms(44), ms(120)}, {ms(41)}}, Late: [2]int{1, 0}}},
	}
	var out bytes.Buffer
	printReport(env{stdout: &out}, cfg, rep, time.Minute)
	for _, want := range []string{
		"Move times of two: mean 68.0 ms, median 44.0, p99 120.0, max 120.0 over 3 answers; late within the margin 1, games lost on time 0\n",
		"Move times of one: mean 41.0 ms, median 41.0, p99 41.0, max 41.0 over 1 answers; late within the margin 0, games lost on time 0\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
