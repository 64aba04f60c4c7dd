package teamswiss

import "slices"

// order puts the matches in the order of the pairing list: the higher
// score of the two teams, then the sum of their scores, then the smaller
// TPN (C.04.2's order of the boards, for teams).
func (e *engine) order(pairs [][2]*team) [][2]*team {
	out := slices.Clone(pairs)
	key := func(p [2]*team) (int, int, int) {
		return max(p[0].Primary, p[1].Primary), p[0].Primary + p[1].Primary, min(p[0].ID, p[1].ID)
	}
	slices.SortStableFunc(out, func(a, b [2]*team) int {
		a1, a2, a3 := key(a)
		b1, b2, b3 := key(b)
		if a1 != b1 {
			return b1 - a1
		}
		if a2 != b2 {
			return b2 - a2
		}
		return a3 - b3
	})
	return out
}

// firstTeam is 4.2: the higher primary score, then the higher secondary
// score (unless the rules leave it out), then the smaller TPN.
func (e *engine) firstTeam(a, b *team) (first, other *team) {
	switch {
	case a.Primary != b.Primary:
		if a.Primary > b.Primary {
			return a, b
		}
		return b, a
	case !e.in.NoSecondary && a.Secondary != b.Secondary:
		if a.Secondary > b.Secondary {
			return a, b
		}
		return b, a
	case a.ID < b.ID:
		return a, b
	}
	return b, a
}

// allocate is 4.3: which team has White on the first board. paired holds
// the teams paired this round (for 4.3.1's number, with those paired
// before).
func (e *engine) allocate(a, b *team, paired map[int]bool) (white, black *team) {
	first, other := e.firstTeam(a, b)
	give := func(t *team, c Colour) (*team, *team) {
		o := a
		if t == a {
			o = b
		}
		if c == White {
			return t, o
		}
		return o, t
	}
	// 4.3.1: both teams yet to play a match.
	if !first.played && !other.played {
		init := e.in.InitialColour
		if init == None {
			init = White
		}
		n := 0
		for _, t := range e.teams {
			if t.ID <= first.ID && (t.PairedBefore || paired[t.ID]) {
				n++
			}
		}
		if n%2 == 1 {
			return give(first, init)
		}
		return give(first, init.opposite())
	}
	// 4.3.2: only one team has a preference.
	if (first.pref == None) != (other.pref == None) {
		if first.pref != None {
			return give(first, first.pref)
		}
		return give(other, other.pref)
	}
	// 4.3.3: opposite preferences.
	if first.pref != None && first.pref == other.pref.opposite() {
		return give(first, first.pref)
	}
	// 4.3.4 (Type B): only one strong preference.
	if e.in.Preferences == TypeB && first.strong != other.strong {
		if first.strong {
			return give(first, first.pref)
		}
		return give(other, other.pref)
	}
	// 4.3.5: the lower colour difference gets White.
	if first.cd != other.cd {
		if first.cd < other.cd {
			return give(first, White)
		}
		return give(other, White)
	}
	// 4.3.6: alternate from the latest round one had White, the other Black.
	for r := min(len(first.Colours), len(other.Colours)) - 1; r >= 0; r-- {
		cf, co := first.Colours[r], other.Colours[r]
		if cf != None && co != None && cf != co {
			return give(first, cf.opposite())
		}
	}
	// 4.3.7: the first-team's preference.
	if first.pref != None {
		return give(first, first.pref)
	}
	// 4.3.8, 4.3.9: alternate the first-team's, then the other's, last colour.
	if c := lastColour(first.Colours); c != None {
		return give(first, c.opposite())
	}
	if c := lastColour(other.Colours); c != None {
		return give(other, c.opposite())
	}
	return give(first, White)
}

func lastColour(cs []Colour) Colour {
	for i := len(cs) - 1; i >= 0; i-- {
		if cs[i] != None {
			return cs[i]
		}
	}
	return None
}
