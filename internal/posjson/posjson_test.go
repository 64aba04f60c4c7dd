package posjson

import (
	"encoding/json"
	"testing"

	"github.com/toguz/toguz"
)

func TestStart(t *testing.T) {
	p, err := toguz.NewPosition(toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(Of(p, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"board":[[9,9,9,9,9,9,9,9,9],[9,9,9,9,9,9,9,9,9]],"kazan":[0,0],"tuzdik":[0,0],"turn":"white","full":1}`
	if string(b) != want {
		t.Errorf("got %s\nwant %s", b, want)
	}
	next, err := p.Play(1)
	if err != nil {
		t.Fatal(err)
	}
	q, err := Parse(toguz.FormatFEN(next, 1), toguz.Standard())
	if err != nil {
		t.Fatal(err)
	}
	if q.Turn != "black" || q.Full != 1 || q.Board.Board[0][0] != 1 || q.Board.Board[0][1] != 10 || q.Board.Board[1][0] != 9 {
		t.Errorf("after 1: %+v", q)
	}
	if _, err := ParseAll([]string{"nonsense"}, toguz.Standard()); err == nil {
		t.Error("ParseAll took a bad FEN")
	}
}
