package i18n

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestOutcome: each result and termination is a whole sentence in each
// language, with the score where it is known, and never a raw code.
func TestOutcome(t *testing.T) {
	c := New()
	score := &[2]int{82, 60}
	for _, tc := range []struct {
		result, term string
		score        *[2]int
		en, ru       string
	}{
		{"1-0", "kazan", score, "White won: over half the stones are in White's kazan, 82–60.", "Белые выиграли: в их казане больше половины камней, 82–60."},
		{"0-1", "atsyrau", &[2]int{70, 92}, "Black won by atsyrau: the player to move had no stone to play, 70–92.", "Чёрные выиграли по атсырау: у игрока, чей был ход, не осталось камней для хода, 70–92."},
		{"0-1", "time", &[2]int{40, 35}, "Black won on time, 40–35.", "Чёрные выиграли по времени, 40–35."},
		{"1-0", "resignation", nil, "Black resigned; White won.", "Чёрные сдались; белые выиграли."},
		{"1-0", "adjudication", nil, "White won: Black left the game.", "Белые выиграли: чёрные покинули партию."},
		{"1/2-1/2", "draw", &[2]int{81, 81}, "Draw: each kazan holds half the stones, 81–81.", "Ничья: в каждом казане половина камней, 81–81."},
		{"1/2-1/2", "agreement", &[2]int{50, 41}, "Draw by agreement, 50–41.", "Ничья по соглашению, 50–41."},
		// A record's result with no ending the rules know of.
		{"1-0", "none", &[2]int{60, 50}, "White won, 60–50.", "Белые выиграли, 60–50."},
		{"0-1", "", nil, "Black won.", "Чёрные выиграли."},
		{"*", "none", nil, "The game was not finished.", "Партия не окончена."},
		{"*", "kazan", nil, "No result.", "Без результата."},
	} {
		if got := c.Outcome("en", tc.result, tc.term, tc.score); got != tc.en {
			t.Errorf("en %s %s: %q, want %q", tc.result, tc.term, got, tc.en)
		}
		if got := c.Outcome("ru", tc.result, tc.term, tc.score); got != tc.ru {
			t.Errorf("ru %s %s: %q, want %q", tc.result, tc.term, got, tc.ru)
		}
	}
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		for _, r := range []string{"1-0", "0-1", "1/2-1/2", "*"} {
			for _, term := range []string{"none", "", "kazan", "draw", "atsyrau", "resignation", "time", "agreement", "adjudication"} {
				s := c.Outcome(lang, r, term, &[2]int{81, 81})
				for _, raw := range []string{"outcome.", "(" + term + ")", " none", "1-0", "0-1", "1/2", "%!"} {
					if term != "" && strings.Contains(s, raw) {
						t.Errorf("%s %s %s: %q shows %q", lang, r, term, s, raw)
					}
				}
			}
		}
	}
}

// TestOutcomeKeys: every key Outcome may use is in errors.json of each
// language.
func TestOutcomeKeys(t *testing.T) {
	for _, lang := range []string{"en", "kk", "ky", "ru"} {
		b, err := os.ReadFile("locales/" + lang + "/errors.json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range OutcomeKeys() {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: no %q", lang, k)
			}
		}
	}
}

// TestOutcomeTemplates: the board's sentences are Outcome's with the
// scores left to fill in.
func TestOutcomeTemplates(t *testing.T) {
	c := New()
	for _, lang := range []string{"en", "kk", "kk-Latn", "ky", "ru"} {
		m := c.OutcomeTemplates(lang)
		for _, k := range []string{"1-0 kazan", "0-1 atsyrau", "1/2-1/2 draw", "0-1 time", "* none"} {
			parts := strings.SplitN(k, " ", 2)
			want := c.Outcome(lang, parts[0], parts[1], &[2]int{70, 92})
			got := strings.NewReplacer("{w}", "70", "{b}", "92").Replace(m[k])
			if got != want || !strings.Contains(m[k], "{w}–{b}") {
				t.Errorf("%s %q: %q, want %q with {w}–{b}", lang, k, m[k], want)
			}
		}
		if rep := m["1/2-1/2 adjudication repetition"]; !strings.Contains(rep, c.T(lang, "outcome.1/2-1/2.repetition")) || !strings.Contains(rep, "{w}–{b}") {
			t.Errorf("%s: the repetition draw's sentence is %q", lang, rep)
		}
		for k, s := range m {
			if strings.Contains(s, "98700") {
				t.Errorf("%s %q: %q", lang, k, s)
			}
		}
	}
}
