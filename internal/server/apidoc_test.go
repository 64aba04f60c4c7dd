package server

import (
	"os"
	"strings"
	"testing"
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
	for _, f := range []string{"playok", "pgn2", "record|tgk"} {
		code, m := s.do("GET", "/api/games/"+id+"/export?format="+f, "", nil)
		if e, _ := m["error"].(map[string]any); code != 400 || e["code"] != "bad_format" {
			t.Errorf("export format %q: %d %v, want 400 bad_format", f, code, m)
		}
	}
}
