package store

import (
	"bytes"
	"errors"
	"sync"
	"testing"
)

// TestSecret: a secret is made once and then always the same, even when
// several stores on one database ask for it at once; a failing maker
// stores nothing.
func TestSecret(t *testing.T) {
	backends(t, func(t *testing.T, be backend) {
		s, path := openTest(t, be)
		ctx := t.Context()
		if _, err := s.Secret(ctx, "k", func() ([]byte, error) { return nil, errors.New("no entropy") }); err == nil {
			t.Fatal("a failing maker: no error")
		}
		s2, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		var wg sync.WaitGroup
		got := make([][]byte, 8)
		for i := range got {
			st := s
			if i%2 == 1 {
				st = s2
			}
			wg.Go(func() {
				v, err := st.Secret(ctx, "k", func() ([]byte, error) { return []byte{byte(i), 1, 2, 3}, nil })
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			})
		}
		wg.Wait()
		for i, v := range got {
			if len(v) != 4 || !bytes.Equal(v, got[0]) {
				t.Fatalf("ask %d got %x, ask 0 %x: want one secret", i, v, got[0])
			}
		}
		v, err := s.Secret(ctx, "k", func() ([]byte, error) { t.Error("made again"); return nil, nil })
		if err != nil || !bytes.Equal(v, got[0]) {
			t.Errorf("later: %x %v", v, err)
		}
	})
}
