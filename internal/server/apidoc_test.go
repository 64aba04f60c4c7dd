package server

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/apierr"
)

// apiDoc returns docs/api.md, the API's reference, which these tests hold
// the server to.
func apiDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docExportFormats returns the formats docs/api.md names for the export:
// `…/export?format=a|b|c`.
func docExportFormats(t *testing.T) []string {
	t.Helper()
	doc := apiDoc(t)
	_, rest, ok := strings.Cut(doc, "/export?format=")
	if !ok {
		t.Fatal("docs/api.md does not document the export's format parameter")
	}
	list, _, _ := strings.Cut(rest, "`")
	return strings.Split(list, "|")
}

// TestExportFormats requires every export format docs/api.md names to be
// accepted, and an unknown one to be refused with bad_format.
func TestExportFormats(t *testing.T) {
	s := newTestServer(t, serverOpts{})
	_, _, id := s.game(s.guest(), s.guest(), "", false)
	formats := docExportFormats(t)
	if len(formats) < 3 {
		t.Fatalf("docs/api.md names the export formats %q, want at least 3", formats)
	}
	for _, f := range append(formats, "toguz", "") {
		if code, m := s.do("GET", "/api/games/"+id+"/export?format="+f, "", nil); code != 200 {
			t.Errorf("export format %q: %d %v", f, code, m)
		}
	}
	for _, f := range []string{"pgn", "pgn2", "record|tgk"} {
		code, m := s.do("GET", "/api/games/"+id+"/export?format="+f, "", nil)
		if e, _ := m["error"].(map[string]any); code != 400 || e["code"] != "bad_format" {
			t.Errorf("export format %q: %d %v, want 400 bad_format", f, code, m)
		}
	}
	// PlayOK and TGK hold only the standard game: a Bestemshe game is
	// refused with a reason, not a server error.
	code, m := s.do("POST", "/api/seeks", s.guest(), map[string]any{"tc": "", "ruleset": "bestemshe", "color": "white"})
	if code != 201 {
		t.Fatalf("seek: %d %v", code, m)
	}
	code, m = s.do("POST", "/api/seeks/"+m["id"].(string)+"/accept", s.guest(), nil)
	if code != 201 {
		t.Fatalf("accept: %d %v", code, m)
	}
	for _, f := range []string{"playok", "tgk"} {
		code, m := s.do("GET", "/api/games/"+m["game_id"].(string)+"/export?format="+f, "", nil)
		if e, _ := m["error"].(map[string]any); code != 400 || e["code"] != "bad_format" {
			t.Errorf("export of a bestemshe game as %q: %d %v, want 400 bad_format", f, code, m)
		}
	}
}

// apiCodes are every error code the API answers: live's and the server's
// own (apierr.CodeCanceled excepted: no client reads it).
func apiCodes() []apierr.Code {
	return append(apierr.LiveCodes(), apierr.CodeBadName, apierr.CodeBadPassword, apierr.CodeNameTaken, apierr.CodeBadCredentials,
		apierr.CodeUnauthenticated, apierr.CodeBadFormat, apierr.CodeBusy, apierr.CodeTooLarge, apierr.CodeBadGuestToken, apierr.CodeGameInProgress, apierr.CodeAnalysisRate,
		apierr.CodeBadToken, apierr.CodeMissingScope, apierr.CodeNotBot, apierr.CodeNotYourGame, apierr.CodeHasGames)
}

// TestErrorCodesDocumented requires docs/api.md's "Error codes" section to
// list exactly the codes of the code: each once, none missing, none extra.
func TestErrorCodesDocumented(t *testing.T) {
	doc := apiDoc(t)
	_, section, ok := strings.Cut(doc, "\n## Error codes\n")
	if !ok {
		t.Fatal("docs/api.md has no Error codes section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var documented []string
	for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	var coded []string
	for _, c := range apiCodes() {
		coded = append(coded, string(c))
	}
	for what, list := range map[string][]string{"docs/api.md": documented, "the code": coded} {
		sorted := slices.Sorted(slices.Values(list))
		if c := slices.Compact(slices.Clone(sorted)); len(c) != len(sorted) {
			t.Errorf("%s names an error code twice: %q", what, sorted)
		}
	}
	for _, c := range coded {
		if !slices.Contains(documented, c) {
			t.Errorf("error code %s is not in docs/api.md", c)
		}
	}
	for _, c := range documented {
		if !slices.Contains(coded, c) {
			t.Errorf("docs/api.md lists error code %s, which the code does not have", c)
		}
	}
}
