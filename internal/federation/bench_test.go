package federation

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkList3000 reads a 3000-player list with its players and ranks
// and writes it as CSV and as the printed PDF: what a download costs.
func BenchmarkList3000(b *testing.B) {
	s, _ := newServiceB(b)
	var csv strings.Builder
	csv.WriteString("id,name_cyrl,name_latn,birth_year,sex,rank,rank_date,rating\n")
	for i := 1; i <= 3000; i++ {
		rank := ""
		if i%4 == 0 {
			rank = "CMS,2020-01-01"
		} else {
			rank = ","
		}
		fmt.Fprintf(&csv, "KAZ-%d,Ойыншы %d,Oiynshy %d,%d,m,%s,%d\n", i, i, i, 1950+i%60, rank, 1400+i%900)
	}
	if _, err := s.Import(b.Context(), "KAZ", Classic, date("2026-02-01"), strings.NewReader(csv.String())); err != nil {
		b.Fatal(err)
	}
	f, _ := s.Federation(b.Context(), "KAZ")
	for b.Loop() {
		lines, err := s.List(b.Context(), "KAZ", Classic, "2026-02-01")
		if err != nil || len(lines) != 3000 {
			b.Fatal(len(lines), err)
		}
		if err := WriteCSV(io.Discard, lines); err != nil {
			b.Fatal(err)
		}
		if err := WritePDF(io.Discard, f, PDFText{Title: "list", Lang: "kk"}, lines); err != nil {
			b.Fatal(err)
		}
	}
}
