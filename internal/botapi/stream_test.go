package botapi

import "testing"

// TestToldAlready: a queued event that the stream's first lines told
// already is left out once; other events, and the same one again, pass.
func TestToldAlready(t *testing.T) {
	told := map[toldKey]bool{{"gameStart", "g1"}: true, {"challenge", "c1"}: true}
	for _, tt := range []struct {
		ev   string
		skip bool
	}{
		{`{"type":"challenge","challenge":{"id":"c2"}}`, false},
		{`{"type":"challengeCanceled","challenge":{"id":"c1"}}`, false},
		{`{"type":"challenge","challenge":{"id":"c1"}}`, true},
		{`{"type":"challenge","challenge":{"id":"c1"}}`, false},
		{`{"type":"gameFinish","game":{"id":"g1"}}`, false},
		{`{"type":"gameStart","game":{"id":"g2"}}`, false},
		{`{"type":"gameStart","game":{"id":"g1"}}`, true},
		{`{"type":"gameStart","game":{"id":"g1"}}`, false},
		{`not json`, false},
	} {
		if got := toldAlready(told, []byte(tt.ev)); got != tt.skip {
			t.Errorf("toldAlready(%s) = %v, want %v", tt.ev, got, tt.skip)
		}
	}
	if toldAlready(nil, []byte(`{"type":"gameStart","game":{"id":"g1"}}`)) {
		t.Error("nothing told: an event is left out")
	}
}
