package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/tablebase"
)

// syncBuffer is a strings.Builder safe for a server's log and a test
// reading it at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestServeSync starts `toguz serve` in this process with each -sync and
// reads, from its start-up log, the PRAGMA synchronous its store's writer
// connection really has: the flag reaches the store.
func TestServeSync(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{nil, 0, "synchronous=NORMAL"},
		{[]string{"-sync", "normal"}, 0, "synchronous=NORMAL"},
		{[]string{"-sync", "full"}, 0, "synchronous=FULL"},
		{[]string{"-sync", "off"}, 1, `-sync "off": want normal or full`},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errs syncBuffer
		args := append([]string{"serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "toguz.db")}, tt.args...)
		done := make(chan int, 1)
		go func() { done <- run(ctx, env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errs}) }()
		var code int
		deadline := time.After(30 * time.Second)
	wait:
		for {
			select {
			case code = <-done:
				break wait
			case <-deadline:
				t.Fatalf("%q: the server did not start:\n%s", tt.args, errs.String())
			case <-time.After(20 * time.Millisecond):
				if strings.Contains(errs.String(), "listening on") {
					cancel()
					code = <-done
					break wait
				}
			}
		}
		cancel()
		if code != tt.code || !strings.Contains(out.String()+errs.String(), tt.want) {
			t.Errorf("%q: exit %d (want %d), output lacks %q:\n%s%s", tt.args, code, tt.code, tt.want, out.String(), errs.String())
		}
	}
}

// serveStart runs `toguz serve` with args in this process until it listens
// (then stops it) or exits, and returns its exit code and output.
func serveStart(t *testing.T, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errs syncBuffer
	args = append([]string{"serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "toguz.db"), "-review-workers", "-1"}, args...)
	done := make(chan int, 1)
	go func() { done <- run(ctx, env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errs}) }()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case code := <-done:
			return code, out.String() + errs.String()
		case <-deadline:
			t.Fatalf("%q: the server did not start:\n%s", args, errs.String())
		case <-time.After(20 * time.Millisecond):
			if strings.Contains(errs.String(), "listening on") {
				cancel()
				code := <-done
				return code, out.String() + errs.String()
			}
		}
	}
}

// TestServeCPUProfile: -cpuprofile FILE writes a profile (gzipped, as
// pprof's are) when the server stops; a file that cannot be made stops it
// before it starts.
func TestServeCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	if code, out := serveStart(t, "-cpuprofile", path); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile: %d bytes, %v; want a gzipped profile", len(b), err)
	}
	bad := filepath.Join(t.TempDir(), "no", "cpu.pprof")
	if code, out := serveStart(t, "-cpuprofile", bad); code != 1 || !strings.Contains(out, "-cpuprofile: open "+bad) {
		t.Errorf("-cpuprofile %s: exit %d, want 1 and the file named:\n%s", bad, code, out)
	}
}

// TestServeTablebase: -tablebase DIR loads each ruleset's table found
// there and says which; a directory without any table starts without;
// a path that does not exist stops the server.
func TestServeTablebase(t *testing.T) {
	dir := t.TempDir()
	if _, err := tablebase.Generate(context.Background(), dir, tablebase.Options{Rules: toguz.Bestemshe(), Stones: 6, DistanceStones: 4, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := tablebase.Generate(context.Background(), dir, tablebase.Options{Rules: toguz.Bestemshe(), Stones: 4, DistanceStones: 4, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path  string
		code  int
		want  string
		never string
	}{
		{dir, 0, "msg=tablebase ruleset=bestemshe stones=6 distances=4", "ruleset=standard"},
		{t.TempDir(), 0, "no table file", "ruleset="},
		{filepath.Join(dir, "missing"), 1, "-tablebase: tablebase: stat", "listening on"},
	} {
		code, out := serveStart(t, "-tablebase", tt.path)
		if code != tt.code || !strings.Contains(out, tt.want) || strings.Contains(out, tt.never) {
			t.Errorf("-tablebase %s: exit %d (want %d), output lacks %q or has %q:\n%s", tt.path, code, tt.code, tt.want, tt.never, out)
		}
	}
}

// TestGCPercentApplies: serve sets the collector's percentage unless an
// operator's GOGC says otherwise and the flag is not given (-procs and
// GOMAXPROCS take the same path, envFlagApplies).
func TestGCPercentApplies(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want bool
	}{
		{"no GOGC", nil, map[string]string{}, true},
		{"GOGC kept", nil, map[string]string{"GOGC": "150"}, false},
		{"flag over GOGC", []string{"-gc-percent", "200"}, map[string]string{"GOGC": "150"}, true},
		{"TOGUZ_GC_PERCENT over GOGC", nil, map[string]string{"GOGC": "150", "TOGUZ_GC_PERCENT": "200"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok }
			e := env{lookupEnv: lookup}
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			fs.Int("gc-percent", server.DefaultGCPercent, "")
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			if err := flagsFromEnv(fs, lookup); err != nil {
				t.Fatal(err)
			}
			if got := envFlagApplies(fs, e, "gc-percent", "GOGC"); got != tc.want {
				t.Errorf("envFlagApplies = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestServeProcs: serve runs twice the CPUs' Ps unless told otherwise, and
// -background-engines adds one per searcher.
func TestServeProcs(t *testing.T) {
	for _, tc := range []struct {
		name                string
		procs, cpus, search int
		applies, background bool
		want                int
	}{
		{"default", 0, 2, 2, true, false, 4},
		{"flag", 3, 2, 2, true, false, 3},
		{"GOMAXPROCS kept", 0, 2, 2, false, false, 0},
		{"background", 0, 2, 2, true, true, 6},
		{"background, GOMAXPROCS kept", 0, 2, 2, false, true, 4},
		{"one CPU", 0, 1, 2, true, false, 2},
	} {
		if got := serveProcs(tc.procs, tc.cpus, tc.search, tc.applies, tc.background); got != tc.want {
			t.Errorf("%s: serveProcs(%d, %d, %d, %v, %v) = %d, want %d", tc.name, tc.procs, tc.cpus, tc.search, tc.applies, tc.background, got, tc.want)
		}
	}
}

// TestServeHelp: `toguz serve -h` lists every flag of the server's
// settings table with its default, and no other.
func TestServeHelp(t *testing.T) {
	var out, errs syncBuffer
	if code := run(context.Background(), env{args: []string{"serve", "-h"}, stdin: strings.NewReader(""), stdout: &out, stderr: &errs}); code != 0 {
		t.Fatalf("exit %d:\n%s", code, errs.String())
	}
	help := out.String() + errs.String()
	listed := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(help, -1)
	flags := server.Flags()
	if len(listed) != len(flags) {
		t.Errorf("-h lists %d flags, the table has %d:\n%s", len(listed), len(flags), help)
	}
	for _, f := range flags {
		loc := regexp.MustCompile(`\n  -` + regexp.QuoteMeta(f.Name) + `[ \t\n]`).FindStringIndex(help)
		if loc == nil {
			t.Errorf("-h lacks -%s:\n%s", f.Name, help)
			continue
		}
		entry, _, _ := strings.Cut(help[loc[0]+1:], "\n  -")
		def := f.Default
		if strings.Contains(entry, " string\n") {
			def = strconv.Quote(def)
		}
		switch shows := strings.Contains(entry, "(default "+def+")"); {
		case f.Default == "" || f.Default == "0" || f.Default == "false":
			if strings.Contains(entry, "(default ") {
				t.Errorf("-%s: a zero default shown: %q", f.Name, entry)
			}
		case !shows:
			t.Errorf("-%s: lacks (default %s): %q", f.Name, def, entry)
		}
		if first, _, _ := strings.Cut(f.Help, "\n"); !strings.Contains(entry, first) {
			t.Errorf("-%s: lacks its help %q: %q", f.Name, first, entry)
		}
	}
}
