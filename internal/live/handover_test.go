package live

import "testing"

// TestShare: a node hands over only past its share plus a tenth and one,
// to the least loaded node, no more than brings either to the share.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		loads map[string]int
		to    string
		n     int
	}{
		{map[string]int{"a": 10, "b": 0}, "b", 5},
		{map[string]int{"a": 7, "b": 3}, "b", 2},
		{map[string]int{"a": 6, "b": 4}, "", 0}, // within a share plus one
		{map[string]int{"a": 1, "b": 0}, "", 0},
		{map[string]int{"a": 30, "b": 0, "c": 0}, "b", 10},
		{map[string]int{"a": 30, "b": 10, "c": 0}, "c", 13},
		{map[string]int{"a": 1000, "b": 0}, "b", maxHandover},
		{map[string]int{"a": 12, "b": 12, "c": 0}, "c", 4},
		{map[string]int{"a": 10}, "", 0},
	} {
		to, n := share("a", tc.loads)
		if to != tc.to || n != tc.n {
			t.Errorf("share(a, %v) = %q, %d; want %q, %d", tc.loads, to, n, tc.to, tc.n)
		}
	}
}
