package server

import (
	"context"
	"fmt"

	"github.com/toguz/toguz/internal/federation"
)

const whyChampionship = "a championship's pairings, standings and papers are public, as a federation publishes them; its desk is its arbiters'"

// walkRegister is a register of two players for the route walk's
// championship (the store-backed register is package federation's).
type walkRegister struct{}

func (walkRegister) Player(_ context.Context, id string) (federation.Player, error) {
	switch id {
	case "KAZ-1", "KAZ-2":
		return federation.Player{ID: id, Federation: "KAZ", NameLatn: "Player " + id, Sex: federation.Male, BirthYear: 1990}, nil
	}
	return federation.Player{}, fmt.Errorf("%s: %w", id, federation.ErrNoPlayer)
}

func (walkRegister) Submit(context.Context, federation.Report) error { return nil }

// championship is alice's championship, two players entered.
func (w *walk) championship() string {
	return w.once("championship", func() string {
		code, m := w.l.do("POST", "/api/championships", w.alice, map[string]any{"name": "Cup", "federation": "KAZ", "start": "2026-05-10",
			"sections": []map[string]any{{"key": "open", "name": "Open", "discipline": "classic", "system": "dutch", "rounds": 5}}})
		w.must("alice's championship", code, 201, m)
		id := m["id"].(string)
		code, m = w.l.do("POST", "/api/championships/"+id+"/entries", w.alice, map[string]any{"ids": []string{"KAZ-1", "KAZ-2"}})
		w.must("the championship's entries", code, 200, m)
		return id
	})
}

func championshipOf(w *walk) map[string]string { return map[string]string{"id": w.championship()} }
