package main

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/toguz/toguz/internal/bus"
)

// scrape returns the value of each metric (its first sample) at url.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for name, f := range fams {
		if len(f.Metric) == 0 {
			continue
		}
		m := f.Metric[0]
		switch {
		case m.Gauge != nil:
			out[name] = m.Gauge.GetValue()
		case m.Counter != nil:
			out[name] = m.Counter.GetValue()
		default:
			out[name] = 0
		}
	}
	return out
}

// TestServeNodeMetrics: a node exposes its leases, takeovers, handovers,
// NATS connection and review queue; while NATS is down /readyz is not
// ready (and says so), and it is again once NATS is back.
func TestServeNodeMetrics(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	em, err := bus.StartEmbedded(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { em.Close() }()
	sv := startServe(t, []string{"-metrics-addr", "127.0.0.1:0", "-nats", "nats://" + addr, "-node", "n1", "-review-workers", "1"}, nil)
	site, mURL := sv.url("listening on "), sv.url("metrics on ")
	if code, body := get(t, site+"/readyz"); code != 200 {
		t.Fatalf("/readyz: %d %s", code, body)
	}
	m := scrape(t, mURL)
	for _, name := range []string{"toguz_leases", "toguz_takeovers_total", "toguz_games_handed_over_total", "toguz_games_adopted_total",
		"toguz_nats_connected", "toguz_review_queue"} {
		if _, ok := m[name]; !ok {
			t.Errorf("%s: not exposed", name)
		}
	}
	checkMonitoringDocs(t, m)
	if m["toguz_nats_connected"] != 1 {
		t.Errorf("toguz_nats_connected = %v with NATS up", m["toguz_nats_connected"])
	}
	em.Close()
	waitReady := func(want int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			code, body := get(t, site+"/readyz")
			if code == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz: %d %s; want %d", code, body, want)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitReady(503)
	if v := scrape(t, mURL)["toguz_nats_connected"]; v != 0 {
		t.Errorf("toguz_nats_connected = %v with NATS down", v)
	}
	if em, err = bus.StartEmbedded(addr); err != nil {
		t.Fatal(err)
	}
	waitReady(200)
}

// checkMonitoringDocs: the Grafana dashboard and the alert rules in
// docs/monitoring read only metrics a node exposes (exposed: a scrape),
// and the dashboard is a dashboard Grafana can import.
func checkMonitoringDocs(t *testing.T, exposed map[string]float64) {
	t.Helper()
	dash, err := os.ReadFile("../../docs/monitoring/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Title  string `json:"title"`
		UID    string `json:"uid"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(dash, &d); err != nil || d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("the dashboard: %v (uid %q, %d panels)", err, d.UID, len(d.Panels))
	}
	rules, err := os.ReadFile("../../docs/monitoring/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(rules), "- alert: "); n == 0 || n != strings.Count(string(rules), "expr: ") {
		t.Errorf("alerts.yml: %d alerts, %d exprs", n, strings.Count(string(rules), "expr: "))
	}
	name := regexp.MustCompile(`toguz_[a-z_]+`)
	for _, f := range []struct {
		file string
		text []byte
	}{{"grafana-dashboard.json", dash}, {"alerts.yml", rules}} {
		for _, n := range name.FindAllString(string(f.text), -1) {
			base := strings.TrimSuffix(n, "_bucket")
			if _, ok := exposed[base]; !ok {
				t.Errorf("%s reads %s, which no node exposes", f.file, n)
			}
		}
	}
}
