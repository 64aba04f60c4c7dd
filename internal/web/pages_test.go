package web

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/toguz/toguz/internal/i18n"
)

// TestPageSets: every template that a page's set calls is in the set (a
// partial left out would fail only when the page is rendered), and a set
// holds only the partials it uses: the lobby's has no lesson board, the
// lesson page's has it.
func TestPageSets(t *testing.T) {
	ps, err := NewPages(i18n.New())
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.pages) < 50 {
		t.Fatalf("%d pages", len(ps.pages))
	}
	for name, set := range ps.pages {
		for _, tmpl := range set.Templates() {
			if tmpl.Tree == nil {
				continue
			}
			for _, call := range appendCalls(nil, tmpl.Tree.Root) {
				if set.Lookup(call) == nil {
					t.Errorf("page %s: template %s calls %q, which its set lacks", name, tmpl.Name(), call)
				}
			}
		}
	}
	for _, tc := range []struct {
		page, partial string
		in            bool
	}{
		{"lobby", "learn-board", false},
		{"lobby", "social-lobby", true},
		{"lesson", "learn-board", true},
		{"lesson", "learn-hole", true}, // called by learn-board
		{"game", "review", true},
		{"game", "forumhelp", false},
	} {
		set, ok := ps.pages[tc.page]
		if !ok {
			t.Errorf("no page %s", tc.page)
			continue
		}
		if in := set.Lookup(tc.partial) != nil; in != tc.in {
			t.Errorf("page %s's set has %s: %v, want %v", tc.page, tc.partial, in, tc.in)
		}
	}
	if ps.partials.Lookup("review") == nil {
		t.Error("RenderPartial's set lacks the partial review")
	}
}

// BenchmarkNewPages reports the heap that the parsed pages keep (bytes and
// objects live after a collection), what every collection marks.
func BenchmarkNewPages(b *testing.B) {
	var ps *Pages
	var before, after runtime.MemStats
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		var err error
		if ps, err = NewPages(i18n.New()); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
	}
	runtime.KeepAlive(ps)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc), "live-B")
	b.ReportMetric(float64(after.HeapObjects-before.HeapObjects), "live-objects")
}

// TestNeeded: a page gets the partials it calls and those they call in
// turn, once each; a template the page or the layout defines is not a
// partial's.
func TestNeeded(t *testing.T) {
	u := templateUses{
		definedIn: map[string]string{"a": "p/a.html", "a2": "p/a.html", "b": "p/b.html", "c": "p/c.html"},
		calls: map[string][]string{
			"layout.html": {"content"},
			"page.html":   {"a", "a2", "content-part"},
			"p/a.html":    {"b"},
			"p/b.html":    {"a"},
		},
	}
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{"layout.html"}, "[]"},
		{[]string{"layout.html", "page.html"}, "[p/a.html p/b.html]"},
		{[]string{"p/b.html"}, "[p/a.html p/b.html]"},
	} {
		if got := fmt.Sprint(u.needed(tc.files...)); got != tc.want {
			t.Errorf("needed(%v) = %s, want %s", tc.files, got, tc.want)
		}
	}
}
