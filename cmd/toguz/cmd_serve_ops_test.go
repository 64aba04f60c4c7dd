package main

import (
	"context"
	"flag"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// fakeEnv is an environment of the given variables.
func fakeEnv(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

// TestFlagsFromEnv: each flag not on the command line takes the variable
// of its name; the command line wins; a bad value names its variable.
func TestFlagsFromEnv(t *testing.T) {
	tests := []struct {
		args    []string
		env     map[string]string
		want    string // addr first-move v metrics-addr
		wantErr string
	}{
		{nil, nil, "localhost:8080 1m0s false ", ""},
		{nil, map[string]string{"TOGUZ_ADDR": ":9000"}, ":9000 1m0s false ", ""},
		{nil, map[string]string{"TOGUZ_FIRST_MOVE": "5s", "TOGUZ_V": "true", "TOGUZ_METRICS_ADDR": "127.0.0.1:9090"}, "localhost:8080 5s true 127.0.0.1:9090", ""},
		{[]string{"-addr", ":7000"}, map[string]string{"TOGUZ_ADDR": ":9000"}, ":7000 1m0s false ", ""},
		// Set empty, a variable still counts: an empty -metrics-addr.
		{nil, map[string]string{"TOGUZ_METRICS_ADDR": ""}, "localhost:8080 1m0s false ", ""},
		// Names other than TOGUZ_ and the flag's are not read.
		{nil, map[string]string{"ADDR": ":1", "toguz_addr": ":2", "TOGUZ_FIRST-MOVE": "1s"}, "localhost:8080 1m0s false ", ""},
		{nil, map[string]string{"TOGUZ_FIRST_MOVE": "soon"}, "", `environment TOGUZ_FIRST_MOVE="soon": invalid value for -first-move: parse error`},
		{nil, map[string]string{"TOGUZ_V": "maybe"}, "", `TOGUZ_V="maybe"`},
		// A bad variable whose flag the command line gives is not read.
		{[]string{"-first-move", "2s"}, map[string]string{"TOGUZ_FIRST_MOVE": "soon"}, "localhost:8080 2s false ", ""},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		addr := fs.String("addr", "localhost:8080", "")
		first := fs.Duration("first-move", time.Minute, "")
		v := fs.Bool("v", false, "")
		maddr := fs.String("metrics-addr", "", "")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		err := flagsFromEnv(fs, fakeEnv(tt.env))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q %v: error %v, want one with %q", tt.args, tt.env, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q %v: %v", tt.args, tt.env, err)
			continue
		}
		got := strings.Join([]string{*addr, first.String(), map[bool]string{true: "true", false: "false"}[*v], *maddr}, " ")
		if got != tt.want {
			t.Errorf("%q %v: %q, want %q", tt.args, tt.env, got, tt.want)
		}
	}
}

// TestServeEnv: serve reads its flags from the environment: TOGUZ_SYNC reaches the
// store as -sync does, and a bad value stops serve naming the variable.
func TestServeEnv(t *testing.T) {
	for _, tt := range []struct {
		args []string
		env  map[string]string
		code int
		want string
	}{
		{nil, map[string]string{"TOGUZ_SYNC": "full"}, 0, "synchronous=FULL"},
		{[]string{"-sync", "normal"}, map[string]string{"TOGUZ_SYNC": "full"}, 0, "synchronous=NORMAL"},
		{nil, map[string]string{"TOGUZ_GRACE": "soon"}, 1, `toguz serve: environment TOGUZ_GRACE="soon": invalid value for -grace`},
	} {
		sv := startServe(t, tt.args, tt.env)
		code := sv.stop()
		if code != tt.code || !strings.Contains(sv.errs.String(), tt.want) {
			t.Errorf("%q %v: exit %d (want %d), output lacks %q:\n%s", tt.args, tt.env, code, tt.code, tt.want, sv.errs.String())
		}
	}
}

// served is a `toguz serve` running in this process.
type served struct {
	t      *testing.T
	cancel context.CancelFunc
	done   chan int
	errs   *syncBuffer
	exited bool
	code   int
}

// startServe runs serve on a free port with a new database and the
// environment vars, and waits until it listens (or has exited).
func startServe(t *testing.T, args []string, vars map[string]string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sv := &served{t: t, cancel: cancel, done: make(chan int, 1), errs: &syncBuffer{}}
	all := append([]string{"serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "toguz.db"), "-review-workers", "-1"}, args...)
	go func() {
		sv.done <- run(ctx, env{args: all, stdin: strings.NewReader(""), stdout: io.Discard, stderr: sv.errs, lookupEnv: fakeEnv(vars)})
	}()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(sv.errs.String(), "listening on") {
		select {
		case sv.code = <-sv.done:
			sv.exited = true
			return sv
		case <-deadline:
			cancel()
			t.Fatalf("the server did not start:\n%s", sv.errs.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Cleanup(func() { sv.stop() })
	return sv
}

// url returns the address serve printed after prefix ("listening on ").
func (sv *served) url(prefix string) string {
	m := regexp.MustCompile(regexp.QuoteMeta(prefix) + `(http://\S+)`).FindStringSubmatch(sv.errs.String())
	if m == nil {
		sv.t.Fatalf("no %q in the output:\n%s", prefix, sv.errs.String())
	}
	return m[1]
}

// stop ends serve as SIGTERM does and returns its exit code.
func (sv *served) stop() int {
	sv.cancel()
	if !sv.exited {
		sv.code, sv.exited = <-sv.done, true
	}
	return sv.code
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestServeMetrics: -metrics-addr serves the Prometheus exposition on a
// listener of its own (parsed as Prometheus does), not on the site's; the
// site answers the probes.
func TestServeMetrics(t *testing.T) {
	sv := startServe(t, []string{"-metrics-addr", "127.0.0.1:0"}, nil)
	site, mURL := sv.url("listening on "), sv.url("metrics on ")
	if code, body := get(t, site+"/readyz"); code != 200 {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	resp, err := http.Get(mURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse %s: %v", mURL, err)
	}
	for _, name := range []string{"toguz_live_games", "toguz_sockets", "toguz_moves_total", "toguz_engine_queue",
		"toguz_http_requests_total", "toguz_store_seconds", "toguz_bodies_too_large_total", "go_goroutines", "process_cpu_seconds_total"} {
		if fams[name] == nil {
			t.Errorf("%s: not exposed", name)
		}
	}
	if code, _ := get(t, site+"/metrics"); code != 404 {
		t.Errorf("the site's listener answers /metrics with %d, want 404", code)
	}
	// Without the flag there is no metrics listener.
	plain := startServe(t, nil, nil)
	if strings.Contains(plain.errs.String(), "metrics on") {
		t.Errorf("metrics served without -metrics-addr:\n%s", plain.errs.String())
	}
}

// TestServeDrain: at a shutdown, /readyz answers 503 for -drain while the
// site (and /healthz) is still served; then serve stops cleanly.
func TestServeDrain(t *testing.T) {
	const drain = 2 * time.Second
	sv := startServe(t, []string{"-drain", drain.String()}, nil)
	site := sv.url("listening on ")
	if code, body := get(t, site+"/readyz"); code != 200 {
		t.Fatalf("/readyz before the shutdown: %d %s", code, body)
	}
	sv.cancel() // SIGTERM
	start := time.Now()
	for {
		code, body := get(t, site+"/readyz")
		if code == 503 {
			if !strings.Contains(body, `"reason":"shutting down"`) {
				t.Errorf("/readyz while draining: %s", body)
			}
			break
		}
		if time.Since(start) > drain/2 {
			t.Fatalf("/readyz still %d %s %v after the shutdown began", code, body, time.Since(start))
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, path := range []string{"/healthz", "/"} {
		if code, _ := get(t, site+path); code != 200 {
			t.Errorf("%s while draining: %d, want 200", path, code)
		}
	}
	if code := sv.stop(); code != 0 {
		t.Errorf("exit %d:\n%s", code, sv.errs.String())
	}
	if took := time.Since(start); took < drain {
		t.Errorf("stopped %v after the shutdown began, before the drain's %v", took, drain)
	}
}
