package server

import (
	"flag"
	"io"
	"net/netip"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/live"
)

// TestDeploySettings: docs/deploy.md's table of the flags is the one
// the settings table writes (go generate ./internal/server), and its
// configuration section names no flag that serve lacks.
func TestDeploySettings(t *testing.T) {
	b, err := os.ReadFile("../../docs/deploy.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	want, err := SpliceSettings(doc)
	if err != nil {
		t.Fatal(err)
	}
	if want != doc {
		t.Errorf("docs/deploy.md's table of the flags is out of date: go generate ./internal/server")
	}
	_, section, _ := strings.Cut(doc, "## Configuration")
	section, _, _ = strings.Cut(section, "\n## ")
	var names []string
	for _, f := range Flags() {
		names = append(names, f.Name)
		row := "| `-" + f.Name + "` | `" + EnvName(f.Name) + "` | "
		if !strings.Contains(section, row) {
			t.Errorf("docs/deploy.md's configuration lacks the row of -%s (%s)", f.Name, row)
		}
	}
	for _, m := range regexp.MustCompile("`-([a-z][a-z0-9-]*)[`= ]").FindAllStringSubmatch(section, -1) {
		if !slices.Contains(names, m[1]) {
			t.Errorf("docs/deploy.md's configuration names -%s, which toguz serve lacks", m[1])
		}
	}
}

// TestSettingsZeroIsDefault: a flag given 0 and a field left at 0 both
// take the table's default; -1 stays none; the flags' own defaults are
// the table's.
func TestSettingsZeroIsDefault(t *testing.T) {
	parse := func(args ...string) Options {
		t.Helper()
		var o Options
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		o.SetDefaults()
		return o
	}
	var zero Options
	zero.SetDefaults()
	for name, o := range map[string]Options{
		"no flags": parse(), "flags at 0": parse("-first-move", "0", "-max-conns-per-addr", "0", "-review-workers", "0", "-read-timeout", "0", "-drain", "0", "-seeks-per-address", "0", "-gc-percent", "0"),
		"a zero Options": zero,
	} {
		got := []any{o.FirstMoveTimeout, o.MaxConnsPerAddr, o.ReviewWorkers, o.ReadTimeout, o.Command.Drain, o.Lobby.PerAddress, o.Command.GCPercent,
			o.Grace, o.MaxEngineGames, o.AnalysisEngines, o.ReviewDepth, o.DB, o.Command.Addr, o.Command.Sync, o.EnginesHoldCPU,
			o.MessageRate, o.MessageBurst, o.WritesPerSecond, o.WriteBurst}
		want := []any{60 * time.Second, DefaultMaxConnsPerAddr, 1, DefaultReadTimeout, time.Duration(-1), 20, DefaultGCPercent,
			30 * time.Second, live.DefaultMaxEngineGames, 1, 10, "toguz.db", "localhost:8080", "normal", false,
			20.0, 40, 20.0, 60}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
	o := parse("-first-move", "-1", "-max-conns-per-addr", "-1", "-review-workers", "-1", "-idle-timeout", "-1", "-max-engine-games", "-1",
		"-engine-yield=false", "-trusted-proxies", "10.0.0.5, 10.1.0.0/16", "-drain", "5s")
	got := []any{o.FirstMoveTimeout, o.MaxConnsPerAddr, o.ReviewWorkers, o.IdleTimeout, o.MaxEngineGames, o.EnginesHoldCPU, len(o.TrustedProxies), o.Command.Drain}
	want := []any{time.Duration(-1), -1, -1, time.Duration(-1), -1, true, 2, 5 * time.Second}
	if !slices.Equal(got, want) {
		t.Errorf("-1s: %v, want %v", got, want)
	}
	if o.TrustedProxies[1] != netip.MustParsePrefix("10.1.0.0/16") {
		t.Errorf("-trusted-proxies: %v", o.TrustedProxies)
	}
	for _, bad := range [][]string{{"-grace", "soon"}, {"-trusted-proxies", "not an address"}, {"-engine-yield=maybe"}} {
		var o Options
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o.Register(fs)
		if err := fs.Parse(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestConfigDefaults: New gives a zero Config's Settings the table's
// defaults, and keeps those it is given.
func TestConfigDefaults(t *testing.T) {
	srv, err := New(Config{Settings: Settings{WritesPerSecond: 5}})
	if err != nil {
		t.Fatal(err)
	}
	s := srv.cfg.Settings
	if s.MessageRate != 20 || s.MessageBurst != 40 || s.WritesPerSecond != 5 || s.WriteBurst != 60 {
		t.Errorf("%+v", s)
	}
}
