package server

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/toguz/toguz"
)

// TestEditorRulesets shows the editor for each named ruleset: its board size
// and stone total are the ruleset's, a position of that ruleset starts an
// engine game of it, and a wrong one gets the library's reason.
func TestEditorRulesets(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	c := s.browser()
	for _, name := range toguz.RulesetNames() {
		t.Run(name, func(t *testing.T) {
			r, err := toguz.ParseRules(name)
			if err != nil {
				t.Fatal(err)
			}
			code, body := get(t, c, s.URL+"/editor?ruleset="+name)
			if code != 200 {
				t.Fatalf("GET /editor?ruleset=%s: %d", name, code)
			}
			for _, want := range []string{
				fmt.Sprintf(`data-total="%d"`, r.Total()),
				fmt.Sprintf(`data-ruleset="%s"`, name),
				fmt.Sprintf(`name="w%d"`, r.Holes),
				fmt.Sprintf(`<output id="editor-total">%d</output> / %d`, r.Total(), r.Total()),
			} {
				if !strings.Contains(body, want) {
					t.Errorf("the %s editor lacks %s", name, want)
				}
			}
			if strings.Contains(body, fmt.Sprintf(`name="w%d"`, r.Holes+1)) {
				t.Errorf("the %s editor has more than %d holes a side", name, r.Holes)
			}
			if got := strings.Contains(body, `name="tw"`); got != r.Tuzdik {
				t.Errorf("the %s editor offers tuzdiks: %v, the ruleset has them: %v", name, got, r.Tuzdik)
			}

			form := url.Values{"from": {"editor"}, "level": {"1"}, "color": {"white"}, "turn": {"white"}, "ruleset": {name}}
			for h := 1; h <= r.Holes; h++ {
				form.Set(fmt.Sprintf("w%d", h), fmt.Sprint(r.Stones))
				form.Set(fmt.Sprintf("b%d", h), fmt.Sprint(r.Stones))
			}
			form.Set("w1", fmt.Sprint(r.Stones-1))
			code, _, body = postForm(t, c, s.URL+"/lobby/engine", form)
			if want := fmt.Sprintf("%d stones in all, want %d", r.Total()-1, r.Total()); code != 400 || !strings.Contains(body, want) {
				t.Errorf("one stone short: %d, want 400 and %q", code, want)
			}
			// What editor.js asks on every change.
			row := func() []int {
				out := make([]int, r.Holes)
				for i := range out {
					out[i] = r.Stones
				}
				return out
			}
			check := map[string]any{"ruleset": name, "board": [2][]int{row(), row()}, "turn": "black"}
			if code, m := s.do("POST", "/api/positions/check", "", check); code != 200 || m["ok"] != true {
				t.Errorf("check of the %s start with Black to move: %d %v", name, code, m)
			}
			check["kazan"] = [2]int{1, 0}
			code, m := s.do("POST", "/api/positions/check", "", check)
			if e, _ := m["error"].(map[string]any); code != 400 || e == nil ||
				e["message"] != fmt.Sprintf("This position is impossible: %d stones in all, want %d.", r.Total()+1, r.Total()) ||
				e["detail"] != fmt.Sprintf("%d stones in all, want %d", r.Total()+1, r.Total()) {
				t.Errorf("check of one stone too many: %d %v", code, m)
			}

			form.Set("w1", "0")
			form.Set("kw", fmt.Sprint(r.Stones))
			code, loc, _ := postForm(t, c, s.URL+"/lobby/engine", form)
			if code != 303 || !strings.HasPrefix(loc, "/game/") {
				t.Fatalf("editor position: %d %s", code, loc)
			}
			st, err := s.hub.State(t.Context(), strings.TrimPrefix(loc, "/game/"))
			if err != nil {
				t.Fatal(err)
			}
			if st.Ruleset != name {
				t.Errorf("the game from the %s editor is played under %s", name, st.Ruleset)
			}
		})
	}
	if code, _ := get(t, c, s.URL+"/editor?ruleset=holes=12"); code != 400 {
		t.Errorf("an editor for 12 holes: %d, want 400", code)
	}
}
