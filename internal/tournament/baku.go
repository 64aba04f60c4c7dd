package tournament

import (
	"fmt"
	"strconv"
	"strings"
)

// BakuPoints returns the virtual points the Baku acceleration (FIDE
// C.04.5.1) gives player start for the pairing of round r, in points:
//
//   - GA, the first half of the players of round 1's list rounded up to an
//     even number (2·⌈N/4⌉), gets them; GB and late entries do not (the
//     last GA player stays the same after a late entry, and late entries
//     take the next start numbers here);
//   - the accelerated rounds are the first half of the rounds, rounded up;
//     GA has 1 point in the first half of them (rounded up), ½ in the rest,
//     and nothing after.
//
// BakuGA says who is in GA. The virtual points count only for the pairing, never in the standings.
func (e *Event) BakuPoints(start, r int) float64 {
	ga := e.BakuGA()
	if start < 1 || start > ga || e.Rounds < 1 {
		return 0
	}
	accelerated := (e.Rounds + 1) / 2
	full := (accelerated + 1) / 2
	switch {
	case r <= full:
		return 1
	case r <= accelerated:
		return 0.5
	}
	return 0
}

// BakuGA is the last start number of group GA (C.04.5.1: the first half of
// the players, rounded up to an even number). The players are those of
// round 1's list: the highest start number paired in round 1, or, before
// it is paired, of the players to pair in it (late entries take the next
// start numbers, and a round 1 missed is not paired).
func (e *Event) BakuGA() int {
	n := 0
	avail := e.Available(1)
	for i := range e.Players {
		p := &e.Players[i]
		if en := p.Entry(1); en.Opponent > 0 || en.Code == PairingBye {
			n = max(n, p.Start)
		}
	}
	if n == 0 {
		for _, s := range avail {
			n = max(n, s)
		}
	}
	return 2 * ((n + 3) / 4)
}

// BakuXXA returns the XXA lines (the pairing programs' manual acceleration,
// one a player: the virtual points of each round up to rounds) of the Baku
// acceleration, for programs that read them.
func (e *Event) BakuXXA(rounds int) []string {
	var out []string
	for i := range e.Players {
		s := e.Players[i].Start
		line := fmt.Sprintf("XXA %4d", s)
		any := false
		for r := 1; r <= rounds; r++ {
			v := e.BakuPoints(s, r)
			any = any || v > 0
			line += fmt.Sprintf(" %4.1f", v)
		}
		if any {
			out = append(out, line)
		}
	}
	return out
}

// Accelerations reads the event's XXA lines (the pairing programs' manual
// acceleration: a player's start number in columns 5-8, then from column 10
// his virtual points for each round, four columns and a space each) and
// returns each player's points by round, index 0 for round 1.
func (e *Event) Accelerations() (map[int][]float64, error) {
	var out map[int][]float64
	for _, l := range e.Extra {
		if !strings.HasPrefix(l, "XXA") {
			continue
		}
		if len(l) < 8 {
			return nil, fmt.Errorf("XXA line %q: no start number in columns 5-8", l)
		}
		s, err := strconv.Atoi(strings.TrimSpace(l[4:8]))
		if err != nil || e.Player(s) == nil {
			return nil, fmt.Errorf("XXA line %q: no player %q", l, strings.TrimSpace(l[4:8]))
		}
		var pts []float64
		for at := 9; at < len(l); at += 5 {
			f := strings.TrimSpace(l[at:min(at+4, len(l))])
			v := 0.0
			if f != "" {
				if v, err = strconv.ParseFloat(f, 64); err != nil || v < 0 {
					return nil, fmt.Errorf("XXA line %q: round %d: %q is not points", l, len(pts)+1, f)
				}
			}
			pts = append(pts, v)
		}
		if out == nil {
			out = map[int][]float64{}
		}
		out[s] = pts
	}
	return out, nil
}
