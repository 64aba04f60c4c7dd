package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toguz/toguz/internal/store"
)

// TestReports lists the reports a server stored, newest first, as a table
// and as JSON lines.
func TestReports(t *testing.T) {
	db := filepath.Join(t.TempDir(), "toguz.db")
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []store.Report{
		{Reporter: "g:Guest-a", ReporterName: "Guest-a", Reported: "Guest-b", GameID: "G1", Room: "players", Message: "first"},
		{Reporter: "u:1", ReporterName: "aigul", Reported: "Guest-c", Room: "lobby", Message: "second"},
	} {
		if _, err := st.AddReport(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	code, out, errs := runRecordCmd(t, "reports", "-db", db)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[1], `"second"`) || !strings.Contains(lines[2], "Guest-b") || !strings.Contains(lines[2], "G1") {
		t.Fatalf("exit %d, %q %q", code, out, errs)
	}
	code, out, _ = runRecordCmd(t, "reports", "-db", db, "-json", "-n", "1")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"user":"Guest-c"`) {
		t.Fatalf("json: exit %d, %q", code, out)
	}
}
