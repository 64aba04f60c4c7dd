package abacus

// Translator gives the text of a catalog key in a language
// (*i18n.Catalog); the texts are the key.* keys of
// internal/i18n/locales/*/key.json.
type Translator interface {
	T(lang, key string, args ...any) string
}

// Heading says in lang what the step did, its digit counted from 1 at the
// units.
func (s Step) Heading(tr Translator, lang string, op Op) string {
	d := s.Place + 1
	switch s.Kind {
	case StepMove:
		if op == Add {
			return tr.T(lang, "key.step.move.add", d)
		}
		return tr.T(lang, "key.step.move.sub", d)
	case StepCarry:
		return tr.T(lang, "key.step.carry", d, s.Carry)
	case StepBorrow:
		return tr.T(lang, "key.step.borrow", d, s.Moves[1].Stones)
	case StepCancel:
		return tr.T(lang, "key.step.cancel", d)
	case StepTimes:
		return tr.T(lang, "key.step.times", d)
	case StepDivide:
		return tr.T(lang, "key.step.divide", d)
	case StepMark:
		return tr.T(lang, "key.step.mark")
	}
	return tr.T(lang, "key.step.place")
}

// Name returns the place r in lang: "first row, hole 3", a kazan, the
// spare stones.
func (r Ref) Name(tr Translator, lang string) string {
	switch {
	case r.Spare:
		return tr.T(lang, "key.ref.spare")
	case r.Hole == 0 && r.Row == First:
		return tr.T(lang, "key.ref.kazan1")
	case r.Hole == 0:
		return tr.T(lang, "key.ref.kazan2")
	case r.Row == First:
		return tr.T(lang, "key.ref.first", r.Hole)
	}
	return tr.T(lang, "key.ref.second", r.Hole)
}

// Text returns the move in lang: "first row, hole 1 → first row, hole 2: 1".
func (m Move) Text(tr Translator, lang string) string {
	return tr.T(lang, "key.move", m.From.Name(tr, lang), m.To.Name(tr, lang), m.Stones)
}
